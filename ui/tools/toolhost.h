// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/scene/scene.h>
#include <core/sim/base/types.h>
#include <ui/document/placedsection.h>
#include <ui/document/sliceplane.h>

#include <QColor>
#include <QPainterPath>
#include <QPointF>
#include <QRectF>

#include <vector>

namespace plume {

class Document;
class ToolOptions;

/// What a tool sees of the view it works in, and all it sees: the document, the tool options,
/// the plane and frame shown, the mapping from world to widget coordinates, hit tests on the
/// items' outlines, the colours items are drawn in, and repaint requests. The Viewport
/// implements it; tools never include the viewport (so ui/viewport may include ui/tools, and
/// not the other way round).
class ToolHost
{
public:
    virtual ~ToolHost() = default;

    virtual Document *document() const = 0;
    virtual ToolOptions *toolOptions() const = 0;

    /// Whether the document's scene is 3D.
    virtual bool threeD() const = 0;
    /// The slice shown in 3D scenes (2D scenes always show the x-y plane, SlicePlane{}).
    virtual const SlicePlane &slicePlane() const = 0;
    /// The shown frame's number (0 before any).
    virtual int frameNumber() const = 0;

    /// A world point (on the plane) in widget pixels.
    virtual QPointF toWidget(sim::Vec3 world) const = 0;
    /// Widget pixels per world unit.
    virtual double pixelsPerUnit() const = 0;
    /// Where a shape at a placement (Item::placementAt) meets the view's plane, in plane
    /// coordinates (the x-y plane in 2D).
    virtual PlaneSection section(const Shape &shape, const Placement &placement) const = 0;
    /// A shape's outline (its cross-section with the plane in 3D) in widget coordinates, at
    /// a placement; empty when the plane misses it.
    virtual QPainterPath shapePath(const Shape &shape, const Placement &placement) const = 0;
    /// Bounds of the shape's cross-section in plane coordinates (y up); empty when missed.
    virtual QRectF planeBounds(const Shape &shape, const Placement &placement) const = 0;
    /// The topmost item whose outline contains the widget point, or -1. Hidden and locked
    /// items are never picked.
    virtual int itemAt(QPointF pos) const = 0;
    /// The items (in scene order) whose outline's bounds touch the widget rectangle: the
    /// rubber band. Hidden and locked items, and "everywhere" shapes, are never in it.
    virtual std::vector<int> itemsTouching(QRectF rect) const = 0;
    /// Whether the widget point is on the scale handle of item `index`.
    virtual bool scaleHandleHit(int index, QPointF pos) const = 0;
    /// Whether the widget point is on the rotate handle of item `index`.
    virtual bool rotateHandleHit(int index, QPointF pos) const = 0;
    /// The colour items of `kind` are drawn in.
    virtual QColor itemColor(ItemKind kind) const = 0;

    /// The tool's feedback changed: paint the view again.
    virtual void requestRepaint() = 0;
};

} // namespace plume
