// SPDX-License-Identifier: Apache-2.0
#include <core/sim/base/grid.h>

#include <core/sim/base/parallel.h>

#include <algorithm>
#include <bit>
#include <climits>
#include <cstdint>
#include <cstring>

namespace plume::sim {

void ScalarGrid::reshape(Int3 size, Vec3 offset, float value)
{
    mSize = size;
    mOffset = offset;
    mData.assign(std::size_t(size.volume()), value);
}

void ScalarGrid::reshapeForOverwrite(Int3 size, Vec3 offset)
{
    mSize = size;
    mOffset = offset;
    mData.resize(std::size_t(size.volume()));
}

void ScalarGrid::fill(float value) { std::fill(mData.begin(), mData.end(), value); }

void ScalarGrid::swap(ScalarGrid &other) noexcept
{
    std::swap(mSize, other.mSize);
    std::swap(mOffset, other.mOffset);
    mData.swap(other.mData);
}

bool ScalarGrid::identical(const ScalarGrid &other) const
{
    // An empty grid has no data pointer, and memcmp must not be given a null one.
    return mSize == other.mSize && mOffset == other.mOffset && mData.size() == other.mData.size()
           && (mData.empty()
               || std::memcmp(mData.data(), other.mData.data(), mData.size() * sizeof(float)) == 0);
}

void MacGrid::reshape(Int3 cells)
{
    mCells = cells;
    u.reshape(faceGridSize(cells, 0), kFaceX);
    v.reshape(faceGridSize(cells, 1), kFaceY);
    // In 2D the z-face grid is kept tiny: w is identically zero and never read.
    w.reshape(cells.z > 1 ? faceGridSize(cells, 2) : Int3{0, 0, 0}, kFaceZ);
}

void MacGrid::swap(MacGrid &other) noexcept
{
    std::swap(mCells, other.mCells);
    u.swap(other.u);
    v.swap(other.v);
    w.swap(other.w);
}

void FlagGrid::reshape(Int3 cells)
{
    mSize = cells;
    mData.assign(std::size_t(cells.volume()), 0);
}

bool FlagGrid::anySolid() const
{
    // Blocks of 64 flags or-ed together (vectorised), then the tail.
    constexpr std::size_t kBlock = 64;
    const std::uint8_t *f = mData.data();
    const std::size_t n = mData.size();
    std::size_t i = 0;
    for (; i + kBlock <= n; i += kBlock) {
        std::uint8_t any = 0;
        for (std::size_t b = 0; b < kBlock; ++b)
            any |= f[i + b];
        if (any)
            return true;
    }
    for (; i < n; ++i) {
        if (f[i])
            return true;
    }
    return false;
}

SparseMask SparseMask::fromDense(const ScalarGrid &coverage)
{
    SparseMask m;
    for (std::size_t n = 0; n < coverage.count(); ++n) {
        if (coverage[n] > 0.f)
            m.add(std::uint32_t(n), std::min(coverage[n], 1.f));
    }
    return m;
}

Status SparseMask::validate(std::size_t cellCount) const
{
    if (cells.size() != weights.size())
        return Status::failure("mask has " + std::to_string(cells.size()) + " cells but "
                               + std::to_string(weights.size()) + " weights");
    for (std::size_t n = 0; n < cells.size(); ++n) {
        if (cells[n] >= cellCount)
            return Status::failure("mask entry " + std::to_string(n) + ": cell index "
                                   + std::to_string(cells[n]) + " is outside the grid of "
                                   + std::to_string(cellCount) + " cells");
        if (n > 0 && cells[n] <= cells[n - 1])
            return Status::failure("mask entry " + std::to_string(n)
                                   + ": cell indices must be strictly ascending");
        if (!(weights[n] > 0.f && weights[n] <= 1.f))
            return Status::failure("mask entry " + std::to_string(n) + ": weight "
                                   + std::to_string(weights[n]) + " is not in (0, 1]");
    }
    return Status::success();
}

void copyBlock(const ScalarGrid &src, Int3 srcLo, ScalarGrid &dst, Int3 dstLo, Int3 count)
{
    if (count.x <= 0 || count.y <= 0 || count.z <= 0)
        return;
    forEachRow(Int3{1, count.y, count.z}, [&](int j, int k) {
        const float *from = src.data() + src.index(srcLo.x, srcLo.y + j, srcLo.z + k);
        float *to = dst.data() + dst.index(dstLo.x, dstLo.y + j, dstLo.z + k);
        std::memcpy(to, from, std::size_t(count.x) * sizeof(float));
    });
}

bool allFinite(const ScalarGrid &g)
{
    // A float is not finite when its exponent bits are all set.
    const double nonFinite = maxRows(g.size(), [&](int j, int k) {
        const float *row = g.data() + g.index(0, j, k);
        std::uint32_t bad = 0;
        for (int i = 0; i < g.size().x; ++i) {
            const std::uint32_t exponent = std::bit_cast<std::uint32_t>(row[i]) & 0x7f800000u;
            bad |= std::uint32_t(exponent == 0x7f800000u);
        }
        return bad ? 1.0 : 0.0;
    });
    return nonFinite == 0.0;
}

CellBox unite(const CellBox &a, const CellBox &b)
{
    if (a.empty())
        return b;
    if (b.empty())
        return a;
    CellBox u;
    for (int x = 0; x < 3; ++x) {
        u.lo[x] = std::min(a.lo[x], b.lo[x]);
        u.hi[x] = std::max(a.hi[x], b.hi[x]);
    }
    return u;
}

CellBox SparseMask::bounds(Int3 n) const
{
    if (cells.empty())
        return {};
    CellBox b{{INT_MAX, INT_MAX, INT_MAX}, {INT_MIN, INT_MIN, INT_MIN}};
    for (std::uint32_t c : cells) {
        const Int3 p = cellOf(c, n);
        for (int a = 0; a < 3; ++a) {
            b.lo[a] = std::min(b.lo[a], p[a]);
            b.hi[a] = std::max(b.hi[a], p[a] + 1);
        }
    }
    return b;
}

} // namespace plume::sim
