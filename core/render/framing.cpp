// SPDX-License-Identifier: Apache-2.0
#include <core/render/framing.h>

#include <core/render/camera.h>
#include <core/render/marchbounds.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace plume {

namespace {

/// The index box of the cells for which `shows(i, j, k)` holds, as a world box with the
/// trilinear reach, clamped to the domain; empty when none does.
template<class Shows>
WorldBox cellBox(const sim::Domain &domain, Shows &&shows)
{
    const sim::Int3 n = domain.cells;
    sim::Int3 lo{n.x, n.y, n.z}, hi{-1, -1, -1};
    for (int k = 0; k < n.z; ++k)
        for (int j = 0; j < n.y; ++j)
            for (int i = 0; i < n.x; ++i) {
                if (!shows(i, j, k))
                    continue;
                lo = {std::min(lo.x, i), std::min(lo.y, j), std::min(lo.z, k)};
                hi = {std::max(hi.x, i), std::max(hi.y, j), std::max(hi.z, k)};
            }
    if (hi.x < 0)
        return {};
    WorldBox b;
    const float h = domain.cellSize;
    const sim::Vec3 top = domain.origin + domain.extent();
    for (int a = 0; a < 3; ++a) {
        const float o = domain.origin[a];
        b.low[a] = std::max(o + (float(lo[a]) - 0.5f) * h, o);
        b.high[a] = std::min(o + (float(hi[a]) + 1.5f) * h, top[a]);
    }
    return b;
}

} // namespace

WorldBox visibleBox(const FrameFields &f, const RenderSettings &s)
{
    const sim::Domain &domain = f.domain;
    const sim::Int3 n = domain.cells;
    const std::size_t cells = f.density.count();
    if (domain.is2D() || cells == 0 || f.density.size() != n)
        return {};
    if (surfaceLook(s, false)) {
        if (f.surface.count() != cells)
            return {};
        return cellBox(domain, [&](int i, int j, int k) { return f.surface(i, j, k) <= 0.f; });
    }
    const bool fire = s.flameIntensity > 0.f && f.hasFlame();
    const bool hot = (s.emissionIntensity > 0.f || fire) && f.temperature.count() == cells;
    const float h = domain.cellSize;
    const float depthPerDensity = s.densityScale * h;
    const float glowPerUnit = kEmissionRate * s.densityScale * h * std::exp2(s.exposure);
    // Columns along the view: a cellSize grid across it, centred on the domain's centre.
    const detail::Camera camera(domain, s, 1, 1);
    const sim::Vec3 centre = domain.origin + domain.extent() * 0.5f;
    const int half = int(std::ceil(0.5f * length(domain.extent()) / h)) + 2;
    const int side = 2 * half;
    auto column = [&](int i, int j, int k) {
        const sim::Vec3 p = domain.cellCentre(i, j, k) - centre;
        const int u = std::clamp(int(std::floor(dot(p, camera.right) / h)) + half, 0, side - 1);
        const int v = std::clamp(int(std::floor(dot(p, camera.up) / h)) + half, 0, side - 1);
        return std::size_t(v) * std::size_t(side) + std::size_t(u);
    };
    auto glowOf = [&](int i, int j, int k) {
        if (!hot)
            return 0.f;
        const float t = f.temperature(i, j, k);
        const float fl = fire ? f.flame(i, j, k) : 0.f;
        if (!(t > s.emissionMin || fl > 0.f))
            return 0.f;
        const sim::Vec3 e = emissionColor(s, t, fl);
        return std::max({e.x, e.y, e.z}) * glowPerUnit;
    };
    std::vector<float> depth(std::size_t(side) * side, 0.f), glow(depth.size(), 0.f);
    for (int k = 0; k < n.z; ++k)
        for (int j = 0; j < n.y; ++j)
            for (int i = 0; i < n.x; ++i) {
                const float d = f.density(i, j, k);
                const float g = glowOf(i, j, k);
                if (!(d > kMarchDensityFloor) && !(g > 0.f))
                    continue;
                const std::size_t c = column(i, j, k);
                if (d > kMarchDensityFloor)
                    depth[c] += depthPerDensity * d;
                glow[c] += g;
            }
    const float invisibleDepth = -std::log1p(-kInvisible);
    std::vector<char> shows(depth.size(), 0);
    for (int v = 0; v < side; ++v)
        for (int u = 0; u < side; ++u) {
            const std::size_t c = std::size_t(v) * std::size_t(side) + std::size_t(u);
            if (!(depth[c] > invisibleDepth || glow[c] > kInvisible))
                continue;
            for (int dv = std::max(v - 1, 0); dv <= std::min(v + 1, side - 1); ++dv)
                for (int du = std::max(u - 1, 0); du <= std::min(u + 1, side - 1); ++du)
                    shows[std::size_t(dv) * std::size_t(side) + std::size_t(du)] = 1;
        }
    return cellBox(domain, [&](int i, int j, int k) {
        return (f.density(i, j, k) > kMarchDensityFloor || glowOf(i, j, k) > 0.f)
               && shows[column(i, j, k)];
    });
}

} // namespace plume
