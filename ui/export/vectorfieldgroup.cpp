// SPDX-License-Identifier: Apache-2.0
#include <ui/export/vectorfieldgroup.h>

#include <ui/export/exportwidgets.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QSpinBox>

namespace plume {

using namespace exportwidgets;

VectorFieldGroup::VectorFieldGroup(QWidget *parent)
    : ExportGroup("Vector field", "vectorFieldGroup", parent)
{
    makeToggle("vectorFieldEnabled", "Vector field for game engines (<base>.####.vf or .fga)");
    toggle()->setToolTip("The velocity on a grid of at most 128 a side, which pushes particles "
                         "in Unity's VFX Graph (.vf) or Unreal's Niagara (.fga); "
                         "docs/vector-fields.md");
    auto *form = new QFormLayout(this);
    mFormat = comboBox("vectorFieldFormat",
                       {{"Unity VFX Graph (.vf, y up)", int(VectorFieldFormat::Vf)},
                        {"Unreal Niagara, Cascade (.fga, z up)", int(VectorFieldFormat::Fga)}});
    form->addRow("Engine", mFormat);
    mSize = spinBox("vectorFieldSize", vectorFieldParams::size);
    mSize->setToolTip("Voxels along the grid's longest side; the others in proportion");
    form->addRow("Longest side", mSize);
    mAverage = checkBox("vectorFieldAverage",
                        "One file of the mean over the frames (<base>_vectorfield)");
    form->addRow(mAverage);
    mScale = doubleBox("vectorFieldScale", vectorFieldParams::scale, 1.0);
    mScale->setToolTip("World units to the engine's: Unreal works in centimetres (100 for a "
                       "scene in metres)");
    form->addRow("Scale", mScale);
    watchEdits();
}

void VectorFieldGroup::loadWidgets(const BakeSettings &s)
{
    const VectorFieldSettings &v = s.vectorField;
    toggle()->setChecked(v.enabled);
    select(mFormat, int(v.format));
    mSize->setValue(v.size);
    mAverage->setChecked(v.average);
    mScale->setValue(double(v.scale));
}

void VectorFieldGroup::apply(BakeSettings &s) const
{
    VectorFieldSettings &v = s.vectorField;
    v.enabled = toggle()->isChecked() && toggle()->isEnabled();
    v.format = VectorFieldFormat(selected(mFormat));
    v.size = mSize->value();
    v.average = mAverage->isChecked();
    v.scale = float(mScale->value());
}

} // namespace plume
