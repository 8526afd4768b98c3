// SPDX-License-Identifier: Apache-2.0
#include <ui/export/exportdialog.h>

#include <ui/export/atlaspreview.h>
#include <ui/export/exportwidgets.h>
#include <ui/export/framepreview.h>
#include <ui/export/oceanmapsgroup.h>
#include <ui/export/passeseditor.h>

#include <core/bake/bakeplan.h>
#include <core/export/flipbook.h>
#include <core/export/passes.h>
#include <ui/document/document.h>
#include <ui/document/undocommands.h>
#include <ui/preferences.h>

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QThread>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace plume {

using namespace exportwidgets;

namespace {

const Preference<QString> kExportDirectory("export/directory", QDir::homePath());
const char *const kVdbKey = "vdb";
constexpr int kFrameDelayMs = 150; ///< preview renders once the options stop changing
/// The textures the preview offers: the flipbook's, or the image sequence's when only it is on.
TextureOptions previewedTextures(const BakeSettings &s)
{
    return s.flipbook.enabled || !s.images.enabled ? textureOptions(s.flipbook)
                                                   : textureOptions(s.images);
}

/// Preview channel entries past colour, emission and motion: kTextureEntry + 2 * texture
/// index (+ 1 for its alpha channel).
constexpr int kTextureEntry = 100;

} // namespace

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
    auto *options = new QWidget;
    auto *optionsLayout = new QVBoxLayout(options);
    optionsLayout->addWidget(createOutputGroup());
    optionsLayout->addWidget(createFramesGroup());
    mOceanGroup = new OceanMapsGroup; // shown for ocean scenes only, under what it shapes
    optionsLayout->addWidget(mOceanGroup);
    optionsLayout->addWidget(createFlipbookGroup());
    optionsLayout->addWidget(createImagesGroup());
    optionsLayout->addWidget(createVdbGroup());
    optionsLayout->addWidget(createRenderGroup());
    optionsLayout->addStretch();
    auto *scroll = new QScrollArea;
    scroll->setWidget(options);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setMinimumWidth(options->sizeHint().width() + 24);

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

    auto *top = new QHBoxLayout;
    top->addWidget(scroll);
    top->addWidget(createPreview(), 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top, 1);
    layout->addWidget(mMessage);
    layout->addWidget(mProgress);
    layout->addWidget(mReport);
    layout->addWidget(buttons);

    const Scene &scene = document->scene();
    const int lo = scene.simulation.frameStart, hi = scene.simulation.frameEnd;
    for (QSpinBox *box : {mFirst, mLast, mPreviewFrame})
        box->setRange(lo, hi);
    mPreviewFrame->setValue(std::clamp(previewFrame, lo, hi));
    mPreviewFrame->setToolTip("The frame shown, simulated and rendered as the export will");
    const bool is3D = scene.domain.dimension == Dimension::ThreeD;
    for (QWidget *w : std::initializer_list<QWidget *>{mProjection, mYaw, mPitch, mFov, mZoom})
        w->setEnabled(is3D);
    mLook->setEnabled(!is3D);
    mLook3D->setEnabled(is3D);
    mFlipPasses->setThreeD(is3D);
    mFlowMapOn->setEnabled(!is3D);
    mImagePasses->setThreeD(is3D);
    mDirectory->setText(kExportDirectory.get());
    load(mScenePresets);
    // An ocean bakes its maps (an OpenVDB volume it has not); other scenes have no maps.
    mOcean = scene.simulation.params.scheme == sim::Scheme::Ocean;
    mOceanOn->setEnabled(mOcean);
    mOceanOn->setChecked(mOcean);
    mOceanGroup->setVisible(mOcean);
    if (mOcean) {
        mVdbOn->setChecked(false);
        mVdbOn->setEnabled(false);
        mVdbOn->setToolTip("An ocean has no volume: bake its maps");
    }
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

QWidget *ExportDialog::createOutputGroup()
{
    auto *group = new QGroupBox("Output");
    auto *form = new QFormLayout(group);
    mDirectory = new QLineEdit;
    mDirectory->setObjectName("outputDirectory");
    auto *browseButton = new QToolButton;
    browseButton->setText("...");
    connect(browseButton, &QToolButton::clicked, this, &ExportDialog::browse);
    form->addRow("Folder", sideBySide(mDirectory, browseButton));
    mBaseName = new QLineEdit;
    mBaseName->setObjectName("baseName");
    form->addRow("Base name", mBaseName);
    mFlipbookOn = checkBox("flipbookEnabled", "Flipbook atlas (<base>_flipbook.png + .json)");
    mImagesOn = checkBox("imagesEnabled", "Image sequence (<base>.####.png)");
    mVdbOn = checkBox("vdbEnabled", "OpenVDB sequence (<base>.####.vdb)");
    form->addRow(mFlipbookOn);
    form->addRow(mImagesOn);
    form->addRow(mVdbOn);
    mFlowMapOn = checkBox("flowMapEnabled", "Flow map (<base>_flowmap.png + .json; 2D)");
    mFlowMapOn->setToolTip("The time-averaged velocity over the frames as RG = 0.5 + 0.5 v / vmax, "
                           "B = speed / vmax, for shaders that distort any texture "
                           "(docs/liquid-textures.md)");
    form->addRow(mFlowMapOn);
    mOceanOn = checkBox("oceanMapsEnabled",
                        "Ocean maps (<base>_height/_normal/_foam + <base>_ocean.json; ocean)");
    mOceanOn->setToolTip("Height, normal and foam maps that tile and loop (docs/ocean.md)");
    form->addRow(mOceanOn);
    return group;
}

QWidget *ExportDialog::createFramesGroup()
{
    auto *group = new QGroupBox("Frames");
    auto *form = new QFormLayout(group);
    mFirst = spinBox("firstFrame", 0, 0);
    mLast = spinBox("lastFrame", 0, 0);
    form->addRow("Range", sideBySide(mFirst, mLast, "to"));
    return group;
}

QWidget *ExportDialog::createRenderGroup()
{
    auto *group = new QGroupBox("Render");
    auto *form = new QFormLayout(group);
    mWidth = spinBox("frameWidth", renderParams::width);
    mHeight = spinBox("frameHeight", renderParams::height);
    form->addRow("Frame size", sideBySide(mWidth, mHeight, "x"));
    mLook = comboBox("look", {{"Dye (density as alpha)", int(Look2D::Dye)},
                              {"Field with colour map", int(Look2D::Field)},
                              {"Liquid texture", int(Look2D::Texture)},
                              {"Level surface (lit liquid)", int(Look2D::Surface)}});
    form->addRow("Look (2D)", mLook);
    mLook3D = comboBox("look3d", {{"Smoke volume", int(Look3D::Volume)},
                                  {"Level surface (lit liquid)", int(Look3D::Surface)}});
    form->addRow("Look (3D)", mLook3D);
    mSurfaceIso = doubleBox("surfaceIso", renderParams::surfaceIso, 0.05);
    mSurfaceIso->setToolTip("Density on the level surface of grid smoke (docs/surfaces.md)");
    form->addRow("Surface iso value", mSurfaceIso);
    mField = new QComboBox;
    mField->setObjectName("field");
    for (sim::FieldKind f :
         {sim::FieldKind::Density, sim::FieldKind::Temperature, sim::FieldKind::Speed,
          sim::FieldKind::Vorticity, sim::FieldKind::Pressure, sim::FieldKind::Divergence,
          sim::FieldKind::VelocityX, sim::FieldKind::VelocityY})
        mField->addItem(toString(f), int(f));
    form->addRow("Field", mField);
    mColorMap = new QComboBox;
    mColorMap->setObjectName("colorMap");
    for (std::size_t m = 0; m < kColorMapNames.size(); ++m)
        mColorMap->addItem(kColorMapNames.names[m], int(m));
    form->addRow("Colour map", mColorMap);
    mFieldMin = doubleBox("fieldMin", renderParams::fieldMin, 0.1);
    mFieldMax = doubleBox("fieldMax", renderParams::fieldMax, 0.1);
    form->addRow("Field range", sideBySide(mFieldMin, mFieldMax, "to"));
    mProjection = comboBox("projection", {{"Orthographic", int(Projection::Orthographic)},
                                          {"Perspective", int(Projection::Perspective)}});
    form->addRow("Camera (3D)", mProjection);
    const QString degrees = QString::fromUtf8("\u00b0");
    mYaw = doubleBox("yaw", renderParams::yaw, 5, degrees);
    mPitch = doubleBox("pitch", renderParams::pitch, 5, degrees);
    form->addRow("Yaw, pitch", sideBySide(mYaw, mPitch));
    mFov = doubleBox("fov", renderParams::fov, 1, degrees);
    mZoom = doubleBox("zoom", renderParams::zoom, 0.1);
    form->addRow("Field of view, zoom", sideBySide(mFov, mZoom));
    mEmissionIntensity = doubleBox("emissionIntensity", renderParams::emissionIntensity, 0.1);
    form->addRow("Emission intensity", mEmissionIntensity);
    mFlameIntensity = doubleBox("flameIntensity", renderParams::flameIntensity, 0.5);
    form->addRow("Flame intensity", mFlameIntensity);
    return group;
}

QWidget *ExportDialog::createFlipbookGroup()
{
    mFlipbookGroup = new QGroupBox("Flipbook atlas");
    auto *form = new QFormLayout(mFlipbookGroup);
    mRows = spinBox("rows", flipbookParams::rows);
    mColumns = spinBox("columns", flipbookParams::columns);
    form->addRow("Rows x columns", sideBySide(mRows, mColumns, "x"));
    mFlipStep = spinBox("flipbookStep", flipbookParams::step, "Auto (fit the tiles)");
    form->addRow("Step", mFlipStep);
    mPadding = spinBox("padding", flipbookParams::padding);
    mPadding->setSuffix(" px");
    form->addRow("Padding", mPadding);
    mFlipAlpha = alphaBox("flipbookAlpha");
    form->addRow("Alpha", mFlipAlpha);
    mFlipDepth = depthBox("flipbookBitDepth");
    form->addRow("Bit depth", mFlipDepth);
    mFlipEmission = emissionBox("flipbookEmission");
    form->addRow("Emission", mFlipEmission);
    mMotion = checkBox("motionVectors", "Motion-vector atlas");
    mMotionRange = doubleBox("motionRange", flipbookParams::motionRange, 0.25, " px/frame");
    mMotionRange->setSpecialValueText("Auto (largest motion)");
    form->addRow("Motion", sideBySide(mMotion, mMotionRange));
    mLoop = spinBox("loopFrames", flipbookParams::loopFrames, "Off");
    mLoop->setSuffix(" frames");
    form->addRow("Loop blend", mLoop);
    mFlipPasses = new PassesEditor("flipbook");
    form->addRow(mFlipPasses);
    return mFlipbookGroup;
}

QWidget *ExportDialog::createImagesGroup()
{
    mImagesGroup = new QGroupBox("Image sequence");
    auto *form = new QFormLayout(mImagesGroup);
    mImageStep = spinBox("imageStep", imageParams::step);
    form->addRow("Step", mImageStep);
    mImageAlpha = alphaBox("imageAlpha");
    form->addRow("Alpha", mImageAlpha);
    mImageDepth = depthBox("imageBitDepth");
    form->addRow("Bit depth", mImageDepth);
    mImageEmission = emissionBox("imageEmission");
    form->addRow("Emission", mImageEmission);
    mImagePasses = new PassesEditor("images");
    form->addRow(mImagePasses);
    return mImagesGroup;
}

QWidget *ExportDialog::createVdbGroup()
{
    mVdbGroup = new QGroupBox("OpenVDB sequence");
    auto *form = new QFormLayout(mVdbGroup);
    mVdbUp = comboBox("vdbUpAxis", {{"Y (Houdini, Maya, Unity)", int(UpAxis::Y)},
                                    {"Z (Blender, Unreal)", int(UpAxis::Z)}});
    mVdbUp->setToolTip("Z up rotates the grids and velocities so that the plume stands upright in "
                       "Z-up hosts (docs/using-exports.md)");
    form->addRow("Up axis", mVdbUp);
    mVdbHalf = checkBox("vdbHalfFloat", "Half floats (16-bit grids, smaller files)");
    form->addRow(mVdbHalf);
    return mVdbGroup;
}

QWidget *ExportDialog::createPreview()
{
    auto *panel = new QWidget;
    auto *layout = new QVBoxLayout(panel);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *atlasGroup = new QGroupBox("Atlas layout");
    auto *atlasLayout = new QVBoxLayout(atlasGroup);
    mAtlas = new AtlasPreview;
    mAtlas->setObjectName("atlasPreview");
    atlasLayout->addWidget(mAtlas);
    auto *frameGroup = new QGroupBox("Frame");
    auto *frameLayout = new QVBoxLayout(frameGroup);
    auto *controls = new QHBoxLayout;
    mPreviewFrame = spinBox("previewFrame", 0, 0);
    mChannel = comboBox("previewChannel", {{"Colour", int(PreviewChannel::Color)},
                                           {"Emission", int(PreviewChannel::Emission)},
                                           {"Motion vectors", int(PreviewChannel::Motion)}});
    controls->addWidget(new QLabel("Frame"));
    controls->addWidget(mPreviewFrame);
    controls->addWidget(mChannel);
    controls->addStretch();
    frameLayout->addLayout(controls);
    mFrame = new FramePreview;
    mFrame->setObjectName("framePreview");
    frameLayout->addWidget(mFrame, 1);
    layout->addWidget(atlasGroup, 1);
    layout->addWidget(frameGroup, 1);
    mFrameTimer = new QTimer(this);
    mFrameTimer->setSingleShot(true);
    mFrameTimer->setInterval(kFrameDelayMs);
    connect(mFrameTimer, &QTimer::timeout, this, &ExportDialog::requestFrame);
    return panel;
}

// Widgets from presets; the base name from the file names they hold.
void ExportDialog::load(const ExportPresets &p)
{
    mLoading = true;
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
    mBaseName->setText(base);
    mFlipbookOn->setChecked(p.flipbook.enabled);
    mImagesOn->setChecked(p.images.enabled);
    mVdbOn->setChecked(p.extra.contains(kVdbKey) ? p.extra.value(kVdbKey).toBool()
                                                 : vdbByDefault(p));
    const int first = p.flipbook.first != kBakeRange ? p.flipbook.first : p.images.first;
    const int last = p.flipbook.last != kBakeRange ? p.flipbook.last : p.images.last;
    mFirst->setValue(first == kBakeRange ? scene.simulation.frameStart : first);
    mLast->setValue(last == kBakeRange ? scene.simulation.frameEnd : last);

    const RenderSettings &r = p.render;
    mWidth->setValue(r.width);
    mHeight->setValue(r.height);
    select(mLook, int(r.look2D));
    select(mLook3D, int(r.look3D));
    mSurfaceIso->setValue(r.surfaceIso);
    select(mField, int(r.field));
    select(mColorMap, int(r.colorMap));
    mFieldMin->setValue(r.fieldMin);
    mFieldMax->setValue(r.fieldMax);
    select(mProjection, int(r.projection));
    mYaw->setValue(r.yaw);
    mPitch->setValue(r.pitch);
    mFov->setValue(r.fov);
    mZoom->setValue(r.zoom);
    mEmissionIntensity->setValue(r.emissionIntensity);
    mFlameIntensity->setValue(r.flameIntensity);

    const FlipbookSettings &f = p.flipbook;
    mRows->setValue(f.rows);
    mColumns->setValue(f.columns);
    mFlipStep->setValue(f.step);
    mPadding->setValue(f.padding);
    select(mFlipAlpha, int(f.alpha));
    select(mFlipDepth, f.bitDepth);
    select(mFlipEmission, int(f.emission));
    mMotion->setChecked(f.motionVectors);
    mMotionRange->setValue(f.motionRange);
    mLoop->setValue(f.loopFrames);
    mFlipPasses->setSettings(f.passes);

    const ImageSequenceSettings &i = p.images;
    mImageStep->setValue(i.step);
    select(mImageAlpha, int(i.alpha));
    select(mImageDepth, i.bitDepth);
    select(mImageEmission, int(i.emission));
    mImagePasses->setSettings(i.passes);

    select(mVdbUp, int(p.openvdb.up));
    mVdbHalf->setChecked(p.openvdb.halfFloat);
    mLoading = false;
}

void ExportDialog::connectChanges()
{
    const auto changed = [this] {
        if (!mLoading)
            optionsChanged();
    };
    for (QSpinBox *b : findChildren<QSpinBox *>())
        connect(b, &QSpinBox::valueChanged, this, changed);
    for (QDoubleSpinBox *b : findChildren<QDoubleSpinBox *>())
        connect(b, &QDoubleSpinBox::valueChanged, this, changed);
    for (QComboBox *b : findChildren<QComboBox *>())
        connect(b, &QComboBox::currentIndexChanged, this, changed);
    for (QCheckBox *b : findChildren<QCheckBox *>())
        connect(b, &QCheckBox::toggled, this, changed);
    for (QLineEdit *e : {mDirectory, mBaseName})
        connect(e, &QLineEdit::textChanged, this, changed);
}

ExportPresets ExportDialog::presets() const
{
    ExportPresets p = mScenePresets;
    const Scene &scene = mDocument->scene();
    RenderSettings &r = p.render;
    r.width = mWidth->value();
    r.height = mHeight->value();
    r.look2D = Look2D(selected(mLook));
    r.look3D = Look3D(selected(mLook3D));
    r.surfaceIso = float(mSurfaceIso->value());
    r.field = sim::FieldKind(selected(mField));
    r.colorMap = ColorMap(selected(mColorMap));
    r.fieldMin = float(mFieldMin->value());
    r.fieldMax = float(mFieldMax->value());
    r.projection = Projection(selected(mProjection));
    r.yaw = float(mYaw->value());
    r.pitch = float(mPitch->value());
    r.fov = float(mFov->value());
    r.zoom = float(mZoom->value());
    r.emissionIntensity = float(mEmissionIntensity->value());
    r.flameIntensity = float(mFlameIntensity->value());

    // The scene's whole range stays "the bake's range", so it follows the scene's frames.
    const bool whole = mFirst->value() == scene.simulation.frameStart
                       && mLast->value() == scene.simulation.frameEnd;
    const int first = whole ? kBakeRange : mFirst->value();
    const int last = whole ? kBakeRange : mLast->value();
    const QString base = mBaseName->text().trimmed();
    const bool renamed = base != mLoadedBase;

    FlipbookSettings &f = p.flipbook;
    f.enabled = mFlipbookOn->isChecked();
    f.rows = mRows->value();
    f.columns = mColumns->value();
    f.first = first;
    f.last = last;
    f.step = mFlipStep->value();
    f.padding = mPadding->value();
    f.alpha = AlphaMode(selected(mFlipAlpha));
    f.bitDepth = selected(mFlipDepth);
    f.emission = EmissionOutput(selected(mFlipEmission));
    f.motionVectors = mMotion->isChecked();
    f.motionRange = float(mMotionRange->value());
    f.loopFrames = mLoop->value();
    f.passes = mFlipPasses->settings();
    if (renamed)
        f.fileName = (base + "_flipbook").toStdString();

    ImageSequenceSettings &i = p.images;
    i.enabled = mImagesOn->isChecked();
    i.first = first;
    i.last = last;
    i.step = mImageStep->value();
    i.alpha = AlphaMode(selected(mImageAlpha));
    i.bitDepth = selected(mImageDepth);
    i.emission = EmissionOutput(selected(mImageEmission));
    i.passes = mImagePasses->settings();
    if (renamed)
        i.fileName = base.toStdString();

    p.openvdb.up = UpAxis(selected(mVdbUp));
    p.openvdb.halfFloat = mVdbHalf->isChecked();

    if (!mOcean) { // an ocean's bake writes maps, never a volume: its presets keep the key
        p.extra.remove(kVdbKey);
        if (mVdbOn->isChecked() != vdbByDefault(p))
            p.extra.insert(kVdbKey, mVdbOn->isChecked());
    }
    return p;
}

BakeSettings ExportDialog::bakeSettings() const
{
    const ExportPresets p = presets();
    BakeSettings s;
    s.outputDirectory = mDirectory->text().trimmed().toStdString();
    s.baseName = mBaseName->text().trimmed().toStdString();
    s.firstFrame = mFirst->value();
    s.lastFrame = mLast->value();
    s.plumeVersion = QCoreApplication::applicationVersion().toStdString();
    s.vdb = mVdbOn->isChecked();
    s.flowMap = mFlowMapOn->isChecked() && mFlowMapOn->isEnabled();
    s.render = p.render;
    s.flipbook = p.flipbook;
    s.images = p.images;
    s.openvdb = p.openvdb;
    s.levelSurfaceIso = p.render.surfaceIso;
    // The dialog's range and base name decide; the presets hold them only to remember them.
    s.flipbook.first = s.flipbook.last = s.images.first = s.images.last = kBakeRange;
    s.flipbook.fileName.clear();
    s.images.fileName.clear();
    if (oceanMapsEnabled()) // the plan gives them the bake's folder, base name and frames
        s.oceanMaps = mOceanGroup->settings();
    return s;
}

bool ExportDialog::oceanMapsEnabled() const { return mOcean && mOceanOn->isChecked(); }

void ExportDialog::optionsChanged()
{
    // The previewed frame stays inside the exported range (setRange clamps the value).
    {
        const QSignalBlocker block(mPreviewFrame);
        mPreviewFrame->setRange(mFirst->value(), std::max(mFirst->value(), mLast->value()));
    }
    updateEnabled();
    updateAtlas();
    updateChannels();
    const QString problem = validate();
    mMessage->setText(problem);
    mExportButton->setEnabled(!isExporting() && problem.isEmpty());
    mFrameTimer->start();
}

void ExportDialog::updateEnabled()
{
    mFlipbookGroup->setEnabled(mFlipbookOn->isChecked());
    mImagesGroup->setEnabled(mImagesOn->isChecked());
    mVdbGroup->setEnabled(mVdbOn->isChecked());
    mOceanGroup->setEnabled(oceanMapsEnabled());
    const bool field = Look2D(selected(mLook)) == Look2D::Field && mLook->isEnabled();
    for (QWidget *w : std::initializer_list<QWidget *>{mField, mColorMap, mFieldMin, mFieldMax})
        w->setEnabled(field);
    mMotionRange->setEnabled(mMotion->isChecked());
    const bool surface = mLook->isEnabled() ? Look2D(selected(mLook)) == Look2D::Surface
                                            : Look3D(selected(mLook3D)) == Look3D::Surface;
    mSurfaceIso->setEnabled(surface);
    mFov->setEnabled(mProjection->isEnabled()
                     && Projection(selected(mProjection)) == Projection::Perspective);
}

// The layout core writes (AtlasLayout) and the frames selectFlipbookFrames picks, less those
// the loop folds into the start.
void ExportDialog::updateAtlas()
{
    const BakeSettings s = bakeSettings();
    AtlasLayout layout;
    layout.rows = s.flipbook.rows;
    layout.columns = s.flipbook.columns;
    layout.frameWidth = s.render.width;
    layout.frameHeight = s.render.height;
    layout.padding = s.flipbook.padding;
    std::vector<int> frames;
    int step = 1;
    QString error;
    if (sim::Status st = selectFlipbookFrames(s.flipbook, s.firstFrame, s.lastFrame, frames, step);
        !st) {
        error = QString::fromStdString(st.error);
        frames.clear();
    } else {
        frames.resize(frames.size() - std::size_t(std::max(0, s.flipbook.loopFrames)));
    }
    mAtlas->setAtlas(layout, std::move(frames), error);
}

// The preview's entries: colour, emission, motion vectors, then each pass texture of the
// flipbook (or, when only images are on, of the image sequence) and each packed texture's A.
void ExportDialog::updateChannels()
{
    const BakeSettings s = bakeSettings();
    const std::vector<PassTexture> textures = passTextures(previewedTextures(s));
    const int current = selected(mChannel);
    const QSignalBlocker block(mChannel);
    while (mChannel->count() > 3)
        mChannel->removeItem(3);
    for (std::size_t n = 0; n < textures.size(); ++n) {
        const PassTexture &t = textures[n];
        if (t.kind != TextureKind::Packed)
            continue;
        // Short names ("sixway_rtb RGB"); the texture's purpose is the entry's tooltip.
        const QString name = QString::fromStdString(t.suffix).mid(1);
        const QString purpose = QString::fromStdString(t.purpose);
        mChannel->addItem(t.channels == 4 ? name + " RGB" : name, kTextureEntry + 2 * int(n));
        mChannel->setItemData(mChannel->count() - 1, purpose, Qt::ToolTipRole);
        if (t.channels == 4) {
            mChannel->addItem(name + " A", kTextureEntry + 2 * int(n) + 1);
            mChannel->setItemData(mChannel->count() - 1, purpose, Qt::ToolTipRole);
        }
    }
    select(mChannel, current); // the first entry when that texture is gone
}

void ExportDialog::requestFrame()
{
    const BakeSettings s = bakeSettings();
    FramePreview::Request r;
    r.scene = mDocument->scene();
    r.frame = mPreviewFrame->value();
    r.render = s.render;
    const int entry = selected(mChannel);
    if (entry >= kTextureEntry) {
        r.channel = PreviewChannel::Texture;
        r.textures = previewedTextures(s);
        r.texture = (entry - kTextureEntry) / 2;
        r.alphaChannel = (entry - kTextureEntry) % 2 == 1;
    } else {
        r.channel = PreviewChannel(entry);
    }
    r.emission = s.flipbook.enabled ? s.flipbook.emission : s.images.emission;
    r.motionRange = s.flipbook.motionRange;
    std::vector<int> frames;
    int step = 1;
    if (selectFlipbookFrames(s.flipbook, s.firstFrame, s.lastFrame, frames, step))
        r.motionStep = step;
    mFrame->request(std::move(r));
}

// Why the options cannot bake, or empty: the bake plan's refusal, word for word what plume-cli
// prints for the same settings.
QString ExportDialog::validate() const
{
    const PlannedBake planned = planBake(mDocument->scene(), bakeSettings());
    return QString::fromStdString(planned.message);
}

void ExportDialog::browse()
{
    const QString dir = QFileDialog::getExistingDirectory(this, "Export to", mDirectory->text());
    if (!dir.isEmpty())
        mDirectory->setText(dir);
}

bool ExportDialog::startExport()
{
    if (isExporting())
        return false;
    const PlannedBake planned = planBake(mDocument->scene(), bakeSettings());
    if (!planned.ok()) {
        mMessage->setText(QString::fromStdString(planned.message));
        return false;
    }
    const ExportPresets p = presets();
    if (!(p == mDocument->scene().exports))
        mDocument->undoStack()->push(new ChangeValue<values::SceneExports>(mDocument, -1, p));
    kExportDirectory.set(mDirectory->text().trimmed());

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
    mExportButton->setEnabled(!exporting);
    mCancelButton->setEnabled(exporting);
    mCloseButton->setEnabled(!exporting);
}

} // namespace plume
