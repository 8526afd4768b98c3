#pragma once

#include "domain.h"
#include "types.h"

#include <cstdint>
#include <vector>

namespace plume::sim {

/// The neighbour grid of the sph scheme: the domain split into cells at least the kernel radius
/// wide, particles sorted by cell with a stable counting sort (so the order, and every sum over
/// neighbours, is the same with any thread count). Periodic axes wrap: a neighbour across the
/// seam is reported with the shift (+-extent) that brings it next to the query point.
class SphGrid
{
public:
    /// Cells of at least `radius` per axis (one in 2D's z). Periodic axes need 3 or more cells
    /// (checkDomain); other axes may have fewer.
    void setup(const Domain &domain, float radius);

    /// Whether `domain` has room for 3 cells of `radius` along each periodic axis (else a
    /// neighbour could be found twice through the seam).
    static Status checkDomain(const Domain &domain, float radius);

    /// Sorts: `order()[n]` is the old index of the particle that goes to place n, in cell order
    /// and, within a cell, in the old order. Afterwards the caller permutes its arrays so that
    /// the cell ranges refer to the new indices. May throw std::bad_alloc.
    void build(const std::vector<Vec3> &positions);
    const std::vector<std::uint32_t> &order() const { return mOrder; }

    /// Index of the cell holding a world position (clamped to the grid).
    Int3 cellOf(Vec3 p) const;
    int cellIndex(Int3 c) const { return (c.z * mCells.y + c.y) * mCells.x + c.x; }

    /// Calls f(j, shift) for every particle j in the 3^d cells around `p`'s cell, in a fixed
    /// order: positions[j] + shift is the neighbour's image nearest `p` across periodic seams.
    template<class F>
    void forNeighbours(Vec3 p, F &&f) const
    {
        const Int3 c = cellOf(p);
        const int zr = mCells.z > 1 ? 1 : 0;
        for (int dz = -zr; dz <= zr; ++dz) {
            float sz = 0.f;
            int z = c.z + dz;
            if (!wrap(2, z, sz))
                continue;
            for (int dy = -1; dy <= 1; ++dy) {
                float sy = 0.f;
                int y = c.y + dy;
                if (!wrap(1, y, sy))
                    continue;
                const int row = (z * mCells.y + y) * mCells.x;
                if (c.x > 0 && c.x + 1 < mCells.x) {
                    // The three cells of the row are one run of the sorted particles.
                    const Vec3 shift{0.f, sy, sz};
                    for (std::uint32_t j = mStart[row + c.x - 1]; j < mStart[row + c.x + 2]; ++j)
                        f(j, shift);
                    continue;
                }
                for (int dx = -1; dx <= 1; ++dx) {
                    float sx = 0.f;
                    int x = c.x + dx;
                    if (!wrap(0, x, sx))
                        continue;
                    const Vec3 shift{sx, sy, sz};
                    for (std::uint32_t j = mStart[row + x]; j < mStart[row + x + 1]; ++j)
                        f(j, shift);
                }
            }
        }
    }

    Int3 cells() const { return mCells; }
    std::size_t memoryBytes() const;

private:
    /// Brings neighbour cell coordinate `v` on `axis` into the grid; false when it lies
    /// outside a non-periodic axis. `shift` is what to add to a neighbour's position.
    bool wrap(int axis, int &v, float &shift) const
    {
        if (v >= 0 && v < mCells[axis])
            return true;
        if (!mPeriodic[axis])
            return false;
        // A cell below the grid is the last one, seen one extent lower.
        shift = v < 0 ? -mExtent[axis] : mExtent[axis];
        v = v < 0 ? v + mCells[axis] : v - mCells[axis];
        return true;
    }

    Vec3 mOrigin;
    Vec3 mExtent;
    Vec3 mInvCell; ///< cells per world unit, per axis
    Int3 mCells{1, 1, 1};
    bool mPeriodic[3] = {false, false, false};
    std::vector<std::uint32_t> mKeys;  ///< cell of each particle (scratch)
    std::vector<std::uint32_t> mStart; ///< first particle of each cell; cells + 1 entries
    std::vector<std::uint32_t> mOrder;
};

} // namespace plume::sim
