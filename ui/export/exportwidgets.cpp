// SPDX-License-Identifier: Apache-2.0
#include <ui/export/exportwidgets.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>

#include <algorithm>

namespace plume::exportwidgets {

/// Two widgets in one form row, with an optional word between them ("to", "x").
QHBoxLayout *sideBySide(QWidget *first, QWidget *second, const QString &between)
{
    auto *row = new QHBoxLayout;
    row->addWidget(first);
    if (!between.isEmpty())
        row->addWidget(new QLabel(between));
    row->addWidget(second);
    return row;
}

QComboBox *comboBox(const char *name, std::initializer_list<std::pair<const char *, int>> items)
{
    auto *box = new QComboBox;
    box->setObjectName(name);
    for (const auto &[text, value] : items)
        box->addItem(text, value);
    return box;
}

void select(QComboBox *box, int value) { box->setCurrentIndex(std::max(0, box->findData(value))); }
int selected(const QComboBox *box) { return box->currentData().toInt(); }

QSpinBox *spinBox(const char *name, int lo, int hi, const QString &special)
{
    auto *box = new QSpinBox;
    box->setObjectName(name);
    box->setRange(lo, hi);
    box->setSpecialValueText(special);
    return box;
}

/// A spin box with a setting's range (the one the scene reader and plume-cli check).
QSpinBox *spinBox(const char *name, const sim::Param &range, const QString &special)
{
    return spinBox(name, int(range.lowest()), int(range.highest()), special);
}

QDoubleSpinBox *doubleBox(const char *name, const sim::Param &range, double step,
                          const QString &suffix)
{
    auto *box = new QDoubleSpinBox;
    box->setObjectName(name);
    box->setDecimals(range.decimals);
    box->setRange(range.lowest(), range.highest());
    box->setSingleStep(step);
    box->setSuffix(suffix);
    return box;
}

QCheckBox *checkBox(const char *name, const QString &text)
{
    auto *box = new QCheckBox(text);
    box->setObjectName(name);
    return box;
}

QHBoxLayout *VectorBoxes::row() const
{
    auto *row = new QHBoxLayout;
    for (QDoubleSpinBox *box : boxes)
        row->addWidget(box);
    return row;
}

void VectorBoxes::setValue(sim::Vec3 v) const
{
    for (int c = 0; c < 3; ++c)
        boxes[std::size_t(c)]->setValue(v[c]);
}

sim::Vec3 VectorBoxes::value() const
{
    return {float(boxes[0]->value()), float(boxes[1]->value()), float(boxes[2]->value())};
}

void VectorBoxes::setEnabled(bool on) const
{
    for (QDoubleSpinBox *box : boxes)
        box->setEnabled(on);
}

void VectorBoxes::setToolTip(const QString &tip) const
{
    for (QDoubleSpinBox *box : boxes)
        box->setToolTip(tip);
}

VectorBoxes vectorBoxes(const char *name, const sim::Param &range, double step)
{
    VectorBoxes v;
    for (QDoubleSpinBox *&box : v.boxes)
        box = doubleBox(name, range, step);
    return v;
}

void addSection(QFormLayout *form, const char *name, const QString &title)
{
    auto *label = new QLabel(title);
    label->setObjectName(name);
    QFont bold = label->font();
    bold.setBold(true);
    label->setFont(bold);
    form->addRow(label);
}

QComboBox *alphaBox(const char *name)
{
    return comboBox(name, {{"Premultiplied", int(AlphaMode::Premultiplied)},
                           {"Straight", int(AlphaMode::Straight)}});
}

QComboBox *depthBox(const char *name) { return comboBox(name, {{"8 bit", 8}, {"16 bit", 16}}); }

QComboBox *emissionBox(const char *name)
{
    return comboBox(name, {{"None", int(EmissionOutput::None)},
                           {"Added to colour", int(EmissionOutput::Combined)},
                           {"Separate atlas/images", int(EmissionOutput::Separate)}});
}

} // namespace plume::exportwidgets
