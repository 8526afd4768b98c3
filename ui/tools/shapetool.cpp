// SPDX-License-Identifier: Apache-2.0
#include <ui/tools/shapetool.h>

#include <ui/tools/toolhost.h>
#include <ui/tools/tooloptions.h>

#include <ui/document/animationstate.h>
#include <ui/document/undocommands.h>

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace plume {

ShapeTool::ShapeTool(ToolHost *host, ShapeType type)
    : Tool(host)
    , mType(type)
{}

QString ShapeTool::name() const
{
    switch (mType) {
    case ShapeType::Box: return "Box";
    case ShapeType::Capsule: return "Capsule";
    default: return "Circle";
    }
}

void ShapeTool::press(const ToolEvent &event)
{
    mStart = event.world;
    mShape = shapeBetween(mStart, mStart);
}

void ShapeTool::drag(const ToolEvent &event)
{
    if (!mShape)
        return;
    mShape = shapeBetween(mStart, event.world);
    mHost->requestRepaint();
}

void ShapeTool::release(const ToolEvent &event)
{
    if (!mShape)
        return;
    Shape shape = shapeBetween(mStart, event.world);
    mShape.reset();
    Document *document = mHost->document();
    const ToolOptions &options = *mHost->toolOptions();
    const ItemKind kind = options.shapeKind();
    Item item = options.makeItem(kind, std::move(shape), {0.f, 1.f, 0.f}, document->scene());
    const QString base = QString("%1 %2").arg(kind == ItemKind::Emitter    ? "emitter"
                                              : kind == ItemKind::Obstacle ? "obstacle"
                                                                           : "force",
                                              name().toLower());
    item.name = document->uniqueItemName(base.toStdString());
    const int index = int(document->scene().items.size());
    // With auto-key the new item is keyed where it is, at the current frame.
    if (document->animation()->autoKey())
        keyPlacement(item, document->animation()->frame());
    document->undoStack()->push(new AddItem(document, index, std::move(item)));
    document->setSelectedItem(index);
    mHost->requestRepaint();
}

// A click without a drag gives a shape of the brush radius. a and b lie on the view's plane;
// a box spans them in the plane and is the brush radius deep along the plane's normal.
Shape ShapeTool::shapeBetween(sim::Vec3 a, sim::Vec3 b) const
{
    const float minimum = mHost->toolOptions()->radius();
    const SlicePlane plane = mHost->threeD() ? mHost->slicePlane() : SlicePlane{};
    Shape s;
    s.type = mType;
    switch (mType) {
    case ShapeType::Box:
        s.centre = (a + b) * 0.5f;
        for (int axis : {plane.u(), plane.v()})
            s.halfSize[axis] = std::max(0.5f * std::abs(b[axis] - a[axis]), minimum);
        s.halfSize[plane.axis] = minimum;
        break;
    case ShapeType::Capsule:
        s.start = a;
        s.end = b;
        s.radius = minimum;
        break;
    default:
        s.type = ShapeType::Sphere;
        s.centre = a;
        s.radius = std::max(length(b - a), minimum);
        break;
    }
    return s;
}

void ShapeTool::paint(QPainter &painter) const
{
    if (!mShape)
        return;
    QColor colour = mHost->itemColor(mHost->toolOptions()->shapeKind());
    painter.setPen(QPen(colour, 1.5, Qt::DashLine));
    colour.setAlpha(70);
    painter.setBrush(colour);
    painter.drawPath(mHost->shapePath(*mShape, {}));
}

} // namespace plume
