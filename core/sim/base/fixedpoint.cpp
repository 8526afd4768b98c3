// SPDX-License-Identifier: Apache-2.0
#include <core/sim/base/fixedpoint.h>

#include <algorithm>
#include <utility>

namespace plume::sim {

void FixedGrid::reshape(Int3 size, Vec3 offset, Fixed value)
{
    mSize = size;
    mOffset = offset;
    mData.assign(std::size_t(size.volume()), value);
}

void FixedGrid::fill(Fixed value) { std::fill(mData.begin(), mData.end(), value); }

void FixedGrid::swap(FixedGrid &other) noexcept
{
    std::swap(mSize, other.mSize);
    std::swap(mOffset, other.mOffset);
    mData.swap(other.mData);
}

} // namespace plume::sim
