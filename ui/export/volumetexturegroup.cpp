// SPDX-License-Identifier: Apache-2.0
#include <ui/export/volumetexturegroup.h>

#include <ui/export/exportwidgets.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QSpinBox>

namespace plume {

using namespace exportwidgets;

VolumeTextureGroup::VolumeTextureGroup(QWidget *parent)
    : ExportGroup("Volume texture", "volumeTextureGroup", parent)
{
    makeToggle("volumeTextureEnabled", "Volume texture (<base>_volume.####.png + .json)");
    toggle()->setToolTip("A field's z slices in a grid of tiles, as Unreal's pseudo-volume and "
                         "Niagara volume textures and Unity's Texture3D (flipbook import) read "
                         "them; docs/volume-textures.md");
    auto *form = new QFormLayout(this);
    mChannel = comboBox("volumeTextureChannel", {{"Density", int(VolumeChannel::Density)},
                                                 {"Temperature", int(VolumeChannel::Temperature)},
                                                 {"Flame", int(VolumeChannel::Flame)}});
    form->addRow("Field", mChannel);
    mSize = spinBox("volumeTextureSize", volumeTextureParams::size);
    mSize->setToolTip("Voxels along the volume's longest side; the others in proportion");
    form->addRow("Longest side", mSize);
    mBits = comboBox("volumeTextureBits", {{"8 bits", 8}, {"16 bits", 16}});
    form->addRow("Depth", mBits);
    mRange = doubleBox("volumeTextureRange", volumeTextureParams::range, 0.1);
    mRange->setSpecialValueText("Each frame's largest");
    mRange->setToolTip("The value of a full pixel, the same for every frame (keeps a sequence's "
                       "frames comparable); the sidecar records it");
    form->addRow("Full pixel", mRange);
    watchEdits();
}

void VolumeTextureGroup::loadWidgets(const BakeSettings &s)
{
    const VolumeTextureSettings &v = s.volumeTexture;
    toggle()->setChecked(v.enabled);
    select(mChannel, int(v.channel));
    mSize->setValue(v.size);
    select(mBits, v.bitDepth);
    mRange->setValue(double(v.range));
}

void VolumeTextureGroup::apply(BakeSettings &s) const
{
    VolumeTextureSettings &v = s.volumeTexture;
    v.enabled = toggle()->isChecked() && toggle()->isEnabled();
    v.channel = VolumeChannel(selected(mChannel));
    v.size = mSize->value();
    v.bitDepth = selected(mBits);
    v.range = float(mRange->value());
}

} // namespace plume
