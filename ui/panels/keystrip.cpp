// SPDX-License-Identifier: Apache-2.0
#include <ui/panels/keystrip.h>

#include <ui/panels/keybutton.h>

#include <ui/document/animationstate.h>
#include <ui/document/document.h>

#include <QContextMenuEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <map>

namespace plume {

namespace {

constexpr int kMaxRowHeight = 18;
constexpr int kMinRowHeight = 10;
constexpr int kLabelWidth = 120;
constexpr int kMargin = 10;
constexpr double kKeyRadius = 5.5;

QString keyCount(std::size_t n) { return n == 1 ? "1 key" : QString("%1 keys").arg(n); }

} // namespace

KeyStrip::KeyStrip(Document *document, QWidget *parent)
    : QWidget(parent)
    , mDocument(document)
{
    setObjectName("keyStrip");
    setFocusPolicy(Qt::ClickFocus);
    // Room for an item's rows (summary, placement and rate or strength); more rows shrink.
    setMinimumHeight(5 * kMaxRowHeight + 4);
    setToolTip("Keys of the selected item: drag to move, Delete to remove, right-click for "
               "interpolation");
    connect(document, &Document::changed, this, [this] {
        pruneSelection();
        updateGeometry();
        update();
    });
    connect(document->animation(), &AnimationState::frameChanged, this, [this] { update(); });
}

void KeyStrip::setItems(std::vector<int> items)
{
    mItems = std::move(items);
    mSelected.clear();
    mDragging = false;
    updateGeometry();
    update();
}

void KeyStrip::setSelectedKeys(std::set<KeyRef> keys)
{
    mSelected = std::move(keys);
    update();
}

int KeyStrip::rowHeight() const
{
    const int count = int(rows().size());
    return std::clamp((height() - 4) / std::max(count, 1), kMinRowHeight, kMaxRowHeight);
}

std::vector<KeyStrip::Row> KeyStrip::rows() const
{
    std::vector<Row> out{Row{}};
    const auto &items = mDocument->scene().items;
    for (int i : mItems)
        if (i >= 0 && i < int(items.size()))
            for (AnimProperty p : kAnimProperties)
                if (isAnimated(items[std::size_t(i)], p))
                    out.push_back({i, p});
    return out;
}

int KeyStrip::rowOf(int item, AnimProperty property) const
{
    const std::vector<Row> r = rows();
    for (std::size_t n = 1; n < r.size(); ++n)
        if (r[n].item == item && r[n].property == property)
            return int(n);
    return -1;
}

QSize KeyStrip::sizeHint() const
{
    return {400, kMaxRowHeight * int(std::max<std::size_t>(rows().size(), 2)) + 4};
}

double KeyStrip::lastFrame() const
{
    double last = std::max(mDocument->scene().simulation.frameEnd, mDocument->animation()->frame());
    for (const Row &r : rows())
        if (r.item >= 0)
            for (double f : keyFrames(mDocument->scene().items[std::size_t(r.item)], r.property))
                last = std::max(last, f);
    return std::max(last, 1.0);
}

QPointF KeyStrip::keyPosition(int row, double frame) const
{
    const double x0 = kLabelWidth + kMargin, x1 = width() - kMargin;
    const int h = rowHeight();
    return {x0 + (x1 - x0) * frame / lastFrame(), row * h + h / 2.0 + 2};
}

double KeyStrip::frameAt(double x) const
{
    const double x0 = kLabelWidth + kMargin, x1 = width() - kMargin;
    return (x - x0) / std::max(1.0, x1 - x0) * lastFrame();
}

std::set<KeyStrip::KeyRef> KeyStrip::keysAt(QPointF pos) const
{
    const std::vector<Row> r = rows();
    const int row = int((pos.y() - 2) / rowHeight());
    std::set<KeyRef> out;
    if (row < 0 || row >= int(r.size()))
        return out;
    const auto &items = mDocument->scene().items;
    // The key nearest to the pointer within reach, on this row (all rows for the summary).
    double best = kKeyRadius + 2, bestFrame = 0;
    for (std::size_t n = 1; n < r.size(); ++n) {
        if (row != 0 && int(n) != row)
            continue;
        for (double f : keyFrames(items[std::size_t(r[n].item)], r[n].property)) {
            const double d = std::abs(keyPosition(row, f).x() - pos.x());
            if (d < best) {
                best = d;
                bestFrame = f;
            }
        }
    }
    if (best > kKeyRadius + 1)
        return out;
    for (std::size_t n = 1; n < r.size(); ++n)
        if ((row == 0 || int(n) == row)
            && hasKeyAt(items[std::size_t(r[n].item)], r[n].property, bestFrame))
            out.insert({r[n].item, r[n].property, bestFrame});
    return out;
}

void KeyStrip::pruneSelection()
{
    const auto &items = mDocument->scene().items;
    std::erase_if(mSelected, [&items](const KeyRef &k) {
        return k.item >= int(items.size())
               || !hasKeyAt(items[std::size_t(k.item)], k.property, k.frame);
    });
}

bool KeyStrip::moved(int delta, std::vector<std::pair<int, Item>> *out) const
{
    std::map<std::pair<int, AnimProperty>, std::vector<double>> tracks;
    for (const KeyRef &k : mSelected)
        tracks[{k.item, k.property}].push_back(k.frame);
    std::map<int, Item> edited;
    for (const auto &[track, frames] : tracks) {
        const auto [i, p] = track;
        if (!edited.count(i))
            edited[i] = mDocument->scene().items[std::size_t(i)];
        if (!moveKeys(edited[i], p, frames, delta))
            return false;
    }
    if (out)
        out->assign(edited.begin(), edited.end());
    return true;
}

void KeyStrip::deleteSelected()
{
    if (mSelected.empty())
        return;
    std::map<int, Item> edited;
    for (const KeyRef &k : mSelected) {
        if (!edited.count(k.item))
            edited[k.item] = mDocument->scene().items[std::size_t(k.item)];
        removeKey(edited[k.item], k.property, k.frame);
    }
    const QString text = "Delete " + keyCount(mSelected.size());
    mSelected.clear();
    pushItemEdits(mDocument, text, {edited.begin(), edited.end()});
    update();
}

void KeyStrip::setSelectedInterpolation(Interpolation interpolation)
{
    std::map<int, Item> edited;
    QStringList labels;
    for (const KeyRef &k : mSelected) {
        if (!edited.count(k.item))
            edited[k.item] = mDocument->scene().items[std::size_t(k.item)];
        setInterpolation(edited[k.item], k.property, interpolation);
        if (!labels.contains(propertyLabel(k.property)))
            labels << propertyLabel(k.property);
    }
    pushItemEdits(mDocument,
                  QString("Interpolation %1: %2").arg(toString(interpolation), labels.join(", ")),
                  {edited.begin(), edited.end()});
}

bool KeyStrip::event(QEvent *event)
{
    // Delete and Backspace remove keys here, not the item (the window's Delete shortcut).
    if (event->type() == QEvent::ShortcutOverride && !mSelected.empty()) {
        const int key = static_cast<QKeyEvent *>(event)->key();
        if (key == Qt::Key_Delete || key == Qt::Key_Backspace) {
            event->accept();
            return true;
        }
    }
    return QWidget::event(event);
}

void KeyStrip::keyPressEvent(QKeyEvent *event)
{
    if ((event->key() == Qt::Key_Delete || event->key() == Qt::Key_Backspace)
        && !mSelected.empty()) {
        deleteSelected();
        return;
    }
    QWidget::keyPressEvent(event);
}

void KeyStrip::mousePressEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton)
        return;
    const std::set<KeyRef> hit = keysAt(event->position());
    const bool add = event->modifiers() & Qt::ControlModifier;
    if (hit.empty()) {
        if (!add)
            mSelected.clear();
        update();
        if (event->position().x() > kLabelWidth)
            Q_EMIT scrubbed(int(std::lround(std::max(0.0, frameAt(event->position().x())))));
        return;
    }
    const bool allSelected = std::includes(mSelected.begin(), mSelected.end(), hit.begin(),
                                           hit.end());
    if (add && allSelected) {
        for (const KeyRef &k : hit)
            mSelected.erase(k);
        update();
        return;
    }
    if (!add && !allSelected)
        mSelected.clear();
    mSelected.insert(hit.begin(), hit.end());
    mDragging = true;
    mDragStartX = event->position().x();
    mDelta = 0;
    update();
}

void KeyStrip::mouseMoveEvent(QMouseEvent *event)
{
    if (!mDragging)
        return;
    const double perFrame = keyPosition(0, 1).x() - keyPosition(0, 0).x();
    const int wanted = int(std::lround((event->position().x() - mDragStartX) / perFrame));
    // The nearest allowed move on the way from the last one to the wanted one.
    const int step = wanted >= mDelta ? 1 : -1;
    for (int d = mDelta; d != wanted + step; d += step) {
        if (!moved(d, nullptr))
            break;
        mDelta = d;
    }
    update();
}

void KeyStrip::mouseReleaseEvent(QMouseEvent *event)
{
    if (!mDragging || event->button() != Qt::LeftButton)
        return;
    mouseMoveEvent(event);
    mDragging = false;
    std::vector<std::pair<int, Item>> edits;
    if (mDelta != 0 && moved(mDelta, &edits)) {
        std::set<KeyRef> after;
        for (KeyRef k : mSelected) {
            k.frame += mDelta;
            after.insert(k);
        }
        const QString text = QString("Move %1 by %2%3 frames")
                                 .arg(keyCount(mSelected.size()))
                                 .arg(mDelta > 0 ? "+" : "")
                                 .arg(mDelta);
        mSelected = std::move(after);
        pushItemEdits(mDocument, text, edits);
    }
    mDelta = 0;
    update();
}

void KeyStrip::contextMenuEvent(QContextMenuEvent *event)
{
    const std::set<KeyRef> hit = keysAt(event->pos());
    if (!hit.empty() && !std::includes(mSelected.begin(), mSelected.end(), hit.begin(), hit.end()))
        mSelected = hit;
    update();
    if (mSelected.empty())
        return;
    QMenu menu(this);
    menu.setObjectName("keyMenu");
    QAction *del = menu.addAction("Delete " + keyCount(mSelected.size()));
    menu.addSection("Interpolation");
    bool allLinear = true, allSmooth = true;
    for (const KeyRef &k : mSelected) {
        const Interpolation i = interpolation(mDocument->scene().items[std::size_t(k.item)],
                                              k.property);
        allLinear &= i == Interpolation::Linear;
        allSmooth &= i == Interpolation::Smooth;
    }
    QAction *linear = menu.addAction("Linear");
    QAction *smooth = menu.addAction("Smooth");
    linear->setCheckable(true);
    smooth->setCheckable(true);
    linear->setChecked(allLinear);
    smooth->setChecked(allSmooth);
    QAction *chosen = menu.exec(event->globalPos());
    if (chosen == del)
        deleteSelected();
    else if (chosen == linear)
        setSelectedInterpolation(Interpolation::Linear);
    else if (chosen == smooth)
        setSelectedInterpolation(Interpolation::Smooth);
}

void KeyStrip::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const std::vector<Row> r = rows();
    const auto &items = mDocument->scene().items;
    const QColor base = palette().color(QPalette::Base);
    const int h = rowHeight();
    p.fillRect(rect(), base);
    // Rows, labels and the frame ruler's ticks.
    for (std::size_t n = 0; n < r.size(); ++n) {
        const QRectF band(0, 2 + double(n) * h, width(), h);
        if (n % 2 == 1)
            p.fillRect(band, palette().color(QPalette::AlternateBase));
        QString label = "Keys";
        if (r[n].item >= 0)
            label = propertyLabel(r[n].property);
        if (r[n].item >= 0 && mItems.size() > 1)
            label = QString::fromStdString(items[std::size_t(r[n].item)].name) + ": " + label;
        p.setPen(palette().color(QPalette::Text));
        p.drawText(band.adjusted(6, 0, 0, 0).toRect(), Qt::AlignVCenter | Qt::AlignLeft,
                   p.fontMetrics().elidedText(label, Qt::ElideRight, kLabelWidth - 8));
    }
    const double last = lastFrame();
    const int tick = last > 400 ? 50 : last > 100 ? 10 : 5;
    p.setPen(QPen(palette().color(QPalette::Mid), 1));
    for (int f = 0; f <= int(last); f += tick) {
        const double x = keyPosition(0, f).x();
        p.drawLine(QPointF(x, 0), QPointF(x, f % (tick * 2) == 0 ? 5 : 3));
    }
    // The cursor.
    const double cx = keyPosition(0, mDocument->animation()->frame()).x();
    p.setPen(QPen(QColor(220, 60, 60), 1.5));
    p.drawLine(QPointF(cx, 0), QPointF(cx, height()));

    // Keys: linear ones as diamonds, smooth ones as circles; selected keys gold.
    auto drawKey = [&p](QPointF c, bool selected, bool smooth) {
        const QColor fill = selected ? KeyButton::fillColor(KeyButton::State::Keyed)
                                     : QColor(225, 225, 225);
        p.setPen(QPen(selected ? fill.darker(170) : QColor(70, 70, 70), 1.2));
        p.setBrush(fill);
        if (smooth)
            p.drawEllipse(c, kKeyRadius - 1, kKeyRadius - 1);
        else
            p.drawPath(KeyButton::diamond(c, kKeyRadius));
    };
    std::map<double, bool> summary; // frame -> every key there selected
    for (std::size_t n = 1; n < r.size(); ++n) {
        const Item &item = items[std::size_t(r[n].item)];
        const bool smooth = interpolation(item, r[n].property) == Interpolation::Smooth;
        for (double f : keyFrames(item, r[n].property)) {
            const bool selected = mSelected.count({r[n].item, r[n].property, f}) != 0;
            const double shown = f + (selected && mDragging ? mDelta : 0);
            drawKey(keyPosition(int(n), shown), selected, smooth);
            auto [it, fresh] = summary.emplace(shown, selected);
            if (!fresh)
                it->second = it->second && selected;
        }
    }
    for (const auto &[f, selected] : summary)
        drawKey(keyPosition(0, f), selected, false);
}

} // namespace plume
