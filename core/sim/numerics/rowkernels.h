// SPDX-License-Identifier: Apache-2.0
#pragma once
// Row kernels in double over four fixed lanes, so sums do not depend on how rows are grouped:
// shared by the pressure solve's multigrid and the CFL scan of advection.

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>

namespace plume::sim {

// Largest |v[i]| of a row; +inf when a NaN is present. Non-negative floats order like their
// bit patterns (NaN above inf), so the maximum is taken on integers.
inline double rowAbsMax(const float *v, int n)
{
    std::uint32_t m = 0;
    for (int i = 0; i < n; ++i)
        m = std::max(m, std::bit_cast<std::uint32_t>(v[i]) & 0x7fffffffu);
    return m > 0x7f800000u ? std::numeric_limits<double>::infinity()
                           : double(std::bit_cast<float>(m));
}

// Sum of a[i] * b[i] (b == nullptr: of a[i]) in double, over four fixed lanes.
inline double rowDot(const float *a, const float *b, int n)
{
    double lane[4] = {0.0, 0.0, 0.0, 0.0};
    int i = 0;
    for (; i + 4 <= n; i += 4)
        for (int q = 0; q < 4; ++q)
            lane[q] += double(a[i + q]) * (b ? double(b[i + q]) : 1.0);
    for (; i < n; ++i)
        lane[0] += double(a[i]) * (b ? double(b[i]) : 1.0);
    return (lane[0] + lane[1]) + (lane[2] + lane[3]);
}

} // namespace plume::sim
