// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <ui/tools/tool.h>

#include <core/scene/scene.h>

#include <vector>

namespace plume {

/// Erases with a disc of the brush radius dragged over the scene (a sphere on the slice plane
/// in 3D): stroke points under it go
/// (a stroke cut in two becomes two items), and any other shape it touches is deleted. The
/// whole drag is one undo step.
class EraserTool : public Tool
{
public:
    using Tool::Tool;

    QString name() const override { return "Eraser"; }
    void press(const ToolEvent &event) override;
    void drag(const ToolEvent &event) override;
    void release(const ToolEvent &event) override;
    void hover(const ToolEvent &event) override;
    void cancel() override { mPath.clear(); }
    void paint(QPainter &painter) const override;

private:
    bool touches(const Shape &shape, const Placement &placement, sim::Vec3 p, float radius) const;
    std::vector<std::vector<StrokePoint>> erasePoints(const std::vector<StrokePoint> &points,
                                                      sim::Vec3 centre, float radius) const;

    std::vector<sim::Vec3> mPath;
    QPointF mCursor;
};

} // namespace plume
