// Advector: the smoke scheme's semi-Lagrangian, MacCormack and BFECC transport of scalars
// (velocity: velocityadvection.cpp; the passes are advectionpasses.h; the obstacle-aware
// traces obstaclewalk.h; accounting advection accounting.cpp), and the public samplers.
#include "advection.h"

#include "advectionpasses.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace plume::sim {

using namespace detail;

namespace {

/// Moves kCount cell-centred grids of the domain's size together (Advector::advectScalars):
/// grid f uses work[f] for the semi-Lagrangian step, work[2f] and work[2f + 1] otherwise.
template<int kCount>
void moveTogether(const Setup &c, bool anySolid, const MacGrid &vel, float scale,
                  AdvectionOrder order, ScalarGrid *const *fields, Workspace &work)
{
    const bool twoGrids = order != AdvectionOrder::SemiLagrangian;
    const ScalarGrid &layout = *fields[0];
    std::array<const float *, std::size_t(kCount)> q;
    std::array<float *, std::size_t(kCount)> a, b;
    for (int f = 0; f < kCount; ++f) {
        const std::size_t m = std::size_t(f);
        ScalarGrid &first = work[twoGrids ? 2 * f : f];
        ScalarGrid &second = work[twoGrids ? 2 * f + 1 : f];
        prepare(first, layout.size(), layout.offset());
        prepare(second, layout.size(), layout.offset());
        q[m] = fields[f]->data();
        a[m] = first.data();
        b[m] = second.data();
    }
    bool inFirst = false;
    dispatch(!c.domain.is2D(), anySolid, [&](auto k3D, auto solids) {
        using Disp = CentreDisplacement<decltype(k3D)::value>;
        const Passes<decltype(k3D)::value, decltype(solids)::value, Disp, kCount> passes{
            c, -1, Disp{vel, scale}, layout};
        inFirst = passes.run(order, q, a, b);
    });
    for (int f = 0; f < kCount; ++f)
        fields[f]->swap(work[twoGrids ? 2 * f + (inFirst ? 0 : 1) : f]);
}

} // namespace

float sampleLinear(const ScalarGrid &g, Vec3 p, const Domain &domain)
{
    if (g.count() == 0 || g.count() != std::size_t(g.size().volume()))
        return 0.f;
    const GridMap m = gridMap(g, domain);
    if (g.size().z > 1)
        return interpolate<true>(g.data(), stencilAt<true>(m, p));
    return interpolate<false>(g.data(), stencilAt<false>(m, p));
}

Vec3 sampleVelocity(const MacGrid &vel, Vec3 p, const Domain &domain)
{
    return {sampleLinear(vel.u, p, domain), sampleLinear(vel.v, p, domain),
            vel.is3D() ? sampleLinear(vel.w, p, domain) : 0.f};
}

void Advector::setup(const Domain &domain, const FlagGrid &solids)
{
    mDomain = domain;
    mSolids = &solids;
    mAnySolid = solids.size() == domain.cells && solids.anySolid();
    mClearance.clear();
    if (mAnySolid)
        mClearance = clearanceMap(domain, solids);
}

void Advector::advectScalar(ScalarGrid &q, const MacGrid &vel, float dt, AdvectionOrder order,
                            Workspace &work) const
{
    const float scale = dt / mDomain.cellSize;
    if (q.size() != mDomain.cells || q.offset() != kCellCentre || !velocityFits(vel, mDomain)
        || !std::isfinite(scale))
        return;
    const Setup c = makeSetup(mDomain, mSolids, mAnySolid, mClearance, mExactEverywhere);
    ScalarGrid &result = work[0];
    ScalarGrid &temp = work[1];
    prepare(result, q.size(), q.offset());
    if (order != AdvectionOrder::SemiLagrangian)
        prepare(temp, q.size(), q.offset());
    // With the workspace to itself, MacCormack keeps the limiter's bounds in work[2] and [3].
    const bool keepRange = order == AdvectionOrder::MacCormack;
    if (keepRange) {
        prepare(work[2], q.size(), q.offset());
        prepare(work[3], q.size(), q.offset());
    }
    dispatch(!mDomain.is2D(), mAnySolid, [&](auto k3D, auto solids) {
        using Disp = CentreDisplacement<decltype(k3D)::value>;
        using Lone = Passes<decltype(k3D)::value, decltype(solids)::value, Disp, 1>;
        const Lone passes{c, -1, Disp{vel, scale}, q};
        const typename Lone::Out lo{work[2].data()}, hi{work[3].data()};
        const bool inTemp = passes.run(order, {q.data()}, {temp.data()}, {result.data()},
                                       keepRange ? &lo : nullptr, keepRange ? &hi : nullptr);
        q.swap(inTemp ? temp : result);
    });
}

void Advector::advectScalars(std::span<ScalarGrid *const> fields, const MacGrid &vel, float dt,
                             AdvectionOrder order, Workspace &work) const
{
    const float scale = dt / mDomain.cellSize;
    if (!velocityFits(vel, mDomain) || !std::isfinite(scale))
        return;
    const Setup c = makeSetup(mDomain, mSolids, mAnySolid, mClearance, mExactEverywhere);
    const int most = order == AdvectionOrder::SemiLagrangian ? Workspace::kGrids
                                                             : Workspace::kGrids / 2;
    std::array<ScalarGrid *, std::size_t(Workspace::kGrids)> group{};
    int count = 0;
    // A single grid takes advectScalar's own path: with the workspace to itself, MacCormack
    // keeps the limiter's bounds instead of tracing twice.
    const auto flush = [&] {
        if (count == 1)
            advectScalar(*group[0], vel, dt, order, work);
        else if (count == 2)
            moveTogether<2>(c, mAnySolid, vel, scale, order, group.data(), work);
        else if (count == 3)
            moveTogether<3>(c, mAnySolid, vel, scale, order, group.data(), work);
        else if (count == 4)
            moveTogether<4>(c, mAnySolid, vel, scale, order, group.data(), work);
        count = 0;
    };
    for (ScalarGrid *q : fields) {
        if (!q || q->size() != mDomain.cells || q->offset() != kCellCentre)
            continue;
        if (std::find(group.begin(), group.begin() + count, q) != group.begin() + count)
            flush(); // the same grid twice moves twice, as two advectScalar calls would
        group[std::size_t(count++)] = q;
        if (count == most)
            flush();
    }
    flush();
}

} // namespace plume::sim
