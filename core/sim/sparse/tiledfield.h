// SPDX-License-Identifier: Apache-2.0
#pragma once

// Tiled field storage of the sparse smoke scheme (issue 36): a float field whose memory follows
// the smoke. Values are stored only on allocated tiles of kTile^3 samples; every other sample
// reads as the field's background value. A 1024^3 domain must bake within 8 GiB, so the sparse
// scheme's fields cannot be dense arrays (ScalarGrid).

#include <core/sim/base/domain.h>
#include <core/sim/base/grid.h>
#include <core/sim/base/parallel.h>
#include <core/sim/base/types.h>
#include <core/sim/numerics/sampling.h>
#include <core/sim/sparse/activetiles.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace plume::sim {

/// A float field over a box of samples, stored on allocated tiles only.
///
/// Staggering as ScalarGrid: sample (i,j,k) sits at cell coordinates (i,j,k) + offset; a
/// cell-centred field has the domain's cells as samples, a MAC face component one more sample
/// along its axis (faceGridSize). The box is cut into tiles of kTile x kTile x kTile samples
/// (kTile x kTile x 1 when the box is one sample deep, as a 2D cell field), tiles = ceil(samples /
/// tile extent) per axis, numbered x fastest. Partial tiles on the high sides are stored whole;
/// their samples outside the box are never read by at(), sample() or toDense().
///
/// Memory: a table of one int32 slot per tile (4 bytes per tile whether allocated or not: 8 MiB
/// for 1024^3 cells) plus pages of kPageTiles tiles that hold the allocated tiles, so the memory
/// follows the allocated tiles and growing never copies the stored values. Slot 0 is a tile of
/// background values that every unallocated tile reads, so a lookup has no branch.
class TiledField
{
public:
    static constexpr int kTile = 8;
    /// Tiles per page of the pool (the unit in which memory is taken and given back).
    static constexpr int kPageTiles = 64;

    /// A field over `samples` (x fastest) whose sample (i,j,k) sits at cell coordinates
    /// (i,j,k) + offset, reading `background` everywhere; nothing allocated. sample() clamps to
    /// the samples on every axis.
    void reshape(Int3 samples, Vec3 offset, float background = 0.f);
    /// As reshape() above, and sample() wraps along the periodic axes of `domain` exactly as the
    /// dense sampler (sampleLinear, numerics/sampling.h's gridMap) does for a grid of this size.
    void reshape(const Domain &domain, Int3 samples, Vec3 offset, float background = 0.f);

    Int3 size() const { return mSize; }
    Vec3 offset() const { return mOffset; }
    float background() const { return mBackground; }
    /// Tiles per axis.
    Int3 tiles() const { return mTiles; }
    std::size_t tileCount() const { return mSlot.size(); }
    /// Samples per tile along each axis: (kTile, kTile, kTile), or (kTile, kTile, 1) when the box
    /// is one sample deep.
    Int3 tileExtent() const { return {kTile, kTile, mSize.z > 1 ? kTile : 1}; }
    /// Values per tile: 512, or 64 when the box is one sample deep.
    int tileValues() const { return mTileValues; }
    /// Tiles per axis of a box of `samples` (tileExtent's rule).
    static Int3 tileCounts(Int3 samples);

    /// Flat index of tile t (x fastest).
    std::size_t tileIndex(Int3 t) const
    {
        return std::size_t(t.x)
               + std::size_t(mTiles.x) * (std::size_t(t.y) + std::size_t(mTiles.y) * t.z);
    }
    /// Tile coordinates of a flat index.
    Int3 tileOf(std::size_t tile) const { return cellOf(tile, mTiles); }
    /// The sample at the low corner of a tile.
    Int3 tileOrigin(std::size_t tile) const;

    /// Makes exactly `tiles` (ascending, unique flat tile indices) allocated: tiles kept keep
    /// their values, new tiles start at the background (their padding too), the others are
    /// released and their slots reused. Pages no longer needed are given back (one spare is
    /// kept against churn). Cost: the old and new lists plus the values of new and moved tiles.
    void setTiles(std::span<const std::uint32_t> tiles);
    bool allocated(std::size_t tile) const { return mSlot[tile] != 0; }
    /// Allocated tiles, ascending.
    const std::vector<std::uint32_t> &tileList() const { return mList; }

    /// Value at sample (i,j,k) inside the box: the stored value, or the background on an
    /// unallocated tile.
    float at(int i, int j, int k) const
    {
        const std::size_t t = tileIndex({i >> 3, j >> 3, k >> 3});
        return values(mSlot[t])[localIndex(i, j, k)];
    }
    /// Index of sample (i,j,k) inside the values of its tile (x fastest within the tile).
    static int localIndex(int i, int j, int k)
    {
        return (i & 7) + kTile * ((j & 7) + kTile * (k & 7));
    }

    /// The tileValues() values of an allocated tile (x fastest within the tile), nullptr if
    /// not allocated.
    float *tileData(std::size_t tile)
    {
        const std::int32_t s = mSlot[tile];
        return s != 0 ? mutableValues(s) : nullptr;
    }
    const float *tileData(std::size_t tile) const
    {
        const std::int32_t s = mSlot[tile];
        return s != 0 ? values(s) : nullptr;
    }

    /// Linear (trilinear, or bilinear when the box is one sample deep) sample at a position in
    /// cell coordinates: the stencil, clamping, wrapping and arithmetic of sampleLinear, so a
    /// field sampled where all eight corners are stored gives the dense grid's bits. Unallocated
    /// corners read the background. The field must not be empty.
    float sample(Vec3 cellPos) const;

    /// Every sample into `out` (reshaped to this field's size and offset): stored values, and the
    /// background on unallocated tiles. Parallel over rows.
    void toDense(ScalarGrid &out) const;
    /// Allocates exactly `tiles` (as setTiles) and copies their samples from `in`, which must
    /// have this field's size; padding outside the box takes the background. Parallel over
    /// tiles.
    void fromDense(const ScalarGrid &in, std::span<const std::uint32_t> tiles);

    /// Bytes held: the slot table, the tile list and the pages.
    std::size_t memoryBytes() const;
    /// Same shape (size, offset, wrapping), background, tiles and bytes of every stored tile
    /// (padding included); for determinism tests.
    bool identical(const TiledField &other) const;
    /// O(1) exchange of contents (double buffering).
    void swap(TiledField &other) noexcept;

    /// Runs body(tile, values) for every allocated tile (flat index, its tileValues() values),
    /// tiles in parallel. Each call must write only its own tile's values, so the result never
    /// depends on the thread count.
    template<class F>
    void forEachTile(F &&body)
    {
        forEachJob(std::int64_t(mList.size()), [&](std::int64_t n) {
            const std::size_t t = mList[std::size_t(n)];
            body(t, mutableValues(mSlot[t]));
        });
    }
    template<class F>
    void forEachTile(F &&body) const
    {
        forEachJob(std::int64_t(mList.size()), [&](std::int64_t n) {
            const std::size_t t = mList[std::size_t(n)];
            body(t, values(mSlot[t]));
        });
    }

private:
    static constexpr int kPageShift = 6; ///< log2(kPageTiles)
    static_assert(kTile == 8 && kPageTiles == 1 << kPageShift,
                  "at() and values() shift and mask by these sizes");

    const float *values(std::int32_t slot) const
    {
        return mPages[std::size_t(slot) >> kPageShift].data()
               + std::size_t(slot & (kPageTiles - 1)) * std::size_t(mTileValues);
    }
    float *mutableValues(std::int32_t slot)
    {
        return mPages[std::size_t(slot) >> kPageShift].data()
               + std::size_t(slot & (kPageTiles - 1)) * std::size_t(mTileValues);
    }
    /// The values at the corners of a stencil whose Lerps are set, into d in the Stencil's
    /// corner order; sets the stencil's indices to 0..7 (0..3) to match.
    template<bool k3D>
    void gatherCorners(detail::Stencil &s, float *d) const;
    /// Pages for slots [0, slots), each new one filled with the background.
    void growPages(std::size_t slots);

    Int3 mSize{0, 0, 0};
    Vec3 mOffset{0.5f, 0.5f, 0.5f};
    float mBackground = 0.f;
    Int3 mTiles{0, 0, 0};
    int mTileValues = 0;
    detail::AxisMap mAxis[3];               ///< how sample() maps positions to samples
    std::vector<std::int32_t> mSlot;        ///< per tile: its slot in the pool, 0 = unallocated
    std::vector<std::vector<float>> mPages; ///< kPageTiles tiles each; slot 0: the background
    std::vector<std::uint32_t> mList;
};

static_assert(TiledField::kTile == TileGrid::kTile, "fields are tiled as the active-tile map");

/// The tiles a MAC face component along `axis` needs where the cell tiles `cellTiles`
/// (ascending flat indices of `cells`) are active, as ascending flat indices of the face field's
/// tiles (TiledField::tileCounts(faceGridSize(cells.cells, axis))): the same tiles, which hold
/// the low faces of their cells and the faces inside, plus, for active tiles on the domain's high
/// side, the extra tile layer that holds the last faces when the cells along `axis` are a multiple
/// of kTile. The high faces of an active tile whose neighbour along `axis` is inactive lie in
/// that neighbour's tile and are not included (they read the background). In 2D, axis 2 has no
/// tiles (w is not stored, as in MacGrid).
std::vector<std::uint32_t> faceTiles(const TileGrid &cells,
                                     std::span<const std::uint32_t> cellTiles, int axis);

// ---- Implementation ---------------------------------------------------------------------------

PLUME_INLINE float TiledField::sample(Vec3 p) const
{
    detail::Stencil s;
    s.x = detail::locate(mAxis[0], p.x);
    s.y = detail::locate(mAxis[1], p.y);
    // The corners gathered into d in Stencil's corner order (x + 2y + 4z), so interpolate()
    // computes exactly what it computes on the dense grid.
    float d[8];
    if (mSize.z > 1) {
        s.z = detail::locate(mAxis[2], p.z);
        gatherCorners<true>(s, d);
        return detail::interpolate<true>(d, s);
    }
    gatherCorners<false>(s, d);
    return detail::interpolate<false>(d, s);
}

template<bool k3D>
PLUME_INLINE void TiledField::gatherCorners(detail::Stencil &s, float *d) const
{
    constexpr int kCorners = k3D ? 8 : 4;
    for (int c = 0; c < kCorners; ++c)
        s.idx[c] = std::size_t(c);
    const int z0 = k3D ? s.z.i0 : 0;
    const int z1 = k3D ? s.z.i1 : 0;
    // Per axis and side: the tile's part of the flat tile index, the sample's part of the index
    // within the tile.
    const std::size_t sy = std::size_t(mTiles.x);
    const std::size_t sz = sy * std::size_t(mTiles.y);
    const std::size_t tx[2] = {std::size_t(s.x.i0 >> 3), std::size_t(s.x.i1 >> 3)};
    const std::size_t ty[2] = {sy * std::size_t(s.y.i0 >> 3), sy * std::size_t(s.y.i1 >> 3)};
    const std::size_t tz[2] = {sz * std::size_t(z0 >> 3), sz * std::size_t(z1 >> 3)};
    const int lx[2] = {s.x.i0 & 7, s.x.i1 & 7};
    const int ly[2] = {kTile * (s.y.i0 & 7), kTile * (s.y.i1 & 7)};
    const int lz[2] = {kTile * kTile * (z0 & 7), kTile * kTile * (z1 & 7)};
    for (int c = 0; c < kCorners; ++c) {
        const float *v = values(mSlot[tx[c & 1] + ty[(c >> 1) & 1] + tz[c >> 2]]);
        d[c] = v[lx[c & 1] + ly[(c >> 1) & 1] + lz[c >> 2]];
    }
}

} // namespace plume::sim
