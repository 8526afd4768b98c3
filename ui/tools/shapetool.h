// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <ui/tools/tool.h>

#include <core/scene/scene.h>

#include <optional>

namespace plume {

/// Places a circle, box or capsule by dragging on the viewport's plane (the slice plane in 3D,
/// where the circle is a sphere and the box is the brush radius deep): a circle from its
/// centre out to its radius, a box from corner to corner, a capsule from end to end (with the
/// brush radius). The item's
/// kind is the tool options' shape kind. The new item is one AddItem command.
class ShapeTool : public Tool
{
public:
    ShapeTool(ToolHost *host, ShapeType type);

    QString name() const override;
    void press(const ToolEvent &event) override;
    void drag(const ToolEvent &event) override;
    void release(const ToolEvent &event) override;
    void cancel() override { mShape.reset(); }
    void paint(QPainter &painter) const override;

private:
    Shape shapeBetween(sim::Vec3 a, sim::Vec3 b) const;

    ShapeType mType;
    sim::Vec3 mStart;
    std::optional<Shape> mShape;
};

} // namespace plume
