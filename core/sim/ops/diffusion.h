// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/domain.h>
#include <core/sim/base/grid.h>
#include <core/sim/base/workspace.h>
#include <core/sim/numerics/conjugategradient.h>

#include <cstdint>

namespace plume::sim {

/// Implicit diffusion (Stam 1999): solves (I - dt k L) q_new = q for a cell-centred scalar or one
/// MAC velocity component, with coefficient k in world units^2 / s, by Jacobi-preconditioned
/// conjugate gradients to a relative residual of 1e-5. Walls, open faces and solids pass no
/// flux; closed faces of a velocity component keep their values and are Dirichlet neighbours
/// with them: zero, or a moving obstacle's velocity when `closedFacesMove` (docs/colliders.md).
/// `held` (a byte per sample, or null) marks more samples held at their values the same way
/// (no-slip faces beside a solid). Uses the four workspace grids. Returns the iterations and
/// the residual reached (relative to max|q| before the solve).
SolveResult diffuseImplicit(ScalarGrid &q, float coefficient, float dt, const FlagGrid &solids,
                            const Domain &domain, Workspace &work, bool closedFacesMove = false,
                            const std::uint8_t *held = nullptr);

} // namespace plume::sim
