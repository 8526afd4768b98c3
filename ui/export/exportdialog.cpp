// SPDX-License-Identifier: Apache-2.0
#include <ui/export/exportdialog.h>

#include <ui/export/exportgroup.h>
#include <ui/export/exportpreview.h>
#include <ui/export/exportwidgets.h>
#include <ui/export/flipbookgroup.h>
#include <ui/export/imagesgroup.h>
#include <ui/export/oceanmapsgroup.h>
#include <ui/export/outputgroup.h>
#include <ui/export/rendergroup.h>
#include <ui/export/vdbgroup.h>
#include <ui/export/vectorfieldgroup.h>
#include <ui/export/volumetexturegroup.h>
#include <ui/export/wedgegroup.h>

#include <core/bake/bakeplan.h>
#include <core/bake/wedge.h>
#include <ui/document/document.h>
#include <ui/document/undocommands.h>
#include <ui/preferences.h>

#include <QAbstractSpinBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QThread>
#include <QVBoxLayout>

#include <algorithm>

namespace plume {

using namespace exportwidgets;

namespace {

const Preference<QString> kExportDirectory("export/directory", QDir::homePath());
const char *const kVdbKey = "vdb";

/// What the groups show of the presets: OpenVDB as stored, or what plume-cli would do.
BakeSettings fromPresets(const ExportPresets &p)
{
    BakeSettings s;
    s.render = p.render;
    s.flipbook = p.flipbook;
    s.images = p.images;
    s.openvdb = p.openvdb;
    s.vdb = p.extra.contains(kVdbKey) ? p.extra.value(kVdbKey).toBool() : vdbByDefault(p);
    return s;
}

} // namespace

namespace {

/// Keeps the mouse wheel from changing the option under the pointer while the options are
/// scrolled: over a combo box or spin box of `area` that does not have the keyboard focus, the
/// wheel scrolls the area instead (clicking the editor first lets the wheel change it). The
/// filter sits on the application so that editors added later (the packing rows) are covered.
class WheelScrollsOptions : public QObject
{
public:
    explicit WheelScrollsOptions(QScrollArea *area)
        : QObject(area)
        , mArea(area)
    {
        qApp->installEventFilter(this);
    }

    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() != QEvent::Wheel)
            return false;
        auto *w = qobject_cast<QWidget *>(watched);
        if (!w || w->hasFocus() || !mArea->widget() || !mArea->widget()->isAncestorOf(w)
            || !(qobject_cast<QComboBox *>(w) || qobject_cast<QAbstractSpinBox *>(w)))
            return false;
        QCoreApplication::sendEvent(mArea->verticalScrollBar(), event);
        return true;
    }

private:
    QScrollArea *mArea;
};

} // namespace

/// The sections, top to bottom.
std::array<ExportGroup *, 7> ExportDialog::groups() const
{
    return {mOceanGroup, mFlipbook, mImages, mVdb, mVectorField, mVolumeTexture, mRender};
}

/// Bake progress: the worker reports through queued calls; the GUI thread sets the flag.
class ExportDialog::Observer : public BakeObserver
{
public:
    explicit Observer(ExportDialog *dialog)
        : mDialog(dialog)
    {}
    void frameWritten(int, int done, int total, double) override
    {
        QMetaObject::invokeMethod(
            mDialog, [d = mDialog, done, total] { Q_EMIT d->progressed(done, total); },
            Qt::QueuedConnection);
    }
    /// Effect framing renders after the simulation: the bar fills again.
    void frameRendered(int frame, int done, int total, double ms) override
    {
        frameWritten(frame, done, total, ms);
    }
    bool cancelRequested() override { return mCancel.load(); }

    std::atomic<bool> mCancel{false};

private:
    ExportDialog *mDialog;
};

ExportDialog::ExportDialog(Document *document, int previewFrame, QWidget *parent)
    : QDialog(parent)
    , mDocument(document)
    , mScenePresets(document->scene().exports)
{
    setObjectName("exportDialog");
    setWindowTitle("Export");
    mFlipbook = new FlipbookGroup;
    mImages = new ImagesGroup;
    mVdb = new VdbGroup;
    mVectorField = new VectorFieldGroup;
    mVolumeTexture = new VolumeTextureGroup;
    mOceanGroup = new OceanMapsGroup;
    mRender = new RenderGroup;
    // Where the files go, and which outputs: each output's box, above the section of its options.
    mOutput = new OutputGroup;
    for (QCheckBox *box :
         {mFlipbook->toggle(), mImages->toggle(), mVdb->toggle(), mVectorField->toggle(),
          mVolumeTexture->toggle(), mOutput->flowMapBox(), mOceanGroup->toggle()})
        mOutput->addOutput(box);
    auto *options = new QWidget;
    auto *optionsLayout = new QVBoxLayout(options);
    optionsLayout->addWidget(mOutput);
    mWedge = new WedgeGroup;
    optionsLayout->addWidget(mWedge);
    optionsLayout->addWidget(createFramesGroup());
    for (ExportGroup *group : groups()) // the ocean's for ocean scenes only, under what it shapes
        optionsLayout->addWidget(group);
    optionsLayout->addStretch();
    auto *scroll = new QScrollArea;
    scroll->setWidget(options);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setMinimumWidth(options->sizeHint().width() + 24);
    new WheelScrollsOptions(scroll);

    mMessage = new QLabel;
    mMessage->setObjectName("message");
    mMessage->setWordWrap(true);
    mProgress = new QProgressBar;
    mProgress->setObjectName("progress");
    mProgress->setFormat("%v / %m frames");
    mReport = new QPlainTextEdit;
    mReport->setObjectName("report");
    mReport->setReadOnly(true);
    mReport->setMaximumHeight(90);
    mReport->setPlaceholderText("Files written appear here.");
    auto *buttons = new QDialogButtonBox;
    mExportButton = buttons->addButton("Export", QDialogButtonBox::AcceptRole);
    mExportButton->setObjectName("exportButton");
    mCancelButton = buttons->addButton("Cancel Export", QDialogButtonBox::ActionRole);
    mCancelButton->setObjectName("cancelButton");
    mCloseButton = buttons->addButton(QDialogButtonBox::Close);
    mCancelButton->setEnabled(false);
    connect(mExportButton, &QPushButton::clicked, this, &ExportDialog::startExport);
    connect(mCancelButton, &QPushButton::clicked, this, &ExportDialog::cancelExport);
    connect(mCloseButton, &QPushButton::clicked, this, &ExportDialog::reject);
    connect(this, &ExportDialog::progressed, this, [this](int done, int total) {
        mProgress->setRange(0, total);
        mProgress->setValue(done);
    });
    connect(this, &ExportDialog::variationStarted, this, [this](int index, int count) {
        mProgress->setFormat(
            QString("variation %1 of %2: %v / %m frames").arg(index + 1).arg(count));
        mProgress->setValue(0);
    });

    mPreview = new ExportPreview(document);
    auto *top = new QHBoxLayout;
    top->addWidget(scroll);
    top->addWidget(mPreview, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top, 1);
    layout->addWidget(mMessage);
    layout->addWidget(mProgress);
    layout->addWidget(mReport);
    layout->addWidget(buttons);

    const Scene &scene = document->scene();
    const int lo = scene.simulation.frameStart, hi = scene.simulation.frameEnd;
    mFirst->setRange(lo, hi);
    mLast->setRange(lo, hi);
    mPreview->setFrameRange(lo, hi);
    mPreview->setFrame(std::clamp(previewFrame, lo, hi));
    const bool is3D = scene.domain.dimension == Dimension::ThreeD;
    for (ExportGroup *group : groups())
        group->setThreeD(is3D);
    mOutput->setThreeD(is3D);
    mOutput->setFolder(kExportDirectory.get());
    load(mScenePresets);
    // An ocean bakes its maps (an OpenVDB volume it has not); other scenes have no maps.
    mOcean = scene.simulation.params.scheme == sim::Scheme::Ocean;
    mOceanGroup->setOceanScene(mOcean);
    if (mOcean) {
        mVdb->setUnavailable("An ocean has no volume: bake its maps");
        mVectorField->setUnavailable("An ocean has no velocity volume: bake its maps");
        mVolumeTexture->setUnavailable("An ocean has no volume: bake its maps");
    }
    mWedge->setScene(&document->scene(), QFileInfo(document->filePath()).fileName().isEmpty()
                                             ? QString::fromStdString(scene.name + ".plume")
                                             : QFileInfo(document->filePath()).fileName());
    connectChanges();
    optionsChanged();
    resize(1180, 800);
}

ExportDialog::~ExportDialog()
{
    if (mThread) {
        mObserver->mCancel = true;
        mThread->wait();
        delete mThread;
    }
}

AtlasPreview *ExportDialog::atlasPreview() const { return mPreview->atlasPreview(); }
FramePreview *ExportDialog::framePreview() const { return mPreview->framePreview(); }

QWidget *ExportDialog::createFramesGroup()
{
    auto *group = new QGroupBox("Frames");
    auto *form = new QFormLayout(group);
    mFirst = spinBox("firstFrame", 0, 0);
    mLast = spinBox("lastFrame", 0, 0);
    form->addRow("Range", sideBySide(mFirst, mLast, "to"));
    return group;
}

// Widgets from presets; the base name from the file names they hold.
void ExportDialog::load(const ExportPresets &p)
{
    const Scene &scene = mDocument->scene();
    QString base = QFileInfo(mDocument->filePath()).completeBaseName();
    if (base.isEmpty())
        base = QString::fromStdString(scene.name);
    const QString flipName = QString::fromStdString(p.flipbook.fileName);
    if (!p.images.fileName.empty())
        base = QString::fromStdString(p.images.fileName);
    else if (flipName.endsWith("_flipbook"))
        base = flipName.chopped(int(qstrlen("_flipbook")));
    mLoadedBase = base;
    mOutput->setBaseName(base);
    const int first = p.flipbook.first != kBakeRange ? p.flipbook.first : p.images.first;
    const int last = p.flipbook.last != kBakeRange ? p.flipbook.last : p.images.last;
    mFirst->setValue(first == kBakeRange ? scene.simulation.frameStart : first);
    mLast->setValue(last == kBakeRange ? scene.simulation.frameEnd : last);
    const BakeSettings s = fromPresets(p);
    for (ExportGroup *group : groups())
        group->load(s);
}

// Every change, once the widgets show the presets, goes one way: optionsChanged() plans the
// bake again, shows its refusal and previews it.
void ExportDialog::connectChanges()
{
    const auto changed = &ExportDialog::optionsChanged;
    for (QSpinBox *b : {mFirst, mLast})
        connect(b, &QSpinBox::valueChanged, this, changed);
    connect(mOutput, &OutputGroup::changed, this, changed);
    connect(mWedge, &WedgeGroup::changed, this, changed);
    for (ExportGroup *group : groups())
        connect(group, &ExportGroup::changed, this, changed);
}

// The scene's presets with each group's part applied; what no group shows stays as it is.
BakeSettings ExportDialog::fromGroups() const
{
    BakeSettings s = fromPresets(mScenePresets);
    for (const ExportGroup *group : groups())
        group->apply(s);
    return s;
}

ExportPresets ExportDialog::presets() const
{
    const BakeSettings s = fromGroups();
    ExportPresets p = mScenePresets;
    p.render = s.render;
    p.flipbook = s.flipbook;
    p.images = s.images;
    p.openvdb = s.openvdb;

    // The scene's whole range stays "the bake's range", so it follows the scene's frames.
    const Scene &scene = mDocument->scene();
    const bool whole = mFirst->value() == scene.simulation.frameStart
                       && mLast->value() == scene.simulation.frameEnd;
    p.flipbook.first = p.images.first = whole ? kBakeRange : mFirst->value();
    p.flipbook.last = p.images.last = whole ? kBakeRange : mLast->value();
    const QString base = mOutput->baseName();
    if (base != mLoadedBase) {
        p.flipbook.fileName = (base + "_flipbook").toStdString();
        p.images.fileName = base.toStdString();
    }

    if (!mOcean) { // an ocean's bake writes maps, never a volume: its presets keep the key
        p.extra.remove(kVdbKey);
        if (s.vdb != vdbByDefault(p))
            p.extra.insert(kVdbKey, s.vdb);
    }
    return p;
}

BakeSettings ExportDialog::bakeSettings() const
{
    BakeSettings s = fromGroups();
    mOutput->apply(s);
    s.firstFrame = mFirst->value();
    s.lastFrame = mLast->value();
    s.plumeVersion = QCoreApplication::applicationVersion().toStdString();
    // The dialog's range and base name decide; the presets hold them only to remember them.
    s.flipbook.first = s.flipbook.last = s.images.first = s.images.last = kBakeRange;
    s.flipbook.fileName.clear();
    s.images.fileName.clear();
    return s;
}

bool ExportDialog::oceanMapsEnabled() const { return mOceanGroup->isOn(); }

void ExportDialog::optionsChanged()
{
    const BakeSettings s = bakeSettings();
    // The previewed frame stays inside the exported range.
    mPreview->setFrameRange(s.firstFrame, std::max(s.firstFrame, s.lastFrame));
    mPreview->setSettings(s);
    const QString problem = validate();
    mMessage->setText(problem);
    mExportButton->setEnabled(!isExporting() && problem.isEmpty());
    mExportButton->setText(mWedge->isOn() && mWedge->count() > 0
                               ? QString("Export %1 Variation%2")
                                     .arg(mWedge->count())
                                     .arg(mWedge->count() == 1 ? "" : "s")
                               : QString("Export"));
}

// Why the options cannot bake, or empty: the bake plan's refusal, word for word what plume-cli
// prints for the same settings.
QString ExportDialog::validate() const
{
    if (mWedge->isOn() && !mWedge->problem().isEmpty())
        return "Variations: " + mWedge->problem();
    const PlannedBake planned = planBake(mDocument->scene(), bakeSettings());
    return QString::fromStdString(planned.message);
}

bool ExportDialog::startExport()
{
    if (isExporting())
        return false;
    if (mWedge->isOn())
        return startWedgeExport();
    mVariations.clear();
    const PlannedBake planned = planBake(mDocument->scene(), bakeSettings());
    if (!planned.ok()) {
        mMessage->setText(QString::fromStdString(planned.message));
        return false;
    }
    const ExportPresets p = presets();
    if (!(p == mDocument->scene().exports))
        mDocument->undoStack()->push(new ChangeValue<values::SceneExports>(mDocument, -1, p));
    kExportDirectory.set(mOutput->folder());

    mObserver = std::make_unique<Observer>(this);
    mResult = {};
    mProgress->setRange(0, planned.plan.settings.lastFrame - planned.plan.settings.firstFrame + 1);
    mProgress->setValue(0);
    mReport->clear();
    mMessage->setText("Exporting...");
    // The ocean maps and the other outputs in one bake loop; the files of all are listed.
    mThread = QThread::create(
        [this, scene = mDocument->scene(), plan = planned.plan, observer = mObserver.get()] {
        mResult = runBake(scene, plan, observer);
    });
    connect(mThread, &QThread::finished, this, &ExportDialog::finishExport);
    setExportingUi(true);
    mThread->start();
    return true;
}

bool ExportDialog::startWedgeExport()
{
    if (const QString problem = validate(); !problem.isEmpty()) {
        mMessage->setText(problem);
        return false;
    }
    WedgeSpec spec;
    QString error;
    if (!mWedge->spec(spec, error)) {
        mMessage->setText("Variations: " + error);
        return false;
    }
    const BakeSettings base = bakeSettings();
    const std::string folder = base.outputDirectory.string();
    // The scene files must read outside the app: an example's models and images are copied
    // into the folder, as a save copies them (the document keeps its own paths).
    Scene scene = mDocument->scene();
    if (!QDir().mkpath(QString::fromStdString(folder))) {
        mMessage->setText(QString("Export failed: cannot create the folder %1")
                              .arg(QString::fromStdString(folder)));
        return false;
    }
    if (const sim::Status copied = copyAppFiles(scene, QString::fromStdString(folder)); !copied) {
        mMessage->setText("Export failed: " + QString::fromStdString(copied.error));
        return false;
    }
    // An unsaved scene's relative paths (the copies among them) then resolve from the folder,
    // as they would once saved there.
    if (scene.directory.empty())
        scene.directory = QDir(QString::fromStdString(folder)).absolutePath().toStdString();
    const std::string stem = base.baseName;
    const QString filePath = mDocument->filePath();
    const std::string source = filePath.isEmpty()
                                   ? std::string()
                                   : QFileInfo(filePath).absoluteFilePath().toStdString();
    auto planned = planWedge(scene, source, stem, spec, folder);
    if (!planned) {
        mMessage->setText("Variations: " + QString::fromStdString(planned.error()));
        return false;
    }
    WedgePlan plan = planned.take();
    if (const sim::Status written = writeWedge(plan, stem, folder); !written) {
        mMessage->setText("Export failed: " + QString::fromStdString(written.error));
        return false;
    }
    kExportDirectory.set(mOutput->folder());
    // The dialog's whole range follows each variation's own frames (a wedge may vary them).
    const bool wholeRange = base.firstFrame == scene.simulation.frameStart
                            && base.lastFrame == scene.simulation.frameEnd;
    mObserver = std::make_unique<Observer>(this);
    mResult = {};
    mVariations.clear();
    mWedgeDirectory = QString::fromStdString(folder);
    mWedgeManifest = QFileInfo(wedgeManifestPath(folder, stem)).fileName();
    mReport->clear();
    const int count = int(plan.scenes.size());
    mWedgeCount = count;
    mMessage->setText(QString("Exporting %1 variations...").arg(count));
    mThread = QThread::create(
        [this, plan = std::move(plan), base, wholeRange, count, observer = mObserver.get()] {
        std::vector<VariationResult> results;
        for (int k = 0; k < count && !observer->cancelRequested(); ++k) {
            QMetaObject::invokeMethod(
                this, [this, k, count] { Q_EMIT variationStarted(k, count); },
                Qt::QueuedConnection);
            const WedgeVariation &v = plan.manifest.variations[std::size_t(k)];
            const Scene &scene = plan.scenes[std::size_t(k)];
            BakeSettings s = base;
            s.outputDirectory = base.outputDirectory / v.name;
            s.baseName = v.name;
            if (wholeRange) {
                s.firstFrame = scene.simulation.frameStart;
                s.lastFrame = scene.simulation.frameEnd;
            }
            VariationResult r;
            r.index = k;
            r.name = v.name;
            for (const auto &[key, value] : v.values)
                r.values += (r.values.empty() ? "" : ", ") + key + " = " + formatWedgeValue(value);
            const PlannedBake planned = planBake(scene, s);
            r.result = planned.ok() ? runBake(scene, planned.plan, observer)
                                    : BakeResult::stopped(planned.outcome, planned.message);
            results.push_back(std::move(r));
        }
        mVariations = std::move(results); // read by the GUI thread once this one has finished
    });
    connect(mThread, &QThread::finished, this, &ExportDialog::finishWedgeExport);
    setExportingUi(true);
    mThread->start();
    return true;
}

void ExportDialog::finishWedgeExport()
{
    mThread->wait();
    delete mThread;
    mThread = nullptr;
    setExportingUi(false);
    mProgress->setFormat("%v / %m frames");
    const int count = mWedgeCount;
    int baked = 0;
    bool cancelled = false;
    QStringList report, failures;
    for (const VariationResult &v : mVariations) {
        const QString name = QString::fromStdString(v.name);
        if (v.result.status) {
            ++baked;
            report << QString("%1/: %2 files (%3)")
                          .arg(name)
                          .arg(v.result.files.size())
                          .arg(QString::fromStdString(v.values));
        } else if (isCancelled(v.result.outcome)) {
            cancelled = true;
            report << name + ": cancelled; its complete frames stay";
        } else {
            const QString why = QString("%1 (%2): %3")
                                    .arg(name, QString::fromStdString(v.values),
                                         QString::fromStdString(v.result.status.error));
            failures << why;
            report << "FAILED " + why;
        }
    }
    const QString manifest = mWedgeManifest;
    if (baked == count)
        mMessage->setText(QString("Baked %1 variations into %2 (scenes and %3 beside them).")
                              .arg(count)
                              .arg(mWedgeDirectory, manifest));
    else if (cancelled || int(mVariations.size()) < count)
        mMessage->setText(QString("Cancelled: %1 of %2 variations baked.").arg(baked).arg(count));
    else
        mMessage->setText(QString("%1 of %2 variations baked; %3 failed: %4")
                              .arg(baked)
                              .arg(count)
                              .arg(failures.size())
                              .arg(failures.join("; ")));
    mReport->setPlainText(report.join('\n'));
    mExportButton->setEnabled(validate().isEmpty());
    Q_EMIT exportFinished(baked == count);
}

void ExportDialog::cancelExport()
{
    if (!mObserver || !isExporting())
        return;
    mObserver->mCancel = true;
    mMessage->setText("Cancelling after the frame in progress...");
}

void ExportDialog::reject()
{
    if (isExporting()) {
        cancelExport();
        return;
    }
    QDialog::reject();
}

void ExportDialog::finishExport()
{
    mThread->wait();
    delete mThread;
    mThread = nullptr;
    setExportingUi(false);
    const QString dir = QString::fromStdString(bakeSettings().outputDirectory.string());
    QStringList names;
    for (const std::filesystem::path &f : mResult.files)
        names << QString::fromStdString(f.filename().string());
    const bool ok = bool(mResult.status);
    if (ok)
        mMessage->setText(QString("Wrote %1 files to %2.").arg(names.size()).arg(dir));
    else if (isCancelled(mResult.outcome))
        mMessage->setText(QString("Cancelled. %1 complete files were written before it stopped; "
                                  "no flipbook atlas.")
                              .arg(names.size()));
    else
        mMessage->setText("Export failed: " + QString::fromStdString(mResult.status.error));
    mReport->setPlainText(names.join('\n'));
    mExportButton->setEnabled(validate().isEmpty());
    Q_EMIT exportFinished(ok);
}

void ExportDialog::setExportingUi(bool exporting)
{
    mWedge->setEnabled(!exporting); // the rows of a running wedge stay as they were
    mExportButton->setEnabled(!exporting);
    mCancelButton->setEnabled(exporting);
    mCloseButton->setEnabled(!exporting);
}

} // namespace plume
