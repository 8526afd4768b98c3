// SPDX-License-Identifier: Apache-2.0
#pragma once

// The sparse smoke scheme's active tiles as the stages see them (issue 36, docs/adaptive.md):
// the velocity's advection and the vorticity confinement work only next to live tiles. The
// flags come from sparse/activetiles.h (one byte per tile of kTile^3 cells, x fastest); this
// layer sits below it and takes them as an array.

#include <core/sim/base/domain.h>
#include <core/sim/base/types.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

namespace plume::sim {

/// Which tiles of a domain are live, and the runs of a grid row next to them.
class LiveTiles
{
public:
    static constexpr int kTile = 8;

    /// No tiles: every sample is live (forFaces; forCells needs the domain's constructor).
    LiveTiles() = default;
    /// `flags`: one per tile, tiles = ceil(cells / kTile) per axis; null: every cell is live.
    /// Keeps the pointer: the array must outlive the calls that follow.
    LiveTiles(const Domain &domain, const std::uint8_t *flags)
        : mFlags(flags)
        , mCells(domain.cells)
    {
        for (int a = 0; a < 3; ++a) {
            mTiles[a] = (mCells[a] + kTile - 1) / kTile;
            mPeriodic[std::size_t(a)] = domain.boundary(a, false) == Boundary::Periodic
                                        && domain.boundary(a, true) == Boundary::Periodic;
        }
        if (mTiles.x > kMaxTiles) // beyond any domain the solvers take: every cell is live
            mFlags = nullptr;
    }

    explicit operator bool() const { return mFlags != nullptr; }

    /// Calls run(from, to) for the runs of samples [from, to) of row (j, k) of the face grid of
    /// `faceAxis` (size.x samples along x) whose faces have a cell of a live tile on either
    /// side, across a periodic seam too; in order.
    template<class Run>
    void forFaces(Int3 size, int faceAxis, int j, int k, Run &&run) const
    {
        if (!mFlags) {
            run(0, size.x);
            return;
        }
        Columns live;
        live.mark(*this, faceAxis == 1 ? j - 1 : j, j, faceAxis == 2 ? k - 1 : k, k);
        forRuns(size.x, run, [&](int i) {
            if (faceAxis != 0)
                return live[i / kTile];
            return live[cellAt(0, i - 1) / kTile] || live[cellAt(0, i) / kTile];
        });
    }

    /// Calls run(from, to) for the runs of cells [from, to) of row (j, k) that lie within
    /// `dilate` cells (Chebyshev distance, across periodic sides) of a cell of a live tile, in
    /// order; the whole row without flags.
    template<class Run>
    void forCells(int j, int k, int dilate, Run &&run) const
    {
        if (!mFlags) {
            run(0, mCells.x);
            return;
        }
        Columns live;
        live.mark(*this, j - dilate, j + dilate, k - dilate, k + dilate);
        forRuns(mCells.x, run, [&](int i) {
            for (int x = i - dilate; x <= i + dilate; ++x)
                if (live[cellAt(0, x) / kTile])
                    return true;
            return false;
        });
    }

private:
    static constexpr int kMaxTiles = 65536 / kTile;

    /// Per tile column along x: whether a live tile lies in it among the tiles holding some
    /// cell rows along y and z.
    struct Columns
    {
        std::array<bool, kMaxTiles> any; // the first tiles.x are set by mark()
        bool operator[](int tx) const { return any[std::size_t(tx)]; }
        /// The tile rows holding the cells [y0, y1] x [z0, z1] (wrapped or clipped).
        void mark(const LiveTiles &t, int y0, int y1, int z0, int z1)
        {
            int ys[2][2], zs[2][2];
            const int ny = t.ranges(1, y0, y1, ys), nz = t.ranges(2, z0, z1, zs);
            const std::size_t tx = std::size_t(t.mTiles.x);
            std::fill_n(any.begin(), tx, false);
            for (int a = 0; a < nz; ++a)
                for (int tz = zs[a][0]; tz <= zs[a][1]; ++tz)
                    for (int b = 0; b < ny; ++b)
                        for (int ty = ys[b][0]; ty <= ys[b][1]; ++ty) {
                            const std::uint8_t *row =
                                t.mFlags + tx * (std::size_t(ty) + std::size_t(t.mTiles.y) * tz);
                            for (std::size_t x = 0; x < tx; ++x)
                                any[x] = any[x] || row[x] != 0;
                        }
        }
    };

    /// Cell c along `axis`, wrapped on a periodic axis, clamped otherwise.
    int cellAt(int axis, int c) const
    {
        const int n = mCells[axis];
        if (mPeriodic[std::size_t(axis)])
            return ((c % n) + n) % n;
        return std::clamp(c, 0, n - 1);
    }

    /// The tiles [first, last] along `axis` holding the cells [lo, hi]: one range, or two
    /// across a periodic seam. Returns how many.
    int ranges(int axis, int lo, int hi, int out[2][2]) const
    {
        const int n = mCells[axis];
        if (mPeriodic[std::size_t(axis)] && hi - lo + 1 >= n) {
            out[0][0] = 0;
            out[0][1] = mTiles[axis] - 1;
            return 1;
        }
        lo = cellAt(axis, lo);
        hi = cellAt(axis, hi);
        if (lo <= hi) {
            out[0][0] = lo / kTile;
            out[0][1] = hi / kTile;
            return 1;
        }
        out[0][0] = 0; // wrapped: [0, hi] and [lo, n)
        out[0][1] = hi / kTile;
        out[1][0] = lo / kTile;
        out[1][1] = mTiles[axis] - 1;
        return 2;
    }

    /// run(from, to) for the maximal runs of i in [0, length) where live(i).
    template<class Run, class Live>
    static void forRuns(int length, Run &run, Live &&live)
    {
        int i = 0;
        while (i < length) {
            if (!live(i)) {
                ++i;
                continue;
            }
            const int from = i;
            while (i < length && live(i))
                ++i;
            run(from, i);
        }
    }

    const std::uint8_t *mFlags = nullptr;
    Int3 mCells{0, 0, 0};
    Int3 mTiles{0, 0, 0};
    std::array<bool, 3> mPeriodic{};
};

} // namespace plume::sim
