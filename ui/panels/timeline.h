// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QWidget>

#include <vector>

class QAction;
class QSlider;
class QToolButton;

namespace plume {

class Document;
class KeyStrip;
class SteadyLabel;

/// A frame slider over the frames simulated so far (the cache): dragging it scrubs back. Under
/// it the key strip of the selected item (keystrip.h), and beside it Auto-Key (N: moving,
/// rotating, scaling, painting and editing keyframable properties set keys at the current
/// frame; red while on) and Insert Key (I: keys the selected item's placement).
class Timeline : public QWidget
{
    Q_OBJECT

public:
    explicit Timeline(Document *document, QWidget *parent = nullptr);

    /// The shown frame and the newest simulated one.
    void setFrames(int current, int head);
    QSlider *slider() const { return mSlider; }
    KeyStrip *keyStrip() const { return mKeyStrip; }
    QAction *autoKeyAction() const { return mAutoKey; }
    QAction *insertKeyAction() const { return mInsertKey; }

signals:
    void scrubbed(int frame);

private:
    /// The items the key strip and Insert Key work on: the selection.
    std::vector<int> keyedItems() const;

    Document *mDocument;
    QSlider *mSlider;
    SteadyLabel *mLabel;
    KeyStrip *mKeyStrip;
    QAction *mAutoKey;
    QAction *mInsertKey;
};

} // namespace plume
