#pragma once

#include "tool.h"

#include <document/keyframes.h>
#include <scene/scene.h>

class QUndoCommand;

namespace plume {

/// Selects the topmost item under the pointer and moves it by dragging; scales it by dragging
/// the square-cornered handle at the top-right of its outline (about the outline's centre) and
/// rotates it by dragging the round handle above its outline, about the item's pivot (the
/// cross) and the axis the view looks along (z in 2D); Shift snaps the turn to 15 degrees. A
/// turn changes the item's rotation (every key of a keyframed one alike). With auto-key on, a
/// move, scale or turn sets a key of the offset, scale or rotation at the current frame
/// instead (moving the shape itself is not animatable). A drag is one undo
/// step (the commands of one drag merge). An edit that reaches the document while the button
/// is down (Ctrl+Z, Delete) ends the drag: the item may be gone or elsewhere.
class SelectTool : public Tool
{
public:
    using Tool::Tool;

    QString name() const override { return "Select"; }
    QString hint() const override;
    void press(const ToolEvent &event) override;
    void drag(const ToolEvent &event) override;
    void release(const ToolEvent &event) override;
    void cancel() override { mMode = Mode::None; }
    void paint(QPainter &painter) const override;

private:
    enum class Mode { None, Move, Scale, Rotate };

    /// Whether item mIndex is still the one being dragged, as the drag left it.
    bool itemUnchanged() const;
    /// The direction from the pivot to a world point, in the view's plane (degrees).
    float planeAngle(sim::Vec3 world) const;
    void rotate(const ToolEvent &event);
    void autoKeyDrag(const ToolEvent &event);
    /// Pushes a drag's command; with auto-key its text names the key set.
    void pushEdit(QUndoCommand *command, AnimProperty keyed);

    Mode mMode = Mode::None;
    int mIndex = -1;
    Item mOriginal;
    Item mExpected; ///< the item as the drag last set it
    sim::Vec3 mStart;
    sim::Vec3 mPivot; ///< scale: in the shape's coordinates; rotate: the placed pivot
    float mLastAngle = 0.f;
    float mTurned = 0.f;  ///< degrees turned so far, unwrapped
    float mApplied = 0.f; ///< degrees of the last turn pushed (snapped)
    QPointF mPointer;
    quint64 mDragKey = 0;
};

} // namespace plume
