// SPDX-License-Identifier: Apache-2.0
#include <core/scene/meshcoverage.h>

#include <core/scene/coveragerows.h>

#include <openvdb/openvdb.h>
#include <openvdb/tools/MeshToVolume.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace plume {

using sim::Vec3;

namespace {

/// Converts a signed distance in cells to the analytic shapes' coverage ramp.
float ramp(float sdCells) { return std::clamp(0.5f - sdCells, 0.f, 1.f); }

/// Mesh vertices in the domain's index space: cell (i, j, k) has its centre at (i, j, k).
std::vector<openvdb::Vec3s> indexPoints(const sim::Domain &d, const TriangleMesh &mesh,
                                        const Affine &toWorld, Vec3 &lo, Vec3 &hi)
{
    std::vector<openvdb::Vec3s> points;
    points.reserve(mesh.vertices.size());
    const float inv = 1.f / d.cellSize;
    for (std::size_t n = 0; n < mesh.vertices.size(); ++n) {
        const Vec3 w = toWorld.apply(mesh.vertices[n]);
        const Vec3 p = (w - d.origin) * inv - Vec3{0.5f, 0.5f, 0.5f};
        points.emplace_back(p.x, p.y, p.z);
        lo = n == 0 ? p : Vec3{std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
        hi = n == 0 ? p : Vec3{std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
    }
    return points;
}

sim::SparseMask coverage3D(const sim::Domain &d, const TriangleMesh &mesh,
                           const MeshCoverageSettings &s)
{
    Vec3 lo, hi;
    const std::vector<openvdb::Vec3s> points = indexPoints(d, mesh, s.toWorld, lo, hi);
    const bool shell = s.fill == MeshFill::Surface || !mesh.closed();
    const float halfShell = 0.5f * meshShellCells(s.thickness, d.cellSize);
    const float band = shell ? halfShell + 2.f : 2.f;
    // Cells the mesh can cover: its index box plus the band, within the domain.
    int first[3], last[3];
    for (int a = 0; a < 3; ++a) {
        const float l = std::floor(lo[a] - band), h = std::ceil(hi[a] + band) + 1.f;
        if (!(l < float(d.cells[a])) || !(h > 0.f))
            return {};
        first[a] = int(std::max(l, 0.f));
        last[a] = int(std::min(h, float(d.cells[a])));
    }
    std::vector<openvdb::Vec3I> triangles;
    triangles.reserve(mesh.triangles.size());
    for (const auto &t : mesh.triangles)
        triangles.emplace_back(t[0], t[1], t[2]);
    openvdb::initialize();
    const openvdb::math::Transform::Ptr xform = openvdb::math::Transform::createLinearTransform(
        1.0);
    openvdb::FloatGrid::Ptr grid;
    if (shell)
        grid = openvdb::tools::meshToUnsignedDistanceField<openvdb::FloatGrid>(*xform, points,
                                                                               triangles, {}, band);
    else
        grid = openvdb::tools::meshToLevelSet<openvdb::FloatGrid>(*xform, points, triangles, band);
    const openvdb::FloatGrid &g = *grid;
    const float h = d.cellSize;
    const Vec3 boxLo{d.origin.x + first[0] * h, d.origin.y + first[1] * h,
                     d.origin.z + first[2] * h};
    const Vec3 boxHi{d.origin.x + last[0] * h, d.origin.y + last[1] * h, d.origin.z + last[2] * h};
    // Shrink the world box a little so that cellRange maps it onto exactly these cells.
    const Vec3 in{0.25f * h, 0.25f * h, 0.25f * h};
    return detail::coverBox(d, boxLo + in, boxHi - in,
                            [&](int j, int k, int i0, int i1, std::vector<float> &row) {
        openvdb::FloatGrid::ConstAccessor acc = g.getConstAccessor();
        for (int i = i0; i < i1; ++i) {
            const float v = acc.getValue(openvdb::Coord(i, j, k));
            row[std::size_t(i - i0)] = shell ? ramp(v - halfShell) : ramp(v);
        }
    });
}

/// Distance from p to the segment ab (2D, z ignored).
float segmentDistance(Vec3 p, Vec3 a, Vec3 b)
{
    const float abx = b.x - a.x, aby = b.y - a.y;
    const float len2 = abx * abx + aby * aby;
    float t = len2 > 0.f ? ((p.x - a.x) * abx + (p.y - a.y) * aby) / len2 : 0.f;
    t = std::clamp(t, 0.f, 1.f);
    const float dx = p.x - (a.x + abx * t), dy = p.y - (a.y + aby * t);
    return std::sqrt(dx * dx + dy * dy);
}

sim::SparseMask coverage2D(const sim::Domain &d, const TriangleMesh &mesh,
                           const MeshCoverageSettings &s)
{
    const auto section = meshSection(mesh, s.toWorld, 2, s.cutZ);
    if (section.empty())
        return {};
    const float h = d.cellSize;
    // Segments in index space (cell centres at integers).
    std::vector<std::array<Vec3, 2>> seg;
    seg.reserve(section.size());
    Vec3 lo{std::numeric_limits<float>::max(), std::numeric_limits<float>::max(), 0.f};
    Vec3 hi{-lo.x, -lo.y, 0.f};
    for (const auto &sg : section) {
        std::array<Vec3, 2> q;
        for (int e = 0; e < 2; ++e) {
            q[e] = {(sg[e].x - d.origin.x) / h - 0.5f, (sg[e].y - d.origin.y) / h - 0.5f, 0.f};
            lo = {std::min(lo.x, q[e].x), std::min(lo.y, q[e].y), 0.f};
            hi = {std::max(hi.x, q[e].x), std::max(hi.y, q[e].y), 0.f};
        }
        seg.push_back(q);
    }
    const bool shell = s.fill == MeshFill::Surface || !mesh.closed();
    const float halfShell = 0.5f * meshShellCells(s.thickness, h);
    const float band = (shell ? halfShell : 0.f) + 2.f;
    const int i0 = int(std::max(std::floor(lo.x - band), 0.f));
    const int i1 = int(std::min(std::ceil(hi.x + band) + 1.f, float(d.cells.x)));
    const int j0 = int(std::max(std::floor(lo.y - band), 0.f));
    const int j1 = int(std::min(std::ceil(hi.y + band) + 1.f, float(d.cells.y)));
    if (!(lo.x <= hi.x) || i0 >= i1 || j0 >= j1)
        return {};
    const int w = i1 - i0;
    // Distance to the section within the band, segment by segment (the minimum does not
    // depend on the order).
    std::vector<float> dist(std::size_t(w) * (j1 - j0), band + 1.f);
    for (const auto &q : seg) {
        const int a0 = std::max(i0, int(std::floor(std::min(q[0].x, q[1].x) - band)));
        const int a1 = std::min(i1 - 1, int(std::ceil(std::max(q[0].x, q[1].x) + band)));
        const int b0 = std::max(j0, int(std::floor(std::min(q[0].y, q[1].y) - band)));
        const int b1 = std::min(j1 - 1, int(std::ceil(std::max(q[0].y, q[1].y) + band)));
        for (int j = b0; j <= b1; ++j)
            for (int i = a0; i <= a1; ++i) {
                float &dd = dist[std::size_t(j - j0) * w + (i - i0)];
                dd = std::min(dd, segmentDistance({float(i), float(j), 0.f}, q[0], q[1]));
            }
    }
    const Vec3 boxLo{d.origin.x + i0 * h + 0.25f * h, d.origin.y + j0 * h + 0.25f * h, 0.f};
    const Vec3 boxHi{d.origin.x + i1 * h - 0.25f * h, d.origin.y + j1 * h - 0.25f * h, 0.f};
    return detail::coverBox(d, boxLo, boxHi,
                            [&](int j, int, int r0, int r1, std::vector<float> &row) {
        // Even-odd inside test along the row: crossings of the line y = j (half-open in y).
        std::vector<float> xs;
        if (!shell) {
            const float y = float(j);
            for (const auto &q : seg) {
                if ((q[0].y <= y) != (q[1].y <= y))
                    xs.push_back(q[0].x + (y - q[0].y) * (q[1].x - q[0].x) / (q[1].y - q[0].y));
            }
            std::sort(xs.begin(), xs.end());
        }
        std::size_t crossed = 0;
        for (int i = r0; i < r1; ++i) {
            const float dd = dist[std::size_t(j - j0) * w + (i - i0)];
            float v;
            if (shell) {
                v = ramp(dd - halfShell);
            } else {
                while (crossed < xs.size() && xs[crossed] < float(i))
                    ++crossed;
                v = ramp(crossed % 2 == 1 ? -dd : dd);
            }
            row[std::size_t(i - r0)] = v;
        }
    });
}

} // namespace

float meshShellCells(float thickness, float cellSize)
{
    return std::max(thickness / cellSize, 2.f);
}

std::vector<std::array<Vec3, 2>> meshSection(const TriangleMesh &mesh, const Affine &toWorld,
                                             int axis, float at)
{
    std::vector<Vec3> world(mesh.vertices.size());
    for (std::size_t n = 0; n < world.size(); ++n)
        world[n] = toWorld.apply(mesh.vertices[n]);
    std::vector<std::array<Vec3, 2>> out;
    for (const auto &t : mesh.triangles) {
        const Vec3 p[3] = {world[t[0]], world[t[1]], world[t[2]]};
        float dd[3];
        bool above[3];
        for (int c = 0; c < 3; ++c) {
            dd[c] = p[c][axis] - at;
            above[c] = dd[c] >= 0.f; // a vertex on the plane counts as above: no double edges
        }
        if (above[0] == above[1] && above[1] == above[2])
            continue;
        std::array<Vec3, 2> sg;
        int found = 0;
        for (int c = 0; c < 3 && found < 2; ++c) {
            const int e = (c + 1) % 3;
            if (above[c] == above[e])
                continue;
            const float u = dd[c] / (dd[c] - dd[e]);
            Vec3 q = p[c] + (p[e] - p[c]) * u;
            q[axis] = at;
            sg[found++] = q;
        }
        if (found == 2)
            out.push_back(sg);
    }
    return out;
}

sim::SparseMask meshCoverage(const sim::Domain &domain, const TriangleMesh &mesh,
                             const MeshCoverageSettings &settings)
{
    if (mesh.triangles.empty())
        return {};
    return domain.is2D() ? coverage2D(domain, mesh, settings) : coverage3D(domain, mesh, settings);
}

} // namespace plume
