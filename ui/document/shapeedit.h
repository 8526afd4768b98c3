#pragma once

#include <scene/scene.h>

#include <QRectF>

namespace plume {

/// Geometry of scene shapes in the x-y plane (world units), for tools and overlays.

/// The shape moved by `delta` (every position it holds: centre, ends, stroke points, image
/// rectangle).
Shape translatedShape(const Shape &shape, sim::Vec3 delta);

/// The shape scaled by `factor` (> 0) about `pivot`: positions and sizes (radius, half size,
/// stroke radii) alike.
Shape scaledShape(const Shape &shape, float factor, sim::Vec3 pivot);

/// Bounding rectangle in x-y (world units, y up: top() is the low y). Empty for "everywhere".
QRectF shapeBounds(const Shape &shape, sim::Vec3 offset);

/// Whether the world point p lies inside the shape (moved by offset), widened by `slack`.
/// "Everywhere" shapes are never hit: they are picked in the outliner.
bool shapeContains(const Shape &shape, sim::Vec3 offset, sim::Vec3 p, float slack);

/// The stroke split where the eraser disc (centre, radius) covers points: the runs of points
/// left, each with at least one point. Returns the input unchanged when no point is covered.
std::vector<std::vector<StrokePoint>> eraseStrokePoints(const std::vector<StrokePoint> &points,
                                                        sim::Vec3 centre, float radius);

/// Distance in x-y from p to the segment a-b, and where along it (0 at a, 1 at b).
float segmentDistance2D(sim::Vec3 p, sim::Vec3 a, sim::Vec3 b, float *along = nullptr);

} // namespace plume
