// SPDX-License-Identifier: Apache-2.0
#include <ui/tools/selecttool.h>

#include <ui/tools/toolhost.h>

#include <core/scene/shapecoverage.h>
#include <ui/document/animationstate.h>
#include <ui/document/shapeedit.h>
#include <ui/document/undocommands.h>

#include <QPainter>

#include <algorithm>

#include <cmath>
#include <numbers>

namespace plume {

namespace {

constexpr float kSnapDegrees = 15.f;

float wrapDegrees(float a)
{
    while (a > 180.f)
        a -= 360.f;
    while (a <= -180.f)
        a += 360.f;
    return a;
}

} // namespace

QString SelectTool::hint() const
{
    return "Select: click an item to select it (Shift: add, Ctrl: toggle), drag to move the "
           "selection, drag on empty space for a rubber band; drag the corner handle to scale, "
           "the round handle to rotate about the pivot (Shift: 15 degree steps)";
}

sim::Vec3 SelectTool::scalePivot(const Item &item, sim::Vec3 world) const
{
    // The centre of the cross-section's bounds, on the plane.
    const SlicePlane plane = mHost->threeD() ? mHost->slicePlane() : SlicePlane{};
    const Placement placement = item.placementAt(mHost->frameNumber());
    const QRectF bounds = mHost->planeBounds(item.shape, placement);
    sim::Vec3 pivot = plane.toWorld({float(bounds.center().x()), float(bounds.center().y()), 0.f})
                      - placement.offset;
    // Along the view's axis: the plane in a slice; in 2D the shape's own depth, so that a
    // mesh stays on the plane that cuts it.
    pivot[plane.axis] = mHost->threeD() ? world[plane.axis] - placement.offset[plane.axis]
                                        : shapePivot(item.shape)[plane.axis];
    return pivot;
}

void SelectTool::takeTargets()
{
    const Document *document = mHost->document();
    mTargets.clear();
    for (int index : document->selectedItems()) {
        const Item &item = document->scene().items[std::size_t(index)];
        if (!item.locked)
            mTargets.push_back({index, item, item, scalePivot(item, mStart)});
    }
}

void SelectTool::press(const ToolEvent &event)
{
    Document *document = mHost->document();
    ++mDragKey;
    mStart = event.world;
    mPressPos = mPointer = event.pos;
    mPressModifiers = event.modifiers;
    mMode = Mode::None;
    const int current = document->selectedItem();
    const bool handles = current >= 0 && !document->scene().items[std::size_t(current)].locked;
    if (handles && mHost->rotateHandleHit(current, event.pos)) {
        const Item &item = document->scene().items[std::size_t(current)];
        mMode = Mode::Rotate;
        takeTargets();
        mPivot = shapePivot(item.shape) + item.offset.at(mHost->frameNumber());
        mLastAngle = planeAngle(event.world);
        mTurned = mApplied = 0.f;
        return;
    }
    if (handles && mHost->scaleHandleHit(current, event.pos)) {
        mMode = Mode::Scale;
        takeTargets();
        mPivot = scalePivot(document->scene().items[std::size_t(current)], event.world);
        return;
    }
    const int hit = mHost->itemAt(event.pos);
    if (hit < 0) {
        // Empty space: a rubber band (a plain click there clears the selection).
        mMode = Mode::Band;
        if (!(event.modifiers & (Qt::ShiftModifier | Qt::ControlModifier)))
            document->setSelectedItem(-1);
        return;
    }
    std::vector<int> selection = document->selectedItems();
    if (event.modifiers & Qt::ControlModifier) {
        if (document->isSelected(hit)) {
            std::erase(selection, hit);
            document->setSelection(selection, current == hit ? -1 : current);
        } else {
            selection.push_back(hit);
            document->setSelection(selection, hit);
        }
        return;
    }
    if (event.modifiers & Qt::ShiftModifier) {
        selection.push_back(hit);
        document->setSelection(selection, hit);
    } else if (document->isSelected(hit)) {
        document->setSelection(selection, hit); // a drag moves the whole selection
    } else {
        document->setSelectedItem(hit);
    }
    mMode = Mode::Move;
    takeTargets();
}

bool SelectTool::targetsUnchanged() const
{
    const std::vector<Item> &items = mHost->document()->scene().items;
    return std::all_of(mTargets.begin(), mTargets.end(), [&](const Target &t) {
        return t.index >= 0 && t.index < int(items.size())
               && items[std::size_t(t.index)] == t.expected;
    });
}

bool SelectTool::targetsUntouched() const
{
    return std::all_of(mTargets.begin(), mTargets.end(),
                       [](const Target &t) { return t.expected == t.original; });
}

float SelectTool::planeAngle(sim::Vec3 world) const
{
    const SlicePlane plane = mHost->threeD() ? mHost->slicePlane() : SlicePlane{};
    const sim::Vec3 d = plane.toPlane(world) - plane.toPlane(mPivot);
    return std::atan2(d.y, d.x) * 180.f / std::numbers::pi_v<float>;
}

void SelectTool::rotate(const ToolEvent &event)
{
    const float angle = planeAngle(event.world);
    mTurned += wrapDegrees(angle - mLastAngle);
    mLastAngle = angle;
    const float turn = (event.modifiers & Qt::ShiftModifier)
                           ? kSnapDegrees * std::round(mTurned / kSnapDegrees)
                           : mTurned;
    mApplied = turn;
    // A counter-clockwise turn on screen (from the view's right to its up) is a turn about
    // u x v, which is minus the axis for the X and Y slices.
    const SlicePlane plane = mHost->threeD() ? mHost->slicePlane() : SlicePlane{};
    const float sign = plane.axis == 2 ? 1.f : -1.f;
    const AnimationState *animation = mHost->document()->animation();
    const int frame = animation->frame();
    if (animation->autoKey() && turn == 0.f && targetsUntouched())
        return; // a click on the handle sets no key
    std::vector<Item> items;
    for (const Target &t : mTargets) {
        Item item = t.expected;
        if (animation->autoKey()) {
            Item keyed = t.original;
            setKey(keyed, AnimProperty::Rotation, frame,
                   rotatedAbout(t.original.rotation.at(frame), plane.axis, sign * turn));
            item.rotation = keyed.rotation;
        } else {
            item.rotation = rotatedAbout(t.original.rotation, plane.axis, sign * turn);
        }
        items.push_back(std::move(item));
    }
    apply(std::move(items), AnimProperty::Rotation);
}

void SelectTool::apply(std::vector<Item> items, AnimProperty keyed)
{
    Document *document = mHost->document();
    const AnimationState *animation = document->animation();
    const bool autoKey = animation->autoKey();
    std::vector<std::pair<int, Item>> changes;
    for (std::size_t n = 0; n < mTargets.size(); ++n)
        if (items[n] != document->scene().items[std::size_t(mTargets[n].index)])
            changes.emplace_back(mTargets[n].index, items[n]);
    if (changes.empty())
        return;
    for (std::size_t n = 0; n < mTargets.size(); ++n)
        mTargets[n].expected = items[n];
    const MergeId merge = mMode == Mode::Move    ? MergeId::MoveItem
                          : mMode == Mode::Scale ? MergeId::ScaleItem
                                                 : MergeId::RotateItem;
    QUndoCommand *command = nullptr;
    if (mTargets.size() == 1) {
        const Item &item = items.front();
        const int index = mTargets.front().index;
        if (autoKey && keyed == AnimProperty::Offset)
            command = new ChangeValue<values::ItemOffset>(document, index, item.offset, merge,
                                                          mDragKey);
        else if (autoKey && keyed == AnimProperty::Scale)
            command = new ChangeValue<values::ItemScale>(document, index, item.scale, merge,
                                                         mDragKey);
        else if (mMode == Mode::Rotate)
            command = new ChangeValue<values::ItemRotation>(document, index, item.rotation, merge,
                                                            mDragKey);
        else
            command = new ChangeValue<values::ItemShape>(document, index, item.shape, merge,
                                                         mDragKey);
        if (autoKey)
            command->setText(QString("Auto-key: %1 at frame %2")
                                 .arg(propertyLabel(keyed))
                                 .arg(animation->frame()));
    } else {
        // Every target, changed or not, so that the drag's commands name the same items and
        // merge.
        changes.clear();
        for (std::size_t n = 0; n < mTargets.size(); ++n)
            changes.emplace_back(mTargets[n].index, items[n]);
        const char *verb = mMode == Mode::Move ? "Move" : mMode == Mode::Scale ? "Scale" : "Rotate";
        QString text = QString("%1 %2 Items").arg(verb).arg(mTargets.size());
        if (autoKey)
            text = QString("Auto-key: %1 at frame %2").arg(text).arg(animation->frame());
        command = new ChangeItems(document, text, std::move(changes), merge, mDragKey);
    }
    document->undoStack()->push(command);
}

void SelectTool::drag(const ToolEvent &event)
{
    if (mMode == Mode::None)
        return;
    mPointer = event.pos;
    if (mMode == Mode::Band) {
        mHost->requestRepaint();
        return;
    }
    // Undo, redo or Delete while the button is down: the items may be gone, at other indices
    // or reshaped. The drag ends rather than write a stale shape (or past the item list).
    if (mTargets.empty() || !targetsUnchanged()) {
        mMode = Mode::None;
        return;
    }
    if (mMode == Mode::Rotate) {
        rotate(event);
        mHost->requestRepaint();
        return;
    }
    Document *document = mHost->document();
    const SlicePlane plane = mHost->threeD() ? mHost->slicePlane() : SlicePlane{};
    // With auto-key a move or scale keys the offset or scale at the current frame (the shape
    // stays), from the value each item had there when the drag began.
    const AnimationState *animation = document->animation();
    const bool autoKey = animation->autoKey();
    const int frame = animation->frame();
    std::vector<Item> items;
    if (mMode == Mode::Move) {
        // Moves stay in the view's plane (world x-y in 2D).
        const sim::Vec3 delta = plane.inPlane(event.world - mStart);
        if (autoKey && delta == sim::Vec3{} && targetsUntouched())
            return; // a click selects; it sets no key
        for (const Target &t : mTargets) {
            Item item = t.expected;
            if (autoKey) {
                Item keyed = t.original;
                setKey(keyed, AnimProperty::Offset, frame, t.original.offset.at(frame) + delta);
                item.offset = keyed.offset;
            } else {
                item.shape = translatedShape(t.original.shape, delta);
            }
            items.push_back(std::move(item));
        }
        apply(std::move(items), AnimProperty::Offset);
        return;
    }
    {
        // The factor comes from the current item's pivot; each item scales about its own.
        const int current = document->selectedItem();
        if (current < 0)
            return;
        const sim::Vec3 pivot = mPivot
                                + document->scene().items[std::size_t(current)].offset.at(
                                    mHost->frameNumber());
        const float from = length(plane.inPlane(mStart - pivot));
        const float to = length(plane.inPlane(event.world - pivot));
        if (from <= 0.f)
            return;
        if (autoKey && to == from && targetsUntouched())
            return;
        const float factor = std::max(to / from, 0.02f);
        for (const Target &t : mTargets) {
            Item item = t.expected;
            if (autoKey) {
                Item keyed = t.original;
                setKey(keyed, AnimProperty::Scale, frame, t.original.scale.at(frame) * factor);
                item.scale = keyed.scale;
            } else {
                item.shape = scaledShape(t.original.shape, factor, t.pivot);
            }
            items.push_back(std::move(item));
        }
    }
    apply(std::move(items), AnimProperty::Scale);
}

void SelectTool::finishBand(const ToolEvent &event)
{
    Document *document = mHost->document();
    const QRectF band = QRectF(mPressPos, event.pos).normalized();
    // A click without a drag only cleared the selection (press).
    if (band.width() < 3.0 && band.height() < 3.0)
        return;
    const std::vector<int> inside = mHost->itemsTouching(band);
    std::vector<int> selection;
    int current = -1;
    if (mPressModifiers & Qt::ControlModifier) {
        selection = document->selectedItems();
        std::erase_if(selection, [&](int i) {
            return std::find(inside.begin(), inside.end(), i) != inside.end();
        });
        current = document->selectedItem();
    } else {
        if (mPressModifiers & Qt::ShiftModifier)
            selection = document->selectedItems();
        selection.insert(selection.end(), inside.begin(), inside.end());
        current = inside.empty() ? document->selectedItem() : inside.back();
    }
    document->setSelection(selection, current);
}

void SelectTool::release(const ToolEvent &event)
{
    if (mMode == Mode::Band)
        finishBand(event);
    else
        drag(event);
    mMode = Mode::None;
    mTargets.clear();
    mHost->requestRepaint();
}

// While rotating: a line from the pivot to the pointer and the angle turned.
// While drawing a rubber band: the band.
void SelectTool::paint(QPainter &painter) const
{
    if (mMode == Mode::Band) {
        const QRectF band = QRectF(mPressPos, mPointer).normalized();
        painter.setPen(QPen(QColor(255, 255, 255, 200), 1.0, Qt::DashLine));
        painter.setBrush(QColor(120, 170, 255, 40));
        painter.drawRect(band);
        return;
    }
    if (mMode != Mode::Rotate)
        return;
    const QPointF pivot = mHost->toWidget(mPivot);
    painter.setPen(QPen(QColor(120, 230, 150), 1.0, Qt::DashLine));
    painter.drawLine(pivot, mPointer);
    painter.drawText(mPointer + QPointF(12, -8), QString("%1°").arg(double(mApplied), 0, 'f', 1));
}

} // namespace plume
