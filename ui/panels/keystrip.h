// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <ui/document/keyframes.h>

#include <QWidget>

#include <set>
#include <tuple>
#include <vector>

namespace plume {

class Document;

/// The keys of the shown items on a frame ruler: a summary row (every key of every property,
/// merged by frame) and a row per keyframed property. Click a key to select it (Ctrl: add or
/// take away; a summary key selects every key on its frame), drag to move the selected keys in
/// whole frames (a move that would land a key on another, or before frame 0, stops short of
/// it), Delete or Backspace removes them, and the context menu deletes them or sets their
/// properties' interpolation. Each edit is one undo step. A click beside the keys moves the
/// cursor (scrubbed).
class KeyStrip : public QWidget
{
    Q_OBJECT

public:
    /// A key: item index, property, frame.
    struct KeyRef
    {
        int item = -1;
        AnimProperty property = AnimProperty::Offset;
        double frame = 0.0;
        friend auto operator<=>(const KeyRef &, const KeyRef &) = default;
    };

    explicit KeyStrip(Document *document, QWidget *parent = nullptr);

    /// The items whose keys show (the selection's).
    void setItems(std::vector<int> items);
    const std::vector<int> &items() const { return mItems; }
    const std::set<KeyRef> &selectedKeys() const { return mSelected; }
    void setSelectedKeys(std::set<KeyRef> keys);

    /// Where a key (or a summary key when `row` is 0) is drawn, in widget pixels.
    QPointF keyPosition(int row, double frame) const;
    /// The row of a property of an item, or -1 when it has no keys (row 0 is the summary).
    int rowOf(int item, AnimProperty property) const;

    /// Removes the selected keys (one undo step).
    void deleteSelected();
    /// Gives the selected keys' properties the interpolation (one undo step).
    void setSelectedInterpolation(Interpolation interpolation);

    QSize sizeHint() const override;

signals:
    void scrubbed(int frame);

protected:
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;

private:
    struct Row
    {
        int item = -1; ///< -1: the summary
        AnimProperty property = AnimProperty::Offset;
    };

    std::vector<Row> rows() const;
    /// Rows share the height, 10 to 18 pixels each.
    int rowHeight() const;
    double lastFrame() const;
    double frameAt(double x) const;
    /// The keys under a widget point (a summary key: all on its frame).
    std::set<KeyRef> keysAt(QPointF pos) const;
    /// The selected keys moved by `delta`, applied to copies of their items; false if refused.
    bool moved(int delta, std::vector<std::pair<int, Item>> *out) const;
    void pruneSelection();

    Document *mDocument;
    std::vector<int> mItems;
    std::set<KeyRef> mSelected;
    bool mDragging = false;
    double mDragStartX = 0.0;
    int mDelta = 0; ///< frames the selection is dragged by
};

} // namespace plume
