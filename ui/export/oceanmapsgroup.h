// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/bake/bakesettings.h>

#include <QGroupBox>

class QCheckBox;
class QComboBox;
class QSpinBox;

namespace plume {

/// The export dialog's "Ocean maps" section (ocean scenes, docs/ocean.md): which of the height,
/// normal and foam maps, one image per frame or one atlas per map, and PNG 16-bit or OpenEXR:
/// what plume-cli bake's --ocean-maps, --ocean-flipbook and --format/--exr choose.
class OceanMapsGroup : public QGroupBox
{
    Q_OBJECT

public:
    explicit OceanMapsGroup(QWidget *parent = nullptr);

    /// The maps, layout and format (the caller fills folder, base name and frames).
    OceanBakeSettings settings() const;

signals:
    void changed();

private:
    QCheckBox *mMaps[3];
    QComboBox *mLayout;
    QSpinBox *mColumns;
    QComboBox *mFormat;
};

} // namespace plume
