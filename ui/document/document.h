// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <ui/document/changeevent.h>

#include <core/scene/scene.h>
#include <core/sim/base/types.h>

#include <QObject>
#include <QString>
#include <QUndoStack>

#include <vector>

namespace plume {

class AnimationState;

/// The open scene: owns the Scene, its undo stack, its file path and the selection.
///
/// Panels and tools never change the scene directly: they push undo commands
/// (undocommands.h) on undoStack(), whose redo()/undo() call the mutators below; every change
/// is announced by changed(event). The modified flag is the undo stack's clean state.
class Document : public QObject
{
    Q_OBJECT

public:
    explicit Document(QObject *parent = nullptr);
    /// Announces nothing: the undo stack's clean state dies with the document.
    ~Document() override;

    const Scene &scene() const { return mScene; }
    QUndoStack *undoStack() { return &mUndoStack; }
    /// The file the scene was read from or last saved to; empty for a new scene.
    const QString &filePath() const { return mFilePath; }
    /// True when the scene differs from the file (or a new scene has been edited).
    bool isModified() const { return !mUndoStack.isClean(); }

    /// Replaces the scene (new, open, revert): clears the undo stack and the selection.
    void reset(Scene scene, const QString &filePath);
    /// Writes the scene atomically (QSaveFile) to `path`; on success the document takes the
    /// path and becomes unmodified, and its scene takes the file's folder and its image paths
    /// (rewritten relative to that folder), so it reads as the file does. Models and images
    /// inside the app (an example's ":/..." files) are first copied beside the file, which then
    /// names the copies, so that plume-cli can read it. On failure nothing changes, the old
    /// file is untouched and the message says why.
    sim::Status save(const QString &path);

    /// The current item: the one the properties panel shows and the handles act on (the
    /// primary of a multi-selection), or -1. Selection is view state, not undoable.
    int selectedItem() const { return mSelected; }
    /// Every selected item, in scene order (the current one among them when there is one).
    const std::vector<int> &selectedItems() const { return mSelection; }
    bool isSelected(int index) const;
    /// Selects item `index` alone (-1: nothing).
    void setSelectedItem(int index);
    /// Selects `items` (indices out of range are dropped, repeats merged) with `current` the
    /// current item; a `current` not among them becomes the last of `items` (or -1).
    void setSelection(std::vector<int> items, int current);

    /// The current frame, auto-key and the changed (not yet keyed) values: view state, like
    /// the selection (animationstate.h).
    AnimationState *animation() const { return mAnimation; }

    /// An item name not used in the scene, built from `base` ("stroke", "stroke 2", ...).
    std::string uniqueItemName(const std::string &base) const;

    // Mutators for undo commands only (undocommands.h); each emits changed().
    void insertItem(int index, Item item);
    void removeItem(int index);
    void setItem(int index, Item item);
    /// Moves an item to another position: announced as its removal and its insertion; it keeps
    /// its place in the selection.
    void moveItem(int from, int to);
    void setDomain(const DomainSettings &domain);
    void setSimulation(const SimulationSettings &simulation);
    void setSceneName(const std::string &name);
    void setExports(const ExportPresets &exports);

signals:
    void changed(const plume::ChangeEvent &event);
    /// The selection or its current item changed; `index` is the current item.
    void selectionChanged(int index);
    void modifiedChanged(bool modified);
    void filePathChanged(const QString &path);

private:
    Scene mScene;
    QUndoStack mUndoStack;
    QString mFilePath;
    int mSelected = -1;
    AnimationState *mAnimation;
    std::vector<int> mSelection; ///< sorted
};

/// Copies the files inside the app that `scene` names (an example's ":/..." models, images
/// and liquid texture) into `folder` and points the scene at the copies, as Document::save()
/// does, so that the scene written into `folder` reads outside this program too (plume-cli, a
/// farm). Other paths stay as they are.
sim::Status copyAppFiles(Scene &scene, const QString &folder);

} // namespace plume
