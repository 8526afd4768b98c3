// SPDX-License-Identifier: Apache-2.0
#include <ui/panels/timeline.h>

#include <ui/panels/keystrip.h>
#include <ui/panels/steadylabel.h>

#include <ui/document/animationstate.h>
#include <ui/document/document.h>

#include <QAction>
#include <QHBoxLayout>
#include <QSignalBlocker>
#include <QSlider>
#include <QToolButton>
#include <QVBoxLayout>

namespace plume {

Timeline::Timeline(Document *document, QWidget *parent)
    : QWidget(parent)
    , mDocument(document)
    , mSlider(new QSlider(Qt::Horizontal))
    , mLabel(new SteadyLabel)
    , mKeyStrip(new KeyStrip(document))
    , mAutoKey(new QAction("Auto-Key", this))
    , mInsertKey(new QAction("Insert Key", this))
{
    AnimationState *animation = document->animation();
    mAutoKey->setObjectName("actionAutoKey");
    mAutoKey->setCheckable(true);
    mAutoKey->setShortcut(QKeySequence("N"));
    mAutoKey->setToolTip("Auto-Key (N): moving, rotating, scaling or painting an item and "
                         "editing keyframable properties set keys at the current frame");
    connect(mAutoKey, &QAction::toggled, animation, &AnimationState::setAutoKey);
    connect(animation, &AnimationState::autoKeyChanged, mAutoKey, &QAction::setChecked);
    mInsertKey->setObjectName("actionInsertKey");
    mInsertKey->setShortcut(QKeySequence("I"));
    mInsertKey->setToolTip("Insert Key (I): keys the selected item's offset, rotation and "
                           "scale at the current frame");
    connect(mInsertKey, &QAction::triggered, this, [this] {
        if (const std::vector<int> items = keyedItems(); !items.empty())
            mDocument->animation()->setKeys(items, {std::begin(kPlacement), std::end(kPlacement)});
    });

    auto *autoKey = new QToolButton;
    autoKey->setObjectName("autoKeyButton");
    autoKey->setDefaultAction(mAutoKey);
    autoKey->setStyleSheet("QToolButton:checked { background: #c8322d; color: white; "
                           "border-radius: 3px; padding: 2px 6px; }");
    auto *insertKey = new QToolButton;
    insertKey->setObjectName("insertKeyButton");
    insertKey->setDefaultAction(mInsertKey);

    auto *layout = new QVBoxLayout(this);
    auto *top = new QHBoxLayout;
    top->addWidget(autoKey);
    top->addWidget(insertKey);
    top->addWidget(mSlider, 1);
    top->addWidget(mLabel);
    layout->addLayout(top);
    layout->addWidget(mKeyStrip, 1);
    mSlider->setRange(0, 0);
    mSlider->setToolTip("Scrub through the frames simulated so far");
    connect(mSlider, &QSlider::valueChanged, this, &Timeline::scrubbed);
    connect(mKeyStrip, &KeyStrip::scrubbed, this, &Timeline::scrubbed);
    // The one place that says which items the strip shows: the selection.
    auto follow = [this] { mKeyStrip->setItems(keyedItems()); };
    connect(document, &Document::selectionChanged, this, follow);
    follow();
    setFrames(0, 0);
}

std::vector<int> Timeline::keyedItems() const { return mDocument->selectedItems(); }

void Timeline::setFrames(int current, int head)
{
    const QSignalBlocker block(mSlider);
    mSlider->setRange(0, head);
    mSlider->setValue(current);
    mLabel->setSteadyText(QString("frame %1 / %2").arg(current).arg(head));
}

} // namespace plume
