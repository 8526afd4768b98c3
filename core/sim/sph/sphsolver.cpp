// SPDX-License-Identifier: Apache-2.0
#include <core/sim/sph/sphsolver.h>

#include <core/sim/base/parallel.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace plume::sim {

namespace {

/// Runs body(i) for every particle, in parallel chunks (or serially in a SerialScope). Each
/// call writes only particle i's outputs.
template<class F>
void forEachParticle(std::size_t count, F &&body)
{
    detail::forRowChunks(std::int64_t(count), [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t i = begin; i < end; ++i)
            body(std::size_t(i));
    });
}

/// Tait's equation of state with gamma = 7, clamped at zero so that the free surface does not
/// pull particles into clumps.
float taitPressure(float density, float restDensity, float soundSpeed)
{
    const float ratio = density / restDensity;
    const float r2 = ratio * ratio;
    const float r7 = r2 * r2 * r2 * ratio;
    const float b = restDensity * soundSpeed * soundSpeed / 7.f;
    return std::max(0.f, b * (r7 - 1.f));
}

/// The particle mass that gives the rest density at the interior of the lattice of `spacing`
/// (the kernel sum over the lattice is not exactly 1 / spacing^d).
float latticeMass(const SphKernels &k, float spacing, int dims, float restDensity)
{
    const int reach = int(std::ceil(k.h / spacing));
    double sum = 0.0;
    const int zr = dims == 3 ? reach : 0;
    for (int z = -zr; z <= zr; ++z)
        for (int y = -reach; y <= reach; ++y)
            for (int x = -reach; x <= reach; ++x) {
                const float r2 = float(x * x + y * y + z * z) * spacing * spacing;
                sum += k.densityW(r2);
            }
    return float(double(restDensity) / sum);
}

} // namespace

Status SphSolver::checkDomain(const Domain &domain, const SimParams &params)
{
    const float radius = params.sph.spacing * params.sph.smoothing * domain.cellSize;
    return SphGrid::checkDomain(domain, radius);
}

SphSolver::SphSolver(const Domain &domain, const SimParams &params)
    : mDomain(domain)
    , mParams(params)
    , mDims(domain.dimensions())
    , mSpacing(params.sph.spacing * domain.cellSize)
    , mKernels(mSpacing * params.sph.smoothing, domain.dimensions())
    , mSolids(domain.cells)
{
    mMass = latticeMass(mKernels, mSpacing, mDims, params.sph.restDensity);
    mParticles.radius = 0.5f * mSpacing;
    mGrid.setup(domain, mKernels.h);
    mForces.setup(domain, {});
    buildEscapes();
}

Status SphSolver::setParams(const SimParams &params)
{
    if (Status s = checkParamsChange(mParams, params); !s)
        return s;
    if (params.sph.spacing != mParams.sph.spacing || params.sph.smoothing != mParams.sph.smoothing)
        return Status::failure("sph.spacing and sph.smoothing cannot change on a running solver "
                               "(they set the particles' size); make a new one");
    const bool newDensity = params.sph.restDensity != mParams.sph.restDensity;
    mParams = params;
    if (newDensity)
        mMass = latticeMass(mKernels, mSpacing, mDims, params.sph.restDensity);
    computeDensityPressure();
    return Status::success();
}

void SphSolver::reset()
{
    mParticles.position.clear();
    mParticles.velocity.clear();
    mDensity.clear();
    mPressure.clear();
    mAccel.clear();
    for (EmitState &e : mEmitState)
        e = {};
    sortByCell();
}

void SphSolver::addParticles(const std::vector<Vec3> &positions,
                             const std::vector<Vec3> &velocities)
{
    for (std::size_t n = 0; n < positions.size(); ++n) {
        Vec3 p = positions[n];
        if (mDims == 2)
            p.z = 0.f;
        mParticles.position.push_back(p);
        mParticles.velocity.push_back(n < velocities.size() ? velocities[n] : Vec3{});
    }
    sortByCell();
}

StepStats SphSolver::step(float dt, double time)
{
    if (mFillPending) {
        mFillPending = false;
        fill();
    }
    // Equal internal steps, each within the stability bound at its start.
    double left = dt;
    double t = time;
    for (int guard = 0; left > 0.0 && guard < 100000; ++guard) {
        const float bound = stableStep();
        const double steps = std::isfinite(bound) && bound > 0.f ? std::ceil(left / bound) : 1.0;
        const double sub = steps <= 1.0 ? left : left / steps;
        advance(float(sub), t);
        left -= sub;
        t += sub;
        if (steps <= 1.0)
            break;
    }
    return {};
}

void SphSolver::advance(float dt, double time)
{
    emit(dt);
    computeAccelerations(time);
    integrate(dt);
    applyInflow(dt);
    collide();
    removeMarked();
    sortByCell();
}

float SphSolver::stableStep() const
{
    const SphSettings &s = mParams.sph;
    float bound = s.courant * mKernels.h / (s.soundSpeed + maxVelocity());
    if (const float nu = effectiveViscosity(); nu > 0.f)
        bound = std::min(bound, 0.125f * mKernels.h2 / nu);
    return bound;
}

float SphSolver::effectiveViscosity() const
{
    const SphSettings &s = mParams.sph;
    return s.viscosity + s.artificialViscosity * mKernels.h * s.soundSpeed;
}

void SphSolver::sortByCell()
{
    const std::size_t n = mParticles.size();
    mGrid.build(mParticles.position);
    const std::vector<std::uint32_t> &order = mGrid.order();
    mScratch.resize(n);
    for (std::vector<Vec3> *array : {&mParticles.position, &mParticles.velocity}) {
        forEachParticle(n, [&](std::size_t i) { mScratch[i] = (*array)[order[i]]; });
        array->swap(mScratch);
    }
    // Densities and pressures always belong to the current positions (sample() reads them).
    computeDensityPressure();
}

void SphSolver::computeDensityPressure()
{
    const std::size_t n = mParticles.size();
    mDensity.resize(n);
    mPressure.resize(n);
    const std::vector<Vec3> &x = mParticles.position;
    const SphSettings &s = mParams.sph;
    const float h2 = mKernels.h2;
    using Lanes = SphGrid::Lanes;
    mGrid.forEachCell(x,
                      [&](std::uint32_t first, std::uint32_t last, SphGrid::Neighbourhood &near) {
        using N = SphGrid::Neighbourhood;
        for (std::uint32_t i = first; i < last; ++i) {
            // Sum of (h^2 - r^2)^3 over the neighbourhood (zero beyond h), four at a time.
            const Vec3 p = x[i];
            Lanes acc = {};
            for (std::size_t c = 0; c < near.size(); c += SphGrid::kLanes) {
                const Lanes dx = p.x - N::load(near.x, c), dy = p.y - N::load(near.y, c),
                            dz = p.z - N::load(near.z, c);
                Lanes d = h2 - (dx * dx + dy * dy + dz * dz);
                d = d > 0.f ? d : Lanes{};
                acc += d * d * d;
            }
            const float sum = SphGrid::sum(acc);
            mDensity[i] = mMass * (mKernels.poly6 * sum);
            mPressure[i] = taitPressure(mDensity[i], s.restDensity, s.soundSpeed);
        }
    });
}

void SphSolver::computeAccelerations(double time)
{
    const std::size_t n = mParticles.size();
    mAccel.resize(n);
    const std::vector<Vec3> &x = mParticles.position;
    const std::vector<Vec3> &v = mParticles.velocity;
    const SphSettings &s = mParams.sph;
    const float mu = effectiveViscosity() * s.restDensity; // dynamic viscosity
    const float sigma = s.surfaceTension;
    Vec3 gravity = mParams.up * (-s.gravity / length(mParams.up));
    if (mDims == 2)
        gravity.z = 0.f;
    // The colour field's normal is only trusted where it is longer than this (Mueller et al.
    // suggest a threshold; this one is a tenth of the inverse kernel radius).
    const float normalThreshold = 0.1f / mKernels.h;
    const float h2 = mKernels.h2;
    using Lanes = SphGrid::Lanes;
    const SphKernels &k = mKernels;
    mGrid.forEachCell(x,
                      [&](std::uint32_t first, std::uint32_t last, SphGrid::Neighbourhood &near) {
        using N = SphGrid::Neighbourhood;
        const std::uint32_t *index = near.index.data();
        std::uint32_t *within = near.within.data();
        // Per neighbour closer than h: r = x_i - x_j, rho_j, p_j, v_j - v_i.
        std::vector<float> &rx = near.work[0], &ry = near.work[1], &rz = near.work[2],
                           &rho = near.work[3], &pj = near.work[4], &dvx = near.work[5],
                           &dvy = near.work[6], &dvz = near.work[7];
        for (std::uint32_t i = first; i < last; ++i) {
            // The entries closer than h (the particle itself among them: its terms are zero but
            // for the colour field's Laplacian, whose self term belongs in the sum). Groups of
            // four that are all farther are skipped whole: most are.
            const Vec3 p = x[i];
            std::size_t m = 0;
            for (std::size_t c = 0; c < near.size(); c += SphGrid::kLanes) {
                const Lanes dx = p.x - N::load(near.x, c), dy = p.y - N::load(near.y, c),
                            dz = p.z - N::load(near.z, c);
                const auto close = dx * dx + dy * dy + dz * dz < h2;
                if (!SphGrid::any(close))
                    continue;
                for (std::size_t l = 0; l < SphGrid::kLanes; ++l) {
                    within[m] = std::uint32_t(c + l);
                    m += std::size_t(close[l] != 0);
                }
            }
            // Gathered in order, padded to whole groups with entries at distance h (where
            // every kernel term is zero).
            const std::size_t padded = (m + SphGrid::kLanes - 1) / SphGrid::kLanes
                                       * SphGrid::kLanes;
            for (std::size_t n = 0; n < padded; ++n) {
                if (n < m) {
                    const std::size_t c = within[n];
                    const std::uint32_t j = index[c];
                    rx[n] = p.x - near.x[c];
                    ry[n] = p.y - near.y[c];
                    rz[n] = p.z - near.z[c];
                    rho[n] = mDensity[j];
                    pj[n] = mPressure[j];
                    dvx[n] = v[j].x - v[i].x;
                    dvy[n] = v[j].y - v[i].y;
                    dvz[n] = v[j].z - v[i].z;
                } else {
                    rx[n] = k.h;
                    ry[n] = rz[n] = pj[n] = dvx[n] = dvy[n] = dvz[n] = 0.f;
                    rho[n] = 1.f;
                }
            }
            // Mueller et al. eq. 10 and 14, divided by rho_i: symmetric in i and j, so the
            // pair's forces cancel and momentum is conserved. Four neighbours at a time.
            const float pi = mPressure[i];
            const float rhoi = mDensity[i];
            Lanes px{}, py{}, pz{}, vx{}, vy{}, vz{}, nx{}, ny{}, nz{}, curv{};
            for (std::size_t n = 0; n < padded; n += SphGrid::kLanes) {
                const Lanes dx = N::load(rx, n), dy = N::load(ry, n), dz = N::load(rz, n);
                const Lanes rhoj = N::load(rho, n);
                const Lanes r2 = dx * dx + dy * dy + dz * dz;
                const Lanes dist = SphGrid::sqrt(r2);
                const Lanes d = k.h - dist;
                // The spiky gradient is zero at r = 0, where its direction is undefined.
                const Lanes inverse = dist > 0.f ? 1.f / dist : Lanes{};
                const Lanes pair = mMass / (rhoi * rhoj);
                const Lanes gradient = k.spikyGradient * d * d * inverse;
                const Lanes pressureTerm = -pair * 0.5f * (pi + N::load(pj, n)) * gradient;
                px += dx * pressureTerm;
                py += dy * pressureTerm;
                pz += dz * pressureTerm;
                const Lanes viscousTerm = pair * mu * (k.viscosity * d);
                vx += N::load(dvx, n) * viscousTerm;
                vy += N::load(dvy, n) * viscousTerm;
                vz += N::load(dvz, n) * viscousTerm;
                if (sigma > 0.f) {
                    const Lanes volume = mMass / rhoj;
                    const Lanes e = k.h2 - r2;
                    const Lanes g = volume * (k.poly6Gradient * e * e);
                    nx += dx * g;
                    ny += dy * g;
                    nz += dz * g;
                    curv += volume
                            * (k.poly6Laplacian * e * (k.poly6LapA * k.h2 - k.poly6LapB * r2));
                }
            }
            const Vec3 pressure{SphGrid::sum(px), SphGrid::sum(py), SphGrid::sum(pz)};
            const Vec3 viscous{SphGrid::sum(vx), SphGrid::sum(vy), SphGrid::sum(vz)};
            const Vec3 normal{SphGrid::sum(nx), SphGrid::sum(ny), SphGrid::sum(nz)};
            const float curvature = SphGrid::sum(curv);
            Vec3 a = pressure + viscous + gravity;
            if (sigma > 0.f) {
                const float len = length(normal);
                if (len > normalThreshold)
                    a = a + normal * (-sigma * curvature / (len * rhoi));
            }
            if (!mForces.empty())
                a = a + mForces.acceleration(x[i], v[i], time);
            if (mDims == 2)
                a.z = 0.f;
            mAccel[i] = a;
        }
    });
}

void SphSolver::integrate(float dt)
{
    // Symplectic Euler: the new velocity moves the particle.
    std::vector<Vec3> &x = mParticles.position;
    std::vector<Vec3> &v = mParticles.velocity;
    forEachParticle(mParticles.size(), [&](std::size_t i) {
        v[i] = v[i] + mAccel[i] * dt;
        x[i] = x[i] + v[i] * dt;
    });
}

float SphSolver::maxVelocity() const
{
    float m = 0.f;
    for (const Vec3 &v : mParticles.velocity)
        m = std::max({m, std::abs(v.x), std::abs(v.y), std::abs(v.z)});
    return m;
}

std::string SphSolver::firstNonFiniteField() const
{
    auto finite = [](const std::vector<Vec3> &a) {
        return std::all_of(a.begin(), a.end(), [](const Vec3 &p) {
            return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z);
        });
    };
    if (!finite(mParticles.position))
        return "particle-position";
    if (!finite(mParticles.velocity))
        return "particle-velocity";
    return {};
}

std::size_t SphSolver::memoryBytes() const
{
    const std::size_t particles = (mParticles.position.capacity() + mParticles.velocity.capacity()
                                   + mAccel.capacity() + mScratch.capacity())
                                      * sizeof(Vec3)
                                  + (mDensity.capacity() + mPressure.capacity()) * sizeof(float)
                                  + mRemove.capacity();
    std::size_t sites = 0;
    for (const std::vector<Vec3> &s : mSites)
        sites += s.capacity() * sizeof(Vec3);
    const std::size_t saved = mSavedPositions.bytes() + mSavedVelocities.bytes()
                              + mSavedEmission.bytes();
    return particles + sites + saved + mGrid.memoryBytes() + mSolids.count()
           + mEscape.capacity() * sizeof(std::int32_t);
}

std::vector<StateField> SphSolver::stateFields()
{
    // Positions and velocities as rows of floats; the emitters' debts and cursors likewise.
    const std::size_t n = mParticles.size();
    mSavedPositions.reshape({int(3 * n), 1, 1}, kCellCentre);
    mSavedVelocities.reshape({int(3 * n), 1, 1}, kCellCentre);
    if (n > 0) {
        std::memcpy(mSavedPositions.data(), mParticles.position.data(), n * sizeof(Vec3));
        std::memcpy(mSavedVelocities.data(), mParticles.velocity.data(), n * sizeof(Vec3));
    }
    mSavedEmission.reshape({int(2 * mEmitState.size()), 1, 1}, kCellCentre);
    for (std::size_t e = 0; e < mEmitState.size(); ++e) {
        mSavedEmission.data()[2 * e] = mEmitState[e].owed;
        mSavedEmission.data()[2 * e + 1] = mEmitState[e].cursor;
    }
    auto row = [](const char *name, ScalarGrid &grid) {
        StateField f;
        f.name = name;
        f.grid = &grid;
        f.size = grid.size();
        f.anyLength = true;
        return f;
    };
    return {row("particle-position", mSavedPositions), row("particle-velocity", mSavedVelocities),
            row("liquid-emission", mSavedEmission)};
}

void SphSolver::stateRestored(bool solidsChanged)
{
    const std::size_t n = mSavedPositions.count() / 3;
    mParticles.position.resize(n);
    mParticles.velocity.resize(std::min(n, mSavedVelocities.count() / 3));
    mParticles.velocity.resize(n);
    if (n > 0) {
        std::memcpy(static_cast<void *>(mParticles.position.data()), mSavedPositions.data(),
                    n * sizeof(Vec3));
        std::memcpy(static_cast<void *>(mParticles.velocity.data()), mSavedVelocities.data(),
                    std::min(n, mSavedVelocities.count() / 3) * sizeof(Vec3));
    }
    mEmitState.assign(mSavedEmission.count() / 2, EmitState{});
    for (std::size_t e = 0; e < mEmitState.size(); ++e)
        mEmitState[e] = {mSavedEmission.data()[2 * e], mSavedEmission.data()[2 * e + 1]};
    for (ScalarGrid *g : {&mSavedPositions, &mSavedVelocities, &mSavedEmission})
        g->reshape({0, 1, 1}, kCellCentre);
    if (solidsChanged)
        buildEscapes();
    mFillPending = false;
    // Saved in sorted order, so this sort keeps it and rebuilds the cell ranges.
    sortByCell();
}

void SphSolver::applyForceFields(std::vector<ForceField> fields)
{
    ForceEvaluator forces;
    forces.setup(mDomain, std::move(fields));
    mForces = std::move(forces);
}

} // namespace plume::sim
