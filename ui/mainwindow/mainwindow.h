// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/scene/scene.h>

#include <QMainWindow>

#include <optional>

class QAction;
class QActionGroup;
class QComboBox;
class QLabel;
class QMenu;
class QTimer;

namespace plume {

class AutoSave;
class Document;
class GettingStarted;
class Outliner;
class PreviewControl;
class PropertiesPanel;
struct Recovery;
class SimulationController;
class SteadyLabel;
class Timeline;
class Tool;
class ToolOptions;
class Viewport;
class ViewLayout;

/// The authoring window: the viewport in the middle; docks for the outliner, properties, tool
/// options and the timeline; the file, edit, simulation, view and tool menus and toolbars; a
/// status bar with frame, simulation time, ms per step, pressure iterations and residual, and
/// the frame cache's and checkpoints' use. Layout and recent files persist (QSettings; the
/// first start opens at defaultGeometry, View > Reset Layout goes back to it); unsaved
/// changes are asked about before they would be lost, and autosaved for recovery after a crash
/// (autosave.h).
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    /// Opens a scene file. On failure the current scene stays and the reader's message goes
    /// to `error` when given, else into a dialog. Does not ask about unsaved changes (see
    /// openWithPrompt).
    bool openFile(const QString &path, QString *error = nullptr);
    /// Starts on the built-in default scene (resources/scenes/plume-2d.plume), unsaved.
    void openDefaultScene();
    /// Saves to `path`; on failure a dialog says why and the previous file stays intact.
    bool saveTo(const QString &path);
    /// File > Import Model after the file was chosen (also a model dropped on a view, at the
    /// drop point): reads the model, asks name, kind and fit (ImportModelDialog) and adds a
    /// mesh item with one undo step, selected. A file that cannot be read shows the reason
    /// and adds nothing. Returns whether an item was added.
    bool importModel(const QString &path, std::optional<sim::Vec3> at = std::nullopt);

    Document *document() const { return mDocument; }
    Viewport *viewport() const { return mViewport; }
    ViewLayout *viewLayout() const { return mViewLayout; }
    SimulationController *simulation() const { return mSimulation; }
    ToolOptions *toolOptions() const { return mToolOptions; }
    /// The action that selects a tool by its name ("Select", "Emitter Brush", ...).
    QAction *toolAction(const QString &name) const;
    QAction *action(const QString &objectName) const;

    /// The scene files shipped with Plume (embedded resources).
    static QStringList exampleScenes();

    AutoSave *autoSave() const { return mAutoSave; }
    PreviewControl *preview() const { return mPreview; }
    /// The start-up: opens `file` at once (empty or unreadable: the default scene), then, once
    /// the window shows it, offers what a crashed session left (offerRecovery). The scene asked
    /// for never waits behind that question, and the question is still asked.
    void start(const QString &file);
    /// Offers to restore each recovery file a crashed session left (newest first): Restore
    /// opens it with its original path, modified, in place of the open scene; Discard deletes
    /// it. True when one was restored. start() calls it after opening the scene asked for.
    bool offerRecovery();
    /// Opens a recovery file as the document (its original path, modified); false (and a
    /// dialog) when it cannot be read.
    bool restoreRecovery(const Recovery &recovery);
    /// Edit > Preferences.
    void showPreferences();
    /// Edit > Save Item as Preset: the selected item as a preset (itempresets.h) named
    /// `name`, or a name asked for. False when nothing was saved (a failure shows why).
    bool saveItemPresetWithPrompt(const QString &name = {});
    /// View > Save View Image: the views as shown into a PNG at `path` (asked when empty).
    bool saveViewImageWithPrompt(const QString &path = {});
    /// View > Save Turntable: `frames` PNG images of the volume view turning once, into
    /// `folder` (both asked when the folder is empty). 3D scenes with the volume view only.
    bool saveTurntableWithPrompt(const QString &folder = {}, int frames = 72);
    /// Edit > Add Preset: adds the preset's item (one undo step), selected, with a unique name.
    bool addItemPreset(const QString &path);

    /// A file dropped on the window (filedrop.h): a scene opens after asking about unsaved
    /// changes, an image becomes an image-shape emitter (importImage), a model opens the Import
    /// Model dialog for it; anything else is refused with a status-bar message (a drag of
    /// such a file is refused as it enters the window). Returns whether the file was taken.
    bool openDropped(const QString &path);
    /// Adds the image at `path` as an emitter filling the domain (one undo step), selected.
    /// 2D scenes only (image shapes are flat); a failure shows why. Returns whether it was added.
    bool importImage(const QString &path);

    /// The size and place a window opens at without a saved layout: 80 % of the screen's
    /// available area, centred, but at least `minimumWidth` (what the toolbars need to show
    /// every button) and 1024 x 700 where the screen has room.
    static QRect defaultGeometry(const QRect &available, int minimumWidth = 0);
    /// The window's first-start geometry on its screen (defaultGeometry with the toolbars'
    /// width).
    QRect defaultGeometry() const;
    /// View > Reset Layout: the default geometry, every dock and toolbar back where it started,
    /// the docks narrow so the views keep most of the window.
    void resetLayout();
    /// The getting-started card (gettingstarted.h) over the views.
    GettingStarted *gettingStarted() const { return mGettingStarted; }
    /// Help > Getting Started.
    void showGettingStarted();
    /// At start-up: shows the getting-started card unless "Don't show again" was chosen.
    /// Returns whether it was shown.
    bool showGettingStartedIfWanted();

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void createTools();
    /// The menus and toolbars (mainwindowmenus.cpp), one function per menu.
    void createActions();
    void createFileMenu();
    void createEditMenu();
    void addPresetActions(QMenu *edit);
    void createSimulationMenu();
    /// Returns the field combo box for the simulation toolbar.
    QComboBox *createViewMenu();
    QComboBox *addFieldActions(QMenu *view);
    void addOverlayActions(QMenu *view);
    void addViewImageActions(QMenu *view);
    void createToolsMenu();
    void createHelpMenu();
    void createToolBars(QComboBox *fieldCombo);
    void createDocks();
    void createStatusBar();
    void applyDefaultDockSizes();
    void newScene();
    /// File > New from Template: the examples as starting points (TemplateDialog).
    void newFromTemplate();
    void openWithPrompt();
    void openRecent(const QString &path);
    bool save();
    bool saveAs();
    void revert();
    void exportScene();
    void importModelWithPrompt();
    void deleteSelected();
    bool maybeSave();
    void addRecent(const QString &path);
    void updateRecentMenu();
    void updatePresetMenu();
    void updateTitle();
    void showFrameStats();
    void showCacheUse();
    void showError(const QString &title, const QString &message);
    static void detachFromResources(Scene &scene);

    Document *mDocument;
    ToolOptions *mToolOptions;
    SimulationController *mSimulation;
    AutoSave *mAutoSave;
    Viewport *mViewport;
    PreviewControl *mPreview; ///< View > Preview Resolution and the status bar's button
    ViewLayout *mViewLayout = nullptr;
    Timeline *mTimeline = nullptr;
    QMenu *mPresetMenu = nullptr;
    GettingStarted *mGettingStarted = nullptr;
    QByteArray mDefaultState; ///< docks and toolbars as first built (View > Reset Layout)
    std::vector<std::unique_ptr<Tool>> mTools;
    QActionGroup *mToolGroup = nullptr;
    QMenu *mRecentMenu = nullptr;
    QAction *mPlayAction = nullptr;
    SteadyLabel *mFrameLabel = nullptr;
    SteadyLabel *mTimeLabel = nullptr;
    SteadyLabel *mStepLabel = nullptr;
    SteadyLabel *mPressureLabel = nullptr;
    SteadyLabel *mPointerLabel = nullptr;
    SteadyLabel *mCacheLabel = nullptr;
    QLabel *mSidesLabel = nullptr; ///< smoke at the open sides (SimulationController::smokeAtSides)
    QTimer *mCacheTimer = nullptr;
};

} // namespace plume
