// SPDX-License-Identifier: Apache-2.0
#pragma once

// Divergence-free curl noise for the turbulence force fields: 4D improved gradient noise
// (Perlin 2002, "Improving noise": quintic fade, 32 gradients in 4D) as a vector potential whose
// curl is taken analytically (Bridson, Hourihan and Nordenstam 2007), at single points and
// along whole grid rows. Pure functions: no global state.

#include <core/sim/base/types.h>

#include <cstdint>

namespace plume::sim {

/// Divergence-free curl noise: the curl of a smooth vector potential made of gradient noise,
/// evolving with time. Unit-free: positions are in noise periods; the result has magnitude of
/// order 1. In 2D the potential is a scalar (the z component) and the result lies in the xy
/// plane; p.z is ignored.
///
/// The potential's three channels are independent 4D improved Perlin noises (quintic fade,
/// seeded hash, time as the 4th coordinate); the curl is taken analytically from their
/// derivatives, so the field is exactly divergence-free in the continuum. RMS |result| is about
/// 1 in 2D and 3D.
Vec3 curlNoise(Vec3 p, float time, std::uint32_t seed, bool is2D);

/// Scales the potential so that curl noise has an RMS magnitude of about 1 (measured over
/// 10^5 random points; the 2D curl has one potential channel instead of three).
inline float noiseGain(bool is2D) { return is2D ? 0.95f : 0.57f; }

/// Noise coordinates are clamped to this so that the lattice index fits an int.
constexpr float kMaxCoord = 1.0e8f;

/// Integer avalanche of Wellons' "lowbias32" hash.
inline std::uint32_t mix32(std::uint32_t h)
{
    h ^= h >> 16;
    h *= 0x7FEB352Du;
    h ^= h >> 15;
    h *= 0x846CA68Bu;
    h ^= h >> 16;
    return h;
}

/// Seed of one potential channel: three statistically independent noises per user seed.
inline std::uint32_t channelSeed(std::uint32_t seed, int channel)
{
    return mix32(seed ^ (0x9E3779B9u * std::uint32_t(channel + 1)));
}

/// One coordinate split into lattice cell, fraction, quintic fade and its derivative.
struct Lattice1
{
    int i = 0;
    float f = 0.f;
    float s = 0.f;
    float ds = 0.f;
};

/// Quintic fade 6t^5 - 15t^4 + 10t^3 (Perlin 2002) and its derivative. Written without libm
/// calls (floor, fmin) because it runs once per sample; NaN clamps to -kMaxCoord.
inline Lattice1 lattice(float q)
{
    q = q > -kMaxCoord ? q : -kMaxCoord;
    q = q < kMaxCoord ? q : kMaxCoord;
    int i = int(q);
    i -= q < float(i) ? 1 : 0;
    const float t = q - float(i);
    return {i, t, t * t * t * (t * (t * 6.f - 15.f) + 10.f), 30.f * t * t * (t - 1.f) * (t - 1.f)};
}

/// The time coordinate, split in double precision so that long simulations keep their detail.
inline Lattice1 latticeTime(double tau)
{
    tau = std::fmax(-double(kMaxCoord), std::fmin(double(kMaxCoord), tau));
    const double fl = std::floor(tau);
    Lattice1 l = lattice(float(tau - fl));
    l.i += int(fl);
    return l;
}

/// Curl of the gradient-noise vector potential (Bridson et al. 2007), time split as a lattice.
Vec3 curlNoiseAt(Vec3 q, Lattice1 lw, std::uint32_t seed, bool is2D);

/// Scalar 4D improved gradient noise (Perlin 2002) at q (in noise periods) and the time
/// lattice lw: smooth (quintic fade), 0 at every lattice node; RMS 0.29 and |value| <= 1.05
/// over 4 * 10^5 random points.
/// The same lattice hash as the curl noise.
float gradientNoise(Vec3 q, Lattice1 lw, std::uint32_t seed);

/// Where the samples of a row lie along x: q_i = (origin + (i + offset) * h) / scale.
struct RowX
{
    float origin, offset, h, invScale;
};

/// Gradient noise times `gain` at the points (q_i, y, z, w), i in [i0, i1], into out[i].
/// q_i grows with i, so the row splits into runs inside one lattice interval along x; in each
/// the noise is lerp(fade(fx), A0 + B0 fx, A1 + B1 (fx - 1)) with the 16 corner gradients
/// hashed once per run, and the per-point loop is branch-free.
void noiseRow(float *out, int i0, int i1, const RowX &rx, Lattice1 ly, Lattice1 lz, Lattice1 lw,
              std::uint32_t seed, float gain);

} // namespace plume::sim
