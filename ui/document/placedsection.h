// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <ui/document/sliceplane.h>

#include <core/scene/scene.h>

#include <QPainterPath>
#include <QRectF>
#include <QTransform>

#include <string>
#include <vector>

namespace plume {

/// What cutting a scene's shapes by a view's plane needs: the plane, the scene's dimension,
/// and for meshes the folder their files resolve against, the z plane a 2D scene cuts them
/// at and the cell size (a shell is at least two cells thick, meshShellCells).
struct SectionContext
{
    SlicePlane plane; ///< 3D: the slice; 2D scenes show the x-y plane
    bool threeD = false;
    float cutZ = 0.5f;     ///< 2D: the domain's middle z plane, where meshes are cut
    float cellSize = 0.f;  ///< world units
    std::string directory; ///< the scene's folder
    QRectF everywhere;     ///< the domain in plane coordinates ("everywhere" shapes)
};

/// The context of `scene` cut by `plane` (ignored in 2D).
SectionContext sectionContext(const Scene &scene, const SlicePlane &plane);

/// Where a placed shape meets a view's plane, in plane coordinates (x = u, y = v, world units;
/// in 2D world x-y), in one of two forms:
/// - analytic pieces (crossSection's discs, rectangles, capsules, strokes, images) mapped by
///   `transform`: the exact outline of shapes placed by a translation (any dimension) and of
///   2D shapes rotated about z or scaled in x-y (the transform then holds that placement);
/// - `polygons`: straight-edged loops, for 3D shapes that are rotated or scaled (each convex
///   piece tessellated, placed, cut and unioned) and for meshes (their section: loops filled
///   even-odd for a closed mesh, or the cut segments widened to the shell's thickness).
struct PlaneSection
{
    std::vector<Shape> pieces; ///< in plane coordinates before `transform`
    QTransform transform;      ///< plane -> plane: the 2D rotation and scale of the pieces
    QPainterPath polygons;     ///< plane coordinates, straight lines only
    QRectF everywhere;         ///< where an "everywhere" piece covers
    std::string error;         ///< a mesh whose file cannot be read: why (nothing to show)

    bool isEmpty() const { return pieces.empty() && polygons.isEmpty(); }
    /// Bounds in plane coordinates (y up); empty when the plane misses the shape and for
    /// "everywhere".
    QRectF bounds() const;
    /// Whether the plane point q lies inside, or within `slack` of the outline. "Everywhere"
    /// is never hit (it is picked in the outliner).
    bool contains(sim::Vec3 q, float slack) const;
    /// The outline as a fillable path through `planeToWidget` (an affine map from plane
    /// coordinates to pixels: curves are built in pixels, so they stay smooth at any zoom).
    QPainterPath path(const QTransform &planeToWidget) const;
};

/// The section of `shape` at `placement` (Item::placementAt) with the context's plane. In 2D
/// the shape comes back whole; meshes are cut by the plane z = cutZ. Mesh files are read
/// through loadMesh's cache and their sections kept in a small cache of their own, so drawing
/// a scene again costs a lookup.
PlaneSection planeSection(const Shape &shape, const Placement &placement,
                          const SectionContext &context);

/// A shape given in plane coordinates (a piece of crossSection) as a path in widget pixels:
/// `toWidget` is an affine map from plane coordinates (not necessarily uniform: placed
/// pieces are sheared by their rotation and scale).
QPainterPath piecePath(const Shape &piece, const QTransform &toWidget, const QRectF &everywhere);

/// Open or closed polylines joined from unordered segments (as meshSection gives them):
/// ends closer than `tolerance` are the same point. A polyline whose last point meets its
/// first is closed (the first point is not repeated).
struct Polyline
{
    std::vector<QPointF> points;
    bool closed = false;
};
std::vector<Polyline> joinSegments(const std::vector<std::array<QPointF, 2>> &segments,
                                   double tolerance);

} // namespace plume
