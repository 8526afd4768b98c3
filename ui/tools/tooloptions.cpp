// SPDX-License-Identifier: Apache-2.0
#include <ui/tools/tooloptions.h>

#include <core/scene/builtinscene.h>

#include <ui/preferences.h>

#include <algorithm>
#include <cmath>

namespace plume {

namespace {

const Preference<double> kRadius("tools/radius", 0.03);
const Preference<double> kStrength("tools/strength", 1.0);
const Preference<double> kHardness("tools/hardness", 1.0);
const Preference<int> kShapeKind("tools/shapeKind", int(ItemKind::Obstacle));
const Preference<QColor> kDye("tools/dye", QColor::fromRgbF(1.f, 0.5f, 0.17f));

} // namespace

ToolOptions::ToolOptions(QObject *parent)
    : QObject(parent)
    , mRadius(std::clamp(float(kRadius.get()), 0.001f, 1.f))
    , mStrength(std::clamp(float(kStrength.get()), 0.f, 100.f))
    , mHardness(std::clamp(float(kHardness.get()), 0.f, 1.f))
    , mShapeKind(ItemKind(std::clamp(kShapeKind.get(), 0, 2)))
    , mDye(kDye.get())
{}

void ToolOptions::setRadius(float r)
{
    mRadius = std::clamp(r, 0.001f, 1.f);
    save();
}

void ToolOptions::setStrength(float s)
{
    mStrength = std::clamp(s, 0.f, 100.f);
    save();
}

void ToolOptions::setHardness(float h)
{
    mHardness = std::clamp(h, 0.f, 1.f);
    save();
}

void ToolOptions::setShapeKind(ItemKind k)
{
    mShapeKind = k;
    save();
}

void ToolOptions::setDyeColor(const QColor &c)
{
    mDye = c;
    save();
}

void ToolOptions::save()
{
    kRadius.set(mRadius);
    kStrength.set(mStrength);
    kHardness.set(mHardness);
    kShapeKind.set(int(mShapeKind));
    kDye.set(mDye);
    Q_EMIT changed();
}

Item ToolOptions::makeItem(ItemKind kind, Shape shape, sim::Vec3 direction,
                           const Scene &scene) const
{
    Item item;
    item.kind = kind;
    item.shape = std::move(shape);
    if (kind == ItemKind::Emitter) {
        // Like the default plume's source: dense, hot, coloured smoke that puffs.
        item.emitter.density = 3.f * mStrength;
        item.emitter.temperature = 6.f * mStrength;
        item.emitter.dye = sim::Vec3{float(mDye.redF()), float(mDye.greenF()), float(mDye.blueF())}
                           * item.emitter.density;
        item.emitter.noise = newEmitterNoise(item.shape, scene);
    } else if (kind == ItemKind::ForceField) {
        const float len = std::hypot(direction.x, direction.y);
        item.force.type = sim::ForceType::Directional;
        item.force.direction = len > 0.f ? sim::Vec3{direction.x / len, direction.y / len, 0.f}
                                         : sim::Vec3{0.f, 1.f, 0.f};
        item.force.strength = 10.f * mStrength;
    }
    return item;
}

} // namespace plume
