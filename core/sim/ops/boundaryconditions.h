// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/domain.h>
#include <core/sim/base/grid.h>

#include <span>

namespace plume::sim {

/// No flow through walls or obstacles: zero velocity on every face that touches a solid cell or
/// a wall face of the domain. Periodic axes keep their two end faces equal (the high face takes
/// the low face's value). Open faces are left as they are.
void enforceVelocityBoundaries(MacGrid &vel, const FlagGrid &solids, const Domain &domain);

/// One cell-centred field and the value the air outside the domain holds.
struct AmbientField
{
    ScalarGrid *field = nullptr;
    float ambient = 0.f;
};

/// What flows in through an open face is outside air: before the scalars are advected, each
/// fluid cell on an open face with inflow (face velocity u into the domain) moves toward the
/// field's ambient value by the share of it that the inflow replaces in the step,
/// q = ambient + (q - ambient) max(0, 1 - u dt / h). The advection's traces that leave the domain
/// read these cells (they clamp to the edge), so without it an inflow would carry the edge
/// cells' smoke back in without end. Fields moved by a mass-conserving scheme (which takes
/// nothing in through an open face) are not passed.
void admitAmbientAtOpenFaces(std::span<const AmbientField> fields, const MacGrid &vel,
                             const FlagGrid &solids, const Domain &domain, float dt);

/// Sets `field` (cell-centred) to zero inside solid cells: nothing lives in an obstacle.
void clearSolidCells(ScalarGrid &field, const FlagGrid &solids);

/// True when the face of `axis` with index (i,j,k) in its face grid is closed: it touches a solid
/// cell, or lies on a wall face of the domain.
bool faceIsClosed(const FlagGrid &solids, const Domain &domain, int axis, int i, int j, int k);

} // namespace plume::sim
