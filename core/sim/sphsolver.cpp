#include "sphsolver.h"

#include "parallel.h"

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
    forEachParticle(n, [&](std::size_t i) {
        float sum = 0.f;
        mGrid.forNeighbours(x[i], [&](std::uint32_t j, Vec3 shift) {
            const Vec3 r = x[i] - (x[j] + shift);
            sum += mKernels.densityW(dot(r, r));
        });
        mDensity[i] = mMass * sum;
        mPressure[i] = taitPressure(mDensity[i], s.restDensity, s.soundSpeed);
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
    forEachParticle(n, [&](std::size_t i) {
        Vec3 pressure{}, viscous{}, normal{};
        float curvature = 0.f;
        const float pi = mPressure[i];
        const float rhoi = mDensity[i];
        mGrid.forNeighbours(x[i], [&](std::uint32_t j, Vec3 shift) {
            if (j == i)
                return;
            const Vec3 r = x[i] - (x[j] + shift);
            const float r2 = dot(r, r);
            if (r2 >= mKernels.h2)
                return;
            const float dist = std::sqrt(r2);
            const float rhoj = mDensity[j];
            // Mueller et al. eq. 10 and 14, divided by rho_i: symmetric in i and j, so the
            // pair's forces cancel and momentum is conserved.
            const float pair = mMass / (rhoi * rhoj);
            pressure = pressure
                       + r
                             * (-pair * 0.5f * (pi + mPressure[j])
                                * mKernels.pressureGradientFactor(dist));
            viscous = viscous + (v[j] - v[i]) * (pair * mu * mKernels.viscosityLaplacian(dist));
            if (sigma > 0.f) {
                const float volume = mMass / rhoj;
                normal = normal + r * (volume * mKernels.densityGradientFactor(r2));
                curvature += volume * mKernels.densityLaplacian(r2);
            }
        });
        Vec3 a = pressure + viscous + gravity;
        if (sigma > 0.f) {
            // The self term of the colour field's Laplacian (r = 0).
            curvature += mMass / rhoi * mKernels.densityLaplacian(0.f);
            const float len = length(normal);
            if (len > normalThreshold)
                a = a + normal * (-sigma * curvature / (len * rhoi));
        }
        if (!mForces.empty())
            a = a + mForces.acceleration(x[i], v[i], time);
        if (mDims == 2)
            a.z = 0.f;
        mAccel[i] = a;
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
