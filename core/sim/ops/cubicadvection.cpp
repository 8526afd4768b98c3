// SPDX-License-Identifier: Apache-2.0
// Advector's monotone cubic semi-Lagrangian transport of scalars (AdvectionOrder::MonotoneCubic):
// one backtrace per sample, as the first-order scheme, with the tensor product of the
// Fritsch-Carlson monotone cubic (numerics/monotonecubic.h) over the 4^3 samples around the
// trace's end instead of the trilinear 2^3. Every 1D pass stays between its two middle
// samples, so the cubic stays within the trilinear corners' range.
//
// The cubic alone still carries grid-scale content of its own (docs/advection.md: six times a
// finer reference's in explosion-3d). So a scalar's step filters the grid scale and keeps the
// cubic's bound:
//   q = clamp(F(cub), corner min, corner max)
// F is the filter [-1 4 26 4 -1] / 32 along each axis, a response of 1 - sin^4(k h / 2) / 2:
// it halves 2-cell waves, takes 12.5 % of 4-cell ones and 1 % of 8-cell ones. The clamp keeps
// the result within the trace's eight corners, as the cubic is, so the step makes no new
// extremum. Next to obstacles the exact first-order path (obstacle walk, fluid-only
// interpolation) is kept, and the filter applies only where the trace and the stencils are
// clear of solids.
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

/// The monotone cubic interpolant of q at grid coordinates x; with lo and hi, also the range
/// of the eight middle samples (the trilinear corners), which the value lies within.
template<bool k3D>
inline float cubicAt(const ScalarGrid &q, const Axis (&axes)[3], Vec3 x, float *lo = nullptr,
                     float *hi = nullptr)
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
        float least = c, most = c;
        for (int cz = 1; cz <= (k3D ? 2 : 1); ++cz)
            for (int cy = 1; cy <= 2; ++cy) {
                const float *row = d + std::size_t(iy[cy]) * sy
                                   + (k3D ? std::size_t(iz[cz]) * sz : 0);
                same = same && row[ix[1]] == c && row[ix[2]] == c;
                if (lo) {
                    least = std::min({least, row[ix[1]], row[ix[2]]});
                    most = std::max({most, row[ix[1]], row[ix[2]]});
                }
            }
        if (lo) {
            *lo = least;
            *hi = most;
        }
        if (same)
            return c + 0.f; // +0 for a -0 corner, as the cubic's arithmetic gives
    }
    if constexpr (!k3D) {
        float r[4];
        for (int b = 0; b < 4; ++b) {
            const float *row = d + std::size_t(iy[b]) * sy;
            r[b] = monotoneCubic(row[ix[0]], row[ix[1]], row[ix[2]], row[ix[3]], tx);
        }
        return monotoneCubic(r[0], r[1], r[2], r[3], ty);
    } else {
        // plane(c) for the four planes at once: lane c of row[b][m] is sample (m, b) of plane
        // c, so each 1D pass along x and then y runs on the four planes together (the same
        // arithmetic, lane by lane, as four calls of plane()).
        Float4 row[4][4];
        for (int c = 0; c < 4; ++c) {
            const float *planeData = d + std::size_t(iz[c]) * sz;
            for (int b = 0; b < 4; ++b) {
                const float *r = planeData + std::size_t(iy[b]) * sy;
                for (int m = 0; m < 4; ++m)
                    row[b][m][c] = r[ix[m]];
            }
        }
        Float4 along[4];
        for (int b = 0; b < 4; ++b)
            along[b] = monotoneCubic(row[b][0], row[b][1], row[b][2], row[b][3], tx);
        const Float4 p = monotoneCubic(along[0], along[1], along[2], along[3], ty);
        return monotoneCubic(p[0], p[1], p[2], p[3], tz);
    }
}

/// dst = the 5-tap kernel w along `axis` of src (samples beyond the ends repeat the end one,
/// or wrap on a periodic axis).
void filterAxis(const ScalarGrid &src, ScalarGrid &dst, int axis, bool periodic,
                const float (&w)[5])
{
    const Int3 n = src.size();
    const int len = n[axis];
    const std::size_t stride = axis == 0 ? 1 : (axis == 1 ? src.strideY() : src.strideZ());
    forEachRow(n, [&](int j, int k) {
        const float *in = src.data() + src.index(0, j, k);
        float *out = dst.data() + dst.index(0, j, k);
        const int at = axis == 1 ? j : k; // this row's place along a y or z axis
        auto index = [&](int m) {
            if (periodic)
                return ((m % len) + len) % len;
            return std::clamp(m, 0, len - 1);
        };
        if (axis == 0) {
            // Within two samples of an end the taps wrap or repeat; between, they are direct.
            const auto ends = [&](int i) {
                float v = 0.f;
                for (int o = 0; o < 5; ++o)
                    v += w[o] * in[index(i + o - 2)];
                out[i] = v;
            };
            const int first = std::min(2, n.x), last = std::max(n.x - 2, first);
            for (int i = 0; i < first; ++i)
                ends(i);
            for (int i = first; i < last; ++i) {
                float v = 0.f;
                for (int o = 0; o < 5; ++o)
                    v += w[o] * in[i + o - 2];
                out[i] = v;
            }
            for (int i = last; i < n.x; ++i)
                ends(i);
            return;
        }
        const float *rows[5];
        for (int o = 0; o < 5; ++o)
            rows[o] = in + std::ptrdiff_t(index(at + o - 2) - at) * std::ptrdiff_t(stride);
        for (int i = 0; i < n.x; ++i) {
            float v = 0.f;
            for (int o = 0; o < 5; ++o)
                v += w[o] * rows[o][i];
            out[i] = v;
        }
    });
}

/// The grid-scale filter (file comment).
constexpr float kFilter[5] = {-1.f / 32.f, 4.f / 32.f, 26.f / 32.f, 4.f / 32.f, -1.f / 32.f};

} // namespace

void Advector::cubicPass(const ScalarGrid &q, const MacGrid &vel, float scale, int faceAxis,
                         bool onlyClear, ScalarGrid &out, const int *activeLo, const int *activeHi,
                         const CubicRange *range) const
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
    // Faces outside the live tiles are not computed (advectVelocity fills them).
    const LiveTiles live(dom, faceAxis >= 0 ? mLiveTiles : nullptr);
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
        const std::size_t rowAt = out.index(0, j, k);
        if (range) {
            // Outside the span the range is 0 like the value; a sample the pass skips
            // (onlyClear) gets the range of its own value alone.
            for (float *g : {range->lo, range->hi}) {
                std::fill(g + rowAt, g + rowAt + from, 0.f);
                std::fill(g + rowAt + to, g + rowAt + n.x, 0.f);
            }
        }
        const auto samples = [&](int first, int end) {
            for (int i = first; i < end; ++i) {
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
                    if (!(reach + 3.f < float(clearanceAt(at.x, at.y, at.z)))) {
                        if (range) // out keeps its value: the range is that value alone
                            range->lo[rowAt + std::size_t(i)] = range->hi[rowAt + std::size_t(i)] =
                                dst[i];
                        continue;
                    }
                }
                const Vec3 x{float(at.x) - d.x, float(at.y) - d.y, float(at.z) - d.z};
                float *lo = range ? range->lo + rowAt + std::size_t(i) : nullptr;
                float *hi = range ? range->hi + rowAt + std::size_t(i) : nullptr;
                dst[i] = k3D ? cubicAt<true>(q, axes, x, lo, hi)
                             : cubicAt<false>(q, axes, x, lo, hi);
            }
        };
        if (live)
            live.forFaces(n, faceAxis, j, k, samples);
        else
            samples(from, to);
    });
}

void Advector::advectCubic(ScalarGrid &q, const MacGrid &vel, float dt, Workspace &work,
                           const int *activeLo, const int *activeHi) const
{
    const float scale = dt / mDomain.cellSize;
    // work[0]: the cubic's value; work[2] and work[3]: the corners' range; work[1] and q, once
    // read, the filter's scratch.
    ScalarGrid *value = &work[0], *scratch = &work[1];
    ScalarGrid &lo = work[2], &hi = work[3];
    for (ScalarGrid *g : {value, scratch, &lo, &hi})
        g->reshapeForOverwrite(q.size(), q.offset());
    const std::size_t count = q.count();
    if (!mAnySolid) {
        const CubicRange range{lo.data(), hi.data()};
        cubicPass(q, vel, scale, -1, false, *value, activeLo, activeHi, &range);
    } else {
        // The first-order exact path's result everywhere (it uses work[0] and [1] as its
        // scratch), from q kept in work[2]; then, from that copy, the cubic's value and range
        // wherever the trace and the stencil are clear of solids. Elsewhere the range is the
        // exact value alone.
        // Outside the active spans both give zero, as they do there without solids.
        std::copy(q.data(), q.data() + count, lo.data());
        advectWithin(q, vel, dt, AdvectionOrder::SemiLagrangian, work, activeLo, activeHi);
        std::copy(q.data(), q.data() + count, value->data());
        q.swap(lo); // q: the step's source; lo: free for the range
        const CubicRange range{lo.data(), hi.data()};
        cubicPass(q, vel, scale, -1, true, *value, activeLo, activeHi, &range);
    }
    // The filter along each axis in turn, then the corners' range (one value where the
    // exact path stands, so that value).
    for (int a = 0; a < mDomain.dimensions(); ++a) {
        filterAxis(*value, *scratch, a, isPeriodic(mDomain, a), kFilter);
        std::swap(value, scratch);
    }
    float *out = q.data();
    const float *v = value->data(), *rl = lo.data(), *rh = hi.data();
    forEachIndex(std::int64_t(count),
                 [&](std::int64_t n) { out[n] = std::clamp(v[n], rl[n], rh[n]); });
}

} // namespace plume::sim
