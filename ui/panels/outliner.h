#pragma once

#include <QListWidget>

namespace plume {

class Document;

/// The scene's items, top to bottom in scene order: a check box enables/disables, a double
/// click renames, Delete deletes; selection follows the document's both ways. Every change
/// is an undo command.
class Outliner : public QListWidget
{
    Q_OBJECT

public:
    explicit Outliner(Document *document, QWidget *parent = nullptr);

private:
    /// Every row again (a new scene, an item added or removed).
    void rebuild();
    /// Row `n` shows the item's name, enabled state, kind and shape.
    void updateRow(int n);
    void itemEdited(QListWidgetItem *row);

    Document *mDocument;
    bool mUpdating = false;
};

} // namespace plume
