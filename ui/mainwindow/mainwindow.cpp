// SPDX-License-Identifier: Apache-2.0
#include <ui/mainwindow/mainwindow.h>

#include <ui/mainwindow/autosave.h>
#include <ui/mainwindow/gettingstarted.h>
#include <ui/mainwindow/importmodeldialog.h>
#include <ui/mainwindow/preferencesdialog.h>
#include <ui/mainwindow/templatedialog.h>
#include <ui/mainwindow/viewexport.h>

#include <ui/document/itempresets.h>

#include <core/io/scenereader.h>
#include <core/scene/meshfile.h>
#include <core/scene/shapecoverage.h>
#include <ui/document/animationstate.h>
#include <ui/document/document.h>
#include <ui/document/modelimport.h>
#include <ui/document/selectionedits.h>
#include <ui/document/undocommands.h>
#include <ui/export/exportdialog.h>
#include <ui/panels/outliner.h>
#include <ui/panels/propertiespanel.h>
#include <ui/panels/steadylabel.h>
#include <ui/panels/timeline.h>
#include <ui/panels/tooloptionspanel.h>
#include <ui/preferences.h>
#include <ui/simulation/previewcontrol.h>
#include <ui/simulation/simulationcontroller.h>
#include <ui/tools/brushtool.h>
#include <ui/tools/erasertool.h>
#include <ui/tools/selecttool.h>
#include <ui/tools/shapetool.h>
#include <ui/tools/tooloptions.h>
#include <ui/viewport/viewlayout.h>
#include <ui/viewport/viewport.h>
#include <ui/viewport/volumeview.h>

#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QStatusBar>
#include <QTimer>
#include <QToolButton>

// The embedded scenes live in a static library: register them explicitly (outside any
// namespace, as Q_INIT_RESOURCE requires).
static void initPlumeResources() { Q_INIT_RESOURCE(plume); }

namespace plume {

namespace {

const Preference<QByteArray> kGeometry("window/geometry", {});
const Preference<QByteArray> kState("window/state", {});
const Preference<QString> kLastDirectory("file/lastDirectory", QDir::homePath());
const Preference<QString> kLastModelDirectory("file/lastModelDirectory", QDir::homePath());
const char *const kDefaultScene = ":/scenes/plume-2d.plume";

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , mDocument(new Document(this))
    , mToolOptions(new ToolOptions(this))
    , mSimulation(new SimulationController(mDocument, this))
    , mAutoSave(new AutoSave(mDocument, this))
    , mViewport(new Viewport(mDocument, mToolOptions, this))
    , mPreview(new PreviewControl(mDocument, this))
{
    initPlumeResources();
    setObjectName("plumeMainWindow");
    setCentralWidget(mViewLayout = new ViewLayout(mViewport, this));
    createTools();
    createActions();
    createDocks();
    createStatusBar();

    connect(mSimulation, &SimulationController::frameShown, mViewport, &Viewport::showFrame);
    connect(mSimulation, &SimulationController::frameShown, mViewLayout, &ViewLayout::showFrame);
    connect(mSimulation, &SimulationController::frameShown, this, &MainWindow::showFrameStats);
    // The frame shown is the one keys are set at.
    connect(mSimulation, &SimulationController::frameShown, mDocument->animation(),
            [this](const FramePtr &frame) { mDocument->animation()->setFrame(frame->frame); });
    connect(mSimulation, &SimulationController::headChanged, this, [this] {
        mTimeline->setFrames(mSimulation->currentFrameNumber(), mSimulation->headFrame());
    });
    connect(mSimulation, &SimulationController::failed, this, [this](const QString &message) {
        statusBar()->showMessage("Simulation stopped: " + message);
    });
    // Smoke cut off by an open side: said once, and kept in view until another scene opens.
    connect(mSimulation, &SimulationController::smokeAtSides, this,
            [this](int frame, const QString &note) {
        // A re-simulation (after an edit) says it again: keep one line per note.
        if (mSidesLabel->text().contains(note))
            return;
        const QString text = QString("Frame %1: %2").arg(frame).arg(note);
        mSidesLabel->setText(mSidesLabel->text().isEmpty() ? text
                                                           : mSidesLabel->text() + "\n" + text);
        mSidesLabel->setToolTip(mSidesLabel->text());
        mSidesLabel->setVisible(true);
    });
    for (int n = 0; n < 3; ++n)
        connect(mViewLayout->sliceView(n), &Viewport::modelDropped, this,
                [this](const QString &path, sim::Vec3 at) { importModel(path, at); });
    connect(mAutoSave, &AutoSave::failed, this,
            [this](const QString &message) { statusBar()->showMessage(message, 8000); });
    connect(mDocument, &Document::modifiedChanged, this, &MainWindow::updateTitle);
    connect(mDocument, &Document::filePathChanged, this, &MainWindow::updateTitle);
    connect(mDocument, &Document::changed, this, [this](const ChangeEvent &e) {
        using P = DomainSettings::Property;
        if (e.type == ChangeEvent::Type::Reset || e.type == ChangeEvent::Type::Domain) {
            mSidesLabel->clear(); // another scene or box: its smoke is watched afresh
            mSidesLabel->setVisible(false);
        }
        if (e.type == ChangeEvent::Type::Reset
            || (e.type == ChangeEvent::Type::Domain
                && !e.domain.within({P::Resolution, P::Boundaries, P::Preview})))
            mViewport->fitToView();
    });

    createHelpMenu();
    mGettingStarted = new GettingStarted(mViewLayout);
    setAcceptDrops(true);
    mDefaultState = saveState();
    if (!restoreGeometry(kGeometry.get()))
        setGeometry(defaultGeometry());
    if (!restoreState(kState.get()))
        applyDefaultDockSizes();
    updateTitle();
}

MainWindow::~MainWindow() = default;

QStringList MainWindow::exampleScenes()
{
    QStringList out;
    for (const QString &name : QDir(":/scenes").entryList({"*.plume"}, QDir::Files, QDir::Name))
        out << ":/scenes/" + name;
    return out;
}

void MainWindow::createTools()
{
    mTools.push_back(std::make_unique<SelectTool>(mViewport));
    mTools.push_back(std::make_unique<BrushTool>(mViewport, ItemKind::Emitter));
    mTools.push_back(std::make_unique<BrushTool>(mViewport, ItemKind::Obstacle));
    mTools.push_back(std::make_unique<BrushTool>(mViewport, ItemKind::ForceField));
    mTools.push_back(std::make_unique<EraserTool>(mViewport));
    mTools.push_back(std::make_unique<ShapeTool>(mViewport, ShapeType::Sphere));
    mTools.push_back(std::make_unique<ShapeTool>(mViewport, ShapeType::Box));
    mTools.push_back(std::make_unique<ShapeTool>(mViewport, ShapeType::Capsule));
    mViewport->setTool(mTools.front().get());
}

QAction *MainWindow::toolAction(const QString &name) const
{
    for (QAction *a : mToolGroup->actions())
        if (a->text() == name)
            return a;
    return nullptr;
}

QAction *MainWindow::action(const QString &objectName) const
{
    return findChild<QAction *>(objectName);
}

void MainWindow::createDocks()
{
    auto dock =
        [this](const QString &title, const char *name, QWidget *w, Qt::DockWidgetArea area) {
        auto *d = new QDockWidget(title, this);
        d->setObjectName(name);
        d->setWidget(w);
        addDockWidget(area, d);
        return d;
    };
    auto *outliner = new Outliner(mDocument);
    // The status bar as the receiver: a rename still open when the window closes commits (and
    // may be refused) while the window is half destroyed.
    QStatusBar *bar = statusBar();
    connect(outliner, &Outliner::message, bar,
            [bar](const QString &text) { bar->showMessage(text, 8000); });
    dock("Outliner", "outlinerDock", outliner, Qt::LeftDockWidgetArea);
    dock("Tool Options", "toolOptionsDock", new ToolOptionsPanel(mToolOptions),
         Qt::LeftDockWidgetArea);
    QDockWidget *props = dock("Properties", "propertiesDock", new PropertiesPanel(mDocument),
                              Qt::RightDockWidgetArea);
    props->setMinimumWidth(300);
    dock("Timeline", "timelineDock", mTimeline, Qt::BottomDockWidgetArea);
    connect(mTimeline, &Timeline::scrubbed, mSimulation, &SimulationController::scrub);
}

void MainWindow::createStatusBar()
{
    mFrameLabel = new SteadyLabel;
    mTimeLabel = new SteadyLabel;
    mStepLabel = new SteadyLabel;
    mPressureLabel = new SteadyLabel;
    mPointerLabel = new SteadyLabel;
    mFrameLabel->setObjectName("frameLabel");
    mSidesLabel = new QLabel;
    mSidesLabel->setObjectName("smokeAtSidesLabel");
    mSidesLabel->setStyleSheet("color: #e0a030;");
    mSidesLabel->setVisible(false);
    statusBar()->addWidget(mSidesLabel, 1);
    statusBar()->addPermanentWidget(mPreview->button());
    statusBar()->addPermanentWidget(mPointerLabel);
    statusBar()->addPermanentWidget(mFrameLabel);
    statusBar()->addPermanentWidget(mTimeLabel);
    statusBar()->addPermanentWidget(mStepLabel);
    statusBar()->addPermanentWidget(mPressureLabel);
    mCacheLabel = new SteadyLabel;
    mCacheLabel->setObjectName("cacheLabel");
    statusBar()->addPermanentWidget(mCacheLabel);
    connect(mViewport, &Viewport::pointerMoved, mPointerLabel, &SteadyLabel::setSteadyText);
    // Spills and checkpoints happen on the worker: look with every frame shown, and twice a
    // second when none comes (a separate look while frames come would repaint once more).
    mCacheTimer = new QTimer(this);
    connect(mCacheTimer, &QTimer::timeout, this, &MainWindow::showCacheUse);
    mCacheTimer->start(500);
    showCacheUse();
}

void MainWindow::showCacheUse()
{
    const CacheUsage u = mSimulation->cacheUsage();
    const double mib = 1024.0 * 1024.0;
    QString text = QString("cache: %1 frames, %2 MiB memory")
                       .arg(u.frames)
                       .arg(double(u.memoryBytes) / mib, 0, 'f', 0);
    if (u.onDisk > 0 || u.diskBytes > 0)
        text += QString(", %1 on disk (%2 MiB)")
                    .arg(u.onDisk)
                    .arg(double(u.diskBytes) / mib, 0, 'f', 0);
    if (mSimulation->checkpointCount() > 0)
        text += QString("; checkpoints: %1 (%2 MiB)")
                    .arg(mSimulation->checkpointCount())
                    .arg(double(mSimulation->checkpointBytes()) / mib, 0, 'f', 1);
    mCacheLabel->setSteadyText(text);
    const CacheSettings &s = mSimulation->cacheSettings();
    mCacheLabel->setToolTip(QString("Frame cache: %1 MiB memory, %2 MiB disk budget; a "
                                    "checkpoint every %3 frames, %4 MiB for them (Edit > "
                                    "Preferences). Disk cache: %5")
                                .arg(s.memoryBytes >> 20)
                                .arg(s.diskBytes >> 20)
                                .arg(s.checkpointInterval)
                                .arg(s.checkpointBytes >> 20)
                                .arg(mSimulation->spillFolder()));
}

void MainWindow::showPreferences()
{
    PreferencesDialog dialog(mSimulation->cacheSettings(), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const CacheSettings settings = dialog.settings();
    settings.store();
    mSimulation->setCacheSettings(settings);
    showCacheUse();
}

void MainWindow::start(const QString &file)
{
    if (file.isEmpty() || !openFile(file))
        openDefaultScene();
    // Asked from the event loop, over the window that already shows (and plays) the scene.
    QTimer::singleShot(0, this, [this] { offerRecovery(); });
}

bool MainWindow::offerRecovery()
{
    for (const Recovery &r : AutoSave::orphans()) {
        const QString name = r.originalPath.isEmpty()
                                 ? QString("the unsaved scene \"%1\"").arg(r.sceneName)
                                 : QFileInfo(r.originalPath).fileName();
        QMessageBox box(QMessageBox::Question, "Restore unsaved changes",
                        QString("Plume did not quit cleanly. Unsaved changes to %1, autosaved %2, "
                                "can be restored.")
                            .arg(name,
                                 QLocale().toString(r.savedAt.toLocalTime(), QLocale::ShortFormat)),
                        QMessageBox::NoButton, this);
        box.setObjectName("recoveryDialog");
        QString detail = r.originalPath;
        const QString open = mDocument->filePath();
        if (open != r.originalPath || open.isEmpty())
            detail += QString(detail.isEmpty() ? "" : "\n\n")
                      + (open.isEmpty()
                             ? QString("Restore replaces the open scene \"%1\".")
                                   .arg(QString::fromStdString(mDocument->scene().name))
                             : QString("Restore replaces the open scene \"%1\"; its file is not "
                                       "changed.")
                                   .arg(QFileInfo(open).fileName()));
        box.setInformativeText(detail);
        QPushButton *restore = box.addButton("Restore", QMessageBox::AcceptRole);
        box.addButton(QMessageBox::Discard);
        box.setDefaultButton(restore);
        box.exec();
        if (box.clickedButton() == restore) {
            if (restoreRecovery(r))
                return true;
            continue;
        }
        AutoSave::discard(r);
    }
    return false;
}

bool MainWindow::restoreRecovery(const Recovery &recovery)
{
    Scene scene;
    QString error;
    if (!AutoSave::read(recovery, scene, &error)) {
        showError("Cannot restore", error);
        return false;
    }
    mDocument->reset(std::move(scene), recovery.originalPath);
    // Modified: what is open differs from the file (or was never saved).
    mDocument->undoStack()->resetClean();
    // This session takes the work over: it autosaves it at once, then the old files go.
    if (mAutoSave->saveNow())
        AutoSave::discard(recovery);
    mSimulation->play();
    return true;
}

void MainWindow::showFrameStats()
{
    const FramePtr f = mSimulation->currentFrame();
    if (!f)
        return;
    mFrameLabel->setSteadyText(QString("frame %1").arg(f->frame));
    mTimeLabel->setSteadyText(QString("t = %1 s").arg(f->time, 0, 'f', 3));
    QString step = QString("%1 ms/step").arg(f->msPerStep, 0, 'f', 2);
    if (f->activeShare < 1.0) // the adaptive domain (docs/adaptive.md)
        step += QString(", box %1 % of the domain").arg(100.0 * f->activeShare, 0, 'f', 0);
    mStepLabel->setSteadyText(step);
    QString pressure = QString("pressure: %1 it, residual %2")
                           .arg(f->pressureIterations)
                           .arg(f->pressureResidual, 0, 'g', 3);
    if (!f->pressureTrouble.empty())
        pressure += QString(" (%1)").arg(QString::fromStdString(f->pressureTrouble));
    mPressureLabel->setSteadyText(pressure);
    mTimeline->setFrames(f->frame, mSimulation->headFrame());
    showCacheUse();
    mCacheTimer->start(500);
}

void MainWindow::updateTitle()
{
    const QString path = mDocument->filePath();
    const QString name = path.isEmpty() ? QString::fromStdString(mDocument->scene().name)
                                        : QFileInfo(path).fileName();
    setWindowTitle(QString("%1[*] - Plume").arg(name));
    setWindowModified(mDocument->isModified());
}

void MainWindow::showError(const QString &title, const QString &message)
{
    QMessageBox box(QMessageBox::Critical, title, message, QMessageBox::Ok, this);
    box.setObjectName("errorDialog");
    box.exec();
}

void MainWindow::newScene()
{
    if (!maybeSave())
        return;
    Scene scene;
    scene.domain.boundaries[std::size_t(sim::Face::YMax)] = sim::Boundary::Open;
    mDocument->reset(std::move(scene), {});
}

void MainWindow::newFromTemplate()
{
    if (!maybeSave())
        return;
    TemplateDialog dialog(exampleScenes(), this);
    if (dialog.exec() == QDialog::Accepted && !dialog.selectedScene().isEmpty())
        openFile(dialog.selectedScene());
}

void MainWindow::detachFromResources(Scene &scene)
{
    // An example opens as an unsaved scene (no folder): its models, images and texture keep
    // naming the files inside the app (a save copies them beside the scene: Document::save).
    for (Item &item : scene.items) {
        if (item.shape.type == ShapeType::Image || item.shape.type == ShapeType::Mesh)
            item.shape.file = resolveImagePath(item.shape.file, scene.directory);
    }
    LiquidTextureSettings &texture = scene.simulation.liquidTexture;
    if (texture.enabled())
        texture.file = resolveImagePath(texture.file, scene.directory);
    scene.directory.clear();
}

void MainWindow::openDefaultScene()
{
    SceneReadResult r = readSceneFile(kDefaultScene);
    if (!r.ok) {
        showError("Default scene", QString::fromStdString(r.error));
        return;
    }
    detachFromResources(r.scene);
    mDocument->reset(std::move(r.scene), {});
    mSimulation->play();
}

bool MainWindow::openFile(const QString &path, QString *error)
{
    SceneReadResult r = readSceneFile(path);
    if (!r.ok) {
        if (error)
            *error = QString::fromStdString(r.error);
        else
            showError("Cannot open scene", QString::fromStdString(r.error));
        return false;
    }
    const bool resource = path.startsWith(":/");
    if (resource)
        detachFromResources(r.scene);
    mDocument->reset(std::move(r.scene), resource ? QString() : QFileInfo(path).absoluteFilePath());
    if (!resource) {
        addRecent(QFileInfo(path).absoluteFilePath());
        kLastDirectory.set(QFileInfo(path).absolutePath());
    }
    if (!r.warnings.empty())
        statusBar()->showMessage(QString::fromStdString(r.warnings.front().message), 8000);
    mSimulation->play();
    return true;
}

void MainWindow::openWithPrompt()
{
    if (!maybeSave())
        return;
    const QString path = QFileDialog::getOpenFileName(this, "Open Scene", kLastDirectory.get(),
                                                      "Plume scenes (*.plume)");
    if (!path.isEmpty())
        openFile(path);
}

bool MainWindow::saveTo(const QString &path)
{
    if (sim::Status st = mDocument->save(path); !st) {
        showError("Cannot save scene",
                  QString::fromStdString(st.error) + "\n\nThe previous file was left as it was.");
        return false;
    }
    addRecent(QFileInfo(path).absoluteFilePath());
    statusBar()->showMessage("Saved " + path, 4000);
    return true;
}

bool MainWindow::save()
{
    if (mDocument->filePath().isEmpty())
        return saveAs();
    return saveTo(mDocument->filePath());
}

bool MainWindow::saveAs()
{
    QString path = QFileDialog::getSaveFileName(this, "Save Scene As", kLastDirectory.get(),
                                                "Plume scenes (*.plume)");
    if (path.isEmpty())
        return false;
    if (QFileInfo(path).suffix().isEmpty())
        path += ".plume";
    return saveTo(path);
}

void MainWindow::revert()
{
    if (mDocument->filePath().isEmpty() || !mDocument->isModified())
        return;
    const auto answer = QMessageBox::question(this, "Revert",
                                              "Discard all changes and reload the file?");
    if (answer == QMessageBox::Yes)
        openFile(mDocument->filePath());
}

void MainWindow::deleteSelected() { selectionedits::deleteSelection(*mDocument); }

bool MainWindow::maybeSave()
{
    if (!mDocument->isModified())
        return true;
    QMessageBox box(QMessageBox::Warning, "Unsaved changes",
                    "The scene has unsaved changes. Save them first?",
                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
    box.setObjectName("unsavedDialog");
    switch (box.exec()) {
    case QMessageBox::Save: return save();
    case QMessageBox::Discard: return true;
    default: return false;
    }
}

bool MainWindow::saveViewImageWithPrompt(const QString &chosenPath)
{
    QString path = chosenPath;
    if (path.isEmpty()) {
        const QString suggested = QDir(kLastDirectory.get())
                                      .filePath(QString::fromStdString(mDocument->scene().name)
                                                + QStringLiteral("_view.png"));
        path = QFileDialog::getSaveFileName(this, "Save View Image", suggested,
                                            "PNG images (*.png)");
        if (path.isEmpty())
            return false;
    }
    if (sim::Status st = saveViewImage(mViewLayout, path); !st) {
        showError("Cannot save the view", QString::fromStdString(st.error));
        return false;
    }
    statusBar()->showMessage(QString("Saved %1").arg(QDir::toNativeSeparators(path)), 5000);
    return true;
}

bool MainWindow::saveTurntableWithPrompt(const QString &chosenFolder, int frames)
{
    VolumeView *volume = mViewLayout->volumeView();
    if (mDocument->scene().domain.dimension != Dimension::ThreeD || !volume) {
        showError("Save Turntable",
                  volume
                      ? QString("A turntable turns round a 3D scene; this scene is 2D.")
                      : QString("The volume view is off: %1").arg(mViewLayout->volumeOffReason()));
        return false;
    }
    QString folder = chosenFolder;
    if (folder.isEmpty()) {
        bool ok = false;
        frames = QInputDialog::getInt(this, "Save Turntable", "Images per turn:", 72, 2, 3600, 1,
                                      &ok);
        if (!ok)
            return false;
        folder = QFileDialog::getExistingDirectory(this, "Save Turntable Into",
                                                   kLastDirectory.get());
        if (folder.isEmpty())
            return false;
    }
    // Shown, so the volume draws at the size the user sees (single layout: the volume alone).
    if (!volume->isVisible() && !mViewLayout->isQuad())
        mViewLayout->setVolumeShown(true);
    mSimulation->pause();
    QProgressDialog progress("Rendering the turntable...", "Stop", 0, frames, this);
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(500);
    QStringList written;
    const sim::Status st = saveTurntable(
        volume, {folder, QString::fromStdString(mDocument->scene().name) + "_turntable", frames},
        [&progress](int done, int) {
        progress.setValue(done);
        return !progress.wasCanceled();
        },
        &written);
    progress.reset();
    if (!st) {
        showError("Cannot save the turntable", QString::fromStdString(st.error));
        return false;
    }
    statusBar()->showMessage(QString("Saved %1 turntable images in %2")
                                 .arg(written.size())
                                 .arg(QDir::toNativeSeparators(folder)),
                             8000);
    return true;
}

bool MainWindow::saveItemPresetWithPrompt(const QString &presetName)
{
    const int selected = mDocument->selectedItem();
    if (selected < 0)
        return false;
    QString name = presetName;
    if (name.isEmpty()) {
        bool ok = false;
        name = QInputDialog::getText(
            this, "Save Item as Preset",
            QString("Preset name (kept in %1):").arg(QDir::toNativeSeparators(itemPresetFolder())),
            QLineEdit::Normal,
            QString::fromStdString(mDocument->scene().items[std::size_t(selected)].name), &ok);
        if (!ok)
            return false;
    }
    QString path;
    if (sim::Status st = saveItemPreset(mDocument->scene(), selected, name, itemPresetFolder(),
                                        &path);
        !st) {
        showError("Cannot save the preset", QString::fromStdString(st.error));
        return false;
    }
    statusBar()->showMessage(QString("Saved preset %1").arg(QDir::toNativeSeparators(path)), 5000);
    return true;
}

bool MainWindow::addItemPreset(const QString &path)
{
    Item item;
    if (sim::Status st = loadItemPreset(path, mDocument->scene(), item); !st) {
        showError("Cannot add the preset", QString::fromStdString(st.error));
        return false;
    }
    item.name = mDocument->uniqueItemName(item.name);
    const int index = int(mDocument->scene().items.size());
    mDocument->undoStack()->push(new AddItem(mDocument, index, std::move(item)));
    mDocument->setSelectedItem(index);
    return true;
}

// The export dialog (flipbook, images, OpenVDB); it previews the frame shown. The interactive
// simulation pauses so the bake has the cores.
void MainWindow::exportScene()
{
    mSimulation->pause();
    ExportDialog dialog(mDocument, mSimulation->currentFrameNumber(), this);
    dialog.exec();
}

void MainWindow::importModelWithPrompt()
{
    QStringList patterns;
    for (const std::string &suffix : meshFileSuffixes())
        patterns << "*." + QString::fromStdString(suffix);
    const QString path =
        QFileDialog::getOpenFileName(this, "Import Model", kLastModelDirectory.get(),
                                     QString("Models (%1);;All files (*)").arg(patterns.join(' ')));
    if (path.isEmpty())
        return;
    kLastModelDirectory.set(QFileInfo(path).absolutePath());
    importModel(path);
}

bool MainWindow::importModel(const QString &path, std::optional<sim::Vec3> at)
{
    const QFileInfo info(path);
    const auto loaded = loadMesh(info.absoluteFilePath().toStdString());
    if (!loaded) {
        showError("Cannot import model", QString::fromStdString(loaded.error()));
        return false;
    }
    const MeshPtr &mesh = loaded.value();
    ModelImportOptions defaults;
    defaults.name = mDocument->uniqueItemName(info.completeBaseName().toStdString());
    QString summary =
        QString("%1: %2 triangles, ").arg(info.fileName()).arg(mesh->triangles.size());
    summary += mesh->closed()
                   ? QString("closed")
                   : QString("open (%1 open edges): it acts as a shell").arg(mesh->openEdges);
    ImportModelDialog dialog(summary, defaults, this);
    if (dialog.exec() != QDialog::Accepted)
        return false;
    ModelImportOptions options = dialog.options();
    options.name = mDocument->uniqueItemName(options.name.empty() ? defaults.name : options.name);
    const int index = int(mDocument->scene().items.size());
    mDocument->undoStack()->push(
        new AddItem(mDocument, index,
                    modelItem(mDocument->scene(), info.absoluteFilePath(), *mesh, options, at)));
    mDocument->setSelectedItem(index);
    return true;
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    kGeometry.set(saveGeometry());
    kState.set(saveState());
    mSimulation->pause();
    mAutoSave->removeRecovery(); // a clean quit
    event->accept();
}

} // namespace plume
