// SPDX-License-Identifier: Apache-2.0
// The sph scheme's sources and boundaries: liquid emitters (fill and hose), solid cells and
// the domain's faces.
#include <core/sim/base/parallel.h>
#include <core/sim/sph/sphsolver.h>

#include <algorithm>
#include <cmath>
#include <deque>

namespace plume::sim {

namespace {

/// A site is taken when a particle lies closer than this many rest spacings.
constexpr float kOccupied = 0.6f;

/// The coverage of `cell` in a mask (its cells are sorted), or 0.
float coverageAt(const SparseMask &mask, std::uint32_t cell)
{
    const auto it = std::lower_bound(mask.cells.begin(), mask.cells.end(), cell);
    if (it == mask.cells.end() || *it != cell)
        return 0.f;
    return mask.weights[std::size_t(it - mask.cells.begin())];
}

/// The cell holding world point `x`, clamped into the grid; a non-finite coordinate (a particle
/// that blew up, left for firstNonFiniteField to report) counts as cell 0 on its axis.
std::uint32_t cellIndex(const Domain &domain, int dims, const Vec3 &x)
{
    const Vec3 c = domain.toCell(x);
    int ijk[3] = {0, 0, 0};
    for (int a = 0; a < dims; ++a) {
        const float f = std::floor(c[a]);
        if (f >= 1.f) // false for NaN
            ijk[a] = int(std::min(f, float(domain.cells[a] - 1)));
    }
    return std::uint32_t((ijk[2] * domain.cells.y + ijk[1]) * domain.cells.x + ijk[0]);
}

/// A step through `count` sites that visits each once per cycle but spreads consecutive ones
/// apart (a prime that does not divide the count, or 1).
std::size_t siteStride(std::size_t count)
{
    for (std::size_t p : {std::size_t(7919), std::size_t(104729)}) {
        if (count % p != 0)
            return p % std::max<std::size_t>(count, 1);
    }
    return 1;
}

} // namespace

std::vector<Vec3> SphSolver::latticeSites(const SparseMask &mask) const
{
    return sphLatticeSites(mDomain, mSpacing, mask);
}

std::vector<Vec3> sphLatticeSites(const Domain &domain, float spacing, const SparseMask &mask)
{
    const int dims = domain.dimensions();
    std::vector<Vec3> sites;
    const Int3 cells = domain.cells;
    const double ratio = double(domain.cellSize) / double(spacing);
    auto range = [&](int cell, int &lo, int &hi) {
        lo = int(std::ceil(cell * ratio - 0.5));
        hi = int(std::ceil((cell + 1) * ratio - 0.5)) - 1;
    };
    for (std::size_t m = 0; m < mask.size(); ++m) {
        if (mask.weights[m] < 0.5f)
            continue;
        const std::uint32_t c = mask.cells[m];
        const int i = int(c % std::uint32_t(cells.x));
        const int j = int(c / std::uint32_t(cells.x) % std::uint32_t(cells.y));
        const int k = int(c / (std::uint32_t(cells.x) * std::uint32_t(cells.y)));
        int x0, x1, y0, y1, z0 = 0, z1 = 0;
        range(i, x0, x1);
        range(j, y0, y1);
        if (dims == 3)
            range(k, z0, z1);
        for (int z = z0; z <= z1; ++z)
            for (int y = y0; y <= y1; ++y)
                for (int x = x0; x <= x1; ++x) {
                    Vec3 p = domain.origin
                             + Vec3{float(x) + 0.5f, float(y) + 0.5f, float(z) + 0.5f} * spacing;
                    if (dims == 2)
                        p.z = 0.f;
                    sites.push_back(p);
                }
    }
    return sites;
}

bool SphSolver::occupied(Vec3 p) const
{
    const float limit = kOccupied * kOccupied * mSpacing * mSpacing;
    bool taken = false;
    mGrid.forNeighbours(p, [&](std::uint32_t j, Vec3 shift) {
        const Vec3 r = p - (mParticles.position[j] + shift);
        taken = taken || dot(r, r) < limit;
    });
    return taken;
}

void SphSolver::addAtSite(Vec3 site, Vec3 velocity)
{
    if (mSolids.isSolid(cellIndex(mDomain, mDims, site)) || occupied(site))
        return;
    mParticles.position.push_back(site);
    mParticles.velocity.push_back(mDims == 2 ? Vec3{velocity.x, velocity.y, 0.f} : velocity);
}

void SphSolver::fill()
{
    const std::size_t before = mParticles.size();
    const std::size_t limit = std::size_t(mParams.sph.maxParticles);
    for (std::size_t e = 0; e < mEmitters.size(); ++e) {
        const Emitter &em = mEmitters[e];
        if (em.liquid != LiquidMode::Fill)
            continue;
        const Vec3 v = em.velocityMode == EmitterVelocity::Inflow ? em.velocity : Vec3{};
        for (const Vec3 &site : mSites[e]) {
            if (mParticles.size() >= limit)
                break;
            addAtSite(site, v);
        }
    }
    if (mParticles.size() != before)
        sortByCell();
}

void SphSolver::emit(float dt)
{
    const std::size_t before = mParticles.size();
    const std::size_t limit = std::size_t(mParams.sph.maxParticles);
    std::size_t hose = 0;
    for (std::size_t e = 0; e < mEmitters.size(); ++e) {
        const Emitter &em = mEmitters[e];
        const std::vector<Vec3> &sites = mSites[e];
        if (em.liquid != LiquidMode::Emit)
            continue;
        EmitState &state = mEmitState[hose++];
        if (sites.empty())
            continue;
        state.owed += em.liquidRate * dt * float(sites.size());
        const float due = std::min(std::floor(state.owed), float(sites.size()));
        state.owed = std::min(state.owed - due, float(sites.size()));
        const std::size_t stride = siteStride(sites.size());
        const Vec3 v = em.velocityMode == EmitterVelocity::Inflow ? em.velocity : Vec3{};
        for (int n = 0; n < int(due); ++n) {
            const std::size_t at = std::size_t(state.cursor) % sites.size();
            state.cursor = float((at + 1) % sites.size());
            const Vec3 site = sites[at * stride % sites.size()];
            if (mParticles.size() < limit)
                addAtSite(site, v);
        }
    }
    if (mParticles.size() != before)
        sortByCell();
}

void SphSolver::applyInflow(float dt)
{
    std::vector<Vec3> &x = mParticles.position;
    std::vector<Vec3> &v = mParticles.velocity;
    for (const Emitter &em : mEmitters) {
        if (em.liquid != LiquidMode::Emit || em.velocityMode == EmitterVelocity::None)
            continue;
        detail::forRowChunks(std::int64_t(x.size()), [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t n = begin; n < end; ++n) {
                const std::size_t p = std::size_t(n);
                const std::uint32_t cell = cellIndex(mDomain, mDims, x[p]);
                const float w = coverageAt(em.mask, cell);
                if (w <= 0.f)
                    continue;
                Vec3 target = em.velocity;
                if (mDims == 2)
                    target.z = 0.f;
                if (em.velocityMode == EmitterVelocity::Inflow)
                    v[p] = v[p] + (target - v[p]) * w;
                else
                    v[p] = v[p] + target * (w * dt);
            }
        });
    }
}

void SphSolver::collide()
{
    std::vector<Vec3> &x = mParticles.position;
    std::vector<Vec3> &v = mParticles.velocity;
    mRemove.assign(x.size(), 0);
    const Vec3 lo = mDomain.origin;
    const Vec3 extent = mDomain.extent();
    const float r = mParticles.radius;
    const float h = mDomain.cellSize;
    const float margin = std::min(r, 0.25f * h);
    const Int3 cells = mDomain.cells;
    detail::forRowChunks(std::int64_t(x.size()), [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t n = begin; n < end; ++n) {
            const std::size_t p = std::size_t(n);
            // Solid cells: back to the nearest fluid cell, losing the speed into the solid
            // (relative to a moving solid).
            const std::size_t cell = cellIndex(mDomain, mDims, x[p]);
            const bool finite = std::isfinite(x[p].x) && std::isfinite(x[p].y)
                                && std::isfinite(x[p].z);
            if (finite && mSolids.data()[cell] && mEscape[cell] >= 0) {
                const int e = mEscape[cell];
                const int ei = e % cells.x, ej = e / cells.x % cells.y,
                          ek = e / (cells.x * cells.y);
                const Vec3 cellLo = mDomain.toWorld({float(ei), float(ej), float(ek)});
                Vec3 moved = x[p];
                for (int a = 0; a < mDims; ++a)
                    moved[a] = std::clamp(moved[a], cellLo[a] + margin, cellLo[a] + h - margin);
                const Vec3 push = moved - x[p];
                const float len = length(push);
                if (len > 0.f) {
                    const Vec3 normal = push * (1.f / len);
                    Vec3 solid{};
                    for (int a = 0; a < 3; ++a) {
                        if (mMotion.velocity[a].count() > 0)
                            solid[a] = mMotion.velocity[a].data()[cell];
                    }
                    const float into = dot(v[p] - solid, normal);
                    if (into < 0.f)
                        v[p] = v[p] - normal * into;
                }
                x[p] = moved;
            }
            // The domain's faces.
            for (int a = 0; a < mDims; ++a) {
                const float low = lo[a], high = lo[a] + extent[a];
                float &pos = x[p][a];
                float &vel = v[p][a];
                switch (mDomain.boundary(a, false)) {
                case Boundary::Periodic:
                    if (pos < low || pos >= high) {
                        pos = low + std::fmod(pos - low, extent[a]);
                        if (pos < low)
                            pos += extent[a];
                        if (pos >= high) // rounding of the line above
                            pos = low;
                    }
                    continue;
                case Boundary::Open:
                    if (pos < low)
                        mRemove[p] = 1;
                    break;
                case Boundary::Wall:
                    if (pos < low + r) {
                        pos = low + r;
                        vel = std::max(vel, 0.f);
                    }
                    break;
                }
                if (mDomain.boundary(a, true) == Boundary::Open) {
                    if (pos > high)
                        mRemove[p] = 1;
                } else if (pos > high - r) {
                    pos = high - r;
                    vel = std::min(vel, 0.f);
                }
            }
            if (!std::isfinite(x[p].x) || !std::isfinite(x[p].y) || !std::isfinite(x[p].z))
                mRemove[p] = 0; // kept, so that firstNonFiniteField reports the blow-up
        }
    });
}

void SphSolver::removeMarked()
{
    if (std::find(mRemove.begin(), mRemove.end(), 1) == mRemove.end())
        return;
    std::size_t kept = 0;
    for (std::size_t p = 0; p < mParticles.size(); ++p) {
        if (mRemove[p])
            continue;
        mParticles.position[kept] = mParticles.position[p];
        mParticles.velocity[kept] = mParticles.velocity[p];
        ++kept;
    }
    mParticles.position.resize(kept);
    mParticles.velocity.resize(kept);
}

void SphSolver::buildEscapes()
{
    // Breadth-first from every fluid cell into the solids: each solid cell learns a nearest
    // (in steps) fluid cell. Serial and in index order: the same map every time.
    const Int3 c = mDomain.cells;
    const std::size_t count = std::size_t(c.volume());
    mEscape.assign(count, -1);
    std::deque<std::int32_t> queue;
    for (std::size_t n = 0; n < count; ++n) {
        if (!mSolids.data()[n]) {
            mEscape[n] = std::int32_t(n);
            queue.push_back(std::int32_t(n));
        }
    }
    const int strideY = c.x, strideZ = c.x * c.y;
    while (!queue.empty()) {
        const std::int32_t n = queue.front();
        queue.pop_front();
        const int i = n % c.x, j = n / c.x % c.y, k = n / strideZ;
        const int next[6][2] = {{i > 0, -1},       {i < c.x - 1, 1},
                                {j > 0, -strideY}, {j < c.y - 1, strideY},
                                {k > 0, -strideZ}, {k < c.z - 1, strideZ}};
        for (const auto &[ok, step] : next) {
            if (!ok)
                continue;
            const std::int32_t m = n + step;
            if (mEscape[std::size_t(m)] < 0) {
                mEscape[std::size_t(m)] = mEscape[std::size_t(n)];
                queue.push_back(m);
            }
        }
    }
}

void SphSolver::applyObstacles(const FlagGrid &solids, const ObstacleMotion &motion)
{
    FlagGrid newSolids = solids;
    ObstacleMotion newMotion = motion;
    mSolids = std::move(newSolids);
    mMotion = std::move(newMotion);
    buildEscapes();
}

void SphSolver::applyEmitters(std::vector<Emitter> emitters)
{
    std::vector<Emitter> liquid;
    std::vector<std::vector<Vec3>> sites;
    for (Emitter &e : emitters) {
        if (e.liquid == LiquidMode::None)
            continue;
        sites.push_back(latticeSites(e.mask));
        liquid.push_back(std::move(e));
    }
    mFillPending = std::any_of(liquid.begin(), liquid.end(),
                               [](const Emitter &e) { return e.liquid == LiquidMode::Fill; });
    mEmitters = std::move(liquid);
    mSites = std::move(sites);
    mEmitState.resize(
        std::size_t(std::count_if(mEmitters.begin(), mEmitters.end(),
                                  [](const Emitter &e) { return e.liquid == LiquidMode::Emit; })));
}

} // namespace plume::sim
