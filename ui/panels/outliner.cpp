// SPDX-License-Identifier: Apache-2.0
#include <ui/panels/outliner.h>

#include <ui/document/selectionedits.h>
#include <ui/document/undocommands.h>
#include <ui/viewport/viewport.h>

#include <QDropEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QSignalBlocker>
#include <QStyledItemDelegate>

#include <functional>
#include <utility>

namespace plume {

namespace {

namespace edits = selectionedits;

constexpr int kToggleSize = 18; ///< width of the eye and lock toggles at a row's right end

/// The toggles' rectangles in a row's rectangle: the eye, then the lock, at the right end.
QRect toggleRect(const QRect &row, int slot)
{
    return {row.right() - (2 - slot) * kToggleSize - 2, row.top(), kToggleSize, row.height()};
}

void paintEye(QPainter &p, const QRectF &r, bool hidden, QColor ink)
{
    const QPointF c = r.center();
    QPainterPath eye;
    eye.moveTo(c.x() - 6, c.y());
    eye.quadTo(c.x(), c.y() - 6, c.x() + 6, c.y());
    eye.quadTo(c.x(), c.y() + 6, c.x() - 6, c.y());
    if (hidden)
        ink.setAlpha(110);
    p.setPen(QPen(ink, 1.3));
    p.setBrush(Qt::NoBrush);
    p.drawPath(eye);
    if (hidden) {
        p.drawLine(QPointF(c.x() - 6, c.y() + 5), QPointF(c.x() + 6, c.y() - 5));
        return;
    }
    p.setBrush(ink);
    p.drawEllipse(c, 2.2, 2.2);
}

void paintLock(QPainter &p, const QRectF &r, bool locked, QColor ink)
{
    const QPointF c = r.center() + QPointF(0, 1.5);
    if (locked)
        ink = QColor(215, 140, 30);
    else
        ink.setAlpha(110);
    p.setPen(QPen(ink, 1.3));
    p.setBrush(locked ? QBrush(ink) : QBrush(Qt::NoBrush));
    p.drawRect(QRectF(c.x() - 4, c.y() - 1, 8, 6));
    p.setBrush(Qt::NoBrush);
    // The shackle: closed over the body when locked, lifted and swung open when not.
    const QRectF shackle(c.x() - 3, c.y() - 6, 6, 10);
    if (locked)
        p.drawArc(shackle, 0, 180 * 16);
    else
        p.drawArc(shackle.translated(2.5, -1.5), 20 * 16, 160 * 16);
}

/// Draws a row as usual, with the item's eye and lock toggles at its right end, and turns
/// clicks on them into toggles.
class RowDelegate : public QStyledItemDelegate
{
public:
    using Toggle = std::function<void(int row, edits::Flag flag)>;
    using State = std::function<bool(int row, edits::Flag flag)>;

    RowDelegate(Toggle toggle, State state, QObject *parent)
        : QStyledItemDelegate(parent)
        , mToggle(std::move(toggle))
        , mState(std::move(state))
    {}

    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override
    {
        QStyleOptionViewItem text = option;
        text.rect.setRight(option.rect.right() - 2 * kToggleSize - 2);
        QStyledItemDelegate::paint(painter, text, index);
        painter->save();
        painter->setRenderHint(QPainter::Antialiasing);
        const QColor ink = option.palette.color(QPalette::Text);
        paintEye(*painter, toggleRect(option.rect, 0), mState(index.row(), edits::Flag::Hidden),
                 ink);
        paintLock(*painter, toggleRect(option.rect, 1), mState(index.row(), edits::Flag::Locked),
                  ink);
        painter->restore();
    }

    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        const QSize size = QStyledItemDelegate::sizeHint(option, index);
        return {size.width() + 2 * kToggleSize + 2, std::max(size.height(), kToggleSize)};
    }

    bool editorEvent(QEvent *event, QAbstractItemModel *model, const QStyleOptionViewItem &option,
                     const QModelIndex &index) override
    {
        const bool press = event->type() == QEvent::MouseButtonPress
                           || event->type() == QEvent::MouseButtonDblClick;
        if (press || event->type() == QEvent::MouseButtonRelease) {
            const QPoint pos = static_cast<QMouseEvent *>(event)->position().toPoint();
            for (int slot : {0, 1}) {
                if (!toggleRect(option.rect, slot).contains(pos))
                    continue;
                // The press is taken too, so that a toggle leaves the selection alone.
                if (event->type() == QEvent::MouseButtonRelease)
                    mToggle(index.row(), slot == 0 ? edits::Flag::Hidden : edits::Flag::Locked);
                return true;
            }
        }
        return QStyledItemDelegate::editorEvent(event, model, option, index);
    }

private:
    Toggle mToggle;
    State mState;
};

} // namespace

Outliner::Outliner(Document *document, QWidget *parent)
    : QListWidget(parent)
    , mDocument(document)
{
    setSelectionMode(QAbstractItemView::ExtendedSelection);
    setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    setDragDropMode(QAbstractItemView::InternalMove);
    setDefaultDropAction(Qt::MoveAction);
    setItemDelegate(new RowDelegate(
        [this](int row, edits::Flag flag) {
        const bool on = !edits::flag(mDocument->scene().items[std::size_t(row)], flag);
        // A selected row's toggle sets every selected item alike.
        if (mDocument->isSelected(row))
            edits::setFlag(*mDocument, flag, on);
        else
            edits::setFlag(*mDocument, {row}, flag, on);
        },
        [this](int row, edits::Flag flag) {
        const auto &items = mDocument->scene().items;
        return row >= 0 && row < int(items.size()) && edits::flag(items[std::size_t(row)], flag);
    },
                    this));
    connect(document, &Document::changed, this, [this](const ChangeEvent &event) {
        // A row shows the item's name, enabled, hidden and locked states, kind and shape type.
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
    connect(document, &Document::selectionChanged, this, &Outliner::showSelection);
    connect(this, &QListWidget::itemSelectionChanged, this, &Outliner::takeSelection);
    connect(this, &QListWidget::currentRowChanged, this, &Outliner::takeSelection);
    connect(this, &QListWidget::itemChanged, this, &Outliner::itemEdited);
    rebuild();
}

QRect Outliner::eyeRect(int row) const { return toggleRect(visualItemRect(item(row)), 0); }

QRect Outliner::lockRect(int row) const { return toggleRect(visualItemRect(item(row)), 1); }

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
    mUpdating = false;
    showSelection();
}

void Outliner::showSelection()
{
    const bool wasUpdating = std::exchange(mUpdating, true);
    {
        const QSignalBlocker block(this);
        const int current = mDocument->selectedItem();
        if (current >= 0 && current < count())
            setCurrentRow(current, QItemSelectionModel::NoUpdate);
        for (int n = 0; n < count(); ++n)
            item(n)->setSelected(mDocument->isSelected(n));
    }
    viewport()->update();
    mUpdating = wasUpdating;
}

void Outliner::takeSelection()
{
    if (mUpdating)
        return;
    std::vector<int> rows;
    for (int n = 0; n < count(); ++n)
        if (item(n)->isSelected())
            rows.push_back(n);
    mDocument->setSelection(rows, currentRow());
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
                  | Qt::ItemIsEditable | Qt::ItemIsDragEnabled);
    row->setText(QString::fromStdString(item.name));
    row->setCheckState(item.enabled ? Qt::Checked : Qt::Unchecked);
    QString tip = QString("%1, %2").arg(toString(item.kind), toString(item.shape.type));
    if (item.hidden)
        tip += ", hidden";
    if (item.locked)
        tip += ", locked";
    row->setToolTip(tip);
    QColor colour = Viewport::kindColor(item.kind).darker(item.enabled ? 130 : 200);
    if (item.hidden)
        colour.setAlpha(120);
    row->setForeground(colour);
    viewport()->update(visualItemRect(row));
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
        updateRow(n); // the command sets the box, on every row it changes
        // A selected row's box enables or disables every selected item.
        if (mDocument->isSelected(n))
            edits::setFlag(*mDocument, edits::Flag::Enabled, enabled);
        else
            edits::setFlag(*mDocument, {n}, edits::Flag::Enabled, enabled);
        return;
    }
    const QString typed = row->text().trimmed();
    const std::string name = typed.toStdString();
    if (name == item.name) {
        updateRow(n);
        return;
    }
    if (name.empty() || mDocument->scene().findItem(name)) {
        updateRow(n); // a refused name goes back
        Q_EMIT message(name.empty() ? QString("Not renamed: an item needs a name")
                                    : QString("Not renamed: '%1' is taken").arg(typed));
        return;
    }
    mDocument->undoStack()->push(new ChangeValue<values::ItemName>(mDocument, n, name));
}

void Outliner::dropEvent(QDropEvent *event)
{
    if (event->source() != this) {
        event->ignore();
        return;
    }
    // The document moves the items (one undo step) and the rows follow it; the view's own
    // move is declined, so that it removes no row itself.
    const QPoint pos = event->position().toPoint();
    const QModelIndex at = indexAt(pos);
    int before = count();
    if (at.isValid())
        before = pos.y() < visualRect(at).center().y() ? at.row() : at.row() + 1;
    std::vector<int> rows;
    for (int n = 0; n < count(); ++n)
        if (item(n)->isSelected())
            rows.push_back(n);
    event->setDropAction(Qt::IgnoreAction);
    event->accept();
    edits::moveItems(*mDocument, rows, before);
}

} // namespace plume
