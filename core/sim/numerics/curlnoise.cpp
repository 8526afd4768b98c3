// SPDX-License-Identifier: Apache-2.0
#include <core/sim/numerics/curlnoise.h>

#include <climits>
#include <cmath>

namespace plume::sim {

namespace {

/// The 32 gradients of 4D improved noise: one coordinate zero, the others +-1.
constexpr float kGrad4[32][4] = {
    {0, 1, 1, 1},    {0, 1, 1, -1},   {0, 1, -1, 1},   {0, 1, -1, -1},  {0, -1, 1, 1},
    {0, -1, 1, -1},  {0, -1, -1, 1},  {0, -1, -1, -1}, {1, 0, 1, 1},    {1, 0, 1, -1},
    {1, 0, -1, 1},   {1, 0, -1, -1},  {-1, 0, 1, 1},   {-1, 0, 1, -1},  {-1, 0, -1, 1},
    {-1, 0, -1, -1}, {1, 1, 0, 1},    {1, 1, 0, -1},   {1, -1, 0, 1},   {1, -1, 0, -1},
    {-1, 1, 0, 1},   {-1, 1, 0, -1},  {-1, -1, 0, 1},  {-1, -1, 0, -1}, {1, 1, 1, 0},
    {1, 1, -1, 0},   {1, -1, 1, 0},   {1, -1, -1, 0},  {-1, 1, 1, 0},   {-1, 1, -1, 0},
    {-1, -1, 1, 0},  {-1, -1, -1, 0},
};

/// Gradient of lattice node (x, y, z, w): a seeded hash picks one of the 32 gradients.
inline const float *latticeGradient(int x, int y, int z, int w, std::uint32_t seed)
{
    const std::uint32_t h = mix32(std::uint32_t(x) * 0x8DA6B343u + std::uint32_t(y) * 0xD8163841u
                                  + std::uint32_t(z) * 0xCB1AB31Fu + std::uint32_t(w) * 0x165667B1u
                                  + seed);
    return kGrad4[h >> 27];
}

/// Spatial gradient of 4D gradient noise, analytic: sum over the 16 lattice corners of the
/// derivative of (fade weights * (gradient . offset)).
Vec3 noiseGradient(Vec3 q, Lattice1 lw, std::uint32_t seed)
{
    const Lattice1 l[3] = {lattice(q.x), lattice(q.y), lattice(q.z)};
    Vec3 r;
    for (int c = 0; c < 16; ++c) {
        const int cx = c & 1, cy = (c >> 1) & 1, cz = (c >> 2) & 1, cw = c >> 3;
        const float *g = latticeGradient(l[0].i + cx, l[1].i + cy, l[2].i + cz, lw.i + cw, seed);
        const float dot = g[0] * (l[0].f - float(cx)) + g[1] * (l[1].f - float(cy))
                          + g[2] * (l[2].f - float(cz)) + g[3] * (lw.f - float(cw));
        const float wx = cx ? l[0].s : 1.f - l[0].s;
        const float wy = cy ? l[1].s : 1.f - l[1].s;
        const float wz = cz ? l[2].s : 1.f - l[2].s;
        const float ww = cw ? lw.s : 1.f - lw.s;
        const float dwx = cx ? l[0].ds : -l[0].ds;
        const float dwy = cy ? l[1].ds : -l[1].ds;
        const float dwz = cz ? l[2].ds : -l[2].ds;
        r.x += ww * (wx * wy * wz * g[0] + dwx * wy * wz * dot);
        r.y += ww * (wx * wy * wz * g[1] + wx * dwy * wz * dot);
        r.z += ww * (wx * wy * wz * g[2] + wx * wy * dwz * dot);
    }
    return r;
}

} // namespace

/// Curl of the gradient-noise vector potential (Bridson et al. 2007), time split as a lattice.
Vec3 curlNoiseAt(Vec3 q, Lattice1 lw, std::uint32_t seed, bool is2D)
{
    if (is2D) {
        q.z = 0.f;
        const Vec3 g = noiseGradient(q, lw, channelSeed(seed, 2));
        return Vec3{g.y, -g.x, 0.f} * noiseGain(true);
    }
    const Vec3 a = noiseGradient(q, lw, channelSeed(seed, 0));
    const Vec3 b = noiseGradient(q, lw, channelSeed(seed, 1));
    const Vec3 c = noiseGradient(q, lw, channelSeed(seed, 2));
    return Vec3{c.y - b.z, a.z - c.x, b.x - a.y} * noiseGain(false);
}

/// Gradient noise times `gain` at the points (q_i, y, z, w), i in [i0, i1], into out[i].
/// q_i grows with i, so the row splits into runs inside one lattice interval along x; in each
/// the noise is lerp(fade(fx), A0 + B0 fx, A1 + B1 (fx - 1)) with the 16 corner gradients
/// hashed once per run, and the per-point loop is branch-free.
void noiseRow(float *out, int i0, int i1, const RowX &rx, Lattice1 ly, Lattice1 lz, Lattice1 lw,
              std::uint32_t seed, float gain)
{
    float weight[8];
    float yzw[8][3];
    for (int c = 0; c < 8; ++c) {
        const int cy = c & 1, cz = (c >> 1) & 1, cw = c >> 2;
        weight[c] = (cy ? ly.s : 1.f - ly.s) * (cz ? lz.s : 1.f - lz.s) * (cw ? lw.s : 1.f - lw.s);
        yzw[c][0] = ly.f - float(cy);
        yzw[c][1] = lz.f - float(cz);
        yzw[c][2] = lw.f - float(cw);
    }
    for (int i = i0; i <= i1; ++i) {
        const float q = (rx.origin + (float(i) + rx.offset) * rx.h) * rx.invScale;
        out[i] = q > -kMaxCoord ? (q < kMaxCoord ? q : kMaxCoord) : -kMaxCoord;
    }
    // Coefficients of the 8 corners at lattice x: A = sum w (g . (0, dy, dz, dw)), B = sum w gx.
    auto coefficients = [&](int x, float &a, float &b) {
        a = 0.f;
        b = 0.f;
        for (int c = 0; c < 8; ++c) {
            const float *g = latticeGradient(x, ly.i + (c & 1), lz.i + ((c >> 1) & 1),
                                             lw.i + (c >> 2), seed);
            a += weight[c] * (g[1] * yzw[c][0] + g[2] * yzw[c][1] + g[3] * yzw[c][2]);
            b += weight[c] * g[0];
        }
    };
    int previous = INT_MIN;
    float a[2] = {0.f, 0.f}, b[2] = {0.f, 0.f};
    for (int begin = i0; begin <= i1;) {
        const int ix = lattice(out[begin]).i;
        if (ix == previous + 1) { // the next interval shares a face of corners
            a[0] = a[1];
            b[0] = b[1];
        } else {
            coefficients(ix, a[0], b[0]);
        }
        coefficients(ix + 1, a[1], b[1]);
        previous = ix;
        const float top = float(ix) + 1.f;
        int end = begin + 1;
        while (end <= i1 && out[end] < top)
            ++end;
        const float base = float(ix);
        for (int i = begin; i < end; ++i) {
            const float t = out[i] - base;
            const float fade = t * t * t * (t * (t * 6.f - 15.f) + 10.f);
            const float n0 = a[0] + b[0] * t;
            const float n1 = a[1] + b[1] * (t - 1.f);
            out[i] = gain * (n0 + fade * (n1 - n0));
        }
        begin = end;
    }
}

float gradientNoise(Vec3 q, Lattice1 lw, std::uint32_t seed)
{
    const Lattice1 l[3] = {lattice(q.x), lattice(q.y), lattice(q.z)};
    float sum = 0.f;
    for (int c = 0; c < 16; ++c) {
        const int cx = c & 1, cy = (c >> 1) & 1, cz = (c >> 2) & 1, cw = c >> 3;
        const float *g = latticeGradient(l[0].i + cx, l[1].i + cy, l[2].i + cz, lw.i + cw, seed);
        const float dot = g[0] * (l[0].f - float(cx)) + g[1] * (l[1].f - float(cy))
                          + g[2] * (l[2].f - float(cz)) + g[3] * (lw.f - float(cw));
        const float wx = cx ? l[0].s : 1.f - l[0].s;
        const float wy = cy ? l[1].s : 1.f - l[1].s;
        const float wz = cz ? l[2].s : 1.f - l[2].s;
        const float ww = cw ? lw.s : 1.f - lw.s;
        sum += wx * wy * wz * ww * dot;
    }
    return sum;
}

Vec3 curlNoise(Vec3 p, float time, std::uint32_t seed, bool is2D)
{
    return curlNoiseAt(p, latticeTime(double(time)), seed, is2D);
}

} // namespace plume::sim
