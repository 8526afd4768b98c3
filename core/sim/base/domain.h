// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/types.h>

#include <cstdint>

namespace plume::sim {

/// The simulated box: cell counts, cell size and placement in the world, boundary per face.
/// A 2D domain is one cell deep (cells.z == 1) and its z faces are ignored.
struct Domain
{
    Int3 cells{64, 64, 1};
    float cellSize = 1.f / 64.f; ///< world units per cell edge (cells are cubes)
    Vec3 origin{0.f, 0.f, 0.f};  ///< world position of the low corner of cell (0,0,0)
    Boundaries boundaries = allBoundaries(Boundary::Wall);

    bool is2D() const { return cells.z == 1; }
    int dimensions() const { return is2D() ? 2 : 3; }
    std::int64_t cellCount() const { return cells.volume(); }
    Boundary boundary(Face f) const { return boundaries[int(f)]; }
    Boundary boundary(int axis, bool high) const { return boundaries[2 * axis + (high ? 1 : 0)]; }

    /// World position of a point given in cell coordinates (cell (i,j,k) spans [i, i+1)).
    Vec3 toWorld(Vec3 cellCoords) const { return origin + cellCoords * cellSize; }
    /// Cell coordinates of a world position.
    Vec3 toCell(Vec3 world) const { return (world - origin) * (1.f / cellSize); }
    /// World position of the centre of cell (i,j,k). In 2D the centre has z = origin.z + h/2.
    Vec3 cellCentre(int i, int j, int k) const
    {
        return toWorld({float(i) + 0.5f, float(j) + 0.5f, float(k) + 0.5f});
    }
    /// World size of the box.
    Vec3 extent() const { return Vec3{float(cells.x), float(cells.y), float(cells.z)} * cellSize; }

    /// Refuses non-positive or non-finite sizes, grids above `maxCells`, and periodic set on
    /// only one face of an axis. The message names the value and why it is refused.
    Status validate(std::int64_t maxCells = kDefaultMaxCells) const;

    /// Upper limit on cells unless a caller asks otherwise: 512^3.
    static constexpr std::int64_t kDefaultMaxCells = std::int64_t(512) * 512 * 512;
    /// The adaptive domain's limit (its cost and memory follow the smoke, docs/adaptive.md):
    /// 1024^3, which keeps every flat cell index within 32 bits.
    static constexpr std::int64_t kAdaptiveMaxCells = std::int64_t(1024) * 1024 * 1024;
};

} // namespace plume::sim
