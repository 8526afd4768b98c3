#include "outliner.h"

#include <document/selectionedits.h>
#include <document/undocommands.h>
#include <viewport/viewport.h>

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

void paintEye(QPainter &p, const QRectF &r, bool hidden)
{
    const QPointF c = r.center();
    QPainterPath eye;
    eye.moveTo(c.x() - 6, c.y());
    eye.quadTo(c.x(), c.y() - 6, c.x() + 6, c.y());
    eye.quadTo(c.x(), c.y() + 6, c.x() - 6, c.y());
    p.setPen(QPen(hidden ? QColor(110, 110, 110) : QColor(220, 220, 220), 1.2));
    p.setBrush(Qt::NoBrush);
    p.drawPath(eye);
    if (hidden) {
        p.drawLine(QPointF(c.x() - 6, c.y() + 5), QPointF(c.x() + 6, c.y() - 5));
        return;
    }
    p.setBrush(QColor(220, 220, 220));
    p.drawEllipse(c, 2.0, 2.0);
}

void paintLock(QPainter &p, const QRectF &r, bool locked)
{
    const QPointF c = r.center();
    const QColor colour = locked ? QColor(240, 190, 90) : QColor(110, 110, 110);
    p.setPen(QPen(colour, 1.2));
    p.setBrush(locked ? QBrush(colour) : QBrush(Qt::NoBrush));
    p.drawRect(QRectF(c.x() - 4.5, c.y() - 1, 9, 7));
    p.setBrush(Qt::NoBrush);
    // The shackle: closed over the body when locked, swung open when not.
    const QRectF shackle(c.x() - 3, c.y() - 7, 6, 8);
    if (locked)
        p.drawArc(shackle, 0, 180 * 16);
    else
        p.drawArc(shackle.translated(3, -1), 0, 160 * 16);
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
        paintEye(*painter, toggleRect(option.rect, 0), mState(index.row(), edits::Flag::Hidden));
        paintLock(*painter, toggleRect(option.rect, 1), mState(index.row(), edits::Flag::Locked));
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
        const QString old = QString::fromStdString(item.name);
        updateRow(n); // a refused name goes back
        Q_EMIT message(name.empty()
                           ? QString("An item needs a name: '%1' keeps its name").arg(old)
                           : QString("The name '%1' is used by another item: '%2' keeps its name")
                                 .arg(typed, old));
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
