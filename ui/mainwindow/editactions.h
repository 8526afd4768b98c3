// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

#include <functional>

class QMenu;
class QWidget;

namespace plume {

class Document;

/// Adds the Edit menu's actions on the selection (docs/editing.md) to `menu`, their shortcuts
/// working anywhere in `window`: Select All (Ctrl+A), Cut/Copy/Paste (Ctrl+X/C/V, the
/// clipboard holding the items as a scene: selectionedits.h), Duplicate (Ctrl+D), Enable/
/// Disable, Hide/Show (H), Show All (Alt+H), Lock/Unlock (L), Unlock All (Alt+L), Move Up/Down
/// (Ctrl+Shift+Up/Down). Each is one undo step; `message` shows why a paste did nothing. The
/// actions are named "action" + their name ("actionCopy", "actionMoveUp") for tests.
void addSelectionActions(QMenu *menu, QWidget *window, Document *document,
                         std::function<void(const QString &)> message);

} // namespace plume
