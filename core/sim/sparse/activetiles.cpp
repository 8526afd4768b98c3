// SPDX-License-Identifier: Apache-2.0
#include <core/sim/sparse/activetiles.h>

#include <core/sim/base/assert.h>
#include <core/sim/base/parallel.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <string>

namespace plume::sim {

namespace {

constexpr int kTile = TileGrid::kTile;

/// Tiles [first, last] along one axis.
struct TileRange
{
    int first = 0;
    int last = -1;
};

/// The tiles along `axis` that hold a cell within `padding` cells of the cells [lo, hi): one
/// range, or two where a periodic axis wraps. Returns how many ranges it wrote.
int reachedTiles(const TileGrid &grid, int axis, int lo, int hi, int padding, TileRange out[2])
{
    const std::int64_t n = grid.cells[axis];
    const std::int64_t first = std::int64_t(lo) - padding; // first and last cell reached
    const std::int64_t last = std::int64_t(hi) - 1 + padding;
    const auto tile = [](std::int64_t cell) { return int(cell / kTile); };
    if (!grid.periodic[axis]) {
        out[0] = {tile(std::max<std::int64_t>(first, 0)), tile(std::min(last, n - 1))};
        return 1;
    }
    if (last - first + 1 >= n) {
        out[0] = {0, grid.tiles[axis] - 1};
        return 1;
    }
    const std::int64_t a = (first % n + n) % n, b = (last % n + n) % n;
    if (a <= b) {
        out[0] = {tile(a), tile(b)};
        return 1;
    }
    out[0] = {0, tile(b)};
    out[1] = {tile(a), grid.tiles[axis] - 1};
    return 2;
}

/// `box` clipped to the cells [0, cells).
CellBox clipped(CellBox box, Int3 cells)
{
    for (int a = 0; a < 3; ++a) {
        box.lo[a] = std::max(box.lo[a], 0);
        box.hi[a] = std::min(box.hi[a], cells[a]);
    }
    return box;
}

/// Sets needed[t] = 1 for every tile t of the product of the ranges.
void mark(const TileGrid &grid, TileRange x, TileRange y, TileRange z,
          std::vector<std::uint8_t> &needed)
{
    for (int k = z.first; k <= z.last; ++k)
        for (int j = y.first; j <= y.last; ++j)
            for (int i = x.first; i <= x.last; ++i)
                needed[grid.index({i, j, k})] = 1;
}

} // namespace

TileGrid TileGrid::of(const Domain &domain)
{
    TileGrid g;
    g.cells = domain.cells;
    for (int a = 0; a < 3; ++a) {
        g.tiles[a] = (domain.cells[a] + kTile - 1) / kTile;
        g.periodic[size_t(a)] = domain.boundary(a, false) == Boundary::Periodic
                                && domain.boundary(a, true) == Boundary::Periodic;
    }
    return g;
}

CellBox TileGrid::cellsOf(std::size_t tile) const
{
    const Int3 t = tileOf(tile);
    const Int3 lo{t.x * kTile, t.y * kTile, t.z * kTile};
    return clipped({lo, {lo.x + kTile, lo.y + kTile, lo.z + kTile}}, cells);
}

std::vector<CellBox> seedBoxes(const TileGrid &grid, std::span<const ScalarGrid *const> fields,
                               float threshold)
{
    std::vector<const ScalarGrid *> used;
    for (const ScalarGrid *f : fields) {
        if (f == nullptr || f->count() == 0)
            continue;
        PLUME_ASSERT(f->size() == grid.cells, "seedBoxes: a field does not match the tile grid");
        if (f->size() == grid.cells)
            used.push_back(f);
    }
    std::vector<CellBox> boxes(grid.count());
    if (used.empty())
        return boxes;
    // Each tile writes only its own box: the same bytes with any threads.
    forEachJob(std::int64_t(grid.count()), [&](std::int64_t t) {
        const CellBox tile = grid.cellsOf(std::size_t(t));
        CellBox seed{{INT_MAX, INT_MAX, INT_MAX}, {INT_MIN, INT_MIN, INT_MIN}};
        for (int k = tile.lo.z; k < tile.hi.z; ++k) {
            for (int j = tile.lo.y; j < tile.hi.y; ++j) {
                int lo = INT_MAX, hi = INT_MIN;
                for (const ScalarGrid *f : used) {
                    const float *row = f->data() + f->index(0, j, k);
                    for (int i = tile.lo.x; i < tile.hi.x; ++i) {
                        if (std::abs(row[i]) > threshold) {
                            lo = std::min(lo, i);
                            hi = std::max(hi, i + 1);
                        }
                    }
                }
                if (lo >= hi)
                    continue;
                seed.lo = {std::min(seed.lo.x, lo), std::min(seed.lo.y, j), std::min(seed.lo.z, k)};
                seed.hi = {std::max(seed.hi.x, hi), std::max(seed.hi.y, j + 1),
                           std::max(seed.hi.z, k + 1)};
            }
        }
        boxes[std::size_t(t)] = seed.empty() ? CellBox{} : seed;
    });
    return boxes;
}

void ActiveTiles::reset(const TileGrid &grid)
{
    mGrid = grid;
    mFlags.assign(grid.count(), 0);
    mTimers.assign(grid.count(), 0);
    mNeeded.assign(grid.count(), 0);
    mList.clear();
    mActiveCells = 0;
}

void ActiveTiles::update(const std::vector<CellBox> &seedsPerTile, int padding,
                         const std::vector<CellBox> &forced, int lifetime)
{
    PLUME_ASSERT_OR_RETURN(seedsPerTile.size() == mGrid.count(),
                           "ActiveTiles::update: one seed box per tile");
    padding = std::max(padding, 0);
    const auto life = std::uint16_t(std::clamp(lifetime, 0, int(UINT16_MAX)));

    // Needed: the tiles within reach of each seed box (per axis, then their product).
    std::fill(mNeeded.begin(), mNeeded.end(), std::uint8_t(0));
    for (const CellBox &seed : seedsPerTile) {
        const CellBox box = clipped(seed, mGrid.cells);
        if (box.empty())
            continue;
        TileRange r[3][2];
        int n[3];
        for (int a = 0; a < 3; ++a)
            n[a] = reachedTiles(mGrid, a, box.lo[a], box.hi[a], padding, r[a]);
        for (int z = 0; z < n[2]; ++z)
            for (int y = 0; y < n[1]; ++y)
                for (int x = 0; x < n[0]; ++x)
                    mark(mGrid, r[0][x], r[1][y], r[2][z], mNeeded);
    }
    // ... and the tiles the forced boxes overlap.
    for (const CellBox &f : forced) {
        const CellBox box = clipped(f, mGrid.cells);
        if (box.empty())
            continue;
        TileRange r[3];
        for (int a = 0; a < 3; ++a)
            r[a] = {box.lo[a] / kTile, (box.hi[a] - 1) / kTile};
        mark(mGrid, r[0], r[1], r[2], mNeeded);
    }

    // Lifetime: a needed tile restarts its timer; another stays active while its timer runs.
    for (std::size_t t = 0; t < mFlags.size(); ++t) {
        if (mNeeded[t]) {
            mFlags[t] = 1;
            mTimers[t] = life;
        } else if (mTimers[t] > 0) {
            mFlags[t] = 1;
            --mTimers[t];
        } else {
            mFlags[t] = 0;
        }
    }
    collect();
}

double ActiveTiles::share() const
{
    const std::int64_t cells = mGrid.cells.volume();
    return cells > 0 ? double(mActiveCells) / double(cells) : 0.0;
}

Status ActiveTiles::restore(const TileGrid &grid, std::vector<std::uint8_t> flags,
                            std::vector<std::uint16_t> timers)
{
    static const char *const kAxis[3] = {"x", "y", "z"};
    for (int a = 0; a < 3; ++a) {
        if (grid.cells[a] < 1 || grid.cells[a] > (1 << 16))
            return Status::failure(std::string("active tiles: cell count along ") + kAxis[a]
                                   + " is " + std::to_string(grid.cells[a])
                                   + "; it must be in [1, 65536]");
        const int tiles = (grid.cells[a] + kTile - 1) / kTile;
        if (grid.tiles[a] != tiles)
            return Status::failure(std::string("active tiles: ") + std::to_string(grid.tiles[a])
                                   + " tiles along " + kAxis[a] + " for "
                                   + std::to_string(grid.cells[a]) + " cells; expected "
                                   + std::to_string(tiles));
    }
    if (grid.count() > UINT32_MAX)
        return Status::failure("active tiles: " + std::to_string(grid.count())
                               + " tiles is more than 2^32 - 1");
    const std::string count = std::to_string(grid.count());
    if (flags.size() != grid.count())
        return Status::failure("active tiles: " + std::to_string(flags.size())
                               + " flags for a grid of " + count + " tiles");
    if (timers.size() != grid.count())
        return Status::failure("active tiles: " + std::to_string(timers.size())
                               + " timers for a grid of " + count + " tiles");
    for (std::size_t t = 0; t < flags.size(); ++t) {
        if (flags[t] > 1)
            return Status::failure("active tiles: tile " + std::to_string(t) + " has flag "
                                   + std::to_string(flags[t]) + "; it must be 0 or 1");
        if (flags[t] == 0 && timers[t] > 0)
            return Status::failure("active tiles: tile " + std::to_string(t) + " has timer "
                                   + std::to_string(timers[t])
                                   + " but is not active (a running timer keeps it active)");
    }
    mGrid = grid;
    mFlags = std::move(flags);
    mTimers = std::move(timers);
    mNeeded.assign(grid.count(), 0);
    collect();
    return Status::success();
}

std::size_t ActiveTiles::memoryBytes() const
{
    return mFlags.capacity() * sizeof(std::uint8_t) + mTimers.capacity() * sizeof(std::uint16_t)
           + mNeeded.capacity() * sizeof(std::uint8_t) + mList.capacity() * sizeof(std::uint32_t);
}

void ActiveTiles::collect()
{
    mList.clear();
    mActiveCells = 0;
    for (std::size_t t = 0; t < mFlags.size(); ++t) {
        if (mFlags[t]) {
            mList.push_back(std::uint32_t(t));
            mActiveCells += mGrid.cellsOf(t).volume();
        }
    }
}

} // namespace plume::sim
