#pragma once

// The passes of the smoke scheme's advection: semi-Lagrangian (Stam 1999), MacCormack (Selle
// et al. 2008) and BFECC (Kim et al. 2005). Each pass exists once, for N grids of one layout
// moved together: one trace and one stencil per sample serve all N of them, and a lone grid
// is N = 1. Internal to plume_sim; Advector (advection.h) is the entry point.

#include "samplesweep.h"

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

    /// Sweeps the samples of `layout` for a body that writes every grid of `out` at `dst`;
    /// samples inside obstacles get zero.
    static In reading(const Out &grids)
    {
        In r;
        std::copy(grids.begin(), grids.end(), r.begin());
        return r;
    }

    template<class Body>
    void sweep(const Out &out, Body &&body) const
    {
        visitSamples<kSolids>(c, layout.size(), layout.offset(), faceAxis, disp, body,
                              [&](std::size_t dst) {
            for (float *o : out)
                o[dst] = 0.f;
        });
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
        sweep(out,
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
        });
    }

    /// MacCormack correction (Selle et al. 2008): phi1 + (q - A_rev(phi1)) / 2, clamped to the
    /// corners that the forward step interpolated (kept by advect<true> in lo and hi, or
    /// gathered again).
    template<bool kKeptRange = false>
    void maccormack(const In &q, const In &phi1, const Out &out, const In *lo = nullptr,
                    const In *hi = nullptr) const
    {
        const GridMap m = gridMap(layout, c.domain);
        sweep(out,
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
                out[f][dst] = std::min(std::max(t[n] + 0.5f * (s[n] - back), l), h);
            }
        });
    }

    /// BFECC error compensation (Kim et al. 2005): q + (q - A_rev(A(q))) / 2.
    void bfeccCompensate(const In &q, const In &phi1, const Out &out) const
    {
        const GridMap m = gridMap(layout, c.domain);
        sweep(out,
              [&](auto path, std::size_t n, Vec3 p, Vec3 d, std::size_t dst) PLUME_LAMBDA_INLINE {
            constexpr Path kPath = decltype(path)::value;
            const Stencil ahead = at<kPath>(m, p, d);
            for (std::size_t f = 0; f < std::size_t(kCount); ++f) {
                const float *s = q[f];
                const float *t = phi1[f];
                const float back = valueAt<k3D, kPath>(c, faceAxis, t, ahead, t[n]);
                out[f][dst] = s[n] + 0.5f * (s[n] - back);
            }
        });
    }

    /// BFECC final step: A(compensated), clamped to the corners of q that A(q) interpolated.
    void bfeccFinal(const In &q, const In &compensated, const Out &out) const
    {
        const GridMap m = gridMap(layout, c.domain);
        sweep(out,
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
                out[f][dst] = std::min(std::max(v, l), h);
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
        case AdvectionOrder::SemiLagrangian: advect(q, b); return false;
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
