// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/domain.h>
#include <core/sim/base/grid.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace plume::sim {

/// The composite grid of the sparse smoke scheme's pressure solve (docs/adaptive.md): the domain
/// cut into tiles of kTile^3 cells (kTile^2 x 1 in 2D), each tile at its own level L, with
/// (kTile >> L) cells per edge of size h 2^L. Active tiles are at level 0 (the simulation's
/// cells); the rest of the room is covered by coarser cells. Face neighbours differ by at most
/// one level (2:1), which levelsAround() guarantees.
///
/// Cells are numbered tile by tile (tiles x fastest), and within a tile x fastest. A coarse cell
/// is solid when at least half of its fine cells are, or a whole slice of it across an axis is
/// (so a plate one cell thin still stops the flow there).
///
/// Faces: every tile keeps the low faces of its cells along each axis at its own level, plus the
/// high faces on the domain's high side (not across periodic sides). A face between two levels
/// is kept by the tile above it: as one coarse face when that tile is coarse, or as the fine
/// faces when it is fine; either way the projection treats it as one face (compositepressure.h).
struct CompositeGrid
{
    static constexpr int kTile = 8;
    static constexpr int kLevels = 4; ///< 8, 4, 2 and 1 cells per tile edge
    static constexpr std::int32_t kWall = -1;
    static constexpr std::int32_t kOpen = -2;

    Domain domain;
    int dims = 3;
    Int3 tiles{0, 0, 0};
    std::vector<std::uint8_t> level;      ///< per tile
    std::vector<std::uint32_t> first;     ///< per tile: its first cell; first[tiles] = cells
    std::vector<std::uint8_t> solid;      ///< per cell
    std::vector<std::int32_t> neighbours; ///< per tile and side (x-, x+, y-, y+, z-, z+)

    /// Whether the domain splits into whole tiles (every axis a multiple of kTile; z == 1 in
    /// 2D): the sparse scheme's condition.
    static bool fits(const Domain &domain);

    /// When a coarse cell is solid: Majority (the comment above: the far field's walls), or
    /// AllSolid (only when every fine cell is: the multigrid hierarchy's coarse levels, so that
    /// every fluid cell gets a coarse correction, as in McAdams, Sifakis and Teran 2010).
    enum class SolidRule { Majority, AllSolid };

    /// Builds the layout for per-tile levels (each < kLevels, 2:1 between face neighbours)
    /// and the fine cells' solids (empty: no solids). Inputs must be valid (fits(domain)).
    void build(const Domain &d, const std::vector<std::uint8_t> &levels, const FlagGrid &solids,
               SolidRule rule = SolidRule::Majority);

    std::size_t tileCount() const { return level.size(); }
    std::size_t cellCount() const { return first.empty() ? 0 : first.back(); }
    /// Cells per edge of tile t.
    int edge(std::size_t t) const { return kTile >> level[t]; }
    /// Cell size of tile t in fine cells.
    int scale(std::size_t t) const { return 1 << level[t]; }
    Int3 tileOf(std::size_t t) const;
    std::size_t tileIndex(Int3 t) const
    {
        return std::size_t(t.x)
               + std::size_t(tiles.x) * (std::size_t(t.y) + std::size_t(tiles.y) * t.z);
    }
    /// Index of the cell at `local` (cells of the tile's level) in tile t.
    std::size_t cell(std::size_t t, Int3 local) const
    {
        const std::size_t e = std::size_t(edge(t));
        return first[t] + std::size_t(local.x)
               + e * (std::size_t(local.y) + e * std::size_t(local.z));
    }
    /// The cells of tile t along each axis (z: 1 in 2D).
    Int3 extent(std::size_t t) const
    {
        const int e = edge(t);
        return {e, e, dims == 3 ? e : 1};
    }

    /// Level per tile around the active ones: 0 on active tiles, then their Chebyshev distance
    /// in tiles (across periodic sides), at most kLevels - 1. With no active tile, every tile
    /// is at the coarsest level.
    static std::vector<std::uint8_t> levelsAround(const Domain &domain,
                                                  const std::vector<std::uint8_t> &active);
    /// The same layout one level coarser everywhere it can be (each level raised to at least
    /// `atLeast`): the next grid of the multigrid hierarchy.
    static std::vector<std::uint8_t> raised(const std::vector<std::uint8_t> &levels, int atLeast);

    std::size_t memoryBytes() const;
};

/// Face velocities on a composite grid (world units per second), per axis: each tile's faces
/// from faceFirst[axis][t], x fastest, with one more layer along the axis on the domain's high
/// side (CompositeGrid's comment says which tile keeps which face).
struct CompositeFaces
{
    std::array<std::vector<std::uint32_t>, 3> faceFirst;
    std::array<std::vector<Int3>, 3> faceCounts; ///< per axis and tile: faceExtent, kept
    std::array<std::vector<float>, 3> value;

    /// Numbers the faces of `g`, and with `values` makes room for them (zero).
    void shape(const CompositeGrid &g, bool values = true);
    /// The face layers of tile t along `axis` (edge, or edge + 1 on the domain's high side).
    static Int3 faceExtent(const CompositeGrid &g, std::size_t t, int axis);
    std::size_t face(const CompositeGrid &, std::size_t t, int axis, Int3 local) const
    {
        const Int3 n = faceCounts[std::size_t(axis)][t];
        return faceFirst[axis][t] + std::size_t(local.x)
               + std::size_t(n.x)
                     * (std::size_t(local.y) + std::size_t(n.y) * std::size_t(local.z));
    }

    /// Fluxes of a fine MAC grid over the domain onto the composite faces: a coarse face takes
    /// the mean of the fine faces it covers (the same flux).
    void fromMac(const CompositeGrid &g, const MacGrid &mac);
    /// Back onto a fine MAC grid: fine tiles' faces as they are; inside a coarse tile, fine faces
    /// on a coarse face take its value, the others are interpolated linearly between the two
    /// coarse faces around them.
    void toMac(const CompositeGrid &g, MacGrid &mac) const;

    /// The stored face that holds the fine face `fine` of `axis` (fine face coordinates: the
    /// plane along the axis, cell indices across it), or nullptr where that fine face lies
    /// inside a coarse cell.
    const float *at(const CompositeGrid &g, int axis, Int3 fine) const;
};

} // namespace plume::sim
