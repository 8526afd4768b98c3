// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace plume::sim {

/// Monotone cubic Hermite interpolation (Fritsch and Carlson 1980) between f1 (t = 0) and f2
/// (t = 1) of four equally spaced samples f0..f3, t in [0, 1].
///
/// The slopes at f1 and f2 are the central differences, set to zero where the data has a
/// local extremum (the two differences around the sample differ in sign or one is zero) and
/// limited to 3 |f2 - f1|: inside that square of slopes the cubic is monotone on [0, 1], so
/// its value always lies between f1 and f2. Linear data gives the linear interpolant; smooth
/// data a third order accurate one. Fedkiw, Stam and Jensen (2001) advect smoke with it.
inline float monotoneCubic(float f0, float f1, float f2, float f3, float t)
{
    const float d0 = f1 - f0;
    const float d1 = f2 - f1;
    const float d2 = f3 - f2;
    const float limit = 3.f * std::fabs(d1);
    float m1 = d0 * d1 > 0.f ? std::clamp(0.5f * (d0 + d1), -limit, limit) : 0.f;
    float m2 = d1 * d2 > 0.f ? std::clamp(0.5f * (d1 + d2), -limit, limit) : 0.f;
    // Hermite form around f1: f1 + t (m1 + t (c2 + t c3)).
    const float c2 = 3.f * d1 - 2.f * m1 - m2;
    const float c3 = m1 + m2 - 2.f * d1;
    const float v = f1 + t * (m1 + t * (c2 + t * c3));
    // Rounding may step a hair outside [f1, f2]; the bound is exact.
    return std::clamp(v, std::min(f1, f2), std::max(f1, f2));
}

/// Four floats in one register (GCC's and Clang's vector extension: every operation acts
/// lane by lane, with the scalar's IEEE arithmetic).
using Float4 = float __attribute__((vector_size(16)));

/// monotoneCubic on four independent sets of samples with one t: lane n is exactly
/// monotoneCubic(f0[n], f1[n], f2[n], f3[n], t), bit for bit. Every step is the scalar's, in
/// its order: |x| clears the sign bit as fabs does, and each min, max and clamp is the
/// comparison and choice that std::min, std::max and std::clamp make, so signed zeros come
/// out as they do there.
inline Float4 monotoneCubic(Float4 f0, Float4 f1, Float4 f2, Float4 f3, float t)
{
    using Int4 = std::int32_t __attribute__((vector_size(16)));
    const auto abs = [](Float4 x) { return Float4(Int4(x) & 0x7fffffff); };
    const auto clamp = [](Float4 x, Float4 lo, Float4 hi) {
        return x < lo ? lo : (hi < x ? hi : x);
    };
    const Float4 zero{};
    const Float4 d0 = f1 - f0;
    const Float4 d1 = f2 - f1;
    const Float4 d2 = f3 - f2;
    const Float4 limit = 3.f * abs(d1);
    const Float4 m1 = d0 * d1 > zero ? clamp(0.5f * (d0 + d1), -limit, limit) : zero;
    const Float4 m2 = d1 * d2 > zero ? clamp(0.5f * (d1 + d2), -limit, limit) : zero;
    const Float4 c2 = 3.f * d1 - 2.f * m1 - m2;
    const Float4 c3 = m1 + m2 - 2.f * d1;
    const Float4 v = f1 + t * (m1 + t * (c2 + t * c3));
    return clamp(v, f2 < f1 ? f2 : f1, f1 < f2 ? f2 : f1);
}

} // namespace plume::sim
