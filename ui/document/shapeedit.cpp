// SPDX-License-Identifier: Apache-2.0
#include <ui/document/shapeedit.h>

#include <core/scene/placement.h>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace plume {

namespace {

sim::Vec3 scaledAbout(sim::Vec3 p, float factor, sim::Vec3 pivot)
{
    return pivot + (p - pivot) * factor;
}

} // namespace

Shape translatedShape(const Shape &shape, sim::Vec3 delta)
{
    Shape s = shape;
    s.centre = s.centre + delta;
    s.start = s.start + delta;
    s.end = s.end + delta;
    for (StrokePoint &p : s.points)
        p.position = p.position + delta;
    s.imageMin = s.imageMin + sim::Vec3{delta.x, delta.y, 0.f};
    s.imageMax = s.imageMax + sim::Vec3{delta.x, delta.y, 0.f};
    s.meshTranslation = s.meshTranslation + delta;
    return s;
}

Shape scaledShape(const Shape &shape, float factor, sim::Vec3 pivot)
{
    Shape s = shape;
    s.centre = scaledAbout(s.centre, factor, pivot);
    s.radius *= factor;
    s.halfSize = s.halfSize * factor;
    s.start = scaledAbout(s.start, factor, pivot);
    s.end = scaledAbout(s.end, factor, pivot);
    for (StrokePoint &p : s.points) {
        p.position = scaledAbout(p.position, factor, pivot);
        p.radius *= factor;
    }
    const sim::Vec3 flatPivot{pivot.x, pivot.y, 0.f};
    s.imageMin = scaledAbout(s.imageMin, factor, flatPivot);
    s.imageMax = scaledAbout(s.imageMax, factor, flatPivot);
    // A model's vertices go through scale, rotation, then translation: scaling its scale and
    // its translation about the pivot scales the placed model about the pivot.
    s.meshTranslation = scaledAbout(s.meshTranslation, factor, pivot);
    s.meshScale = s.meshScale * factor;
    return s;
}

float segmentDistance2D(sim::Vec3 p, sim::Vec3 a, sim::Vec3 b, float *along)
{
    const float dx = b.x - a.x, dy = b.y - a.y;
    const float len2 = dx * dx + dy * dy;
    float t = len2 > 0.f ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2 : 0.f;
    t = std::clamp(t, 0.f, 1.f);
    if (along)
        *along = t;
    return std::hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

QRectF shapeBounds(const Shape &shape, sim::Vec3 o)
{
    switch (shape.type) {
    case ShapeType::Sphere:
        return QRectF(o.x + shape.centre.x - shape.radius, o.y + shape.centre.y - shape.radius,
                      2 * shape.radius, 2 * shape.radius);
    case ShapeType::Box: {
        // The rotated box's corners.
        const float a = shape.rotation * std::numbers::pi_v<float> / 180.f;
        const float c = std::abs(std::cos(a)), s = std::abs(std::sin(a));
        const float hx = c * shape.halfSize.x + s * shape.halfSize.y;
        const float hy = s * shape.halfSize.x + c * shape.halfSize.y;
        return QRectF(o.x + shape.centre.x - hx, o.y + shape.centre.y - hy, 2 * hx, 2 * hy);
    }
    case ShapeType::Capsule: {
        const float r = shape.radius;
        return QRectF(QPointF(o.x + std::min(shape.start.x, shape.end.x) - r,
                              o.y + std::min(shape.start.y, shape.end.y) - r),
                      QPointF(o.x + std::max(shape.start.x, shape.end.x) + r,
                              o.y + std::max(shape.start.y, shape.end.y) + r));
    }
    case ShapeType::Stroke: {
        QRectF r;
        for (const StrokePoint &p : shape.points) {
            const QRectF disc(o.x + p.position.x - p.radius, o.y + p.position.y - p.radius,
                              2 * p.radius, 2 * p.radius);
            r = r.isNull() ? disc : r.united(disc);
        }
        return r;
    }
    case ShapeType::Image:
        return QRectF(QPointF(o.x + shape.imageMin.x, o.y + shape.imageMin.y),
                      QPointF(o.x + shape.imageMax.x, o.y + shape.imageMax.y));
    case ShapeType::Everywhere:
    case ShapeType::Mesh: return {}; // a mesh's outline is its section (placedsection.h)
    }
    return {};
}

bool shapeContains(const Shape &shape, sim::Vec3 o, sim::Vec3 world, float slack)
{
    const sim::Vec3 p = world - o;
    switch (shape.type) {
    case ShapeType::Sphere:
        return std::hypot(p.x - shape.centre.x, p.y - shape.centre.y) <= shape.radius + slack;
    case ShapeType::Box: {
        // Into the box's frame: rotate by -rotation about its centre.
        const float a = -shape.rotation * std::numbers::pi_v<float> / 180.f;
        const float dx = p.x - shape.centre.x, dy = p.y - shape.centre.y;
        const float lx = std::cos(a) * dx - std::sin(a) * dy;
        const float ly = std::sin(a) * dx + std::cos(a) * dy;
        return std::abs(lx) <= shape.halfSize.x + slack && std::abs(ly) <= shape.halfSize.y + slack;
    }
    case ShapeType::Capsule:
        return segmentDistance2D(p, shape.start, shape.end) <= shape.radius + slack;
    case ShapeType::Stroke:
        for (std::size_t n = 0; n < shape.points.size(); ++n) {
            const StrokePoint &a = shape.points[n];
            const StrokePoint &b = shape.points[std::min(n + 1, shape.points.size() - 1)];
            float t = 0.f;
            const float d = segmentDistance2D(p, a.position, b.position, &t);
            if (d <= a.radius + t * (b.radius - a.radius) + slack)
                return true;
        }
        return false;
    case ShapeType::Image:
        return p.x >= shape.imageMin.x - slack && p.x <= shape.imageMax.x + slack
               && p.y >= shape.imageMin.y - slack && p.y <= shape.imageMax.y + slack;
    case ShapeType::Everywhere:
    case ShapeType::Mesh: return false; // placedsection.h
    }
    return false;
}

sim::Vec3 rotatedAbout(sim::Vec3 angles, int axis, float degrees)
{
    sim::Vec3 turned = angles;
    turned[axis] += degrees;
    if (angles[(axis + 1) % 3] == 0.f && angles[(axis + 2) % 3] == 0.f)
        return turned;
    sim::Vec3 turn{};
    turn[axis] = degrees;
    // R = Rz(c) Ry(b) Rx(a): m[2][0] = -sin b, m[2][1] = cos b sin a, m[2][2] = cos b cos a,
    // m[1][0] = sin c cos b, m[0][0] = cos c cos b.
    const Affine r = rotationXYZ(turn).after(rotationXYZ(angles));
    const float toDegrees = 180.f / std::numbers::pi_v<float>;
    const float sinB = std::clamp(-r.m[2][0], -1.f, 1.f);
    const float b = std::asin(sinB);
    if (std::abs(sinB) > 0.99999f) // gimbal lock: x and z turn about the same axis
        return {0.f, b * toDegrees, std::atan2(-r.m[0][1], r.m[1][1]) * toDegrees};
    return {std::atan2(r.m[2][1], r.m[2][2]) * toDegrees, b * toDegrees,
            std::atan2(r.m[1][0], r.m[0][0]) * toDegrees};
}

Animated<sim::Vec3> rotatedAbout(const Animated<sim::Vec3> &rotation, int axis, float degrees)
{
    Animated<sim::Vec3> out = rotation;
    out.value = rotatedAbout(rotation.value, axis, degrees);
    for (Key<sim::Vec3> &key : out.keys)
        key.value = rotatedAbout(key.value, axis, degrees);
    return out;
}

std::vector<std::vector<StrokePoint>> eraseStrokePoints(const std::vector<StrokePoint> &points,
                                                        sim::Vec3 centre, float radius)
{
    std::vector<std::vector<StrokePoint>> runs(1);
    bool erased = false;
    for (const StrokePoint &p : points) {
        if (std::hypot(p.position.x - centre.x, p.position.y - centre.y) <= radius) {
            erased = true;
            if (!runs.back().empty())
                runs.emplace_back();
            continue;
        }
        runs.back().push_back(p);
    }
    if (!erased)
        return {points};
    if (runs.back().empty())
        runs.pop_back();
    return runs;
}

} // namespace plume
