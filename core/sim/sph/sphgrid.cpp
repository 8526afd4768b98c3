// SPDX-License-Identifier: Apache-2.0
#include <core/sim/sph/sphgrid.h>

#include <core/sim/base/parallel.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace plume::sim {

namespace {

int cellsAlong(float extent, float radius)
{
    return std::max(1, int(std::floor(double(extent) / double(radius))));
}

} // namespace

Status SphGrid::checkDomain(const Domain &domain, float radius)
{
    const Vec3 extent = domain.extent();
    for (int axis = 0; axis < domain.dimensions(); ++axis) {
        if (domain.boundary(axis, false) == Boundary::Periodic
            && cellsAlong(extent[axis], radius) < 3)
            return Status::failure(std::string("the sph scheme needs a periodic axis at least 3 "
                                               "kernel radii long; ")
                                   + "xyz"[axis] + " is " + formatNumber(extent[axis])
                                   + " world units and the kernel radius " + formatNumber(radius));
    }
    return Status::success();
}

void SphGrid::setup(const Domain &domain, float radius)
{
    mOrigin = domain.origin;
    mExtent = domain.extent();
    const int dims = domain.dimensions();
    for (int axis = 0; axis < 3; ++axis) {
        mCells[axis] = axis < dims ? cellsAlong(mExtent[axis], radius) : 1;
        mInvCell[axis] = axis < dims ? float(mCells[axis]) / mExtent[axis] : 0.f;
        mPeriodic[axis] = axis < dims && domain.boundary(axis, false) == Boundary::Periodic;
    }
    mStart.assign(std::size_t(mCells.volume()) + 1, 0);
}

Int3 SphGrid::cellOf(Vec3 p) const
{
    Int3 c{0, 0, 0};
    for (int axis = 0; axis < 3; ++axis) {
        const float v = std::floor((p[axis] - mOrigin[axis]) * mInvCell[axis]);
        // NaN positions land in cell 0 (firstNonFiniteField reports them).
        c[axis] = v >= 0.f ? std::min(int(std::min(v, 1e9f)), mCells[axis] - 1) : 0;
    }
    return c;
}

void SphGrid::build(const std::vector<Vec3> &positions)
{
    const std::size_t n = positions.size();
    mKeys.resize(n);
    mOrder.resize(n);
    detail::forRowChunks(std::int64_t(n), [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t i = begin; i < end; ++i)
            mKeys[std::size_t(i)] = std::uint32_t(cellIndex(cellOf(positions[std::size_t(i)])));
    });
    // Stable counting sort: counts, exclusive prefix sums, then a scatter in the old order.
    std::fill(mStart.begin(), mStart.end(), 0u);
    for (std::uint32_t key : mKeys)
        ++mStart[key + 1];
    for (std::size_t c = 1; c < mStart.size(); ++c)
        mStart[c] += mStart[c - 1];
    std::vector<std::uint32_t> next(mStart.begin(), mStart.end() - 1);
    for (std::size_t i = 0; i < n; ++i)
        mOrder[next[mKeys[i]]++] = std::uint32_t(i);
}

void SphGrid::gather(Int3 c, const std::vector<Vec3> &positions, Neighbourhood &near) const
{
    std::size_t count = 0;
    forNeighbourRuns(c,
                     [&](std::uint32_t first, std::uint32_t last, Vec3) { count += last - first; });
    const std::size_t padded = (count + kLanes - 1) / kLanes * kLanes;
    for (std::vector<float> *v : {&near.x, &near.y, &near.z})
        v->resize(padded);
    near.index.resize(padded);
    near.within.resize(padded);
    for (std::vector<float> &w : near.work)
        w.resize(padded);
    for (std::size_t n = count; n < padded; ++n) {
        near.x[n] = near.y[n] = near.z[n] = kFar;
        near.index[n] = ~0u;
    }
    std::size_t n = 0;
    forNeighbourRuns(c, [&](std::uint32_t first, std::uint32_t last, Vec3 shift) {
        for (std::uint32_t j = first; j < last; ++j, ++n) {
            const Vec3 p = positions[j] + shift;
            near.x[n] = p.x;
            near.y[n] = p.y;
            near.z[n] = p.z;
            near.index[n] = j;
        }
    });
}

std::size_t SphGrid::memoryBytes() const
{
    return (mKeys.capacity() + mStart.capacity() + mOrder.capacity()) * sizeof(std::uint32_t);
}

} // namespace plume::sim
