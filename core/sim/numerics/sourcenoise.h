// SPDX-License-Identifier: Apache-2.0
#pragma once

// The noise of noisy emitters (docs/look.md): a smooth scalar gradient noise in [-1, 1] of the
// cell's world position and the simulation time, so that it depends on nothing else (not the
// thread count, not where the substeps fall). Pure functions.

#include <core/sim/base/sources.h>
#include <core/sim/base/types.h>
#include <core/sim/numerics/curlnoise.h>

#include <algorithm>
#include <cstdint>

namespace plume::sim {

/// Scales gradientNoise (RMS 0.29) to an RMS of about 0.44; the clamp to [-1, 1] then touches
/// about 1 % of the points.
inline constexpr float kSourceNoiseGain = 1.5f;

/// n(x, t) = clamp(kSourceNoiseGain * gradientNoise(x / size, t * speed), -1, 1) at world
/// position `world` (2D: z is ignored) and simulation time `time` in seconds.
inline float sourceNoise(const EmitterNoise &noise, Vec3 world, double time, bool is2D)
{
    const float inv = 1.f / noise.size;
    const Vec3 q{world.x * inv, world.y * inv, is2D ? 0.f : world.z * inv};
    const float n = kSourceNoiseGain
                    * gradientNoise(q, latticeTime(time * double(noise.speed)),
                                    mix32(noise.seed ^ 0x2545F491u));
    return std::clamp(n, -1.f, 1.f);
}

/// The factor an emitter's rates are multiplied by: max(0, 1 + amplitude * n).
inline float sourceNoiseFactor(const EmitterNoise &noise, Vec3 world, double time, bool is2D)
{
    if (!noise.active())
        return 1.f;
    return std::max(0.f, 1.f + noise.amplitude * sourceNoise(noise, world, time, is2D));
}

} // namespace plume::sim
