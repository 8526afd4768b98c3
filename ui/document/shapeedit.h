// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/scene/scene.h>

#include <QRectF>

namespace plume {

/// Geometry of scene shapes in the x-y plane (world units), for tools and overlays.

/// The shape moved by `delta` (every position it holds: centre, ends, stroke points, image
/// rectangle, a model's translation).
Shape translatedShape(const Shape &shape, sim::Vec3 delta);

/// The shape scaled by `factor` (> 0) about `pivot`: positions and sizes (radius, half size,
/// stroke radii, a model's translation and scale) alike. With any item placement, the placed
/// shape is scaled about the placed pivot (pivot + offset).
Shape scaledShape(const Shape &shape, float factor, sim::Vec3 pivot);

/// Bounding rectangle in x-y (world units, y up: top() is the low y). Empty for "everywhere"
/// and meshes (a mesh's outline is its section: placedsection.h).
QRectF shapeBounds(const Shape &shape, sim::Vec3 offset);

/// Whether the world point p lies inside the shape (moved by offset), widened by `slack`.
/// "Everywhere" shapes are never hit: they are picked in the outliner. Meshes: placedsection.h.
bool shapeContains(const Shape &shape, sim::Vec3 offset, sim::Vec3 p, float slack);

/// Rotation angles (degrees about x, then y, then z: placement.h) followed by a turn of
/// `degrees` about the world axis `axis` (0: x, 1: y, 2: z). Angles that turn about that axis
/// alone just add (370 stays 370); otherwise the combined rotation is taken apart again into
/// angles in (-180, 180].
sim::Vec3 rotatedAbout(sim::Vec3 angles, int axis, float degrees);
/// An item's rotation turned by `degrees` about `axis`: the constant and every key alike, so a
/// keyframed spin keeps its motion.
Animated<sim::Vec3> rotatedAbout(const Animated<sim::Vec3> &rotation, int axis, float degrees);

/// The stroke split where the eraser disc (centre, radius) covers points: the runs of points
/// left, each with at least one point. Returns the input unchanged when no point is covered.
std::vector<std::vector<StrokePoint>> eraseStrokePoints(const std::vector<StrokePoint> &points,
                                                        sim::Vec3 centre, float radius);

/// Distance in x-y from p to the segment a-b, and where along it (0 at a, 1 at b).
float segmentDistance2D(sim::Vec3 p, sim::Vec3 a, sim::Vec3 b, float *along = nullptr);

} // namespace plume
