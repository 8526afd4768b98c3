#include "selecttool.h"

#include <document/shapeedit.h>
#include <document/undocommands.h>
#include <viewport/viewport.h>

#include <cmath>

namespace plume {

void SelectTool::press(const ToolEvent &event)
{
    Document *document = mViewport->document();
    ++mDragKey;
    mStart = event.world;
    const int selected = document->selectedItem();
    if (selected >= 0 && mViewport->scaleHandleHit(selected, event.pos)) {
        const Item &item = document->scene().items[std::size_t(selected)];
        const QRectF bounds = shapeBounds(item.shape, {});
        mMode = Mode::Scale;
        mIndex = selected;
        mOriginal = item.shape;
        mPivot = {float(bounds.center().x()), float(bounds.center().y()), event.world.z};
        return;
    }
    mIndex = mViewport->itemAt(event.pos);
    document->setSelectedItem(mIndex);
    mMode = mIndex >= 0 ? Mode::Move : Mode::None;
    if (mIndex >= 0)
        mOriginal = document->scene().items[std::size_t(mIndex)].shape;
}

void SelectTool::drag(const ToolEvent &event)
{
    if (mMode == Mode::None)
        return;
    Document *document = mViewport->document();
    Shape shape;
    if (mMode == Mode::Move) {
        sim::Vec3 delta = event.world - mStart;
        delta.z = 0.f;
        shape = translatedShape(mOriginal, delta);
    } else {
        const sim::Vec3 offset =
            document->scene().items[std::size_t(mIndex)].offset.at(mViewport->frameNumber());
        const sim::Vec3 pivot = mPivot + offset;
        const float from = std::hypot(mStart.x - pivot.x, mStart.y - pivot.y);
        const float to = std::hypot(event.world.x - pivot.x, event.world.y - pivot.y);
        if (from <= 0.f)
            return;
        shape = scaledShape(mOriginal, std::max(to / from, 0.02f), mPivot);
    }
    if (shape == document->scene().items[std::size_t(mIndex)].shape)
        return;
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
