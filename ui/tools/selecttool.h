#pragma once

#include "tool.h"

#include <scene/scene.h>

namespace plume {

/// Selects the topmost item under the pointer, moves it by dragging, and scales it by dragging
/// the handle at the top-right corner of its outline (about the outline's centre). A drag is
/// one undo step (the commands of one drag merge). An edit that reaches the document while
/// the button is down (Ctrl+Z, Delete) ends the drag: the item may be gone or elsewhere.
class SelectTool : public Tool
{
public:
    using Tool::Tool;

    QString name() const override { return "Select"; }
    void press(const ToolEvent &event) override;
    void drag(const ToolEvent &event) override;
    void release(const ToolEvent &event) override;
    void cancel() override { mMode = Mode::None; }

private:
    enum class Mode { None, Move, Scale };

    /// Whether item mIndex is still the one being dragged, as the drag left it.
    bool itemUnchanged() const;

    Mode mMode = Mode::None;
    int mIndex = -1;
    std::string mName; ///< the dragged item's name (names are unique in a scene)
    Shape mOriginal;
    Shape mExpected; ///< the item's shape as the drag last set it
    sim::Vec3 mStart;
    sim::Vec3 mPivot;
    quint64 mDragKey = 0;
};

} // namespace plume
