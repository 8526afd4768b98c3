// SPDX-License-Identifier: Apache-2.0
// Combustion: fuel burns to heat, soot, visible flame and expanding gas (docs/fire.md).
#include <core/sim/ops/combustion.h>

#include <core/sim/base/parallel.h>

#include <cmath>

namespace plume::sim {

double burn(const CombustionFields &q, const std::vector<std::uint8_t> &ignite,
            const FlagGrid &solids, const CombustionSettings &c, float ambient, float dt,
            ScalarGrid *expansion)
{
    const Int3 n = q.fuel.size();
    // The fraction of its fuel a burning cell burns in dt: d fuel / dt = -burnRate fuel.
    const float fraction = float(-std::expm1(-double(c.burnRate) * dt));
    const float ignition = ambient + c.ignitionTemperature;
    const float perSecond = dt > 0.f ? c.expansion / dt : 0.f;
    const bool marked = ignite.size() == q.fuel.count();
    float *fuel = q.fuel.data();
    float *temperature = q.temperature.data();
    float *density = q.density.data();
    float *flame = q.flame.data();
    float *source = expansion ? expansion->data() : nullptr;
    const std::uint8_t *solid = solids.data();
    return sumRows(n, [&](int j, int k) {
        const std::size_t row = q.fuel.index(0, j, k);
        double rowBurnt = 0.0;
        for (std::size_t c0 = row; c0 < row + std::size_t(n.x); ++c0) {
            const float f = fuel[c0];
            const bool burning = !solid[c0] && f > 0.f
                                 && (temperature[c0] >= ignition || (marked && ignite[c0]));
            const float b = burning ? f * fraction : 0.f;
            if (source)
                source[c0] = perSecond * b;
            if (b == 0.f)
                continue;
            fuel[c0] = f - b;
            temperature[c0] += c.heatRelease * b;
            density[c0] += c.smokePerFuel * b;
            flame[c0] += b;
            rowBurnt += b;
        }
        return rowBurnt;
    });
}

} // namespace plume::sim
