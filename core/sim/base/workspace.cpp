// SPDX-License-Identifier: Apache-2.0
#include <core/sim/base/workspace.h>

#include <algorithm>

namespace plume::sim {

void Workspace::reserveFor(Int3 cells)
{
    Int3 largest = cells;
    for (int a = 0; a < 3; ++a) {
        if (cells[a] > 1 || a < 2)
            largest[a] += 1;
    }
    for (ScalarGrid &g : grids)
        g.reshape(largest, kCellCentre);
}

std::size_t Workspace::bytes() const
{
    std::size_t total = 0;
    for (const ScalarGrid &g : grids)
        total += g.bytes();
    return total;
}

} // namespace plume::sim
