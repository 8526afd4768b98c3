// SPDX-License-Identifier: Apache-2.0
#include <ui/export/passeseditor.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>

#include <algorithm>

namespace plume {

namespace {

const char *const kDepthTip = "Distance to the first point whose opacity reaches the threshold, "
                              "normalised; the sidecar gives the range (3D only)";

/// The format combo's entries: PNG, EXR half, EXR float.
enum FormatChoice { Png, ExrHalf, ExrFloat };

QComboBox *combo(const QString &name, std::initializer_list<std::pair<QString, int>> items)
{
    auto *box = new QComboBox;
    box->setObjectName(name);
    for (const auto &[text, value] : items)
        box->addItem(text, value);
    return box;
}

void choose(QComboBox *box, int value) { box->setCurrentIndex(std::max(0, box->findData(value))); }
int chosen(const QComboBox *box) { return box->currentData().toInt(); }

} // namespace

PassesEditor::PassesEditor(const QString &prefix, QWidget *parent)
    : QWidget(parent)
{
    auto *form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    mFormat = combo(prefix + "Format", {{"PNG", Png},
                                        {"OpenEXR, half float (16 bit)", ExrHalf},
                                        {"OpenEXR, float (32 bit)", ExrFloat}});
    mFormat->setToolTip("PNG is 8 or 16 bit, sRGB colour; OpenEXR is linear and keeps values "
                        "above 1 (HDR emission) and precise motion vectors");
    form->addRow("File format", mFormat);
    mLighting = combo(prefix + "Lighting",
                      {{"Standard (the render's light)", int(Lighting::Standard)},
                       {"Six-way lightmaps too", int(Lighting::SixWay)}});
    mLighting->setToolTip("Six-way: two RGBA lightmaps lit from right/top/back and "
                          "left/bottom/front for Unity's Six Way smoke shader and the like");
    form->addRow("Lighting", mLighting);
    mNormals = new QCheckBox("Normal map");
    mNormals->setObjectName(prefix + "Normals");
    mNormals->setToolTip("Density-weighted gradient in the camera's tangent space (X right, Y "
                         "up), encoded 0.5 + 0.5 n");
    mConvention = combo(prefix + "NormalConvention",
                        {{"OpenGL (green up: Unity, Godot, Blender)",
                          int(NormalConvention::OpenGL)},
                         {"DirectX (green down: Unreal)", int(NormalConvention::DirectX)}});
    auto *normalsRow = new QHBoxLayout;
    normalsRow->addWidget(mNormals);
    normalsRow->addWidget(mConvention, 1);
    form->addRow("Normals", normalsRow);
    mDepth = new QCheckBox("Depth map");
    mDepth->setObjectName(prefix + "Depth");
    mDepth->setToolTip(kDepthTip);
    mThreshold = new QDoubleSpinBox;
    mThreshold->setObjectName(prefix + "DepthThreshold");
    mThreshold->setDecimals(passParams::depthThreshold.decimals);
    mThreshold->setRange(0.001, 0.999);
    mThreshold->setSingleStep(0.05);
    mThreshold->setPrefix("at opacity ");
    auto *depthRow = new QHBoxLayout;
    depthRow->addWidget(mDepth);
    depthRow->addWidget(mThreshold, 1);
    form->addRow("Depth", depthRow);
    mAlpha = new QCheckBox("Alpha alone (one channel)");
    mAlpha->setObjectName(prefix + "AlphaPass");
    form->addRow("Alpha", mAlpha);
    mPack = combo(prefix + "Pack", {{"Separate textures", int(PackPreset::Separate)},
                                    {"Unity six-way", int(PackPreset::UnitySixWay)},
                                    {"Unreal SubUV", int(PackPreset::UnrealSubUV)},
                                    {"Godot", int(PackPreset::Godot)},
                                    {"Custom channels", int(PackPreset::Custom)}});
    mPack->setToolTip("Which textures the passes go into: docs/flipbook.md, Packing presets");
    form->addRow("Packing", mPack);
    auto *channels = new QHBoxLayout;
    const char *labels[] = {"R", "G", "B", "A"};
    for (int c = 0; c < 4; ++c) {
        mChannels[c] = new QComboBox;
        mChannels[c]->setObjectName(prefix + "Channel" + labels[c]);
        for (std::size_t n = 0; n < kPassChannelNames.size(); ++n)
            mChannels[c]->addItem(kPassChannelNames.names[n], int(n));
        channels->addWidget(new QLabel(labels[c]));
        channels->addWidget(mChannels[c], 1);
    }
    form->addRow("Custom", channels);

    for (QComboBox *box : {mFormat, mLighting, mConvention, mPack, mChannels[0], mChannels[1],
                           mChannels[2], mChannels[3]})
        connect(box, &QComboBox::currentIndexChanged, this, [this] {
            updateEnabled();
            if (!mLoading)
                Q_EMIT changed();
        });
    for (QCheckBox *box : {mNormals, mDepth, mAlpha})
        connect(box, &QCheckBox::toggled, this, [this] {
            updateEnabled();
            if (!mLoading)
                Q_EMIT changed();
        });
    connect(mThreshold, &QDoubleSpinBox::valueChanged, this, [this] {
        if (!mLoading)
            Q_EMIT changed();
    });
    setSettings({});
}

void PassesEditor::setSettings(const PassSettings &s)
{
    mLoading = true;
    choose(mFormat, s.format == ImageFormat::Png           ? Png
                    : s.exrPrecision == ExrPrecision::Half ? ExrHalf
                                                           : ExrFloat);
    choose(mLighting, int(s.lighting));
    mNormals->setChecked(s.normals);
    choose(mConvention, int(s.normalConvention));
    mDepth->setChecked(s.depth && mThreeD);
    mThreshold->setValue(s.depthThreshold);
    mAlpha->setChecked(s.alpha);
    choose(mPack, int(s.pack));
    for (int c = 0; c < 4; ++c)
        choose(mChannels[c], int(s.packChannels[c]));
    mLoading = false;
    updateEnabled();
}

PassSettings PassesEditor::settings() const
{
    PassSettings s;
    const int format = chosen(mFormat);
    s.format = format == Png ? ImageFormat::Png : ImageFormat::Exr;
    s.exrPrecision = format == ExrFloat ? ExrPrecision::Float : ExrPrecision::Half;
    s.lighting = Lighting(chosen(mLighting));
    s.normals = mNormals->isChecked();
    s.normalConvention = NormalConvention(chosen(mConvention));
    s.depth = mDepth->isChecked() && mThreeD;
    s.depthThreshold = float(mThreshold->value());
    s.alpha = mAlpha->isChecked();
    s.pack = PackPreset(chosen(mPack));
    for (int c = 0; c < 4; ++c)
        s.packChannels[c] = PassChannel(chosen(mChannels[c]));
    return s;
}

void PassesEditor::setThreeD(bool threeD)
{
    mThreeD = threeD;
    if (!threeD)
        mDepth->setChecked(false);
    updateEnabled();
}

void PassesEditor::updateEnabled()
{
    const PackPreset pack = PackPreset(chosen(mPack));
    // The presets fix the convention of their own normal maps (Unreal: DirectX, Godot: OpenGL).
    mConvention->setEnabled(mNormals->isChecked() || pack == PackPreset::Custom);
    mDepth->setEnabled(mThreeD);
    mDepth->setToolTip(mThreeD ? kDepthTip
                               : "A 2D domain is a flat slab at one distance: no depth map");
    mThreshold->setEnabled(
        mThreeD
        && (mDepth->isChecked() || pack == PackPreset::UnrealSubUV || pack == PackPreset::Custom));
    for (QComboBox *box : mChannels)
        box->setEnabled(pack == PackPreset::Custom);
}

} // namespace plume
