// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <ui/export/exportgroup.h>

class QCheckBox;
class QComboBox;
class QSpinBox;

namespace plume {

/// The export dialog's "Ocean maps" section (ocean scenes, docs/ocean.md): which of the height,
/// normal and foam maps, one image per frame or one atlas per map, and PNG 16-bit or OpenEXR:
/// what plume-cli bake's --ocean-maps, --ocean-flipbook and --format/--exr choose. Not stored
/// in the scene's presets, like those options.
class OceanMapsGroup : public ExportGroup
{
    Q_OBJECT

public:
    explicit OceanMapsGroup(QWidget *parent = nullptr);

    /// An ocean scene bakes its maps unless told not to; other scenes have none (the box is
    /// off and disabled, the section hidden). Call once the group is in a window.
    void setOceanScene(bool ocean);
    /// Whether the bake writes the maps: an ocean scene with the box checked.
    bool isOn() const;

    /// The maps, layout and format (the caller fills folder, base name and frames).
    OceanBakeSettings settings() const;
    /// oceanMaps: settings() when on (the plan gives them the bake's folder, base name and
    /// frames).
    void apply(BakeSettings &settings) const override;

protected:
    void loadWidgets(const BakeSettings &) override {} // nothing of the maps is stored
    void updateEnabled() override;

private:
    bool mOcean = false;
    QCheckBox *mMaps[3];
    QComboBox *mLayout;
    QSpinBox *mColumns;
    QComboBox *mFormat;
};

} // namespace plume
