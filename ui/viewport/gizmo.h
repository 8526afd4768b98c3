// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/scene/meshfile.h>
#include <core/scene/placement.h>
#include <core/scene/scene.h>

#include <vector>

namespace plume {

/// Line segments (pairs of points, x y z floats in a row) that show an item in the volume
/// view.
struct Gizmo
{
    std::vector<float> points;

    void segment(sim::Vec3 a, sim::Vec3 b);
    /// Three great circles (one per axis plane).
    void sphere(sim::Vec3 c, float r);
    /// The twelve edges of a box (rotated about z by shape.rotation) moved by `o`.
    void box(const Shape &s, sim::Vec3 o);
    /// The twelve edges of the box lo-hi mapped by `map`.
    void box(sim::Vec3 lo, sim::Vec3 hi, const Affine &map);
    /// Every point mapped by `map`.
    void transform(const Affine &map);
};

/// An item's gizmo at a placement: a sphere as three circles, a box as its edges, a capsule
/// or stroke as its axis and end spheres, all turned and sized by the placement about the
/// shape's pivot; a mesh as its placed bounding box (`mesh` is its model, or null when the
/// file cannot be read: nothing then). Images and "everywhere" have none.
Gizmo itemGizmo(const Item &item, const Placement &placement, const TriangleMesh *mesh);

} // namespace plume
