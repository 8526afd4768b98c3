// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <ui/tools/tool.h>

#include <core/scene/scene.h>

#include <vector>

namespace plume {

/// Paints a stroke item of one kind (emitter, obstacle, force) on the viewport's plane (the
/// slice plane in 3D: every point lies in it; the radius is a sphere's). Points are kept every
/// quarter radius along the pointer's path, each with the brush radius and a pressure (the
/// hardness times the tablet pressure). A force stroke pushes along the stroke's motion (first
/// point to last). The finished stroke is one AddItem command.
class BrushTool : public Tool
{
public:
    BrushTool(ToolHost *host, ItemKind kind);

    QString name() const override;
    void press(const ToolEvent &event) override;
    void drag(const ToolEvent &event) override;
    void release(const ToolEvent &event) override;
    void cancel() override { mPoints.clear(); }
    void paint(QPainter &painter) const override;

private:
    void addPoint(const ToolEvent &event);

    ItemKind mKind;
    std::vector<StrokePoint> mPoints;
};

} // namespace plume
