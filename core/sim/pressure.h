#pragma once

#include "domain.h"
#include "grid.h"
#include "params.h"
#include "workspace.h"

#include <cstddef>
#include <memory>
#include <vector>

namespace plume::sim {

/// Result of an iterative solve. Solvers neither print nor throw.
struct SolveResult
{
    bool converged = false;
    int iterations = 0;
    double residual = 0.0;        ///< final max|r| / max|b| (0 when b == 0)
    double initialResidual = 0.0; ///< max|b| before the first iteration (b = -D(u), see below)
    bool fallback = false;        ///< the multigrid preconditioner broke down: finished diagonal
};

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
/// Limits: with no open face A is singular; b is then made zero-mean and the iterates kept
/// mean-free, which assumes one connected fluid region (a pocket sealed off by obstacles gets
/// only rounding-level drift, since its closed faces make its b compatible). A periodic axis of
/// odd size has no red-black colouring, and the solve falls back to the diagonal preconditioner.
/// The velocity is float, so the final divergence cannot go below about eps * max|p~|.
class PressureSolver
{
public:
    PressureSolver();
    ~PressureSolver();

    /// Builds the operator and the multigrid hierarchy for these cells and solids. Call again
    /// when obstacles change.
    void setup(const Domain &domain, const FlagGrid &solids);

    /// Makes `vel` divergence-free. `pressure` (cell-centred, world pressure units for unit
    /// density: the velocity change is dt * grad p) is the warm start and receives the result
    /// (0 in solids). Uses three of the workspace grids (0, 1, 2). Refuses (converged = false,
    /// nothing changed) without setup(), with mismatched grids, a dt that is not positive, or a
    /// non-finite divergence; stops early (converged = false) if the iteration breaks down.
    SolveResult project(MacGrid &vel, ScalarGrid &pressure, float dt,
                        const PressureSettings &settings, Workspace &work);

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
