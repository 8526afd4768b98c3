// SPDX-License-Identifier: Apache-2.0
#pragma once

// Sampling and interpolation for the advection kernels (advection.cpp, accounting.cpp): how a
// position in cell coordinates maps to the samples of a staggered grid, the (bi/tri)linear
// stencil with periodic wrapping or clamping, and the corner range that limits second-order
// corrections. Internal to plume_sim; the public samplers are in advection.h.

#include <core/sim/base/domain.h>
#include <core/sim/base/grid.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

// The per-sample helpers of the kernels must be inlined into the row loops: GCC otherwise
// keeps some out of line, which costs a factor of two or more in the kernels.
#if defined(__GNUC__)
#define PLUME_INLINE [[gnu::always_inline]] inline
#define PLUME_LAMBDA_INLINE __attribute__((always_inline))
#define PLUME_LAMBDA_COLD __attribute__((noinline, cold))
#else
#define PLUME_INLINE inline
#define PLUME_LAMBDA_INLINE
#define PLUME_LAMBDA_COLD
#endif

namespace plume::sim::detail {

constexpr float kInf = std::numeric_limits<float>::infinity();

/// How positions (cell coordinates) map to the samples of one axis of a grid.
struct AxisMap
{
    float offset = 0.5f; ///< cell coordinate of sample 0
    float last = 0.f;    ///< highest sample index (clamp limit of non-periodic axes)
    int samples = 1;
    int period = 1; ///< domain cells along the axis: the wrap length of a periodic axis
    bool periodic = false;
};

/// The three axis maps and the strides of a grid.
struct GridMap
{
    AxisMap axis[3];
    std::size_t sy = 0;
    std::size_t sz = 0;
};

inline bool isPeriodic(const Domain &d, int axis)
{
    return (axis < 2 || !d.is2D()) && d.boundary(axis, false) == Boundary::Periodic;
}

inline GridMap gridMap(const ScalarGrid &g, const Domain &d)
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

// ---- Runs of samples ------------------------------------------------------------------------
// The plain path's batch form (samplesweep.h): the stencils of up to kRun consecutive samples
// of one row in structure-of-arrays form, each loop without branches. Every value is computed
// by the same operations as stencilAt() and interpolate() compute it sample by sample, so the
// two give the same bits.

constexpr int kRun = 64;

/// The stencils of a run: the index of corner c (x + 2y + 4z, as in Stencil) of sample m is
/// corner[c][m]; fractions per axis. Indices fit 32 bits: runs are only made on grids of fewer
/// than 2^31 samples.
struct StencilRun
{
    std::int32_t corner[8][kRun];
    float fx[kRun], fy[kRun], fz[kRun];
};

/// Whether a grid is small enough for runs (32-bit indices).
inline bool runsFit(const ScalarGrid &g)
{
    return g.count() < std::size_t(std::numeric_limits<std::int32_t>::max());
}

/// locate() along one axis for `count` coordinates `pos`: adds the low sample times `stride`
/// to base (or sets it when kFirst) and stores the step to the high sample and the fraction.
template<bool kFirst>
PLUME_INLINE void locateRun(const AxisMap &a, std::int32_t stride, const float *__restrict pos,
                            int count, std::int32_t *__restrict base, std::int32_t *__restrict step,
                            float *__restrict frac)
{
    if (a.periodic) { // wrapping does not vectorise: locate() sample by sample
        for (int m = 0; m < count; ++m) {
            const Lerp l = locate(a, pos[m]);
            frac[m] = l.f;
            base[m] = (kFirst ? 0 : base[m]) + l.i0 * stride;
            step[m] = (l.i1 - l.i0) * stride;
        }
        return;
    }
    const int top = std::max(a.samples - 2, 0);
    // The high sample is i0 + 1 unless the axis has a single sample (then i0 itself).
    const std::int32_t up = a.samples > 1 ? stride : 0;
    for (int m = 0; m < count; ++m) {
        float s = pos[m] - a.offset;
        s = s > 0.f ? s : 0.f; // also maps NaN to 0
        s = s < a.last ? s : a.last;
        const int i0 = std::min(int(s), top);
        frac[m] = s - float(i0);
        base[m] = (kFirst ? 0 : base[m]) + i0 * stride;
        step[m] = up;
    }
}

/// The stencils at x + sign * d for the samples of a run: sample m sits at (x0 + m, y, z)
/// (+ the grid's offset, already in x0, y and z) and moves by (dx, dy, dz)[m]; sign is 1 or -1.
template<bool k3D>
PLUME_INLINE void stencilRun(const GridMap &g, int i0, Vec3 off, float y, float z, float sign,
                             const float *dx, const float *dy, const float *dz, int count,
                             StencilRun &s)
{
    float pos[kRun];
    // The low corner and the steps to the high sample along each axis (the stride, back to
    // sample 0 where a periodic axis wraps, 0 on an axis of one sample).
    std::int32_t *base = s.corner[0];
    std::int32_t stepX[kRun], stepY[kRun], stepZ[kRun];
    for (int m = 0; m < count; ++m)
        pos[m] = (float(i0 + m) + off.x) + dx[m] * sign;
    locateRun<true>(g.axis[0], 1, pos, count, base, stepX, s.fx);
    for (int m = 0; m < count; ++m)
        pos[m] = y + dy[m] * sign;
    locateRun<false>(g.axis[1], std::int32_t(g.sy), pos, count, base, stepY, s.fy);
    if constexpr (k3D) {
        for (int m = 0; m < count; ++m)
            pos[m] = z + dz[m] * sign;
        locateRun<false>(g.axis[2], std::int32_t(g.sz), pos, count, base, stepZ, s.fz);
    }
    for (int m = 0; m < count; ++m) {
        s.corner[1][m] = base[m] + stepX[m];
        s.corner[2][m] = base[m] + stepY[m];
        s.corner[3][m] = base[m] + stepY[m] + stepX[m];
    }
    if constexpr (k3D) {
        for (int c = 0; c < 4; ++c)
            for (int m = 0; m < count; ++m)
                s.corner[c + 4][m] = s.corner[c][m] + stepZ[m];
    }
}

/// Four floats in SSE lanes (GCC's vector extension): runs go four samples at a time.
using Lanes = float __attribute__((vector_size(16)));

PLUME_INLINE Lanes loadLanes(const float *p)
{
    Lanes v;
    __builtin_memcpy(&v, p, sizeof v);
    return v;
}

/// Sample m of a run as a Stencil, for the per-sample functions.
template<bool k3D>
PLUME_INLINE Stencil stencilOf(const StencilRun &s, int m)
{
    Stencil st;
    st.x.f = s.fx[m];
    st.y.f = s.fy[m];
    st.z.f = k3D ? s.fz[m] : 0.f;
    for (int c = 0; c < (k3D ? 8 : 4); ++c)
        st.idx[c] = std::size_t(s.corner[c][m]);
    return st;
}

/// d at four indices.
PLUME_INLINE Lanes gather(const float *d, const std::int32_t *at)
{
    return Lanes{d[at[0]], d[at[1]], d[at[2]], d[at[3]]};
}

/// interpolate() at every stencil of a run, into out[0, count).
template<bool k3D>
PLUME_INLINE void interpolateRun(const float *d, const StencilRun &s, int count, float *out)
{
    int m = 0;
    for (; m + 4 <= count; m += 4) {
        const Lanes fx = loadLanes(s.fx + m);
        const Lanes fy = loadLanes(s.fy + m);
        const Lanes c0 = gather(d, s.corner[0] + m);
        const Lanes a = c0 + fx * (gather(d, s.corner[1] + m) - c0);
        const Lanes c2 = gather(d, s.corner[2] + m);
        const Lanes b = c2 + fx * (gather(d, s.corner[3] + m) - c2);
        Lanes v = a + fy * (b - a);
        if constexpr (k3D) {
            const Lanes c4 = gather(d, s.corner[4] + m);
            const Lanes e = c4 + fx * (gather(d, s.corner[5] + m) - c4);
            const Lanes c6 = gather(d, s.corner[6] + m);
            const Lanes f = c6 + fx * (gather(d, s.corner[7] + m) - c6);
            const Lanes hi = e + fy * (f - e);
            v = v + loadLanes(s.fz + m) * (hi - v);
        }
        __builtin_memcpy(out + m, &v, sizeof v);
    }
    for (; m < count; ++m)
        out[m] = interpolate<k3D>(d, stencilOf<k3D>(s, m));
}

/// cornerRange() at every stencil of a run, into lo and hi [0, count): the corners in the
/// same order, with std::min's and std::max's choice between equal and NaN values.
template<bool k3D>
PLUME_INLINE void cornerRangeRun(const float *d, const StencilRun &s, int count, float *lo,
                                 float *hi)
{
    constexpr int kCorners = k3D ? 8 : 4;
    int m = 0;
    for (; m + 4 <= count; m += 4) {
        Lanes l = gather(d, s.corner[0] + m);
        Lanes h = l;
        for (int c = 1; c < kCorners; ++c) {
            const Lanes v = gather(d, s.corner[c] + m);
            l = v < l ? v : l; // std::min(l, v)
            h = h < v ? v : h; // std::max(h, v)
        }
        __builtin_memcpy(lo + m, &l, sizeof l);
        __builtin_memcpy(hi + m, &h, sizeof h);
    }
    for (; m < count; ++m)
        cornerRange<k3D>(d, stencilOf<k3D>(s, m), lo[m], hi[m]);
}

} // namespace plume::sim::detail
