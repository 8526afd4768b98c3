// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/domain.h>
#include <core/sim/base/parallel.h>
#include <core/sim/base/types.h>

#include <cmath>
#include <cstdint>
#include <cstring>
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
        forNeighbourRuns(cellOf(p), [&](std::uint32_t first, std::uint32_t last, Vec3 shift) {
            for (std::uint32_t j = first; j < last; ++j)
                f(j, shift);
        });
    }

    /// Four floats the compiler keeps in one SSE register (a GCC/Clang vector extension): the
    /// neighbourhood loops take four entries at a time, always summing lane by lane in the
    /// same order, so vectorised sums do not depend on the thread count.
    using Lanes = float __attribute__((vector_size(16)));
    static constexpr std::size_t kLanes = 4;
    /// Where the padding entries of a Neighbourhood lie: farther from any particle than any
    /// kernel reaches, yet small enough that its square stays finite.
    static constexpr float kFar = 1e18f;

    /// The particles of one cell's 3^d neighbourhood (the cell included), gathered as
    /// structure of arrays with the periodic shifts applied, in forNeighbours' order: what every
    /// particle of the cell sums over, laid out for vector loops. The arrays are padded to a
    /// multiple of kLanes with entries at kFar (index ~0u).
    struct Neighbourhood
    {
        std::vector<float> x, y, z;
        std::vector<std::uint32_t> index; ///< the particle each entry is an image of
        std::size_t size() const { return index.size(); }
        /// Scratch for the caller, as long as the arrays above, kept here so that it is
        /// allocated once per chunk of cells.
        std::vector<std::uint32_t> within;
        std::vector<float> work[8];
        /// Entries c .. c + kLanes - 1 of an array, as a vector.
        static Lanes load(const std::vector<float> &a, std::size_t c)
        {
            Lanes v;
            std::memcpy(&v, a.data() + c, sizeof v);
            return v;
        }
    };

    /// The square root of each lane (one SSE instruction where there is SSE).
    static Lanes sqrt(Lanes v)
    {
#if defined(__SSE__)
        return __builtin_ia32_sqrtps(v);
#else
        for (std::size_t l = 0; l < kLanes; ++l)
            v[l] = std::sqrt(v[l]);
        return v;
#endif
    }
    /// Whether any lane of a comparison's result is true.
    template<class Mask>
    static bool any(const Mask &mask)
    {
        std::uint64_t bits[2];
        static_assert(sizeof mask == sizeof bits);
        std::memcpy(bits, &mask, sizeof bits);
        return (bits[0] | bits[1]) != 0;
    }
    /// The lanes added up in a fixed order.
    static float sum(Lanes v) { return (v[0] + v[1]) + (v[2] + v[3]); }

    /// Calls body(first, last, near) for every cell holding particles, cells in parallel:
    /// particles [first, last) lie in the cell and `near` is its neighbourhood. The body must
    /// write only the outputs of particles [first, last). May throw std::bad_alloc.
    template<class F>
    void forEachCell(const std::vector<Vec3> &positions, F &&body) const
    {
        const std::int64_t cells = mCells.volume();
        detail::forRowChunks(cells, [&](std::int64_t begin, std::int64_t end) {
            Neighbourhood near;
            for (std::int64_t cell = begin; cell < end; ++cell) {
                const std::uint32_t first = mStart[std::size_t(cell)];
                const std::uint32_t last = mStart[std::size_t(cell) + 1];
                if (first == last)
                    continue;
                const Int3 c{int(cell % mCells.x), int(cell / mCells.x % mCells.y),
                             int(cell / (std::int64_t(mCells.x) * mCells.y))};
                gather(c, positions, near);
                body(first, last, near);
            }
        });
    }

    Int3 cells() const { return mCells; }
    std::size_t memoryBytes() const;

private:
    /// Calls f(first, last, shift) for each run of sorted particles in the 3^d cells around
    /// cell `c`, in a fixed order (z, then y, then x outermost first); positions + shift are the
    /// images nearest the cell across periodic seams.
    template<class F>
    void forNeighbourRuns(Int3 c, F &&f) const
    {
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
                    f(mStart[row + c.x - 1], mStart[row + c.x + 2], Vec3{0.f, sy, sz});
                    continue;
                }
                for (int dx = -1; dx <= 1; ++dx) {
                    float sx = 0.f;
                    int x = c.x + dx;
                    if (wrap(0, x, sx))
                        f(mStart[row + x], mStart[row + x + 1], Vec3{sx, sy, sz});
                }
            }
        }
    }

    void gather(Int3 c, const std::vector<Vec3> &positions, Neighbourhood &near) const;

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
