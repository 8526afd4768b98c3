// SPDX-License-Identifier: Apache-2.0
// The MainWindow's menus and toolbars (mainwindow.h), one function per menu; the lists that
// change while it runs (Open Recent, Add Preset) are refilled here too.
#include <ui/mainwindow/mainwindow.h>

#include <ui/mainwindow/editactions.h>

#include <ui/document/document.h>
#include <ui/document/itempresets.h>
#include <ui/panels/propertyhelp.h>
#include <ui/panels/timeline.h>
#include <ui/preferences.h>
#include <ui/simulation/previewcontrol.h>
#include <ui/simulation/simulationcontroller.h>
#include <ui/tools/tool.h>
#include <ui/viewport/viewlayout.h>
#include <ui/viewport/viewport.h>

#include <QActionGroup>
#include <QComboBox>
#include <QDesktopServices>
#include <QDir>
#include <QFileInfo>
#include <QListView>
#include <QMenuBar>
#include <QStatusBar>
#include <QToolBar>
#include <QUrl>

namespace plume {

namespace {

const Preference<QStringList> kRecentFiles("file/recent", {});
constexpr int kMaxRecent = 8;

/// An action named `name` (tests and the toolbars find it by that name), owned by `parent`.
QAction *newAction(QObject *parent, const QString &text, const char *name,
                   const QKeySequence &key = {})
{
    auto *a = new QAction(text, parent);
    a->setObjectName(name);
    a->setShortcut(key);
    return a;
}

} // namespace

void MainWindow::createActions()
{
    createFileMenu();
    createEditMenu();
    createSimulationMenu();
    QComboBox *fieldCombo = createViewMenu();
    createToolsMenu();
    createToolBars(fieldCombo);
}

void MainWindow::createFileMenu()
{
    QMenu *file = menuBar()->addMenu("&File");
    auto add = [this, file](QAction *a, auto slot) {
        connect(a, &QAction::triggered, this, slot);
        file->addAction(a);
        return a;
    };
    add(newAction(this, "&New", "actionNew", QKeySequence::New), &MainWindow::newScene);
    add(newAction(this, "New from &Template...", "actionNewFromTemplate",
                  QKeySequence("Ctrl+Shift+N")),
        &MainWindow::newFromTemplate)
        ->setStatusTip("Starts from an example scene: smoke, fire, explosion, wake...");
    add(newAction(this, "&Open...", "actionOpen", QKeySequence::Open), &MainWindow::openWithPrompt);
    mRecentMenu = file->addMenu("Open &Recent");
    QMenu *examples = file->addMenu("E&xamples");
    for (const QString &path : exampleScenes())
        examples->addAction(QFileInfo(path).completeBaseName(), this, [this, path] {
            if (maybeSave())
                openFile(path);
        });
    file->addSeparator();
    add(newAction(this, "&Save", "actionSave", QKeySequence::Save), &MainWindow::save);
    add(newAction(this, "Save &As...", "actionSaveAs", QKeySequence::SaveAs), &MainWindow::saveAs);
    add(newAction(this, "&Revert", "actionRevert"), &MainWindow::revert);
    file->addSeparator();
    add(newAction(this, "Import &Model...", "actionImportModel", QKeySequence("Ctrl+I")),
        &MainWindow::importModelWithPrompt)
        ->setStatusTip("Adds a model file (OBJ, glTF, FBX, STL, PLY...) as an obstacle or "
                       "emitter; dropping one on a view does too");
    add(newAction(this, "&Export...", "actionExport", QKeySequence("Ctrl+E")),
        &MainWindow::exportScene);
    file->addSeparator();
    add(newAction(this, "&Quit", "actionQuit", QKeySequence::Quit), &QWidget::close);
    updateRecentMenu();
}

void MainWindow::createEditMenu()
{
    QMenu *edit = menuBar()->addMenu("&Edit");
    // The menu says what would be undone ("Undo Add obstacle stroke"); the toolbar button keeps
    // a short label (the text is in its tooltip), or it grows with every command's name and
    // pushes the tool buttons into the toolbar's overflow menu.
    QAction *undo = mDocument->undoStack()->createUndoAction(this, "&Undo");
    undo->setObjectName("actionUndo");
    undo->setIconText("Undo");
    undo->setShortcut(QKeySequence::Undo);
    QAction *redo = mDocument->undoStack()->createRedoAction(this, "&Redo");
    redo->setObjectName("actionRedo");
    redo->setIconText("Redo");
    // Platform themes differ (Ctrl+Y or Ctrl+Shift+Z): accept both everywhere.
    QList<QKeySequence> redoKeys = QKeySequence::keyBindings(QKeySequence::Redo);
    for (const QKeySequence &k : {QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")})
        if (!redoKeys.contains(k))
            redoKeys << k;
    redo->setShortcuts(redoKeys);
    QAction *del = newAction(this, "&Delete", "actionDelete", QKeySequence::Delete);
    connect(del, &QAction::triggered, this, &MainWindow::deleteSelected);
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    edit->addAction(del);
    addSelectionActions(edit, this, mDocument,
                        [this](const QString &text) { statusBar()->showMessage(text, 8000); });
    edit->addSeparator();
    // Keyframes: the timeline's Auto-Key and Insert Key (docs/animation.md).
    mTimeline = new Timeline(mDocument);
    edit->addAction(mTimeline->autoKeyAction());
    edit->addAction(mTimeline->insertKeyAction());
    edit->addSeparator();
    addPresetActions(edit);
    edit->addSeparator();
    QAction *preferences = newAction(this, "&Preferences...", "actionPreferences",
                                     QKeySequence::Preferences);
    connect(preferences, &QAction::triggered, this, &MainWindow::showPreferences);
    edit->addAction(preferences);
}

// Edit > Save Item as Preset and the Add Preset menu (itempresets.h).
void MainWindow::addPresetActions(QMenu *edit)
{
    QAction *savePreset = newAction(this, "Save Item as Pre&set...", "actionSaveItemPreset");
    savePreset->setStatusTip("Keeps the selected item's settings and shape for reuse in any "
                             "scene (Edit > Add Preset)");
    connect(savePreset, &QAction::triggered, this, [this] { saveItemPresetWithPrompt(); });
    connect(mDocument, &Document::selectionChanged, savePreset,
            [savePreset](int selected) { savePreset->setEnabled(selected >= 0); });
    savePreset->setEnabled(false);
    edit->addAction(savePreset);
    mPresetMenu = edit->addMenu("&Add Preset");
    mPresetMenu->setObjectName("menuAddPreset");
    connect(mPresetMenu, &QMenu::aboutToShow, this, &MainWindow::updatePresetMenu);
    updatePresetMenu();
}

void MainWindow::createSimulationMenu()
{
    QMenu *simMenu = menuBar()->addMenu("&Simulation");
    mPlayAction = newAction(this, "&Play", "actionPlay", Qt::Key_Space);
    QAction *stepAction = newAction(this, "S&tep", "actionStep", QKeySequence("."));
    QAction *resetAction = newAction(this, "&Reset", "actionReset", QKeySequence("Ctrl+R"));
    connect(mPlayAction, &QAction::triggered, mSimulation, &SimulationController::togglePlay);
    connect(stepAction, &QAction::triggered, mSimulation, &SimulationController::step);
    connect(resetAction, &QAction::triggered, mSimulation, &SimulationController::reset);
    connect(mSimulation, &SimulationController::playingChanged, this,
            [this](bool playing) { mPlayAction->setText(playing ? "&Pause" : "&Play"); });
    simMenu->addAction(mPlayAction);
    simMenu->addAction(stepAction);
    simMenu->addAction(resetAction);
    simMenu->addSeparator();
    QAction *clearCache = newAction(this, "&Clear Cache", "actionClearCache");
    clearCache->setToolTip("Frees every cached frame (memory and disk) and checkpoint, and "
                           "starts again at frame 0");
    connect(clearCache, &QAction::triggered, this, [this] {
        mSimulation->clearCache();
        showCacheUse();
    });
    simMenu->addAction(clearCache);
}

QComboBox *MainWindow::createViewMenu()
{
    QMenu *view = menuBar()->addMenu("&View");
    QComboBox *fieldCombo = addFieldActions(view);
    addOverlayActions(view);
    view->addSeparator();
    QAction *fit = view->addAction("&Fit to View", mViewport, &Viewport::fitToView);
    fit->setShortcut(QKeySequence("Home"));
    mViewLayout->addMenuActions(view);
    QAction *resetLayoutAction = newAction(this, "&Reset Layout", "actionResetLayout");
    resetLayoutAction->setStatusTip(
        "Puts the window, docks and toolbars back as on the first start");
    connect(resetLayoutAction, &QAction::triggered, this, &MainWindow::resetLayout);
    view->addAction(resetLayoutAction);
    view->addSeparator();
    QAction *upres = newAction(this, "Preview &Upres", "actionPreviewUpres");
    upres->setCheckable(true);
    upres->setChecked(mSimulation->previewUpres());
    upres->setStatusTip("Simulates the scene's upres (Simulation > Upres factor) in the window "
                        "too: finer detail, slower; bakes always use it (docs/upres.md)");
    connect(upres, &QAction::toggled, mSimulation, &SimulationController::setPreviewUpres);
    view->addAction(upres);
    view->addMenu(mPreview->menu());
    view->addSeparator();
    addViewImageActions(view);
    return fieldCombo;
}

// View > Field, and the toolbar's combo box that mirrors it (returned for the toolbar).
QComboBox *MainWindow::addFieldActions(QMenu *view)
{
    auto *fieldCombo = new QComboBox(this);
    fieldCombo->setObjectName("fieldCombo");
    auto *fieldGroup = new QActionGroup(this);
    QMenu *fields = view->addMenu("&Field");
    for (ViewField f : kViewFields) {
        QAction *a = fields->addAction(toDisplayName(f));
        a->setCheckable(true);
        a->setChecked(f == ViewField::Dye);
        fieldGroup->addAction(a);
        fieldCombo->addItem(toDisplayName(f));
        connect(a, &QAction::triggered, this, [this, f, fieldCombo] {
            mViewport->setField(f);
            fieldCombo->setCurrentIndex(int(f));
        });
    }
    connect(fieldCombo, &QComboBox::currentIndexChanged, this, [fieldGroup](int n) {
        if (n >= 0 && !fieldGroup->actions()[n]->isChecked())
            fieldGroup->actions()[n]->trigger();
    });
    // Ocean scenes offer the ocean's fields, the other schemes the fluid's; a field that leaves
    // the menu gives way to the first one offered.
    auto offerFields = [this, fieldGroup, fieldCombo] {
        const bool ocean = mDocument->scene().simulation.params.scheme == sim::Scheme::Ocean;
        auto *list = qobject_cast<QListView *>(fieldCombo->view());
        for (ViewField f : kViewFields) {
            const bool offered = isOceanView(f) == ocean;
            fieldGroup->actions()[int(f)]->setVisible(offered);
            if (list)
                list->setRowHidden(int(f), !offered);
        }
        if (isOceanView(ViewField(fieldCombo->currentIndex())) != ocean)
            fieldGroup->actions()[int(ocean ? ViewField::Height : ViewField::Dye)]->trigger();
    };
    connect(mDocument, &Document::changed, this, [offerFields](const ChangeEvent &e) {
        if (e.type == ChangeEvent::Type::Reset || e.type == ChangeEvent::Type::Simulation)
            offerFields();
    });
    offerFields();
    return fieldCombo;
}

// The slice views' overlays, each a checkable action.
void MainWindow::addOverlayActions(QMenu *view)
{
    struct OverlayAction
    {
        const char *text;
        const char *name;
        Viewport::Overlay overlay;
        const char *tip;
    };
    const OverlayAction overlays[] = {
        {"Velocity &Arrows", "actionArrows", Viewport::Arrows,
         "Arrows along the velocity, the fastest as long as their spacing"},
        {"&Streamlines", "actionStreamlines", Viewport::Streamlines,
         "Evenly spaced streamlines of the velocity, coloured by speed (deep blue: still, "
         "near white: the frame's top speed in units/s)"},
        {"&Grid", "actionGrid", Viewport::Grid, "The simulation cells"},
        {"&Obstacles", "actionObstacles", Viewport::Obstacles, "Obstacles filled"},
        {"Item &Outlines", "actionOutlines", Viewport::Outlines, "Every item's outline"},
        {"Colour &Legend", "actionLegend", Viewport::Legend,
         "The colour map's range with units, and the value under the pointer with its cell"},
        {"&Particles", "actionParticles", Viewport::Particles,
         "The liquid's particles (sph scheme), coloured by speed"}};
    for (const OverlayAction &o : overlays) {
        QAction *a = newAction(this, o.text, o.name);
        view->addAction(a);
        a->setCheckable(true);
        a->setChecked(mViewport->overlay(o.overlay));
        a->setToolTip(o.tip);
        a->setStatusTip(o.tip);
        connect(a, &QAction::toggled, this,
                [this, overlay = o.overlay](bool on) { mViewport->setOverlay(overlay, on); });
    }
}

// View > Save View Image and Save Turntable (viewexport.h).
void MainWindow::addViewImageActions(QMenu *view)
{
    QAction *saveImage = newAction(this, "Save View &Image...", "actionSaveViewImage",
                                   QKeySequence("F12"));
    saveImage->setStatusTip("Saves the views as shown (slices, overlays, volume) as a PNG");
    connect(saveImage, &QAction::triggered, this, [this] { saveViewImageWithPrompt(); });
    view->addAction(saveImage);
    QAction *turntable = newAction(this, "Save &Turntable...", "actionSaveTurntable");
    turntable->setStatusTip("Saves PNG frames of the volume view turning once round the smoke");
    connect(turntable, &QAction::triggered, this, [this] { saveTurntableWithPrompt(); });
    // Offered for 3D scenes while the volume view exists (the action explains itself if
    // triggered otherwise, e.g. from a test).
    connect(mDocument, &Document::changed, turntable, [this, turntable] {
        turntable->setEnabled(mDocument->scene().domain.dimension == Dimension::ThreeD
                              && mViewLayout->volumeView());
    });
    view->addAction(turntable);
}

void MainWindow::createToolsMenu()
{
    QMenu *toolsMenu = menuBar()->addMenu("&Tools");
    mToolGroup = new QActionGroup(this);
    const char *keys[] = {"S", "E", "O", "W", "X", "C", "B", "K"};
    for (std::size_t n = 0; n < mTools.size(); ++n) {
        Tool *tool = mTools[n].get();
        QAction *a = toolsMenu->addAction(tool->name());
        a->setCheckable(true);
        a->setShortcut(QKeySequence(keys[n]));
        a->setStatusTip(tool->hint());
        a->setToolTip(toolHelp(tool->name(), keys[n], tool->hint()));
        a->setChecked(n == 0);
        mToolGroup->addAction(a);
        connect(a, &QAction::triggered, this, [this, tool] { mViewport->setTool(tool); });
    }
}

void MainWindow::createHelpMenu()
{
    QMenu *help = menuBar()->addMenu("&Help");
    QAction *start = help->addAction("&Getting Started");
    start->setObjectName("actionGettingStarted");
    start->setShortcut(QKeySequence::HelpContents);
    start->setStatusTip("Five things to try first, with their shortcuts");
    connect(start, &QAction::triggered, this, &MainWindow::showGettingStarted);
}

// The toolbars show actions the menus made, found by name.
void MainWindow::createToolBars(QComboBox *fieldCombo)
{
    QToolBar *fileBar = addToolBar("File");
    fileBar->setObjectName("fileToolBar");
    for (const char *name : {"actionNew", "actionOpen", "actionSave", "actionUndo", "actionRedo"})
        fileBar->addAction(action(name));
    QToolBar *simBar = addToolBar("Simulation");
    simBar->setObjectName("simulationToolBar");
    for (const char *name : {"actionPlay", "actionStep", "actionReset"})
        simBar->addAction(action(name));
    simBar->addSeparator();
    simBar->addWidget(fieldCombo);
    QToolBar *toolBar = addToolBar("Tools");
    toolBar->setObjectName("toolsToolBar");
    toolBar->addActions(mToolGroup->actions());
}

void MainWindow::openRecent(const QString &path)
{
    if (maybeSave())
        openFile(path);
}

void MainWindow::addRecent(const QString &path)
{
    QStringList recent = kRecentFiles.get();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    kRecentFiles.set(recent);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu()
{
    mRecentMenu->clear();
    const QStringList recent = kRecentFiles.get();
    for (const QString &path : recent)
        mRecentMenu->addAction(QFileInfo(path).fileName(), this, [this, path] { openRecent(path); })
            ->setToolTip(path);
    mRecentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::updatePresetMenu()
{
    mPresetMenu->clear();
    const QList<ItemPreset> presets = itemPresets();
    const Dimension dimension = mDocument->scene().domain.dimension;
    for (const ItemPreset &p : presets) {
        QAction *a = mPresetMenu->addAction(QString("%1 (%2, %3)")
                                                .arg(p.name, toString(p.kind),
                                                     p.dimension == Dimension::ThreeD ? "3D"
                                                                                      : "2D"),
                                            this, [this, path = p.path] { addItemPreset(path); });
        a->setEnabled(p.dimension == dimension);
    }
    if (presets.isEmpty())
        mPresetMenu->addAction("No presets yet: select an item, Edit > Save Item as Preset")
            ->setEnabled(false);
    mPresetMenu->addSeparator();
    mPresetMenu->addAction("Open Presets Folder", this, [] {
        QDir().mkpath(itemPresetFolder());
        QDesktopServices::openUrl(QUrl::fromLocalFile(itemPresetFolder()));
    });
}

} // namespace plume
