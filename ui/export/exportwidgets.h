// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/settings/exportsettings.h>
#include <core/sim/base/param.h>
#include <core/sim/base/types.h>

#include <QString>

#include <array>
#include <initializer_list>
#include <utility>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QHBoxLayout;
class QSpinBox;
class QWidget;

/// The export dialog's small widget builders: each widget carries the object name the tests
/// find it by, and number boxes take a setting's range (the one the scene reader and plume-cli
/// check).
namespace plume::exportwidgets {

/// Two widgets in one form row, with an optional word between them ("to", "x").
QHBoxLayout *sideBySide(QWidget *first, QWidget *second, const QString &between = {});

/// A combo box of (text, value) entries; select() and selected() go by value.
QComboBox *comboBox(const char *name, std::initializer_list<std::pair<const char *, int>> items);
void select(QComboBox *box, int value);
int selected(const QComboBox *box);

QSpinBox *spinBox(const char *name, int lo, int hi, const QString &special = {});
QSpinBox *spinBox(const char *name, const sim::Param &range, const QString &special = {});
QDoubleSpinBox *doubleBox(const char *name, const sim::Param &range, double step,
                          const QString &suffix = {});
QCheckBox *checkBox(const char *name, const QString &text);

/// A vector setting (a direction, a linear RGB colour): three boxes side by side, each named
/// after the setting and with its range (the range of each component).
struct VectorBoxes
{
    std::array<QDoubleSpinBox *, 3> boxes{};

    /// The three boxes in one form row.
    QHBoxLayout *row() const;
    void setValue(sim::Vec3 v) const;
    sim::Vec3 value() const;
    void setEnabled(bool on) const;
    void setToolTip(const QString &tip) const;
};
VectorBoxes vectorBoxes(const char *name, const sim::Param &range, double step);

/// A bold title over the next rows of a form (a section within a group).
void addSection(QFormLayout *form, const char *name, const QString &title);

/// Alpha (premultiplied or straight), bit depth (8 or 16), emission (none, combined, separate).
QComboBox *alphaBox(const char *name);
QComboBox *depthBox(const char *name);
QComboBox *emissionBox(const char *name);

} // namespace plume::exportwidgets
