// SPDX-License-Identifier: Apache-2.0
// The stam scheme's boundaries (Stam 2003, set_bnd, per face Wall / Open / Periodic, in 2D
// and 3D) and obstacles: the padded grid's flags, the moving solids' velocities (walls) and the
// cells that hold nothing.
#include <core/sim/stam/stamkernels.h>

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace plume::sim {

using namespace detail::stam;
using detail::StamLayout;

namespace detail::stam {

namespace {

/// The domain cell a padded sample stands for: itself inside, the copied cell for a ghost.
Int3 cellOfPadded(const StamLayout &L, const Domain &domain, int i, int j, int k)
{
    int c[3] = {i, j, k};
    for (int a = 0; a < (L.is3D ? 3 : 2); ++a) {
        const int n = L.cells[a];
        if (c[a] >= 1 && c[a] <= n)
            continue;
        const bool periodic = domain.boundary(a, false) == Boundary::Periodic;
        const bool low = c[a] == 0;
        c[a] = periodic ? (low ? n : 1) : (low ? 1 : n);
    }
    return {c[0] - 1, c[1] - 1, c[2] - L.k0};
}

} // namespace

std::vector<std::uint8_t> buildFlags(const StamLayout &L, const Domain &domain,
                                     const FlagGrid &solids)
{
    std::vector<std::uint8_t> self(L.count(), 0);
    const int axes = L.is3D ? 3 : 2;
    forEachRow(L.padded, [&](int j, int k) {
        for (int i = 0; i < L.padded.x; ++i) {
            const Int3 c = cellOfPadded(L, domain, i, j, k);
            self[L.index(i, j, k)] = solids.isSolid(c.x, c.y, c.z) ? kSelfSolid : 0;
        }
    });
    std::vector<std::uint8_t> flags(self);
    const Index offset[6] = {-1, 1, -L.sy, L.sy, -L.sz, L.sz};
    forEachInteriorRow(L, [&](int j, int k) {
        for (int i = 1; i <= L.cells.x; ++i) {
            const Index n = Index(L.index(i, j, k));
            if (self[n])
                continue;
            std::uint8_t bits = 0;
            for (int d = 0; d < 2 * axes; ++d)
                bits |= self[n + offset[d]] ? std::uint8_t(1u << d) : 0;
            flags[n] = bits;
        }
    });
    return flags;
}

template<class G>
void buildObstacleWalls(const StamLayout &L, const Domain &domain, const FlagGrid &solids,
                        const ObstacleMotion &motion, std::array<G, 3> &walls,
                        std::vector<std::uint8_t> &noSlip)
{
    using T = std::remove_reference_t<decltype(walls[0][0])>;
    const int axes = L.is3D ? 3 : 2;
    for (int a = 0; a < 3; ++a) {
        if (a < axes)
            walls[a].reshape(L.padded, paddedOffset(L.is3D), T(0));
        else
            G().swap(walls[a]);
    }
    noSlip.assign(motion.noSlip.empty() ? 0 : L.count(), 0);
    forEachRow(L.padded, [&](int j, int k) {
        for (int i = 0; i < L.padded.x; ++i) {
            const Int3 c = cellOfPadded(L, domain, i, j, k);
            const std::size_t cell = solids.index(c.x, c.y, c.z);
            if (!solids.isSolid(cell))
                continue;
            const std::size_t p = L.index(i, j, k);
            for (int a = 0; a < axes; ++a)
                walls[a][p] = T(obstacleVelocity(motion, a, cell));
            if (!noSlip.empty())
                noSlip[p] = obstacleNoSlip(motion, cell) ? 1 : 0;
        }
    });
}

template void buildObstacleWalls(const StamLayout &, const Domain &, const FlagGrid &,
                                 const ObstacleMotion &, std::array<ScalarGrid, 3> &,
                                 std::vector<std::uint8_t> &);
template void buildObstacleWalls(const StamLayout &, const Domain &, const FlagGrid &,
                                 const ObstacleMotion &, std::array<FixedGrid, 3> &,
                                 std::vector<std::uint8_t> &);

} // namespace detail::stam

// The paper's set_bnd generalised to per-face Wall / Open / Periodic and to 3D.
template<class T>
void BasicStamSolver<T>::setBoundary(Quantity q, Grid &grid) const
{
    const StamLayout &L = mLayout;
    T *x = grid.data();
    const int normal = normalAxisOf(int(q));
    const bool pressure = q == Quantity::Pressure;
    // ghost(axis, high, inner, opposite): the value of the ghost next to `inner`.
    auto ghost = [&](int axis, bool high, T inner, T opposite) {
        switch (mDomain.boundary(axis, high)) {
        case Boundary::Periodic: return opposite;
        case Boundary::Open: return pressure ? T(0) : inner;
        case Boundary::Wall: break;
        }
        return normal == axis ? -inner : inner;
    };
    const int nx = L.cells.x, ny = L.cells.y, nz = L.cells.z;
    // x and y faces slab by slab (one slab, so no tasks, in 2D), then z faces.
    forEachSlab(L.is3D ? nz : 1, [&](int kr) {
        const int k = kr + L.k0;
        for (int j = 1; j <= ny; ++j) {
            const T first = x[L.index(1, j, k)], last = x[L.index(nx, j, k)];
            x[L.index(0, j, k)] = ghost(0, false, first, last);
            x[L.index(nx + 1, j, k)] = ghost(0, true, last, first);
        }
        for (int i = 1; i <= nx; ++i) {
            const T first = x[L.index(i, 1, k)], last = x[L.index(i, ny, k)];
            x[L.index(i, 0, k)] = ghost(1, false, first, last);
            x[L.index(i, ny + 1, k)] = ghost(1, true, last, first);
        }
    });
    if (L.is3D) {
        forEachRow(Int3{nx, ny, 1}, [&](int jr, int) {
            const int j = jr + 1;
            for (int i = 1; i <= nx; ++i) {
                const T first = x[L.index(i, j, 1)], last = x[L.index(i, j, nz)];
                x[L.index(i, j, 0)] = ghost(2, false, first, last);
                x[L.index(i, j, nz + 1)] = ghost(2, true, last, first);
            }
        });
    }
    // Edges: mean of the two adjacent face ghosts (in 2D these are the paper's corners).
    auto inner = [](int g, int n) { return g == 0 ? 1 : n; };
    for (int k = L.k0; k <= L.k1; ++k)
        for (int I : {0, nx + 1})
            for (int J : {0, ny + 1})
                x[L.index(I, J, k)] = T(0.5f)
                                      * (x[L.index(inner(I, nx), J, k)]
                                         + x[L.index(I, inner(J, ny), k)]);
    if (!L.is3D)
        return;
    for (int J : {0, ny + 1})
        for (int K : {0, nz + 1}) {
            for (int i = 1; i <= nx; ++i)
                x[L.index(i, J, K)] = T(0.5f)
                                      * (x[L.index(i, inner(J, ny), K)]
                                         + x[L.index(i, J, inner(K, nz))]);
        }
    for (int I : {0, nx + 1})
        for (int K : {0, nz + 1}) {
            for (int j = 1; j <= ny; ++j)
                x[L.index(I, j, K)] = T(0.5f)
                                      * (x[L.index(inner(I, nx), j, K)]
                                         + x[L.index(I, j, inner(K, nz))]);
        }
    // Corners: mean of the three adjacent edge ghosts.
    for (int I : {0, nx + 1})
        for (int J : {0, ny + 1})
            for (int K : {0, nz + 1})
                x[L.index(I, J, K)] = (x[L.index(inner(I, nx), J, K)]
                                       + x[L.index(I, inner(J, ny), K)]
                                       + x[L.index(I, J, inner(K, nz))])
                                      / T(3);
}

// Nothing lives in an obstacle: zero the state there and refresh the ghosts.
template<class T>
void BasicStamSolver<T>::clearSolids()
{
    if (mFlags.empty())
        return;
    const std::pair<Grid *, Quantity> fields[] = {
        {&mDensity, Quantity::Scalar},   {&mTemperature, Quantity::Scalar},
        {&mDye[0], Quantity::Scalar},    {&mDye[1], Quantity::Scalar},
        {&mDye[2], Quantity::Scalar},    {&mU, Quantity::VelocityX},
        {&mV, Quantity::VelocityY},      {&mW, Quantity::VelocityZ},
        {&mPressure, Quantity::Pressure}};
    for (const auto &[grid, q] : fields) {
        if (grid->count() == 0)
            continue;
        T *x = grid->data();
        forEachIndex(std::int64_t(grid->count()), [&](std::int64_t n) {
            if (mFlags[std::size_t(n)] & kSelfSolid)
                x[n] = T(0);
        });
        setBoundary(q, *grid);
    }
}

template void StamSolver::setBoundary(Quantity, Grid &) const;
template void StamSolver::clearSolids();
template void FixedStamSolver::setBoundary(Quantity, Grid &) const;
template void FixedStamSolver::clearSolids();

} // namespace plume::sim
