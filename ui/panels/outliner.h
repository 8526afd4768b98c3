// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QListWidget>

namespace plume {

class Document;

/// The scene's items, top to bottom in scene order. Selection follows the document's both ways
/// and may hold several items: Ctrl+click toggles a row, Shift+click selects a range. A row's
/// check box enables/disables the item, its eye hides/shows it in the views and its lock locks
/// it against picking and moving there; on a selected row each applies to every selected item.
/// F2 or a double click renames (an empty or used name is refused, with a message); dragging
/// rows reorders the items. Every change is an undo command.
class Outliner : public QListWidget
{
    Q_OBJECT

public:
    explicit Outliner(Document *document, QWidget *parent = nullptr);

    /// Where row `row`'s eye and lock toggles are drawn, in viewport coordinates.
    QRect eyeRect(int row) const;
    QRect lockRect(int row) const;

signals:
    /// Something the user should read (a refused name), for the status bar.
    void message(const QString &text);

protected:
    void dropEvent(QDropEvent *event) override;

private:
    /// Every row again (a new scene, an item added, removed or moved).
    void rebuild();
    /// Row `n` shows the item's name, enabled state, kind and shape.
    void updateRow(int n);
    /// The document's selection shown in the rows.
    void showSelection();
    /// The rows' selection given to the document.
    void takeSelection();
    void itemEdited(QListWidgetItem *row);

    Document *mDocument;
    bool mUpdating = false;
};

} // namespace plume
