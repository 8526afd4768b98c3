// SPDX-License-Identifier: Apache-2.0
#include <ui/export/exportpreview.h>

#include <ui/export/atlaspreview.h>
#include <ui/export/exportwidgets.h>
#include <ui/export/framepreview.h>

#include <core/export/flipbook.h>
#include <core/export/passes.h>
#include <ui/document/document.h>

#include <QComboBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace plume {

using namespace exportwidgets;

namespace {

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

ExportPreview::ExportPreview(const Document *document, QWidget *parent)
    : QWidget(parent)
    , mDocument(document)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *atlasGroup = new QGroupBox("Atlas layout");
    auto *atlasLayout = new QVBoxLayout(atlasGroup);
    mAtlas = new AtlasPreview;
    mAtlas->setObjectName("atlasPreview");
    atlasLayout->addWidget(mAtlas);
    auto *frameGroup = new QGroupBox("Frame");
    auto *frameLayout = new QVBoxLayout(frameGroup);
    auto *controls = new QHBoxLayout;
    mFrameBox = spinBox("previewFrame", 0, 0);
    mFrameBox->setToolTip("The frame shown, simulated and rendered as the export will");
    mChannel = comboBox("previewChannel", {{"Colour", int(PreviewChannel::Color)},
                                           {"Emission", int(PreviewChannel::Emission)},
                                           {"Motion vectors", int(PreviewChannel::Motion)}});
    controls->addWidget(new QLabel("Frame"));
    controls->addWidget(mFrameBox);
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
    connect(mFrameTimer, &QTimer::timeout, this, &ExportPreview::requestFrame);
    connect(mFrameBox, &QSpinBox::valueChanged, mFrameTimer, qOverload<>(&QTimer::start));
    connect(mChannel, &QComboBox::currentIndexChanged, mFrameTimer, qOverload<>(&QTimer::start));
}

void ExportPreview::setFrameRange(int first, int last)
{
    const QSignalBlocker block(mFrameBox); // setRange clamps the value
    mFrameBox->setRange(first, last);
}

void ExportPreview::setFrame(int frame) { mFrameBox->setValue(frame); }

void ExportPreview::setSettings(const BakeSettings &settings)
{
    mSettings = settings;
    updateAtlas();
    updateChannels();
    mFrameTimer->start();
}

// The layout core writes (AtlasLayout) and the frames selectFlipbookFrames picks, less those
// the loop folds into the start.
void ExportPreview::updateAtlas()
{
    const BakeSettings &s = mSettings;
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

// The entries: colour, emission, motion vectors, then each pass texture of the flipbook (or,
// when only images are on, of the image sequence) and each packed texture's A.
void ExportPreview::updateChannels()
{
    const std::vector<PassTexture> textures = passTextures(previewedTextures(mSettings));
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

void ExportPreview::requestFrame()
{
    const BakeSettings &s = mSettings;
    FramePreview::Request r;
    r.scene = mDocument->scene();
    r.frame = mFrameBox->value();
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

} // namespace plume
