// Longer than the usual 800 lines on purpose: the samplers, the DDA walk, the clearance map
// that lets samples away from obstacles skip it, the three transport schemes and accounting
// advection share per-sample helpers that must inline into every kernel; splitting the file
// would move them into a header for no reader's benefit.
#include "advection.h"

#include "parallel.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

// The per-sample helpers below must be inlined into the row loops: GCC otherwise keeps some
// out of line, which costs a factor of two or more in the kernels.
#if defined(__GNUC__)
#define PLUME_INLINE [[gnu::always_inline]] inline
#define PLUME_LAMBDA_INLINE __attribute__((always_inline))
#define PLUME_LAMBDA_COLD __attribute__((noinline, cold))
#else
#define PLUME_INLINE inline
#define PLUME_LAMBDA_INLINE
#define PLUME_LAMBDA_COLD
#endif

namespace plume::sim {

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

// ---- Sampling -------------------------------------------------------------------------------

/// How positions (cell coordinates) map to the samples of one axis of a grid.
struct AxisMap
{
    float offset = 0.5f; ///< cell coordinate of sample 0
    float last = 0.f;    ///< highest sample index (clamp limit of non-periodic axes)
    int samples = 1;
    int period = 1;      ///< domain cells along the axis: the wrap length of a periodic axis
    bool periodic = false;
};

/// The three axis maps and the strides of a grid.
struct GridMap
{
    AxisMap axis[3];
    std::size_t sy = 0;
    std::size_t sz = 0;
};

bool isPeriodic(const Domain &d, int axis)
{
    return (axis < 2 || !d.is2D()) && d.boundary(axis, false) == Boundary::Periodic;
}

GridMap gridMap(const ScalarGrid &g, const Domain &d)
{
    GridMap m;
    for (int a = 0; a < 3; ++a) {
        AxisMap &x = m.axis[a];
        x.offset = g.offset()[a];
        x.samples = std::max(g.size()[a], 1);
        x.last = float(x.samples - 1);
        x.period = std::max(d.cells[a], 1);
        // A grid too small for the domain's period is clamped instead: never read outside it.
        x.periodic = isPeriodic(d, a) && x.samples >= x.period;
    }
    m.sy = g.strideY();
    m.sz = g.strideZ();
    return m;
}

/// Wraps a coordinate into [0, n): the common case without a division; NaN lands on 0.
inline float wrapCoordinate(float s, float n)
{
    float r = s < 0.f ? s + n : (s >= n ? s - n : s);
    if (!(r >= 0.f && r < n)) {
        r = s - n * std::floor(s / n);
        if (!(r >= 0.f && r < n))
            r = 0.f;
    }
    return r;
}

/// Two neighbouring samples along one axis and the fraction between them.
struct Lerp
{
    int i0 = 0;
    int i1 = 0;
    float f = 0.f;
};

/// Linear stencil along one axis: periodic axes wrap (sample n is sample 0), others clamp to the
/// grid's samples.
PLUME_INLINE Lerp locate(const AxisMap &a, float p)
{
    float s = p - a.offset;
    if (a.periodic) {
        s = wrapCoordinate(s, float(a.period));
        const int i0 = int(s);
        return {i0, i0 + 1 < a.period ? i0 + 1 : 0, s - float(i0)};
    }
    s = s > 0.f ? s : 0.f; // also maps NaN to 0
    s = s < a.last ? s : a.last;
    const int i0 = std::min(int(s), std::max(a.samples - 2, 0));
    return {i0, std::min(i0 + 1, a.samples - 1), s - float(i0)};
}

/// Trilinear (bilinear in 2D) stencil; corner c is x + 2y + 4z in low/high bits.
struct Stencil
{
    Lerp x, y, z;
    std::size_t idx[8];
};

template<bool k3D>
PLUME_INLINE Stencil stencilAt(const GridMap &m, Vec3 p)
{
    Stencil s;
    s.x = locate(m.axis[0], p.x);
    s.y = locate(m.axis[1], p.y);
    const std::size_t r0 = m.sy * std::size_t(s.y.i0);
    const std::size_t r1 = m.sy * std::size_t(s.y.i1);
    s.idx[0] = r0 + std::size_t(s.x.i0);
    s.idx[1] = r0 + std::size_t(s.x.i1);
    s.idx[2] = r1 + std::size_t(s.x.i0);
    s.idx[3] = r1 + std::size_t(s.x.i1);
    if constexpr (k3D) {
        s.z = locate(m.axis[2], p.z);
        const std::size_t z0 = m.sz * std::size_t(s.z.i0);
        const std::size_t z1 = m.sz * std::size_t(s.z.i1);
        for (int c = 0; c < 4; ++c) {
            s.idx[c + 4] = s.idx[c] + z1;
            s.idx[c] += z0;
        }
    }
    return s;
}

/// Trilinear interpolation as nested lerps (exact when the fractions are 0).
template<bool k3D>
PLUME_INLINE float interpolate(const float *d, const Stencil &s)
{
    const float fx = s.x.f;
    const float a = d[s.idx[0]] + fx * (d[s.idx[1]] - d[s.idx[0]]);
    const float b = d[s.idx[2]] + fx * (d[s.idx[3]] - d[s.idx[2]]);
    const float lo = a + s.y.f * (b - a);
    if constexpr (!k3D)
        return lo;
    const float c = d[s.idx[4]] + fx * (d[s.idx[5]] - d[s.idx[4]]);
    const float e = d[s.idx[6]] + fx * (d[s.idx[7]] - d[s.idx[6]]);
    const float hi = c + s.y.f * (e - c);
    return lo + s.z.f * (hi - lo);
}

/// Smallest and largest corner value: the limiter of Selle et al. 2008.
template<bool k3D>
PLUME_INLINE void cornerRange(const float *d, const Stencil &s, float &lo, float &hi)
{
    lo = hi = d[s.idx[0]];
    for (int c = 1; c < (k3D ? 8 : 4); ++c) {
        lo = std::min(lo, d[s.idx[c]]);
        hi = std::max(hi, d[s.idx[c]]);
    }
}

// ---- Obstacles ------------------------------------------------------------------------------

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

    template<bool k3D>
    Vec3 clip(Vec3 from, Vec3 to) const;

    template<bool k3D>
    Vec3 clipAtFaces(Vec3 from, Vec3 to) const;
};

/// Amanatides & Woo (1987) voxel walk from `from` to `to`: returns `to` when the path is clear,
/// else the point just before the first solid cell, or the domain face where the path leaves
/// through a closed (non-periodic) axis. A solid start cell is left only along the path's first
/// step at t = 0 (a face sample on the side of an obstacle); otherwise the trace stays put.
template<bool k3D>
Vec3 Obstacles::clip(Vec3 from, Vec3 to) const
{
    constexpr int kAxes = k3D ? 3 : 2;
    const float d[3] = {to.x - from.x, to.y - from.y, k3D ? to.z - from.z : 0.f};
    int c[3] = {0, 0, 0};
    int step[3] = {0, 0, 0};
    float tMax[3] = {kInf, kInf, kInf};
    float tDelta[3] = {kInf, kInf, kInf};
    float longest = 0.f;
    int steps = 2;
    for (int a = 0; a < kAxes; ++a) {
        if (!std::isfinite(d[a]) || !std::isfinite(from[a]))
            return from;
        const float s = from[a];
        int ci = int(s);
        ci -= float(ci) > s ? 1 : 0; // floor
        if (!periodic[a])
            ci = std::clamp(ci, 0, n[a] - 1);
        const float base = float(ci);
        c[a] = ci < 0 ? ci + n[a] : (ci >= n[a] ? ci - n[a] : ci);
        const float ad = std::fabs(d[a]);
        if (ad > 0.f) {
            step[a] = d[a] > 0.f ? 1 : -1;
            tMax[a] = (d[a] > 0.f ? base + 1.f - s : base - s) / d[a];
            tDelta[a] = 1.f / ad;
        }
        longest = std::max(longest, ad);
        steps += int(std::min(ad, float(n[a]))) + 2;
    }
    if (longest == 0.f)
        return to;
    bool startSolid = c[0] >= 0 && c[0] < n.x && c[1] >= 0 && c[1] < n.y && c[2] >= 0
                      && c[2] < n.z && cell(c[0], c[1], c[2]);
    const float backOff = 1e-4f / longest; // stop 1e-4 cells before the solid
    float t = 0.f;
    for (int s = 0; s < steps; ++s) {
        int a = tMax[1] < tMax[0] ? 1 : 0;
        if (k3D && tMax[2] < tMax[a])
            a = 2;
        t = tMax[a];
        if (startSolid && t > 0.f)
            return from;
        startSolid = false;
        if (!(t < 1.f))
            return to;
        int ci = c[a] + step[a];
        if (ci < 0 || ci >= n[a]) {
            if (!periodic[a])
                return from + Vec3{d[0], d[1], d[2]} * t;
            ci = ci < 0 ? n[a] - 1 : 0;
        }
        c[a] = ci;
        if (cell(c[0], c[1], c[2]))
            return from + Vec3{d[0], d[1], d[2]} * std::max(0.f, t - backOff);
        tMax[a] += tDelta[a];
    }
    return from + Vec3{d[0], d[1], d[2]} * std::min(t, 1.f);
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
};

/// `distances` is the clearance map (empty without solids); with `exactEverywhere` every
/// sample takes the exact path, but the near-solid fallback still reads the distances.
Setup makeSetup(const Domain &domain, const FlagGrid *solids, bool anySolid,
                const std::vector<std::uint8_t> &distances, bool exactEverywhere)
{
    Setup c;
    c.domain = domain;
    Obstacles &o = c.obstacles;
    o.n = domain.cells;
    for (int a = 0; a < 3; ++a)
        c.periodic[a] = o.periodic[a] = isPeriodic(domain, a);
    if (anySolid) {
        o.flags = solids->data();
        o.fy = std::size_t(o.n.x);
        o.fz = std::size_t(o.n.x) * std::size_t(o.n.y);
        c.solidDistance = distances.empty() ? nullptr : distances.data();
        c.clearance = exactEverywhere ? nullptr : c.solidDistance;
    }
    for (int a = 0; a < domain.dimensions(); ++a) {
        if (!c.periodic[a]) {
            c.boxLo[a] = 0.25f;
            c.boxHi[a] = float(domain.cells[a]) - 0.25f;
        }
    }
    return c;
}

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
                            && to.y <= c.boxHi.y && (!k3D || (to.z >= c.boxLo.z
                                                               && to.z <= c.boxHi.z));
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

/// One offset of the min-max filter along a row: dst = min(dst, max(delta, src)). The rows
/// never overlap; saying so lets the loop vectorise.
void minOfFarther(std::uint8_t *__restrict dst, const std::uint8_t *__restrict src,
                  std::uint8_t delta, int count)
{
    for (int i = 0; i < count; ++i)
        dst[i] = std::min(dst[i], std::max(delta, src[i]));
}

/// Chebyshev (L-infinity) distance in cells from every cell to the nearest solid cell, capped
/// at kClearanceCap and at the length of the shortest periodic axis (a trace longer than that
/// would outrun the walk's step budget); periodic axes wrap. Separable (min-max filters): a
/// two-sweep distance along each x-row, then windows of half-width cap - 1 along y and z.
std::vector<std::uint8_t> clearanceMap(const Domain &d, const FlagGrid &solids)
{
    const Int3 n = d.cells;
    int cap = kClearanceCap;
    for (int a = 0; a < d.dimensions(); ++a)
        cap = isPeriodic(d, a) ? std::min(cap, n[a]) : cap;
    std::vector<std::uint8_t> out(std::size_t(n.volume()));
    const std::uint8_t *flags = solids.data();
    const bool wrapX = isPeriodic(d, 0);
    forEachRow(n, [&](int j, int k) {
        const std::size_t row = solids.index(0, j, k);
        // Forward then backward: distance to the nearest solid on the left, then the right;
        // a periodic row runs two laps so that the wrapped neighbours count.
        int run = cap;
        for (int t = wrapX ? -n.x : 0; t < n.x; ++t) {
            const int i = t < 0 ? t + n.x : t;
            run = flags[row + std::size_t(i)] ? 0 : std::min(run + 1, cap);
            if (t >= 0)
                out[row + std::size_t(i)] = std::uint8_t(run);
        }
        run = cap;
        for (int t = wrapX ? 2 * n.x - 1 : n.x - 1; t >= 0; --t) {
            const int i = t >= n.x ? t - n.x : t;
            run = flags[row + std::size_t(i)] ? 0 : std::min(run + 1, cap);
            std::uint8_t &o = out[row + std::size_t(i)];
            if (t < n.x)
                o = std::uint8_t(std::min<int>(o, run));
        }
    });
    std::vector<std::uint8_t> in(out.size());
    for (int axis = 1; axis < d.dimensions(); ++axis) {
        in.swap(out);
        const bool wrap = isPeriodic(d, axis);
        const std::size_t stride = axis == 1 ? solids.index(0, 1, 0) : solids.index(0, 0, 1);
        forEachRow(n, [&](int j, int k) {
            const int at = axis == 1 ? j : k;
            const std::uint8_t *own = in.data() + solids.index(0, j, k);
            std::uint8_t *dst = out.data() + solids.index(0, j, k);
            std::copy_n(own, n.x, dst);
            for (int delta = 1; delta < cap; ++delta) {
                for (int side : {-1, 1}) {
                    int from = at + side * delta;
                    if (from < 0 || from >= n[axis]) {
                        if (!wrap)
                            continue;
                        from = ((from % n[axis]) + n[axis]) % n[axis];
                    }
                    const std::uint8_t *src =
                        own + (std::ptrdiff_t(from) - at) * std::ptrdiff_t(stride);
                    minOfFarther(dst, src, std::uint8_t(delta), n.x);
                }
            }
        });
    }
    return out;
}

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

/// How far a trace may go along `axis` from samples at index `at` (cells, or faces of that
/// axis when `face`) before the walk could meet a closed face: a cell's centre is half a cell
/// further from the face than its index says, a face sits on a cell boundary. A periodic axis
/// has no such face.
float roomAlong(const Setup &c, int axis, int at, bool face)
{
    const int n = c.domain.cells[axis];
    if (c.periodic[axis])
        return kInf;
    if (face)
        return std::max(float(std::min(at, n - at)) - 0.25f, 0.f);
    return float(std::min(at, n - 1 - at)) + 0.25f;
}

/// The clearance of the cells of row (j, k) (faces past the last cell use the last cell) and
/// the room before closed faces, for samples of faceAxis (cells when negative).
RowClearance rowClearance(const Setup &c, int faceAxis, int j, int k)
{
    RowClearance r;
    if (!c.clearance)
        return r;
    const Int3 n = c.domain.cells;
    const int cj = std::min(j, n.y - 1);
    const int ck = std::min(k, n.z - 1);
    r.cells = c.clearance + std::size_t(n.x) * (std::size_t(cj) + std::size_t(n.y) * ck);
    r.lastX = n.x - 1;
    if (!c.periodic[0]) {
        r.endX = faceAxis == 0 ? float(n.x) - 0.25f : float(n.x - 1) + 0.25f;
        r.biasX = faceAxis == 0 ? -0.25f : 0.25f;
    }
    r.roomY = roomAlong(c, 1, j, faceAxis == 1);
    r.roomZ = c.domain.is2D() ? 0.f : roomAlong(c, 2, k, faceAxis == 2);
    return r;
}

// ---- Velocity at the samples ----------------------------------------------------------------

/// Displacement in cells over the step at the centre of cell (i,j,k): the average of the two
/// faces per axis times dt / h. row(j, k) gives a functor of i for one x-row; obstacles do not
/// change it, so exact() is the same value.
template<bool k3D>
struct CentreDisplacement
{
    const MacGrid &vel;
    float scale;

    struct Row
    {
        const float *u, *v0, *v1, *w0, *w1;
        float half;
        PLUME_INLINE Vec3 operator()(int i) const
        {
            return {half * (u[i] + u[i + 1]), half * (v0[i] + v1[i]),
                    k3D ? half * (w0[i] + w1[i]) : 0.f};
        }

        /// operator() for i in [begin, end), into arrays indexed from begin.
        void fill(int begin, int end, float *dx, float *dy, float *dz) const
        {
            for (int i = begin; i < end; ++i) {
                dx[i - begin] = half * (u[i] + u[i + 1]);
                dy[i - begin] = half * (v0[i] + v1[i]);
                dz[i - begin] = k3D ? half * (w0[i] + w1[i]) : 0.f;
            }
        }
    };

    Row row(int j, int k) const
    {
        const float *w0 = k3D ? vel.w.data() + vel.w.index(0, j, k) : nullptr;
        return {vel.u.data() + vel.u.index(0, j, k), vel.v.data() + vel.v.index(0, j, k),
                vel.v.data() + vel.v.index(0, j + 1, k), w0, k3D ? w0 + vel.w.strideZ() : nullptr,
                0.5f * scale};
    }

    Vec3 exact(int i, int j, int k) const { return row(j, k)(i); }
};

/// Displacement in cells at a face of axis kAxis: its own component, and the average of the
/// four nearest faces of each other component. row(j, k) gives the plain form for one x-row;
/// exact() leaves out the faces inside obstacles. The two agree wherever no cell next to the
/// face's own cells is solid.
template<bool k3D, int kAxis>
struct FaceDisplacement
{
    const MacGrid &vel;
    const Setup &setup;
    float scale;

    /// The general form: any face, the domain's ends handled, obstacles when kSolids.
    template<bool kSolids>
    Vec3 general(int i, int j, int k) const
    {
        Vec3 d;
        d[kAxis] = scale * vel.component(kAxis)(i, j, k);
        const int n = setup.domain.cells[kAxis];
        const int idx[3] = {i, j, k};
        // The two cells on either side of the face: wrapped or clamped into the domain.
        int lo = idx[kAxis] - 1;
        int hi = idx[kAxis];
        lo = lo >= 0 ? lo : (setup.periodic[kAxis] ? n - 1 : 0);
        hi = hi < n ? hi : (setup.periodic[kAxis] ? 0 : n - 1);
        for (int b = 0; b < (k3D ? 3 : 2); ++b) {
            if (b == kAxis)
                continue;
            const ScalarGrid &g = vel.component(b);
            float sum = 0.f;
            int count = 0;
            for (int corner = 0; corner < 4; ++corner) {
                int at[3] = {i, j, k};
                at[kAxis] = (corner & 1) ? hi : lo;
                at[b] += corner >> 1;
                if constexpr (kSolids) {
                    if (setup.obstacles.face(b, at[0], at[1], at[2]))
                        continue;
                }
                sum += g(at[0], at[1], at[2]);
                ++count;
            }
            d[b] = count == 4 ? 0.25f * scale * sum
                              : (count > 0 ? scale * sum / float(count) : 0.f);
        }
        return d;
    }

    Vec3 exact(int i, int j, int k) const { return general<true>(i, j, k); }

    /// One x-row: the four neighbours of each other component are four row pointers read at i
    /// (shifted by -1, 0 or +1); the ends of a u-row take the general form.
    struct Row
    {
        const FaceDisplacement &f;
        int j, k;
        const float *own;
        const float *p[2][4];
        float quarter;

        PLUME_INLINE Vec3 operator()(int i) const
        {
            if (kAxis == 0 && (i == 0 || i == f.setup.domain.cells.x))
                return f.template general<false>(i, j, k);
            float s[2];
            for (int m = 0; m < (k3D ? 2 : 1); ++m)
                s[m] = quarter * (p[m][0][i] + p[m][1][i] + p[m][2][i] + p[m][3][i]);
            Vec3 d;
            d[kAxis] = 4.f * quarter * own[i];
            d[kAxis == 0 ? 1 : 0] = s[0];
            if constexpr (k3D)
                d[kAxis == 2 ? 1 : 2] = s[1];
            return d;
        }

        /// operator() for i in [begin, end), into arrays indexed from begin: one loop without
        /// branches over the inner faces, the ends of a u-row apart.
        void fill(int begin, int end, float *dx, float *dy, float *dz) const
        {
            float *out[3] = {dx, dy, dz};
            float *mine = out[kAxis];
            float *first = out[kAxis == 0 ? 1 : 0];
            float *second = out[kAxis == 2 ? 1 : 2];
            const int nx = f.setup.domain.cells.x;
            const int lo = kAxis == 0 ? std::max(begin, 1) : begin;
            const int hi = kAxis == 0 ? std::min(end, nx) : end;
            for (int i = lo; i < hi; ++i) {
                const int m = i - begin;
                mine[m] = 4.f * quarter * own[i];
                first[m] = quarter * (p[0][0][i] + p[0][1][i] + p[0][2][i] + p[0][3][i]);
                second[m] = k3D ? quarter * (p[1][0][i] + p[1][1][i] + p[1][2][i] + p[1][3][i])
                                : 0.f;
            }
            for (int i : {begin, end - 1}) {
                if (kAxis == 0 && (i == 0 || i == nx)) {
                    const Vec3 d = f.template general<false>(i, j, k);
                    dx[i - begin] = d.x;
                    dy[i - begin] = d.y;
                    dz[i - begin] = d.z;
                }
            }
        }
    };

    Row row(int j, int k) const
    {
        Row r{*this, j, k, vel.component(kAxis).data() + vel.component(kAxis).index(0, j, k),
              {}, 0.25f * scale};
        const int idx[3] = {0, j, k};
        const int n = setup.domain.cells[kAxis];
        int m = 0;
        for (int b = 0; b < (k3D ? 3 : 2); ++b) {
            if (b == kAxis)
                continue;
            const ScalarGrid &g = vel.component(b);
            for (int corner = 0; corner < 4; ++corner) {
                int at[3] = {idx[0], idx[1], idx[2]};
                int shift = 0;
                // Across the face (along kAxis): cells lo = along - 1 and hi = along.
                if (kAxis == 0) {
                    shift = (corner & 1) ? 0 : -1;
                } else {
                    const int along = idx[kAxis];
                    int lo = along - 1;
                    int hi = along;
                    lo = lo >= 0 ? lo : (setup.periodic[kAxis] ? n - 1 : 0);
                    hi = hi < n ? hi : (setup.periodic[kAxis] ? 0 : n - 1);
                    at[kAxis] = (corner & 1) ? hi : lo;
                }
                // Along b: the two faces of that cell.
                if (b == 0)
                    shift += corner >> 1;
                else
                    at[b] += corner >> 1;
                r.p[m][corner] = g.data() + g.index(0, at[1], at[2]) + shift;
            }
            ++m;
        }
        return r;
    }
};

// ---- Passes ---------------------------------------------------------------------------------

/// Calls body(path, src, position, displacement, dst) for every sample of a grid of `size`
/// and `off` (cell-centred when faceAxis < 0, else the faces of that axis); the body stores
/// its results at index dst of its outputs, and zero(dst) clears the samples inside
/// obstacles. `path` is a PathTag. Without obstacles every sample is plain (traces are not
/// stopped at closed faces then); with them RowClearance picks the path. Rows go in chunks:
/// displacements and plain/other first, in loops without branches, then the samples. The last
/// face of a periodic axis is computed as the first one, so the two stay byte-equal.
template<bool kSolids, class Disp, class Body, class Zero>
void visitSamples(const Setup &c, Int3 size, Vec3 off, int faceAxis, const Disp &disp,
                  Body &&body, Zero &&zero)
{
    constexpr int kChunk = 64;
    const bool alias = faceAxis >= 0 && c.periodic[faceAxis];
    const int last = faceAxis >= 0 ? c.domain.cells[faceAxis] : -1;
    const int aliasI = alias && faceAxis == 0 ? last : -1;
    const std::size_t sy = std::size_t(size.x);
    const std::size_t sz = sy * std::size_t(size.y);
    // Samples off the plain path, kept out of the row loop so that it stays compact.
    const auto other = [&](const RowClearance &room, std::size_t n, Vec3 p, Vec3 d, int i, int j,
                           int k, std::size_t at) PLUME_LAMBDA_COLD {
        if (room.path(i, d) == Path::Exact) {
            if (c.obstacles.sample(faceAxis, i, j, k))
                zero(at);
            else
                body(PathTag<Path::Exact>{}, n, p, disp.exact(i, j, k), at);
            return;
        }
        body(PathTag<Path::Clear>{}, n, p, d, at);
    };
    forEachRow(size, [&](int j, int k) {
        const int sj = alias && faceAxis == 1 && j == last ? 0 : j;
        const int sk = alias && faceAxis == 2 && k == last ? 0 : k;
        const std::size_t row = sy * std::size_t(j) + sz * std::size_t(k);
        const std::size_t srcRow = sy * std::size_t(sj) + sz * std::size_t(sk);
        const auto velocity = disp.row(sj, sk);
        [[maybe_unused]] const RowClearance room = kSolids ? rowClearance(c, faceAxis, sj, sk)
                                                           : RowClearance{};
        float dx[kChunk], dy[kChunk], dz[kChunk];
        [[maybe_unused]] bool isPlain[kChunk];
        for (int begin = 0; begin < size.x; begin += kChunk) {
            const int end = std::min(begin + kChunk, size.x);
            velocity.fill(begin, end, dx, dy, dz);
            if constexpr (kSolids)
                room.classify(begin, end, dx, dy, dz, isPlain);
            for (int i = begin; i < end; ++i) {
                const int m = i - begin;
                Vec3 d{dx[m], dy[m], dz[m]};
                int si = i;
                if (i == aliasI) {
                    si = 0;
                    d = velocity(0);
                }
                const std::size_t n = srcRow + std::size_t(si);
                const Vec3 p{float(si) + off.x, float(sj) + off.y, float(sk) + off.z};
                if constexpr (kSolids) {
                    if (!isPlain[m] || i == aliasI) {
                        other(room, n, p, d, si, sj, sk, row + std::size_t(i));
                        continue;
                    }
                }
                body(PathTag<Path::Plain>{}, n, p, d, row + std::size_t(i));
            }
        }
    });
}

/// visitSamples() for one output: stores what body(path, src, position, displacement)
/// returns for every sample of `out`, zero inside obstacles.
template<bool kSolids, class Disp, class Body>
void forEachSample(const Setup &c, ScalarGrid &out, int faceAxis, const Disp &disp, Body &&body)
{
    float *dst = out.data();
    visitSamples<kSolids>(
        c, out.size(), out.offset(), faceAxis, disp,
        [&](auto path, std::size_t n, Vec3 p, Vec3 d, std::size_t at) PLUME_LAMBDA_INLINE {
            dst[at] = body(path, n, p, d);
        },
        [&](std::size_t at) { dst[at] = 0.f; });
}

/// The semi-Lagrangian, MacCormack and BFECC passes for one kind of sample (cells or the faces
/// of one axis). Every grid they read has the layout of the grid they write. The bodies take
/// the sample's path as a PathTag.
template<bool k3D, bool kSolids, class Disp>
struct Passes
{
    const Setup &c;
    int faceAxis;
    Disp disp;

    template<class Body>
    void sweep(ScalarGrid &out, Body &&body) const
    {
        forEachSample<kSolids>(c, out, faceAxis, disp, body);
    }

    template<Path kPath>
    PLUME_INLINE Stencil at(const GridMap &m, Vec3 p, Vec3 d) const
    {
        return stencilAt<k3D>(m, trace<k3D, kPath>(c, p, d));
    }

    /// True when a solid lies within reach of the sample's forward or reverse trace. There the
    /// second-order corrections fall back to the first-order value (as Selle et al. 2008
    /// revert where the correction is unreliable, and mantaflow does next to obstacles):
    /// traces clipped by a solid make the forward and reverse steps disagree, and the error
    /// estimate would feed grid-scale noise into the velocity.
    PLUME_INLINE bool nearSolid(Vec3 p, Vec3 d) const
    {
        if (!c.solidDistance)
            return false;
        const Int3 n = c.domain.cells;
        const float reach = std::max(std::max(std::fabs(d.x), std::fabs(d.y)), std::fabs(d.z));
        const int need = reach < 250.f ? int(reach) + 2 : 255;
        int cell[3];
        for (int a = 0; a < 3; ++a)
            cell[a] = std::clamp(int(std::floor(p[a])), 0, n[a] - 1);
        auto distance = [&](const int *q) {
            return int(c.solidDistance[std::size_t(q[0])
                                       + std::size_t(n.x) * (std::size_t(q[1])
                                                             + std::size_t(n.y) * q[2])]);
        };
        if (distance(cell) <= need)
            return true;
        if (faceAxis >= 0 && cell[faceAxis] > 0) {
            cell[faceAxis] -= 1; // the cell on the face's low side
            return distance(cell) <= need;
        }
        return false;
    }

    /// Semi-Lagrangian step (Stam 1999): out(x) = src(x - dt u(x) / h).
    void advect(const ScalarGrid &src, ScalarGrid &out) const
    {
        const GridMap m = gridMap(src, c.domain);
        const float *s = src.data();
        sweep(out, [&](auto path, std::size_t n, Vec3 p, Vec3 d) PLUME_LAMBDA_INLINE {
            constexpr Path kPath = decltype(path)::value;
            return valueAt<k3D, kPath>(c, faceAxis, s, at<kPath>(m, p, d * -1.f), s[n]);
        });
    }

    /// MacCormack correction (Selle et al. 2008): phi1 + (q - A_rev(phi1)) / 2, clamped to the
    /// corners that the forward step interpolated.
    void maccormack(const ScalarGrid &q, const ScalarGrid &phi1, ScalarGrid &out) const
    {
        const GridMap m = gridMap(q, c.domain);
        const float *s = q.data();
        const float *f = phi1.data();
        sweep(out, [&](auto path, std::size_t n, Vec3 p, Vec3 d) PLUME_LAMBDA_INLINE {
            constexpr Path kPath = decltype(path)::value;
            if (nearSolid(p, d))
                return f[n];
            const float back = valueAt<k3D, kPath>(c, faceAxis, f, at<kPath>(m, p, d), f[n]);
            float lo, hi;
            rangeAt<k3D, kPath>(c, faceAxis, s, at<kPath>(m, p, d * -1.f), s[n], lo, hi);
            return std::min(std::max(f[n] + 0.5f * (s[n] - back), lo), hi);
        });
    }

    /// advect() for cell-centred samples that also keeps the range of the corners it
    /// interpolated (the MacCormack limiter's bounds) in lo and hi: the correction pass then
    /// reads them instead of tracing and gathering a second time.
    void advectKeepingRange(const ScalarGrid &src, ScalarGrid &out, ScalarGrid &lo,
                            ScalarGrid &hi) const
    {
        const GridMap m = gridMap(src, c.domain);
        const float *s = src.data();
        float *los = lo.data();
        float *his = hi.data();
        sweep(out, [&](auto path, std::size_t n, Vec3 p, Vec3 d) PLUME_LAMBDA_INLINE {
            constexpr Path kPath = decltype(path)::value;
            const Stencil st = at<kPath>(m, p, d * -1.f);
            float v;
            if constexpr (kPath == Path::Exact) {
                if (!interpolateFluid<k3D>(s, st, c.obstacles, faceAxis, v, los[n], his[n]))
                    v = los[n] = his[n] = s[n];
            } else {
                v = interpolate<k3D>(s, st);
                cornerRange<k3D>(s, st, los[n], his[n]);
            }
            return v;
        });
    }

    /// maccormack() with the bounds kept by advectKeepingRange.
    void maccormackInRange(const ScalarGrid &q, const ScalarGrid &phi1, const ScalarGrid &lo,
                           const ScalarGrid &hi, ScalarGrid &out) const
    {
        const GridMap m = gridMap(q, c.domain);
        const float *s = q.data();
        const float *f = phi1.data();
        const float *los = lo.data();
        const float *his = hi.data();
        sweep(out, [&](auto path, std::size_t n, Vec3 p, Vec3 d) PLUME_LAMBDA_INLINE {
            constexpr Path kPath = decltype(path)::value;
            if (nearSolid(p, d))
                return f[n];
            const float back = valueAt<k3D, kPath>(c, faceAxis, f, at<kPath>(m, p, d), f[n]);
            return std::min(std::max(f[n] + 0.5f * (s[n] - back), los[n]), his[n]);
        });
    }

    /// BFECC error compensation (Kim et al. 2005): q + (q - A_rev(A(q))) / 2.
    void bfeccCompensate(const ScalarGrid &q, const ScalarGrid &phi1, ScalarGrid &out) const
    {
        const GridMap m = gridMap(q, c.domain);
        const float *s = q.data();
        const float *f = phi1.data();
        sweep(out, [&](auto path, std::size_t n, Vec3 p, Vec3 d) PLUME_LAMBDA_INLINE {
            constexpr Path kPath = decltype(path)::value;
            const float back = valueAt<k3D, kPath>(c, faceAxis, f, at<kPath>(m, p, d), f[n]);
            return s[n] + 0.5f * (s[n] - back);
        });
    }

    /// BFECC final step: A(compensated), clamped to the corners of q that A(q) interpolated.
    void bfeccFinal(const ScalarGrid &q, const ScalarGrid &compensated, ScalarGrid &out) const
    {
        const GridMap m = gridMap(q, c.domain);
        const float *s = q.data();
        const float *t = compensated.data();
        sweep(out, [&](auto path, std::size_t n, Vec3 p, Vec3 d) PLUME_LAMBDA_INLINE {
            constexpr Path kPath = decltype(path)::value;
            const Stencil st = at<kPath>(m, p, d * -1.f);
            if (nearSolid(p, d))
                return valueAt<k3D, kPath>(c, faceAxis, s, st, s[n]);
            const float v = valueAt<k3D, kPath>(c, faceAxis, t, st, t[n]);
            float lo, hi;
            rangeAt<k3D, kPath>(c, faceAxis, s, st, s[n], lo, hi);
            return std::min(std::max(v, lo), hi);
        });
    }

    /// Moves `q` by one step of `order` into `result`, using `temp` as the second buffer.
    /// The result may end up in `temp`: the return value says where.
    /// With `lo` and `hi` (cell-centred samples only), MacCormack keeps the limiter's bounds
    /// there instead of computing them twice.
    ScalarGrid *run(const ScalarGrid &q, AdvectionOrder order, ScalarGrid &result,
                    ScalarGrid &temp, ScalarGrid *lo = nullptr, ScalarGrid *hi = nullptr) const
    {
        switch (order) {
        case AdvectionOrder::SemiLagrangian:
            advect(q, result);
            return &result;
        case AdvectionOrder::MacCormack:
            if (lo && hi && faceAxis < 0) {
                advectKeepingRange(q, temp, *lo, *hi);
                maccormackInRange(q, temp, *lo, *hi, result);
                return &result;
            }
            advect(q, temp);
            maccormack(q, temp, result);
            return &result;
        case AdvectionOrder::Bfecc:
            advect(q, temp);
            bfeccCompensate(q, temp, result);
            bfeccFinal(q, result, temp);
            return &temp;
        }
        return nullptr;
    }

    /// Pointers to the data of kCount grids of one layout, moved together: one trace and one
    /// stencil per sample serve every grid.
    template<int kCount>
    using Set = std::array<float *, std::size_t(kCount)>;

    /// Sweeps the samples of `layout` for a body that writes every grid of a set at `at`.
    template<int kCount, class Body>
    void sweepMany(const ScalarGrid &layout, const Set<kCount> &out, Body &&body) const
    {
        visitSamples<kSolids>(c, layout.size(), layout.offset(), faceAxis, disp, body,
                              [&](std::size_t dst) {
                                  for (float *o : out)
                                      o[dst] = 0.f;
                              });
    }

    /// advect() for every grid of a set (the sources' layout is `layout`'s).
    template<int kCount>
    void advectMany(const ScalarGrid &layout, const Set<kCount> &src, const Set<kCount> &out) const
    {
        const GridMap m = gridMap(layout, c.domain);
        sweepMany<kCount>(layout, out, [&](auto path, std::size_t n, Vec3 p, Vec3 d,
                                           std::size_t dst) PLUME_LAMBDA_INLINE {
            constexpr Path kPath = decltype(path)::value;
            const Stencil st = at<kPath>(m, p, d * -1.f);
            for (int f = 0; f < kCount; ++f) {
                const float *s = src[std::size_t(f)];
                out[std::size_t(f)][dst] = valueAt<k3D, kPath>(c, faceAxis, s, st, s[n]);
            }
        });
    }

    /// maccormack() for every grid of a set: q, the first pass's phi1, the corrected out.
    template<int kCount>
    void maccormackMany(const ScalarGrid &layout, const Set<kCount> &q, const Set<kCount> &phi1,
                        const Set<kCount> &out) const
    {
        const GridMap m = gridMap(layout, c.domain);
        sweepMany<kCount>(layout, out, [&](auto path, std::size_t n, Vec3 p, Vec3 d,
                                           std::size_t dst) PLUME_LAMBDA_INLINE {
            constexpr Path kPath = decltype(path)::value;
            if (nearSolid(p, d)) {
                for (int f = 0; f < kCount; ++f)
                    out[std::size_t(f)][dst] = phi1[std::size_t(f)][n];
                return;
            }
            const Stencil ahead = at<kPath>(m, p, d);
            const Stencil behind = at<kPath>(m, p, d * -1.f);
            for (int f = 0; f < kCount; ++f) {
                const float *s = q[std::size_t(f)];
                const float *t = phi1[std::size_t(f)];
                const float back = valueAt<k3D, kPath>(c, faceAxis, t, ahead, t[n]);
                float lo, hi;
                rangeAt<k3D, kPath>(c, faceAxis, s, behind, s[n], lo, hi);
                out[std::size_t(f)][dst] = std::min(std::max(t[n] + 0.5f * (s[n] - back), lo), hi);
            }
        });
    }

    /// bfeccCompensate() for every grid of a set.
    template<int kCount>
    void bfeccCompensateMany(const ScalarGrid &layout, const Set<kCount> &q,
                             const Set<kCount> &phi1, const Set<kCount> &out) const
    {
        const GridMap m = gridMap(layout, c.domain);
        sweepMany<kCount>(layout, out, [&](auto path, std::size_t n, Vec3 p, Vec3 d,
                                           std::size_t dst) PLUME_LAMBDA_INLINE {
            constexpr Path kPath = decltype(path)::value;
            const Stencil ahead = at<kPath>(m, p, d);
            for (int f = 0; f < kCount; ++f) {
                const float *s = q[std::size_t(f)];
                const float *t = phi1[std::size_t(f)];
                const float back = valueAt<k3D, kPath>(c, faceAxis, t, ahead, t[n]);
                out[std::size_t(f)][dst] = s[n] + 0.5f * (s[n] - back);
            }
        });
    }

    /// bfeccFinal() for every grid of a set.
    template<int kCount>
    void bfeccFinalMany(const ScalarGrid &layout, const Set<kCount> &q,
                        const Set<kCount> &compensated, const Set<kCount> &out) const
    {
        const GridMap m = gridMap(layout, c.domain);
        sweepMany<kCount>(layout, out, [&](auto path, std::size_t n, Vec3 p, Vec3 d,
                                           std::size_t dst) PLUME_LAMBDA_INLINE {
            constexpr Path kPath = decltype(path)::value;
            const Stencil behind = at<kPath>(m, p, d * -1.f);
            const bool firstOrder = nearSolid(p, d);
            for (int f = 0; f < kCount; ++f) {
                const float *s = q[std::size_t(f)];
                const float *t = compensated[std::size_t(f)];
                if (firstOrder) {
                    out[std::size_t(f)][dst] = valueAt<k3D, kPath>(c, faceAxis, s, behind, s[n]);
                    continue;
                }
                const float v = valueAt<k3D, kPath>(c, faceAxis, t, behind, t[n]);
                float lo, hi;
                rangeAt<k3D, kPath>(c, faceAxis, s, behind, s[n], lo, hi);
                out[std::size_t(f)][dst] = std::min(std::max(v, lo), hi);
            }
        });
    }

    /// run() for a set of grids, without the kept bounds: a and b are one scratch grid per
    /// field each. The results end up in a (BFECC) or b (the others): the return value says.
    template<int kCount>
    bool runMany(const ScalarGrid &layout, AdvectionOrder order, const Set<kCount> &q,
                 const Set<kCount> &a, const Set<kCount> &b) const
    {
        switch (order) {
        case AdvectionOrder::SemiLagrangian:
            advectMany<kCount>(layout, q, b);
            return false;
        case AdvectionOrder::MacCormack:
            advectMany<kCount>(layout, q, a);
            maccormackMany<kCount>(layout, q, a, b);
            return false;
        case AdvectionOrder::Bfecc:
            advectMany<kCount>(layout, q, a);
            bfeccCompensateMany<kCount>(layout, q, a, b);
            bfeccFinalMany<kCount>(layout, q, b, a);
            return true;
        }
        return false;
    }
};

/// Calls f(k3D, kSolids) with compile-time flags.
template<class F>
void dispatch(bool is3D, bool solids, F &&f)
{
    if (is3D) {
        if (solids)
            f(std::true_type{}, std::true_type{});
        else
            f(std::true_type{}, std::false_type{});
    } else {
        if (solids)
            f(std::false_type{}, std::true_type{});
        else
            f(std::false_type{}, std::false_type{});
    }
}

/// Gives `g` the shape without touching its values when it already has it.
void prepare(ScalarGrid &g, Int3 size, Vec3 offset)
{
    if (g.size() != size || g.offset() != offset || g.count() != std::size_t(size.volume()))
        g.reshape(size, offset);
}

bool velocityFits(const MacGrid &vel, const Domain &d)
{
    const Int3 n = d.cells;
    return vel.cells() == n && vel.u.size() == faceGridSize(n, 0)
           && vel.v.size() == faceGridSize(n, 1)
           && (d.is2D() || vel.w.size() == faceGridSize(n, 2));
}

// ---- Accounting advection (West 2008) -------------------------------------------------------

/// The 4 (2D) or 8 cells around a point on the cell grid, corner c = x + 2y + 4z in low/high
/// bits, with their bilinear/trilinear weights. Solid corners weigh 0; corners beyond an open
/// face are flagged outside (what goes there leaves the domain).
struct Footprint
{
    std::size_t idx[8];
    float w[8];
    bool inside[8];
    float total = 0.f; ///< sum of the weights: below 1 when corners are solid
};

/// Footprint of x for moving amounts (West 2008): walls clamp, open faces let weight fall
/// outside the domain, periodic axes wrap.
template<bool k3D, bool kSolids>
Footprint footprintAt(const Setup &c, Vec3 x)
{
    int i0[3] = {0, 0, 0};
    int i1[3] = {0, 0, 0};
    float f[3] = {0.f, 0.f, 0.f};
    bool in0[3] = {true, true, true};
    bool in1[3] = {true, true, true};
    for (int a = 0; a < (k3D ? 3 : 2); ++a) {
        const int n = c.domain.cells[a];
        float s = x[a] - 0.5f;
        if (c.periodic[a]) {
            s = wrapCoordinate(s, float(n));
            i0[a] = int(s);
            i1[a] = i0[a] + 1 < n ? i0[a] + 1 : 0;
        } else {
            const float lo = c.domain.boundary(a, false) == Boundary::Open ? -1.f : 0.f;
            const float hi = c.domain.boundary(a, true) == Boundary::Open ? float(n) : n - 1.f;
            s = s > lo ? s : lo;
            s = s < hi ? s : hi;
            i0[a] = int(s + 1.f) - 1; // floor on [-1, n]
            i1[a] = i0[a] + 1;
            in0[a] = i0[a] >= 0 && i0[a] < n;
            in1[a] = i1[a] < n;
        }
        f[a] = s - float(i0[a]);
    }
    Footprint fp;
    const std::size_t sy = std::size_t(c.domain.cells.x);
    const std::size_t sz = sy * std::size_t(c.domain.cells.y);
    for (int corner = 0; corner < (k3D ? 8 : 4); ++corner) {
        const int b[3] = {corner & 1, (corner >> 1) & 1, (corner >> 2) & 1};
        float w = 1.f;
        bool inside = true;
        int at[3] = {0, 0, 0};
        for (int a = 0; a < (k3D ? 3 : 2); ++a) {
            w *= b[a] ? f[a] : 1.f - f[a];
            at[a] = b[a] ? i1[a] : i0[a];
            inside = inside && (b[a] ? in1[a] : in0[a]);
        }
        fp.inside[corner] = inside;
        fp.idx[corner] = inside ? std::size_t(at[0]) + sy * std::size_t(at[1])
                                      + sz * std::size_t(at[2])
                                : 0;
        if constexpr (kSolids) {
            if (inside && c.obstacles.cell(at[0], at[1], at[2]))
                w = 0.f;
        }
        fp.w[corner] = w;
        fp.total += w;
    }
    return fp;
}

/// Splits `amount` between two groups of weight w0 and w1 so that the parts add up to it
/// exactly: the larger part is a product (at least half the amount), the smaller one the
/// remainder, exact by Sterbenz's lemma. The weights need not be normalised.
inline void splitExactly(float amount, float w0, float w1, float &a0, float &a1)
{
    if (!(w1 > 0.f)) {
        a0 = amount;
        a1 = 0.f;
    } else if (!(w0 > 0.f)) {
        a0 = 0.f;
        a1 = amount;
    } else if (w0 >= w1) {
        a0 = amount * (w0 / (w0 + w1));
        a1 = amount - a0;
    } else {
        a1 = amount * (w1 / (w0 + w1));
        a0 = amount - a1;
    }
}

/// Shares `amount` among the corners in proportion to their weights, halving along z, y then
/// x, so that the shares add up to the amount exactly: rounded weights cannot make the total
/// drift. The weights must not all be zero.
template<bool k3D>
void shareExactly(float amount, const float w[8], float share[8])
{
    float half[2] = {amount, 0.f};
    if constexpr (k3D)
        splitExactly(amount, w[0] + w[1] + w[2] + w[3], w[4] + w[5] + w[6] + w[7], half[0],
                     half[1]);
    for (int z = 0; z < (k3D ? 2 : 1); ++z) {
        const float *v = w + 4 * z;
        float *out = share + 4 * z;
        float y0, y1;
        splitExactly(half[z], v[0] + v[1], v[2] + v[3], y0, y1);
        splitExactly(y0, v[0], v[1], out[0], out[1]);
        splitExactly(y1, v[2], v[3], out[2], out[3]);
    }
}

/// Runs body(begin, end) over blocks of slabs (rows in 2D) in two phases, even blocks then odd
/// blocks, each block serially. Blocks are at least 2 * reach slabs thick, so two blocks of a
/// phase never write the same cell, and every float addition happens in a fixed order whatever
/// the thread count.
template<class F>
void forEachBlockPhased(int slabs, int reach, bool periodic, F &&body)
{
    int blocks = slabs / (2 * std::max(reach, 1));
    if (periodic && blocks % 2 == 1)
        --blocks; // block 0 and the last block are neighbours
    if (blocks < 2) {
        forEachSlab(1, [&](int) { body(0, slabs); });
        return;
    }
    for (int phase = 0; phase < 2; ++phase) {
        forEachSlab((blocks - phase + 1) / 2, [&](int m) {
            const std::int64_t b = 2 * m + phase;
            body(int(b * slabs / blocks), int((b + 1) * slabs / blocks));
        });
    }
}

/// Largest |displacement| in cells along the slab axis (z in 3D, y in 2D), plus one cell for
/// the interpolation footprint; `slabs` when it is not finite or larger than the domain.
int scatterReach(const MacGrid &vel, const Domain &d, float scale)
{
    const ScalarGrid &g = vel.component(d.is2D() ? 1 : 2);
    const double largest = maxRows(g.size(), [&](int j, int k) {
        const float *row = g.data() + g.index(0, j, k);
        float m = 0.f;
        for (int i = 0; i < g.size().x; ++i)
            m = std::max(m, std::fabs(row[i]));
        return double(m);
    });
    const double cells = largest * std::fabs(double(scale));
    const int slabs = d.cells[d.is2D() ? 1 : 2];
    return cells < slabs ? int(std::ceil(cells)) + 1 : slabs;
}

/// trace() with the path chosen at run time (always plain without obstacles).
template<bool k3D, bool kSolids>
PLUME_INLINE Vec3 traceAlong(const Setup &c, Path path, Vec3 p, Vec3 d)
{
    if constexpr (kSolids) {
        if (path == Path::Exact)
            return trace<k3D, Path::Exact>(c, p, d);
        if (path == Path::Clear)
            return trace<k3D, Path::Clear>(c, p, d);
    }
    return p + d;
}

/// West's forward-then-backward accounting advection. Each half moves by `scale` * u (cells),
/// so the caller passes half of dt / h: the content travels dt u over the whole step.
template<bool k3D, bool kSolids>
void accounting(const Setup &c, ScalarGrid &q, const MacGrid &vel, float scale,
                ScalarGrid &movedHi, ScalarGrid &movedLo, ScalarGrid &asked)
{
    const Int3 n = c.domain.cells;
    const CentreDisplacement<k3D> disp{vel, scale};
    constexpr int kCorners = k3D ? 8 : 4;
    const float *src = q.data();
    float *hi = movedHi.data();
    float *lo = movedLo.data();
    float *req = asked.data();
    // Moved amounts are kept as hi + lo float pairs (Knuth's TwoSum): adding trickles to a
    // large pile in plain float would lose them and bias the total downwards.
    auto give = [&](std::size_t n, float amount) {
        const float sum = hi[n] + amount;
        const float b = sum - hi[n];
        lo[n] += (hi[n] - (sum - b)) + (amount - b);
        hi[n] = sum;
    };
    // Forward: every cell hands its content to the corners around x + d; in the same sweep,
    // every cell asks its backward source corners (around x - d) for their fractions.
    const int slabAxis = k3D ? 2 : 1;
    const int reach = scatterReach(vel, c.domain, scale);
    forEachBlockPhased(n[slabAxis], reach, c.periodic[slabAxis], [&](int begin, int end) {
        for (int k = k3D ? begin : 0; k < (k3D ? end : 1); ++k) {
            for (int j = k3D ? 0 : begin; j < (k3D ? n.y : end); ++j) {
                const auto velocity = disp.row(j, k);
                [[maybe_unused]] const RowClearance room =
                    kSolids ? rowClearance(c, -1, j, k) : RowClearance{};
                for (int i = 0; i < n.x; ++i) {
                    const std::size_t self = q.index(i, j, k);
                    if constexpr (kSolids) {
                        if (c.obstacles.cell(i, j, k))
                            continue;
                    }
                    const Vec3 p{float(i) + 0.5f, float(j) + 0.5f, float(k) + 0.5f};
                    const Vec3 d = velocity(i);
                    const Path path = kSolids ? room.path(i, d) : Path::Plain;
                    if (src[self] != 0.f) {
                        const Vec3 to = traceAlong<k3D, kSolids>(c, path, p, d);
                        const Footprint fp = footprintAt<k3D, kSolids>(c, to);
                        if (fp.total > 0.f) {
                            float share[8];
                            shareExactly<k3D>(src[self], fp.w, share);
                            for (int m = 0; m < kCorners; ++m)
                                if (fp.inside[m] && share[m] != 0.f)
                                    give(fp.idx[m], share[m]);
                        } else {
                            give(self, src[self]); // every corner solid: nothing moves
                        }
                    }
                    const Vec3 from = traceAlong<k3D, kSolids>(c, path, p, d * -1.f);
                    const Footprint fp = footprintAt<k3D, kSolids>(c, from);
                    const float norm = kSolids && fp.total > 0.f ? 1.f / fp.total : 1.f;
                    for (int m = 0; m < kCorners; ++m) {
                        if (fp.inside[m] && fp.w[m] != 0.f)
                            req[fp.idx[m]] += fp.w[m] * norm;
                    }
                }
            }
        }
    });
    // Backward: a source asked for more than it holds gives each asker a scaled share; what a
    // source gives is taken from it (the gather form of West's subtract-where-taken).
    const auto gather = [&](auto path, std::size_t self, Vec3 p, Vec3 d) PLUME_LAMBDA_INLINE {
        constexpr Path kPath = decltype(path)::value;
        const Footprint fp = footprintAt<k3D, kSolids>(c, trace<k3D, kPath>(c, p, d * -1.f));
        const float norm = kSolids && fp.total > 0.f ? 1.f / fp.total : 1.f;
        const float own = hi[self] + lo[self];
        double v = own - own * std::min(req[self], 1.f);
        for (int m = 0; m < kCorners; ++m) {
            const float r = req[fp.idx[m]];
            const float a = hi[fp.idx[m]] + lo[fp.idx[m]];
            v += fp.inside[m] ? fp.w[m] * norm * (r > 1.f ? a / r : a) : 0.f;
        }
        return float(v);
    };
    forEachSample<kSolids>(c, q, -1, disp, gather);
}

/// Moves kCount cell-centred grids of the domain's size together (Advector::advectScalars):
/// grid f uses work[f] for the semi-Lagrangian step, work[2f] and work[2f + 1] otherwise.
template<int kCount>
void moveTogether(const Setup &c, bool anySolid, const MacGrid &vel, float scale,
                  AdvectionOrder order, ScalarGrid *const *fields, Workspace &work)
{
    using Set = std::array<float *, std::size_t(kCount)>;
    const bool twoGrids = order != AdvectionOrder::SemiLagrangian;
    const ScalarGrid &layout = *fields[0];
    Set q, a, b;
    for (int f = 0; f < kCount; ++f) {
        const std::size_t m = std::size_t(f);
        ScalarGrid &first = work[twoGrids ? 2 * f : f];
        ScalarGrid &second = work[twoGrids ? 2 * f + 1 : f];
        prepare(first, layout.size(), layout.offset());
        prepare(second, layout.size(), layout.offset());
        q[m] = fields[f]->data();
        a[m] = first.data();
        b[m] = second.data();
    }
    bool inFirst = false;
    dispatch(!c.domain.is2D(), anySolid, [&](auto k3D, auto solids) {
        using Disp = CentreDisplacement<decltype(k3D)::value>;
        const Passes<decltype(k3D)::value, decltype(solids)::value, Disp> passes{
            c, -1, Disp{vel, scale}};
        inFirst = passes.template runMany<kCount>(layout, order, q, a, b);
    });
    for (int f = 0; f < kCount; ++f)
        fields[f]->swap(work[twoGrids ? 2 * f + (inFirst ? 0 : 1) : f]);
}

} // namespace

float sampleLinear(const ScalarGrid &g, Vec3 p, const Domain &domain)
{
    if (g.count() == 0 || g.count() != std::size_t(g.size().volume()))
        return 0.f;
    const GridMap m = gridMap(g, domain);
    if (g.size().z > 1)
        return interpolate<true>(g.data(), stencilAt<true>(m, p));
    return interpolate<false>(g.data(), stencilAt<false>(m, p));
}

Vec3 sampleVelocity(const MacGrid &vel, Vec3 p, const Domain &domain)
{
    return {sampleLinear(vel.u, p, domain), sampleLinear(vel.v, p, domain),
            vel.is3D() ? sampleLinear(vel.w, p, domain) : 0.f};
}

void Advector::setup(const Domain &domain, const FlagGrid &solids)
{
    mDomain = domain;
    mSolids = &solids;
    mAnySolid = solids.size() == domain.cells && solids.anySolid();
    mClearance.clear();
    if (mAnySolid)
        mClearance = clearanceMap(domain, solids);
}

void Advector::advectScalar(ScalarGrid &q, const MacGrid &vel, float dt, AdvectionOrder order,
                            Workspace &work) const
{
    const float scale = dt / mDomain.cellSize;
    if (q.size() != mDomain.cells || q.offset() != kCellCentre || !velocityFits(vel, mDomain)
        || !std::isfinite(scale))
        return;
    const Setup c = makeSetup(mDomain, mSolids, mAnySolid, mClearance, mExactEverywhere);
    ScalarGrid &result = work[0];
    ScalarGrid &temp = work[1];
    prepare(result, q.size(), q.offset());
    if (order != AdvectionOrder::SemiLagrangian)
        prepare(temp, q.size(), q.offset());
    const bool keepRange = order == AdvectionOrder::MacCormack;
    if (keepRange) {
        prepare(work[2], q.size(), q.offset());
        prepare(work[3], q.size(), q.offset());
    }
    dispatch(!mDomain.is2D(), mAnySolid, [&](auto k3D, auto solids) {
        using Disp = CentreDisplacement<decltype(k3D)::value>;
        const Passes<decltype(k3D)::value, decltype(solids)::value, Disp> passes{
            c, -1, Disp{vel, scale}};
        q.swap(*passes.run(q, order, result, temp, keepRange ? &work[2] : nullptr,
                           keepRange ? &work[3] : nullptr));
    });
}

void Advector::advectScalars(std::span<ScalarGrid *const> fields, const MacGrid &vel, float dt,
                             AdvectionOrder order, Workspace &work) const
{
    const float scale = dt / mDomain.cellSize;
    if (!velocityFits(vel, mDomain) || !std::isfinite(scale))
        return;
    const Setup c = makeSetup(mDomain, mSolids, mAnySolid, mClearance, mExactEverywhere);
    const int most = order == AdvectionOrder::SemiLagrangian ? Workspace::kGrids
                                                              : Workspace::kGrids / 2;
    std::array<ScalarGrid *, std::size_t(Workspace::kGrids)> group{};
    int count = 0;
    // A single grid takes advectScalar's own path: with the workspace to itself, MacCormack
    // keeps the limiter's bounds instead of tracing twice.
    const auto flush = [&] {
        if (count == 1)
            advectScalar(*group[0], vel, dt, order, work);
        else if (count == 2)
            moveTogether<2>(c, mAnySolid, vel, scale, order, group.data(), work);
        else if (count == 3)
            moveTogether<3>(c, mAnySolid, vel, scale, order, group.data(), work);
        else if (count == 4)
            moveTogether<4>(c, mAnySolid, vel, scale, order, group.data(), work);
        count = 0;
    };
    for (ScalarGrid *q : fields) {
        if (!q || q->size() != mDomain.cells || q->offset() != kCellCentre)
            continue;
        if (std::find(group.begin(), group.begin() + count, q) != group.begin() + count)
            flush(); // the same grid twice moves twice, as two advectScalar calls would
        group[std::size_t(count++)] = q;
        if (count == most)
            flush();
    }
    flush();
}

void Advector::advectVelocity(MacGrid &vel, float dt, AdvectionOrder order,
                              Workspace &work) const
{
    const float scale = dt / mDomain.cellSize;
    if (!velocityFits(vel, mDomain) || !std::isfinite(scale))
        return;
    const Setup c = makeSetup(mDomain, mSolids, mAnySolid, mClearance, mExactEverywhere);
    const int axes = mDomain.dimensions();
    ScalarGrid &temp = work[3];
    dispatch(!mDomain.is2D(), mAnySolid, [&](auto k3D, auto solids) {
        auto advectComponent = [&](auto axisConstant) {
            constexpr int kAxis = decltype(axisConstant)::value;
            using Disp = FaceDisplacement<decltype(k3D)::value, kAxis>;
            const ScalarGrid &old = vel.component(kAxis);
            prepare(work[kAxis], old.size(), old.offset());
            if (order != AdvectionOrder::SemiLagrangian)
                prepare(temp, old.size(), old.offset());
            const Passes<decltype(k3D)::value, decltype(solids)::value, Disp> passes{
                c, kAxis, Disp{vel, c, scale}};
            ScalarGrid *moved = passes.run(old, order, work[kAxis], temp);
            if (moved != &work[kAxis])
                work[kAxis].swap(*moved);
        };
        advectComponent(std::integral_constant<int, 0>{});
        advectComponent(std::integral_constant<int, 1>{});
        if (axes == 3)
            advectComponent(std::integral_constant<int, 2>{});
    });
    for (int axis = 0; axis < axes; ++axis)
        vel.component(axis).swap(work[axis]);
}

void Advector::advectAccounting(ScalarGrid &q, const MacGrid &vel, float dt,
                                Workspace &work) const
{
    const float scale = dt / mDomain.cellSize;
    if (q.size() != mDomain.cells || q.offset() != kCellCentre || !velocityFits(vel, mDomain)
        || !std::isfinite(scale))
        return;
    const Setup c = makeSetup(mDomain, mSolids, mAnySolid, mClearance, mExactEverywhere);
    ScalarGrid &movedHi = work[0];
    ScalarGrid &movedLo = work[1];
    ScalarGrid &asked = work[2];
    movedHi.reshape(q.size(), q.offset(), 0.f);
    movedLo.reshape(q.size(), q.offset(), 0.f);
    asked.reshape(q.size(), q.offset(), 0.f);
    dispatch(!mDomain.is2D(), mAnySolid, [&](auto k3D, auto solids) {
        accounting<decltype(k3D)::value, decltype(solids)::value>(c, q, vel, 0.5f * scale,
                                                                  movedHi, movedLo, asked);
    });
}

} // namespace plume::sim
