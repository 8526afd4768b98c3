// SPDX-License-Identifier: Apache-2.0
#include <ui/export/outputgroup.h>

#include <ui/export/exportwidgets.h>

#include <QCheckBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QToolButton>

namespace plume {

using namespace exportwidgets;

OutputGroup::OutputGroup(QWidget *parent)
    : QGroupBox("Output", parent)
{
    mForm = new QFormLayout(this);
    mDirectory = new QLineEdit;
    mDirectory->setObjectName("outputDirectory");
    auto *browseButton = new QToolButton;
    browseButton->setText("...");
    connect(browseButton, &QToolButton::clicked, this, &OutputGroup::browse);
    mForm->addRow("Folder", sideBySide(mDirectory, browseButton));
    mBaseName = new QLineEdit;
    mBaseName->setObjectName("baseName");
    mForm->addRow("Base name", mBaseName);
    mFlowMapOn = checkBox("flowMapEnabled", "Flow map (<base>_flowmap.png + .json; 2D)");
    mFlowMapOn->setToolTip("The time-averaged velocity over the frames as RG = 0.5 + 0.5 v / vmax, "
                           "B = speed / vmax, for shaders that distort any texture "
                           "(docs/liquid-textures.md)");
    for (QLineEdit *e : {mDirectory, mBaseName})
        connect(e, &QLineEdit::textChanged, this, &OutputGroup::changed);
    connect(mFlowMapOn, &QCheckBox::toggled, this, &OutputGroup::changed);
}

void OutputGroup::addOutput(QCheckBox *box) { mForm->addRow(box); }

void OutputGroup::setThreeD(bool threeD) { mFlowMapOn->setEnabled(!threeD); }

QString OutputGroup::folder() const { return mDirectory->text().trimmed(); }
void OutputGroup::setFolder(const QString &folder) { mDirectory->setText(folder); }
QString OutputGroup::baseName() const { return mBaseName->text().trimmed(); }
void OutputGroup::setBaseName(const QString &baseName) { mBaseName->setText(baseName); }

void OutputGroup::apply(BakeSettings &s) const
{
    s.outputDirectory = folder().toStdString();
    s.baseName = baseName().toStdString();
    s.flowMap = mFlowMapOn->isChecked() && mFlowMapOn->isEnabled();
}

void OutputGroup::browse()
{
    const QString dir = QFileDialog::getExistingDirectory(this, "Export to", mDirectory->text());
    if (!dir.isEmpty())
        mDirectory->setText(dir);
}

} // namespace plume
