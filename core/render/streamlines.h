// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/domain.h>
#include <core/sim/base/grid.h>

#include <vector>

namespace plume {

/// How evenly spaced streamlines are placed and traced (distances in cells).
struct StreamlineOptions
{
    float separation = 6.f; ///< d_sep: the distance between neighbouring lines
    float testRatio = 0.5f; ///< d_test = testRatio * d_sep: how close a line may come to another
    float step = 0.5f;      ///< arc length of one integration step (RK4 on the flow direction)
    int maxSteps = 4000;    ///< per direction from the seed
    float minSpeed = 1e-6f; ///< world units/s: slower is stagnation, where a line stops
};

/// The spacing views use (and plume-bench measures): about 40 lines across the longer side of
/// the grid, at least 1.5 cells apart, in steps of a quarter d_sep (half a cell to one cell).
StreamlineOptions viewStreamlineOptions(sim::Int3 cells);

/// One streamline: points in world coordinates of the domain (z unused), in flow order, with
/// the speed (world units/s) at each. A closed line ends on its first point.
struct Streamline
{
    std::vector<sim::Vec3> points;
    std::vector<float> speeds;
    bool closed = false;
};

/// Evenly spaced streamlines of a 2D cell-centred velocity (u, v in world units/s, one z layer)
/// after Jobard & Lefer (1997): a line is traced both ways from a seed with RK4 steps of fixed
/// arc length along the flow direction (bilinear velocity), and stops at the domain's edge, in
/// a solid cell, where the flow stagnates, after maxSteps, or where its next point would come
/// within d_test of another line (or of its own earlier part: a spiral). A line that comes back
/// to its seed is closed. New seeds lie d_sep to either side of the points of the lines found
/// so far (every quarter d_sep along them), in the order they were found; a seed must be d_sep
/// from every line. When those run
/// out, a regular lattice of seeds (d_sep apart, row by row) fills regions the lines did not
/// reach (behind obstacles). Lines shorter than d_test are dropped. Deterministic (serial).
/// Empty when the grids do not match the domain's cells or the options are not positive.
std::vector<Streamline> computeStreamlines(const sim::ScalarGrid &u, const sim::ScalarGrid &v,
                                           const sim::FlagGrid *solids, const sim::Domain &domain,
                                           const StreamlineOptions &options = {});

} // namespace plume
