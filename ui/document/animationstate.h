// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <ui/document/keyframes.h>

#include <QObject>

#include <map>
#include <utility>

namespace plume {

class Document;

/// The animation's view state, beside the document's selection: the current frame (the
/// timeline's cursor), auto-key, and the "changed" values: a keyframed property edited without
/// auto-key shows the new value, marked changed (orange), until it is keyed, the frame changes
/// or the property is edited otherwise. Changed values are not in the scene (the simulation
/// and the file never see them) and are not undoable, as in Maya and Blender.
class AnimationState : public QObject
{
    Q_OBJECT

public:
    explicit AnimationState(Document *document);

    int frame() const { return mFrame; }
    /// Moves the cursor; forgets the changed values when the frame differs.
    void setFrame(int frame);

    bool autoKey() const { return mAutoKey; }
    void setAutoKey(bool on);

    /// The value a property shows at the current frame: the changed one, or the animation's.
    sim::Vec3 shownValue(int item, AnimProperty p) const;
    bool isChanged(int item, AnimProperty p) const { return mChanged.count({item, p}) != 0; }
    void setChanged(int item, AnimProperty p, sim::Vec3 value);
    void clearChanged();

    /// Edits a property of item `index` to `value` as the user does in an editor: a constant
    /// property changes its constant (unless auto-key is on); a keyframed one (or any with
    /// auto-key) gets a key at the current frame with auto-key, or a changed value without.
    /// Keys and constants are one undo step each, and go to every selected item that has the
    /// property when `index` is selected (a changed value stays the shown item's own).
    void edit(int index, AnimProperty p, sim::Vec3 value);
    /// The key button: keys the shown value at the current frame, or removes the key there
    /// when the property is keyed here and not changed. One undo step.
    void toggleKey(int index, AnimProperty p);
    /// Sets keys of the shown values of `properties` at the current frame (one undo step).
    void setKeys(int index, const std::vector<AnimProperty> &properties);
    /// The same for several items, as one undo step.
    void setKeys(const std::vector<int> &indices, const std::vector<AnimProperty> &properties);

signals:
    void frameChanged(int frame);
    void autoKeyChanged(bool on);
    /// A changed value appeared or went (the key buttons' colours follow).
    void changedValuesChanged();

private:
    Document *mDocument;
    int mFrame = 0;
    bool mAutoKey = false;
    std::map<std::pair<int, AnimProperty>, sim::Vec3> mChanged;
};

} // namespace plume
