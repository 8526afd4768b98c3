// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/scene/scene.h>

#include <vector>

namespace plume {

/// An axis-aligned plane through a 3D scene, as a slice view shows it and tools draw on it
/// (shape geometry like shapeedit.h; the frame's slice is viewport/sliceframe.h). The view's
/// 2D plane coordinates (x right, y up) are world axes u and v; w is the slice axis:
/// Z slice: (x, y), X slice: (z, y), Y slice: (x, z). In 2D scenes the plane is the Z slice
/// and shapes ignore z.
struct SlicePlane
{
    int axis = 2;          ///< 0: X, 1: Y, 2: Z (the axis the plane is normal to)
    float position = 0.5f; ///< world coordinate along `axis`

    int u() const { return axis == 0 ? 2 : 0; }
    int v() const { return axis == 1 ? 2 : 1; }
    /// World point -> plane coordinates (x = u, y = v, z = the distance along the axis from
    /// the plane).
    sim::Vec3 toPlane(sim::Vec3 world) const;
    /// Plane coordinates (x, y; z ignored) -> the world point on the plane.
    sim::Vec3 toWorld(sim::Vec3 plane) const;
    /// A world direction with its axis component removed (moves that stay in the plane).
    sim::Vec3 inPlane(sim::Vec3 direction) const;
};

/// "X", "Y" or "Z".
const char *axisName(int axis);

/// The cross-section of a shape (moved by `offset`) with the plane, in plane coordinates
/// (x = u, y = v, z = 0), as 2D shapes the x-y shape geometry understands: a sphere gives a
/// disc of radius sqrt(r^2 - d^2); a box a rectangle (a box is rotated about z only, so X and
/// Y slices cut it along an axis-aligned rectangle); a capsule or stroke the union of the
/// discs of its points (a capsule sampled every quarter radius), split where the plane leaves
/// it. Empty when the plane misses the shape. In 2D (`threeD` false) the shape comes back as
/// it is (moved by offset). Meshes, and shapes an item rotates or scales, are cut by
/// planeSection (placedsection.h), which calls this for the rest; in 3D a mesh gives nothing
/// here.
std::vector<Shape> crossSection(const Shape &shape, sim::Vec3 offset, const SlicePlane &plane,
                                bool threeD);

} // namespace plume
