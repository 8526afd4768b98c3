// SPDX-License-Identifier: Apache-2.0
#include <core/sim/numerics/noisetile.h>

#include <core/sim/numerics/curlnoise.h>

#include <cmath>

namespace plume::sim {

namespace {

constexpr int kN = NoiseTile::kSize;
constexpr int kMask = kN - 1;

/// One pass of the periodic binomial blur [1 2 1] / 4 along `axis` of a tile (2D or 3D).
void blurAxis(std::vector<float> &g, int axis)
{
    std::vector<float> row(kN);
    const std::size_t stride = axis == 0 ? 1 : (axis == 1 ? kN : std::size_t(kN) * kN);
    const std::size_t lines = g.size() / kN;
    for (std::size_t l = 0; l < lines; ++l) {
        // The first sample of line l: lines run over the other axes in order.
        std::size_t base;
        if (axis == 0)
            base = l * kN;
        else if (axis == 1)
            base = (l / kN) * kN * kN + (l % kN);
        else
            base = l;
        for (int i = 0; i < kN; ++i)
            row[std::size_t(i)] = g[base + std::size_t(i) * stride];
        for (int i = 0; i < kN; ++i)
            g[base + std::size_t(i) * stride] = 0.25f * row[std::size_t((i - 1) & kMask)]
                                                + 0.5f * row[std::size_t(i)]
                                                + 0.25f * row[std::size_t((i + 1) & kMask)];
    }
}

void blur(std::vector<float> &g, int dims, int passes)
{
    for (int p = 0; p < passes; ++p)
        for (int a = 0; a < dims; ++a)
            blurAxis(g, a);
}

/// Band-passed periodic white noise: blurred twice (no grid-scale content) minus the same
/// blurred six more times (no large scales).
std::vector<float> bandNoise(int dims, std::uint32_t seed, std::uint32_t channel)
{
    std::size_t count = 1;
    for (int a = 0; a < dims; ++a)
        count *= kN;
    std::vector<float> g(count);
    const std::uint32_t s = mix32(seed ^ mix32(channel * 0x9E3779B9u + 0x7F4A7C15u));
    constexpr float kUnit = 1.f / 8388608.f; // 23 bits -> [0, 1)
    for (std::size_t n = 0; n < count; ++n)
        g[n] = 2.f * float(mix32(s ^ mix32(std::uint32_t(n))) >> 9) * kUnit - 1.f;
    blur(g, dims, 2);
    std::vector<float> low = g;
    blur(low, dims, 6);
    for (std::size_t n = 0; n < count; ++n)
        g[n] -= low[n];
    return g;
}

} // namespace

NoiseTile::NoiseTile(bool threeD, std::uint32_t seed)
    : mThreeD(threeD)
{
    const std::size_t n = kN;
    if (!threeD) {
        // The curl of a scalar potential: (d psi / dy, -d psi / dx).
        const std::vector<float> psi = bandNoise(2, seed, 0);
        mData.resize(2 * n * n);
        for (int j = 0; j < kN; ++j)
            for (int i = 0; i < kN; ++i) {
                auto at = [&](int x, int y) {
                    return psi[std::size_t(y & kMask) * n + (x & kMask)];
                };
                const std::size_t c = 2 * (std::size_t(j) * n + std::size_t(i));
                mData[c] = 0.5f * (at(i, j + 1) - at(i, j - 1));
                mData[c + 1] = -0.5f * (at(i + 1, j) - at(i - 1, j));
            }
    } else {
        const std::vector<float> psi[3] = {bandNoise(3, seed, 0), bandNoise(3, seed, 1),
                                           bandNoise(3, seed, 2)};
        mData.assign(4 * n * n * n, 0.f);
        for (int k = 0; k < kN; ++k)
            for (int j = 0; j < kN; ++j)
                for (int i = 0; i < kN; ++i) {
                    auto at = [&](int c, int x, int y, int z) {
                        return psi[c][(std::size_t(z & kMask) * n + std::size_t(y & kMask)) * n
                                      + std::size_t(x & kMask)];
                    };
                    // d/d(axis) of potential c by central differences.
                    auto d = [&](int c, int axis) {
                        const int dx = axis == 0, dy = axis == 1, dz = axis == 2;
                        return 0.5f
                               * (at(c, i + dx, j + dy, k + dz) - at(c, i - dx, j - dy, k - dz));
                    };
                    const std::size_t c = 4 * ((std::size_t(k) * n + std::size_t(j)) * n + i);
                    mData[c] = d(2, 1) - d(1, 2);
                    mData[c + 1] = d(0, 2) - d(2, 0);
                    mData[c + 2] = d(1, 0) - d(0, 1);
                }
    }
    // Root-mean-square length 1.
    const std::size_t stride = threeD ? 4 : 2; // the 3D padding is 0 and adds nothing
    double sum = 0.0;
    for (float v : mData)
        sum += double(v) * double(v);
    const double samples = double(mData.size() / stride);
    const float scale = sum > 0.0 ? float(1.0 / std::sqrt(sum / samples)) : 0.f;
    for (float &v : mData)
        v *= scale;
}

} // namespace plume::sim
