// SPDX-License-Identifier: Apache-2.0
#include <ui/tools/erasertool.h>

#include <ui/tools/toolhost.h>
#include <ui/tools/tooloptions.h>

#include <core/scene/shapecoverage.h>
#include <ui/document/shapeedit.h>
#include <ui/document/sliceplane.h>
#include <ui/document/undocommands.h>

#include <QPainter>

#include <cmath>

namespace plume {

// In 3D the eraser is a sphere on the slice plane: it hits a shape whose cross-section it
// touches, and stroke points within its radius.
bool EraserTool::touches(const Shape &shape, const Placement &placement, sim::Vec3 p,
                         float radius) const
{
    const sim::Vec3 q = mHost->threeD() ? mHost->slicePlane().toPlane(p) : p;
    return mHost->section(shape, placement).contains({q.x, q.y, 0.f}, radius);
}

std::vector<std::vector<StrokePoint>> EraserTool::erasePoints(
    const std::vector<StrokePoint> &points, sim::Vec3 centre, float radius) const
{
    if (!mHost->threeD())
        return eraseStrokePoints(points, centre, radius);
    std::vector<std::vector<StrokePoint>> runs(1);
    for (const StrokePoint &p : points) {
        if (length(p.position - centre) > radius)
            runs.back().push_back(p);
        else if (!runs.back().empty())
            runs.emplace_back();
    }
    if (runs.back().empty())
        runs.pop_back();
    return runs;
}

void EraserTool::press(const ToolEvent &event)
{
    mPath = {event.world};
    mCursor = event.pos;
}

void EraserTool::drag(const ToolEvent &event)
{
    mCursor = event.pos;
    if (mPath.empty())
        return;
    // Samples a quarter radius apart, so the disc sweeps the whole path.
    const float step = 0.25f * mHost->toolOptions()->radius();
    const sim::Vec3 last = mPath.back();
    const float d = length(event.world - last);
    const int n = int(std::ceil(d / step));
    for (int s = 1; s <= n; ++s)
        mPath.push_back(last + (event.world - last) * (float(s) / float(n)));
    mHost->requestRepaint();
}

void EraserTool::hover(const ToolEvent &event)
{
    mCursor = event.pos;
    mHost->requestRepaint();
}

void EraserTool::release(const ToolEvent &event)
{
    drag(event);
    if (mPath.empty())
        return;
    Document *document = mHost->document();
    const Scene &scene = document->scene();
    const float radius = mHost->toolOptions()->radius();
    const double frame = mHost->frameNumber();
    auto *macro = new QUndoCommand("Erase");
    // From the last item down, so the indices of the items still to visit stay valid.
    for (int index = int(scene.items.size()) - 1; index >= 0; --index) {
        const Item &item = scene.items[std::size_t(index)];
        const Placement placement = item.placementAt(frame);
        if (item.shape.type != ShapeType::Stroke) {
            for (sim::Vec3 p : mPath)
                if (touches(item.shape, placement, p, radius)) {
                    new RemoveItem(document, index, macro);
                    break;
                }
            continue;
        }
        // The eraser's path in the stroke's own frame (before the item's placement).
        const Placement shown = effectivePlacement(placement, !mHost->threeD());
        const Affine back = placementTransform(shown, shapePivot(item.shape)).inverse();
        const bool translationOnly = shown.isTranslation();
        const float localRadius = translationOnly ? radius
                                                  : radius / std::max(minScale(shown), 1e-6f);
        std::vector<std::vector<StrokePoint>> runs{item.shape.points};
        for (sim::Vec3 p : mPath) {
            const sim::Vec3 local = translationOnly ? p - shown.offset : back.apply(p);
            std::vector<std::vector<StrokePoint>> next;
            for (const auto &run : runs)
                for (auto &piece : erasePoints(run, local, localRadius))
                    next.push_back(std::move(piece));
            runs = std::move(next);
        }
        if (runs.size() == 1 && runs.front().size() == item.shape.points.size())
            continue;
        if (runs.empty()) {
            new RemoveItem(document, index, macro);
            continue;
        }
        Shape first = item.shape;
        first.points = runs.front();
        new ChangeValue<values::ItemShape>(document, index, first, MergeId::None, 0, macro);
        // The other pieces become items of their own right after it.
        std::vector<std::string> taken;
        for (std::size_t r = 1; r < runs.size(); ++r) {
            Item piece = item;
            piece.shape.points = runs[r];
            std::string name;
            for (int n = 2;; ++n) {
                name = item.name + " " + std::to_string(n);
                if (!scene.findItem(name)
                    && std::find(taken.begin(), taken.end(), name) == taken.end())
                    break;
            }
            taken.push_back(name);
            piece.name = name;
            new AddItem(document, index + int(r), std::move(piece), macro);
        }
    }
    mPath.clear();
    if (macro->childCount() == 0) {
        delete macro;
        return;
    }
    document->setSelectedItem(-1);
    document->undoStack()->push(macro);
}

void EraserTool::paint(QPainter &painter) const
{
    const double r = mHost->toolOptions()->radius() * mHost->pixelsPerUnit();
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(QColor(255, 255, 255, 180), 1.0, Qt::DashLine));
    painter.drawEllipse(mCursor, r, r);
}

} // namespace plume
