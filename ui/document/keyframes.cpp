// SPDX-License-Identifier: Apache-2.0
#include <ui/document/keyframes.h>

#include <ui/document/document.h>
#include <ui/document/undocommands.h>

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace plume {

namespace {

sim::Vec3 toVec(float v) { return {v, 0.f, 0.f}; }
sim::Vec3 toVec(sim::Vec3 v) { return v; }
void fromVec(sim::Vec3 v, float &out) { out = v.x; }
void fromVec(sim::Vec3 v, sim::Vec3 &out) { out = v; }

/// Calls f with the item's Animated<> member for `p`.
template<class ItemT, class F>
decltype(auto) visit(ItemT &item, AnimProperty p, F &&f)
{
    switch (p) {
    case AnimProperty::Offset: return f(item.offset);
    case AnimProperty::Rotation: return f(item.rotation);
    case AnimProperty::Scale: return f(item.scale);
    case AnimProperty::EmitterRate: return f(item.emitter.rate);
    case AnimProperty::EmitterNoiseAmplitude: return f(item.emitter.noise.amplitude);
    case AnimProperty::ForceStrength: break;
    }
    return f(item.force.strength);
}

template<class A>
auto findKey(A &animated, double frame)
{
    return std::find_if(animated.keys.begin(), animated.keys.end(),
                        [frame](const auto &k) { return std::abs(k.frame - frame) < kSameFrame; });
}

} // namespace

QString propertyLabel(AnimProperty p)
{
    switch (p) {
    case AnimProperty::Offset: return "Offset";
    case AnimProperty::Rotation: return "Rotation";
    case AnimProperty::Scale: return "Scale";
    case AnimProperty::EmitterRate: return "Emitter rate";
    case AnimProperty::EmitterNoiseAmplitude: return "Noise amplitude";
    case AnimProperty::ForceStrength: break;
    }
    return "Force strength";
}

const char *propertyKey(AnimProperty p)
{
    switch (p) {
    case AnimProperty::Offset: return "offset";
    case AnimProperty::Rotation: return "rotation";
    case AnimProperty::Scale: return "scale";
    case AnimProperty::EmitterRate: return "rate";
    case AnimProperty::EmitterNoiseAmplitude: return "noiseAmplitude";
    case AnimProperty::ForceStrength: break;
    }
    return "strength";
}

int components(AnimProperty p)
{
    return p == AnimProperty::EmitterRate || p == AnimProperty::ForceStrength
                   || p == AnimProperty::EmitterNoiseAmplitude
               ? 1
               : 3;
}

bool isAnimated(const Item &item, AnimProperty p)
{
    return visit(item, p, [](const auto &a) { return a.isAnimated(); });
}

bool hasKeyAt(const Item &item, AnimProperty p, double frame)
{
    return visit(item, p, [frame](const auto &a) { return findKey(a, frame) != a.keys.end(); });
}

std::vector<double> keyFrames(const Item &item, AnimProperty p)
{
    return visit(item, p, [](const auto &a) {
        std::vector<double> out;
        for (const auto &k : a.keys)
            out.push_back(k.frame);
        return out;
    });
}

sim::Vec3 valueAt(const Item &item, AnimProperty p, double frame)
{
    return visit(item, p, [frame](const auto &a) { return toVec(a.at(frame)); });
}

Interpolation interpolation(const Item &item, AnimProperty p)
{
    return visit(item, p, [](const auto &a) { return a.interpolation; });
}

void setKey(Item &item, AnimProperty p, double frame, sim::Vec3 value)
{
    visit(item, p, [frame, value](auto &a) {
        auto key = findKey(a, frame);
        if (key == a.keys.end()) {
            key = std::upper_bound(a.keys.begin(), a.keys.end(), frame,
                                   [](double f, const auto &k) { return f < k.frame; });
            key = a.keys.insert(key, typename std::decay_t<decltype(a.keys)>::value_type{});
            key->frame = frame;
        }
        fromVec(value, key->value);
    });
}

bool removeKey(Item &item, AnimProperty p, double frame)
{
    return visit(item, p, [frame](auto &a) {
        const auto key = findKey(a, frame);
        if (key == a.keys.end())
            return false;
        if (a.keys.size() == 1)
            a.value = key->value;
        a.keys.erase(key);
        return true;
    });
}

bool moveKeys(Item &item, AnimProperty p, const std::vector<double> &frames, double delta)
{
    return visit(item, p, [&frames, delta](auto &a) {
        auto moving = [&frames](double f) {
            return std::any_of(frames.begin(), frames.end(),
                               [f](double m) { return std::abs(m - f) < kSameFrame; });
        };
        auto keys = a.keys;
        for (auto &k : keys)
            if (moving(k.frame)) {
                k.frame += delta;
                if (k.frame < -kSameFrame)
                    return false;
            }
        std::stable_sort(keys.begin(), keys.end(),
                         [](const auto &x, const auto &y) { return x.frame < y.frame; });
        for (std::size_t n = 1; n < keys.size(); ++n)
            if (keys[n].frame - keys[n - 1].frame < kSameFrame)
                return false;
        a.keys = std::move(keys);
        return true;
    });
}

void setInterpolation(Item &item, AnimProperty p, Interpolation i)
{
    visit(item, p, [i](auto &a) { a.interpolation = i; });
}

void keyPlacement(Item &item, double frame)
{
    for (AnimProperty p : kPlacement)
        setKey(item, p, frame, valueAt(item, p, frame));
}

void setConstant(Item &item, AnimProperty p, sim::Vec3 value)
{
    visit(item, p, [value](auto &a) { fromVec(value, a.value); });
}

bool pushItemEdits(Document *document, const QString &text,
                   const std::vector<std::pair<int, Item>> &edits)
{
    std::vector<std::pair<int, Item>> changed;
    for (const auto &[index, item] : edits)
        if (!(document->scene().items[std::size_t(index)] == item))
            changed.push_back({index, item});
    if (changed.empty())
        return false;
    if (changed.size() == 1) {
        auto *command = new ChangeValue<values::ItemValue>(document, changed[0].first,
                                                           changed[0].second);
        command->setText(text);
        document->undoStack()->push(command);
        return true;
    }
    auto *parent = new QUndoCommand(text);
    for (const auto &[index, item] : changed)
        new ChangeValue<values::ItemValue>(document, index, item, MergeId::None, 0, parent);
    document->undoStack()->push(parent);
    return true;
}

} // namespace plume
