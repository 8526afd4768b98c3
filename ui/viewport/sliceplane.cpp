#include "sliceplane.h"

#include <scene/shapecoverage.h>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace plume {

sim::Vec3 SlicePlane::toPlane(sim::Vec3 w) const
{
    return {w[u()], w[v()], w[axis] - position};
}

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

int sliceIndex(const sim::Domain &domain, const SlicePlane &plane)
{
    const int n = domain.cells[plane.axis];
    const float cell = (plane.position - domain.origin[plane.axis]) / domain.cellSize;
    return std::clamp(int(std::floor(cell)), 0, n - 1);
}

namespace {

/// Copies the layer `index` of a 3D grid along `axis` into a (nu, nv, 1) grid in plane order.
void copyLayer(const sim::ScalarGrid &full, const SlicePlane &plane, int index,
               sim::ScalarGrid &out)
{
    const sim::Int3 n = full.size();
    const int nu = n[plane.u()], nv = n[plane.v()];
    out.reshape({nu, nv, 1}, {0.5f, 0.5f, 0.5f});
    sim::Int3 c;
    c[plane.axis] = index;
    for (int j = 0; j < nv; ++j) {
        c[plane.v()] = j;
        for (int i = 0; i < nu; ++i) {
            c[plane.u()] = i;
            out(i, j, 0) = full(c.x, c.y, c.z);
        }
    }
}

} // namespace

bool sliceFrame(const FrameData &frame, const SlicePlane &plane, FrameData &out)
{
    const sim::Domain &d = frame.domain;
    if (d.cells.z == 1) {
        out = frame;
        return true;
    }
    const int index = sliceIndex(d, plane);
    if (!frame.volume) {
        if (plane.axis != 2 || index != d.cells.z / 2)
            return false;
        out = frame;
        out.domain.cells.z = 1;
        out.domain.origin.z = d.origin.z + index * d.cellSize;
        return true;
    }
    const FrameVolume &vol = *frame.volume;
    out.frame = frame.frame;
    out.time = frame.time;
    out.msPerStep = frame.msPerStep;
    out.substeps = frame.substeps;
    out.pressureIterations = frame.pressureIterations;
    out.pressureResidual = frame.pressureResidual;
    out.pressureTrouble = frame.pressureTrouble;
    out.volume.reset();
    out.domain = d;
    out.domain.cells = {d.cells[plane.u()], d.cells[plane.v()], 1};
    out.domain.origin = {d.origin[plane.u()], d.origin[plane.v()],
                         d.origin[plane.axis] + index * d.cellSize};
    const DisplayField velocity[3] = {DisplayField::VelocityX, DisplayField::VelocityY,
                                      DisplayField::VelocityZ};
    for (int f = 0; f < int(DisplayField::Count); ++f) {
        out.minimum[f] = frame.minimum[f];
        out.maximum[f] = frame.maximum[f];
        out.fields[f] = sim::ScalarGrid();
    }
    for (int f = 0; f < int(DisplayField::Count); ++f) {
        // The in-plane velocity goes to x (u) and y (v); the normal component to z.
        DisplayField target = DisplayField(f);
        if (f == int(velocity[plane.u()]))
            target = DisplayField::VelocityX;
        else if (f == int(velocity[plane.v()]))
            target = DisplayField::VelocityY;
        else if (f == int(velocity[plane.axis]))
            target = DisplayField::VelocityZ;
        if (vol.fields[f].count() > 0)
            copyLayer(vol.fields[f], plane, index, out.fields[int(target)]);
    }
    const int nu = out.domain.cells.x, nv = out.domain.cells.y;
    out.solids.reshape({nu, nv, 1});
    sim::Int3 c;
    c[plane.axis] = index;
    for (int j = 0; j < nv; ++j) {
        c[plane.v()] = j;
        for (int i = 0; i < nu; ++i) {
            c[plane.u()] = i;
            out.solids.setSolid(i, j, 0, vol.solids.isSolid(c.x, c.y, c.z));
        }
    }
    return true;
}

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
    case ShapeType::Image:
        break; // 2D only
    case ShapeType::Everywhere:
        out.push_back(shape);
        break;
    }
    return out;
}

} // namespace plume
