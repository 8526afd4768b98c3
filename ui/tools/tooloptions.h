// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/scene/scene.h>

#include <QColor>
#include <QObject>

namespace plume {

/// Settings shared by the painting and shape tools (the tool options dock edits them; they are
/// app preferences, remembered between runs, never scene data).
class ToolOptions : public QObject
{
    Q_OBJECT

public:
    explicit ToolOptions(QObject *parent = nullptr);

    /// Brush radius, world units.
    float radius() const { return mRadius; }
    /// Multiplies the new item's rates: emitter density/temperature/dye, force strength.
    float strength() const { return mStrength; }
    /// Coverage weight of painted points in [0, 1] (times tablet pressure when present).
    float hardness() const { return mHardness; }
    /// What the shape tools make.
    ItemKind shapeKind() const { return mShapeKind; }
    /// Dye colour of new emitters (linear RGB, 0..1).
    QColor dyeColor() const { return mDye; }

    void setRadius(float r);
    void setStrength(float s);
    void setHardness(float h);
    void setShapeKind(ItemKind k);
    void setDyeColor(const QColor &c);

    /// An item of `kind` with this tool's settings and `shape`. Force items push along
    /// `direction` (normalised; the +y axis when zero). Emitters puff from the start: the noisy
    /// source newEmitterNoise gives for `scene` (the scene the item goes into).
    Item makeItem(ItemKind kind, Shape shape, sim::Vec3 direction, const Scene &scene) const;

signals:
    void changed();

private:
    void save();

    float mRadius = 0.03f;
    float mStrength = 1.f;
    float mHardness = 1.f;
    ItemKind mShapeKind = ItemKind::Obstacle;
    QColor mDye = QColor::fromRgbF(1.f, 0.5f, 0.17f);
};

} // namespace plume
