#include "undocommands.h"

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

} // namespace plume
