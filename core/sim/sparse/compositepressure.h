// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/params.h>
#include <core/sim/numerics/conjugategradient.h>
#include <core/sim/sparse/compositegrid.h>

#include <cstddef>
#include <memory>
#include <vector>

namespace plume::sim {

/// One pressure solve for the whole room (docs/adaptive.md): fine cells in the active tiles,
/// coarser cells covering the rest of the domain, the same walls, open faces and periodic sides
/// as the dense solve, and one multigrid-preconditioned CG to the same relative tolerance.
///
/// The discretization is finite volumes on the composite grid (CompositeGrid), A = G^T W G:
/// every open face has a gradient G (the pressure difference across it) and a weight W (its
/// area over the distance between the pressures it joins). Between cells of one size that is
/// the dense solve's 7-point Laplacian (5-point in 2D); where a coarse cell meets the 2^(d-1)
/// finer cells across its face, the face's gradient is the coarse pressure minus the mean of
/// the fine ones, over 1.5 fine cells, so fluxes agree on both sides and A stays symmetric. With
/// every tile active, A is exactly the dense operator.
///
/// Unknown and units as in PressureSolver: p~ = p dt / h in velocity units (h: the fine cell),
/// b = -D(u) with D the flux sum of a cell in fine face areas, and the update subtracts the
/// gradient of p~ from every open face's velocity.
///
/// Preconditioner: one symmetric V-cycle. Level k of the hierarchy is the composite grid with
/// every tile at least at level k (damped Jacobi smoothing; transfers are piecewise constant,
/// scaled so that the coarse operator is the Galerkin one). Once every tile is one cell, the
/// tile grid is a dense grid, and PressureSolver's multigrid (McAdams, Sifakis and Teran 2010)
/// takes it from there. Sealed pockets and a closed room are handled as in the dense solve:
/// b is made compatible and the iterates mean-free per pocket. Results do not depend on the
/// thread count.
class CompositePressure
{
public:
    CompositePressure();
    ~CompositePressure();

    /// Builds the operator and its hierarchy for per-tile levels (CompositeGrid::levelsAround)
    /// and the fine solids (empty: none). The domain must fit whole tiles (CompositeGrid::fits).
    void setup(const Domain &domain, const std::vector<std::uint8_t> &levels,
               const FlagGrid &solids);

    const CompositeGrid &grid() const;

    /// Makes `faces` divergence-free on every fluid cell of the composite grid (after
    /// closeSolidFaces). `pressure`
    /// (per composite cell, world units for unit density) is the warm start and receives the
    /// result. Refuses (converged = false, nothing changed) without setup(), with faces of
    /// another shape or a dt that is not positive.
    /// With `divergence` (1 / s per composite cell, e.g. burning gas expanding), each fluid
    /// cell gets that divergence instead of none, as PressureSolver::project's.
    SolveResult project(CompositeFaces &faces, std::vector<float> &pressure, float dt,
                        const PressureSettings &settings,
                        const std::vector<float> *divergence = nullptr);

    /// Closes the faces of coarse cells that touch a solid (each side coarse or solid): a
    /// coarse face averaged from fine ones may carry flux that the fine solids stopped. Faces
    /// between fine cells keep what the caller's boundary conditions gave them (moving solids).
    /// project() does this first.
    void closeSolidFaces(CompositeFaces &faces) const;
    /// b = -D(u) per cell (flux sum in fine face areas, velocity units); 0 in solid cells.
    void divergence(const CompositeFaces &faces, std::vector<float> &b) const;
    /// y = A x on the composite grid (tests: symmetry, definiteness, the dense operator).
    void apply(const std::vector<float> &x, std::vector<float> &y) const;
    /// z = M^-1 r: one V-cycle from zero, mean-free per pocket (tests).
    void precondition(const std::vector<float> &r, std::vector<float> &z);
    /// Sealed fluid regions (no open face), the whole room included when nothing is open.
    int pockets() const;
    /// Levels of the hierarchy above the dense tile grid.
    int levels() const;

    std::size_t memoryBytes() const;

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace plume::sim
