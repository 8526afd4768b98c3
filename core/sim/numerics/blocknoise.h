// SPDX-License-Identifier: Apache-2.0
#pragma once

// Block noise for the disturbance force fields (docs/look.md): one random unit direction per
// block of a lattice and per refresh, hashed from (seed, block, refresh), so that it depends on
// nothing else: not on the thread count, the order of evaluation or the step. Pure functions.

#include <core/sim/base/types.h>
#include <core/sim/numerics/curlnoise.h>

#include <cmath>
#include <cstdint>

namespace plume::sim {

/// The hash of block (a, b, c) at refresh `refresh` under `seed`.
inline std::uint32_t blockHash(std::uint32_t seed, int a, int b, int c, std::int64_t refresh)
{
    std::uint32_t h = mix32(seed ^ 0x68E31DA4u);
    h = mix32(h ^ std::uint32_t(refresh) ^ mix32(std::uint32_t(std::uint64_t(refresh) >> 32)));
    h = mix32(h ^ (std::uint32_t(a) * 0x8DA6B343u));
    h = mix32(h ^ (std::uint32_t(b) * 0xD8163841u));
    return mix32(h ^ (std::uint32_t(c) * 0xCB1AB31Fu));
}

/// A random unit vector for block (a, b, c) at refresh `refresh`, uniform on the sphere (3D)
/// or the circle (2D: z = 0, c ignored).
inline Vec3 blockDirection(std::uint32_t seed, int a, int b, int c, std::int64_t refresh, bool is2D)
{
    const std::uint32_t h1 = blockHash(seed, a, b, is2D ? 0 : c, refresh);
    const std::uint32_t h2 = mix32(h1 ^ 0x9E3779B9u);
    constexpr float kUnit = 1.f / 16777216.f; // 24 bits -> [0, 1)
    const float phi = 6.28318530718f * float(h1 >> 8) * kUnit;
    if (is2D)
        return {std::cos(phi), std::sin(phi), 0.f};
    const float z = 2.f * float(h2 >> 8) * kUnit - 1.f;
    const float r = std::sqrt(std::fmax(0.f, 1.f - z * z));
    return {r * std::cos(phi), r * std::sin(phi), z};
}

/// The smooth blend weight between two block centres: smoothstep 3t^2 - 2t^3, whose zero slope
/// at the centres hides the blocks' edges.
inline float blockFade(float t) { return t * t * (3.f - 2.f * t); }

} // namespace plume::sim
