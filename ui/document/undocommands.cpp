// SPDX-License-Identifier: Apache-2.0
#include <ui/document/undocommands.h>

namespace plume {

AddItem::AddItem(Document *document, int index, Item item, QUndoCommand *parent)
    : QUndoCommand(QString("Add %1").arg(QString::fromStdString(item.name)), parent)
    , mDocument(document)
    , mIndex(index)
    , mItem(std::move(item))
    , mDirectory(document->scene().directory)
{}

void AddItem::redo()
{
    mDocument->insertItem(mIndex,
                          imagepaths::inFolder(mItem, mDirectory, mDocument->scene().directory));
}

void AddItem::undo() { mDocument->removeItem(mIndex); }

RemoveItem::RemoveItem(Document *document, int index, QUndoCommand *parent)
    : QUndoCommand(parent)
    , mDocument(document)
    , mIndex(index)
    , mItem(document->scene().items[std::size_t(index)])
    , mDirectory(document->scene().directory)
{
    setText(QString("Delete %1").arg(QString::fromStdString(mItem.name)));
}

void RemoveItem::redo() { mDocument->removeItem(mIndex); }

void RemoveItem::undo()
{
    mDocument->insertItem(mIndex,
                          imagepaths::inFolder(mItem, mDirectory, mDocument->scene().directory));
}

ChangeItems::ChangeItems(Document *document, const QString &text,
                         std::vector<std::pair<int, Item>> items, MergeId merge, quint64 mergeKey,
                         QUndoCommand *parent)
    : QUndoCommand(text, parent)
    , mDocument(document)
    , mMerge(merge)
    , mMergeKey(mergeKey)
    , mDirectory(document->scene().directory)
{
    for (auto &[index, item] : items)
        mChanges.push_back({index, document->scene().items[std::size_t(index)], std::move(item)});
}

void ChangeItems::redo()
{
    const std::string &folder = mDocument->scene().directory;
    for (const Change &c : mChanges)
        mDocument->setItem(c.index, imagepaths::inFolder(c.after, mDirectory, folder));
}

void ChangeItems::undo()
{
    const std::string &folder = mDocument->scene().directory;
    for (auto c = mChanges.rbegin(); c != mChanges.rend(); ++c)
        mDocument->setItem(c->index, imagepaths::inFolder(c->before, mDirectory, folder));
}

bool ChangeItems::mergeWith(const QUndoCommand *other)
{
    const auto *o = dynamic_cast<const ChangeItems *>(other);
    if (!o || o->mDocument != mDocument || o->mMergeKey != mMergeKey
        || o->mChanges.size() != mChanges.size())
        return false;
    for (std::size_t n = 0; n < mChanges.size(); ++n)
        if (o->mChanges[n].index != mChanges[n].index)
            return false;
    bool unchanged = true;
    for (std::size_t n = 0; n < mChanges.size(); ++n) {
        mChanges[n].after = imagepaths::inFolder(o->mChanges[n].after, o->mDirectory, mDirectory);
        unchanged = unchanged && mChanges[n].after == mChanges[n].before;
    }
    setObsolete(unchanged);
    return true;
}

ReorderItem::ReorderItem(Document *document, int from, int to, QUndoCommand *parent)
    : QUndoCommand(parent)
    , mDocument(document)
    , mFrom(from)
    , mTo(to)
{
    setText(QString("Reorder %1")
                .arg(QString::fromStdString(document->scene().items[std::size_t(from)].name)));
}

} // namespace plume
