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
    double initialResidual = 0.0; ///< max|b| before the first iteration
};

/// Pressure projection on the MAC grid (Bridson, "Fluid Simulation for Computer Graphics", ch. 5):
/// solves A p = -D(u) with a conjugate-gradient method preconditioned by a geometric multigrid
/// V-cycle (McAdams, Sifakis and Teran 2010), then subtracts the pressure gradient.
///
/// A is the 7-point (5-point in 2D) Laplacian over fluid cells: solid neighbours and wall faces
/// are Neumann (no coupling), open faces are Dirichlet (p = 0 outside), periodic faces wrap.
/// After project() the discrete divergence of every fluid cell is at most
/// tolerance * (its largest value before), up to float rounding.
class PressureSolver
{
public:
    PressureSolver();
    ~PressureSolver();

    /// Builds the operator and the multigrid hierarchy for these cells and solids. Call again
    /// when obstacles change.
    void setup(const Domain &domain, const FlagGrid &solids);

    /// Makes `vel` divergence-free. `pressure` (cell-centred, world pressure units for unit
    /// density: the velocity change is dt * grad p) is the warm start and receives the result.
    /// Uses up to three of the workspace grids.
    SolveResult project(MacGrid &vel, ScalarGrid &pressure, float dt,
                        const PressureSettings &settings, Workspace &work);

    /// Discrete divergence (1/s) of `vel` at every cell centre; zero in solid cells.
    static void divergence(const MacGrid &vel, const FlagGrid &solids, const Domain &domain,
                           ScalarGrid &out);

    /// Bytes held by the operator and the multigrid levels.
    std::size_t memoryBytes() const;

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace plume::sim
