// SPDX-License-Identifier: Apache-2.0
// The composite pressure solve (compositepressure.h, docs/adaptive.md). Over 800 lines on
// purpose: the face rules of the composite grid (Side, sideOf, weightOf: which cells a face
// joins across a change of level, and its weight) define the operator A = G^T W G, and the
// operator, the level transfers that make the coarse operators Galerkin, the divergence, the
// gradient update and the closing of solid faces must all apply the same rules, face for face,
// or A stops being symmetric and CG stops converging. One file keeps every user of the rules in
// view and lets the hot loops inline them.
#include <core/sim/sparse/compositepressure.h>

#include <core/sim/base/parallel.h>
#include <core/sim/ops/pressure.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>

namespace plume::sim {

namespace {

constexpr float kOmega = 2.f / 3.f; // damped Jacobi (the bottom's fallback)
// Red-black Gauss-Seidel: exact inside a level; damped on cells whose sides meet another level,
// where cells of one colour can be coupled.
constexpr float kOmegaInterface = 2.f / 3.f;
constexpr int kEven = 0; // the colours: parity of the cell's coordinates on its level
constexpr int kOdd = 1;
// Piecewise-constant transfers: P = injection and R = P^T make P^T A P twice the coarser
// operator, which over-corrects by 2 where the Galerkin scaling 1 / sqrt(2) would be exact;
// piecewise-constant coarse corrections are too smooth, and the over-correction (Braess 1986)
// halves the iterations (tests/sim_composite prints them).
constexpr float kTransfer = 1.f;

/// What lies across one side of a cell of the composite grid, and which stored faces carry it.
struct Side
{
    enum Kind { Wall, Open, Same, ToCoarser, ToFiner } kind = Wall;
    std::uint32_t other = 0; ///< Same: the neighbour; ToCoarser: the coarse cell
    int groupCount = 0;      ///< ToCoarser: the fine cells sharing the coarse face (self included);
    std::uint32_t group[4]{}; ///< ToFiner: the fine cells across
    int faceCount = 0;        ///< the stored faces of this side
    std::uint32_t face[4]{};
    float fine = 1.f; ///< the fine cell size at this side, in fine cells (h)
};

// The transverse axes of `axis` (the two others; only the first in 2D).
inline void across(int axis, int &b, int &c)
{
    b = axis == 0 ? 1 : 0;
    c = axis == 2 ? 1 : 2;
}

// Side `side` (0 low, 1 high) of cell `local` of tile t along `axis`.
Side sideOf(const CompositeGrid &g, const CompositeFaces &f, std::size_t t, Int3 local, int axis,
            int side, bool withFaces = true)
{
    Side s;
    const int e = g.edge(t);
    const int scale = g.scale(t);
    s.fine = float(scale);
    int b, c;
    across(axis, b, c);
    const bool planar = g.dims == 2;
    const int transverse = planar ? 2 : 4;
    auto faceOf = [&](std::size_t tile, Int3 l) {
        return withFaces ? std::uint32_t(f.face(g, tile, axis, l)) : 0u;
    };

    // Inside the tile.
    if (side == 0 ? local[axis] > 0 : local[axis] + 1 < e) {
        Int3 n = local;
        n[axis] += side ? 1 : -1;
        s.kind = Side::Same;
        s.other = std::uint32_t(g.cell(t, n));
        s.faceCount = 1;
        Int3 fl = local;
        fl[axis] += side;
        s.face[0] = faceOf(t, fl);
        return s;
    }
    const std::int32_t nt = g.neighbours[t * 6 + std::size_t(2 * axis + side)];
    if (nt == CompositeGrid::kWall)
        return s;
    if (nt == CompositeGrid::kOpen) {
        s.kind = Side::Open;
        s.faceCount = 1;
        Int3 fl = local;
        fl[axis] += side; // the low face, or the layer past the last cell on the high side
        s.face[0] = faceOf(t, fl);
        return s;
    }
    const std::size_t n = std::size_t(nt);
    const int ln = g.level[n], l = g.level[t];
    const int en = g.edge(n);
    if (ln == l) {
        Int3 o = local;
        o[axis] = side ? 0 : en - 1;
        s.kind = Side::Same;
        s.other = std::uint32_t(g.cell(n, o));
        s.faceCount = 1;
        s.face[0] = side ? faceOf(n, o) : faceOf(t, local);
        return s;
    }
    if (ln == l + 1) { // the neighbour is coarser: this cell is one of a group under its face
        s.kind = Side::ToCoarser;
        Int3 o = local;
        o[b] /= 2;
        if (!planar)
            o[c] /= 2;
        o[axis] = side ? 0 : en - 1;
        s.other = std::uint32_t(g.cell(n, o));
        for (int q = 0; q < transverse; ++q) {
            Int3 m = local;
            m[b] = (local[b] & ~1) + (q & 1);
            if (!planar)
                m[c] = (local[c] & ~1) + (q >> 1);
            s.group[s.groupCount++] = std::uint32_t(g.cell(t, m));
        }
        if (side) { // the coarse tile above keeps the face
            s.faceCount = 1;
            s.face[0] = faceOf(n, o);
        } else { // this fine tile keeps its own face
            s.faceCount = 1;
            s.face[0] = faceOf(t, local);
        }
        return s;
    }
    // The neighbour is finer: the fine cells across this cell's face.
    s.kind = Side::ToFiner;
    s.fine = float(scale) / 2.f;
    for (int q = 0; q < transverse; ++q) {
        Int3 m;
        m[axis] = side ? 0 : en - 1;
        m[b] = 2 * local[b] + (q & 1);
        m[c] = planar ? 0 : 2 * local[c] + (q >> 1);
        s.group[s.groupCount++] = std::uint32_t(g.cell(n, m));
        if (side) // the fine tile above keeps the fine faces
            s.face[s.faceCount++] = faceOf(n, m);
    }
    if (!side) { // this coarse tile keeps one face
        s.faceCount = 1;
        s.face[0] = faceOf(t, local);
    }
    return s;
}

// sideOf's first case without the rest: when side `side` of cell c (at `local` in tile t) along
// `axis` lies inside the tile, its neighbour cell and its stored face, and true. The per-step
// loops take this for most sides and call sideOf only at the tile's edges.
inline bool insideTile(const CompositeGrid &g, const CompositeFaces &f, std::size_t t, Int3 local,
                       int axis, int side, std::uint32_t c, std::uint32_t &other,
                       std::uint32_t &face)
{
    const int e = g.edge(t);
    if (side == 0 ? local[axis] == 0 : local[axis] + 1 >= e)
        return false;
    const std::uint32_t stride = axis == 0 ? 1u : std::uint32_t(axis == 1 ? e : e * e);
    other = side ? c + stride : c - stride;
    Int3 fl = local;
    fl[axis] += side;
    face = std::uint32_t(f.face(g, t, axis, fl));
    return true;
}

// The fluid cells of a group and their mean of v.
inline int fluidMean(const Side &s, const std::uint8_t *solid, const float *v, float &mean)
{
    int m = 0;
    float sum = 0.f;
    for (int q = 0; q < s.groupCount; ++q)
        if (!solid[s.group[q]]) {
            ++m;
            sum += v[s.group[q]];
        }
    mean = m ? sum / float(m) : 0.f;
    return m;
}

// The fluid cells of a group.
inline int fluidCount(const Side &s, const std::uint8_t *solid)
{
    int m = 0;
    for (int q = 0; q < s.groupCount; ++q)
        m += solid[s.group[q]] ? 0 : 1;
    return m;
}

// Calls body(t, local, cell) for every cell of every tile, tiles in parallel.
template<class F>
void forCells(const CompositeGrid &g, F &&body)
{
    forEachJob(std::int64_t(g.tileCount()), [&](std::int64_t tj) {
        const std::size_t t = std::size_t(tj);
        const Int3 e = g.extent(t);
        std::uint32_t cell = g.first[t];
        for (int k = 0; k < e.z; ++k)
            for (int j = 0; j < e.y; ++j)
                for (int i = 0; i < e.x; ++i)
                    body(t, Int3{i, j, k}, cell++);
    });
}

// Ordered sum of per-tile partials: the same bits for any thread count.
template<class F>
double sumTiles(const CompositeGrid &g, F &&tileSum)
{
    std::vector<double> partial(g.tileCount(), 0.0);
    forEachJob(std::int64_t(g.tileCount()),
               [&](std::int64_t t) { partial[std::size_t(t)] = tileSum(std::size_t(t)); });
    double total = 0.0;
    for (double p : partial)
        total += p;
    return total;
}

// Face weight W (area over distance, in fine units) of a side for cell size `scale` (h).
inline float weightOf(const Side &s, int dims, float scale, int fluidInGroup)
{
    const float p = dims == 3 ? 1.f : 0.f; // s^(d-2)
    switch (s.kind) {
    case Side::Same:
    case Side::Open: return dims == 3 ? scale : 1.f;
    case Side::ToCoarser:
    case Side::ToFiner: {
        const float fine = s.fine;
        return float(fluidInGroup) * (p > 0.f ? fine : 1.f) / 1.5f;
    }
    default: return 0.f;
    }
}

} // namespace

namespace {
// A tile's values with one layer around it: the cells of neighbour tiles of its level (other
// sides: walls, open faces and other levels read 0), for the 7-point (5-point) stencil.
struct Block
{
    float v[10 * 10 * 10];
    int bw = 0;
    bool d3 = true;
    float &at(int i, int j, int k) { return v[(i + 1) + bw * ((j + 1) + bw * (d3 ? k + 1 : 0))]; }
    // The neighbours' sum at (i, j, k).
    float around(int i, int j, int k)
    {
        float s = at(i - 1, j, k) + at(i + 1, j, k) + at(i, j - 1, k) + at(i, j + 1, k);
        return d3 ? s + at(i, j, k - 1) + at(i, j, k + 1) : s;
    }
};

// Calls f(E, D3) with the tile edge e (8, 4, 2 or 1) and whether the grid is 3D as
// compile-time constants, so that the kernels' row loops have fixed lengths and vectorise.
template<class F>
void withShape(int e, bool d3, F &&f)
{
    const auto edge = [&](auto D3) {
        switch (e) {
        case 8: f(std::integral_constant<int, 8>{}, D3); break;
        case 4: f(std::integral_constant<int, 4>{}, D3); break;
        case 2: f(std::integral_constant<int, 2>{}, D3); break;
        default: f(std::integral_constant<int, 1>{}, D3); break;
        }
    };
    if (d3)
        edge(std::true_type{});
    else
        edge(std::false_type{});
}

// For every row of a tile's block (kE cells a side, 3D when k3), in cell order: row(the index
// of its first cell, its values xc, and the rows around it: ym, yp across y, zm, zp across z;
// in 2D zm and zp are xc and not to be read).
template<int kE, bool k3, class Row>
void forBlockRows(Block &b, std::uint32_t c0, Row &&row)
{
    constexpr int kW = kE + 2; // the block's row length
    for (int k = 0; k < (k3 ? kE : 1); ++k)
        for (int j = 0; j < kE; ++j) {
            const float *xc = &b.at(0, j, k);
            row(c0 + std::uint32_t(kE * (j + kE * k)), xc, xc - kW, xc + kW, k3 ? xc - kW * kW : xc,
                k3 ? xc + kW * kW : xc);
        }
}

// Fills `b` for tile t (kE cells a side, 3D when k3) from x: its cells and the layer around
// its faces. With `skip` >= 0 the neighbours' cells of that colour read 0 (a half sweep writes
// them meanwhile, and the cells it updates do not read them).
template<int kE, bool k3>
void gatherShaped(const CompositeGrid &g, std::size_t t, const float *x, Block &b, int skip)
{
    constexpr int kW = kE + 2;
    constexpr int kZ = k3 ? kE : 1;
    b.d3 = k3;
    b.bw = kW;
    const float *src = x + g.first[t];
    for (int k = 0; k < kZ; ++k)
        for (int j = 0; j < kE; ++j, src += kE) {
            float *dst = &b.at(0, j, k);
            for (int i = 0; i < kE; ++i)
                dst[i] = src[i];
        }
    // The neighbours' layers next to this tile, as strides in the tile and in the block.
    const Int3 tc = g.tileOf(t);
    const int origin = (tc.x + tc.y + tc.z) * kE; // the parity of the tile's first cell
    constexpr std::ptrdiff_t tileStride[3] = {1, kE, kE * kE};
    constexpr std::ptrdiff_t blockStride[3] = {1, kW, k3 ? kW * kW : 0};
    constexpr std::ptrdiff_t blockOrigin = 1 + kW + (k3 ? kW * kW : 0);
    // Only the layers next to the tile's faces are read (the 7-point stencil), so the block's
    // edges and corners are never set.
    for (int side = 0; side < (k3 ? 6 : 4); ++side) {
        const std::int32_t nt = g.neighbours[t * 6 + std::size_t(side)];
        const int a = side / 2, high = side & 1;
        const int ua = a == 0 ? 1 : 0, va = a == 2 ? 1 : 2;
        const int from = high ? 0 : kE - 1; // the neighbour's cells next to this tile
        const int to = high ? kE : -1;
        float *d0 = b.v + blockOrigin + to * blockStride[a];
        const std::ptrdiff_t su = blockStride[ua], sv = blockStride[va];
        const int vs = a == 2 ? kE : kZ;
        if (nt < 0 || g.level[std::size_t(nt)] != g.level[t]) {
            // A wall, an open side (0 outside) or another level (the couplings): 0.
            for (int v = 0; v < vs; ++v)
                for (int u = 0; u < kE; ++u)
                    d0[u * su + v * sv] = 0.f;
            continue;
        }
        const float *n0 = x + g.first[std::size_t(nt)] + from * tileStride[a];
        const std::ptrdiff_t tu = tileStride[ua], tv = tileStride[va];
        for (int v = 0; v < vs; ++v)
            for (int u = 0; u < kE; ++u)
                d0[u * su + v * sv] = skip < 0 || ((origin + to + u + v) & 1) != skip
                                          ? n0[u * tu + v * tv]
                                          : 0.f;
    }
}

/// Terms of A between levels: for cell[n], y += weight[q] x[other[q]] for q in
/// [start[n], start[n + 1]); the cells of tile t are n in [tileStart[t], tileStart[t + 1]).
struct Couplings
{
    std::vector<std::uint32_t> cell, start, other, tileStart;
    std::vector<float> weight;
};
} // namespace

struct CompositePressure::Impl
{
    struct Level
    {
        CompositeGrid g;
        CompositeFaces shape;                      ///< face numbering only (no values) for sideOf
        std::vector<float> diag, invDiag, x, b, r; ///< invDiag: 1 / diag, 0 where diag is
        /// Per cell: bit 0 its colour, bit 1 whether it meets another level, bit 2 whether it is
        /// a fluid cell that does not (computePaint).
        std::vector<std::uint8_t> paint;
        Couplings couplings;
        /// Per colour: the fluid cells on a side towards another level (colourPass's second part).
        std::array<std::vector<std::uint32_t>, 2> between;
    };
    std::vector<Level> levels;
    bool ready = false;
    bool bottomUsable = false;
    PressureSolver bottom;
    ScalarGrid bottomR, bottomZ;
    float bottomScale = 1.f;
    /// Pockets of level 0: cells per pocket (compressed rows) and their volumes.
    std::vector<std::uint32_t> pocketCells, pocketStart{0};
    std::vector<double> pocketVolume;
    // CG vectors on level 0.
    std::vector<float> r, z, s, q;

    const CompositeGrid &g0() const { return levels[0].g; }

    // The terms of A x at cell c from a side whose neighbour tile is at another level, less
    // the diagonal's share (which diag x holds already).
    static float interfaceTerm(const CompositeGrid &g, const Side &sd, float scale,
                               const std::uint8_t *solid, const float *x, float xc)
    {
        float mean;
        if (sd.kind == Side::ToCoarser) {
            if (solid[sd.other])
                return 0.f;
            const int m = fluidMean(sd, solid, x, mean);
            // (W / m) (mean - x_C) without (W / m^2) x_c (x_c is in the mean).
            const float w = weightOf(sd, g.dims, scale, m) / float(m);
            return w * (mean - x[sd.other]) - w / float(m) * xc;
        }
        if (sd.kind == Side::ToFiner) {
            const int m = fluidMean(sd, solid, x, mean);
            return m ? -weightOf(sd, g.dims, scale, m) * mean : 0.f;
        }
        return 0.f;
    }

    // y = A x on level k. x must be 0 on solid cells (every vector of the solve is), so that
    // inside a tile and towards neighbours of its level A x = diag x - W (sum of the
    // neighbours), over a block of the tile's cells with one layer around it; sides towards
    // another level add their terms cell by cell.
    void apply(int k, const float *x, float *y) const
    {
        const Level &L = levels[std::size_t(k)];
        const CompositeGrid &g = L.g;
        const std::uint8_t *solid = g.solid.data();
        const bool d3 = g.dims == 3;
        forEachJob(std::int64_t(g.tileCount()), [&](std::int64_t tj) {
            const std::size_t t = std::size_t(tj);
            const int e = g.edge(t);
            Block block;
            const std::uint32_t c0 = g.first[t];
            const float w = d3 ? float(g.scale(t)) : 1.f;
            const float *diag = L.diag.data();
            withShape(e, d3, [&](auto E, auto D3) {
                constexpr int kE = decltype(E)::value;
                constexpr bool k3 = decltype(D3)::value;
                gatherShaped<kE, k3>(g, t, x, block, -1);
                forBlockRows<kE, k3>(block, c0,
                                     [&](std::uint32_t row, const float *xc, const float *ym,
                                         const float *yp, const float *zm, const float *zp) {
                    float *yr = y + row;
                    const float *dr = diag + row;
                    const std::uint8_t *sr = solid + row;
                    for (int i = 0; i < kE; ++i) {
                        float sum = xc[i - 1] + xc[i + 1] + ym[i] + yp[i];
                        if constexpr (k3)
                            sum += zm[i] + zp[i];
                        const float v = dr[i] * xc[i] - w * sum;
                        yr[i] = sr[i] ? 0.f : v;
                    }
                });
            });
            // Sides towards another level: the couplings setup() listed, tile by tile.
            const Couplings &cp = L.couplings;
            for (std::uint32_t n = cp.tileStart[t]; n < cp.tileStart[t + 1]; ++n) {
                const std::uint32_t c = cp.cell[n];
                float sum = 0.f;
                for (std::uint32_t q = cp.start[n]; q < cp.start[n + 1]; ++q)
                    sum += cp.weight[q] * x[cp.other[q]];
                y[c] += sum;
            }
        });
    }

    // The off-diagonal terms of A on sides towards another level (interfaceTerm's, less the
    // diagonal share), per cell in tile order: y_c += sum weight x_other.
    void computeCouplings(Level &L)
    {
        const CompositeGrid &g = L.g;
        const std::uint8_t *solid = g.solid.data();
        Couplings &cp = L.couplings;
        cp = Couplings{};
        cp.tileStart.assign(g.tileCount() + 1, 0);
        cp.start.push_back(0);
        for (std::size_t t = 0; t < g.tileCount(); ++t) {
            cp.tileStart[t] = std::uint32_t(cp.cell.size());
            const Int3 e = g.extent(t);
            const float scale = float(g.scale(t));
            for (int k = 0; k < e.z; ++k)
                for (int j = 0; j < e.y; ++j)
                    for (int i = 0; i < e.x; ++i) {
                        const Int3 l{i, j, k};
                        const std::uint32_t c = std::uint32_t(g.cell(t, l));
                        if (solid[c])
                            continue;
                        const std::size_t before = cp.other.size();
                        for (int a = 0; a < g.dims; ++a)
                            for (int side = 0; side < 2; ++side) {
                                if (side ? l[a] + 1 < e[a] : l[a] > 0)
                                    continue; // inside the tile
                                const std::int32_t nt =
                                    g.neighbours[t * 6 + std::size_t(2 * a + side)];
                                if (nt < 0 || g.level[std::size_t(nt)] == g.level[t])
                                    continue;
                                const Side sd = sideOf(g, L.shape, t, l, a, side, false);
                                const int m = fluidCount(sd, solid);
                                if (sd.kind == Side::ToCoarser && !solid[sd.other]) {
                                    const float w = weightOf(sd, g.dims, scale, m) / float(m);
                                    for (int q = 0; q < sd.groupCount; ++q)
                                        if (sd.group[q] != c && !solid[sd.group[q]]) {
                                            cp.other.push_back(sd.group[q]);
                                            cp.weight.push_back(w / float(m));
                                        }
                                    cp.other.push_back(sd.other);
                                    cp.weight.push_back(-w);
                                } else if (sd.kind == Side::ToFiner && m > 0) {
                                    const float w = weightOf(sd, g.dims, scale, m) / float(m);
                                    for (int q = 0; q < sd.groupCount; ++q)
                                        if (!solid[sd.group[q]]) {
                                            cp.other.push_back(sd.group[q]);
                                            cp.weight.push_back(-w);
                                        }
                                }
                            }
                        if (cp.other.size() > before) {
                            cp.cell.push_back(c);
                            cp.start.push_back(std::uint32_t(cp.other.size()));
                        }
                    }
        }
        cp.tileStart[g.tileCount()] = std::uint32_t(cp.cell.size());
    }

    void computeDiagonal(Level &L)
    {
        const CompositeGrid &g = L.g;
        L.diag.assign(g.cellCount(), 0.f);
        const std::uint8_t *solid = g.solid.data();
        forCells(g, [&](std::size_t t, Int3 local, std::uint32_t c) {
            if (solid[c])
                return;
            const float scale = float(g.scale(t));
            float sum = 0.f;
            const int e = g.edge(t);
            const std::uint32_t stride[3] = {1u, std::uint32_t(e), std::uint32_t(e * e)};
            for (int a = 0; a < g.dims; ++a)
                for (int side = 0; side < 2; ++side) {
                    if (side ? local[a] + 1 < e : local[a] > 0) { // inside the tile
                        if (!solid[side ? c + stride[a] : c - stride[a]])
                            sum += g.dims == 3 ? scale : 1.f; // weightOf a Same side
                        continue;
                    }
                    const Side sd = sideOf(g, L.shape, t, local, a, side, false);
                    switch (sd.kind) {
                    case Side::Same:
                        if (!solid[sd.other])
                            sum += weightOf(sd, g.dims, scale, 0);
                        break;
                    case Side::Open: sum += weightOf(sd, g.dims, scale, 0); break;
                    case Side::ToCoarser: {
                        if (solid[sd.other])
                            break;
                        const int m = fluidCount(sd, solid);
                        sum += weightOf(sd, g.dims, scale, m) / float(m * m);
                        break;
                    }
                    case Side::ToFiner: {
                        const int m = fluidCount(sd, solid);
                        if (m)
                            sum += weightOf(sd, g.dims, scale, m);
                        break;
                    }
                    case Side::Wall: break;
                    }
                }
            L.diag[c] = sum;
        });
    }

    // x += omega D^-1 (b - A x) (from zero when `fromZero`: x = omega D^-1 b); r is scratch.
    void jacobi(int k, const float *b, float *x, float *r, bool fromZero) const
    {
        const Level &L = levels[std::size_t(k)];
        const std::size_t n = L.g.cellCount();
        const float *diag = L.diag.data();
        if (fromZero) {
            forEachIndex(std::int64_t(n), [&](std::int64_t c) {
                x[c] = diag[c] > 0.f ? kOmega * b[c] / diag[c] : 0.f;
            });
            return;
        }
        apply(k, x, r);
        forEachIndex(std::int64_t(n), [&](std::int64_t c) {
            if (diag[c] > 0.f)
                x[c] += kOmega * (b[c] - r[c]) / diag[c];
        });
    }

    // One red-black Gauss-Seidel half sweep: the cells of `colour` take
    // x += omega (b - A x) / diag, all from the same x (so that the result does not depend on
    // the order of the tiles). Inside a level the cells of one colour are not coupled and
    // omega = 1 (exact Gauss-Seidel: x = (b + W sum of the neighbours) / diag), done in place
    // tile by tile: such a cell reads only cells of the other colour. Cells on a side towards
    // another level can be coupled to cells of their colour, but only to others of their kind,
    // which the first part leaves alone: they are damped, computed into r, then copied. Each
    // half sweep is self-adjoint in the A inner product, so running them in reverse order after
    // the coarse correction keeps the V-cycle symmetric. From zero, A x = 0.
    void colourPass(int k, const float *b, float *x, float *r, int colour, bool fromZero) const
    {
        const Level &L = levels[std::size_t(k)];
        const float *diag = L.diag.data();
        const std::uint8_t *paint = L.paint.data();
        if (fromZero) {
            forEachIndex(std::int64_t(L.g.cellCount()), [&](std::int64_t c) {
                if ((paint[c] & 1) != colour || !(diag[c] > 0.f))
                    return;
                x[c] = (paint[c] & 2 ? kOmegaInterface : 1.f) * (b[c] / diag[c]);
            });
            return;
        }
        const CompositeGrid &g = L.g;
        const std::uint8_t *solid = g.solid.data();
        const bool d3 = g.dims == 3;
        const Couplings &cp = L.couplings;
        const float *invDiag = L.invDiag.data();
        forEachJob(std::int64_t(g.tileCount()), [&](std::int64_t tj) {
            const std::size_t t = std::size_t(tj);
            const int e = g.edge(t);
            Block block;
            const std::uint32_t c0 = g.first[t];
            const float w = d3 ? float(g.scale(t)) : 1.f;
            // Cells inside a level, a row at a time: every cell's update from the block (the
            // cells of this colour read only the other colour's; the others' results are not
            // kept), stored for the plain fluid cells of this colour (paint bit 2).
            withShape(e, d3, [&](auto E, auto D3) {
                constexpr int kE = decltype(E)::value;
                constexpr bool k3 = decltype(D3)::value;
                gatherShaped<kE, k3>(g, t, x, block, colour);
                const std::uint8_t want = std::uint8_t(4 | colour);
                forBlockRows<kE, k3>(block, c0,
                                     [&](std::uint32_t row, const float *xc, const float *ym,
                                         const float *yp, const float *zm, const float *zp) {
                    const float *br = b + row, *ir = invDiag + row;
                    const std::uint8_t *pr = paint + row;
                    float next[kE];
                    for (int i = 0; i < kE; ++i) {
                        float sum = xc[i - 1] + xc[i + 1] + ym[i] + yp[i];
                        if constexpr (k3)
                            sum = sum + zm[i] + zp[i];
                        next[i] = (br[i] + w * sum) * ir[i];
                    }
                    float *xr = x + row;
                    for (int i = 0; i < kE; ++i)
                        if ((pr[i] & 5) == want)
                            xr[i] = next[i];
                });
            });
            // Cells on a side towards another level (paint bit 1): damped, into r. Only a tile
            // with a neighbour tile at another level has them.
            bool between = false;
            for (int side = 0; side < 2 * g.dims; ++side) {
                const std::int32_t nt = g.neighbours[t * 6 + std::size_t(side)];
                between = between || (nt >= 0 && g.level[std::size_t(nt)] != g.level[t]);
            }
            if (!between)
                return;
            const Int3 tc = g.tileOf(t);
            const int origin = (tc.x + tc.y + tc.z) * e;
            const Couplings &cpl = cp;
            std::uint32_t n = cpl.tileStart[t]; // the couplings, in the order of the cells
            for (int kk = 0; kk < (d3 ? e : 1); ++kk)
                for (int j = 0; j < e; ++j) {
                    const std::uint32_t row = c0 + std::uint32_t(e * (j + e * kk));
                    for (int i = ((origin + j + kk) & 1) ^ colour; i < e; i += 2) {
                        const std::uint32_t c = row + std::uint32_t(i);
                        if (!(paint[c] & 2) || solid[c] || !(diag[c] > 0.f))
                            continue;
                        const float sum = block.around(i, j, kk);
                        float ax = diag[c] * block.at(i, j, kk) - w * sum;
                        while (n < cpl.tileStart[t + 1] && cpl.cell[n] < c)
                            ++n;
                        if (n < cpl.tileStart[t + 1] && cpl.cell[n] == c)
                            for (std::uint32_t q = cpl.start[n]; q < cpl.start[n + 1]; ++q)
                                ax += cpl.weight[q] * x[cpl.other[q]];
                        r[c] = block.at(i, j, kk) + kOmegaInterface * (b[c] - ax) * invDiag[c];
                    }
                }
        });
        const std::vector<std::uint32_t> &between = L.between[std::size_t(colour)];
        forEachIndex(std::int64_t(between.size()), [&](std::int64_t m) {
            x[between[std::size_t(m)]] = r[between[std::size_t(m)]];
        });
    }

    // Per cell: bit 0 its colour, bit 1 whether a side of it meets another level.
    void computePaint(Level &L)
    {
        const CompositeGrid &g = L.g;
        L.paint.assign(g.cellCount(), 0);
        forCells(g, [&](std::size_t t, Int3 local, std::uint32_t c) {
            const Int3 tc = g.tileOf(t);
            const int e = g.edge(t);
            std::uint8_t p = std::uint8_t(((tc.x + tc.y + tc.z) * e + local.x + local.y + local.z)
                                          & 1);
            for (int a = 0; a < g.dims; ++a)
                for (int side = 0; side < 2; ++side) {
                    const bool edgeCell = side ? local[a] == e - 1 : local[a] == 0;
                    const std::int32_t nt = g.neighbours[t * 6 + std::size_t(2 * a + side)];
                    if (edgeCell && nt >= 0 && g.level[std::size_t(nt)] != g.level[t])
                        p |= 2;
                }
            // Bit 2: a fluid cell inside its level (colourPass updates it in place).
            if (!(p & 2) && !g.solid[c] && L.diag[c] > 0.f)
                p |= 4;
            L.paint[c] = p;
        });
        for (auto &list : L.between)
            list.clear();
        for (std::uint32_t c = 0; c < g.cellCount(); ++c)
            if ((L.paint[c] & 2) && !g.solid[c] && L.diag[c] > 0.f)
                L.between[L.paint[c] & 1].push_back(c);
    }

    // Level k+1's b from level k's residual r, or level k's x plus level k+1's correction.
    template<bool kRestrict>
    void transfer(int k, float *fine, float *coarse) const
    {
        const Level &F = levels[std::size_t(k)], &C = levels[std::size_t(k + 1)];
        forEachJob(std::int64_t(F.g.tileCount()), [&](std::int64_t tj) {
            const std::size_t t = std::size_t(tj);
            const std::uint32_t f0 = F.g.first[t], c0 = C.g.first[t];
            if (F.g.level[t] == C.g.level[t]) {
                const std::uint32_t n = F.g.first[t + 1] - f0;
                for (std::uint32_t m = 0; m < n; ++m) {
                    if constexpr (kRestrict)
                        coarse[c0 + m] = C.g.solid[c0 + m] ? 0.f : fine[f0 + m];
                    else if (!F.g.solid[f0 + m] && !C.g.solid[c0 + m])
                        fine[f0 + m] += coarse[c0 + m];
                }
                return;
            }
            const Int3 e = C.g.extent(t);
            for (int kk = 0; kk < e.z; ++kk)
                for (int j = 0; j < e.y; ++j)
                    for (int i = 0; i < e.x; ++i) {
                        const std::uint32_t pc = std::uint32_t(C.g.cell(t, {i, j, kk}));
                        const bool parentSolid = C.g.solid[pc] != 0;
                        float sum = 0.f;
                        for (int dz = 0; dz < (F.g.dims == 3 ? 2 : 1); ++dz)
                            for (int dy = 0; dy < 2; ++dy)
                                for (int dx = 0; dx < 2; ++dx) {
                                    const std::uint32_t fc = std::uint32_t(
                                        F.g.cell(t, {2 * i + dx, 2 * j + dy, 2 * kk + dz}));
                                    if (F.g.solid[fc])
                                        continue;
                                    if constexpr (kRestrict)
                                        sum += fine[fc];
                                    else if (!parentSolid)
                                        fine[fc] += kTransfer * coarse[pc];
                                }
                        if constexpr (kRestrict)
                            coarse[pc] = parentSolid ? 0.f : kTransfer * sum;
                    }
        });
    }

    // x = M^-1 b on level k: a symmetric V-cycle from zero.
    void vcycle(int k, const float *b, float *x)
    {
        const int last = int(levels.size()) - 1;
        Level &L = levels[std::size_t(k)];
        if (k == last) {
            bottomSolve(b, x);
            return;
        }
        float *r = L.r.data();
        const std::size_t count = L.g.cellCount();
        std::fill(x, x + count, 0.f);
        colourPass(k, b, x, r, kEven, true);
        colourPass(k, b, x, r, kOdd, false);
        apply(k, x, r);
        const std::size_t cells = L.g.cellCount();
        forEachIndex(std::int64_t(cells), [&](std::int64_t c) { r[c] = b[c] - r[c]; });
        Level &C = levels[std::size_t(k + 1)];
        transfer<true>(k, r, C.b.data());
        vcycle(k + 1, C.b.data(), C.x.data());
        transfer<false>(k, x, C.x.data());
        colourPass(k, b, x, r, kOdd, false);
        colourPass(k, b, x, r, kEven, false);
    }

    // The dense tile grid (every tile one cell): PressureSolver's V-cycle, or Jacobi where it
    // cannot run.
    void bottomSolve(const float *b, float *x)
    {
        const Level &L = levels.back();
        const std::size_t n = L.g.cellCount();
        if (!bottomUsable) {
            std::vector<float> r(n);
            jacobi(int(levels.size()) - 1, b, x, r.data(), true);
            for (int s2 = 1; s2 < 4; ++s2)
                jacobi(int(levels.size()) - 1, b, x, r.data(), false);
            return;
        }
        std::copy(b, b + n, bottomR.data());
        bottom.precondition(bottomR, bottomZ);
        const float inv = 1.f / bottomScale;
        for (std::size_t c = 0; c < n; ++c)
            x[c] = L.g.solid[c] ? 0.f : bottomZ[c] * inv;
    }

    void findPockets();
    void removePocketMeans(float *v, bool volumeWeighted) const;
    struct Cg;
};

// Fluid regions of level 0 joined by open faces; those with no open domain face are pockets.
void CompositePressure::Impl::findPockets()
{
    const CompositeGrid &g = g0();
    const CompositeFaces &shape = levels[0].shape;
    pocketCells.clear();
    pocketStart.assign(1, 0);
    pocketVolume.clear();
    const std::size_t n = g.cellCount();
    const bool anySolid = std::any_of(g.solid.begin(), g.solid.end(), [](auto v) { return v; });
    bool anyOpen = false;
    for (std::int32_t nb : g.neighbours)
        anyOpen = anyOpen || nb == CompositeGrid::kOpen;
    auto volumeOf = [&](std::size_t t) { return std::pow(double(g.scale(t)), double(g.dims)); };
    if (!anySolid) { // one region: a pocket when no face is open
        if (anyOpen)
            return;
        double volume = 0.0;
        for (std::size_t t = 0; t < g.tileCount(); ++t)
            for (std::uint32_t c = g.first[t]; c < g.first[t + 1]; ++c) {
                pocketCells.push_back(c);
                volume += volumeOf(t);
            }
        pocketStart.push_back(std::uint32_t(pocketCells.size()));
        pocketVolume.push_back(volume);
        return;
    }
    // Union-find over fluid cells (serial: it runs once per layout).
    std::vector<std::uint32_t> parent(n);
    std::iota(parent.begin(), parent.end(), 0u);
    auto find = [&](std::uint32_t a) {
        while (parent[a] != a) {
            parent[a] = parent[parent[a]];
            a = parent[a];
        }
        return a;
    };
    auto join = [&](std::uint32_t a, std::uint32_t b) {
        a = find(a);
        b = find(b);
        if (a != b)
            parent[std::max(a, b)] = std::min(a, b);
    };
    std::vector<std::uint8_t> open(n, 0);
    for (std::size_t t = 0; t < g.tileCount(); ++t) {
        const Int3 e = g.extent(t);
        for (int k = 0; k < e.z; ++k)
            for (int j = 0; j < e.y; ++j)
                for (int i = 0; i < e.x; ++i) {
                    const Int3 l{i, j, k};
                    const std::uint32_t c = std::uint32_t(g.cell(t, l));
                    if (g.solid[c])
                        continue;
                    for (int a = 0; a < g.dims; ++a) {
                        // Inside the tile, the high neighbour (the low one joins from there).
                        if (l[a] + 1 < e[a]) {
                            Int3 m = l;
                            ++m[a];
                            const std::uint32_t o = std::uint32_t(g.cell(t, m));
                            if (!g.solid[o])
                                join(c, o);
                        }
                        for (int side = 0; side < 2; ++side) {
                            if (side ? l[a] + 1 < e[a] : l[a] > 0)
                                continue;
                            const Side sd = sideOf(g, shape, t, l, a, side, false);
                            if (sd.kind == Side::Open)
                                open[c] = 1;
                            else if (sd.kind == Side::Same || sd.kind == Side::ToCoarser) {
                                if (!g.solid[sd.other])
                                    join(c, sd.other);
                            }
                            if (sd.kind == Side::ToFiner || sd.kind == Side::ToCoarser)
                                for (int q = 0; q < sd.groupCount; ++q)
                                    if (!g.solid[sd.group[q]]
                                        && (sd.kind == Side::ToFiner || !g.solid[sd.other]))
                                        join(c, sd.group[q]);
                        }
                    }
                }
    }
    std::vector<std::uint8_t> rootOpen(n, 0);
    for (std::uint32_t c = 0; c < n; ++c)
        if (!g.solid[c] && open[c])
            rootOpen[find(c)] = 1;
    std::vector<std::int64_t> pocketOf(n, -1);
    std::vector<std::vector<std::uint32_t>> members;
    std::vector<double> volumes;
    for (std::size_t t = 0; t < g.tileCount(); ++t)
        for (std::uint32_t c = g.first[t]; c < g.first[t + 1]; ++c) {
            if (g.solid[c])
                continue;
            const std::uint32_t root = find(c);
            if (rootOpen[root])
                continue;
            if (pocketOf[root] < 0) {
                pocketOf[root] = std::int64_t(members.size());
                members.emplace_back();
                volumes.push_back(0.0);
            }
            members[std::size_t(pocketOf[root])].push_back(c);
            volumes[std::size_t(pocketOf[root])] += volumeOf(t);
        }
    for (std::size_t p = 0; p < members.size(); ++p) {
        pocketCells.insert(pocketCells.end(), members[p].begin(), members[p].end());
        pocketStart.push_back(std::uint32_t(pocketCells.size()));
        pocketVolume.push_back(volumes[p]);
    }
}

// Per pocket: v -= mean of v (volume-weighted spreading when `volumeWeighted`, so that a right
// side keeps a uniform divergence; else the plain mean, the null space of A).
void CompositePressure::Impl::removePocketMeans(float *v, bool volumeWeighted) const
{
    const CompositeGrid &g = g0();
    std::vector<double> cellVolume;
    for (std::size_t p = 0; p + 1 < pocketStart.size(); ++p) {
        double sum = 0.0;
        for (std::uint32_t m = pocketStart[p]; m < pocketStart[p + 1]; ++m)
            sum += v[pocketCells[m]];
        const double count = double(pocketStart[p + 1] - pocketStart[p]);
        if (!volumeWeighted) {
            const float mean = float(sum / count);
            for (std::uint32_t m = pocketStart[p]; m < pocketStart[p + 1]; ++m)
                v[pocketCells[m]] -= mean;
            continue;
        }
        const double perVolume = sum / pocketVolume[p];
        for (std::uint32_t m = pocketStart[p]; m < pocketStart[p + 1]; ++m) {
            const std::uint32_t c = pocketCells[m];
            const std::size_t t = std::size_t(std::upper_bound(g.first.begin(), g.first.end(), c)
                                              - g.first.begin() - 1);
            v[c] -= float(perVolume * std::pow(double(g.scale(t)), double(g.dims)));
        }
    }
}

CompositePressure::CompositePressure()
    : d(std::make_unique<Impl>())
{}
CompositePressure::~CompositePressure() = default;

void CompositePressure::setup(const Domain &domain, const std::vector<std::uint8_t> &levels,
                              const FlagGrid &solids)
{
    d->ready = false;
    d->levels.clear();
    if (!CompositeGrid::fits(domain)
        || levels.size()
               != std::size_t((domain.cells.x / CompositeGrid::kTile)
                              * std::int64_t(domain.cells.y / CompositeGrid::kTile)
                              * (domain.is2D() ? 1 : domain.cells.z / CompositeGrid::kTile)))
        return;
    std::vector<std::uint8_t> current = levels;
    for (;;) {
        Impl::Level &L = d->levels.emplace_back();
        L.g.build(domain, current, solids,
                  d->levels.size() == 1 ? CompositeGrid::SolidRule::Majority
                                        : CompositeGrid::SolidRule::AllSolid);
        L.shape.shape(L.g, false); // only the numbering: sideOf's face indices
        d->computeDiagonal(L);
        L.invDiag.resize(L.diag.size());
        for (std::size_t c = 0; c < L.diag.size(); ++c)
            L.invDiag[c] = L.diag[c] > 0.f ? 1.f / L.diag[c] : 0.f;
        d->computePaint(L);
        d->computeCouplings(L);
        const std::size_t n = L.g.cellCount();
        if (d->levels.size() > 1) {
            L.x.assign(n, 0.f);
            L.b.assign(n, 0.f);
        }
        L.r.assign(n, 0.f);
        const int lowest = *std::min_element(current.begin(), current.end());
        if (lowest >= CompositeGrid::kLevels - 1)
            break;
        current = CompositeGrid::raised(current, lowest + 1);
    }
    // The dense tile grid at the bottom.
    const CompositeGrid &last = d->levels.back().g;
    Domain tileDomain = domain;
    tileDomain.cells = last.tiles;
    tileDomain.cellSize = domain.cellSize * float(CompositeGrid::kTile);
    FlagGrid tileSolids(last.tiles);
    for (std::size_t t = 0; t < last.tileCount(); ++t)
        tileSolids.data()[t] = last.solid[last.first[t]];
    d->bottom.setup(tileDomain, tileSolids);
    d->bottomR.reshape(last.tiles, kCellCentre, 0.f);
    d->bottomZ.reshape(last.tiles, kCellCentre, 0.f);
    d->bottomScale = domain.is2D() ? 1.f : float(CompositeGrid::kTile);
    // PressureSolver::precondition leaves z = 0 on a layout without a red-black colouring.
    {
        ScalarGrid probe(last.tiles, kCellCentre, 1.f);
        ScalarGrid out;
        d->bottom.precondition(probe, out);
        bool any = false;
        for (std::size_t c = 0; c < out.count(); ++c)
            any = any || out[c] != 0.f;
        d->bottomUsable = any;
    }
    d->findPockets();
    const std::size_t n = d->g0().cellCount();
    d->r.assign(n, 0.f);
    d->z.assign(n, 0.f);
    d->s.assign(n, 0.f);
    d->q.assign(n, 0.f);
    d->ready = true;
}

const CompositeGrid &CompositePressure::grid() const { return d->g0(); }

int CompositePressure::pockets() const { return int(d->pocketStart.size()) - 1; }

int CompositePressure::levels() const { return int(d->levels.size()); }

void CompositePressure::divergence(const CompositeFaces &faces, std::vector<float> &b) const
{
    const CompositeGrid &g = d->g0();
    const CompositeFaces &shape = d->levels[0].shape;
    b.assign(g.cellCount(), 0.f);
    const std::uint8_t *solid = g.solid.data();
    forCells(g, [&](std::size_t t, Int3 local, std::uint32_t c) {
        if (solid[c])
            return;
        const float area = g.dims == 3 ? float(g.scale(t) * g.scale(t)) : float(g.scale(t));
        float flux = 0.f;
        for (int a = 0; a < g.dims; ++a) {
            const std::vector<float> &u = faces.value[std::size_t(a)];
            for (int side = 0; side < 2; ++side) {
                const float sign = side ? 1.f : -1.f;
                std::uint32_t other, face;
                if (insideTile(g, shape, t, local, a, side, c, other, face)) {
                    flux += sign * area * u[face];
                    continue;
                }
                const Side sd = sideOf(g, shape, t, local, a, side);
                if (sd.kind == Side::Wall)
                    continue;
                if (sd.kind != Side::ToFiner) {
                    flux += sign * area * u[sd.face[0]];
                    continue;
                }
                const float fineArea = area / float(g.dims == 3 ? 4 : 2);
                if (sd.faceCount > 1) { // the fine faces across
                    for (int q = 0; q < sd.faceCount; ++q)
                        flux += sign * fineArea * u[sd.face[q]];
                } else { // this coarse face, over its fluid part
                    float mean;
                    const int m = fluidMean(sd, solid, u.data(), mean);
                    flux += sign * float(m) * fineArea * u[sd.face[0]];
                }
            }
        }
        b[c] = -flux;
    });
}

namespace {

// Whether closeSolidFaces() closes the low face of cell c at a tile's edge (side `lo`).
bool closesLowFace(const Side &lo, const std::uint8_t *solid, std::uint32_t c, bool coarse,
                   const std::vector<float> &u)
{
    float mean;
    switch (lo.kind) {
    case Side::Same: return coarse && (solid[c] || solid[lo.other]);
    case Side::ToCoarser: return solid[lo.other] != 0;
    case Side::ToFiner: return solid[c] || fluidMean(lo, solid, u.data(), mean) == 0;
    case Side::Open: return coarse && solid[c];
    case Side::Wall: return false;
    }
    return false;
}

} // namespace

void CompositePressure::closeSolidFaces(CompositeFaces &faces) const
{
    const CompositeGrid &g = d->g0();
    const CompositeFaces &shape = d->levels[0].shape;
    const std::uint8_t *solid = g.solid.data();
    forCells(g, [&](std::size_t t, Int3 local, std::uint32_t c) {
        const bool coarse = g.level[t] > 0;
        for (int a = 0; a < g.dims; ++a) {
            std::vector<float> &u = faces.value[std::size_t(a)];
            std::uint32_t other, face;
            if (insideTile(g, shape, t, local, a, 0, c, other, face)) {
                if (coarse && (solid[c] || solid[other]))
                    u[face] = 0.f;
            } else {
                const Side lo = sideOf(g, shape, t, local, a, 0);
                if (closesLowFace(lo, solid, c, coarse, u))
                    u[lo.face[0]] = 0.f;
            }
            if (local[a] + 1 < g.edge(t))
                continue; // the high side lies inside the tile: not open
            const Side hi = sideOf(g, shape, t, local, a, 1);
            if (hi.kind == Side::Open && coarse && solid[c])
                u[hi.face[0]] = 0.f;
        }
    });
}

void CompositePressure::apply(const std::vector<float> &x, std::vector<float> &y) const
{
    y.assign(d->g0().cellCount(), 0.f);
    if (d->ready && x.size() == y.size())
        d->apply(0, x.data(), y.data());
}

void CompositePressure::precondition(const std::vector<float> &r, std::vector<float> &z)
{
    z.assign(d->g0().cellCount(), 0.f);
    if (!d->ready || r.size() != z.size())
        return;
    d->vcycle(0, r.data(), z.data());
    d->removePocketMeans(z.data(), false);
}

/// The CG passes of conjugateGradient over the composite vectors.
struct CompositePressure::Impl::Cg
{
    Impl &d;
    std::vector<float> &x;
    std::size_t n;

    double dot(const std::vector<float> &a, const std::vector<float> &b) const
    {
        const CompositeGrid &g = d.g0();
        return sumTiles(g, [&](std::size_t t) {
            double s = 0.0;
            for (std::uint32_t c = g.first[t]; c < g.first[t + 1]; ++c)
                s += double(a[c]) * double(b[c]);
            return s;
        });
    }
    double precondition()
    {
        d.vcycle(0, d.r.data(), d.z.data());
        d.removePocketMeans(d.z.data(), false);
        return dot(d.r, d.z);
    }
    void startDirection() { d.s = d.z; }
    double applyToDirection()
    {
        d.apply(0, d.s.data(), d.q.data());
        return dot(d.s, d.q);
    }
    double updateResidual(float alpha)
    {
        const CompositeGrid &g = d.g0();
        std::vector<double> partial(g.tileCount(), 0.0);
        bool finite = true;
        forEachJob(std::int64_t(g.tileCount()), [&](std::int64_t t) {
            float m = 0.f;
            for (std::uint32_t c = g.first[std::size_t(t)]; c < g.first[std::size_t(t) + 1]; ++c) {
                x[c] += alpha * d.s[c];
                d.r[c] -= alpha * d.q[c];
                m = std::max(m, std::fabs(d.r[c]));
                if (!std::isfinite(d.r[c]))
                    m = std::numeric_limits<float>::infinity();
            }
            partial[std::size_t(t)] = m;
        });
        double m = 0.0;
        for (double p : partial)
            m = std::max(m, p);
        (void)finite;
        return m;
    }
    void updateDirection(float, float beta)
    {
        forEachIndex(std::int64_t(n), [&](std::int64_t c) { d.s[c] = d.z[c] + beta * d.s[c]; });
    }
    void finish(float) {}
};

SolveResult CompositePressure::project(CompositeFaces &faces, std::vector<float> &pressure,
                                       float dt, const PressureSettings &settings,
                                       const std::vector<float> *divergence)
{
    SolveResult result;
    if (!d->ready || !(dt > 0.f) || !std::isfinite(dt)) {
        result.residual = std::numeric_limits<double>::infinity();
        return result;
    }
    const CompositeGrid &g = d->g0();
    const CompositeFaces &shape = d->levels[0].shape;
    for (int a = 0; a < g.dims; ++a)
        if (faces.faceFirst[std::size_t(a)] != shape.faceFirst[std::size_t(a)]
            || faces.value[std::size_t(a)].size() != shape.faceFirst[std::size_t(a)].back()) {
            result.residual = std::numeric_limits<double>::infinity();
            return result;
        }
    closeSolidFaces(faces);
    const std::size_t n = g.cellCount();
    const float h = g.domain.cellSize;
    const float toScaled = dt / h; // p~ = p dt / h
    if (pressure.size() != n)
        pressure.assign(n, 0.f);

    if (divergence && divergence->size() != n) {
        result.residual = std::numeric_limits<double>::infinity();
        return result;
    }
    std::vector<float> b;
    this->divergence(faces, b);
    if (divergence) // D(u) / h = target over a cell of S^d fine cells
        for (std::size_t t = 0; t < g.tileCount(); ++t) {
            const float volume = float(std::pow(double(g.scale(t)), double(g.dims)));
            for (std::uint32_t c = g.first[t]; c < g.first[t + 1]; ++c)
                if (!g.solid[c])
                    b[c] += (*divergence)[c] * h * volume;
        }
    d->removePocketMeans(b.data(), true);
    std::vector<float> x(n);
    for (std::size_t c = 0; c < n; ++c)
        x[c] = g.solid[c] || !std::isfinite(pressure[c]) ? 0.f : pressure[c] * toScaled;
    d->removePocketMeans(x.data(), false);
    double maxB = 0.0;
    for (float v : b)
        maxB = std::max(maxB, double(std::fabs(v)));
    result.initialResidual = maxB;
    if (!std::isfinite(maxB)) {
        result.residual = std::numeric_limits<double>::infinity();
        return result;
    }
    d->apply(0, x.data(), d->r.data());
    double maxR = 0.0;
    for (std::size_t c = 0; c < n; ++c) {
        d->r[c] = b[c] - d->r[c];
        maxR = std::max(maxR, double(std::fabs(d->r[c])));
    }
    const double target = settings.tolerance * maxB;
    if (maxB == 0.0 || maxR <= target) {
        result.converged = true;
    } else {
        Impl::Cg cg{*d, x, n};
        const CgOutcome outcome = conjugateGradient(cg, maxR, target, settings.maxIterations, true,
                                                    result.iterations);
        result.converged = outcome == CgOutcome::Converged;
    }
    result.residual = maxB > 0.0 ? maxR / maxB : 0.0;

    // u -= grad p~ on every open face, each face once: from the cell above it (its low side),
    // and the domain's high open faces from the cell below.
    const std::uint8_t *solid = g.solid.data();
    forCells(g, [&](std::size_t t, Int3 local, std::uint32_t c) {
        if (solid[c])
            return;
        const float scale = float(g.scale(t));
        for (int a = 0; a < g.dims; ++a) {
            std::vector<float> &u = faces.value[std::size_t(a)];
            std::uint32_t other, face;
            if (insideTile(g, shape, t, local, a, 0, c, other, face)) {
                if (!solid[other])
                    u[face] -= (x[c] - x[other]) / scale;
            } else {
                const Side lo = sideOf(g, shape, t, local, a, 0);
                switch (lo.kind) {
                case Side::Same:
                    if (!solid[lo.other])
                        u[lo.face[0]] -= (x[c] - x[lo.other]) / scale;
                    break;
                case Side::Open: u[lo.face[0]] -= x[c] / scale; break;
                case Side::ToCoarser: // this fine cell's own face over a coarse cell
                    if (!solid[lo.other]) {
                        float mean;
                        fluidMean(lo, solid, x.data(), mean);
                        u[lo.face[0]] -= (mean - x[lo.other]) / (1.5f * scale);
                    }
                    break;
                case Side::ToFiner: { // this coarse cell's face over fine cells
                    float mean;
                    if (fluidMean(lo, solid, x.data(), mean))
                        u[lo.face[0]] -= (x[c] - mean) / (1.5f * lo.fine);
                    break;
                }
                case Side::Wall: break;
                }
            }
            if (local[a] + 1 < g.edge(t))
                continue; // the high side lies inside the tile: not open
            const Side hi = sideOf(g, shape, t, local, a, 1);
            if (hi.kind == Side::Open)
                u[hi.face[0]] -= -x[c] / scale;
        }
    });
    for (std::size_t c = 0; c < n; ++c)
        pressure[c] = solid[c] ? 0.f : x[c] / toScaled;
    return result;
}

std::size_t CompositePressure::memoryBytes() const
{
    std::size_t bytes = 0;
    for (const Impl::Level &L : d->levels) {
        bytes += L.g.memoryBytes()
                 + (L.diag.capacity() + L.x.capacity() + L.b.capacity() + L.r.capacity())
                       * sizeof(float);
        for (int a = 0; a < 3; ++a)
            bytes += L.shape.faceFirst[std::size_t(a)].capacity() * sizeof(std::uint32_t);
    }
    bytes += (d->r.capacity() + d->z.capacity() + d->s.capacity() + d->q.capacity())
             * sizeof(float);
    return bytes + d->bottom.memoryBytes() + d->bottomR.bytes() + d->bottomZ.bytes()
           + d->pocketCells.capacity() * sizeof(std::uint32_t);
}

} // namespace plume::sim
