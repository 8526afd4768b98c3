// SPDX-License-Identifier: Apache-2.0
#pragma once

// The passes of the smoke scheme's advection: semi-Lagrangian (Stam 1999), MacCormack (Selle
// et al. 2008) and BFECC (Kim et al. 2005). Each pass exists once, for N grids of one layout
// moved together: one trace and one stencil per sample serve all N of them, and a lone grid
// is N = 1. Internal to plume_sim; Advector (advection.h) is the entry point.

#include <core/sim/ops/samplesweep.h>

#include <array>

namespace plume::sim::detail {

/// The passes for one kind of sample (cells or the faces of one axis), for kCount grids that
/// share the layout of `layout`: every grid they read or write has that layout. The bodies
/// take the sample's path as a PathTag.
template<bool k3D, bool kSolids, class Disp, int kCount>
struct Passes
{
    /// The data of kCount grids, one per field moved: written (Out) or read (In).
    using Out = std::array<float *, std::size_t(kCount)>;
    using In = std::array<const float *, std::size_t(kCount)>;

    const Setup &c;
    int faceAxis;
    Disp disp;
    const ScalarGrid &layout;

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
    /// The solid distance (in cells) at or under which a displacement d counts as near: its
    /// longest component plus two, capped (NaN: always near).
    PLUME_INLINE static int nearDistance(float dx, float dy, float dz)
    {
        const float reach = std::max(std::max(std::fabs(dx), std::fabs(dy)), std::fabs(dz));
        return reach < 250.f ? int(reach) + 2 : 255;
    }

    PLUME_INLINE bool nearSolid(Vec3 p, Vec3 d) const
    {
        if (!c.solidDistance)
            return false;
        const Int3 n = c.domain.cells;
        const int need = nearDistance(d.x, d.y, d.z);
        int cell[3];
        for (int a = 0; a < 3; ++a)
            cell[a] = std::clamp(int(std::floor(p[a])), 0, n[a] - 1);
        auto distance = [&](const int *q) {
            return int(c.solidDistance[std::size_t(q[0])
                                       + std::size_t(n.x)
                                             * (std::size_t(q[1]) + std::size_t(n.y) * q[2])]);
        };
        if (distance(cell) <= need)
            return true;
        if (faceAxis >= 0 && cell[faceAxis] > 0) {
            cell[faceAxis] -= 1; // the cell on the face's low side
            return distance(cell) <= need;
        }
        return false;
    }

    /// The grids of `grids`, for reading.
    static In reading(const Out &grids)
    {
        In r;
        std::copy(grids.begin(), grids.end(), r.begin());
        return r;
    }

    /// Whether each sample of a run is nearSolid(), into near[0, count); false when none is.
    /// The samples share their row, so the cells along y and z are found once.
    bool nearSolidRun(const PlainRun &r, bool *near) const
    {
        if (!c.solidDistance)
            return false;
        const Int3 n = c.domain.cells;
        const auto cellOf = [](float p, int size) {
            return std::clamp(int(std::floor(p)), 0, size - 1);
        };
        const int cy = cellOf(r.y, n.y);
        const int cz = cellOf(r.z, n.z);
        const std::size_t sy = std::size_t(n.x);
        const std::size_t sz = sy * std::size_t(n.y);
        const std::uint8_t *row = c.solidDistance + sy * std::size_t(cy) + sz * std::size_t(cz);
        // The cells on the low side of y and z faces: the row below, when there is one.
        const std::uint8_t *low = nullptr;
        if (faceAxis == 1 && cy > 0)
            low = row - sy;
        if (faceAxis == 2 && cz > 0)
            low = row - sz;
        int need[kRun];
        for (int m = 0; m < r.count; ++m)
            need[m] = nearDistance(r.dx[m], r.dy[m], r.dz[m]);
        // Sample positions along x are i0 + m + off.x >= 0: truncation is their floor.
        const int lastX = n.x - 1;
        int any = 0;
        for (int m = 0; m < r.count; ++m) {
            const int cx = std::min(int(float(r.i0 + m) + r.off.x), lastX);
            int v = int(row[cx]) <= need[m];
            if (faceAxis == 0)
                v |= cx > 0 && int(row[cx - 1]) <= need[m];
            else if (low)
                v |= int(low[cx]) <= need[m];
            near[m] = v != 0;
            any |= v;
        }
        return any != 0;
    }

    /// Sweeps the samples of `layout`: runs of plain samples go to run(PlainRun), the others
    /// to body (both write every grid of `out`); samples inside obstacles get zero. On a grid
    /// too large for runs, body takes every sample.
    template<class Body, class Run>
    void sweep(const Out &out, Body &&body, Run &&run) const
    {
        const bool fits = runsFit(layout);
        visitSamples<kSolids>(
            c, layout.size(), layout.offset(), faceAxis, disp, body,
            [&](std::size_t dst) {
            for (float *o : out)
                o[dst] = 0.f;
            },
            [&](const PlainRun &r) PLUME_LAMBDA_INLINE {
            if (fits) {
                run(r);
                return;
            }
            for (int m = 0; m < r.count; ++m) {
                const std::size_t i = std::size_t(m);
                body(PathTag<Path::Plain>{}, r.src + i, Vec3{float(r.i0 + m) + r.off.x, r.y, r.z},
                     Vec3{r.dx[m], r.dy[m], r.dz[m]}, r.dst + i);
            }
        });
    }

    /// The stencils of a run's traces: forward (sign 1) or backward (-1).
    void stencils(const GridMap &m, const PlainRun &r, float sign, StencilRun &st) const
    {
        stencilRun<k3D>(m, r.i0, r.off, r.y, r.z, sign, r.dx, r.dy, r.dz, r.count, st);
    }

    /// Semi-Lagrangian step (Stam 1999): out(x) = src(x - dt u(x) / h). With kKeepRange it
    /// also keeps the range of the corners it interpolated in lo and hi (the MacCormack
    /// limiter's bounds, cell-centred samples only), so that the correction pass reads them
    /// instead of tracing and gathering a second time.
    template<bool kKeepRange = false>
    void advect(const In &src, const Out &out, const Out *lo = nullptr,
                const Out *hi = nullptr) const
    {
        const GridMap m = gridMap(layout, c.domain);
        sweep(
            out,
            [&](auto path, std::size_t n, Vec3 p, Vec3 d, std::size_t dst) PLUME_LAMBDA_INLINE {
            constexpr Path kPath = decltype(path)::value;
            const Stencil st = at<kPath>(m, p, d * -1.f);
            for (std::size_t f = 0; f < std::size_t(kCount); ++f) {
                const float *s = src[f];
                if constexpr (kKeepRange) {
                    float &l = (*lo)[f][n];
                    float &h = (*hi)[f][n];
                    float v;
                    if constexpr (kPath == Path::Exact) {
                        if (!interpolateFluid<k3D>(s, st, c.obstacles, faceAxis, v, l, h))
                            v = l = h = s[n];
                    } else {
                        v = interpolate<k3D>(s, st);
                        cornerRange<k3D>(s, st, l, h);
                    }
                    out[f][dst] = v;
                } else {
                    out[f][dst] = valueAt<k3D, kPath>(c, faceAxis, s, st, s[n]);
                }
            }
            },
            [&](const PlainRun &r) {
            StencilRun st;
            stencils(m, r, -1.f, st);
            for (std::size_t f = 0; f < std::size_t(kCount); ++f) {
                interpolateRun<k3D>(src[f], st, r.count, out[f] + r.dst);
                if constexpr (kKeepRange)
                    cornerRangeRun<k3D>(src[f], st, r.count, (*lo)[f] + r.src, (*hi)[f] + r.src);
            }
        });
    }

    /// Selle et al. (2008)'s limiter: the corrected value where it lies within [l, h], the
    /// range of the corners the first-order step interpolated, else the first-order value.
    PLUME_INLINE static float limited(float corrected, float firstOrder, float l, float h)
    {
        return corrected >= l && corrected <= h ? corrected : firstOrder;
    }

    /// MacCormack correction (Selle et al. 2008): phi1 + (q - A_rev(phi1)) / 2, reverted to
    /// phi1 where it leaves the range of the corners that the forward step interpolated (kept
    /// by advect<true> in lo and hi, or gathered again).
    template<bool kKeptRange = false>
    void maccormack(const In &q, const In &phi1, const Out &out, const In *lo = nullptr,
                    const In *hi = nullptr) const
    {
        const GridMap m = gridMap(layout, c.domain);
        sweep(
            out,
            [&](auto path, std::size_t n, Vec3 p, Vec3 d, std::size_t dst) PLUME_LAMBDA_INLINE {
            constexpr Path kPath = decltype(path)::value;
            if (nearSolid(p, d)) {
                for (std::size_t f = 0; f < std::size_t(kCount); ++f)
                    out[f][dst] = phi1[f][n];
                return;
            }
            const Stencil ahead = at<kPath>(m, p, d);
            [[maybe_unused]] Stencil behind;
            if constexpr (!kKeptRange)
                behind = at<kPath>(m, p, d * -1.f);
            for (std::size_t f = 0; f < std::size_t(kCount); ++f) {
                const float *s = q[f];
                const float *t = phi1[f];
                const float back = valueAt<k3D, kPath>(c, faceAxis, t, ahead, t[n]);
                float l, h;
                if constexpr (kKeptRange) {
                    l = (*lo)[f][n];
                    h = (*hi)[f][n];
                } else {
                    rangeAt<k3D, kPath>(c, faceAxis, s, behind, s[n], l, h);
                }
                out[f][dst] = limited(t[n] + 0.5f * (s[n] - back), t[n], l, h);
            }
            },
            [&](const PlainRun &r) {
            StencilRun ahead;
            stencils(m, r, 1.f, ahead);
            [[maybe_unused]] StencilRun behind;
            if constexpr (!kKeptRange)
                stencils(m, r, -1.f, behind);
            bool near[kRun];
            const bool anyNear = nearSolidRun(r, near);
            for (std::size_t f = 0; f < std::size_t(kCount); ++f) {
                const float *s = q[f] + r.src;
                const float *t = phi1[f] + r.src;
                float *o = out[f] + r.dst;
                float back[kRun], range[2][kRun];
                const float *l = range[0];
                const float *h = range[1];
                interpolateRun<k3D>(phi1[f], ahead, r.count, back);
                if constexpr (kKeptRange) {
                    l = (*lo)[f] + r.src;
                    h = (*hi)[f] + r.src;
                } else {
                    cornerRangeRun<k3D>(q[f], behind, r.count, range[0], range[1]);
                }
                for (int i = 0; i < r.count; ++i)
                    o[i] = limited(t[i] + 0.5f * (s[i] - back[i]), t[i], l[i], h[i]);
                for (int i = 0; anyNear && i < r.count; ++i)
                    o[i] = near[i] ? t[i] : o[i];
            }
        });
    }

    /// BFECC error compensation (Kim et al. 2005): q + (q - A_rev(A(q))) / 2.
    void bfeccCompensate(const In &q, const In &phi1, const Out &out) const
    {
        const GridMap m = gridMap(layout, c.domain);
        sweep(
            out,
            [&](auto path, std::size_t n, Vec3 p, Vec3 d, std::size_t dst) PLUME_LAMBDA_INLINE {
            constexpr Path kPath = decltype(path)::value;
            const Stencil ahead = at<kPath>(m, p, d);
            for (std::size_t f = 0; f < std::size_t(kCount); ++f) {
                const float *s = q[f];
                const float *t = phi1[f];
                const float back = valueAt<k3D, kPath>(c, faceAxis, t, ahead, t[n]);
                out[f][dst] = s[n] + 0.5f * (s[n] - back);
            }
            },
            [&](const PlainRun &r) {
            StencilRun ahead;
            stencils(m, r, 1.f, ahead);
            for (std::size_t f = 0; f < std::size_t(kCount); ++f) {
                const float *s = q[f] + r.src;
                float *o = out[f] + r.dst;
                float back[kRun];
                interpolateRun<k3D>(phi1[f], ahead, r.count, back);
                for (int i = 0; i < r.count; ++i)
                    o[i] = s[i] + 0.5f * (s[i] - back[i]);
            }
        });
    }

    /// BFECC final step: A(compensated), reverted to A(q) where it leaves the range of the
    /// corners of q that A(q) interpolated.
    void bfeccFinal(const In &q, const In &compensated, const Out &out) const
    {
        const GridMap m = gridMap(layout, c.domain);
        sweep(
            out,
            [&](auto path, std::size_t n, Vec3 p, Vec3 d, std::size_t dst) PLUME_LAMBDA_INLINE {
            constexpr Path kPath = decltype(path)::value;
            const Stencil behind = at<kPath>(m, p, d * -1.f);
            const bool firstOrder = nearSolid(p, d);
            for (std::size_t f = 0; f < std::size_t(kCount); ++f) {
                const float *s = q[f];
                const float *t = compensated[f];
                if (firstOrder) {
                    out[f][dst] = valueAt<k3D, kPath>(c, faceAxis, s, behind, s[n]);
                    continue;
                }
                const float v = valueAt<k3D, kPath>(c, faceAxis, t, behind, t[n]);
                float l, h;
                rangeAt<k3D, kPath>(c, faceAxis, s, behind, s[n], l, h);
                out[f][dst] = v >= l && v <= h ? v
                                               : valueAt<k3D, kPath>(c, faceAxis, s, behind, s[n]);
            }
            },
            [&](const PlainRun &r) {
            StencilRun behind;
            stencils(m, r, -1.f, behind);
            bool near[kRun];
            const bool anyNear = nearSolidRun(r, near);
            for (std::size_t f = 0; f < std::size_t(kCount); ++f) {
                float *o = out[f] + r.dst;
                float v[kRun], first[kRun], l[kRun], h[kRun];
                interpolateRun<k3D>(compensated[f], behind, r.count, v);
                interpolateRun<k3D>(q[f], behind, r.count, first);
                cornerRangeRun<k3D>(q[f], behind, r.count, l, h);
                for (int i = 0; i < r.count; ++i)
                    o[i] = limited(v[i], first[i], l[i], h[i]);
                for (int i = 0; anyNear && i < r.count; ++i)
                    o[i] = near[i] ? first[i] : o[i];
            }
        });
    }

    /// Moves the grids q by one step of `order`; a and b are one scratch grid per field each.
    /// With lo and hi (cell-centred samples only), MacCormack keeps the limiter's bounds there
    /// instead of gathering them twice. The results end up in a (BFECC) or b (the others):
    /// the return value is true for a.
    bool run(AdvectionOrder order, const In &q, const Out &a, const Out &b, const Out *lo = nullptr,
             const Out *hi = nullptr) const
    {
        switch (order) {
        case AdvectionOrder::SemiLagrangian:
        case AdvectionOrder::MonotoneCubic: // the Advector runs the cubic's own pass instead
            advect(q, b);
            return false;
        case AdvectionOrder::MacCormack:
            if (lo && hi && faceAxis < 0) {
                const In keptLo = reading(*lo);
                const In keptHi = reading(*hi);
                advect<true>(q, a, lo, hi);
                maccormack<true>(q, reading(a), b, &keptLo, &keptHi);
                return false;
            }
            advect(q, a);
            maccormack(q, reading(a), b);
            return false;
        case AdvectionOrder::Bfecc:
            advect(q, a);
            bfeccCompensate(q, reading(a), b);
            bfeccFinal(q, reading(b), a);
            return true;
        }
        return false;
    }
};

} // namespace plume::sim::detail
