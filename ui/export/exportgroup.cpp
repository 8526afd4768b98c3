// SPDX-License-Identifier: Apache-2.0
#include <ui/export/exportgroup.h>

#include <ui/export/exportwidgets.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSpinBox>

namespace plume {

ExportGroup::ExportGroup(const QString &title, const char *name, QWidget *parent)
    : QGroupBox(title, parent)
{
    setObjectName(name);
}

void ExportGroup::load(const BakeSettings &settings)
{
    mLoading = true;
    loadWidgets(settings);
    mLoading = false;
    updateEnabled();
}

QCheckBox *ExportGroup::makeToggle(const char *name, const QString &text)
{
    mOn = exportwidgets::checkBox(name, text);
    return mOn;
}

void ExportGroup::watchEdits()
{
    constexpr Qt::FindChildOptions own = Qt::FindDirectChildrenOnly;
    for (QSpinBox *box : findChildren<QSpinBox *>(QString(), own))
        connect(box, &QSpinBox::valueChanged, this, &ExportGroup::edited);
    for (QDoubleSpinBox *box : findChildren<QDoubleSpinBox *>(QString(), own))
        connect(box, &QDoubleSpinBox::valueChanged, this, &ExportGroup::edited);
    for (QComboBox *box : findChildren<QComboBox *>(QString(), own))
        connect(box, &QComboBox::currentIndexChanged, this, &ExportGroup::edited);
    for (QCheckBox *box : findChildren<QCheckBox *>(QString(), own))
        connect(box, &QCheckBox::toggled, this, &ExportGroup::edited);
    if (mOn)
        connect(mOn, &QCheckBox::toggled, this, &ExportGroup::edited);
    updateEnabled();
}

void ExportGroup::edited()
{
    updateEnabled();
    if (!mLoading)
        Q_EMIT changed();
}

void ExportGroup::updateEnabled()
{
    if (mOn)
        setEnabled(mOn->isChecked());
}

void ExportGroup::setUnavailable(const QString &reason)
{
    mOn->setChecked(false);
    mOn->setEnabled(false);
    mOn->setToolTip(reason);
}

} // namespace plume
