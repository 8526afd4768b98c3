// SPDX-License-Identifier: Apache-2.0
#pragma once

// Moving obstacles (docs/colliders.md), the parts both schemes share: the cells a moving solid
// uncovers and how they are filled, and the MAC faces a moving solid drives (smoke scheme).
// Internal to plume_sim.

#include <core/sim/base/domain.h>
#include <core/sim/base/grid.h>
#include <core/sim/base/sources.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace plume::sim::detail {

/// Velocity component `axis` of the solid cell `cell` (0 when the motion has no such grid).
inline float obstacleVelocity(const ObstacleMotion &m, int axis, std::size_t cell)
{
    const ScalarGrid &g = m.velocity[axis];
    return g.count() > 0 ? g[cell] : 0.f;
}

/// Whether fluid sticks to the solid cell `cell`.
inline bool obstacleNoSlip(const ObstacleMotion &m, std::size_t cell)
{
    return !m.noSlip.empty() && m.noSlip[cell] != 0;
}

/// The cells an obstacle left (solid before, fluid now) and how each gets its contents: the
/// average of its fluid face neighbours, layer by layer: the first layer reads cells that were
/// fluid before, the next also the first layer, and so on, so a solid that moved several cells
/// leaves no hole and no value above its neighbours' largest. Cells no fluid reaches get zero.
/// Periodic axes wrap. The order is fixed (layers, then ascending cells), so fills are
/// deterministic.
class UncoveredCells
{
public:
    void build(const FlagGrid &before, const FlagGrid &after, const Domain &domain);
    bool empty() const { return mCells.empty(); }
    /// The uncovered cells in fill order.
    const std::vector<std::uint32_t> &cells() const { return mCells; }

    /// Fills the uncovered cells of `data`, where at(cell) is the index in `data` of a domain
    /// cell (identity for cell-centred grids; the padded index for the stam scheme's grids).
    /// T: float, or the stam scheme's Fixed.
    template<class T, class At>
    void fill(T *data, At &&at) const
    {
        for (std::size_t e = 0; e < mCells.size(); ++e) {
            const std::uint32_t first = mFirst[e], last = mFirst[e + 1];
            T sum = T(0);
            for (std::uint32_t s = first; s < last; ++s)
                sum += data[at(mSources[s])];
            data[at(mCells[e])] = last > first ? sum / T(int(last - first)) : T(0);
        }
    }

    std::size_t memoryBytes() const
    {
        return (mCells.capacity() + mFirst.capacity() + mSources.capacity())
               * sizeof(std::uint32_t);
    }

private:
    std::vector<std::uint32_t> mCells;   ///< fill order
    std::vector<std::uint32_t> mFirst;   ///< sources of cell e: mSources[mFirst[e], mFirst[e+1])
    std::vector<std::uint32_t> mSources; ///< neighbour cells averaged
};

/// The MAC faces a moving obstacle drives and the velocity each takes (smoke scheme):
/// - a face touching a solid cell takes the solids' velocity component normal to it (the
///   average of the two cells when both are solid); faces on domain walls stay zero;
/// - an open face whose two cells have a no-slip solid neighbour across another axis takes
///   the average of those solids' velocity component along the face's axis (no-slip).
/// The values change only with the obstacles, so they are found once per setObstacles().
class DrivenFaces
{
public:
    void build(const FlagGrid &solids, const Domain &domain, const ObstacleMotion &motion);
    bool empty() const { return mIndex[0].empty() && mIndex[1].empty() && mIndex[2].empty(); }
    /// Writes the driven values into `vel` (after enforceVelocityBoundaries).
    void apply(MacGrid &vel) const;
    /// 1 for the no-slip faces of `axis` (a byte per face of its grid), which the viscous solve
    /// holds at their driven values; null when the axis has none.
    const std::uint8_t *noSlipFaces(int axis) const
    {
        return mNoSlip[axis].empty() ? nullptr : mNoSlip[axis].data();
    }
    std::size_t memoryBytes() const;

private:
    std::vector<std::uint32_t> mIndex[3]; ///< flat index in the component's face grid
    std::vector<float> mValue[3];
    std::vector<std::uint8_t> mNoSlip[3]; ///< per face, or empty: none on that axis
};

} // namespace plume::sim::detail
