// SPDX-License-Identifier: Apache-2.0
// Buoyancy (Fedkiw, Stam and Jensen 2001, eq. 8) at the open faces.
#include <core/sim/ops/forces.h>

#include <core/sim/base/assert.h>

#include <core/sim/ops/faceloops.h>

namespace plume::sim {

using namespace detail;

void addBuoyancy(MacGrid &vel, const ScalarGrid &density, const ScalarGrid &temperature,
                 const SimParams &params, const FlagGrid &solids, const Domain &domain, float dt)
{
    const Int3 n = domain.cells;
    PLUME_ASSERT_OR_RETURN(vel.cells() == n && solids.size() == n && density.size() == n
                               && temperature.size() == n,
                           "buoyancy: the grids do not match the domain");
    const Vec3 up = normalizedOrZero(params.up);
    const float alpha = params.buoyancyDensity;
    const float beta = params.buoyancyTemperature;
    const float ambient = params.ambientTemperature;
    const float *rho = density.data();
    const float *temp = temperature.data();
    const FaceClosure closure{solids, domain, solids.anySolid()};
    for (int axis = 0; axis < domain.dimensions(); ++axis) {
        const float scale = 0.5f * dt * up[axis];
        if (scale == 0.f)
            continue;
        addAtOpenFaces(vel.component(axis), axis, closure, [&](std::size_t lo, std::size_t hi) {
            const float b = -alpha * (rho[lo] + rho[hi])
                            + beta * ((temp[lo] - ambient) + (temp[hi] - ambient));
            return scale * b;
        });
    }
}

} // namespace plume::sim
