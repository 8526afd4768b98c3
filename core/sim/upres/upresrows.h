// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to core/sim/upres: what the upres solver's two files share. upressolver.cpp has the
// step, the coarse samples, the smoke's box, the noise coordinates and the solver interface;
// finetransport.cpp moves the fine fields (trace, follow, correction, match).

#include <core/sim/base/grid.h>
#include <core/sim/base/parallel.h>
#include <core/sim/base/types.h>
#include <core/sim/numerics/sampling.h>

#include <cmath>
#include <cstddef>

namespace plume::sim::upres {

/// Where the two coordinate sets and the octaves read the tile, so that none repeats another.
inline constexpr Vec3 kTileOffset[2] = {{0.f, 0.f, 0.f}, {23.37f, 41.71f, 11.13f}};
inline constexpr Vec3 kOctaveOffset{13.3f, 7.9f, 29.3f};

/// The set's fade weight at `time`: a triangle over its lifetime, 0 when it starts afresh.
/// The two sets are half a lifetime apart, so their weights add up to 1.
inline float setWeight(double time, float lifetime, int set)
{
    const double phase = time / lifetime + 0.5 * set;
    const double f = phase - std::floor(phase);
    return float(1.0 - std::abs(2.0 * f - 1.0));
}

/// Rows of a box: calls body(j, k) for rows of `box` (absolute cell indices).
template<class F>
void forEachBoxRow(const CellBox &box, F &&body)
{
    const Int3 n = box.size();
    forEachRow(n, [&](int j, int k) { body(box.lo.y + j, box.lo.z + k); });
}

inline CellBox scaled(const CellBox &b, Int3 f)
{
    return {{b.lo.x * f.x, b.lo.y * f.y, b.lo.z * f.z}, {b.hi.x * f.x, b.hi.y * f.y, b.hi.z * f.z}};
}

/// The four rows of a cell-centred coarse grid around a fine row at coarse coordinates (y, z),
/// and the weights between them: each grid interpolated in y and z once per fine row becomes a
/// line along x from which every fine cell takes one lerp.
struct RowStencil
{
    std::size_t r00 = 0, r01 = 0, r10 = 0, r11 = 0;
    float fy = 0.f, fz = 0.f;
    bool k3D = true;

    RowStencil(const detail::GridMap &map, float y, float z, bool threeD)
        : k3D(threeD)
    {
        const detail::Lerp ly = detail::locate(map.axis[1], y);
        const detail::Lerp lz = k3D ? detail::locate(map.axis[2], z) : detail::Lerp{};
        r00 = map.sy * std::size_t(ly.i0) + map.sz * std::size_t(lz.i0);
        r01 = map.sy * std::size_t(ly.i1) + map.sz * std::size_t(lz.i0);
        r10 = map.sy * std::size_t(ly.i0) + map.sz * std::size_t(lz.i1);
        r11 = map.sy * std::size_t(ly.i1) + map.sz * std::size_t(lz.i1);
        fy = ly.f;
        fz = lz.f;
    }

    /// line[i] for i in [first, end): grid `q` interpolated in y and z at x sample i.
    void line(const float *q, int first, int end, float *line) const
    {
        for (int i = first; i < end; ++i) {
            const std::size_t x = std::size_t(i);
            const float a = q[r00 + x] + fy * (q[r01 + x] - q[r00 + x]);
            if (!k3D) {
                line[i] = a;
                continue;
            }
            const float b = q[r10 + x] + fy * (q[r11 + x] - q[r10 + x]);
            line[i] = a + fz * (b - a);
        }
    }
};

} // namespace plume::sim::upres
