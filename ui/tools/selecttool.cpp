#include "selecttool.h"

#include "toolhost.h"

#include <document/shapeedit.h>
#include <document/undocommands.h>

#include <cmath>

namespace plume {

void SelectTool::press(const ToolEvent &event)
{
    Document *document = mHost->document();
    ++mDragKey;
    mStart = event.world;
    const int selected = document->selectedItem();
    if (selected >= 0 && mHost->scaleHandleHit(selected, event.pos)) {
        const Item &item = document->scene().items[std::size_t(selected)];
        // The pivot is the centre of the cross-section's bounds, on the plane.
        const sim::Vec3 offset = item.offset.at(mHost->frameNumber());
        const QRectF bounds = mHost->planeBounds(item.shape, offset);
        const SlicePlane plane = mHost->threeD() ? mHost->slicePlane() : SlicePlane{};
        mMode = Mode::Scale;
        mIndex = selected;
        mName = item.name;
        mOriginal = mExpected = item.shape;
        mPivot = plane.toWorld({float(bounds.center().x()), float(bounds.center().y()), 0.f})
                 - offset;
        mPivot[plane.axis] = event.world[plane.axis] - offset[plane.axis];
        return;
    }
    mIndex = mHost->itemAt(event.pos);
    document->setSelectedItem(mIndex);
    mMode = mIndex >= 0 ? Mode::Move : Mode::None;
    if (mIndex >= 0) {
        const Item &item = document->scene().items[std::size_t(mIndex)];
        mName = item.name;
        mOriginal = mExpected = item.shape;
    }
}

bool SelectTool::itemUnchanged() const
{
    const std::vector<Item> &items = mHost->document()->scene().items;
    return mIndex >= 0 && mIndex < int(items.size()) && items[std::size_t(mIndex)].name == mName
           && items[std::size_t(mIndex)].shape == mExpected;
}

void SelectTool::drag(const ToolEvent &event)
{
    if (mMode == Mode::None)
        return;
    // Undo, redo or Delete while the button is down: the item may be gone, at another index
    // or reshaped. The drag ends rather than write a stale shape (or past the item list).
    if (!itemUnchanged()) {
        mMode = Mode::None;
        return;
    }
    Document *document = mHost->document();
    Shape shape;
    if (mMode == Mode::Move) {
        // Moves stay in the view's plane (world x-y in 2D).
        const sim::Vec3 delta = event.world - mStart;
        const SlicePlane plane = mHost->threeD() ? mHost->slicePlane() : SlicePlane{};
        shape = translatedShape(mOriginal, plane.inPlane(delta));
    } else {
        const sim::Vec3 offset = document->scene().items[std::size_t(mIndex)].offset.at(
            mHost->frameNumber());
        const sim::Vec3 pivot = mPivot + offset;
        const float from = length(mStart - pivot);
        const float to = length(event.world - pivot);
        if (from <= 0.f)
            return;
        shape = scaledShape(mOriginal, std::max(to / from, 0.02f), mPivot);
    }
    if (shape == document->scene().items[std::size_t(mIndex)].shape)
        return;
    mExpected = shape;
    document->undoStack()->push(new ChangeValue<values::ItemShape>(
        document, mIndex, std::move(shape),
        mMode == Mode::Move ? MergeId::MoveItem : MergeId::ScaleItem, mDragKey));
}

void SelectTool::release(const ToolEvent &event)
{
    drag(event);
    mMode = Mode::None;
}

} // namespace plume
