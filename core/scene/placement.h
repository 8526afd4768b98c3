// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/types.h>

namespace plume {

/// Where an item's shape is at a frame: its keyframable offset, rotation and scale. The shape
/// is scaled, then rotated, about its pivot (shapePivot), then moved by the offset:
///     p -> pivot + offset + R (S (p - pivot)),  R = Rz Ry Rx (degrees about x, then y, then z).
struct Placement
{
    sim::Vec3 offset{0.f, 0.f, 0.f};
    sim::Vec3 rotation{0.f, 0.f, 0.f}; ///< degrees about x, y and z
    sim::Vec3 scale{1.f, 1.f, 1.f};    ///< per axis, non-zero

    /// Only a translation (rotation 0, scale 1): shapes keep their exact analytic coverage.
    bool isTranslation() const
    {
        return rotation == sim::Vec3{} && scale == sim::Vec3{1.f, 1.f, 1.f};
    }
    friend bool operator==(const Placement &, const Placement &) = default;
};

/// An affine map p -> m p + t (row-major 3 x 3 matrix).
struct Affine
{
    float m[3][3] = {{1.f, 0.f, 0.f}, {0.f, 1.f, 0.f}, {0.f, 0.f, 1.f}};
    sim::Vec3 t{0.f, 0.f, 0.f};

    sim::Vec3 apply(sim::Vec3 p) const
    {
        return {m[0][0] * p.x + m[0][1] * p.y + m[0][2] * p.z + t.x,
                m[1][0] * p.x + m[1][1] * p.y + m[1][2] * p.z + t.y,
                m[2][0] * p.x + m[2][1] * p.y + m[2][2] * p.z + t.z};
    }
    /// The linear part applied to a direction.
    sim::Vec3 applyLinear(sim::Vec3 v) const
    {
        return {m[0][0] * v.x + m[0][1] * v.y + m[0][2] * v.z,
                m[1][0] * v.x + m[1][1] * v.y + m[1][2] * v.z,
                m[2][0] * v.x + m[2][1] * v.y + m[2][2] * v.z};
    }
    /// This map after `inner`: p -> this(inner(p)).
    Affine after(const Affine &inner) const;
    /// The inverse map; the identity when the matrix is singular (a zero scale).
    Affine inverse() const;
};

/// Rotation by degrees about x, then y, then z (R = Rz Ry Rx).
Affine rotationXYZ(sim::Vec3 degrees);
/// p -> pivot + offset + R S (p - pivot).
Affine placementTransform(const Placement &placement, sim::Vec3 pivot);
/// The smallest absolute scale factor (a distance in the shape's frame times this is at most
/// the distance in the world).
float minScale(const Placement &placement);

} // namespace plume
