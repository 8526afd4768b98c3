// SPDX-License-Identifier: Apache-2.0
#include <ui/export/imagesgroup.h>

#include <ui/export/exportwidgets.h>
#include <ui/export/passeseditor.h>

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QSpinBox>

namespace plume {

using namespace exportwidgets;

ImagesGroup::ImagesGroup(QWidget *parent)
    : ExportGroup("Image sequence", "imagesGroup", parent)
{
    makeToggle("imagesEnabled", "Image sequence (<base>.####.png)");
    auto *form = new QFormLayout(this);
    mStep = spinBox("imageStep", imageParams::step);
    form->addRow("Step", mStep);
    mAlpha = alphaBox("imageAlpha");
    form->addRow("Alpha", mAlpha);
    mDepth = depthBox("imageBitDepth");
    form->addRow("Bit depth", mDepth);
    mEmission = emissionBox("imageEmission");
    form->addRow("Emission", mEmission);
    mPasses = new PassesEditor("images");
    form->addRow(mPasses);
    connect(mPasses, &PassesEditor::changed, this, &ImagesGroup::edited);
    watchEdits();
}

void ImagesGroup::setThreeD(bool threeD) { mPasses->setThreeD(threeD); }

void ImagesGroup::loadWidgets(const BakeSettings &s)
{
    const ImageSequenceSettings &i = s.images;
    toggle()->setChecked(i.enabled);
    mStep->setValue(i.step);
    select(mAlpha, int(i.alpha));
    select(mDepth, i.bitDepth);
    select(mEmission, int(i.emission));
    mPasses->setSettings(i.passes);
}

void ImagesGroup::apply(BakeSettings &s) const
{
    ImageSequenceSettings &i = s.images;
    i.enabled = toggle()->isChecked();
    i.step = mStep->value();
    i.alpha = AlphaMode(selected(mAlpha));
    i.bitDepth = selected(mDepth);
    i.emission = EmissionOutput(selected(mEmission));
    i.passes = mPasses->settings();
}

} // namespace plume
