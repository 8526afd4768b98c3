// SPDX-License-Identifier: Apache-2.0
#include <core/sim/sparse/compositegrid.h>

#include <core/sim/base/parallel.h>

#include <algorithm>

namespace plume::sim {

namespace {

// Whether the fine cells of `box` make one solid coarse cell: at least half of them solid, or
// one whole slice across an axis (a plate one cell thin).
bool coarseSolid(const FlagGrid &solids, Int3 lo, Int3 size, int dims, bool allSolid)
{
    if (size.x == 1 && size.y == 1 && size.z == 1)
        return solids.isSolid(lo.x, lo.y, lo.z);
    int count = 0;
    std::array<std::array<int, CompositeGrid::kTile>, 3> slice{};
    for (int k = 0; k < size.z; ++k)
        for (int j = 0; j < size.y; ++j)
            for (int i = 0; i < size.x; ++i)
                if (solids.isSolid(lo.x + i, lo.y + j, lo.z + k)) {
                    ++count;
                    ++slice[0][std::size_t(i)];
                    ++slice[1][std::size_t(j)];
                    ++slice[2][std::size_t(k)];
                }
    if (allSolid)
        return count == int(size.volume());
    if (2 * count >= int(size.volume()))
        return true;
    for (int a = 0; a < dims; ++a) {
        const int across = int(size.volume() / size[a]);
        for (int n = 0; n < size[a]; ++n)
            if (slice[std::size_t(a)][std::size_t(n)] == across)
                return true;
    }
    return false;
}

} // namespace

bool CompositeGrid::fits(const Domain &d)
{
    const Int3 n = d.cells;
    const bool xy = n.x > 0 && n.y > 0 && n.x % kTile == 0 && n.y % kTile == 0;
    return xy && (d.is2D() || (n.z > 0 && n.z % kTile == 0));
}

Int3 CompositeGrid::tileOf(std::size_t t) const
{
    return {int(t % std::size_t(tiles.x)), int((t / std::size_t(tiles.x)) % std::size_t(tiles.y)),
            int(t / (std::size_t(tiles.x) * std::size_t(tiles.y)))};
}

void CompositeGrid::build(const Domain &d, const std::vector<std::uint8_t> &levels,
                          const FlagGrid &solids, SolidRule rule)
{
    domain = d;
    dims = d.dimensions();
    tiles = {d.cells.x / kTile, d.cells.y / kTile, dims == 3 ? d.cells.z / kTile : 1};
    level = levels;
    const std::size_t count = std::size_t(tiles.volume());
    first.assign(count + 1, 0);
    for (std::size_t t = 0; t < count; ++t)
        first[t + 1] = first[t] + std::uint32_t(extent(t).volume());

    neighbours.assign(count * 6, kWall);
    for (std::size_t t = 0; t < count; ++t) {
        const Int3 c = tileOf(t);
        for (int a = 0; a < dims; ++a)
            for (int side = 0; side < 2; ++side) {
                Int3 n = c;
                n[a] += side ? 1 : -1;
                std::int32_t &out = neighbours[t * 6 + std::size_t(2 * a + side)];
                if (n[a] >= 0 && n[a] < tiles[a]) {
                    out = std::int32_t(tileIndex(n));
                } else if (d.boundary(a, side != 0) == Boundary::Periodic) {
                    n[a] = (n[a] + tiles[a]) % tiles[a];
                    out = std::int32_t(tileIndex(n));
                } else {
                    out = d.boundary(a, side != 0) == Boundary::Open ? kOpen : kWall;
                }
            }
    }

    solid.assign(cellCount(), 0);
    if (solids.size() != d.cells || !solids.anySolid())
        return;
    forEachJob(std::int64_t(count), [&](std::int64_t tj) {
        const std::size_t t = std::size_t(tj);
        const Int3 c = tileOf(t), e = extent(t);
        const int s = scale(t);
        const Int3 size{s, s, dims == 3 ? s : 1};
        for (int k = 0; k < e.z; ++k)
            for (int j = 0; j < e.y; ++j)
                for (int i = 0; i < e.x; ++i) {
                    const Int3 lo{c.x * kTile + i * s, c.y * kTile + j * s,
                                  dims == 3 ? c.z * kTile + k * s : 0};
                    solid[cell(t, {i, j, k})] = coarseSolid(solids, lo, size, dims,
                                                            rule == SolidRule::AllSolid)
                                                    ? 1
                                                    : 0;
                }
    });
}

std::vector<std::uint8_t> CompositeGrid::levelsAround(const Domain &d,
                                                      const std::vector<std::uint8_t> &active)
{
    const int dims = d.dimensions();
    const Int3 tiles{d.cells.x / kTile, d.cells.y / kTile, dims == 3 ? d.cells.z / kTile : 1};
    const std::int64_t count = tiles.volume();
    std::vector<std::uint8_t> levels(std::size_t(count), std::uint8_t(kLevels - 1));
    for (std::size_t t = 0; t < active.size() && t < levels.size(); ++t)
        if (active[t])
            levels[t] = 0;
    // Chebyshev distance by repeated dilation: a tile one step further than a neighbour at
    // distance p - 1 is at distance p.
    for (int p = 1; p < kLevels - 1; ++p) {
        const std::vector<std::uint8_t> before = levels;
        forEachIndex(count, [&](std::int64_t n) {
            if (before[std::size_t(n)] < p)
                return;
            const Int3 c{int(n % tiles.x), int((n / tiles.x) % tiles.y),
                         int(n / (tiles.x * std::int64_t(tiles.y)))};
            for (int dz = dims == 3 ? -1 : 0; dz <= (dims == 3 ? 1 : 0); ++dz)
                for (int dy = -1; dy <= 1; ++dy)
                    for (int dx = -1; dx <= 1; ++dx) {
                        Int3 q{c.x + dx, c.y + dy, c.z + dz};
                        bool inside = true;
                        for (int a = 0; a < dims; ++a) {
                            if (q[a] >= 0 && q[a] < tiles[a])
                                continue;
                            if (d.boundary(a, q[a] >= tiles[a]) == Boundary::Periodic)
                                q[a] = (q[a] + tiles[a]) % tiles[a];
                            else
                                inside = false;
                        }
                        if (!inside)
                            continue;
                        const std::size_t m = std::size_t(q.x)
                                              + std::size_t(tiles.x)
                                                    * (std::size_t(q.y)
                                                       + std::size_t(tiles.y) * q.z);
                        if (before[m] == p - 1) {
                            levels[std::size_t(n)] = std::uint8_t(p);
                            return;
                        }
                    }
        });
    }
    return levels;
}

std::vector<std::uint8_t> CompositeGrid::raised(const std::vector<std::uint8_t> &levels,
                                                int atLeast)
{
    std::vector<std::uint8_t> out(levels);
    for (std::uint8_t &l : out)
        l = std::uint8_t(std::max(int(l), atLeast));
    return out;
}

std::size_t CompositeGrid::memoryBytes() const
{
    return level.capacity() + first.capacity() * sizeof(std::uint32_t) + solid.capacity()
           + neighbours.capacity() * sizeof(std::int32_t);
}

Int3 CompositeFaces::faceExtent(const CompositeGrid &g, std::size_t t, int axis)
{
    Int3 n = g.extent(t);
    if (g.neighbours[t * 6 + std::size_t(2 * axis + 1)] < 0
        && g.domain.boundary(axis, true) != Boundary::Periodic)
        n[axis] += 1;
    return n;
}

void CompositeFaces::shape(const CompositeGrid &g, bool values)
{
    for (int a = 0; a < 3; ++a) {
        faceFirst[std::size_t(a)].clear();
        faceCounts[std::size_t(a)].clear();
        value[std::size_t(a)].clear();
        if (a >= g.dims)
            continue;
        std::vector<std::uint32_t> &f = faceFirst[std::size_t(a)];
        std::vector<Int3> &counts = faceCounts[std::size_t(a)];
        f.assign(g.tileCount() + 1, 0);
        counts.resize(g.tileCount());
        for (std::size_t t = 0; t < g.tileCount(); ++t) {
            counts[t] = faceExtent(g, t, a);
            f[t + 1] = f[t] + std::uint32_t(counts[t].volume());
        }
        if (values)
            value[std::size_t(a)].assign(f.back(), 0.f);
    }
}

void CompositeFaces::fromMac(const CompositeGrid &g, const MacGrid &mac)
{
    shape(g);
    forEachJob(std::int64_t(g.tileCount()), [&](std::int64_t tj) {
        const std::size_t t = std::size_t(tj);
        const Int3 o{g.tileOf(t).x * CompositeGrid::kTile, g.tileOf(t).y * CompositeGrid::kTile,
                     g.dims == 3 ? g.tileOf(t).z * CompositeGrid::kTile : 0};
        const int s = g.scale(t);
        const int sz = g.dims == 3 ? s : 1;
        for (int a = 0; a < g.dims; ++a) {
            const ScalarGrid &src = mac.component(a);
            const Int3 n = faceExtent(g, t, a);
            for (int k = 0; k < n.z; ++k)
                for (int j = 0; j < n.y; ++j)
                    for (int i = 0; i < n.x; ++i) {
                        const Int3 lo{o.x + i * s, o.y + j * s, o.z + k * sz};
                        Int3 span{s, s, sz};
                        span[a] = 1;
                        double sum = 0.0;
                        for (int z = 0; z < span.z; ++z)
                            for (int y = 0; y < span.y; ++y)
                                for (int x = 0; x < span.x; ++x)
                                    sum += src(lo.x + x, lo.y + y, lo.z + z);
                        value[std::size_t(a)][face(g, t, a, {i, j, k})] = float(
                            sum / double(span.volume()));
                    }
        }
    });
}

const float *CompositeFaces::at(const CompositeGrid &g, int axis, Int3 fine) const
{
    const Domain &d = g.domain;
    if (fine[axis] == d.cells[axis] && d.boundary(axis, true) == Boundary::Periodic)
        fine[axis] = 0;
    Int3 cellOf = fine;
    const bool highSide = fine[axis] == d.cells[axis];
    if (highSide)
        cellOf[axis] -= 1;
    const Int3 tc{cellOf.x / CompositeGrid::kTile, cellOf.y / CompositeGrid::kTile,
                  g.dims == 3 ? cellOf.z / CompositeGrid::kTile : 0};
    const std::size_t t = g.tileIndex(tc);
    const int s = g.scale(t);
    Int3 local{(fine.x - tc.x * CompositeGrid::kTile), (fine.y - tc.y * CompositeGrid::kTile),
               g.dims == 3 ? (fine.z - tc.z * CompositeGrid::kTile) : 0};
    if (local[axis] % s != 0)
        return nullptr;
    for (int a = 0; a < g.dims; ++a)
        local[a] /= s;
    return &value[std::size_t(axis)][face(g, t, axis, local)];
}

// Tile by tile: each tile writes the fine faces on its cells' low sides (and the domain's high
// layer where it lies at the high side), so no face is written twice. The stored faces are found
// by their local index: in this tile, or at its top along the axis, the next tile's low face (at
// that tile's level, across a periodic side too) or this tile's own high layer at the domain's
// side. A fine face between two coarse faces takes the linear interpolation along the axis. The
// bytes are those of looking every fine face up with at() (tests/sim_composite).
void CompositeFaces::toMac(const CompositeGrid &g, MacGrid &mac) const
{
    if (mac.cells() != g.domain.cells)
        mac.reshape(g.domain.cells);
    constexpr int kTile = CompositeGrid::kTile;
    const Int3 cells = g.domain.cells;
    forEachJob(std::int64_t(g.tileCount()), [&](std::int64_t tj) {
        const std::size_t t = std::size_t(tj);
        const Int3 tc = g.tileOf(t);
        const Int3 o{tc.x * kTile, tc.y * kTile, g.dims == 3 ? tc.z * kTile : 0};
        const int level = g.level[t];
        const int s = 1 << level; // cells per edge: shifts and masks stand in for / and %
        for (int a = 0; a < g.dims; ++a) {
            ScalarGrid &dst = mac.component(a);
            const float *stored = value[std::size_t(a)].data();
            const Int3 fc = faceCounts[std::size_t(a)][t];
            const float *own = stored + faceFirst[std::size_t(a)][t];
            const auto ownAt = [&](Int3 q) {
                return own[std::size_t(q.x) + std::size_t(fc.x) * (q.y + std::size_t(fc.y) * q.z)];
            };
            // The tile above along the axis (across a periodic side too), or a wall or open side.
            const std::int32_t next = g.neighbours[t * 6 + std::size_t(2 * a + 1)];
            // The local face block: the tile's cells, plus the domain's high layer at its end.
            Int3 n{kTile, kTile, g.dims == 3 ? kTile : 1};
            if (o[a] + kTile == cells[a])
                n[a] += 1;
            // The stored face at the tile's top along the axis, above the fine face (i, j, k).
            const auto top = [&](int i, int j, int k) {
                if (next >= 0) {
                    const int ln = g.level[std::size_t(next)];
                    Int3 q{i >> ln, j >> ln, g.dims == 3 ? k >> ln : 0};
                    q[a] = 0;
                    return stored[face(g, std::size_t(next), a, q)];
                }
                Int3 q{i >> level, j >> level, g.dims == 3 ? k >> level : 0};
                q[a] = kTile >> level;
                return ownAt(q);
            };
            for (int k = 0; k < n.z; ++k)
                for (int j = 0; j < n.y; ++j) {
                    float *row = &dst(o.x, o.y + j, o.z + k);
                    if (level == 0 && (a == 0 || (a == 1 ? j : k) < kTile)) {
                        // A fine tile: its faces as they are, the domain's high layer from above.
                        const float *src = own + std::size_t(fc.x) * (j + std::size_t(fc.y) * k);
                        for (int i = 0; i < kTile; ++i)
                            row[i] = src[i];
                        if (n.x > kTile)
                            row[kTile] = top(kTile, j, k);
                        continue;
                    }
                    for (int i = 0; i < n.x; ++i) {
                        const Int3 l{i, j, k};
                        if (l[a] == kTile) { // the domain's high layer
                            row[i] = top(i, j, k);
                            continue;
                        }
                        const Int3 c{i >> level, j >> level, g.dims == 3 ? k >> level : 0};
                        const float vl = ownAt(c);
                        const int r = l[a] & (s - 1);
                        if (r == 0) {
                            row[i] = vl;
                            continue;
                        }
                        float vh;
                        if (l[a] - r + s < kTile) {
                            Int3 up = c;
                            up[a] += 1;
                            vh = ownAt(up);
                        } else {
                            vh = top(i, j, k);
                        }
                        const float w = float(r) / float(s);
                        row[i] = vl * (1.f - w) + vh * w;
                    }
                }
        }
    });
}

} // namespace plume::sim
