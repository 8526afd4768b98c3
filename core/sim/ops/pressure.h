// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/domain.h>
#include <core/sim/base/grid.h>
#include <core/sim/base/params.h>
#include <core/sim/base/workspace.h>
#include <core/sim/numerics/conjugategradient.h>

#include <cstddef>
#include <memory>
#include <vector>

namespace plume::sim {

/// Pressure projection on the MAC grid (Bridson, "Fluid Simulation for Computer Graphics", ch. 5):
/// solves A p = -D(u) with a conjugate-gradient method preconditioned by a geometric multigrid
/// V-cycle (McAdams, Sifakis and Teran 2010), then subtracts the pressure gradient.
///
/// A is the 7-point (5-point in 2D) Laplacian over fluid cells: solid neighbours and wall faces
/// are Neumann (no coupling), open faces are Dirichlet (p = 0 outside), periodic faces wrap.
/// After project() the discrete divergence of every fluid cell is at most
/// tolerance * (its largest value before), up to float rounding.
///
/// Scaling: the unknown is p~ = p dt / h (velocity units), so that A is the integer Laplacian,
/// b = -D(u) with D the face-flux difference (u[i+1]-u[i]) + (v[j+1]-v[j]) + (w[k+1]-w[k]) of a
/// cell, and the update is u -= p~_hi - p~_lo on every open face (closed faces, which the caller
/// has zeroed with enforceVelocityBoundaries, are never touched).
///
/// Regions: fluid cells split into connected regions by obstacles. A region with no open face
/// (a pocket sealed by obstacles, or the whole box when no face is open) makes A singular there:
/// its b is made compatible (zero mean) and the iterates kept mean-free per region, so CG
/// converges in every pocket and the pressure level cannot drift. The multigrid hierarchy keeps
/// regions apart on every level: a coarse cell whose children belong to two regions is left
/// out, coarse neighbours of different regions are not coupled, and the transfers skip taps
/// across regions. The preconditioner is a symmetric V-cycle, so it is symmetric positive
/// definite for every layout.
///
/// Recovery: the multigrid-preconditioned run is watched; if r.z is not positive, the residual
/// becomes non-finite, grows 100-fold over its best, or its best does not halve in 30
/// iterations, the solve continues from its last finite iterate with the diagonal preconditioner
/// and reports `fallback`. A periodic axis of odd size on some level admits no red-black
/// colouring: the solve then uses the diagonal preconditioner and reports `fallback` too. The
/// projection never writes NaN or infinity into the velocity. The velocity is float, so the
/// final divergence cannot go below about eps * max|p~|.
class PressureSolver
{
public:
    PressureSolver();
    ~PressureSolver();

    /// Builds the operator and the multigrid hierarchy for these cells and solids. Call again
    /// when obstacles change.
    void setup(const Domain &domain, const FlagGrid &solids);

    /// Makes `vel` divergence-free, or, with `divergence` (1 / s per cell, e.g. burning gas
    /// expanding), gives each fluid cell that divergence instead: D(u) / h = divergence. In a
    /// sealed pocket the gas cannot expand: there the pocket's mean is taken off the target.
    /// `pressure` (cell-centred, world pressure units for unit density: the velocity change is dt *
    /// grad p) is the warm start and receives the result (0 in solids). Uses three of the workspace
    /// grids (0, 1, 2). Refuses (converged = false, nothing changed) without setup(), with
    /// mismatched grids, a dt that is not positive, or a non-finite divergence; stops early
    /// (converged = false) if the iteration breaks down.
    SolveResult project(MacGrid &vel, ScalarGrid &pressure, float dt,
                        const PressureSettings &settings, Workspace &work,
                        const ScalarGrid *divergence = nullptr);

    /// z = M^-1 r for the multigrid preconditioner M^-1 (one V-cycle from zero), on active cells;
    /// for tests of its symmetry and definiteness. Needs setup() and a layout with a red-black
    /// colouring; else z = 0.
    void precondition(const ScalarGrid &r, ScalarGrid &z);

    /// Number of sealed fluid regions (no open face) found by the last setup(); 0 when the
    /// whole box is one closed region.
    int pockets() const;

    /// Discrete divergence (1/s) of `vel` at every cell centre; zero in solid cells.
    static void divergence(const MacGrid &vel, const FlagGrid &solids, const Domain &domain,
                           ScalarGrid &out);

    /// Bytes held by the operator and the multigrid levels: one flag byte per fine cell, and
    /// flags plus two floats per coarse cell (about 2.3 bytes per fine cell in 3D).
    std::size_t memoryBytes() const;

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace plume::sim
