// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

class QFormLayout;

namespace plume {

/// The tooltip of a property editor, "Label (unit): what it does", from one table keyed by the
/// section and the row's label ("Force/Scale") or by the label alone ("Radius"); empty for a
/// row the table lacks (tst_params walks every editor and fails on those).
QString propertyTip(const QString &section, const QString &label);
/// The same for a row of `form`: the section is the title of the group box holding it.
QString propertyTip(const QFormLayout *form, const QString &label);

/// The tooltip of a tool's action: what it does with the mouse, its units and its `shortcut`,
/// e.g. "Emitter Brush (E): ...". `hint` is the tool's own hint, used for tools the table
/// lacks (Select explains itself).
QString toolHelp(const QString &tool, const QString &shortcut, const QString &hint);

} // namespace plume
