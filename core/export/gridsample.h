// SPDX-License-Identifier: Apache-2.0
#pragma once

// Sampling a cell-centred grid between its cells, for the exports that resample the
// simulation to an engine's grid (vectorfield.h, volumetexture.h).

#include <core/sim/base/domain.h>
#include <core/sim/base/grid.h>

#include <algorithm>
#include <cmath>

namespace plume {

/// The grid an export resamples `domain` to: its longest side min(longestSide, the domain's
/// longest side in cells), the others in proportion (at least 1; 1 across a 2D domain).
inline sim::Int3 resampledCells(const sim::Domain &domain, int longestSide)
{
    const sim::Int3 n = domain.cells;
    const int longest = std::max({n.x, n.y, n.z});
    const int side = std::clamp(longestSide, 1, longest);
    const auto along = [&](int cells) {
        return std::max(1, int(std::lround(double(cells) * side / longest)));
    };
    return {along(n.x), along(n.y), domain.is2D() ? 1 : along(n.z)};
}

/// Trilinear sample of a cell-centred grid at cell coordinates `c` (cell (0,0,0)'s centre at
/// 0), clamped to the outer cell centres. An empty grid reads as 0.
inline float trilinear(const sim::ScalarGrid &g, const double c[3])
{
    if (g.count() == 0)
        return 0.f;
    const sim::Int3 n = g.size();
    const int size[3] = {n.x, n.y, n.z};
    int lo[3], hi[3];
    double w[3];
    for (int a = 0; a < 3; ++a) {
        const double x = std::clamp(c[a], 0.0, double(size[a] - 1));
        lo[a] = std::min(int(std::floor(x)), size[a] - 1);
        hi[a] = std::min(lo[a] + 1, size[a] - 1);
        w[a] = x - lo[a];
    }
    double v = 0.0;
    for (int corner = 0; corner < 8; ++corner) {
        const int i = corner & 1 ? hi[0] : lo[0];
        const int j = corner & 2 ? hi[1] : lo[1];
        const int k = corner & 4 ? hi[2] : lo[2];
        const double weight = (corner & 1 ? w[0] : 1 - w[0]) * (corner & 2 ? w[1] : 1 - w[1])
                              * (corner & 4 ? w[2] : 1 - w[2]);
        v += weight * double(g(i, j, k));
    }
    return float(v);
}

} // namespace plume
