// SPDX-License-Identifier: Apache-2.0
// The stam scheme's linear solves (Stam 2003): lin_solve's Gauss-Seidel sweeps in the
// paper's order or red-black, diffuse and project.
#include <core/sim/stam/stamkernels.h>

#include <core/sim/base/assert.h>

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace plume::sim {

using namespace detail::stam;
using detail::StamLayout;

namespace {

/// Sum of the face neighbours in the paper's order (-x, +x, -y, +y), then -z, +z.
template<bool D3, class T>
inline T neighbourSum(const T *x, Index n, Index sy, Index sz)
{
    T s = x[n - 1] + x[n + 1] + x[n - sy] + x[n + sy];
    if constexpr (D3)
        s = s + x[n - sz] + x[n + sz];
    return s;
}

/// One Gauss-Seidel update of lin_solve: x = (x0 + a * sum of neighbours) / c (Stam 2003).
/// The paper's order divides like the published code; red-black multiplies by 1 / c.
template<class T>
struct Relax
{
    T *x;
    const T *x0;
    const std::uint8_t *flags;
    Index sy, sz;
    T a, c;
    T inverseC;
    int normalAxis; ///< axis whose mirror negates (velocity component), -1 for scalars
    /// Moving solids (velocity components only, else null): the component's value in solid
    /// cells, and the no-slip solids (null: none).
    const T *wall;
    const std::uint8_t *noSlip;

    template<bool D3, bool P>
    void plain(Index n) const
    {
        const T b = x0[n] + a * neighbourSum<D3>(x, n, sy, sz);
        x[n] = P ? b / c : b * inverseC;
    }

    /// Solid neighbours stand for the cell's mirror image, moved to the diagonal: x[n] or -x[n]
    /// across the face normal to the component, where a moving solid's is 2 wall - x[n] (its
    /// wall part joins the right-hand side). A cell beside a no-slip solid across another axis
    /// is held at that solid's velocity (the average over such neighbours), as imposeNoSlip
    /// holds it before each projection.
    template<bool D3, bool P>
    void masked(Index n) const
    {
        const std::uint8_t f = flags[n];
        if (f == 0)
            return plain<D3, P>(n);
        if (f & kSelfSolid) {
            x[n] = T(0);
            return;
        }
        const Index offset[6] = {-1, 1, -sy, sy, -sz, sz};
        if (noSlip && heldByNoSlip<D3>(n, f, offset))
            return;
        T sum = T(0);
        T diagonal = c;
        for (int d = 0; d < (D3 ? 6 : 4); ++d) {
            const Index m = n + offset[d];
            if (!(f & (1u << d))) {
                sum += x[m];
            } else if (d / 2 != normalAxis) {
                diagonal -= a; // tangential (or a scalar): the mirror is x[n]
            } else {
                diagonal += a; // normal: -x[n], or 2 wall - x[n] for a moving solid
                if (wall)
                    sum += T(2) * wall[m];
            }
        }
        x[n] = diagonal > T(0) ? (x0[n] + a * sum) / diagonal : T(0);
    }

    /// x[n] = the average velocity of the no-slip solids beside cell n across the axes other
    /// than the component's; false when there are none.
    template<bool D3>
    bool heldByNoSlip(Index n, std::uint8_t f, const Index *offset) const
    {
        T held = T(0);
        int count = 0;
        for (int d = 0; d < (D3 ? 6 : 4); ++d) {
            const Index m = n + offset[d];
            if ((f & (1u << d)) && d / 2 != normalAxis && noSlip[m]) {
                held += wall[m];
                ++count;
            }
        }
        if (count > 0)
            x[n] = held / T(count);
        return count > 0;
    }

    template<bool D3, bool S, bool P>
    void cell(Index n) const
    {
        if constexpr (S)
            masked<D3, P>(n);
        else
            plain<D3, P>(n);
    }
};

/// The paper's sweep, serial: FOR_EACH_CELL (i outer, j inner) in 2D, Ash's k-j-i in 3D.
template<bool D3, bool S, class T>
void sweepPaper(const StamLayout &L, const Relax<T> &relax)
{
    enableFlushToZero();
    const Relax<T> r = relax;
    if constexpr (!D3) {
        for (int i = 1; i <= L.cells.x; ++i)
            for (int j = 1; j <= L.cells.y; ++j)
                r.template cell<D3, S, true>(Index(L.index(i, j, 0)));
    } else {
        for (int k = 1; k <= L.cells.z; ++k)
            for (int j = 1; j <= L.cells.y; ++j) {
                const Index row = Index(L.index(0, j, k));
                for (int i = 1; i <= L.cells.x; ++i)
                    r.template cell<D3, S, true>(row + i);
            }
    }
}

/// Red cells ((i + j + k) even) then black ones; each colour reads only the other, so rows run
/// in parallel with the same result as serially.
template<bool D3, bool S, class T>
void sweepRedBlack(const StamLayout &L, const Relax<T> &relax)
{
    for (int colour = 0; colour < 2; ++colour) {
        forEachInteriorRow(L, [&](int j, int k) {
            const Relax<T> r = relax; // a local copy: stores to x cannot alias its factors
            const Index row = Index(L.index(0, j, k));
            for (int i = 1 + ((1 + j + k + colour) & 1); i <= L.cells.x; i += 2)
                r.template cell<D3, S, false>(row + i);
        });
    }
}

} // namespace

// The paper's lin_solve: stamIterations Gauss-Seidel sweeps, set_bnd after each.
template<class T>
void BasicStamSolver<T>::linSolve(Quantity q, Grid &x, const Grid &x0, float a, float c) const
{
    const StamLayout &L = mLayout;
    PLUME_ASSERT(x.size() == L.padded && x0.size() == L.padded,
                 "stam lin_solve: the grids are not the padded layout's");
    const T *wall = wallsOf(q);
    const Relax<T> relax{x.data(),
                         x0.data(),
                         mFlags.data(),
                         L.sy,
                         L.sz,
                         T(a),
                         T(c),
                         T(1.f / c),
                         normalAxisOf(int(q)),
                         wall,
                         wall && !mObstacleNoSlip.empty() ? mObstacleNoSlip.data() : nullptr};
    const bool paper = mParams.stamSweep == SweepOrder::Paper;
    const bool solids = !mFlags.empty();
    for (int it = 0; it < mParams.stamIterations; ++it) {
        withDimension(L.is3D, [&](auto dim) {
            constexpr bool D3 = decltype(dim)::value;
            if (paper)
                solids ? sweepPaper<D3, true>(L, relax) : sweepPaper<D3, false>(L, relax);
            else
                solids ? sweepRedBlack<D3, true>(L, relax) : sweepRedBlack<D3, false>(L, relax);
        });
        setBoundary(q, x);
    }
}

// The paper's diffuse: implicit, a = dt * diff / h^2 (the paper's dt * diff * N * N).
template<class T>
void BasicStamSolver<T>::diffuse(Quantity q, Grid &x, const Grid &x0, float diff, float dt) const
{
    const float h = mDomain.cellSize;
    const float a = dt * diff / (h * h);
    PLUME_ASSERT(x.size() == mLayout.padded && x0.size() == mLayout.padded,
                 "stam diffuse: the grids are not the padded layout's");
    if (a != 0.f) {
        linSolve(q, x, x0, a, 1.f + float(mLayout.is3D ? 6 : 4) * a);
        return;
    }
    // a = 0: every sweep gives x = x0, so copy once.
    T *xd = x.data();
    const T *x0d = x0.data();
    const std::uint8_t *flags = mFlags.empty() ? nullptr : mFlags.data();
    forEachIndex(std::int64_t(x.count()),
                 [&](std::int64_t n) { xd[n] = flags && (flags[n] & kSelfSolid) ? T(0) : x0d[n]; });
    setBoundary(q, x);
}

// The paper's project: central-difference divergence, Poisson solve for p, subtract grad p.
template<class T>
void BasicStamSolver<T>::project(Grid &u, Grid &v, Grid &w)
{
    const StamLayout &L = mLayout;
    PLUME_ASSERT(u.size() == L.padded && v.size() == L.padded && (!L.is3D || w.size() == L.padded),
                 "stam project: the velocity is not the padded layout's");
    const float h = mDomain.cellSize;
    // Fixed point solves for p / h instead of p (sample() scales it back): the paper's p is O(h u),
    // so in Q12.20 it would keep 6 fewer bits at N = 64 and the gradient's 1 / h would scale the
    // rounding up again. Float keeps the paper's p and its operations.
    constexpr bool kFixed = std::is_same_v<T, Fixed>;
    const T divScale = kFixed ? T(1) : T(h);
    const Index sy = L.sy, sz = L.sz;
    T *pu = u.data(), *pv = v.data(), *pw = w.data();
    T *p = mPressure.data(), *div = mDivergence.data();
    const std::uint8_t *flags = mFlags.empty() ? nullptr : mFlags.data();
    // Moving solids: the faces to them move at their velocity (null while at rest).
    const T *wu = wallsOf(Quantity::VelocityX), *wv = wallsOf(Quantity::VelocityY),
            *ww = wallsOf(Quantity::VelocityZ);
    withDimension(L.is3D, [&](auto dim) {
        constexpr bool D3 = decltype(dim)::value;
        forEachInteriorRow(L, [&](int j, int k) {
            const Index row = Index(L.index(0, j, k));
            for (Index n = row + 1; n <= row + L.cells.x; ++n) {
                const std::uint8_t f = flags ? flags[n] : 0;
                T s;
                if (f == 0) {
                    s = pu[n + 1] - pu[n - 1] + pv[n + sy] - pv[n - sy];
                    if constexpr (D3)
                        s = s + pw[n + sz] - pw[n - sz];
                } else if (f & kSelfSolid) {
                    s = T(0);
                } else {
                    s = mirroredNormal(pu, wu, n, 1, f & 2) - mirroredNormal(pu, wu, n, -1, f & 1)
                        + mirroredNormal(pv, wv, n, sy, f & 8)
                        - mirroredNormal(pv, wv, n, -sy, f & 4);
                    if constexpr (D3)
                        s = s + mirroredNormal(pw, ww, n, sz, f & 32)
                            - mirroredNormal(pw, ww, n, -sz, f & 16);
                }
                div[n] = T(-0.5f) * s * divScale;
                p[n] = T(0);
            }
        });
    });
    setBoundary(Quantity::Scalar, mDivergence);
    setBoundary(Quantity::Pressure, mPressure);
    linSolve(Quantity::Pressure, mPressure, mDivergence, 1.f, L.is3D ? 6.f : 4.f);
    const T g = kFixed ? T(0.5f) : T(0.5f / h);
    withDimension(L.is3D, [&](auto dim) {
        constexpr bool D3 = decltype(dim)::value;
        forEachInteriorRow(L, [&](int j, int k) {
            const Index row = Index(L.index(0, j, k));
            for (Index n = row + 1; n <= row + L.cells.x; ++n) {
                const std::uint8_t f = flags ? flags[n] : 0;
                if (f == 0) {
                    pu[n] -= g * (p[n + 1] - p[n - 1]);
                    pv[n] -= g * (p[n + sy] - p[n - sy]);
                    if constexpr (D3)
                        pw[n] -= g * (p[n + sz] - p[n - sz]);
                } else if (f & kSelfSolid) {
                    pu[n] = pv[n] = T(0);
                    if constexpr (D3)
                        pw[n] = T(0);
                } else {
                    pu[n] -= g
                             * (mirrored(p, n, 1, f & 2, false) - mirrored(p, n, -1, f & 1, false));
                    pv[n] -= g
                             * (mirrored(p, n, sy, f & 8, false)
                                - mirrored(p, n, -sy, f & 4, false));
                    if constexpr (D3)
                        pw[n] -= g
                                 * (mirrored(p, n, sz, f & 32, false)
                                    - mirrored(p, n, -sz, f & 16, false));
                }
            }
        });
    });
    setBoundary(Quantity::VelocityX, u);
    setBoundary(Quantity::VelocityY, v);
    if (L.is3D)
        setBoundary(Quantity::VelocityZ, w);
}

template void StamSolver::linSolve(Quantity, Grid &, const Grid &, float, float) const;
template void StamSolver::diffuse(Quantity, Grid &, const Grid &, float, float) const;
template void StamSolver::project(Grid &, Grid &, Grid &);
template void FixedStamSolver::linSolve(Quantity, Grid &, const Grid &, float, float) const;
template void FixedStamSolver::diffuse(Quantity, Grid &, const Grid &, float, float) const;
template void FixedStamSolver::project(Grid &, Grid &, Grid &);

} // namespace plume::sim
