// SPDX-License-Identifier: Apache-2.0
#pragma once

// Derivatives at cell centres: central differences where both neighbours are fluid cells,
// one-sided at walls, open ends and solids, wrapped on periodic axes. Shared by vorticity and
// its confinement (vorticity.cpp) and shredding (shredding.cpp). Internal to plume_sim.

#include <core/sim/base/domain.h>
#include <core/sim/base/grid.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace plume::sim::detail {

inline bool isPeriodic(const Domain &d, int axis)
{
    return d.boundary(axis, false) == Boundary::Periodic;
}

/// Cells used by a derivative along one axis at cell i: central where both neighbours are
/// fluid cells, one-sided at walls, open ends and solids, wrapped on periodic axes. `lo` and
/// `hi` are steps from i (in cells), `factor` is 1 / their distance (0 with no neighbour).
struct Stencil
{
    std::ptrdiff_t lo, hi;
    float factor;
};

template<class Solid>
inline Stencil stencil(int i, int n, bool periodic, float invH, Solid &&solidAt)
{
    int lo = i - 1, hi = i + 1;
    if (periodic) {
        lo = lo < 0 ? n - 1 : lo;
        hi = hi >= n ? 0 : hi;
    }
    const bool loOk = lo >= 0 && lo != i && !solidAt(lo);
    const bool hiOk = hi < n && hi != i && !solidAt(hi);
    const int span = int(loOk) + int(hiOk);
    return {loOk ? lo - i : 0, hiOk ? hi - i : 0, span == 0 ? 0.f : invH / float(span)};
}

/// The three stencils of cell (i, j, k); the y and z ones come precomputed per row unless
/// solids can break them.
struct CellStencils
{
    const FlagGrid &solids;
    const Domain &domain;
    bool anySolid;
    float invH;

    /// Rows go in segments of at most this many cells (the kernels' scratch arrays).
    static constexpr int kSegment = 256;

    void at(int i, int j, int k, Stencil &sx, Stencil &sy, Stencil &sz) const
    {
        const Int3 n = domain.cells;
        sx = stencil(i, n.x, isPeriodic(domain, 0), invH,
                     [&](int x) { return anySolid && solids.isSolid(x, j, k); });
        if (!anySolid)
            return;
        sy = stencil(j, n.y, isPeriodic(domain, 1), invH,
                     [&](int y) { return solids.isSolid(i, y, k); });
        if (n.z > 1)
            sz = stencil(k, n.z, isPeriodic(domain, 2), invH,
                         [&](int z) { return solids.isSolid(i, j, z); });
    }
    /// Marks in clear[0, i1 - i0) the cells i of row (j, k) whose stencils are central along
    /// x and the row's along y and z (row()): fluid cells away from the x ends whose
    /// neighbours, those that at() would check, are fluid. Without solids: the inner cells.
    void clearCells(int j, int k, int i0, int i1, bool *clear) const
    {
        const Int3 n = domain.cells;
        for (int i = i0; i < i1; ++i)
            clear[i - i0] = i > 0 && i < n.x - 1;
        if (!anySolid)
            return;
        // The rows that stencil() looks at along y and z: wrapped, in range, not the row itself.
        const std::uint8_t *rows[4] = {};
        int count = 0;
        auto neighbour = [&](int c, int nc, int axis, int at) {
            const bool periodic = isPeriodic(domain, axis);
            if (periodic)
                at = at < 0 ? nc - 1 : (at >= nc ? 0 : at);
            if (at < 0 || at >= nc || at == c)
                return;
            rows[count++] = solids.data()
                            + (axis == 1 ? solids.index(0, at, k) : solids.index(0, j, at));
        };
        neighbour(j, n.y, 1, j - 1);
        neighbour(j, n.y, 1, j + 1);
        if (n.z > 1) {
            neighbour(k, n.z, 2, k - 1);
            neighbour(k, n.z, 2, k + 1);
        }
        const std::uint8_t *own = solids.data() + solids.index(0, j, k);
        for (int i = std::max(i0, 1); i < std::min(i1, n.x - 1); ++i) {
            int solid = own[i - 1] | own[i] | own[i + 1];
            for (int r = 0; r < count; ++r)
                solid |= rows[r][i];
            clear[i - i0] = solid == 0;
        }
    }

    /// For the cells [i0, i1) of row (j, k), at most kSegment, whose row stencils are sy and
    /// sz: cell(i, sx, sy, sz) for every fluid cell with its stencils (central ones for the
    /// clear cells, first), and solid(i) for the solid cells.
    template<class Cell, class Solid>
    void visitSegment(int j, int k, int i0, int i1, const Stencil &sy, const Stencil &sz,
                      Cell &&cell, Solid &&solid) const
    {
        bool clear[kSegment];
        clearCells(j, k, i0, i1, clear);
        const Stencil central{-1, 1, 0.5f * invH};
        for (int i = i0; i < i1; ++i) {
            if (clear[i - i0])
                cell(i, central, sy, sz);
        }
        const std::size_t row = solids.index(0, j, k);
        for (int i = i0; i < i1; ++i) {
            if (clear[i - i0])
                continue;
            if (anySolid && solids.isSolid(row + i)) {
                solid(i);
                continue;
            }
            Stencil sx, syc = sy, szc = sz;
            at(i, j, k, sx, syc, szc);
            cell(i, sx, syc, szc);
        }
    }

    void row(int j, int k, Stencil &sy, Stencil &sz) const
    {
        const Int3 n = domain.cells;
        auto none = [](int) { return false; };
        sy = stencil(j, n.y, isPeriodic(domain, 1), invH, none);
        sz = n.z > 1 ? stencil(k, n.z, isPeriodic(domain, 2), invH, none) : Stencil{0, 0, 0.f};
    }
};

} // namespace plume::sim::detail
