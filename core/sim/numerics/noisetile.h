// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/types.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace plume::sim {

/// A periodic tile of divergence-free, band-limited vector noise: the sub-grid turbulence of
/// upres (core/sim/upres, docs/upres.md), after the wavelet noise of Cook and DeRose (2005) as
/// Kim et al. (2008) use it.
///
/// Each of three potentials (one in 2D) is white noise hashed from the seed, band-passed by the
/// difference of two periodic binomial blurs, so that it has neither grid-scale content (which
/// would show as grain) nor large scales (which the simulation resolves); the tile is the curl of
/// the potentials by central differences, scaled so that its root-mean-square length is 1.
/// Features are about kWavelength samples across. Built once (a few milliseconds), read with
/// trilinear interpolation at any position, wrapping every kSize samples.
class NoiseTile
{
public:
    static constexpr int kSize = 64;          ///< samples per axis (a power of two)
    static constexpr float kWavelength = 4.f; ///< typical feature size, samples

    NoiseTile() = default;
    /// Builds the tile for a 2D (x, y components) or 3D domain. May throw std::bad_alloc.
    NoiseTile(bool threeD, std::uint32_t seed);

    bool empty() const { return mData.empty(); }
    bool is3D() const { return mThreeD; }

    /// The noise at `p` (samples), trilinear, periodic. In 2D p.z is ignored and z is 0.
    Vec3 at(Vec3 p) const
    {
        // Shifted by a whole number of tiles so that truncation floors (no call to floor in
        // the inner loop); positions below -kBias wrap wrongly but stay in the tile.
        constexpr int m = kSize - 1;
        constexpr float kBias = 64.f * kSize;
        const float sx = p.x + kBias, sy = p.y + kBias;
        const int ix = int(sx), iy = int(sy);
        const int x0 = ix & m, y0 = iy & m;
        const int x1 = (x0 + 1) & m, y1 = (y0 + 1) & m;
        const float tx = sx - float(ix), ty = sy - float(iy);
        if (!mThreeD) {
            const float *r0 = &mData[std::size_t(y0 * kSize) * 2];
            const float *r1 = &mData[std::size_t(y1 * kSize) * 2];
            Vec3 out{0.f, 0.f, 0.f};
            for (int c = 0; c < 2; ++c) {
                const float a = r0[2 * x0 + c] + tx * (r0[2 * x1 + c] - r0[2 * x0 + c]);
                const float b = r1[2 * x0 + c] + tx * (r1[2 * x1 + c] - r1[2 * x0 + c]);
                out[c] = a + ty * (b - a);
            }
            return out;
        }
        const float sz = p.z + kBias;
        const int iz = int(sz);
        const int z0 = iz & m, z1 = (z0 + 1) & m;
        const float tz = sz - float(iz);
        // Four floats a sample (x, y, z, 0): each corner is one 16-byte load and the lerps run
        // on all three components at once.
        using V4 = float __attribute__((vector_size(16)));
        const std::size_t s = kSize;
        auto corner = [&](int z, int y, int x) {
            V4 v;
            std::memcpy(&v,
                        &mData[4 * ((std::size_t(z) * s + std::size_t(y)) * s + std::size_t(x))],
                        sizeof v);
            return v;
        };
        const V4 p00 = corner(z0, y0, x0) + tx * (corner(z0, y0, x1) - corner(z0, y0, x0));
        const V4 p01 = corner(z0, y1, x0) + tx * (corner(z0, y1, x1) - corner(z0, y1, x0));
        const V4 p10 = corner(z1, y0, x0) + tx * (corner(z1, y0, x1) - corner(z1, y0, x0));
        const V4 p11 = corner(z1, y1, x0) + tx * (corner(z1, y1, x1) - corner(z1, y1, x0));
        const V4 lo = p00 + ty * (p01 - p00);
        const V4 hi = p10 + ty * (p11 - p10);
        const V4 out = lo + tz * (hi - lo);
        return {out[0], out[1], out[2]};
    }

    /// The tile's samples, x fastest: two floats each in 2D, four in 3D (x, y, z and a 0 that
    /// pads each to 16 bytes). For tests.
    const std::vector<float> &samples() const { return mData; }

private:
    std::vector<float> mData;
    bool mThreeD = false;
};

} // namespace plume::sim
