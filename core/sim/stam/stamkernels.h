// SPDX-License-Identifier: Apache-2.0
#pragma once

// What the stam scheme's files share (stamsolver.cpp: the step and the sources;
// stamlinsolve.cpp: lin_solve, diffuse, project; stamboundary.cpp: set_bnd and obstacles;
// stamadvect.cpp: advect): the padded grid's flag bits, the row loops over its interior and
// the mirror rule at solid neighbours. Internal to plume_sim.

#include <core/sim/base/parallel.h>
#include <core/sim/ops/obstaclemotion.h>
#include <core/sim/stam/stamsolver.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace plume::sim::detail::stam {

using Index = std::ptrdiff_t;

/// Flag bits of a padded cell: bits 0-5 say that the -x, +x, -y, +y, -z, +z neighbour of a
/// fluid cell is solid; kSelfSolid marks a solid cell (or a ghost copying one).
constexpr std::uint8_t kSelfSolid = 1u << 6;
constexpr int kMaxCarried = 5;

/// Calls f(std::true_type) in 3D and f(std::false_type) in 2D, so kernels drop the z terms at
/// compile time.
template<class F>
void withDimension(bool is3D, F &&f)
{
    if (is3D)
        f(std::true_type{});
    else
        f(std::false_type{});
}

/// Runs body(j, k) over the interior rows of the padded grid (padded indices).
template<class F>
void forEachInteriorRow(const StamLayout &L, F &&body)
{
    const Int3 rows{L.cells.x, L.cells.y, L.is3D ? L.cells.z : 1};
    forEachRow(rows, [&](int j, int k) { body(j + 1, k + L.k0); });
}

inline Vec3 paddedOffset(bool is3D) { return {-0.5f, -0.5f, is3D ? -0.5f : 0.5f}; }

/// The axis whose velocity component a quantity is (its mirror negates), -1 for the others.
inline int normalAxisOf(int quantity)
{
    // Quantity order: Scalar, VelocityX, VelocityY, VelocityZ, Pressure.
    return quantity >= 1 && quantity <= 3 ? quantity - 1 : -1;
}

/// A neighbour's value, or the mirror image of cell n when that neighbour is solid.
template<class T>
inline T mirrored(const T *x, Index n, Index offset, bool solid, bool negate)
{
    if (!solid)
        return x[n + offset];
    return negate ? -x[n] : x[n];
}

/// A velocity component's neighbour across the face normal to it: the value, or at a solid
/// neighbour the mirror image that puts the face at the solid's velocity: 2 wall - x[n], where
/// `wall` (padded, null while the solids are at rest) holds the solid cells' velocity.
template<class T>
inline T mirroredNormal(const T *x, const T *wall, Index n, Index offset, bool solid)
{
    if (!solid)
        return x[n + offset];
    return wall ? T(2) * wall[n + offset] - x[n] : -x[n];
}

/// Flags of the padded grid: ghosts take the solidity of the cell they copy; fluid cells get a
/// bit per solid neighbour.
std::vector<std::uint8_t> buildFlags(const StamLayout &L, const Domain &domain,
                                     const FlagGrid &solids);

/// The solids' motion on the padded grid (ghosts copy the cell they stand for, as the flags
/// do): the velocity components in solid cells (zero elsewhere; `walls` get `axes` grids) and,
/// when the motion has no-slip flags, 1 in no-slip solid cells. G: ScalarGrid or FixedGrid.
template<class G>
void buildObstacleWalls(const StamLayout &L, const Domain &domain, const FlagGrid &solids,
                        const ObstacleMotion &motion, std::array<G, 3> &walls,
                        std::vector<std::uint8_t> &noSlip);

} // namespace plume::sim::detail::stam
