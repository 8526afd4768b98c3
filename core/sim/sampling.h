#pragma once

// Sampling and interpolation for the advection kernels (advection.cpp, accounting.cpp): how a
// position in cell coordinates maps to the samples of a staggered grid, the (bi/tri)linear
// stencil with periodic wrapping or clamping, and the corner range that limits second-order
// corrections. Internal to plume_sim; the public samplers are in advection.h.

#include "domain.h"
#include "grid.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
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

} // namespace plume::sim::detail
