#pragma once

#include "domain.h"
#include "grid.h"

namespace plume::sim {

/// No flow through walls or obstacles: zero velocity on every face that touches a solid cell or
/// a wall face of the domain. Periodic axes keep their two end faces equal (the high face takes
/// the low face's value). Open faces are left as they are.
void enforceVelocityBoundaries(MacGrid &vel, const FlagGrid &solids, const Domain &domain);

/// Sets `field` (cell-centred) to zero inside solid cells: nothing lives in an obstacle.
void clearSolidCells(ScalarGrid &field, const FlagGrid &solids);

/// True when the face of `axis` with index (i,j,k) in its face grid is closed: it touches a solid
/// cell, or lies on a wall face of the domain.
bool faceIsClosed(const FlagGrid &solids, const Domain &domain, int axis, int i, int j, int k);

} // namespace plume::sim
