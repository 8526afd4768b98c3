// SPDX-License-Identifier: Apache-2.0
#pragma once

// Tile flags for the tests of the stages that follow the sparse scheme's active tiles
// (core/sim/ops/livetiles.h): one byte per tile of 8^3 cells, x fastest, a pattern whose live
// tiles have dead neighbours along every axis (and live ones across the diagonals).

#include <core/sim/base/types.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace plume::test {

struct TilePattern
{
    static constexpr int kTile = 8;
    sim::Int3 tiles;
    std::vector<std::uint8_t> all;  ///< every tile live
    std::vector<std::uint8_t> some; ///< live where (i + 2 j + k) % 3 == 0

    explicit TilePattern(sim::Int3 cells)
        : tiles{(cells.x + kTile - 1) / kTile, (cells.y + kTile - 1) / kTile,
                (cells.z + kTile - 1) / kTile}
        , all(std::size_t(tiles.volume()), 1)
        , some(all.size(), 0)
    {
        for (int k = 0; k < tiles.z; ++k)
            for (int j = 0; j < tiles.y; ++j)
                for (int i = 0; i < tiles.x; ++i)
                    some[index(i, j, k)] = (i + 2 * j + k) % 3 == 0;
    }

    /// Whether cell c (inside the domain) lies in a live tile of `some`.
    bool live(sim::Int3 c) const { return some[index(c.x / kTile, c.y / kTile, c.z / kTile)] != 0; }

private:
    std::size_t index(int i, int j, int k) const
    {
        return std::size_t(i) + std::size_t(tiles.x) * (std::size_t(j) + std::size_t(tiles.y) * k);
    }
};

} // namespace plume::test
