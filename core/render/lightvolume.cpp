// SPDX-License-Identifier: Apache-2.0
#include <core/render/lightvolume.h>

#include <core/sim/base/parallel.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace plume {

namespace {

/// Slices marched through the density before the transmittance found there is taken: each take
/// interpolates (and so blurs) the shadow once, so marching a few slices keeps shadows sharp.
constexpr int kReach = 4;

/// A slice of cells across the sweep axis, with its two in-slice axes.
struct SliceAxes
{
    int sweep = 0; ///< the light's dominant axis
    int u = 1;     ///< first in-slice axis
    int v = 2;     ///< second in-slice axis
};

/// Where a ray from a cell meets the slice q steps towards the light: the same in-slice shift
/// for every cell of a slice, so its whole-cell part (ou, ov) and bilinear weights (fu, fv) are
/// found once per q.
struct Tap
{
    int ou = 0, ov = 0;
    float fu = 0.f, fv = 0.f;
};

/// A slice of a grid seen along two axes: `at(slice, a, b)` indexes cell (a, b) of the slice
/// that starts at index `slice`.
struct SliceLayout
{
    int nu = 0, nv = 0;
    std::size_t su = 0, sv = 0; ///< strides of the in-slice axes

    /// Bilinear value at cell (a, b) + tap of get(index), with a ring of ghost cells around the
    /// slice that hold `outside` (no smoke, full light: the domain's surroundings).
    template<class Get>
    float sample(std::size_t slice, int a, int b, const Tap &t, float outside, Get &&get) const
    {
        const int u0 = a + t.ou;
        const int v0 = b + t.ov;
        float c00, c10, c01, c11;
        if (u0 >= 0 && v0 >= 0 && u0 + 1 < nu && v0 + 1 < nv) {
            const std::size_t at = slice + std::size_t(u0) * su + std::size_t(v0) * sv;
            c00 = get(at);
            c10 = get(at + su);
            c01 = get(at + sv);
            c11 = get(at + su + sv);
        } else {
            auto one = [&](int i, int j) {
                return i < 0 || j < 0 || i >= nu || j >= nv
                           ? outside
                           : get(slice + std::size_t(i) * su + std::size_t(j) * sv);
            };
            c00 = one(u0, v0);
            c10 = one(u0 + 1, v0);
            c01 = one(u0, v0 + 1);
            c11 = one(u0 + 1, v0 + 1);
        }
        const float lo = c00 + (c10 - c00) * t.fu;
        const float hi = c01 + (c11 - c01) * t.fu;
        return lo + (hi - lo) * t.fv;
    }
};

} // namespace

sim::ScalarGrid lightTransmittance(const sim::ScalarGrid &density, const sim::FlagGrid *solids,
                                   sim::Vec3 lightDirection, float densityScale, float cellSize)
{
    const sim::Int3 n = density.size();
    sim::ScalarGrid light(n, density.offset(), 1.f);
    if (n.volume() == 0)
        return light;
    const bool hasSolids = solids && solids->count() == density.count();

    SliceAxes ax;
    const float l[3] = {std::abs(lightDirection.x), std::abs(lightDirection.y),
                        std::abs(lightDirection.z)};
    ax.sweep = l[0] >= l[1] && l[0] >= l[2] ? 0 : (l[1] >= l[2] ? 1 : 2);
    ax.u = ax.sweep == 0 ? 1 : 0;
    ax.v = ax.sweep == 2 ? 1 : 2;
    const float along = lightDirection[ax.sweep];
    // One slice towards the light moves the ray by this much within the slice (|.| <= 1 cell)
    // and by this length in world units.
    const float du = lightDirection[ax.u] / std::abs(along);
    const float dv = lightDirection[ax.v] / std::abs(along);
    const float length = cellSize * std::sqrt(1.f + du * du + dv * dv);
    const float extinction = densityScale * length;
    const int towardsLight = along > 0.f ? 1 : -1;
    const int first = towardsLight > 0 ? n[ax.sweep] - 1 : 0;

    const std::size_t stride[3] = {1, std::size_t(n.x), std::size_t(n.x) * std::size_t(n.y)};
    const SliceLayout slices{n[ax.u], n[ax.v], stride[ax.u], stride[ax.v]};
    Tap taps[kReach + 1];
    for (int q = 1; q <= kReach; ++q) {
        const float pu = float(q) * du;
        const float pv = float(q) * dv;
        taps[q].ou = int(std::floor(pu));
        taps[q].ov = int(std::floor(pv));
        taps[q].fu = pu - float(taps[q].ou);
        taps[q].fv = pv - float(taps[q].ov);
    }
    const float *rhoData = density.data();
    auto rhoAt = [&](std::size_t c) { return std::max(rhoData[c], 0.f); };
    auto solidAt = [&](std::size_t c) { return solids->isSolid(c) ? 1.f : 0.f; };
    auto lightAt = [&](std::size_t c) { return light[c]; };
    // Slices without smoke or solids, slices with solids, and slices whose light is 1
    // throughout: a slice that is empty, whose reach towards the light is empty and ends in a
    // slice lit throughout, is lit throughout too (the march finds no density and takes 1), and
    // is left as it starts. A ray meets a solid only in a slice that has one.
    const int ns = n[ax.sweep];
    std::vector<char> empty(std::size_t(ns), 0), solidIn(std::size_t(ns), 0),
        lit(std::size_t(ns), 0);
    sim::forEachSlab(ns, [&](int s) {
        const std::size_t slice = std::size_t(s) * stride[ax.sweep];
        bool smoke = false, solid = false;
        for (int b = 0; b < slices.nv; ++b)
            for (int a = 0; a < slices.nu; ++a) {
                const std::size_t c = slice + std::size_t(a) * slices.su
                                      + std::size_t(b) * slices.sv;
                smoke = smoke || !(rhoData[c] <= 0.f);
                solid = solid || (hasSolids && solids->isSolid(c));
            }
        empty[std::size_t(s)] = !smoke && !solid;
        solidIn[std::size_t(s)] = solid;
    });
    for (int step = 0; step < ns; ++step) {
        const int s = first - towardsLight * step;
        const int reach = std::min(step, kReach);
        bool skip = empty[std::size_t(s)] != 0;
        for (int q = 1; q <= reach && skip; ++q)
            skip = empty[std::size_t(s + q * towardsLight)] != 0;
        if (skip && (step == 0 || lit[std::size_t(s + reach * towardsLight)])) {
            lit[std::size_t(s)] = 1;
            continue;
        }
        const std::size_t slice = std::size_t(s) * stride[ax.sweep];
        sim::forEachSlab(slices.nv, [&](int b) {
            for (int a = 0; a < slices.nu; ++a) {
                const std::size_t c = slice + std::size_t(a) * slices.su
                                      + std::size_t(b) * slices.sv;
                // A solid cell holds the light reaching it (its lit face shades smoothly); the
                // cells behind it find it on their way to the light and get none.
                const bool solid = hasSolids && solids->isSolid(c);
                const float rho = solid ? 0.f : rhoAt(c);
                if (step == 0) { // half a cell to the domain's face
                    light[c] = std::exp(-0.5f * extinction * rho);
                    continue;
                }
                // March `reach` slices towards the light through the density (trapezoid
                // rule), then take the transmittance found there.
                float tau = 0.5f * rho;
                float lightUp = 1.f;
                for (int q = 1; q <= reach; ++q) {
                    const int sliceQ = s + q * towardsLight;
                    const std::size_t sq = std::size_t(sliceQ) * stride[ax.sweep];
                    const float rhoQ = slices.sample(sq, a, b, taps[q], 0.f, rhoAt);
                    tau += q == reach ? 0.5f * rhoQ : rhoQ;
                    if (solidIn[std::size_t(sliceQ)]
                        && slices.sample(sq, a, b, taps[q], 0.f, solidAt) > 0.5f) {
                        lightUp = 0.f; // the ray runs into a solid: no light from here on
                        break;
                    }
                    if (q == reach)
                        lightUp = slices.sample(sq, a, b, taps[q], 1.f, lightAt);
                }
                light[c] = lightUp * std::exp(-extinction * tau);
            }
        });
    }
    return light;
}

} // namespace plume
