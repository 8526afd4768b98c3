// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <ui/export/exportgroup.h>

class QComboBox;

namespace plume {

/// The export dialog's "OpenVDB sequence" section: whether the bake writes <base>.####.vdb
/// (BakeSettings::vdb) and, from the scene's `export.openvdb` preset, the up axis and half
/// floats it writes them with.
class VdbGroup : public ExportGroup
{
    Q_OBJECT

public:
    explicit VdbGroup(QWidget *parent = nullptr);

    /// vdb, openvdb's up axis and half floats.
    void apply(BakeSettings &settings) const override;

protected:
    void loadWidgets(const BakeSettings &settings) override;

private:
    QComboBox *mUp;
    QCheckBox *mHalf;
};

} // namespace plume
