// SPDX-License-Identifier: Apache-2.0
// Advector's monotone cubic semi-Lagrangian transport (AdvectionOrder::MonotoneCubic): one
// backtrace per sample, as the first-order scheme, with the tensor product of the
// Fritsch-Carlson monotone cubic (numerics/monotonecubic.h) over the 4^3 samples around the
// trace's end instead of the trilinear 2^3. Every 1D pass stays between its two middle
// samples, so the result stays within the trilinear corners' range: no new extrema, no
// grain, and far less smearing than linear. Next to obstacles the exact first-order path
// (obstacle walk, fluid-only interpolation) is kept.
#include <core/sim/ops/advection.h>

#include <core/sim/base/parallel.h>
#include <core/sim/numerics/monotonecubic.h>
#include <core/sim/ops/obstaclewalk.h>
#include <core/sim/ops/samplesweep.h>

#include <algorithm>
#include <cmath>

namespace plume::sim {

using namespace detail;

namespace {

/// One axis of a grid: its sample count, and whether it wraps with the domain's period.
struct Axis
{
    int n = 1;
    int period = 1;
    bool periodic = false;
};

/// The four sample indices around grid coordinate x (sample i at x = i) and the fraction t
/// between the middle two. Periodic axes wrap (sample `period` is sample 0); others clamp x
/// to the samples, as the linear sampler (numerics/sampling.h) does. A non-finite x counts as the
/// first sample.
inline float taps(float x, Axis a, int idx[4])
{
    const float top = a.periodic ? 1e7f : float(a.n - 1);
    const float bottom = a.periodic ? -1e7f : 0.f;
    x = std::fmin(std::fmax(x, bottom), top); // fmax drops a NaN
    const float f = std::floor(x);
    const int i0 = int(f);
    for (int m = 0; m < 4; ++m) {
        int i = i0 - 1 + m;
        if (a.periodic) {
            i %= a.period;
            i += i < 0 ? a.period : 0;
        } else {
            i = std::clamp(i, 0, a.n - 1);
        }
        idx[m] = i;
    }
    return x - f;
}

/// The monotone cubic interpolant of q at grid coordinates x.
template<bool k3D>
inline float cubicAt(const ScalarGrid &q, const Axis (&axes)[3], Vec3 x)
{
    int ix[4], iy[4], iz[4];
    const float tx = taps(x.x, axes[0], ix);
    const float ty = taps(x.y, axes[1], iy);
    const float *d = q.data();
    const std::size_t sy = q.strideY();
    [[maybe_unused]] float tz = 0.f;
    [[maybe_unused]] std::size_t sz = 0;
    if constexpr (k3D) {
        tz = taps(x.z, axes[2], iz);
        sz = q.strideZ();
    }
    // The result lies within the range of the eight middle samples (the trilinear corners):
    // where they agree (empty air, a uniform field) it is their value, with no cubic at all.
    {
        const float c =
            d[std::size_t(iy[1]) * sy + std::size_t(ix[1]) + (k3D ? std::size_t(iz[1]) * sz : 0)];
        bool same = true;
        for (int cz = 1; cz <= (k3D ? 2 : 1); ++cz)
            for (int cy = 1; cy <= 2; ++cy) {
                const float *row = d + std::size_t(iy[cy]) * sy
                                   + (k3D ? std::size_t(iz[cz]) * sz : 0);
                same = same && row[ix[1]] == c && row[ix[2]] == c;
            }
        if (same)
            return c + 0.f; // +0 for a -0 corner, as the cubic's arithmetic gives
    }
    const auto plane = [&](std::size_t base) {
        float r[4];
        for (int b = 0; b < 4; ++b) {
            const float *row = d + base + std::size_t(iy[b]) * sy;
            r[b] = monotoneCubic(row[ix[0]], row[ix[1]], row[ix[2]], row[ix[3]], tx);
        }
        return monotoneCubic(r[0], r[1], r[2], r[3], ty);
    };
    if constexpr (!k3D) {
        return plane(0);
    } else {
        float p[4];
        for (int c = 0; c < 4; ++c)
            p[c] = plane(std::size_t(iz[c]) * sz);
        return monotoneCubic(p[0], p[1], p[2], p[3], tz);
    }
}

} // namespace

void Advector::cubicPass(const ScalarGrid &q, const MacGrid &vel, float scale, int faceAxis,
                         bool onlyClear, ScalarGrid &out, const int *activeLo,
                         const int *activeHi) const
{
    const Int3 n = q.size();
    const Vec3 o = q.offset();
    const Domain &dom = mDomain;
    Axis axes[3];
    for (int a = 0; a < 3; ++a) {
        // As gridMap(): a grid too small for the period is clamped, never read outside it.
        const int period = std::max(dom.cells[a], 1);
        axes[a] = {std::max(n[a], 1), period, isPeriodic(dom, a) && n[a] >= period};
    }
    const std::uint8_t *clear = mClearance.data();
    const Int3 cells = dom.cells;
    // The Chebyshev clearance of a sample: its cell's, or for a face the smaller of its two
    // cells' (one at the domain's ends).
    const auto clearanceAt = [&](int i, int j, int k) {
        const auto at = [&](int ci, int cj, int ck) {
            return clear[std::size_t(ci) + std::size_t(cells.x) * (cj + std::size_t(cells.y) * ck)];
        };
        if (faceAxis < 0)
            return int(at(i, j, k));
        Int3 c{i, j, k};
        Int3 b = c;
        b[faceAxis] -= 1;
        c[faceAxis] = std::min(c[faceAxis], cells[faceAxis] - 1);
        if (b[faceAxis] < 0) // the first face: across a periodic seam, else the end cell
            b[faceAxis] = axes[faceAxis].periodic ? cells[faceAxis] - 1 : 0;
        return int(std::min(at(c.x, c.y, c.z), at(b.x, b.y, b.z)));
    };
    const bool k3D = !dom.is2D();
    // On a periodic axis a face grid's last layer is its first one: it is computed from there,
    // so the two hold the same bits.
    const bool alias = faceAxis >= 0 && axes[faceAxis].periodic && n[faceAxis] > cells[faceAxis];
    const int last = faceAxis >= 0 ? n[faceAxis] - 1 : -1;
    forEachRow(n, [&](int j, int k) {
        float *dst = out.data() + out.index(0, j, k);
        int from = 0, to = n.x;
        if (faceAxis < 0 && activeLo) {
            // Outside the row's active span every value within reach is zero, and so is the
            // result (advection.cpp's ActiveSpans).
            const std::size_t r = std::size_t(j) + std::size_t(n.y) * std::size_t(k);
            from = std::clamp(activeLo[r], 0, n.x);
            to = std::clamp(activeHi[r], from, n.x);
            std::fill(dst, dst + from, 0.f);
            std::fill(dst + to, dst + n.x, 0.f);
        }
        for (int i = from; i < to; ++i) {
            Int3 at{i, j, k};
            if (alias && at[faceAxis] == last)
                at[faceAxis] = 0;
            const Vec3 p{float(at.x) + o.x, float(at.y) + o.y, float(at.z) + o.z};
            Vec3 u;
            if (faceAxis < 0)
                u = vel.atCentre(i, j, k);
            else
                u = sampleVelocity(vel, p, dom);
            const Vec3 d{scale * u.x, scale * u.y, k3D ? scale * u.z : 0.f};
            if (onlyClear) {
                const float reach = std::max({std::fabs(d.x), std::fabs(d.y), std::fabs(d.z)});
                // Clear when no solid lies within the trace plus the cubic's two cells.
                if (!(reach + 3.f < float(clearanceAt(at.x, at.y, at.z))))
                    continue;
            }
            const Vec3 x{float(at.x) - d.x, float(at.y) - d.y, float(at.z) - d.z};
            dst[i] = k3D ? cubicAt<true>(q, axes, x) : cubicAt<false>(q, axes, x);
        }
    });
}

void Advector::advectCubic(ScalarGrid &q, const MacGrid &vel, float dt, Workspace &work,
                           const int *activeLo, const int *activeHi) const
{
    const float scale = dt / mDomain.cellSize;
    ScalarGrid &out = work[0];
    if (!mAnySolid) {
        out.reshapeForOverwrite(q.size(), q.offset());
        cubicPass(q, vel, scale, -1, false, out, activeLo, activeHi);
        q.swap(out);
        return;
    }
    // Next to solids the first-order exact path: its result everywhere, then the cubic's
    // wherever the trace and the stencil are clear of them.
    ScalarGrid &source = work[2];
    source.reshapeForOverwrite(q.size(), q.offset());
    std::copy(q.data(), q.data() + q.count(), source.data());
    advectOne(q, vel, dt, AdvectionOrder::SemiLagrangian, work, nullptr);
    cubicPass(source, vel, scale, -1, true, q);
}

} // namespace plume::sim
