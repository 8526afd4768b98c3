// The stam scheme's linear solves (Stam 2003): lin_solve's Gauss-Seidel sweeps in the
// paper's order or red-black, diffuse and project.
#include "stamkernels.h"

#include <algorithm>
#include <cmath>

namespace plume::sim {

using namespace detail::stam;
using detail::StamLayout;

namespace {

/// Sum of the face neighbours in the paper's order (-x, +x, -y, +y), then -z, +z.
template<bool D3>
inline float neighbourSum(const float *x, Index n, Index sy, Index sz)
{
    float s = x[n - 1] + x[n + 1] + x[n - sy] + x[n + sy];
    if constexpr (D3)
        s = s + x[n - sz] + x[n + sz];
    return s;
}

/// One Gauss-Seidel update of lin_solve: x = (x0 + a * sum of neighbours) / c (Stam 2003).
/// The paper's order divides like the published code; red-black multiplies by 1 / c.
struct Relax
{
    float *x;
    const float *x0;
    const std::uint8_t *flags;
    Index sy, sz;
    float a, c;
    float inverseC;
    int normalAxis; ///< axis whose mirror negates (velocity component), -1 for scalars
    /// Moving solids (velocity components only, else null): the component's value in solid
    /// cells, and the no-slip solids (null: none).
    const float *wall;
    const std::uint8_t *noSlip;

    template<bool D3, bool P>
    void plain(Index n) const
    {
        const float b = x0[n] + a * neighbourSum<D3>(x, n, sy, sz);
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
            x[n] = 0.f;
            return;
        }
        const Index offset[6] = {-1, 1, -sy, sy, -sz, sz};
        if (noSlip && heldByNoSlip<D3>(n, f, offset))
            return;
        float sum = 0.f;
        float diagonal = c;
        for (int d = 0; d < (D3 ? 6 : 4); ++d) {
            const Index m = n + offset[d];
            if (!(f & (1u << d))) {
                sum += x[m];
            } else if (d / 2 != normalAxis) {
                diagonal -= a; // tangential (or a scalar): the mirror is x[n]
            } else {
                diagonal += a; // normal: -x[n], or 2 wall - x[n] for a moving solid
                if (wall)
                    sum += 2.f * wall[m];
            }
        }
        x[n] = diagonal > 0.f ? (x0[n] + a * sum) / diagonal : 0.f;
    }

    /// x[n] = the average velocity of the no-slip solids beside cell n across the axes other
    /// than the component's; false when there are none.
    template<bool D3>
    bool heldByNoSlip(Index n, std::uint8_t f, const Index *offset) const
    {
        float held = 0.f;
        int count = 0;
        for (int d = 0; d < (D3 ? 6 : 4); ++d) {
            const Index m = n + offset[d];
            if ((f & (1u << d)) && d / 2 != normalAxis && noSlip[m]) {
                held += wall[m];
                ++count;
            }
        }
        if (count > 0)
            x[n] = held / float(count);
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
template<bool D3, bool S>
void sweepPaper(const StamLayout &L, const Relax &relax)
{
    enableFlushToZero();
    const Relax r = relax;
    if constexpr (!D3) {
        for (int i = 1; i <= L.cells.x; ++i)
            for (int j = 1; j <= L.cells.y; ++j)
                r.cell<D3, S, true>(Index(L.index(i, j, 0)));
    } else {
        for (int k = 1; k <= L.cells.z; ++k)
            for (int j = 1; j <= L.cells.y; ++j) {
                const Index row = Index(L.index(0, j, k));
                for (int i = 1; i <= L.cells.x; ++i)
                    r.cell<D3, S, true>(row + i);
            }
    }
}

/// Red cells ((i + j + k) even) then black ones; each colour reads only the other, so rows run
/// in parallel with the same result as serially.
template<bool D3, bool S>
void sweepRedBlack(const StamLayout &L, const Relax &relax)
{
    for (int colour = 0; colour < 2; ++colour) {
        forEachInteriorRow(L, [&](int j, int k) {
            const Relax r = relax; // a local copy: stores to x cannot alias its factors
            const Index row = Index(L.index(0, j, k));
            for (int i = 1 + ((1 + j + k + colour) & 1); i <= L.cells.x; i += 2)
                r.cell<D3, S, false>(row + i);
        });
    }
}

} // namespace

// The paper's lin_solve: stamIterations Gauss-Seidel sweeps, set_bnd after each.
void StamSolver::linSolve(Quantity q, ScalarGrid &x, const ScalarGrid &x0, float a, float c) const
{
    const StamLayout &L = mLayout;
    const float *wall = wallsOf(q);
    const Relax relax{x.data(),
                      x0.data(),
                      mFlags.data(),
                      L.sy,
                      L.sz,
                      a,
                      c,
                      1.f / c,
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
void StamSolver::diffuse(Quantity q, ScalarGrid &x, const ScalarGrid &x0, float diff,
                         float dt) const
{
    const float h = mDomain.cellSize;
    const float a = dt * diff / (h * h);
    if (a != 0.f) {
        linSolve(q, x, x0, a, 1.f + float(mLayout.is3D ? 6 : 4) * a);
        return;
    }
    // a = 0: every sweep gives x = x0, so copy once.
    float *xd = x.data();
    const float *x0d = x0.data();
    const std::uint8_t *flags = mFlags.empty() ? nullptr : mFlags.data();
    forEachIndex(std::int64_t(x.count()),
                 [&](std::int64_t n) { xd[n] = flags && (flags[n] & kSelfSolid) ? 0.f : x0d[n]; });
    setBoundary(q, x);
}

// The paper's project: central-difference divergence, Poisson solve for p, subtract grad p.
void StamSolver::project(ScalarGrid &u, ScalarGrid &v, ScalarGrid &w)
{
    const StamLayout &L = mLayout;
    const float h = mDomain.cellSize;
    const Index sy = L.sy, sz = L.sz;
    float *pu = u.data(), *pv = v.data(), *pw = w.data();
    float *p = mPressure.data(), *div = mDivergence.data();
    const std::uint8_t *flags = mFlags.empty() ? nullptr : mFlags.data();
    // Moving solids: the faces to them move at their velocity (null while at rest).
    const float *wu = wallsOf(Quantity::VelocityX), *wv = wallsOf(Quantity::VelocityY),
                *ww = wallsOf(Quantity::VelocityZ);
    withDimension(L.is3D, [&](auto dim) {
        constexpr bool D3 = decltype(dim)::value;
        forEachInteriorRow(L, [&](int j, int k) {
            const Index row = Index(L.index(0, j, k));
            for (Index n = row + 1; n <= row + L.cells.x; ++n) {
                const std::uint8_t f = flags ? flags[n] : 0;
                float s;
                if (f == 0) {
                    s = pu[n + 1] - pu[n - 1] + pv[n + sy] - pv[n - sy];
                    if constexpr (D3)
                        s = s + pw[n + sz] - pw[n - sz];
                } else if (f & kSelfSolid) {
                    s = 0.f;
                } else {
                    s = mirroredNormal(pu, wu, n, 1, f & 2) - mirroredNormal(pu, wu, n, -1, f & 1)
                        + mirroredNormal(pv, wv, n, sy, f & 8)
                        - mirroredNormal(pv, wv, n, -sy, f & 4);
                    if constexpr (D3)
                        s = s + mirroredNormal(pw, ww, n, sz, f & 32)
                            - mirroredNormal(pw, ww, n, -sz, f & 16);
                }
                div[n] = -0.5f * s * h;
                p[n] = 0.f;
            }
        });
    });
    setBoundary(Quantity::Scalar, mDivergence);
    setBoundary(Quantity::Pressure, mPressure);
    linSolve(Quantity::Pressure, mPressure, mDivergence, 1.f, L.is3D ? 6.f : 4.f);
    const float g = 0.5f / h;
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
                    pu[n] = pv[n] = 0.f;
                    if constexpr (D3)
                        pw[n] = 0.f;
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

} // namespace plume::sim
