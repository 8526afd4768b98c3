// SPDX-License-Identifier: Apache-2.0
#include <ui/export/flipbookgroup.h>

#include <ui/export/exportwidgets.h>
#include <ui/export/passeseditor.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QSpinBox>

namespace plume {

using namespace exportwidgets;

FlipbookGroup::FlipbookGroup(QWidget *parent)
    : ExportGroup("Flipbook atlas", "flipbookGroup", parent)
{
    makeToggle("flipbookEnabled", "Flipbook atlas (<base>_flipbook.png + .json)");
    auto *form = new QFormLayout(this);
    mRows = spinBox("rows", flipbookParams::rows);
    mColumns = spinBox("columns", flipbookParams::columns);
    form->addRow("Rows x columns", sideBySide(mRows, mColumns, "x"));
    mStep = spinBox("flipbookStep", flipbookParams::step, "Auto (fit the tiles)");
    form->addRow("Step", mStep);
    mPadding = spinBox("padding", flipbookParams::padding);
    mPadding->setSuffix(" px");
    form->addRow("Padding", mPadding);
    mAlpha = alphaBox("flipbookAlpha");
    form->addRow("Alpha", mAlpha);
    mDepth = depthBox("flipbookBitDepth");
    form->addRow("Bit depth", mDepth);
    mEmission = emissionBox("flipbookEmission");
    form->addRow("Emission", mEmission);
    mMotion = checkBox("motionVectors", "Motion-vector atlas");
    mMotionRange = doubleBox("motionRange", flipbookParams::motionRange, 0.25, " px/frame");
    mMotionRange->setSpecialValueText("Auto (largest motion)");
    form->addRow("Motion", sideBySide(mMotion, mMotionRange));
    mLoop = spinBox("loopFrames", flipbookParams::loopFrames, "Off");
    mLoop->setSuffix(" frames");
    form->addRow("Loop blend", mLoop);
    mPasses = new PassesEditor("flipbook");
    form->addRow(mPasses);
    connect(mPasses, &PassesEditor::changed, this, &FlipbookGroup::edited);
    watchEdits();
}

void FlipbookGroup::setThreeD(bool threeD) { mPasses->setThreeD(threeD); }

void FlipbookGroup::loadWidgets(const BakeSettings &s)
{
    const FlipbookSettings &f = s.flipbook;
    toggle()->setChecked(f.enabled);
    mRows->setValue(f.rows);
    mColumns->setValue(f.columns);
    mStep->setValue(f.step);
    mPadding->setValue(f.padding);
    select(mAlpha, int(f.alpha));
    select(mDepth, f.bitDepth);
    select(mEmission, int(f.emission));
    mMotion->setChecked(f.motionVectors);
    mMotionRange->setValue(f.motionRange);
    mLoop->setValue(f.loopFrames);
    mPasses->setSettings(f.passes);
}

void FlipbookGroup::apply(BakeSettings &s) const
{
    FlipbookSettings &f = s.flipbook;
    f.enabled = toggle()->isChecked();
    f.rows = mRows->value();
    f.columns = mColumns->value();
    f.step = mStep->value();
    f.padding = mPadding->value();
    f.alpha = AlphaMode(selected(mAlpha));
    f.bitDepth = selected(mDepth);
    f.emission = EmissionOutput(selected(mEmission));
    f.motionVectors = mMotion->isChecked();
    f.motionRange = float(mMotionRange->value());
    f.loopFrames = mLoop->value();
    f.passes = mPasses->settings();
}

void FlipbookGroup::updateEnabled()
{
    ExportGroup::updateEnabled();
    mMotionRange->setEnabled(mMotion->isChecked());
}

} // namespace plume
