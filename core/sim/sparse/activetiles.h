// SPDX-License-Identifier: Apache-2.0
#pragma once

// The active-tile map of the sparse smoke scheme (issue 36): the domain is cut into tiles of
// kTile^3 cells, and each step the scheme works only on the tiles near the smoke, the emitters
// and the moving obstacles. Unlike the adaptive domain's one box (smoke/adaptivedomain.h), the
// tiles follow the smoke's shape, so a mushroom plume does not drag the room's empty corners in.

#include <core/sim/base/domain.h>
#include <core/sim/base/grid.h>
#include <core/sim/base/types.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace plume::sim {

/// The tiles of a domain: kTile^3 cells (kTile x kTile x 1 in 2D), tiles = ceil(cells / kTile)
/// per axis. Tiles on the high sides hold fewer cells where the cell count does not divide.
struct TileGrid
{
    static constexpr int kTile = 8;

    Int3 cells{0, 0, 0};
    Int3 tiles{0, 0, 0};
    std::array<bool, 3> periodic{}; ///< per axis: both faces periodic (from the domain)

    /// The tiles of `domain`.
    static TileGrid of(const Domain &domain);
    /// Number of tiles.
    std::size_t count() const { return std::size_t(tiles.volume()); }
    /// Flat index of tile t, x fastest, then y, then z.
    std::size_t index(Int3 t) const
    {
        return std::size_t(t.x)
               + std::size_t(tiles.x) * (std::size_t(t.y) + std::size_t(tiles.y) * t.z);
    }
    /// Tile coordinates of a flat index.
    Int3 tileOf(std::size_t index) const { return cellOf(index, tiles); }
    /// The cells of a tile, clipped to the domain (edge tiles may be partial).
    CellBox cellsOf(std::size_t tile) const;

    friend bool operator==(const TileGrid &, const TileGrid &) = default;
};

/// Per tile, the bounding box of the cells where any of `fields` exceeds `threshold` in
/// absolute value (|v| > threshold; NaN never does), or an empty CellBox where none does. The
/// fields are cell-centred grids of grid.cells; an unallocated one (count() == 0, a dye not
/// emitted yet) is skipped. Parallel over tiles; the same bytes for any thread count.
std::vector<CellBox> seedBoxes(const TileGrid &grid, std::span<const ScalarGrid *const> fields,
                               float threshold);

/// Which tiles the sparse smoke scheme works on this step, with padding and a lifetime.
class ActiveTiles
{
public:
    /// Starts over on `grid`: nothing active, all timers 0.
    void reset(const TileGrid &grid);

    /// One step's update. A tile is needed when some cell of it lies within `padding` cells
    /// (Chebyshev distance, across periodic sides too) of a cell of some seed box, or when it
    /// overlaps a `forced` box (emitters, moving obstacles: active whatever the padding; forced
    /// boxes are clipped to the domain and never wrap).
    /// A needed tile is active and its timer is set to `lifetime`. Any other tile is active when
    /// its timer is above 0, which then drops by one. So a tile stays active `lifetime` steps
    /// after the last step it was needed (no flicker); lifetime 0 keeps only the needed ones.
    /// `seedsPerTile` has one box per tile (seedBoxes). Cost: per seed box, the tiles within
    /// reach of it (boxes are compared, not cells); serial.
    void update(const std::vector<CellBox> &seedsPerTile, int padding,
                const std::vector<CellBox> &forced, int lifetime);

    const TileGrid &grid() const { return mGrid; }
    bool active(std::size_t tile) const { return mFlags[tile] != 0; }
    /// Active tile indices, ascending.
    const std::vector<std::uint32_t> &list() const { return mList; }
    /// Cells of the active tiles (partial tiles count their own cells).
    std::int64_t activeCells() const { return mActiveCells; }
    /// activeCells / the domain's cells (0 for an empty grid).
    double share() const;

    /// Checkpoint state. The timers alone do not give the flags (a tile needed with lifetime 0,
    /// or whose timer just ran down to 0, is active with timer 0), so both are stored.
    const std::vector<std::uint16_t> &timers() const { return mTimers; }
    const std::vector<std::uint8_t> &flags() const { return mFlags; } ///< 1 = active
    /// Restores a checkpointed state exactly. Refuses a grid whose tiles do not match its
    /// cells, arrays of the wrong size, flags other than 0 and 1, and a timer above 0 on an
    /// inactive tile, with a message naming what is wrong; the state is then unchanged.
    Status restore(const TileGrid &grid, std::vector<std::uint8_t> flags,
                   std::vector<std::uint16_t> timers);

    /// Bytes held by the map.
    std::size_t memoryBytes() const;

private:
    /// Rebuilds the list and the active cell count from the flags.
    void collect();

    TileGrid mGrid;
    std::vector<std::uint8_t> mFlags;
    std::vector<std::uint16_t> mTimers;
    std::vector<std::uint8_t> mNeeded; ///< scratch of update()
    std::vector<std::uint32_t> mList;
    std::int64_t mActiveCells = 0;
};

} // namespace plume::sim
