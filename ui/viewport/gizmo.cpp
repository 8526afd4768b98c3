// SPDX-License-Identifier: Apache-2.0
#include <ui/viewport/gizmo.h>

#include <core/scene/rasterize.h>
#include <core/scene/shapecoverage.h>

#include <cmath>
#include <numbers>

namespace plume {

void Gizmo::segment(sim::Vec3 a, sim::Vec3 b)
{
    for (sim::Vec3 p : {a, b})
        points.insert(points.end(), {p.x, p.y, p.z});
}

void Gizmo::sphere(sim::Vec3 c, float r)
{
    constexpr int n = 32;
    for (int axis = 0; axis < 3; ++axis)
        for (int k = 0; k < n; ++k) {
            auto at = [&](int s) {
                const float a = 2.f * std::numbers::pi_v<float> * float(s) / n;
                sim::Vec3 p = c;
                p[(axis + 1) % 3] += r * std::cos(a);
                p[(axis + 2) % 3] += r * std::sin(a);
                return p;
            };
            segment(at(k), at(k + 1));
        }
}

void Gizmo::box(const Shape &s, sim::Vec3 o)
{
    const float a = s.rotation * std::numbers::pi_v<float> / 180.f;
    const float c = std::cos(a), sn = std::sin(a);
    auto corner = [&](int k) {
        const float x = (k & 1 ? 1.f : -1.f) * s.halfSize.x;
        const float y = (k & 2 ? 1.f : -1.f) * s.halfSize.y;
        const float z = (k & 4 ? 1.f : -1.f) * s.halfSize.z;
        return s.centre + o + sim::Vec3{c * x - sn * y, sn * x + c * y, z};
    };
    for (int k = 0; k < 8; ++k)
        for (int bit : {1, 2, 4})
            if (!(k & bit))
                segment(corner(k), corner(k | bit));
}

void Gizmo::box(sim::Vec3 lo, sim::Vec3 hi, const Affine &map)
{
    auto corner = [&](int k) {
        return map.apply({k & 1 ? hi.x : lo.x, k & 2 ? hi.y : lo.y, k & 4 ? hi.z : lo.z});
    };
    for (int k = 0; k < 8; ++k)
        for (int bit : {1, 2, 4})
            if (!(k & bit))
                segment(corner(k), corner(k | bit));
}

void Gizmo::transform(const Affine &map)
{
    for (std::size_t n = 0; n + 2 < points.size(); n += 3) {
        const sim::Vec3 p = map.apply({points[n], points[n + 1], points[n + 2]});
        points[n] = p.x;
        points[n + 1] = p.y;
        points[n + 2] = p.z;
    }
}

Gizmo itemGizmo(const Item &item, const Placement &placement, const TriangleMesh *mesh)
{
    Gizmo g;
    const Shape &s = item.shape;
    switch (s.type) {
    case ShapeType::Sphere: g.sphere(s.centre, s.radius); break;
    case ShapeType::Box: g.box(s, {}); break;
    case ShapeType::Capsule:
        g.segment(s.start, s.end);
        g.sphere(s.start, s.radius);
        g.sphere(s.end, s.radius);
        break;
    case ShapeType::Stroke:
        for (std::size_t n = 0; n + 1 < s.points.size(); ++n)
            g.segment(s.points[n].position, s.points[n + 1].position);
        if (!s.points.empty()) {
            g.sphere(s.points.front().position, s.points.front().radius);
            if (s.points.size() > 1)
                g.sphere(s.points.back().position, s.points.back().radius);
        }
        break;
    case ShapeType::Mesh:
        if (mesh)
            g.box(mesh->lo, mesh->hi, meshToWorld(s, placement));
        return g;
    case ShapeType::Image:
    case ShapeType::Everywhere: break;
    }
    g.transform(placementTransform(placement, shapePivot(s)));
    return g;
}

} // namespace plume
