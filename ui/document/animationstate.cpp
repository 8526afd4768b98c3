// SPDX-License-Identifier: Apache-2.0
#include <ui/document/animationstate.h>

#include <ui/document/document.h>

namespace plume {

namespace {

Item::Property itemProperty(AnimProperty p)
{
    switch (p) {
    case AnimProperty::Offset: return Item::Property::Offset;
    case AnimProperty::Rotation: return Item::Property::Rotation;
    case AnimProperty::Scale: return Item::Property::Scale;
    case AnimProperty::EmitterRate:
    case AnimProperty::EmitterNoiseAmplitude: return Item::Property::Emitter;
    case AnimProperty::ForceStrength: break;
    }
    return Item::Property::Force;
}

QString frameText(int frame) { return QString(" at frame %1").arg(frame); }

} // namespace

AnimationState::AnimationState(Document *document)
    : QObject(document)
    , mDocument(document)
{
    connect(document, &Document::changed, this, [this](const ChangeEvent &event) {
        if (mChanged.empty())
            return;
        if (event.type != ChangeEvent::Type::ItemChanged) {
            if (event.type == ChangeEvent::Type::Reset || event.type == ChangeEvent::Type::ItemAdded
                || event.type == ChangeEvent::Type::ItemRemoved)
                clearChanged();
            return;
        }
        bool any = false;
        for (auto it = mChanged.begin(); it != mChanged.end();) {
            if (it->first.first == event.index && event.item.has(itemProperty(it->first.second))) {
                it = mChanged.erase(it);
                any = true;
            } else {
                ++it;
            }
        }
        if (any)
            Q_EMIT changedValuesChanged();
    });
}

void AnimationState::setFrame(int frame)
{
    if (frame == mFrame)
        return;
    mFrame = frame;
    clearChanged();
    Q_EMIT frameChanged(frame);
}

void AnimationState::setAutoKey(bool on)
{
    if (on == mAutoKey)
        return;
    mAutoKey = on;
    Q_EMIT autoKeyChanged(on);
}

sim::Vec3 AnimationState::shownValue(int item, AnimProperty p) const
{
    const auto it = mChanged.find({item, p});
    if (it != mChanged.end())
        return it->second;
    return valueAt(mDocument->scene().items[std::size_t(item)], p, mFrame);
}

void AnimationState::setChanged(int item, AnimProperty p, sim::Vec3 value)
{
    mChanged[{item, p}] = value;
    Q_EMIT changedValuesChanged();
}

void AnimationState::clearChanged()
{
    if (mChanged.empty())
        return;
    mChanged.clear();
    Q_EMIT changedValuesChanged();
}

void AnimationState::edit(int index, AnimProperty p, sim::Vec3 value)
{
    const std::vector<Item> &items = mDocument->scene().items;
    const Item &shown = items[std::size_t(index)];
    if (!mAutoKey && isAnimated(shown, p)) {
        setChanged(index, p, value);
        return;
    }
    // The edit goes to every selected item that has the property (the emitter rate: emitters;
    // the force strength: force fields; placement: all), as the properties panel's other edits.
    std::vector<int> targets{index};
    if (mDocument->isSelected(index)) {
        targets.clear();
        for (int i : mDocument->selectedItems()) {
            const ItemKind kind = items[std::size_t(i)].kind;
            const bool emitterOnly = p == AnimProperty::EmitterRate
                                     || p == AnimProperty::EmitterNoiseAmplitude;
            const bool has = (!emitterOnly || kind == ItemKind::Emitter)
                             && (p != AnimProperty::ForceStrength || kind == ItemKind::ForceField);
            if (has && (mAutoKey || !isAnimated(items[std::size_t(i)], p)))
                targets.push_back(i);
        }
    }
    std::vector<std::pair<int, Item>> edits;
    for (int i : targets) {
        Item item = items[std::size_t(i)];
        if (mAutoKey)
            setKey(item, p, mFrame, value);
        else
            setConstant(item, p, value);
        edits.emplace_back(i, std::move(item));
    }
    pushItemEdits(mDocument,
                  mAutoKey ? "Auto-key: " + propertyLabel(p) + frameText(mFrame)
                           : "Change " + propertyLabel(p),
                  edits);
}

void AnimationState::toggleKey(int index, AnimProperty p)
{
    Item item = mDocument->scene().items[std::size_t(index)];
    if (!isChanged(index, p) && removeKey(item, p, mFrame)) {
        pushItemEdits(mDocument, "Remove key: " + propertyLabel(p) + frameText(mFrame),
                      {{index, item}});
        return;
    }
    setKeys(index, {p});
}

void AnimationState::setKeys(int index, const std::vector<AnimProperty> &properties)
{
    setKeys(std::vector<int>{index}, properties);
}

void AnimationState::setKeys(const std::vector<int> &indices,
                             const std::vector<AnimProperty> &properties)
{
    QStringList labels;
    for (AnimProperty p : properties)
        labels << propertyLabel(p);
    std::vector<std::pair<int, Item>> edits;
    for (int index : indices) {
        Item item = mDocument->scene().items[std::size_t(index)];
        for (AnimProperty p : properties)
            setKey(item, p, mFrame, shownValue(index, p));
        edits.emplace_back(index, std::move(item));
    }
    // A key of the value already there changes nothing: the changed marks go all the same.
    if (!pushItemEdits(mDocument, "Set key: " + labels.join(", ") + frameText(mFrame), edits)) {
        for (int index : indices)
            for (AnimProperty p : properties)
                mChanged.erase({index, p});
        Q_EMIT changedValuesChanged();
    }
}

} // namespace plume
