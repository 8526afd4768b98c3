#pragma once

#include "tool.h"

#include <vector>

namespace plume {

/// Erases with a disc of the brush radius dragged over the scene: stroke points under it go
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
    std::vector<sim::Vec3> mPath;
    QPointF mCursor;
};

} // namespace plume
