// SPDX-License-Identifier: Apache-2.0
#pragma once

// The open faces of a MAC grid and the loops that add a per-face force to them, shared by the
// force fields (forces.cpp), buoyancy (buoyancy.cpp) and vorticity confinement (vorticity.cpp).
// Internal to plume_sim.

#include <core/sim/base/domain.h>
#include <core/sim/base/grid.h>
#include <core/sim/base/parallel.h>
#include <core/sim/ops/boundaryconditions.h>

#include <cmath>
#include <type_traits>

namespace plume::sim::detail {

/// v / |v|, or zero when v has no finite non-zero length.
inline Vec3 normalizedOrZero(Vec3 v)
{
    const float len = length(v);
    return len > 0.f && std::isfinite(len) ? v * (1.f / len) : Vec3{};
}

/// Open/closed test per face, with a fast path for interior faces of a grid without solids.
struct FaceClosure
{
    const FlagGrid &solids;
    const Domain &domain;
    bool anySolid;

    bool closed(int axis, int i, int j, int k) const
    {
        const int along = axis == 0 ? i : (axis == 1 ? j : k);
        if (along == 0 || along == domain.cells[axis])
            return faceIsClosed(solids, domain, axis, i, j, k);
        if (!anySolid)
            return false;
        const std::size_t c = solids.index(i, j, k);
        const Int3 n = solids.size();
        const std::size_t stride = axis == 0 ? 1 : std::size_t(n.x) * (axis == 1 ? 1 : n.y);
        return solids.isSolid(c) || solids.isSolid(c - stride);
    }
};

/// Calls body(i, interior) for every open face i of the row (j, k) of `axis` (count faces).
/// Faces strictly inside the domain get `interior` as std::true_type: without solids they are
/// all open (one loop without tests); with solids a face there is open when neither of its
/// cells is solid, read from the two cell rows. The faces on the domain's ends take the
/// general test (boundary conditions).
template<class F>
inline void forOpenFacesInRow(int axis, int j, int k, int count, const FaceClosure &closure,
                              F &&body)
{
    const int along = axis == 1 ? j : k;
    if (axis != 0 && (along == 0 || along == closure.domain.cells[axis])) {
        for (int i = 0; i < count; ++i) {
            if (!closure.closed(axis, i, j, k))
                body(i, std::false_type{});
        }
        return;
    }
    int begin = 0, end = count;
    if (axis == 0) {
        for (int i : {0, count - 1}) {
            if (!closure.closed(axis, i, j, k))
                body(i, std::false_type{});
        }
        begin = 1;
        end = count - 1;
    }
    if (!closure.anySolid) {
        for (int i = begin; i < end; ++i)
            body(i, std::true_type{});
        return;
    }
    // The cells on the faces' high side (the row itself) and low side (the row below along
    // axis 1 or 2, one cell back along x).
    const FlagGrid &solids = closure.solids;
    const Int3 n = solids.size();
    const std::uint8_t *high = solids.data() + solids.index(0, j, k);
    const std::uint8_t *low = high - 1;
    if (axis == 1)
        low = high - n.x;
    else if (axis == 2)
        low = high - std::size_t(n.x) * std::size_t(n.y);
    for (int i = begin; i < end; ++i) {
        if ((high[i] | low[i]) == 0)
            body(i, std::true_type{});
    }
}

/// The two cells either side of face `along` on an axis of n cells: wrapped on periodic
/// axes, clamped at the other ends (the end face then sees its one cell twice).
inline void faceCells(int along, int n, bool periodic, int &lo, int &hi)
{
    lo = along - 1;
    hi = along;
    if (lo < 0)
        lo = periodic ? n - 1 : 0;
    if (hi >= n)
        hi = periodic ? 0 : n - 1;
}

/// Runs comp(face) += body(cellLo, cellHi) over every open face of `axis`, where cellLo and
/// cellHi are the flat indices of the adjacent cells (see faceCells).
template<class F>
void addAtOpenFaces(ScalarGrid &comp, int axis, const FaceClosure &closure, F &&body)
{
    const Int3 n = closure.domain.cells;
    const bool periodic = closure.domain.boundary(axis, false) == Boundary::Periodic;
    const Int3 s = comp.size();
    forEachRow(s, [&](int j, int k) {
        int jl = j, jh = j, kl = k, kh = k;
        if (axis == 1)
            faceCells(j, n.y, periodic, jl, jh);
        if (axis == 2)
            faceCells(k, n.z, periodic, kl, kh);
        const std::size_t baseLo = std::size_t(n.x) * (jl + std::size_t(n.y) * kl);
        const std::size_t baseHi = std::size_t(n.x) * (jh + std::size_t(n.y) * kh);
        float *row = &comp(0, j, k);
        const int shift = axis == 0 ? 1 : 0;
        forOpenFacesInRow(axis, j, k, s.x, closure, [&](int i, auto interior) {
            int il = i - shift, ih = i;
            if constexpr (!decltype(interior)::value) {
                if (axis == 0)
                    faceCells(i, n.x, periodic, il, ih);
            }
            row[i] += body(baseLo + il, baseHi + ih);
        });
    });
}

} // namespace plume::sim::detail
