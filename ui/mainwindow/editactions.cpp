// SPDX-License-Identifier: Apache-2.0
#include <ui/mainwindow/editactions.h>

#include <ui/document/document.h>
#include <ui/document/selectionedits.h>

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QMenu>
#include <QMimeData>

#include <vector>

namespace plume {

namespace edits = selectionedits;

void addSelectionActions(QMenu *menu, QWidget *window, Document *document,
                         std::function<void(const QString &)> message)
{
    std::vector<QAction *> needSelection;
    auto make = [&](const QString &text, const char *name, const QKeySequence &key,
                    const QString &tip, bool onSelection, auto slot) {
        auto *a = new QAction(text, window);
        a->setObjectName(name);
        a->setShortcut(key);
        a->setStatusTip(tip);
        QObject::connect(a, &QAction::triggered, window, slot);
        menu->addAction(a);
        if (onSelection)
            needSelection.push_back(a);
        return a;
    };
    // Hide/Lock toggle: the current item's state says which way every selected item goes.
    auto toggle = [document](edits::Flag flag) {
        const int current = document->selectedItem();
        if (current >= 0)
            edits::setFlag(*document, flag,
                           !edits::flag(document->scene().items[std::size_t(current)], flag));
    };
    auto all = [document](edits::Flag flag) {
        std::vector<int> every(document->scene().items.size());
        for (std::size_t n = 0; n < every.size(); ++n)
            every[n] = int(n);
        edits::setFlag(*document, every, flag, false);
    };

    make("Select &All", "actionSelectAll", QKeySequence::SelectAll, "Selects every item", false,
         [document] {
        std::vector<int> every(document->scene().items.size());
        for (std::size_t n = 0; n < every.size(); ++n)
            every[n] = int(n);
        document->setSelection(every, document->selectedItem());
    });
    menu->addSeparator();
    make("Cu&t", "actionCut", QKeySequence::Cut, "Copies the selected items and deletes them", true,
         [document] {
        if (QMimeData *data = edits::copySelection(*document)) {
            QApplication::clipboard()->setMimeData(data);
            edits::deleteSelection(*document);
        }
    });
    make("&Copy", "actionCopy", QKeySequence::Copy,
         "Copies the selected items (to paste here or into another Plume window)", true,
         [document] {
        if (QMimeData *data = edits::copySelection(*document))
            QApplication::clipboard()->setMimeData(data);
    });
    make("&Paste", "actionPaste", QKeySequence::Paste,
         "Adds the copied items on top, with unique names", false, [document, message] {
             const QMimeData *data = QApplication::clipboard()->mimeData();
             std::string error = "the clipboard holds no items";
             std::vector<Item> items = data ? edits::itemsToPaste(*document, *data, &error)
                                            : std::vector<Item>{};
             if (items.empty()) {
                 message(QString("Nothing pasted: %1").arg(QString::fromStdString(error)));
                 return;
             }
             const QString text =
                 items.size() == 1
                     ? QString("Paste %1").arg(QString::fromStdString(items.front().name))
                     : QString("Paste %1 Items").arg(items.size());
             edits::addItems(*document, std::move(items), text);
         });
    make("D&uplicate", "actionDuplicate", QKeySequence("Ctrl+D"),
         "Copies the selected items beside themselves", true,
         [document] { edits::duplicateSelection(*document); });
    menu->addSeparator();
    make("E&nable/Disable", "actionToggleEnabled", QKeySequence("Shift+E"),
         "Disables the selected items (or enables them, when the current one is disabled)", true,
         [toggle] { toggle(edits::Flag::Enabled); });
    make("&Hide/Show", "actionToggleHidden", QKeySequence("H"),
         "Hides the selected items in the views (they still simulate)", true,
         [toggle] { toggle(edits::Flag::Hidden); });
    make("Show All", "actionShowAll", QKeySequence("Alt+H"), "Shows every hidden item", false,
         [all] { all(edits::Flag::Hidden); });
    make("&Lock/Unlock", "actionToggleLocked", QKeySequence("L"),
         "Locks the selected items against picking and moving in the views", true,
         [toggle] { toggle(edits::Flag::Locked); });
    make("Unlock All", "actionUnlockAll", QKeySequence("Alt+L"), "Unlocks every item", false,
         [all] { all(edits::Flag::Locked); });
    menu->addSeparator();
    make("Move &Up", "actionMoveUp", QKeySequence("Ctrl+Shift+Up"),
         "Moves the selected items up the outliner (earlier in the scene)", true,
         [document] { edits::moveSelection(*document, -1); });
    make("Move Do&wn", "actionMoveDown", QKeySequence("Ctrl+Shift+Down"),
         "Moves the selected items down the outliner (later in the scene)", true,
         [document] { edits::moveSelection(*document, +1); });

    auto update = [needSelection, document] {
        for (QAction *a : needSelection)
            a->setEnabled(!document->selectedItems().empty());
    };
    QObject::connect(document, &Document::selectionChanged, window, update);
    update();
}

} // namespace plume
