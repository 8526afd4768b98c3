// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/types.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace plume::sim {

/// A dense float array over a box of samples, x fastest then y then z.
///
/// The grid knows its staggering: sample (i,j,k) sits at cell coordinates
/// (i + offset.x, j + offset.y, k + offset.z), where cell (i,j,k) spans [i, i+1) on each axis.
/// Cell-centred quantities use offset (0.5, 0.5, 0.5) (z offset 0.5 in 2D too); the x-faces
/// of a MAC grid use (0, 0.5, 0.5) and have one more sample along x.
class ScalarGrid
{
public:
    ScalarGrid() = default;
    ScalarGrid(Int3 size, Vec3 offset, float value = 0.f) { reshape(size, offset, value); }

    /// Resizes and fills. Keeps the allocation when it is large enough.
    void reshape(Int3 size, Vec3 offset, float value = 0.f);
    /// Resizes without filling, for a pass that writes every cell: the values are left as they
    /// were (stale) and the per-step memset a reshape costs is saved.
    void reshapeForOverwrite(Int3 size, Vec3 offset);
    void fill(float value);

    Int3 size() const { return mSize; }
    Vec3 offset() const { return mOffset; }
    std::size_t count() const { return mData.size(); }
    std::size_t bytes() const { return mData.capacity() * sizeof(float); }

    std::size_t index(int i, int j, int k) const
    {
        return std::size_t(i) + std::size_t(mSize.x) * (std::size_t(j) + std::size_t(mSize.y) * k);
    }
    float &operator()(int i, int j, int k) { return mData[index(i, j, k)]; }
    float operator()(int i, int j, int k) const { return mData[index(i, j, k)]; }
    float &operator[](std::size_t n) { return mData[n]; }
    float operator[](std::size_t n) const { return mData[n]; }

    float *data() { return mData.data(); }
    const float *data() const { return mData.data(); }

    /// Steps between neighbours along x, y, z in the flat array.
    std::size_t strideY() const { return std::size_t(mSize.x); }
    std::size_t strideZ() const { return std::size_t(mSize.x) * mSize.y; }

    /// O(1) exchange of contents (double buffering).
    void swap(ScalarGrid &other) noexcept;

    /// Byte-wise equality of sizes, offsets and values (used by determinism tests).
    bool identical(const ScalarGrid &other) const;

private:
    Int3 mSize{0, 0, 0};
    Vec3 mOffset{0.5f, 0.5f, 0.5f};
    std::vector<float> mData;
};

/// Sample offsets of the usual staggerings.
inline constexpr Vec3 kCellCentre{0.5f, 0.5f, 0.5f};
inline constexpr Vec3 kFaceX{0.f, 0.5f, 0.5f};
inline constexpr Vec3 kFaceY{0.5f, 0.f, 0.5f};
inline constexpr Vec3 kFaceZ{0.5f, 0.5f, 0.f};

/// Staggered (MAC) velocity: u on x-faces (nx+1, ny, nz), v on y-faces (nx, ny+1, nz),
/// w on z-faces (nx, ny, nz+1). In 2D (nz == 1) w exists but stays zero and is never used.
/// Units: world units per second.
class MacGrid
{
public:
    MacGrid() = default;
    explicit MacGrid(Int3 cells) { reshape(cells); }

    void reshape(Int3 cells);
    Int3 cells() const { return mCells; }
    bool is3D() const { return mCells.z > 1; }

    ScalarGrid &component(int axis) { return axis == 0 ? u : (axis == 1 ? v : w); }
    const ScalarGrid &component(int axis) const { return axis == 0 ? u : (axis == 1 ? v : w); }

    /// Velocity averaged to the centre of cell (i,j,k). Inline: the cubic advection of cell
    /// fields calls it for every cell.
    Vec3 atCentre(int i, int j, int k) const
    {
        Vec3 c{0.5f * (u(i, j, k) + u(i + 1, j, k)), 0.5f * (v(i, j, k) + v(i, j + 1, k)), 0.f};
        if (is3D())
            c.z = 0.5f * (w(i, j, k) + w(i, j, k + 1));
        return c;
    }

    void swap(MacGrid &other) noexcept;

    ScalarGrid u, v, w;

private:
    Int3 mCells{0, 0, 0};
};

/// Size of the face grid of `axis` for a domain of `cells`.
inline Int3 faceGridSize(Int3 cells, int axis)
{
    Int3 s = cells;
    s[axis] += 1;
    return s;
}

/// Cell type flags, cell-centred. Only Fluid and Solid exist for smoke; the domain's outside is
/// described by the Boundaries, not by flags.
enum class CellType : std::uint8_t { Fluid = 0, Solid = 1 };

/// A cell-centred byte grid of CellType.
class FlagGrid
{
public:
    FlagGrid() = default;
    explicit FlagGrid(Int3 cells) { reshape(cells); }

    void reshape(Int3 cells); ///< all Fluid
    Int3 size() const { return mSize; }
    std::size_t index(int i, int j, int k) const
    {
        return std::size_t(i) + std::size_t(mSize.x) * (std::size_t(j) + std::size_t(mSize.y) * k);
    }
    bool isSolid(int i, int j, int k) const { return mData[index(i, j, k)] != 0; }
    bool isSolid(std::size_t n) const { return mData[n] != 0; }
    void setSolid(int i, int j, int k, bool solid) { mData[index(i, j, k)] = solid ? 1 : 0; }
    std::size_t count() const { return mData.size(); }
    bool anySolid() const;
    const std::uint8_t *data() const { return mData.data(); }
    std::uint8_t *data() { return mData.data(); }
    friend bool operator==(const FlagGrid &, const FlagGrid &) = default;

private:
    Int3 mSize{0, 0, 0};
    std::vector<std::uint8_t> mData;
};

/// A box of cells [lo, hi) of a domain grid.
struct CellBox
{
    Int3 lo{0, 0, 0};
    Int3 hi{0, 0, 0};

    Int3 size() const { return {hi.x - lo.x, hi.y - lo.y, hi.z - lo.z}; }
    bool empty() const { return hi.x <= lo.x || hi.y <= lo.y || hi.z <= lo.z; }
    std::int64_t volume() const { return empty() ? 0 : size().volume(); }
    friend bool operator==(const CellBox &, const CellBox &) = default;
};

/// The smallest box holding both (an empty box adds nothing).
CellBox unite(const CellBox &a, const CellBox &b);

/// Copies `count` samples: dst(dstLo + t) = src(srcLo + t). Both must hold the block.
void copyBlock(const ScalarGrid &src, Int3 srcLo, ScalarGrid &dst, Int3 dstLo, Int3 count);

/// Whether every value of g is finite (parallel over rows, without branches).
bool allFinite(const ScalarGrid &g);

/// Cell (i, j, k) of flat index c (x fastest, then y, then z) on a grid of n cells.
inline Int3 cellOf(std::size_t c, Int3 n)
{
    return {int(c % std::size_t(n.x)), int((c / std::size_t(n.x)) % std::size_t(n.y)),
            int(c / (std::size_t(n.x) * std::size_t(n.y)))};
}

/// A sparse cell mask: cell indices (into a cell-centred grid, ascending, unique) with weights
/// in (0, 1] (fractional coverage). Emitters and masked force fields use it.
struct SparseMask
{
    std::vector<std::uint32_t> cells;
    std::vector<float> weights;

    bool empty() const { return cells.empty(); }
    std::size_t size() const { return cells.size(); }
    void add(std::uint32_t cell, float weight)
    {
        cells.push_back(cell);
        weights.push_back(weight);
    }
    /// Builds a mask from a dense coverage grid, keeping cells with weight > 0.
    static SparseMask fromDense(const ScalarGrid &coverage);
    /// Checks ordering, range (< cellCount) and weights; a message names the first bad entry.
    Status validate(std::size_t cellCount) const;
    /// The box of the mask's cells on a grid of `cells` (empty for an empty mask).
    CellBox bounds(Int3 cells) const;
};

} // namespace plume::sim
