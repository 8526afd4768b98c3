// SPDX-License-Identifier: Apache-2.0
#pragma once

// Obstacle-aware tracing for the smoke scheme's advection: the solid cells and the walk that
// stops traces at them (the shared voxel walk, voxelwalk.h), interpolation that leaves solid
// samples out, and the clearance map that lets samples far from obstacles skip both (the
// plain and clear paths give the same bits as the exact one there). Internal to plume_sim.

#include <core/sim/numerics/sampling.h>
#include <core/sim/numerics/voxelwalk.h>
#include <core/sim/ops/livetiles.h>

#include <cstdint>
#include <type_traits>
#include <vector>

namespace plume::sim::detail {

/// The solid cells, the test for samples inside them and the walk that stops traces at them.
struct Obstacles
{
    const std::uint8_t *flags = nullptr;
    Int3 n;
    std::size_t fy = 0;
    std::size_t fz = 0;
    bool periodic[3] = {false, false, false};

    bool cell(int i, int j, int k) const
    {
        return flags[std::size_t(i) + fy * std::size_t(j) + fz * std::size_t(k)] != 0;
    }

    /// A face sample is inside an obstacle when every domain cell it touches is solid.
    bool face(int axis, int i, int j, int k) const
    {
        int lo[3] = {i, j, k};
        int hi[3] = {i, j, k};
        const int along = lo[axis];
        lo[axis] = along > 0 ? along - 1 : (periodic[axis] ? n[axis] - 1 : -1);
        hi[axis] = along < n[axis] ? along : (periodic[axis] ? 0 : -1);
        const bool loSolid = lo[axis] < 0 || cell(lo[0], lo[1], lo[2]);
        return loSolid && (hi[axis] < 0 || cell(hi[0], hi[1], hi[2]));
    }

    /// Cell samples when faceAxis < 0, else the faces of that axis.
    bool sample(int faceAxis, int i, int j, int k) const
    {
        return faceAxis < 0 ? cell(i, j, k) : face(faceAxis, i, j, k);
    }

    /// The walk's policy (voxelwalk.h): cells 0..n-1, periodic axes wrap, a closed face ends
    /// the walk, a budget of the path's cells plus two per axis.
    template<bool k3D>
    struct Walk;

    template<bool k3D>
    Vec3 clip(Vec3 from, Vec3 to) const;

    template<bool k3D>
    Vec3 clipAtFaces(Vec3 from, Vec3 to) const;
};

template<bool k3D>
struct Obstacles::Walk
{
    const Obstacles &o;

    int clampStart(int a, int ci) const
    {
        return o.periodic[a] ? ci : std::clamp(ci, 0, o.n[a] - 1);
    }
    int wrapStart(int a, int ci) const
    {
        return ci < 0 ? ci + o.n[a] : (ci >= o.n[a] ? ci - o.n[a] : ci);
    }
    bool startsSolid(const int c[3]) const
    {
        return c[0] >= 0 && c[0] < o.n.x && c[1] >= 0 && c[1] < o.n.y && c[2] >= 0 && c[2] < o.n.z
               && o.cell(c[0], c[1], c[2]);
    }
    bool enter(int a, int &ci) const
    {
        if (ci < 0 || ci >= o.n[a]) {
            if (!o.periodic[a])
                return false;
            ci = ci < 0 ? o.n[a] - 1 : 0;
        }
        return true;
    }
    bool solid(const int c[3]) const { return o.cell(c[0], c[1], c[2]); }
    int budget(const float d[3]) const
    {
        int steps = 2;
        for (int a = 0; a < (k3D ? 3 : 2); ++a)
            steps += int(std::min(std::fabs(d[a]), float(o.n[a]))) + 2;
        return steps;
    }
};

/// Amanatides & Woo (1987) voxel walk from `from` to `to`: returns `to` when the path is clear,
/// else the point 1e-4 cells before the first solid cell, or the domain face where the path
/// leaves through a closed (non-periodic) axis. A solid start cell is left only along the
/// path's first step at t = 0 (a face sample on the side of an obstacle); otherwise the trace
/// stays put.
template<bool k3D>
Vec3 Obstacles::clip(Vec3 from, Vec3 to) const
{
    const float d[3] = {to.x - from.x, to.y - from.y, k3D ? to.z - from.z : 0.f};
    const float start[3] = {from.x, from.y, from.z};
    VoxelWalk w;
    const WalkResult r = walkFromPoint<k3D>(Walk<k3D>{*this}, start, d, w);
    const Vec3 path{d[0], d[1], d[2]};
    switch (r.end) {
    case WalkEnd::Clear: return to;
    case WalkEnd::Solid: {
        const float longest = std::max(std::max(std::fabs(d[0]), std::fabs(d[1])), std::fabs(d[2]));
        const float backOff = 1e-4f / longest; // stop 1e-4 cells before the solid
        return from + path * std::max(0.f, r.t - backOff);
    }
    case WalkEnd::Face: return from + path * r.t;
    case WalkEnd::Budget: return from + path * std::min(r.t, 1.f);
    case WalkEnd::NonFinite:
    case WalkEnd::Stuck: break;
    }
    return from;
}

/// clip() for a finite path that meets no solid cell, without the walk: the walk then stops
/// only at its first crossing out through a closed face. Each axis's crossing times are summed
/// as the walk sums them, so the result has the same bits.
template<bool k3D>
Vec3 Obstacles::clipAtFaces(Vec3 from, Vec3 to) const
{
    const float d[3] = {to.x - from.x, to.y - from.y, k3D ? to.z - from.z : 0.f};
    float first = kInf;
    for (int a = 0; a < (k3D ? 3 : 2); ++a) {
        if (periodic[a] || !(std::fabs(d[a]) > 0.f))
            continue;
        const float s = from[a];
        int ci = int(s);
        ci -= float(ci) > s ? 1 : 0; // floor
        ci = std::clamp(ci, 0, n[a] - 1);
        const float base = float(ci);
        float t = (d[a] > 0.f ? base + 1.f - s : base - s) / d[a];
        const float delta = 1.f / std::fabs(d[a]);
        const int inside = d[a] > 0.f ? n[a] - 1 - ci : ci; // crossings before leaving
        for (int m = 0; m < inside && t < 1.f; ++m)
            t += delta;
        first = std::min(first, t);
    }
    if (!(first < 1.f))
        return to;
    return from + Vec3{d[0], d[1], d[2]} * first;
}

/// Interpolation that skips samples inside obstacles: their weights go to the other corners.
/// Also gives the range of the corners used. False when no corner is usable. Without solid
/// corners it is interpolate() and cornerRange() themselves, bit for bit, so a sample far
/// from obstacles gives the same value on the exact path as on the plain one.
template<bool k3D>
inline bool interpolateFluid(const float *d, const Stencil &s, const Obstacles &o, int faceAxis,
                             float &value, float &lo, float &hi)
{
    unsigned solid = 0; // bit c: corner c is inside an obstacle
    for (int c = 0; c < (k3D ? 8 : 4); ++c) {
        const int k = k3D ? ((c & 4) ? s.z.i1 : s.z.i0) : 0;
        if (o.sample(faceAxis, (c & 1) ? s.x.i1 : s.x.i0, (c & 2) ? s.y.i1 : s.y.i0, k))
            solid |= 1u << c;
    }
    if (solid == 0) {
        value = interpolate<k3D>(d, s);
        cornerRange<k3D>(d, s, lo, hi);
        return true;
    }
    float sum = 0.f;
    float weight = 0.f;
    lo = kInf;
    hi = -kInf;
    for (int c = 0; c < (k3D ? 8 : 4); ++c) {
        if (solid & (1u << c))
            continue;
        float w = ((c & 1) ? s.x.f : 1.f - s.x.f) * ((c & 2) ? s.y.f : 1.f - s.y.f);
        if constexpr (k3D)
            w *= (c & 4) ? s.z.f : 1.f - s.z.f;
        const float v = d[s.idx[c]];
        sum += w * v;
        weight += w;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    if (!(weight > 0.f))
        return false;
    value = sum / weight;
    return true;
}

/// Everything a kernel needs to know about the domain and its obstacles.
struct Setup
{
    Domain domain;
    Obstacles obstacles;
    bool periodic[3] = {false, false, false};
    /// Chebyshev distance in cells from each cell to the nearest solid (see clearanceMap);
    /// null when every sample takes the exact path.
    const std::uint8_t *clearance = nullptr;
    /// The same distances whatever path the samples take (null without obstacles): the
    /// second-order corrections are switched off next to obstacles (Passes::nearSolid).
    const std::uint8_t *solidDistance = nullptr;
    /// A trace that ends inside [boxLo, boxHi] cannot have crossed a closed face: 0.25 cells
    /// inside them (far more than the walk's rounding), unbounded along periodic axes.
    Vec3 boxLo{-kInf, -kInf, -kInf};
    Vec3 boxHi{kInf, kInf, kInf};
    /// Cell-centred sweeps only (null: every sample): per row j + ny k, the samples
    /// [activeLo, activeHi) that can be non-zero. The others are zeroed without being traced
    /// (Advector's scalars: where every value within reach is zero, every pass gives zero).
    const int *activeLo = nullptr;
    const int *activeHi = nullptr;
    /// Face sweeps only (none: every sample): a face is computed when a cell on either side of
    /// it lies in a live tile (LiveTiles::forFaces); the others are not written, and the
    /// caller fills them.
    LiveTiles liveTiles;
};

/// `distances` is the clearance map (empty without solids); with `exactEverywhere` every
/// sample takes the exact path, but the near-solid fallback still reads the distances.
Setup makeSetup(const Domain &domain, const FlagGrid *solids, bool anySolid,
                const std::vector<std::uint8_t> &distances, bool exactEverywhere);

/// The three ways a sample is computed. Plain: straight traces, plain interpolation and
/// velocity (no obstacles in the domain, or none and no closed face within reach). Clear: no
/// obstacle within reach: the same, but a trace that could have crossed a closed face stops
/// there as the walk would (clipAtFaces). Exact: the walk also stops at solid cells,
/// interpolation and face velocities leave out solid samples.
enum class Path { Plain, Clear, Exact };

template<Path kPath>
using PathTag = std::integral_constant<Path, kPath>;

/// End of a trace from p to p + d along `kPath`.
template<bool k3D, Path kPath>
PLUME_INLINE Vec3 trace(const Setup &c, Vec3 p, Vec3 d)
{
    const Vec3 to = p + d;
    if constexpr (kPath == Path::Plain) {
        return to;
    } else if constexpr (kPath == Path::Clear) {
        const bool inside = to.x >= c.boxLo.x && to.x <= c.boxHi.x && to.y >= c.boxLo.y
                            && to.y <= c.boxHi.y
                            && (!k3D || (to.z >= c.boxLo.z && to.z <= c.boxHi.z));
        return inside ? to : c.obstacles.clipAtFaces<k3D>(p, to);
    } else {
        return c.obstacles.clip<k3D>(p, to);
    }
}

/// Value at a stencil; on the exact path, `fallback` (the start sample's value) when every
/// corner is solid.
template<bool k3D, Path kPath>
PLUME_INLINE float valueAt(const Setup &c, int faceAxis, const float *d, const Stencil &s,
                           float fallback)
{
    if constexpr (kPath == Path::Exact) {
        float v, lo, hi;
        return interpolateFluid<k3D>(d, s, c.obstacles, faceAxis, v, lo, hi) ? v : fallback;
    } else {
        return interpolate<k3D>(d, s);
    }
}

/// Range of the usable corners of a stencil (the limiter's bounds).
template<bool k3D, Path kPath>
PLUME_INLINE void rangeAt(const Setup &c, int faceAxis, const float *d, const Stencil &s,
                          float fallback, float &lo, float &hi)
{
    if constexpr (kPath == Path::Exact) {
        float v;
        if (!interpolateFluid<k3D>(d, s, c.obstacles, faceAxis, v, lo, hi))
            lo = hi = fallback;
    } else {
        cornerRange<k3D>(d, s, lo, hi);
    }
}

// ---- Where the plain path is exact ----------------------------------------------------------

/// Largest clearance stored: enough for traces of up to 30 cells.
constexpr int kClearanceCap = 32;

/// Chebyshev (L-infinity) distance in cells from every cell to the nearest solid cell, capped
/// at kClearanceCap and at the length of the shortest periodic axis (a trace longer than that
/// would outrun the walk's step budget); periodic axes wrap.
std::vector<std::uint8_t> clearanceMap(const Domain &d, const FlagGrid &solids);

/// Picks, sample by sample along one row, the cheapest path that gives the same bits as the
/// exact one. With |d| <= D cells on every axis, the walk and the interpolation corners of
/// both traces (x + d and x - d) stay within floor(D) + 1 cells of the sample's cell, and the
/// faces its velocity averages within one: when all those cells are fluid (clearance
/// > floor(D) + 1), the walk meets no solid, no corner is solid and the velocity is the plain
/// average (the clear path). If moreover |d| along each axis stays under the distance to the
/// closed faces, the walk cannot stop at one either and the traces are straight (the plain
/// path). Both limits keep 0.25 cells for the rounding of the walk's crossing times.
struct RowClearance
{
    const std::uint8_t *cells = nullptr; ///< clearance of the row's cells; null: all exact
    int lastX = 0;
    float endX = kInf;  ///< room along x is max(min(i + biasX, endX - i), 0): infinite when
    float biasX = kInf; ///< x is periodic
    float roomY = 0.f;  ///< room along y and z for the whole row
    float roomZ = 0.f;

    /// Clear of solids: the limit on |d| per axis (NaN fails every comparison).
    PLUME_INLINE float reach(int i) const { return float(cells[std::min(i, lastX)]) - 1.25f; }

    PLUME_INLINE bool plain(float reach, int i, float ax, float ay, float az) const
    {
        const float fi = float(i);
        const float wallX = std::max(std::min(fi + biasX, endX - fi), 0.f);
        return (ax <= reach) & (ay <= reach) & (az <= reach) & (ax <= wallX) & (ay <= roomY)
               & (az <= roomZ);
    }

    PLUME_INLINE Path path(int i, Vec3 d) const
    {
        if (!cells)
            return Path::Exact;
        const float ax = std::fabs(d.x);
        const float ay = std::fabs(d.y);
        const float az = std::fabs(d.z);
        const float r = reach(i);
        if (plain(r, i, ax, ay, az))
            return Path::Plain;
        return ax <= r && ay <= r && az <= r ? Path::Clear : Path::Exact;
    }

    /// Whether samples [begin, end) with displacements dx, dy, dz (indexed from begin) take
    /// the plain path, in a loop without branches; the faces past the last cell are left to
    /// path().
    void classify(int begin, int end, const float *dx, const float *dy, const float *dz,
                  bool *isPlain) const
    {
        const int stop = cells ? std::min(end, lastX + 1) : begin;
        for (int i = begin; i < stop; ++i) {
            const int m = i - begin;
            isPlain[m] = plain(float(cells[i]) - 1.25f, i, std::fabs(dx[m]), std::fabs(dy[m]),
                               std::fabs(dz[m]));
        }
        for (int i = std::max(stop, begin); i < end; ++i)
            isPlain[i - begin] = false;
    }
};

/// The clearance of the cells of row (j, k) (faces past the last cell use the last cell) and
/// the room before closed faces, for samples of faceAxis (cells when negative).
RowClearance rowClearance(const Setup &c, int faceAxis, int j, int k);

} // namespace plume::sim::detail
