// SPDX-License-Identifier: Apache-2.0
// Advector::advectVelocity: the smoke scheme's self-advection of the MAC velocity, each face
// component by the passes of advectionpasses.h (its own file so that the kernels of the
// scalars and of the faces compile side by side).
#include <core/sim/ops/advection.h>

#include <core/sim/base/assert.h>

#include <core/sim/ops/advectionpasses.h>

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace plume::sim {

using namespace detail;

void Advector::advectVelocity(MacGrid &vel, float dt, AdvectionOrder order, Workspace &work) const
{
    const float scale = dt / mDomain.cellSize;
    PLUME_ASSERT_OR_RETURN(velocityFits(vel, mDomain),
                           "velocity advection: the velocity does not match the domain");
    if (!std::isfinite(scale))
        return;
    const int axes = mDomain.dimensions();
    if (order == AdvectionOrder::MonotoneCubic) {
        // Every component traces through the old velocity. Without solids each lands in its
        // workspace grid; with them the exact first-order step runs first and the cubic
        // replaces it wherever the traces are clear of solids.
        if (!mAnySolid) {
            for (int axis = 0; axis < axes; ++axis) {
                const ScalarGrid &old = vel.component(axis);
                work[axis].reshapeForOverwrite(old.size(), old.offset());
                if (mLiveTiles) // the faces the pass leaves keep their velocity
                    std::copy(old.data(), old.data() + old.count(), work[axis].data());
                cubicPass(old, vel, scale, axis, false, work[axis]);
            }
            for (int axis = 0; axis < axes; ++axis)
                vel.component(axis).swap(work[axis]);
            return;
        }
        const MacGrid old = vel;
        advectVelocity(vel, dt, AdvectionOrder::SemiLagrangian, work);
        for (int axis = 0; axis < axes; ++axis)
            cubicPass(old.component(axis), old, scale, axis, true, vel.component(axis));
        return;
    }
    Setup c = makeSetup(mDomain, mSolids, mAnySolid, mClearance, mExactEverywhere);
    c.liveTiles = LiveTiles(mDomain, mLiveTiles);
    ScalarGrid &temp = work[3];
    dispatch(!mDomain.is2D(), mAnySolid, [&](auto k3D, auto solids) {
        auto advectComponent = [&](auto axisConstant) {
            constexpr int kAxis = decltype(axisConstant)::value;
            using Disp = FaceDisplacement<decltype(k3D)::value, kAxis>;
            const ScalarGrid &old = vel.component(kAxis);
            work[kAxis].reshapeForOverwrite(old.size(), old.offset());
            if (order != AdvectionOrder::SemiLagrangian)
                temp.reshapeForOverwrite(old.size(), old.offset());
            if (mLiveTiles) { // every pass leaves the faces away from live tiles as they were
                std::copy(old.data(), old.data() + old.count(), work[kAxis].data());
                if (order != AdvectionOrder::SemiLagrangian)
                    std::copy(old.data(), old.data() + old.count(), temp.data());
            }
            const Passes<decltype(k3D)::value, decltype(solids)::value, Disp, 1> passes{
                c, kAxis, Disp{vel, c, scale}, old};
            if (passes.run(order, {old.data()}, {temp.data()}, {work[kAxis].data()}))
                work[kAxis].swap(temp);
        };
        advectComponent(std::integral_constant<int, 0>{});
        advectComponent(std::integral_constant<int, 1>{});
        if (axes == 3)
            advectComponent(std::integral_constant<int, 2>{});
    });
    for (int axis = 0; axis < axes; ++axis)
        vel.component(axis).swap(work[axis]);
}

} // namespace plume::sim
