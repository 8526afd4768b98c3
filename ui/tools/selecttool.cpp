#include "selecttool.h"

#include "toolhost.h"

#include <document/animationstate.h>
#include <document/shapeedit.h>
#include <document/undocommands.h>
#include <scene/shapecoverage.h>

#include <QPainter>

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
    return "Select: click an item to select it, drag to move it; drag the corner handle to "
           "scale it, the round handle above it to rotate it about its pivot (Shift: 15 degree "
           "steps)";
}

void SelectTool::press(const ToolEvent &event)
{
    Document *document = mHost->document();
    ++mDragKey;
    mStart = event.world;
    mPointer = event.pos;
    const SlicePlane plane = mHost->threeD() ? mHost->slicePlane() : SlicePlane{};
    const int selected = document->selectedItem();
    if (selected >= 0 && mHost->rotateHandleHit(selected, event.pos)) {
        const Item &item = document->scene().items[std::size_t(selected)];
        mMode = Mode::Rotate;
        mIndex = selected;
        mOriginal = mExpected = item;
        mPivot = shapePivot(item.shape) + item.offset.at(mHost->frameNumber());
        mLastAngle = planeAngle(event.world);
        mTurned = mApplied = 0.f;
        return;
    }
    if (selected >= 0 && mHost->scaleHandleHit(selected, event.pos)) {
        const Item &item = document->scene().items[std::size_t(selected)];
        // The pivot is the centre of the cross-section's bounds, on the plane.
        const Placement placement = item.placementAt(mHost->frameNumber());
        const QRectF bounds = mHost->planeBounds(item.shape, placement);
        mMode = Mode::Scale;
        mIndex = selected;
        mOriginal = mExpected = item;
        mPivot = plane.toWorld({float(bounds.center().x()), float(bounds.center().y()), 0.f})
                 - placement.offset;
        // Along the view's axis: the plane in a slice; in 2D the shape's own depth, so that a
        // mesh stays on the plane that cuts it.
        mPivot[plane.axis] = mHost->threeD()
                                 ? event.world[plane.axis] - placement.offset[plane.axis]
                                 : shapePivot(item.shape)[plane.axis];
        return;
    }
    mIndex = mHost->itemAt(event.pos);
    document->setSelectedItem(mIndex);
    mMode = mIndex >= 0 ? Mode::Move : Mode::None;
    if (mIndex >= 0)
        mOriginal = mExpected = document->scene().items[std::size_t(mIndex)];
}

bool SelectTool::itemUnchanged() const
{
    const std::vector<Item> &items = mHost->document()->scene().items;
    return mIndex >= 0 && mIndex < int(items.size()) && items[std::size_t(mIndex)] == mExpected;
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
    Document *document = mHost->document();
    const AnimationState *animation = document->animation();
    Animated<sim::Vec3> rotation = rotatedAbout(mOriginal.rotation, plane.axis, sign * turn);
    if (animation->autoKey()) {
        if (turn == 0.f && mExpected == mOriginal)
            return; // a click on the handle sets no key
        Item keyed = mOriginal;
        const int frame = animation->frame();
        setKey(keyed, AnimProperty::Rotation, frame,
               rotatedAbout(mOriginal.rotation.at(frame), plane.axis, sign * turn));
        rotation = keyed.rotation;
    }
    if (rotation == document->scene().items[std::size_t(mIndex)].rotation)
        return;
    mExpected.rotation = rotation;
    pushEdit(new ChangeValue<values::ItemRotation>(document, mIndex, std::move(rotation),
                                                   MergeId::RotateItem, mDragKey),
             AnimProperty::Rotation);
}

void SelectTool::drag(const ToolEvent &event)
{
    if (mMode == Mode::None)
        return;
    mPointer = event.pos;
    // Undo, redo or Delete while the button is down: the item may be gone, at another index
    // or reshaped. The drag ends rather than write a stale shape (or past the item list).
    if (!itemUnchanged()) {
        mMode = Mode::None;
        return;
    }
    if (mMode == Mode::Rotate) {
        rotate(event);
        mHost->requestRepaint();
        return;
    }
    Document *document = mHost->document();
    if (document->animation()->autoKey()) {
        autoKeyDrag(event);
        return;
    }
    Shape shape;
    if (mMode == Mode::Move) {
        // Moves stay in the view's plane (world x-y in 2D).
        const sim::Vec3 delta = event.world - mStart;
        const SlicePlane plane = mHost->threeD() ? mHost->slicePlane() : SlicePlane{};
        shape = translatedShape(mOriginal.shape, plane.inPlane(delta));
    } else {
        const sim::Vec3 offset = document->scene().items[std::size_t(mIndex)].offset.at(
            mHost->frameNumber());
        const sim::Vec3 pivot = mPivot + offset;
        const SlicePlane plane = mHost->threeD() ? mHost->slicePlane() : SlicePlane{};
        const float from = length(plane.inPlane(mStart - pivot));
        const float to = length(plane.inPlane(event.world - pivot));
        if (from <= 0.f)
            return;
        shape = scaledShape(mOriginal.shape, std::max(to / from, 0.02f), mPivot);
    }
    if (shape == document->scene().items[std::size_t(mIndex)].shape)
        return;
    mExpected.shape = shape;
    document->undoStack()->push(new ChangeValue<values::ItemShape>(
        document, mIndex, std::move(shape),
        mMode == Mode::Move ? MergeId::MoveItem : MergeId::ScaleItem, mDragKey));
}

void SelectTool::pushEdit(QUndoCommand *command, AnimProperty keyed)
{
    const AnimationState *animation = mHost->document()->animation();
    if (animation->autoKey())
        command->setText(
            QString("Auto-key: %1 at frame %2").arg(propertyLabel(keyed)).arg(animation->frame()));
    mHost->document()->undoStack()->push(command);
}

// With auto-key a move or scale keys the offset or scale at the current frame (the shape
// stays), from the value it had there when the drag began.
void SelectTool::autoKeyDrag(const ToolEvent &event)
{
    Document *document = mHost->document();
    const int frame = document->animation()->frame();
    const SlicePlane plane = mHost->threeD() ? mHost->slicePlane() : SlicePlane{};
    Item keyed = mOriginal;
    if (mMode == Mode::Move) {
        const sim::Vec3 delta = plane.inPlane(event.world - mStart);
        if (delta == sim::Vec3{} && mExpected == mOriginal)
            return; // a click selects; it sets no key
        setKey(keyed, AnimProperty::Offset, frame, mOriginal.offset.at(frame) + delta);
        if (keyed.offset == document->scene().items[std::size_t(mIndex)].offset)
            return;
        mExpected.offset = keyed.offset;
        pushEdit(new ChangeValue<values::ItemOffset>(document, mIndex, keyed.offset,
                                                     MergeId::MoveItem, mDragKey),
                 AnimProperty::Offset);
        return;
    }
    const sim::Vec3 pivot = mPivot + mOriginal.offset.at(frame);
    const float from = length(plane.inPlane(mStart - pivot));
    const float to = length(plane.inPlane(event.world - pivot));
    if (from <= 0.f || (to == from && mExpected == mOriginal))
        return;
    setKey(keyed, AnimProperty::Scale, frame,
           mOriginal.scale.at(frame) * std::max(to / from, 0.02f));
    if (keyed.scale == document->scene().items[std::size_t(mIndex)].scale)
        return;
    mExpected.scale = keyed.scale;
    pushEdit(new ChangeValue<values::ItemScale>(document, mIndex, keyed.scale, MergeId::ScaleItem,
                                                mDragKey),
             AnimProperty::Scale);
}

void SelectTool::release(const ToolEvent &event)
{
    drag(event);
    mMode = Mode::None;
    mHost->requestRepaint();
}

// While rotating: a line from the pivot to the pointer and the angle turned.
void SelectTool::paint(QPainter &painter) const
{
    if (mMode != Mode::Rotate)
        return;
    const QPointF pivot = mHost->toWidget(mPivot);
    painter.setPen(QPen(QColor(120, 230, 150), 1.0, Qt::DashLine));
    painter.drawLine(pivot, mPointer);
    painter.drawText(mPointer + QPointF(12, -8), QString("%1°").arg(double(mApplied), 0, 'f', 1));
}

} // namespace plume
