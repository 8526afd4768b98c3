// SPDX-License-Identifier: Apache-2.0
#include <ui/document/sliceplane.h>

#include <core/scene/shapecoverage.h>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace plume {

sim::Vec3 SlicePlane::toPlane(sim::Vec3 w) const { return {w[u()], w[v()], w[axis] - position}; }

sim::Vec3 SlicePlane::toWorld(sim::Vec3 p) const
{
    sim::Vec3 w;
    w[u()] = p.x;
    w[v()] = p.y;
    w[axis] = position;
    return w;
}

sim::Vec3 SlicePlane::inPlane(sim::Vec3 d) const
{
    d[axis] = 0.f;
    return d;
}

const char *axisName(int axis) { return axis == 0 ? "X" : (axis == 1 ? "Y" : "Z"); }

namespace {

/// The interval of t where lo <= a + b t <= hi (empty: first > second).
std::pair<float, float> solveBand(float a, float b, float lo, float hi)
{
    if (std::abs(b) < 1e-12f)
        return a >= lo && a <= hi ? std::pair{-1e30f, 1e30f} : std::pair{1.f, -1.f};
    float t0 = (lo - a) / b, t1 = (hi - a) / b;
    if (t0 > t1)
        std::swap(t0, t1);
    return {t0, t1};
}

/// The X or Y cut through a box rotated about z: the interval of the other in-plane axis
/// (y for an X slice, x for a Y slice) inside the rotated rectangle.
std::pair<float, float> boxCut(const Shape &box, sim::Vec3 centre, int axis, float position)
{
    // Local coordinates: l = R(-rotation) (p - centre).
    const float a = -box.rotation * std::numbers::pi_v<float> / 180.f;
    const float c = std::cos(a), s = std::sin(a);
    const float fixed = position - centre[axis];
    // lx = c dx - s dy, ly = s dx + c dy; one of dx, dy is fixed, the other is t.
    const float ax = axis == 0 ? c * fixed : -s * fixed, bx = axis == 0 ? -s : c;
    const float ay = axis == 0 ? s * fixed : c * fixed, by = axis == 0 ? c : s;
    auto [x0, x1] = solveBand(ax, bx, -box.halfSize.x, box.halfSize.x);
    auto [y0, y1] = solveBand(ay, by, -box.halfSize.y, box.halfSize.y);
    const int other = axis == 0 ? 1 : 0;
    return {centre[other] + std::max(x0, y0), centre[other] + std::min(x1, y1)};
}

/// Discs of sphere points cut by the plane, split into runs where the plane leaves them.
void cutPoints(const std::vector<StrokePoint> &points, const SlicePlane &plane,
               std::vector<Shape> &out)
{
    Shape run;
    run.type = ShapeType::Stroke;
    auto flush = [&] {
        if (!run.points.empty())
            out.push_back(run);
        run.points.clear();
    };
    for (const StrokePoint &p : points) {
        const sim::Vec3 q = plane.toPlane(p.position);
        const float r2 = p.radius * p.radius - q.z * q.z;
        if (r2 <= 0.f) {
            flush();
            continue;
        }
        StrokePoint cut = p;
        cut.position = {q.x, q.y, 0.f};
        cut.radius = std::sqrt(r2);
        run.points.push_back(cut);
    }
    flush();
}

} // namespace

std::vector<Shape> crossSection(const Shape &shape, sim::Vec3 o, const SlicePlane &plane,
                                bool threeD)
{
    std::vector<Shape> out;
    if (!threeD) {
        out.push_back(translated(shape, o));
        return out;
    }
    switch (shape.type) {
    case ShapeType::Sphere: {
        const sim::Vec3 q = plane.toPlane(shape.centre + o);
        const float r2 = shape.radius * shape.radius - q.z * q.z;
        if (r2 > 0.f) {
            Shape disc = shape;
            disc.centre = {q.x, q.y, 0.f};
            disc.radius = std::sqrt(r2);
            out.push_back(disc);
        }
        break;
    }
    case ShapeType::Box: {
        const sim::Vec3 centre = shape.centre + o;
        const sim::Vec3 q = plane.toPlane(centre);
        Shape rect = shape;
        if (plane.axis == 2) {
            if (std::abs(q.z) > shape.halfSize.z)
                break;
            rect.centre = {q.x, q.y, 0.f};
        } else {
            const auto [lo, hi] = boxCut(shape, centre, plane.axis, plane.position);
            if (lo > hi || std::abs(q.z) > shape.halfSize.x + shape.halfSize.y)
                break;
            // The z extent goes to u (X slice) or v (Y slice); the cut interval to the other.
            const float zlo = centre.z - shape.halfSize.z, zhi = centre.z + shape.halfSize.z;
            const bool zIsU = plane.axis == 0;
            const float ulo = zIsU ? zlo : lo, uhi = zIsU ? zhi : hi;
            const float vlo = zIsU ? lo : zlo, vhi = zIsU ? hi : zhi;
            rect.rotation = 0.f;
            rect.centre = {0.5f * (ulo + uhi), 0.5f * (vlo + vhi), 0.f};
            rect.halfSize = {0.5f * (uhi - ulo), 0.5f * (vhi - vlo), 0.f};
        }
        out.push_back(rect);
        break;
    }
    case ShapeType::Capsule: {
        const sim::Vec3 a = shape.start + o, b = shape.end + o;
        const int n = std::max(1, int(std::ceil(length(b - a) / (0.25f * shape.radius))));
        std::vector<StrokePoint> points(std::size_t(n) + 1);
        for (int k = 0; k <= n; ++k) {
            points[std::size_t(k)].position = a + (b - a) * (float(k) / float(n));
            points[std::size_t(k)].radius = shape.radius;
        }
        cutPoints(points, plane, out);
        break;
    }
    case ShapeType::Stroke: {
        std::vector<StrokePoint> points = shape.points;
        for (StrokePoint &p : points)
            p.position = p.position + o;
        cutPoints(points, plane, out);
        break;
    }
    case ShapeType::Image: break; // 2D only
    case ShapeType::Everywhere: out.push_back(shape); break;
    case ShapeType::Mesh: break; // cut by planeSection (placedsection.h)
    }
    return out;
}

} // namespace plume
