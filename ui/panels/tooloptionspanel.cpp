// SPDX-License-Identifier: Apache-2.0
#include <ui/panels/tooloptionspanel.h>

#include <ui/tools/tooloptions.h>

#include <QColorDialog>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QPushButton>

namespace plume {

ToolOptionsPanel::ToolOptionsPanel(ToolOptions *options, QWidget *parent)
    : QWidget(parent)
{
    auto *form = new QFormLayout(this);
    auto *radius = new QDoubleSpinBox;
    radius->setObjectName("brushRadius");
    radius->setRange(0.001, 1.0);
    radius->setDecimals(3);
    radius->setSingleStep(0.005);
    radius->setValue(options->radius());
    radius->setToolTip("Brush radius in world units");
    form->addRow("Radius", radius);
    connect(radius, &QDoubleSpinBox::valueChanged, options,
            [options](double v) { options->setRadius(float(v)); });

    auto *strength = new QDoubleSpinBox;
    strength->setRange(0.0, 100.0);
    strength->setSingleStep(0.1);
    strength->setValue(options->strength());
    strength->setToolTip("Scales new emitters' rates and new force fields' strength");
    form->addRow("Strength", strength);
    connect(strength, &QDoubleSpinBox::valueChanged, options,
            [options](double v) { options->setStrength(float(v)); });

    auto *hardness = new QDoubleSpinBox;
    hardness->setRange(0.0, 1.0);
    hardness->setSingleStep(0.05);
    hardness->setValue(options->hardness());
    hardness->setToolTip("Coverage weight of painted points (times tablet pressure)");
    form->addRow("Hardness", hardness);
    connect(hardness, &QDoubleSpinBox::valueChanged, options,
            [options](double v) { options->setHardness(float(v)); });

    auto *kind = new QComboBox;
    kind->addItems({"Emitter", "Obstacle", "Force field"});
    kind->setCurrentIndex(int(options->shapeKind()));
    kind->setToolTip("What the circle, box and capsule tools make");
    form->addRow("Shapes make", kind);
    connect(kind, &QComboBox::currentIndexChanged, options,
            [options](int k) { options->setShapeKind(ItemKind(k)); });

    auto *dye = new QPushButton;
    auto paintButton = [dye, options] {
        dye->setStyleSheet(QString("background: %1").arg(options->dyeColor().name()));
    };
    paintButton();
    dye->setToolTip("Dye colour of new emitters (linear RGB, times their density per second)");
    form->addRow("Emitter dye", dye);
    connect(dye, &QPushButton::clicked, this, [this, options, paintButton] {
        const QColor c = QColorDialog::getColor(options->dyeColor(), this, "Emitter dye");
        if (c.isValid()) {
            options->setDyeColor(c);
            paintButton();
        }
    });
}

} // namespace plume
