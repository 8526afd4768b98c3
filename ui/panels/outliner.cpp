#include "outliner.h"

#include <document/undocommands.h>
#include <viewport/viewport.h>

#include <QSignalBlocker>

#include <utility>

namespace plume {

Outliner::Outliner(Document *document, QWidget *parent)
    : QListWidget(parent)
    , mDocument(document)
{
    setSelectionMode(QAbstractItemView::SingleSelection);
    connect(document, &Document::changed, this, [this](const ChangeEvent &event) {
        // A row shows the item's name, enabled state, kind and shape type.
        using P = Item::Property;
        switch (event.type) {
        case ChangeEvent::Type::Reset:
        case ChangeEvent::Type::ItemAdded:
        case ChangeEvent::Type::ItemRemoved: rebuild(); break;
        case ChangeEvent::Type::ItemChanged:
            if (!event.item.within({P::Active, P::Offset, P::Rotation, P::Scale, P::Emitter,
                                    P::Obstacle, P::Force}))
                updateRow(event.index);
            break;
        default: break;
        }
    });
    connect(document, &Document::selectionChanged, this, [this](int index) {
        const QSignalBlocker block(this);
        setCurrentRow(index);
    });
    connect(this, &QListWidget::currentRowChanged, this, [this](int row) {
        if (!mUpdating)
            mDocument->setSelectedItem(row);
    });
    connect(this, &QListWidget::itemChanged, this, &Outliner::itemEdited);
    rebuild();
}

void Outliner::rebuild()
{
    mUpdating = true;
    const QSignalBlocker block(this);
    const Scene &scene = mDocument->scene();
    if (count() != int(scene.items.size())) {
        clear();
        for (std::size_t n = 0; n < scene.items.size(); ++n)
            addItem(new QListWidgetItem);
    }
    for (int n = 0; n < count(); ++n)
        updateRow(n);
    setCurrentRow(mDocument->selectedItem());
    mUpdating = false;
}

void Outliner::updateRow(int n)
{
    const Scene &scene = mDocument->scene();
    if (n < 0 || n >= count() || n >= int(scene.items.size()))
        return;
    const bool wasUpdating = std::exchange(mUpdating, true);
    const QSignalBlocker block(this);
    const Item &item = scene.items[std::size_t(n)];
    QListWidgetItem *row = this->item(n);
    row->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled | Qt::ItemIsUserCheckable
                  | Qt::ItemIsEditable);
    row->setText(QString::fromStdString(item.name));
    row->setCheckState(item.enabled ? Qt::Checked : Qt::Unchecked);
    row->setToolTip(QString("%1, %2").arg(toString(item.kind), toString(item.shape.type)));
    row->setForeground(Viewport::kindColor(item.kind).darker(item.enabled ? 130 : 200));
    mUpdating = wasUpdating;
}

void Outliner::itemEdited(QListWidgetItem *row)
{
    if (mUpdating)
        return;
    const int n = this->row(row);
    const Item &item = mDocument->scene().items[std::size_t(n)];
    const bool enabled = row->checkState() == Qt::Checked;
    if (enabled != item.enabled) {
        mDocument->undoStack()->push(new ChangeValue<values::ItemEnabled>(mDocument, n, enabled));
        return;
    }
    const std::string name = row->text().trimmed().toStdString();
    if (!name.empty() && name != item.name && !mDocument->scene().findItem(name))
        mDocument->undoStack()->push(new ChangeValue<values::ItemName>(mDocument, n, name));
    else
        updateRow(n); // a refused name goes back
}

} // namespace plume
