// SPDX-License-Identifier: Apache-2.0
// Advector: the smoke scheme's semi-Lagrangian, MacCormack and BFECC transport of scalars
// (velocity: velocityadvection.cpp; the passes are advectionpasses.h; the obstacle-aware
// traces obstaclewalk.h; accounting advection accounting.cpp), and the public samplers.
#include <core/sim/ops/advection.h>

#include <core/sim/numerics/rowkernels.h>
#include <core/sim/ops/advectionpasses.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace plume::sim {

using namespace detail;

namespace {

/// The samples of each row (j + ny k) that can be non-zero once the cell-centred `fields` are
/// advected by `vel` over `scale` (dt / h): the rows' non-zero spans widened by three times
/// the longest displacement plus three cells, along x and across the rows within as many
/// cells along y and z. Outside, every value a pass reads is zero (the forward trace, the
/// reverse trace of the result, BFECC's third trace, each reaching at most that far, and
/// their stencils a cell more), so it computes zero: skipping it keeps the bytes. Empty (every
/// sample computed) along a periodic axis, which traces wrap around, or with a non-finite
/// velocity.
struct ActiveSpans
{
    std::vector<int> lo, hi;

    // Whether kBlock floats are all +0 (bit patterns or-ed, so that the scan vectorizes).
    static constexpr int kBlock = 16;
    static bool zeroBlock(const float *v)
    {
        std::uint32_t any = 0;
        for (int q = 0; q < kBlock; ++q)
            any |= std::bit_cast<std::uint32_t>(v[q]);
        return any == 0u;
    }

    /// The largest velocity component (what find() takes as `fastest`): one scan of the
    /// velocity, shared by the groups of scalars a step moves.
    static double fastestComponent(const Domain &domain, const MacGrid &vel)
    {
        double fastest = 0.0;
        for (int a = 0; a < (domain.is2D() ? 2 : 3); ++a) {
            const ScalarGrid &g = vel.component(a);
            const Int3 n = g.size();
            fastest = std::max(fastest, maxRows(n, [&](int j, int k) {
                                   return rowAbsMax(g.data() + g.index(0, j, k), n.x);
                               }));
        }
        return fastest;
    }

    void find(const Domain &domain, double fastest, float scale,
              std::span<ScalarGrid *const> fields)
    {
        lo.clear();
        hi.clear();
        for (int a = 0; a < 3; ++a)
            if (domain.boundaries[2 * a] == Boundary::Periodic)
                return;
        const double reach = fastest * double(scale);
        if (!(reach < 1e6))
            return;
        const int widen = 3 * int(std::ceil(reach)) + 3;
        const Int3 n = domain.cells;
        const std::size_t rows = std::size_t(n.y) * std::size_t(n.z);
        std::vector<int> first(rows), last(rows);
        forEachRow(n, [&](int j, int k) {
            const std::size_t r = std::size_t(j) + std::size_t(n.y) * std::size_t(k);
            int f = n.x, l = -1;
            for (ScalarGrid *g : fields) {
                const float *row = g->data() + g->index(0, j, k);
                // +0 bits only: a -0 makes its sample's result -0, so it is computed.
                const auto zero = [&](int i) { return std::bit_cast<std::uint32_t>(row[i]) == 0u; };
                int i = 0;
                while (i + kBlock <= f && zeroBlock(row + i))
                    i += kBlock;
                while (i < f && zero(i))
                    ++i;
                if (i == n.x)
                    continue; // the whole row is zero: nothing for the scan from the right
                f = std::min(f, i);
                int e = n.x - 1;
                while (e - kBlock >= l && zeroBlock(row + e - kBlock + 1))
                    e -= kBlock;
                while (e > l && zero(e))
                    --e;
                l = std::max(l, e);
            }
            first[r] = f;
            last[r] = l;
        });
        // Across rows within `widen` along y, then along z (first > last: an empty row).
        auto spread = [&](std::vector<int> &f, std::vector<int> &l, int along) {
            std::vector<int> f2(rows), l2(rows);
            const int count = along == 1 ? n.y : n.z;
            forEachRow({1, n.y, n.z}, [&](int j, int k) {
                const int at = along == 1 ? j : k;
                int a = n.x, b = -1;
                for (int s = std::max(at - widen, 0); s <= std::min(at + widen, count - 1); ++s) {
                    const std::size_t r = along == 1 ? std::size_t(s) + std::size_t(n.y) * k
                                                     : std::size_t(j) + std::size_t(n.y) * s;
                    a = std::min(a, f[r]);
                    b = std::max(b, l[r]);
                }
                const std::size_t r = std::size_t(j) + std::size_t(n.y) * std::size_t(k);
                f2[r] = a;
                l2[r] = b;
            });
            f.swap(f2);
            l.swap(l2);
        };
        spread(first, last, 1);
        if (!domain.is2D())
            spread(first, last, 2);
        lo.resize(rows);
        hi.resize(rows);
        for (std::size_t r = 0; r < rows; ++r) {
            const bool any = last[r] >= first[r];
            lo[r] = any ? std::max(first[r] - widen, 0) : 0;
            hi[r] = any ? std::min(last[r] + widen + 1, n.x) : 0;
        }
    }

    /// `c` computing only the active samples (every sample while there are no spans).
    void use(Setup &c) const
    {
        c.activeLo = lo.empty() ? nullptr : lo.data();
        c.activeHi = hi.empty() ? nullptr : hi.data();
    }
};

/// Moves kCount cell-centred grids of the domain's size together (Advector::advectScalars):
/// grid f uses work[f] for the semi-Lagrangian step, work[2f] and work[2f + 1] otherwise.
/// `fastest`: ActiveSpans::fastestComponent of `vel`, or null to compute every sample.
template<int kCount>
void moveTogether(const Setup &c, bool anySolid, const double *fastest, const MacGrid &vel,
                  float scale, AdvectionOrder order, ScalarGrid *const *fields, Workspace &work)
{
    const bool twoGrids = order != AdvectionOrder::SemiLagrangian;
    const ScalarGrid &layout = *fields[0];
    Setup active = c;
    ActiveSpans spans;
    if (fastest)
        spans.find(c.domain, *fastest, scale,
                   std::span<ScalarGrid *const>(fields, std::size_t(kCount)));
    spans.use(active);
    std::array<const float *, std::size_t(kCount)> q;
    std::array<float *, std::size_t(kCount)> a, b;
    for (int f = 0; f < kCount; ++f) {
        const std::size_t m = std::size_t(f);
        ScalarGrid &first = work[twoGrids ? 2 * f : f];
        ScalarGrid &second = work[twoGrids ? 2 * f + 1 : f];
        first.reshapeForOverwrite(layout.size(), layout.offset());
        second.reshapeForOverwrite(layout.size(), layout.offset());
        q[m] = fields[f]->data();
        a[m] = first.data();
        b[m] = second.data();
    }
    bool inFirst = false;
    dispatch(!c.domain.is2D(), anySolid, [&](auto k3D, auto solids) {
        using Disp = CentreDisplacement<decltype(k3D)::value>;
        const Passes<decltype(k3D)::value, decltype(solids)::value, Disp, kCount> passes{
            active, -1, Disp{vel, scale}, layout};
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
    if (!mSkipEmpty || !velocityFits(vel, mDomain)) {
        advectOne(q, vel, dt, order, work, nullptr);
        return;
    }
    const double fastest = ActiveSpans::fastestComponent(mDomain, vel);
    advectOne(q, vel, dt, order, work, &fastest);
}

void Advector::advectOne(ScalarGrid &q, const MacGrid &vel, float dt, AdvectionOrder order,
                         Workspace &work, const double *fastest) const
{
    const float scale = dt / mDomain.cellSize;
    if (q.size() != mDomain.cells || q.offset() != kCellCentre || !velocityFits(vel, mDomain)
        || !std::isfinite(scale))
        return;
    ScalarGrid *const lone[1] = {&q};
    ActiveSpans spans;
    if (fastest)
        spans.find(mDomain, *fastest, scale, lone);
    const int *activeLo = spans.lo.empty() ? nullptr : spans.lo.data();
    const int *activeHi = spans.hi.empty() ? nullptr : spans.hi.data();
    if (order == AdvectionOrder::MonotoneCubic) {
        // The cubic reads at most two cells beyond a trace: within the spans' reach.
        advectCubic(q, vel, dt, work, activeLo, activeHi);
        return;
    }
    advectWithin(q, vel, dt, order, work, activeLo, activeHi);
}

void Advector::advectWithin(ScalarGrid &q, const MacGrid &vel, float dt, AdvectionOrder order,
                            Workspace &work, const int *activeLo, const int *activeHi) const
{
    const float scale = dt / mDomain.cellSize;
    Setup c = makeSetup(mDomain, mSolids, mAnySolid, mClearance, mExactEverywhere);
    c.activeLo = activeLo;
    c.activeHi = activeHi;
    ScalarGrid &result = work[0];
    ScalarGrid &temp = work[1];
    result.reshapeForOverwrite(q.size(), q.offset());
    if (order != AdvectionOrder::SemiLagrangian)
        temp.reshapeForOverwrite(q.size(), q.offset());
    // With the workspace to itself, MacCormack keeps the limiter's bounds in work[2] and [3].
    const bool keepRange = order == AdvectionOrder::MacCormack;
    if (keepRange) {
        work[2].reshapeForOverwrite(q.size(), q.offset());
        work[3].reshapeForOverwrite(q.size(), q.offset());
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
    // Cubic moves one grid at a time (its pass reads each sample's 64 neighbours itself).
    const int most = order == AdvectionOrder::SemiLagrangian
                         ? Workspace::kGrids
                         : (order == AdvectionOrder::MonotoneCubic ? 1 : Workspace::kGrids / 2);
    std::array<ScalarGrid *, std::size_t(Workspace::kGrids)> group{};
    int count = 0;
    // The velocity is scanned for its largest component once for all the groups.
    std::optional<double> fastest;
    const auto fastestOnce = [&]() -> const double * {
        if (!mSkipEmpty)
            return nullptr;
        if (!fastest)
            fastest = ActiveSpans::fastestComponent(mDomain, vel);
        return &*fastest;
    };
    // A single grid takes advectScalar's own path: with the workspace to itself, MacCormack
    // keeps the limiter's bounds instead of tracing twice.
    const auto flush = [&] {
        if (count == 1)
            advectOne(*group[0], vel, dt, order, work, fastestOnce());
        else if (count == 2)
            moveTogether<2>(c, mAnySolid, fastestOnce(), vel, scale, order, group.data(), work);
        else if (count == 3)
            moveTogether<3>(c, mAnySolid, fastestOnce(), vel, scale, order, group.data(), work);
        else if (count == 4)
            moveTogether<4>(c, mAnySolid, fastestOnce(), vel, scale, order, group.data(), work);
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
