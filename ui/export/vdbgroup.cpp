// SPDX-License-Identifier: Apache-2.0
#include <ui/export/vdbgroup.h>

#include <ui/export/exportwidgets.h>

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>

namespace plume {

using namespace exportwidgets;

VdbGroup::VdbGroup(QWidget *parent)
    : ExportGroup("OpenVDB sequence", "vdbGroup", parent)
{
    makeToggle("vdbEnabled", "OpenVDB sequence (<base>.####.vdb)");
    auto *form = new QFormLayout(this);
    mUp = comboBox("vdbUpAxis", {{"Y (Houdini, Maya, Unity)", int(UpAxis::Y)},
                                 {"Z (Blender, Unreal)", int(UpAxis::Z)}});
    mUp->setToolTip("Z up rotates the grids and velocities so that the plume stands upright in "
                    "Z-up hosts (docs/using-exports.md)");
    form->addRow("Up axis", mUp);
    mHalf = checkBox("vdbHalfFloat", "Half floats (16-bit grids, smaller files)");
    form->addRow(mHalf);
    watchEdits();
}

void VdbGroup::loadWidgets(const BakeSettings &s)
{
    toggle()->setChecked(s.vdb);
    select(mUp, int(s.openvdb.up));
    mHalf->setChecked(s.openvdb.halfFloat);
}

void VdbGroup::apply(BakeSettings &s) const
{
    s.vdb = toggle()->isChecked();
    s.openvdb.up = UpAxis(selected(mUp));
    s.openvdb.halfFloat = mHalf->isChecked();
}

} // namespace plume
