// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/grid.h>

#include <array>
#include <cstddef>

namespace plume::sim {

/// Scratch grids shared by the stages of one step. A stage may reshape them at will; nothing in
/// them survives from one stage to the next. Keeping a handful of shared buffers instead of
/// per-stage ones holds the smoke state under 64 bytes per cell.
struct Workspace
{
    static constexpr int kGrids = 4;
    std::array<ScalarGrid, kGrids> grids;

    ScalarGrid &operator[](int n) { return grids[std::size_t(n)]; }

    /// Pre-allocates every buffer for the largest face grid of `cells`, so that later reshapes
    /// never allocate in the middle of a step.
    void reserveFor(Int3 cells);
    std::size_t bytes() const;
};

} // namespace plume::sim
