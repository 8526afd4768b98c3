// SPDX-License-Identifier: Apache-2.0
// The keyframable properties' editors of PropertiesPanel: the value shown at the current frame
// and a key button beside it (keybutton.h); edits go through AnimationState::edit.
#include <ui/panels/keybutton.h>
#include <ui/panels/propertiespanel.h>
#include <ui/panels/propertyhelp.h>

#include <ui/document/animationstate.h>

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QSignalBlocker>

#include <algorithm>
#include <cmath>

namespace plume {

void PropertiesPanel::addKeyed(QFormLayout *form, const QString &label, AnimProperty property,
                               const sim::Param &range)
{
    const int index = mIndex;
    AnimationState *animation = mDocument->animation();
    auto *row = new QWidget;
    auto *h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    // The key button first, where a narrow panel cannot scroll it out of sight.
    auto *key = new KeyButton;
    key->setObjectName(QString("key_%1").arg(propertyKey(property)));
    h->addWidget(key);
    std::vector<QDoubleSpinBox *> boxes;
    for (int c = 0; c < components(property); ++c) {
        auto *box = new QDoubleSpinBox;
        guardWheel(box);
        box->setObjectName(QString::fromLatin1(range.key));
        box->setDecimals(range.decimals);
        box->setRange(range.lowest(), range.highest());
        box->setSingleStep(
            components(property) == 1 ? std::pow(10.0, -std::max(0, range.decimals - 1)) : 0.01);
        box->setKeyboardTracking(false);
        h->addWidget(box, 1);
        boxes.push_back(box);
    }
    form->addRow(label, row);
    row->setToolTip(propertyTip(form, label));

    mRefreshers[std::size_t(Section::Keyed)].push_back([this, boxes, key, index, property] {
        AnimationState *a = mDocument->animation();
        const Item &it = item();
        const sim::Vec3 v = a->shownValue(index, property);
        for (std::size_t c = 0; c < boxes.size(); ++c) {
            const QSignalBlocker block(boxes[c]);
            boxes[c]->setValue(v[int(c)]);
        }
        using S = KeyButton::State;
        key->setState(a->isChanged(index, property)        ? S::Changed
                      : hasKeyAt(it, property, a->frame()) ? S::Keyed
                      : isAnimated(it, property)           ? S::Animated
                                                           : S::Constant);
    });
    for (std::size_t c = 0; c < boxes.size(); ++c)
        connect(boxes[c], &QDoubleSpinBox::valueChanged, this,
                [this, animation, index, property, c](double x) {
            if (mRefreshing)
                return;
            sim::Vec3 v = animation->shownValue(index, property);
            v[int(c)] = float(x);
            if (v != animation->shownValue(index, property))
                animation->edit(index, property, v);
        });
    connect(key, &QToolButton::clicked, this,
            [animation, index, property] { animation->toggleKey(index, property); });
}

} // namespace plume
