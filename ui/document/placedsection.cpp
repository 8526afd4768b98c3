// SPDX-License-Identifier: Apache-2.0
#include <ui/document/placedsection.h>

#include <ui/document/shapeedit.h>

#include <core/scene/meshcoverage.h>
#include <core/scene/rasterize.h>
#include <core/scene/shapecoverage.h>

#include <QPainterPathStroker>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numbers>
#include <unordered_map>

namespace plume {

using sim::Vec3;

SectionContext sectionContext(const Scene &scene, const SlicePlane &plane)
{
    SectionContext c;
    c.threeD = scene.domain.dimension == Dimension::ThreeD;
    c.plane = c.threeD ? plane : SlicePlane{};
    c.cutZ = scene.domain.origin.z + 0.5f * scene.domain.size.z;
    c.cellSize = domainCellSize(scene.domain);
    c.directory = scene.directory;
    const sim::Domain d = makeDomain(scene.domain);
    const Vec3 lo = d.origin, size = d.extent();
    const int u = c.plane.u(), v = c.plane.v();
    c.everywhere = QRectF(lo[u], lo[v], size[u], size[v]);
    return c;
}

namespace {

// --- Tessellated convex pieces (3D shapes that are rotated or scaled) ---

constexpr int kRing = 32; ///< points around a circle
constexpr int kStacks = 12;

void addTriangle(TriangleMesh &m, std::size_t a, std::size_t b, std::size_t c)
{
    m.triangles.push_back({std::uint32_t(a), std::uint32_t(b), std::uint32_t(c)});
}

/// Two unit vectors perpendicular to `axis` and to each other.
void basis(Vec3 axis, Vec3 &e1, Vec3 &e2)
{
    const Vec3 n = axis * (1.f / length(axis));
    const Vec3 helper = std::abs(n.x) < 0.9f ? Vec3{1.f, 0.f, 0.f} : Vec3{0.f, 1.f, 0.f};
    e1 = cross(n, helper);
    e1 = e1 * (1.f / length(e1));
    e2 = cross(n, e1);
}

TriangleMesh sphereMesh(Vec3 c, float r)
{
    TriangleMesh m;
    m.vertices.push_back(c + Vec3{0.f, 0.f, r});
    for (int s = 1; s < kStacks; ++s) {
        const float theta = std::numbers::pi_v<float> * float(s) / kStacks;
        for (int k = 0; k < kRing; ++k) {
            const float phi = 2.f * std::numbers::pi_v<float> * float(k) / kRing;
            m.vertices.push_back(c
                                 + Vec3{r * std::sin(theta) * std::cos(phi),
                                        r * std::sin(theta) * std::sin(phi), r * std::cos(theta)});
        }
    }
    m.vertices.push_back(c - Vec3{0.f, 0.f, r});
    const std::size_t south = m.vertices.size() - 1;
    auto at = [](int s, int k) { return std::size_t(1 + (s - 1) * kRing + (k % kRing)); };
    for (int k = 0; k < kRing; ++k) {
        addTriangle(m, 0, at(1, k), at(1, k + 1));
        addTriangle(m, south, at(kStacks - 1, k + 1), at(kStacks - 1, k));
        for (int s = 1; s + 1 < kStacks; ++s) {
            addTriangle(m, at(s, k), at(s + 1, k), at(s + 1, k + 1));
            addTriangle(m, at(s, k), at(s + 1, k + 1), at(s, k + 1));
        }
    }
    return m;
}

/// A closed truncated cone from a (radius ra) to b (radius rb).
TriangleMesh frustumMesh(Vec3 a, Vec3 b, float ra, float rb)
{
    TriangleMesh m;
    Vec3 e1, e2;
    basis(b - a, e1, e2);
    for (int end = 0; end < 2; ++end)
        for (int k = 0; k < kRing; ++k) {
            const float phi = 2.f * std::numbers::pi_v<float> * float(k) / kRing;
            const float r = end ? rb : ra;
            m.vertices.push_back((end ? b : a) + (e1 * std::cos(phi) + e2 * std::sin(phi)) * r);
        }
    m.vertices.push_back(a);
    m.vertices.push_back(b);
    const std::size_t ca = 2 * kRing, cb = 2 * kRing + 1;
    for (int k = 0; k < kRing; ++k) {
        const std::size_t k1 = std::size_t((k + 1) % kRing), k0 = std::size_t(k);
        addTriangle(m, k0, kRing + k0, kRing + k1);
        addTriangle(m, k0, kRing + k1, k1);
        addTriangle(m, ca, k1, k0);
        addTriangle(m, cb, kRing + k0, kRing + k1);
    }
    return m;
}

TriangleMesh boxMesh(Vec3 centre, Vec3 half, float degrees)
{
    TriangleMesh m;
    const float a = degrees * std::numbers::pi_v<float> / 180.f;
    const float c = std::cos(a), s = std::sin(a);
    for (int k = 0; k < 8; ++k) {
        const float x = (k & 1 ? 1.f : -1.f) * half.x, y = (k & 2 ? 1.f : -1.f) * half.y;
        m.vertices.push_back(centre
                             + Vec3{c * x - s * y, s * x + c * y, (k & 4 ? 1.f : -1.f) * half.z});
    }
    // Two triangles per face; the faces of the corners with bit `axis` equal to `side`.
    for (int axis : {1, 2, 4})
        for (int side : {0, 1}) {
            std::vector<std::size_t> f;
            for (std::size_t k = 0; k < 8; ++k)
                if (bool(k & std::size_t(axis)) == bool(side))
                    f.push_back(k);
            addTriangle(m, f[0], f[1], f[3]);
            addTriangle(m, f[0], f[3], f[2]);
        }
    return m;
}

/// The convex pieces of an analytic 3D shape in its own frame (see shapecoverage.cpp: spheres,
/// boxes, round cones between stroke points).
std::vector<TriangleMesh> convexPieces(const Shape &s)
{
    std::vector<TriangleMesh> out;
    auto roundCone = [&](Vec3 a, Vec3 b, float ra, float rb) {
        out.push_back(sphereMesh(a, ra));
        if (length(b - a) > 0.f) {
            out.push_back(sphereMesh(b, rb));
            out.push_back(frustumMesh(a, b, ra, rb));
        }
    };
    switch (s.type) {
    case ShapeType::Sphere: out.push_back(sphereMesh(s.centre, s.radius)); break;
    case ShapeType::Box: out.push_back(boxMesh(s.centre, s.halfSize, s.rotation)); break;
    case ShapeType::Capsule: roundCone(s.start, s.end, s.radius, s.radius); break;
    case ShapeType::Stroke:
        if (s.points.size() == 1)
            roundCone(s.points[0].position, s.points[0].position, s.points[0].radius,
                      s.points[0].radius);
        for (std::size_t n = 1; n < s.points.size(); ++n)
            roundCone(s.points[n - 1].position, s.points[n].position, s.points[n - 1].radius,
                      s.points[n].radius);
        break;
    case ShapeType::Image:
    case ShapeType::Everywhere:
    case ShapeType::Mesh: break;
    }
    return out;
}

double cross2(QPointF o, QPointF a, QPointF b)
{
    return (a.x() - o.x()) * (b.y() - o.y()) - (a.y() - o.y()) * (b.x() - o.x());
}

/// Counter-clockwise convex hull (Andrew's monotone chain).
QPolygonF convexHull(std::vector<QPointF> p)
{
    std::sort(p.begin(), p.end(), [](QPointF a, QPointF b) {
        return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y());
    });
    if (p.size() < 3)
        return {};
    std::vector<QPointF> h(2 * p.size());
    std::size_t k = 0;
    for (std::size_t i = 0; i < p.size(); ++i) {
        while (k >= 2 && cross2(h[k - 2], h[k - 1], p[i]) <= 0)
            --k;
        h[k++] = p[i];
    }
    for (std::size_t i = p.size() - 1, t = k + 1; i > 0; --i) {
        while (k >= t && cross2(h[k - 2], h[k - 1], p[i - 1]) <= 0)
            --k;
        h[k++] = p[i - 1];
    }
    h.resize(k - 1);
    return QPolygonF(QList<QPointF>(h.begin(), h.end()));
}

QPointF toPlanePoint(const SlicePlane &plane, Vec3 w) { return {w[plane.u()], w[plane.v()]}; }

/// A rotated or scaled 3D analytic shape cut by the plane: the union of its convex pieces'
/// sections (convex polygons, counter-clockwise, so the winding fill joins them).
QPainterPath placedSection3D(const Shape &shape, const Placement &placement,
                             const SlicePlane &plane)
{
    QPainterPath path;
    path.setFillRule(Qt::WindingFill);
    const Affine toWorld = placementTransform(placement, shapePivot(shape));
    for (const TriangleMesh &piece : convexPieces(shape)) {
        std::vector<QPointF> points;
        for (const auto &seg : meshSection(piece, toWorld, plane.axis, plane.position))
            for (const Vec3 &p : seg)
                points.push_back(toPlanePoint(plane, p));
        const QPolygonF hull = convexHull(std::move(points));
        if (hull.size() >= 3) {
            path.addPolygon(hull);
            path.closeSubpath();
        }
    }
    return path;
}

// --- Mesh sections ---

struct MeshSectionKey
{
    MeshPtr mesh; ///< held, so that its address is not reused while cached
    Affine toWorld;
    int axis = 2;
    float at = 0.f;
    int u = 0, v = 1;
    float shellWidth = 0.f; ///< 0: a closed region

    bool operator==(const MeshSectionKey &o) const
    {
        return mesh == o.mesh && std::memcmp(&toWorld, &o.toWorld, sizeof(Affine)) == 0
               && axis == o.axis && at == o.at && u == o.u && v == o.v
               && shellWidth == o.shellWidth;
    }
};

QPainterPath meshSectionPath(const MeshSectionKey &key)
{
    std::vector<std::array<QPointF, 2>> segments;
    double extent = 0.0;
    for (const auto &seg : meshSection(*key.mesh, key.toWorld, key.axis, key.at)) {
        const QPointF a(seg[0][key.u], seg[0][key.v]), b(seg[1][key.u], seg[1][key.v]);
        segments.push_back({a, b});
        extent = std::max({extent, std::abs(a.x()), std::abs(a.y())});
    }
    QPainterPath path;
    const std::vector<Polyline> lines = joinSegments(segments, 1e-5 * std::max(extent, 1e-3));
    for (const Polyline &line : lines) {
        path.addPolygon(QPolygonF(QList<QPointF>(line.points.begin(), line.points.end())));
        if (line.closed || key.shellWidth <= 0.f)
            path.closeSubpath();
    }
    if (key.shellWidth <= 0.f) {
        path.setFillRule(Qt::OddEvenFill); // even-odd inside, as the rasterizer's 2D section
        return path;
    }
    // A shell: the cut lines widened to the thickness (square caps and mitred or bevelled
    // joins keep the outline straight-edged).
    QPainterPathStroker stroker;
    stroker.setWidth(key.shellWidth);
    stroker.setCapStyle(Qt::SquareCap);
    stroker.setJoinStyle(Qt::MiterJoin);
    QPainterPath shell = stroker.createStroke(path);
    shell.setFillRule(Qt::WindingFill);
    return shell;
}

/// The last mesh sections computed (a view draws and hit-tests the same few repeatedly).
QPainterPath cachedMeshSection(const MeshSectionKey &key)
{
    static std::vector<std::pair<MeshSectionKey, QPainterPath>> cache;
    constexpr std::size_t kEntries = 32;
    for (std::size_t n = 0; n < cache.size(); ++n)
        if (cache[n].first == key) {
            std::rotate(cache.begin(), cache.begin() + std::ptrdiff_t(n),
                        cache.begin() + std::ptrdiff_t(n) + 1);
            return cache.front().second;
        }
    QPainterPath path = meshSectionPath(key);
    if (cache.size() == kEntries)
        cache.pop_back();
    cache.insert(cache.begin(), {key, path});
    return path;
}

void addMeshSection(PlaneSection &out, const Shape &shape, const Placement &placement,
                    const SectionContext &c)
{
    MeshSectionKey key;
    const auto loaded = loadMesh(resolveImagePath(shape.file, c.directory));
    if (!loaded) {
        out.error = loaded.error();
        return;
    }
    key.mesh = loaded.value();
    key.toWorld = meshToWorld(shape, placement);
    key.axis = c.threeD ? c.plane.axis : 2;
    key.at = c.threeD ? c.plane.position : c.cutZ;
    key.u = c.plane.u();
    key.v = c.plane.v();
    if (!key.mesh->closed() || shape.fill == MeshFill::Surface)
        key.shellWidth = c.cellSize > 0.f ? meshShellCells(shape.thickness, c.cellSize) * c.cellSize
                                          : std::max(shape.thickness, 1e-4f);
    out.polygons = cachedMeshSection(key);
}

QTransform toQTransform(const Affine &a)
{
    return QTransform(a.m[0][0], a.m[1][0], a.m[0][1], a.m[1][1], a.t.x, a.t.y);
}

/// Distance from p to the nearest edge of a straight-edged path.
double edgeDistance(const QPainterPath &path, QPointF p)
{
    double best = 1e300;
    QPointF previous;
    for (int n = 0; n < path.elementCount(); ++n) {
        const QPainterPath::Element e = path.elementAt(n);
        const QPointF q(e.x, e.y);
        if (!e.isMoveTo()) {
            const Vec3 a{float(previous.x()), float(previous.y()), 0.f};
            const Vec3 b{float(q.x()), float(q.y()), 0.f};
            best = std::min(best,
                            double(segmentDistance2D({float(p.x()), float(p.y()), 0.f}, a, b)));
        }
        previous = q;
    }
    return best;
}

} // namespace

std::vector<Polyline> joinSegments(const std::vector<std::array<QPointF, 2>> &segments,
                                   double tolerance)
{
    const double cell = std::max(tolerance, 1e-12);
    auto keyOf = [cell](QPointF p, int dx, int dy) {
        const auto x = std::int64_t(std::floor(p.x() / cell)) + dx;
        const auto y = std::int64_t(std::floor(p.y() / cell)) + dy;
        return std::uint64_t(x) * 0x9E3779B97F4A7C15ull ^ std::uint64_t(y);
    };
    // Ends by grid cell; end e is point e % 2 of segment e / 2.
    std::unordered_multimap<std::uint64_t, std::size_t> ends;
    for (std::size_t s = 0; s < segments.size(); ++s)
        for (std::size_t k = 0; k < 2; ++k)
            ends.emplace(keyOf(segments[s][k], 0, 0), 2 * s + k);
    std::vector<bool> used(segments.size(), false);
    auto near = [&](QPointF a, QPointF b) {
        return std::hypot(a.x() - b.x(), a.y() - b.y()) <= tolerance;
    };
    // The unused segment end nearest to p (within tolerance), or npos.
    auto findEnd = [&](QPointF p) {
        std::size_t found = std::string::npos;
        double best = tolerance;
        for (int dx = -1; dx <= 1; ++dx)
            for (int dy = -1; dy <= 1; ++dy) {
                const auto [lo, hi] = ends.equal_range(keyOf(p, dx, dy));
                for (auto it = lo; it != hi; ++it) {
                    const std::size_t e = it->second;
                    if (used[e / 2])
                        continue;
                    const QPointF q = segments[e / 2][e % 2];
                    const double d = std::hypot(q.x() - p.x(), q.y() - p.y());
                    if (d <= best) {
                        best = d;
                        found = e;
                    }
                }
            }
        return found;
    };
    // Follows unused segments from the back of `points`; true when the chain closes.
    auto extend = [&](std::vector<QPointF> &points) {
        for (;;) {
            const std::size_t e = findEnd(points.back());
            if (e == std::string::npos)
                return false;
            used[e / 2] = true;
            const QPointF next = segments[e / 2][1 - e % 2];
            if (near(next, points.front()))
                return true;
            points.push_back(next);
        }
    };
    std::vector<Polyline> out;
    for (std::size_t s = 0; s < segments.size(); ++s) {
        if (used[s] || near(segments[s][0], segments[s][1]))
            continue;
        used[s] = true;
        Polyline line;
        line.points = {segments[s][0], segments[s][1]};
        line.closed = extend(line.points);
        if (!line.closed) {
            std::reverse(line.points.begin(), line.points.end());
            extend(line.points);
        }
        out.push_back(std::move(line));
    }
    return out;
}

PlaneSection planeSection(const Shape &shape, const Placement &placement, const SectionContext &c)
{
    PlaneSection out;
    out.everywhere = c.everywhere;
    if (shape.type == ShapeType::Mesh) {
        addMeshSection(out, shape, placement, c);
        return out;
    }
    if (shape.type == ShapeType::Everywhere) {
        out.pieces.push_back(shape);
        return out;
    }
    const Placement p = effectivePlacement(placement, !c.threeD);
    if (p.isTranslation()) {
        out.pieces = crossSection(shape, p.offset, c.plane, c.threeD);
    } else if (!c.threeD) {
        out.pieces.push_back(shape);
        out.transform = toQTransform(placementTransform(p, shapePivot(shape)));
    } else {
        out.polygons = placedSection3D(shape, p, c.plane);
    }
    return out;
}

QRectF PlaneSection::bounds() const
{
    QRectF b;
    auto unite = [&b](const QRectF &r) {
        if (!r.isNull())
            b = b.isNull() ? r : b.united(r);
    };
    if (transform.isIdentity()) {
        for (const Shape &piece : pieces)
            unite(shapeBounds(piece, {}));
    } else {
        // The exact bounds of the placed curves, from a path built at a fine scale.
        constexpr double kScale = 1e4;
        const QTransform fine = QTransform::fromScale(kScale, kScale);
        for (const Shape &piece : pieces)
            if (piece.type != ShapeType::Everywhere)
                unite(fine.inverted().mapRect((fine.inverted() * transform * fine)
                                                  .map(piecePath(piece, fine, everywhere))
                                                  .boundingRect()));
    }
    if (!polygons.isEmpty())
        unite(polygons.boundingRect());
    return b;
}

bool PlaneSection::contains(sim::Vec3 q, float slack) const
{
    if (!pieces.empty()) {
        Vec3 local = q;
        float localSlack = slack;
        if (!transform.isIdentity()) {
            const QPointF back = transform.inverted().map(QPointF(q.x, q.y));
            local = {float(back.x()), float(back.y()), 0.f};
            // The pieces' scale: the shortest of the placed unit axes.
            const double sx = std::hypot(transform.m11(), transform.m12());
            const double sy = std::hypot(transform.m21(), transform.m22());
            localSlack = float(slack / std::max(std::min(sx, sy), 1e-9));
        }
        for (const Shape &piece : pieces)
            if (shapeContains(piece, {}, local, localSlack))
                return true;
    }
    if (polygons.isEmpty())
        return false;
    const QPointF p(q.x, q.y);
    return polygons.contains(p) || edgeDistance(polygons, p) <= slack;
}

QPainterPath PlaneSection::path(const QTransform &planeToWidget) const
{
    QPainterPath out;
    out.setFillRule(Qt::WindingFill);
    if (!pieces.empty()) {
        const QTransform placed = planeToWidget.inverted() * transform * planeToWidget;
        for (const Shape &piece : pieces) {
            const QPainterPath widget = piecePath(piece, planeToWidget, everywhere);
            const bool placedPiece = !transform.isIdentity() && piece.type != ShapeType::Everywhere;
            out.addPath(placedPiece ? placed.map(widget) : widget);
        }
    }
    if (!polygons.isEmpty()) {
        QPainterPath mapped = planeToWidget.map(polygons);
        if (pieces.empty())
            return mapped; // keeps the polygons' own fill rule (even-odd for mesh regions)
        out.addPath(mapped);
    }
    return out;
}

QPainterPath piecePath(const Shape &shape, const QTransform &w, const QRectF &everywhere)
{
    const auto toWidget = [&w](Vec3 q) { return w.map(QPointF(q.x, q.y)); };
    const double z = std::hypot(w.m11(), w.m12()); // pixels per unit
    QPainterPath path;
    switch (shape.type) {
    case ShapeType::Sphere:
        path.addEllipse(toWidget(shape.centre), shape.radius * z, shape.radius * z);
        break;
    case ShapeType::Box: {
        const float a = shape.rotation * std::numbers::pi_v<float> / 180.f;
        const float c = std::cos(a), s = std::sin(a);
        const float hx = shape.halfSize.x, hy = shape.halfSize.y;
        const float corners[4][2] = {{-hx, -hy}, {hx, -hy}, {hx, hy}, {-hx, hy}};
        QPolygonF poly;
        for (const auto &k : corners)
            poly << toWidget(shape.centre + Vec3{c * k[0] - s * k[1], s * k[0] + c * k[1], 0.f});
        poly << poly.front();
        path.addPolygon(poly);
        break;
    }
    case ShapeType::Capsule: {
        QPainterPathStroker stroker;
        stroker.setWidth(2.0 * shape.radius * z);
        stroker.setCapStyle(Qt::RoundCap);
        QPainterPath line(toWidget(shape.start));
        line.lineTo(toWidget(shape.end));
        if (shape.start == shape.end)
            line.lineTo(toWidget(shape.end) + QPointF(0.01, 0));
        path = stroker.createStroke(line);
        break;
    }
    case ShapeType::Stroke: {
        // A disc at every point plus the band between neighbours.
        path.setFillRule(Qt::WindingFill);
        for (std::size_t n = 0; n < shape.points.size(); ++n) {
            const StrokePoint &a = shape.points[n];
            path.addEllipse(toWidget(a.position), a.radius * z, a.radius * z);
            if (n + 1 < shape.points.size()) {
                QPainterPathStroker stroker;
                stroker.setWidth(2.0 * a.radius * z);
                QPainterPath seg(toWidget(a.position));
                seg.lineTo(toWidget(shape.points[n + 1].position));
                path.addPath(stroker.createStroke(seg));
            }
        }
        path = path.simplified();
        break;
    }
    case ShapeType::Image:
        path.addPolygon(QPolygonF(
            {toWidget(shape.imageMin), toWidget({shape.imageMax.x, shape.imageMin.y, 0.f}),
             toWidget(shape.imageMax), toWidget({shape.imageMin.x, shape.imageMax.y, 0.f})}));
        path.closeSubpath();
        break;
    case ShapeType::Everywhere: path.addPolygon(w.map(QPolygonF(everywhere))); break;
    case ShapeType::Mesh: break; // planeSection cuts meshes into polygons
    }
    return path;
}

} // namespace plume
