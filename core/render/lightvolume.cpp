#include "lightvolume.h"

#include <sim/parallel.h>

#include <algorithm>
#include <cmath>

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

/// Bilinear value in slice `s` at in-slice position (pu, pv) (cells, centres at integers) of
/// the cells' values get(a, b), with a ring of ghost cells around the slice that hold
/// `outside` (no smoke, full light: the domain's surroundings); beyond the ghosts, `outside`.
template<class Get>
float sliceSample(sim::Int3 n, const SliceAxes &ax, float pu, float pv, float outside, Get &&get)
{
    const int nu = n[ax.u];
    const int nv = n[ax.v];
    if (pu <= -1.f || pv <= -1.f || pu >= float(nu) || pv >= float(nv))
        return outside;
    const int u0 = int(std::floor(pu));
    const int v0 = int(std::floor(pv));
    const float fu = pu - float(u0);
    const float fv = pv - float(v0);
    auto at = [&](int a, int b) {
        return a < 0 || b < 0 || a >= nu || b >= nv ? outside : get(a, b);
    };
    const float lo = at(u0, v0) + (at(u0 + 1, v0) - at(u0, v0)) * fu;
    const float hi = at(u0, v0 + 1) + (at(u0 + 1, v0 + 1) - at(u0, v0 + 1)) * fu;
    return lo + (hi - lo) * fv;
}

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

    auto cell = [&](int s, int a, int b) {
        sim::Int3 c;
        c[ax.sweep] = s;
        c[ax.u] = a;
        c[ax.v] = b;
        return density.index(c.x, c.y, c.z);
    };
    const int nu = n[ax.u];
    const int nv = n[ax.v];
    for (int step = 0; step < n[ax.sweep]; ++step) {
        const int s = first - towardsLight * step;
        sim::forEachSlab(nv, [&](int b) {
            for (int a = 0; a < nu; ++a) {
                const std::size_t c = cell(s, a, b);
                // A solid cell holds the light reaching it (its lit face shades smoothly); the
                // cells behind it find it on their way to the light and get none.
                const bool solid = hasSolids && solids->isSolid(c);
                const float rho = solid ? 0.f : std::max(density[c], 0.f);
                if (step == 0) { // half a cell to the domain's face
                    light[c] = std::exp(-0.5f * extinction * rho);
                    continue;
                }
                // March `reach` slices towards the light through the density (trapezoid
                // rule), then take the transmittance found there.
                const int reach = std::min(step, kReach);
                float tau = 0.5f * rho;
                float lightUp = 1.f;
                for (int q = 1; q <= reach; ++q) {
                    const int sq = s + q * towardsLight;
                    const float pu = float(a) + float(q) * du;
                    const float pv = float(b) + float(q) * dv;
                    const float rhoQ = sliceSample(n, ax, pu, pv, 0.f, [&](int i, int j) {
                        return std::max(density[cell(sq, i, j)], 0.f);
                    });
                    tau += q == reach ? 0.5f * rhoQ : rhoQ;
                    if (hasSolids && sliceSample(n, ax, pu, pv, 0.f, [&](int i, int j) {
                                         return solids->isSolid(cell(sq, i, j)) ? 1.f : 0.f;
                                     }) > 0.5f) {
                        lightUp = 0.f; // the ray runs into a solid: no light from here on
                        break;
                    }
                    if (q == reach)
                        lightUp = sliceSample(n, ax, pu, pv, 1.f,
                                              [&](int i, int j) { return light[cell(sq, i, j)]; });
                }
                light[c] = lightUp * std::exp(-extinction * tau);
            }
        });
    }
    return light;
}

} // namespace plume
