// SPDX-License-Identifier: Apache-2.0
#include <core/sim/sparse/tiledfield.h>

#include <core/sim/base/assert.h>

#include <algorithm>
#include <cstring>
#include <utility>

namespace plume::sim {

namespace {

/// Whether a tile list is ascending, unique and within `count` tiles.
bool validList(std::span<const std::uint32_t> tiles, std::size_t count)
{
    for (std::size_t n = 0; n < tiles.size(); ++n) {
        if (tiles[n] >= count || (n > 0 && tiles[n] <= tiles[n - 1]))
            return false;
    }
    return true;
}

/// Pages that hold slots [0, slots).
std::size_t pagesFor(std::size_t slots)
{
    return (slots + TiledField::kPageTiles - 1) / TiledField::kPageTiles;
}

} // namespace

Int3 TiledField::tileCounts(Int3 samples)
{
    const int depth = samples.z > 1 ? kTile : 1;
    return {(samples.x + kTile - 1) / kTile, (samples.y + kTile - 1) / kTile,
            (samples.z + depth - 1) / depth};
}

void TiledField::reshape(Int3 samples, Vec3 offset, float background)
{
    mSize = samples;
    mOffset = offset;
    mBackground = background;
    mTiles = tileCounts(samples);
    const Int3 e = tileExtent();
    mTileValues = e.x * e.y * e.z;
    for (int a = 0; a < 3; ++a) {
        // As detail::gridMap() with no periodic axis.
        detail::AxisMap &m = mAxis[a];
        m.offset = offset[a];
        m.samples = std::max(samples[a], 1);
        m.last = float(m.samples - 1);
        m.period = m.samples;
        m.periodic = false;
    }
    mSlot.assign(std::size_t(std::max<std::int64_t>(mTiles.volume(), 0)), 0);
    mList.clear();
    mPages.clear();
    growPages(1); // slot 0: the background tile
}

void TiledField::reshape(const Domain &domain, Int3 samples, Vec3 offset, float background)
{
    reshape(samples, offset, background);
    for (int a = 0; a < 3; ++a) {
        // As detail::gridMap(): a field too small for the domain's period is clamped instead.
        detail::AxisMap &m = mAxis[a];
        m.period = std::max(domain.cells[a], 1);
        m.periodic = detail::isPeriodic(domain, a) && m.samples >= m.period;
    }
}

Int3 TiledField::tileOrigin(std::size_t tile) const
{
    const Int3 t = tileOf(tile);
    const Int3 e = tileExtent();
    return {t.x * e.x, t.y * e.y, t.z * e.z};
}

void TiledField::growPages(std::size_t slots)
{
    const std::size_t pageValues = std::size_t(kPageTiles) * std::size_t(mTileValues);
    while (mPages.size() < pagesFor(slots))
        mPages.emplace_back(pageValues, mBackground);
}

void TiledField::setTiles(std::span<const std::uint32_t> tiles)
{
    PLUME_ASSERT_OR_RETURN(validList(tiles, mSlot.size()),
                           "TiledField::setTiles: tiles not ascending, repeated or out of range");
    const std::size_t count = tiles.size();
    // The allocated tiles will own slots 1..count. Kept tiles stay where they are when their
    // slot is in that range (taken), else they move (moved); new tiles (fresh) and moved ones
    // fill the remaining slots of the range (holes) in ascending order.
    std::vector<std::uint8_t> taken(count + 1, 0);
    std::vector<std::uint32_t> moved;
    std::vector<std::uint32_t> fresh;
    std::size_t p = 0;
    std::size_t q = 0;
    while (p < mList.size() || q < count) {
        if (q == count || (p < mList.size() && mList[p] < tiles[q])) {
            mSlot[mList[p++]] = 0; // released
        } else if (p == mList.size() || tiles[q] < mList[p]) {
            fresh.push_back(tiles[q++]);
        } else {
            const std::uint32_t t = tiles[q];
            const std::size_t s = std::size_t(mSlot[t]);
            if (s <= count)
                taken[s] = 1;
            else
                moved.push_back(t);
            ++p;
            ++q;
        }
    }

    // One job per tile that gets a slot: where from (0: fill with the background) and where to.
    struct Job
    {
        std::uint32_t tile;
        std::int32_t from;
        std::int32_t to;
    };
    std::vector<Job> jobs;
    jobs.reserve(moved.size() + fresh.size());
    std::size_t hole = 1;
    const auto nextHole = [&] {
        while (taken[hole] != 0)
            ++hole;
        return std::int32_t(hole++);
    };
    for (std::uint32_t t : moved)
        jobs.push_back({t, mSlot[t], nextHole()});
    for (std::uint32_t t : fresh)
        jobs.push_back({t, 0, nextHole()});

    growPages(count + 1);
    const std::size_t bytes = std::size_t(mTileValues) * sizeof(float);
    // Sources of moves lie beyond slot count, destinations within: no job reads another's output.
    forEachJob(std::int64_t(jobs.size()), [&](std::int64_t n) {
        const Job &job = jobs[std::size_t(n)];
        float *to = mutableValues(job.to);
        if (job.from != 0)
            std::memcpy(to, values(job.from), bytes);
        else
            std::fill(to, to + mTileValues, mBackground);
    });
    for (const Job &job : jobs)
        mSlot[job.tile] = job.to;
    // Give back pages beyond the last slot, keeping one spare against churn.
    const std::size_t keep = pagesFor(count + 1) + 1;
    if (mPages.size() > keep)
        mPages.resize(keep);
    mList.assign(tiles.begin(), tiles.end());
}

void TiledField::toDense(ScalarGrid &out) const
{
    out.reshapeForOverwrite(mSize, mOffset);
    if (mSlot.empty())
        return;
    forEachRow(mSize, [&](int j, int k) {
        float *row = out.data() + out.index(0, j, k);
        const std::size_t rowTiles = tileIndex({0, j >> 3, k >> 3});
        const int rowLocal = localIndex(0, j, k);
        for (int x = 0; x < mSize.x; x += kTile) {
            const float *from = values(mSlot[rowTiles + std::size_t(x >> 3)]) + rowLocal;
            std::memcpy(row + x, from, std::size_t(std::min(kTile, mSize.x - x)) * sizeof(float));
        }
    });
}

void TiledField::fromDense(const ScalarGrid &in, std::span<const std::uint32_t> tiles)
{
    PLUME_ASSERT_OR_RETURN(in.size() == mSize && in.count() == std::size_t(mSize.volume()),
                           "TiledField::fromDense: the dense grid's size differs from the field's");
    setTiles(tiles);
    const Int3 e = tileExtent();
    forEachTile([&](std::size_t tile, float *v) {
        const Int3 o = tileOrigin(tile);
        const Int3 n{std::min(e.x, mSize.x - o.x), std::min(e.y, mSize.y - o.y),
                     std::min(e.z, mSize.z - o.z)};
        std::fill(v, v + mTileValues, mBackground);
        for (int k = 0; k < n.z; ++k)
            for (int j = 0; j < n.y; ++j)
                std::memcpy(v + localIndex(0, j, k), in.data() + in.index(o.x, o.y + j, o.z + k),
                            std::size_t(n.x) * sizeof(float));
    });
}

std::size_t TiledField::memoryBytes() const
{
    std::size_t bytes = mSlot.capacity() * sizeof(std::int32_t)
                        + mList.capacity() * sizeof(std::uint32_t)
                        + mPages.capacity() * sizeof(std::vector<float>);
    for (const std::vector<float> &page : mPages)
        bytes += page.capacity() * sizeof(float);
    return bytes;
}

bool TiledField::identical(const TiledField &other) const
{
    const auto sameBits = [](float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; };
    if (!(mSize == other.mSize) || !sameBits(mBackground, other.mBackground)
        || mList != other.mList)
        return false;
    for (int a = 0; a < 3; ++a) {
        if (!sameBits(mOffset[a], other.mOffset[a]) || mAxis[a].periodic != other.mAxis[a].periodic
            || mAxis[a].period != other.mAxis[a].period)
            return false;
    }
    const std::size_t bytes = std::size_t(mTileValues) * sizeof(float);
    for (std::uint32_t t : mList) {
        if (std::memcmp(tileData(t), other.tileData(t), bytes) != 0)
            return false;
    }
    return true;
}

void TiledField::swap(TiledField &other) noexcept
{
    std::swap(mSize, other.mSize);
    std::swap(mOffset, other.mOffset);
    std::swap(mBackground, other.mBackground);
    std::swap(mTiles, other.mTiles);
    std::swap(mTileValues, other.mTileValues);
    std::swap(mAxis, other.mAxis);
    mSlot.swap(other.mSlot);
    mPages.swap(other.mPages);
    mList.swap(other.mList);
}

std::vector<std::uint32_t> faceTiles(const TileGrid &cells,
                                     std::span<const std::uint32_t> cellTiles, int axis)
{
    std::vector<std::uint32_t> out;
    if (axis == 2 && cells.cells.z == 1)
        return out; // 2D: no w
    const Int3 faces = TiledField::tileCounts(faceGridSize(cells.cells, axis));
    const bool extraLayer = faces[axis] > cells.tiles[axis];
    const auto index = [&](Int3 t) {
        return std::uint32_t(std::size_t(t.x)
                             + std::size_t(faces.x)
                                   * (std::size_t(t.y) + std::size_t(faces.y) * t.z));
    };
    out.reserve(cellTiles.size());
    std::vector<std::uint32_t> high; // the extra layer's tiles
    for (std::uint32_t c : cellTiles) {
        Int3 t = cells.tileOf(c);
        out.push_back(index(t));
        if (extraLayer && t[axis] == cells.tiles[axis] - 1) {
            t[axis] += 1;
            high.push_back(index(t));
        }
    }
    // Both lists ascend (a flat index keeps the (z, y, x) order of the tiles, and the extra
    // layer's tiles all share one coordinate along `axis`); merged, they interleave.
    std::vector<std::uint32_t> merged(out.size() + high.size());
    std::merge(out.begin(), out.end(), high.begin(), high.end(), merged.begin());
    return merged;
}

} // namespace plume::sim
