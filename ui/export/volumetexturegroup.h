// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <ui/export/exportgroup.h>

class QComboBox;
class QDoubleSpinBox;
class QSpinBox;

namespace plume {

/// The export dialog's "Volume texture" section (plume-cli's --volume-texture): whether the
/// bake writes a field as slice atlases for game engines (BakeSettings::volumeTexture), which
/// field, the volume's longest side, 8 or 16 bits, and the value of a full pixel (0: each
/// frame's largest). Like the flow map it is not stored in the presets.
class VolumeTextureGroup : public ExportGroup
{
    Q_OBJECT

public:
    explicit VolumeTextureGroup(QWidget *parent = nullptr);

    void apply(BakeSettings &settings) const override;

protected:
    void loadWidgets(const BakeSettings &settings) override;

private:
    QComboBox *mChannel;
    QSpinBox *mSize;
    QComboBox *mBits;
    QDoubleSpinBox *mRange;
};

} // namespace plume
