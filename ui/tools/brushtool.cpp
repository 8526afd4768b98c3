// SPDX-License-Identifier: Apache-2.0
#include <ui/tools/brushtool.h>

#include <ui/tools/toolhost.h>
#include <ui/tools/tooloptions.h>

#include <ui/document/animationstate.h>
#include <ui/document/undocommands.h>

#include <QPainter>

#include <cmath>

namespace plume {

BrushTool::BrushTool(ToolHost *host, ItemKind kind)
    : Tool(host)
    , mKind(kind)
{}

QString BrushTool::name() const
{
    switch (mKind) {
    case ItemKind::Emitter: return "Emitter Brush";
    case ItemKind::Obstacle: return "Obstacle Brush";
    case ItemKind::ForceField: return "Force Brush";
    }
    return "Brush";
}

void BrushTool::press(const ToolEvent &event)
{
    mPoints.clear();
    addPoint(event);
}

void BrushTool::drag(const ToolEvent &event)
{
    if (mPoints.empty())
        return;
    const sim::Vec3 last = mPoints.back().position;
    const float spacing = 0.25f * mHost->toolOptions()->radius();
    // Points lie on the view's slice plane, so the 3D distance is the distance in the plane.
    if (length(event.world - last) >= spacing)
        addPoint(event);
    mHost->requestRepaint();
}

void BrushTool::release(const ToolEvent &event)
{
    if (mPoints.empty())
        return;
    drag(event);
    Document *document = mHost->document();
    Shape shape;
    shape.type = ShapeType::Stroke;
    shape.points = std::move(mPoints);
    mPoints.clear();
    const sim::Vec3 motion = shape.points.back().position - shape.points.front().position;
    Item item = mHost->toolOptions()->makeItem(mKind, std::move(shape), motion,
                                               mHost->document()->scene());
    const char *base = mKind == ItemKind::Emitter    ? "emitter stroke"
                       : mKind == ItemKind::Obstacle ? "obstacle stroke"
                                                     : "force stroke";
    item.name = document->uniqueItemName(base);
    const int index = int(document->scene().items.size());
    // With auto-key the new item is keyed where it is, at the current frame.
    if (document->animation()->autoKey())
        keyPlacement(item, document->animation()->frame());
    document->undoStack()->push(new AddItem(document, index, std::move(item)));
    document->setSelectedItem(index);
    mHost->requestRepaint();
}

void BrushTool::addPoint(const ToolEvent &event)
{
    const ToolOptions &options = *mHost->toolOptions();
    StrokePoint p;
    p.position = event.world;
    p.radius = options.radius();
    p.pressure = std::clamp(options.hardness() * event.pressure, 0.f, 1.f);
    mPoints.push_back(p);
}

void BrushTool::paint(QPainter &painter) const
{
    if (mPoints.empty())
        return;
    QColor colour = mHost->itemColor(mKind);
    colour.setAlpha(110);
    for (std::size_t n = 0; n < mPoints.size(); ++n) {
        const StrokePoint &a = mPoints[n];
        const StrokePoint &b = mPoints[std::min(n + 1, mPoints.size() - 1)];
        painter.setPen(
            QPen(colour, 2.0 * a.radius * mHost->pixelsPerUnit(), Qt::SolidLine, Qt::RoundCap));
        painter.drawLine(mHost->toWidget(a.position), mHost->toWidget(b.position));
    }
}

} // namespace plume
