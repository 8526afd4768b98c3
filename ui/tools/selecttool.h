// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <ui/tools/tool.h>

#include <core/scene/scene.h>
#include <ui/document/keyframes.h>

namespace plume {

/// Selects items and moves, scales and rotates the selection.
///
/// A click selects the topmost item under the pointer (hidden and locked items are not
/// picked); Shift+click adds an item to the selection, Ctrl+click adds or removes it. A drag
/// from an item moves every selected item (a drag from an unselected one selects it alone
/// first). A drag from empty space draws a rubber band: on release the items whose outline
/// bounds touch the band are selected (Shift: added, Ctrl: removed). The current item shows
/// the handles: dragging the square-cornered one at the top-right of its outline scales every
/// selected item, each about the centre of its own outline; dragging the round one above it
/// rotates every selected item by the same angle, each about its own pivot (the cross) and
/// the axis the view looks along (z in 2D); Shift snaps the turn to 15 degrees. A turn
/// changes the item's rotation (every key of a keyframed one alike). With auto-key on, a move,
/// scale or turn sets a key of the offset, scale or rotation at the current frame instead
/// (moving the shape itself is not animatable). A drag is one undo
/// step, however many items it moves (the commands of one drag merge). An edit that reaches
/// the document while the button is down (Ctrl+Z, Delete) ends the drag: the items may be
/// gone or elsewhere.
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
    enum class Mode { None, Move, Scale, Rotate, Band };

    /// An item the drag changes, as it was and as the drag last set it.
    struct Target
    {
        int index;
        Item original;
        Item expected;
        sim::Vec3 pivot; ///< scale: the outline's centre, in the shape's coordinates
    };

    /// Takes every selected item that is not locked as a target of the drag.
    void takeTargets();
    /// The centre of an item's outline on the plane, in the shape's coordinates (scale pivot).
    sim::Vec3 scalePivot(const Item &item, sim::Vec3 world) const;
    /// Whether the targets are still as the drag left them.
    bool targetsUnchanged() const;
    /// Whether the drag has changed no target yet (a click sets no key).
    bool targetsUntouched() const;
    /// The direction from the pivot to a world point, in the view's plane (degrees).
    float planeAngle(sim::Vec3 world) const;
    void rotate(const ToolEvent &event);
    /// Sets the targets to `items` (one per target) as one step of the drag; with auto-key
    /// `keyed` names the property the drag keys.
    void apply(std::vector<Item> items, AnimProperty keyed);
    /// Selects the rubber band's items.
    void finishBand(const ToolEvent &event);

    Mode mMode = Mode::None;
    std::vector<Target> mTargets;
    sim::Vec3 mStart;
    sim::Vec3 mPivot; ///< scale: the current item's pivot (shape coordinates); rotate: placed
    float mLastAngle = 0.f;
    float mTurned = 0.f;  ///< degrees turned so far, unwrapped
    float mApplied = 0.f; ///< degrees of the last turn pushed (snapped)
    QPointF mPressPos;
    QPointF mPointer;
    Qt::KeyboardModifiers mPressModifiers;
    quint64 mDragKey = 0;
};

} // namespace plume
