// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <ui/export/exportgroup.h>

class QComboBox;
class QDoubleSpinBox;
class QSpinBox;

namespace plume {

/// The export dialog's "Vector field" section (plume-cli's --vector-field): whether the bake
/// writes the velocity as game-engine vector fields (BakeSettings::vectorField), for Unity
/// (.vf) or Unreal (.fga), the grid's longest side, one a frame or their mean, and the scale
/// to the engine's units. Like the flow map it is not stored in the presets.
class VectorFieldGroup : public ExportGroup
{
    Q_OBJECT

public:
    explicit VectorFieldGroup(QWidget *parent = nullptr);

    void apply(BakeSettings &settings) const override;

protected:
    void loadWidgets(const BakeSettings &settings) override;

private:
    QComboBox *mFormat;
    QSpinBox *mSize;
    QCheckBox *mAverage;
    QDoubleSpinBox *mScale;
};

} // namespace plume
