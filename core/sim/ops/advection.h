// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/domain.h>
#include <core/sim/base/grid.h>
#include <core/sim/base/params.h>
#include <core/sim/base/workspace.h>

#include <cstdint>
#include <span>
#include <vector>

namespace plume::sim {

/// Interpolates `g` linearly at `p`, a position in cell coordinates of the domain (cell (i,j,k)
/// spans [i, i+1)), honouring the grid's staggering and the domain's boundaries: periodic axes
/// wrap, other axes clamp to the grid's samples.
float sampleLinear(const ScalarGrid &g, Vec3 p, const Domain &domain);

/// Velocity at `p` (cell coordinates) interpolated from the MAC grid, world units / s.
Vec3 sampleVelocity(const MacGrid &vel, Vec3 p, const Domain &domain);

/// Semi-Lagrangian transport on the MAC grid with obstacles.
///
/// Backtraces stop at the first solid cell on the way (a 3D DDA walk along the path), so an
/// obstacle one cell thin still blocks; samples never read solid cells (their weights go to the
/// fluid corners). Second order variants (MacCormack, BFECC) keep the corrected value only
/// where it stays within the range of the values the first-order step interpolated, and fall
/// back to the first-order value where it leaves it (Selle et al. 2008's limiter, reverting
/// rather than clamping: a clamp pins the overshooting samples to the range's edge one by one,
/// which leaves grid-scale grain in thin smoke). The monotone cubic order traces once as the
/// first-order scheme and interpolates with Fritsch-Carlson cubics (cubicadvection.cpp). Traces are
/// single Euler steps from the sample with the velocity there (cell centre: average of the two
/// faces per axis). Without solid cells the walk is skipped; with them it is skipped too wherever
/// the trace, its interpolation corners and the sample's velocity cannot touch a solid cell or a
/// closed face (a per-cell distance to the nearest solid decides, sample by sample): that plain
/// path gives the same bits as the exact one there, so obstacles cost time only near them. A solid
/// diagonal that touches only at cell corners can leak through the interpolation footprint; walls
/// sharing faces always block.
class Advector
{
public:
    /// Records the domain and the obstacles (called again when obstacles change). Keeps a
    /// pointer to `solids`, which must outlive the calls that follow; a grid whose size is not
    /// the domain's counts as no obstacles.
    void setup(const Domain &domain, const FlagGrid &solids);

    /// Test hook: every sample takes the exact obstacle path (walk and fluid-only
    /// interpolation), as all of them did before samples clear of obstacles took the plain
    /// one. The results must not change; tests compare the two, byte for byte.
    void setExactEverywhere(bool on) { mExactEverywhere = on; }

    /// Scalars skip the rows' stretches where every value within reach is zero, writing the
    /// zero every pass would compute there (the cost of the smoke's transport follows the
    /// smoke). Test hook: off computes every sample; tests compare the two, byte for byte.
    void setSkipEmpty(bool on) { mSkipEmpty = on; }

    /// The velocity's self-advection computes only the faces next to live tiles (livetiles.h:
    /// one flag per tile of 8^3 cells, x fastest; null: every face), and keeps the old
    /// velocity on the others. The sparse smoke scheme passes its active tiles (issue 36:
    /// advection runs on active tiles only; outside them the projection's far field stands).
    /// The array must outlive the calls that follow.
    void setLiveTiles(const std::uint8_t *tiles) { mLiveTiles = tiles; }

    /// Bytes held (the clearance map, one per cell when there are solids).
    std::size_t memoryBytes() const { return mClearance.capacity(); }

    /// Moves a cell-centred scalar along `vel` for dt seconds. Solid cells end up zero.
    /// Uses two workspace grids, four for MacCormack (the limiter's bounds are kept from the
    /// first pass). Leaves `q` unchanged when its size is not the domain's,
    /// it is not cell-centred, `vel` does not fit the domain, or dt / h is not finite.
    void advectScalar(ScalarGrid &q, const MacGrid &vel, float dt, AdvectionOrder order,
                      Workspace &work) const;

    /// advectScalar() for several grids at once, each with the same bytes as its own call:
    /// every pass traces each sample and builds its stencil once for a group of grids (up to
    /// four semi-Lagrangian, two otherwise, as the four workspace grids allow; a lone grid
    /// takes advectScalar itself). Grids that advectScalar would leave unchanged (or null
    /// pointers) are skipped; a grid listed twice moves twice.
    void advectScalars(std::span<ScalarGrid *const> fields, const MacGrid &vel, float dt,
                       AdvectionOrder order, Workspace &work) const;

    /// Moves the velocity along itself (self-advection), every component from the old field
    /// (only next to live tiles where setLiveTiles gave them). Uses the four workspace grids.
    /// Boundaries are not enforced (the caller does); faces with solid cells on both sides get zero
    /// and are never read.
    void advectVelocity(MacGrid &vel, float dt, AdvectionOrder order, Workspace &work) const;

    /// Mick West's mass-conserving "accounting" advection (Game Developer 2008): forward then
    /// backward, each moving amounts from source cells to destination cells and taking from
    /// a source no more than it holds. With closed walls the total is conserved exactly
    /// (up to float rounding) and values stay non-negative. Each half moves by dt / 2, so the
    /// content travels u dt over the step. Open faces let content leave; content found inside
    /// solid cells is dropped (it should be zero). Uses three workspace grids.
    void advectAccounting(ScalarGrid &q, const MacGrid &vel, float dt, Workspace &work) const;

private:
    /// advectScalar with the velocity's largest component found (`fastest`), or every sample
    /// computed (null).
    void advectOne(ScalarGrid &q, const MacGrid &vel, float dt, AdvectionOrder order,
                   Workspace &work, const double *fastest) const;
    /// advectOne's first-order and second-order paths with the active samples given: per row
    /// j + ny k, [activeLo, activeHi) (both null: every sample); the rest are zero.
    void advectWithin(ScalarGrid &q, const MacGrid &vel, float dt, AdvectionOrder order,
                      Workspace &work, const int *activeLo, const int *activeHi) const;
    /// The monotone cubic step (cubicadvection.cpp) of a cell-centred scalar, its grid scale
    /// filtered within the corners' range. Uses all four workspace grids. With
    /// activeLo/Hi (per row j + ny k), only those samples are computed, the rest are zero.
    void advectCubic(ScalarGrid &q, const MacGrid &vel, float dt, Workspace &work,
                     const int *activeLo, const int *activeHi) const;
    /// Writes the cubic step of q (cell-centred: faceAxis -1; else the velocity's face
    /// component `faceAxis`, with `vel` the velocity before any component moved) into out at
    /// every sample, or with onlyClear only where the trace and its stencil cannot reach a
    /// solid (out keeps the rest). activeLo/Hi as advectCubic's (cell-centred only).
    /// With `range`, also the range of each trace's eight trilinear corners; a sample that
    /// onlyClear skips gets lo = hi = out's value.
    struct CubicRange
    {
        float *lo = nullptr;
        float *hi = nullptr;
    };
    void cubicPass(const ScalarGrid &q, const MacGrid &vel, float scale, int faceAxis,
                   bool onlyClear, ScalarGrid &out, const int *activeLo = nullptr,
                   const int *activeHi = nullptr, const CubicRange *range = nullptr) const;

    Domain mDomain;
    const FlagGrid *mSolids = nullptr;
    bool mAnySolid = false;
    bool mExactEverywhere = false;
    bool mSkipEmpty = true;
    const std::uint8_t *mLiveTiles = nullptr;
    /// Chebyshev distance in cells from each cell to the nearest solid, capped (1 byte per
    /// cell, only when there are solids): decides which samples may take the plain path.
    std::vector<std::uint8_t> mClearance;
};

} // namespace plume::sim
