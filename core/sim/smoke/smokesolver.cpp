// SPDX-License-Identifier: Apache-2.0
#include <core/sim/smoke/smokesolver.h>

#include <core/sim/base/parallel.h>
#include <core/sim/numerics/sourcenoise.h>
#include <core/sim/ops/boundaryconditions.h>
#include <core/sim/ops/combustion.h>
#include <core/sim/ops/diffusion.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>

namespace plume::sim {

namespace {

/// Number of velocity components that exist (2 in 2D).
int axesOf(const Domain &d) { return d.is2D() ? 2 : 3; }

/// The scalars an emitter feeds: density, temperature and (when present) the dye channels and
/// fuel.
struct Emitted
{
    ScalarGrid &density;
    ScalarGrid &temperature;
    ScalarGrid *dye;  ///< three channels, or null
    ScalarGrid *fuel; ///< or null
};

/// A noisy emitter's factor per mask cell (docs/look.md), the noise taken at the cell centre
/// and the middle of the step [time, time + dt]; empty without noise (factor 1).
void noiseFactors(const Emitter &e, float dt, double time, const Domain &domain,
                  std::vector<float> &out)
{
    out.clear();
    if (!e.noise.active())
        return;
    out.resize(e.mask.size());
    const double middle = time + 0.5 * double(dt);
    const bool is2D = domain.is2D();
    forEachIndex(std::int64_t(e.mask.size()), [&](std::int64_t n) {
        const Int3 c = cellOf(e.mask.cells[std::size_t(n)], domain.cells);
        out[std::size_t(n)] = sourceNoiseFactor(e.noise, domain.cellCentre(c.x, c.y, c.z), middle,
                                                is2D);
    });
}

/// Mask cell m's noise factor: noiseFactors' value, or 1 when it made none (x * 1 is exact, so a
/// quiet emitter's arithmetic is unchanged).
inline float factorAt(const std::vector<float> &factors, std::size_t m)
{
    return factors.empty() ? 1.f : factors[m];
}

/// q += dt * weight * factor * rate in the emitter's fluid cells (each cell once: parallel);
/// `factors` holds the noise's factor per mask cell, or is empty (1).
void injectAmounts(const Emitter &e, float dt, const FlagGrid &solids, const Emitted &q,
                   const std::vector<float> &factors)
{
    const std::uint32_t *cells = e.mask.cells.data();
    const float *weights = e.mask.weights.data();
    const std::uint8_t *solid = solids.data();
    forEachIndex(std::int64_t(e.mask.size()), [&](std::int64_t n) {
        const std::uint32_t c = cells[n];
        if (solid[c])
            return;
        const float w = weights[n] * dt * factorAt(factors, std::size_t(n));
        q.density[c] += w * e.density;
        q.temperature[c] += w * e.temperature;
        if (q.dye) {
            q.dye[0][c] += w * e.dye.x;
            q.dye[1][c] += w * e.dye.y;
            q.dye[2][c] += w * e.dye.z;
        }
        if (q.fuel)
            (*q.fuel)[c] += w * e.fuel;
    });
}

/// A Force emitter's cells give half their weighted acceleration to each of their two faces
/// per axis: u += dt * weight * factor * a / 2. Faces are shared between cells, so this runs
/// serially in mask order.
void pushFaces(const Emitter &e, float dt, const Domain &domain, MacGrid &vel,
               const std::vector<float> &factors)
{
    for (std::size_t m = 0; m < e.mask.size(); ++m) {
        const Int3 c = cellOf(e.mask.cells[m], domain.cells);
        const float w = 0.5f * e.mask.weights[m] * dt * factorAt(factors, m);
        for (int axis = 0; axis < axesOf(domain); ++axis) {
            ScalarGrid &comp = vel.component(axis);
            int hi[3] = {c.x, c.y, c.z};
            hi[axis] += 1;
            comp(c.x, c.y, c.z) += w * e.velocity[axis];
            comp(hi[0], hi[1], hi[2]) += w * e.velocity[axis];
        }
    }
}

/// An Inflow emitter sets the faces around its fluid cells: u = lerp(u, factor * target,
/// weight), with the noise's factor per mask cell (empty: 1).
void blendFaces(const Emitter &e, const FlagGrid &solids, const Domain &domain, MacGrid &vel,
                const std::vector<float> &factors)
{
    for (std::size_t m = 0; m < e.mask.size(); ++m) {
        const std::uint32_t cell = e.mask.cells[m];
        if (solids.isSolid(cell))
            continue;
        const Int3 c = cellOf(cell, domain.cells);
        const float w = e.mask.weights[m];
        const Vec3 target = e.velocity * factorAt(factors, m);
        for (int axis = 0; axis < axesOf(domain); ++axis) {
            ScalarGrid &comp = vel.component(axis);
            for (int side = 0; side < 2; ++side) {
                int f[3] = {c.x, c.y, c.z};
                f[axis] += side;
                float &u = comp(f[0], f[1], f[2]);
                u += w * (target[axis] - u);
            }
        }
    }
}

} // namespace

SmokeSolver::SmokeSolver(const Domain &domain, const SimParams &params)
    : mDomain(domain)
    , mParams(params)
{
    mSolids.reshape(domain.cells);
    mVelocity.reshape(domain.cells);
    mDensity.reshape(domain.cells, kCellCentre);
    mTemperature.reshape(domain.cells, kCellCentre);
    mPressureField.reshape(domain.cells, kCellCentre);
    mWork.reserveFor(domain.cells);
    mAdvector.setup(mDomain, mSolids);
    mPressure.setup(mDomain, mSolids);
    mForces.setup(mDomain, {});
}

Status SmokeSolver::setParams(const SimParams &params)
{
    if (Status s = checkParamsChange(mParams, params); !s)
        return s;
    mParams = params;
    return Status::success();
}

void SmokeSolver::applyObstacles(const FlagGrid &solids, const ObstacleMotion &motion)
{
    // Everything that allocates comes first, so that bad_alloc leaves the old inputs.
    detail::UncoveredCells uncovered;
    uncovered.build(mSolids, solids, mDomain);
    detail::DrivenFaces driven;
    driven.build(solids, mDomain, motion);
    const bool changed = !(solids == mSolids);
    if (changed)
        mSolids = solids;
    mDrivenFaces = std::move(driven);
    if (changed) {
        mAdvector.setup(mDomain, mSolids);
        mPressure.setup(mDomain, mSolids);
    }
    clearSolidCells(mDensity, mSolids);
    clearSolidCells(mTemperature, mSolids);
    clearSolidCells(mPressureField, mSolids);
    if (hasCombustion()) {
        clearSolidCells(mFuel, mSolids);
        clearSolidCells(mFlame, mSolids);
    }
    if (hasDye()) {
        for (ScalarGrid &c : mDye)
            clearSolidCells(c, mSolids);
    }
    // Cells the solids left: contents from their fluid neighbours; their faces keep the
    // velocity the solid gave them.
    if (!uncovered.empty()) {
        const auto same = [](std::uint32_t c) { return std::size_t(c); };
        uncovered.fill(mDensity.data(), same);
        uncovered.fill(mTemperature.data(), same);
        if (hasCombustion()) {
            uncovered.fill(mFuel.data(), same);
            uncovered.fill(mFlame.data(), same);
        }
        if (hasDye()) {
            for (ScalarGrid &c : mDye)
                uncovered.fill(c.data(), same);
        }
    }
    enforceBoundaries();
}

void SmokeSolver::applyEmitters(std::vector<Emitter> emitters)
{
    if (std::any_of(emitters.begin(), emitters.end(), [](const Emitter &e) { return e.hasDye(); }))
        ensureDye();
    const bool fuel = std::any_of(emitters.begin(), emitters.end(),
                                  [](const Emitter &e) { return e.hasFuel(); });
    if (fuel)
        ensureCombustion();
    // Cells where emitted fuel burns whatever their temperature.
    std::vector<std::uint8_t> ignite;
    if (fuel) {
        ignite.assign(std::size_t(mDomain.cells.volume()), 0);
        for (const Emitter &e : emitters) {
            if (!e.hasFuel() || !e.ignite)
                continue;
            for (std::size_t m = 0; m < e.mask.size(); ++m)
                ignite[e.mask.cells[m]] |= e.mask.weights[m] > 0.f;
        }
    }
    mIgnite = std::move(ignite);
    mEmitters = std::move(emitters);
}

void SmokeSolver::applyForceFields(std::vector<ForceField> fields)
{
    ForceEvaluator forces;
    forces.setup(mDomain, std::move(fields));
    mForces = std::move(forces);
}

// The state a checkpoint holds. The pressure is the next projection's warm start; the
// expansion is rewritten by every burning step but sampled and checked like the rest. The
// ignite mask follows the emitters (inputs), the workspace is scratch.
std::vector<StateField> SmokeSolver::stateFields()
{
    const Int3 n = mDomain.cells;
    std::vector<StateField> f = {
        {.name = "solids", .flags = &mSolids, .size = n},
        {.name = "velocity-x", .grid = &mVelocity.u, .size = faceGridSize(n, 0), .offset = kFaceX},
        {.name = "velocity-y", .grid = &mVelocity.v, .size = faceGridSize(n, 1), .offset = kFaceY},
        {.name = "velocity-z",
         .grid = &mVelocity.w,
         .size = mDomain.is2D() ? Int3{0, 0, 0} : faceGridSize(n, 2), // empty in 2D
         .offset = kFaceZ},
        {.name = "density", .grid = &mDensity, .size = n},
        {.name = "temperature", .grid = &mTemperature, .size = n},
        {.name = "pressure", .grid = &mPressureField, .size = n},
        {.name = "dye-red", .grid = &mDye[0], .size = n, .optional = true, .group = 1},
        {.name = "dye-green", .grid = &mDye[1], .size = n, .optional = true, .group = 1},
        {.name = "dye-blue", .grid = &mDye[2], .size = n, .optional = true, .group = 1},
        {.name = "fuel", .grid = &mFuel, .size = n, .optional = true, .group = 2},
        {.name = "flame", .grid = &mFlame, .size = n, .optional = true, .group = 2},
        {.name = "expansion", .grid = &mExpansion, .size = n, .optional = true, .group = 2},
    };
    return f;
}

void SmokeSolver::stateRestored(bool solidsChanged)
{
    if (!solidsChanged)
        return;
    mAdvector.setup(mDomain, mSolids);
    mPressure.setup(mDomain, mSolids);
}

void SmokeSolver::ensureDye()
{
    if (hasDye())
        return;
    for (ScalarGrid &c : mDye)
        c.reshape(mDomain.cells, kCellCentre);
}

void SmokeSolver::ensureCombustion()
{
    if (hasCombustion())
        return;
    mFuel.reshape(mDomain.cells, kCellCentre);
    mFlame.reshape(mDomain.cells, kCellCentre);
    mExpansion.reshape(mDomain.cells, kCellCentre);
}

void SmokeSolver::reset()
{
    mVelocity.reshape(mDomain.cells);
    mDensity.fill(0.f);
    mTemperature.fill(0.f);
    mPressureField.fill(0.f);
    if (hasDye()) {
        for (ScalarGrid &c : mDye)
            c.fill(0.f);
    }
    for (ScalarGrid *g : {&mFuel, &mFlame, &mExpansion})
        g->fill(0.f);
}

// One step of the smoke scheme (Fedkiw, Stam and Jensen 2001; Bridson 2015, ch. 2).
StepStats SmokeSolver::step(float dt, double time)
{
    advectVelocity(dt);                // u* = u(x - dt u), self-advection
    addSources(dt, time);              // emitters: density, heat, dye, fuel, force
    const double burnt = burnFuel(dt); // fuel -> heat, soot, flame, expansion
    addForces(dt, time);               // force fields, buoyancy, vorticity confinement
    applyInflow();                     // inflow emitters set the velocity
    diffuseVelocity(dt);               // (I - dt nu L) u = u*
    beforeProjection(dt);              // the adaptive domain's far field, if any
    StepStats stats = mProjection ? mProjection(dt, burnt > 0.0) // over active tiles
                                  : project(dt, burnt > 0.0);    // div u = 0, or the expansion
    advectScalars(dt);  // density, temperature, dye, fuel, flame follow the flow
    diffuseScalars(dt); // (I - dt kappa L) q = q*
    dissipate(dt);      // q *= exp(-rate dt); the flame cools
    stats.fuelBurnt = burnt;
    return stats;
}

// The adaptive domain (adaptivedomain.h) gives the open faces of its box their pressure here.
void SmokeSolver::beforeProjection(float dt)
{
    if (mBeforeProjection)
        mBeforeProjection(dt);
}

// No flow through walls; faces of moving solids take their velocity (docs/colliders.md).
void SmokeSolver::enforceBoundaries()
{
    enforceVelocityBoundaries(mVelocity, mSolids, mDomain);
    mDrivenFaces.apply(mVelocity);
}

// Semi-Lagrangian self-advection (Stam 1999), optionally cubic or corrected to second order.
void SmokeSolver::advectVelocity(float dt)
{
    mAdvector.advectVelocity(mVelocity, dt, mParams.velocityAdvection, mWork);
    enforceBoundaries();
}

// Emitters inject density, temperature and dye at a rate, and push the fluid (Force mode);
// a noisy emitter's rates are modulated by its noise at the middle of the step (docs/look.md).
void SmokeSolver::addSources(float dt, double time)
{
    const Emitted scalars{mDensity, mTemperature, hasDye() ? mDye : nullptr,
                          hasCombustion() ? &mFuel : nullptr};
    mEmitterFactors.resize(mEmitters.size());
    for (std::size_t n = 0; n < mEmitters.size(); ++n) {
        const Emitter &e = mEmitters[n];
        noiseFactors(e, dt, time, mDomain, mEmitterFactors[n]);
        injectAmounts(e, dt, mSolids, scalars, mEmitterFactors[n]);
        if (e.velocityMode == EmitterVelocity::Force)
            pushFaces(e, dt, mDomain, mVelocity, mEmitterFactors[n]);
    }
}

// Combustion (docs/fire.md): hot or ignited fuel burns at burnRate; what burns heats the gas,
// makes soot and flame, and becomes the divergence the projection gives the velocity.
double SmokeSolver::burnFuel(float dt)
{
    if (!hasCombustion())
        return 0.0;
    const CombustionFields q{mFuel, mTemperature, mDensity, mFlame};
    return burn(q, mIgnite, mSolids, mParams.combustion, mParams.ambientTemperature, dt,
                &mExpansion);
}

// Force fields (directional, vortex, radial, turbulence, drag, disturbance, shredding), buoyancy
// and vorticity confinement (Fedkiw, Stam and Jensen 2001, eq. 8-11), where their control masks
// say.
void SmokeSolver::addForces(float dt, double time)
{
    evaluateControlMasks();
    if (!mForces.empty())
        mForces.applyToMac(mVelocity, mSolids, dt, time, &mControlWeights);
    // Shredding reads the temperature, so it is applied here rather than by the evaluator.
    const std::vector<ForceField> &fields = mForces.fields();
    for (std::size_t n = 0; n < fields.size(); ++n) {
        if (fields[n].type != ForceType::Shredding)
            continue;
        const Shredding shredding{.strength = fields[n].strength,
                                  .edge = fields[n].scale,
                                  .mask = mControlWeights.find(fields[n].mask),
                                  .region = fields[n].region.shape == RegionShape::Everywhere
                                                    && fields[n].region.mask.empty()
                                                ? nullptr
                                                : &mForces,
                                  .field = n};
        addShredding(mVelocity, mTemperature, shredding, mSolids, mDomain, dt, mWork);
    }
    if (mParams.buoyancyDensity != 0.f || mParams.buoyancyTemperature != 0.f)
        addBuoyancy(mVelocity, mDensity, mTemperature, mParams, mSolids, mDomain, dt);
    if (mParams.vorticity > 0.f) {
        const Confinement confinement{.epsilon = mParams.vorticity,
                                      .length = mParams.vorticityLength,
                                      .mask = mControlWeights.find(mParams.vorticityMask),
                                      .liveTiles = mLiveTiles};
        addVorticityConfinement(mVelocity, confinement, mSolids, mDomain, dt, mWork);
    }
}

// Control masks (docs/look.md): every distinct mask of this step's force fields and
// confinement, evaluated once on the fields as the force stage finds them.
void SmokeSolver::evaluateControlMasks()
{
    std::vector<const ControlMask *> masks;
    for (const ForceField &f : mForces.fields())
        masks.push_back(&f.mask);
    if (mParams.vorticity > 0.f)
        masks.push_back(&mParams.vorticityMask);
    const ControlFields fields{.density = &mDensity,
                               .temperature = &mTemperature,
                               .ambientTemperature = mParams.ambientTemperature,
                               .flame = &mFlame,
                               .fuel = &mFuel,
                               .velocity = &mVelocity,
                               .solids = &mSolids};
    mControlWeights.evaluate(masks, fields, mDomain);
}

// Inflow emitters set the face velocities around their cells: u = lerp(u, target, weight),
// the target modulated by the noise factors addSources found this step.
void SmokeSolver::applyInflow()
{
    for (std::size_t n = 0; n < mEmitters.size(); ++n) {
        if (mEmitters[n].velocityMode == EmitterVelocity::Inflow)
            blendFaces(mEmitters[n], mSolids, mDomain, mVelocity, mEmitterFactors[n]);
    }
    enforceBoundaries();
}

// Implicit viscosity, backward Euler (Stam 1999): (I - dt nu L) u = u*, per component.
void SmokeSolver::diffuseVelocity(float dt)
{
    if (mParams.viscosity <= 0.f)
        return;
    const bool moving = !mDrivenFaces.empty();
    for (int axis = 0; axis < axesOf(mDomain); ++axis)
        diffuseImplicit(mVelocity.component(axis), mParams.viscosity, dt, mSolids, mDomain, mWork,
                        moving, mDrivenFaces.noSlipFaces(axis));
    enforceBoundaries();
}

// Pressure projection (Chorin 1968; Bridson 2015, ch. 5) by multigrid-preconditioned CG.
StepStats SmokeSolver::project(float dt, bool expanding)
{
    const bool source = expanding && mParams.combustion.expansion > 0.f;
    const SolveResult r = mPressure.project(mVelocity, mPressureField, dt, mParams.pressure, mWork,
                                            source ? &mExpansion : nullptr);
    StepStats stats;
    stats.pressureIterations = r.iterations;
    stats.pressureResidual = r.residual;
    stats.pressureConverged = r.converged;
    stats.pressureFallback = r.fallback;
    return stats;
}

// Scalars follow the projected flow: semi-Lagrangian / cubic / MacCormack / BFECC, sharing
// one trace per sample; density optionally by West's mass-conserving accounting advection (2008).
// Fuel and flame live a fraction of a second (they burn and cool): one shared semi-Lagrangian pass
// moves them, as a second-order pass would cost as much as density's and temperature's.
void SmokeSolver::advectScalars(float dt)
{
    keepStage(ScalarStage::BeforeAdvection);
    admitAmbientAir(dt);
    std::array<ScalarGrid *, 5> fields{};
    std::size_t count = 0;
    if (mParams.accountingDensity)
        mAdvector.advectAccounting(mDensity, mVelocity, dt, mWork);
    else
        fields[count++] = &mDensity;
    fields[count++] = &mTemperature;
    if (hasDye()) {
        for (ScalarGrid &c : mDye)
            fields[count++] = &c;
    }
    mAdvector.advectScalars(std::span<ScalarGrid *const>(fields.data(), count), mVelocity, dt,
                            mParams.advection, mWork);
    if (hasCombustion()) {
        // Fuel is mass like density: the accounting scheme keeps both.
        std::array<ScalarGrid *, 2> burning{&mFlame, &mFuel};
        if (mParams.accountingDensity)
            mAdvector.advectAccounting(mFuel, mVelocity, dt, mWork);
        mAdvector.advectScalars(std::span<ScalarGrid *const>(burning.data(),
                                                             mParams.accountingDensity ? 1 : 2),
                                mVelocity, dt, AdvectionOrder::SemiLagrangian, mWork);
    }
    keepStage(ScalarStage::AfterAdvection);
}

namespace {

/// The scalar field a stage keeps in slot n (SmokeSolver::mStages), or null where it has none.
const FieldKind kStageFields[7] = {FieldKind::Density,  FieldKind::Temperature, FieldKind::DyeRed,
                                   FieldKind::DyeGreen, FieldKind::DyeBlue,     FieldKind::Fuel,
                                   FieldKind::Flame};

} // namespace

bool SmokeSolver::keepScalarStages(bool keep)
{
    mKeepStages = keep;
    if (!keep)
        for (auto &stage : mStages)
            for (ScalarGrid &g : stage)
                g = ScalarGrid();
    return true;
}

void SmokeSolver::keepStage(ScalarStage stage)
{
    if (!mKeepStages)
        return;
    const ScalarGrid *fields[7] = {&mDensity, &mTemperature, &mDye[0], &mDye[1],
                                   &mDye[2],  &mFuel,        &mFlame};
    for (int n = 0; n < 7; ++n) {
        ScalarGrid &kept = mStages[int(stage)][n];
        if (fields[n]->count() == 0) {
            kept = ScalarGrid();
            continue;
        }
        kept.reshapeForOverwrite(fields[n]->size(), fields[n]->offset());
        const float *src = fields[n]->data();
        float *dst = kept.data();
        forEachIndex(std::int64_t(kept.count()), [&](std::int64_t c) { dst[c] = src[c]; });
    }
}

void SmokeSolver::sampleStage(ScalarStage stage, FieldKind kind, ScalarGrid &out) const
{
    for (int n = 0; n < 7; ++n) {
        if (kStageFields[n] != kind)
            continue;
        const ScalarGrid &kept = mStages[int(stage)][n];
        if (kept.count() == 0) {
            out.reshape(mDomain.cells, kCellCentre, 0.f);
            return;
        }
        out.reshapeForOverwrite(kept.size(), kept.offset());
        std::copy(kept.data(), kept.data() + kept.count(), out.data());
        return;
    }
    sample(kind, out);
}

// Inflow through open faces brings outside air (ambient temperature, no smoke, dye, fuel or
// flame); the accounting scheme's fields take nothing in through an open face already.
void SmokeSolver::admitAmbientAir(float dt)
{
    std::array<AmbientField, 7> fields{};
    std::size_t count = 0;
    if (!mParams.accountingDensity)
        fields[count++] = {&mDensity, 0.f};
    fields[count++] = {&mTemperature, mParams.ambientTemperature};
    if (hasDye()) {
        for (ScalarGrid &c : mDye)
            fields[count++] = {&c, 0.f};
    }
    if (hasCombustion()) {
        fields[count++] = {&mFlame, 0.f};
        if (!mParams.accountingDensity)
            fields[count++] = {&mFuel, 0.f};
    }
    admitAmbientAtOpenFaces(std::span<const AmbientField>(fields.data(), count), mVelocity, mSolids,
                            mDomain, dt);
}

// Implicit diffusion of the scalars, backward Euler: (I - dt kappa L) q = q*.
void SmokeSolver::diffuseScalars(float dt)
{
    if (mParams.diffusion <= 0.f)
        return;
    diffuseImplicit(mDensity, mParams.diffusion, dt, mSolids, mDomain, mWork);
    diffuseImplicit(mTemperature, mParams.diffusion, dt, mSolids, mDomain, mWork);
    if (hasDye()) {
        for (ScalarGrid &c : mDye)
            diffuseImplicit(c, mParams.diffusion, dt, mSolids, mDomain, mWork);
    }
    if (hasCombustion()) {
        diffuseImplicit(mFuel, mParams.diffusion, dt, mSolids, mDomain, mWork);
        diffuseImplicit(mFlame, mParams.diffusion, dt, mSolids, mDomain, mWork);
    }
}

// Exponential decay: q *= exp(-rate dt), exact for any dt.
void SmokeSolver::dissipate(float dt)
{
    auto decay = [](ScalarGrid &q, float rate, float dt) {
        if (rate <= 0.f || q.count() == 0)
            return;
        const float f = std::exp(-rate * dt);
        float *d = q.data();
        forEachIndex(std::int64_t(q.count()), [&](std::int64_t n) { d[n] *= f; });
    };
    decay(mDensity, mParams.densityDissipation, dt);
    decay(mTemperature, mParams.temperatureDissipation, dt);
    if (hasDye()) {
        for (ScalarGrid &c : mDye)
            decay(c, mParams.densityDissipation, dt);
    }
    for (int axis = 0; axis < axesOf(mDomain); ++axis)
        decay(mVelocity.component(axis), mParams.velocityDissipation, dt);
    decay(mFlame, mParams.combustion.flameCooling, dt);
}

void SmokeSolver::sample(FieldKind kind, ScalarGrid &out) const
{
    const Int3 n = mDomain.cells;
    auto copy = [&](const ScalarGrid &g) {
        if (g.count() == 0) {
            out.reshape(n, kCellCentre, 0.f);
            return;
        }
        out.reshape(n, kCellCentre);
        std::copy(g.data(), g.data() + g.count(), out.data());
    };
    switch (kind) {
    case FieldKind::Density: copy(mDensity); return;
    case FieldKind::Temperature: copy(mTemperature); return;
    case FieldKind::DyeRed: copy(mDye[0]); return;
    case FieldKind::DyeGreen: copy(mDye[1]); return;
    case FieldKind::DyeBlue: copy(mDye[2]); return;
    case FieldKind::Pressure: copy(mPressureField); return;
    case FieldKind::Fuel: copy(mFuel); return;
    case FieldKind::Flame: copy(mFlame); return;
    case FieldKind::Divergence:
        PressureSolver::divergence(mVelocity, mSolids, mDomain, out);
        return;
    case FieldKind::Vorticity: vorticityMagnitude(mVelocity, mSolids, mDomain, out); return;
    case FieldKind::Solid:
        out.reshape(n, kCellCentre);
        forEachIndex(std::int64_t(out.count()), [&](std::int64_t c) {
            out[std::size_t(c)] = mSolids.isSolid(std::size_t(c)) ? 1.f : 0.f;
        });
        return;
    case FieldKind::Height:
    case FieldKind::DisplacementX:
    case FieldKind::DisplacementY:
    case FieldKind::NormalX:
    case FieldKind::NormalY:
    case FieldKind::NormalZ:
    case FieldKind::Foam: out.reshape(n, kCellCentre, 0.f); return; // the ocean's surface
    case FieldKind::VelocityX:
    case FieldKind::VelocityY:
    case FieldKind::VelocityZ:
    case FieldKind::Speed: break;
    }
    // Centre velocities, row by row: each component averages its two faces (atCentre's sums).
    out.reshape(n, kCellCentre);
    const bool is3D = !mDomain.is2D();
    const std::size_t strideY = mVelocity.v.strideY();
    const std::size_t strideZ = is3D ? mVelocity.w.strideZ() : 0;
    forEachRow(n, [&](int j, int k) {
        const float *u = mVelocity.u.data() + mVelocity.u.index(0, j, k);
        const float *v = mVelocity.v.data() + mVelocity.v.index(0, j, k);
        const float *w = is3D ? mVelocity.w.data() + mVelocity.w.index(0, j, k) : nullptr;
        float *row = out.data() + out.index(0, j, k);
        const auto cx = [&](int i) { return 0.5f * (u[i] + u[i + 1]); };
        const auto cy = [&](int i) { return 0.5f * (v[i] + v[i + strideY]); };
        const auto cz = [&](int i) { return w ? 0.5f * (w[i] + w[i + strideZ]) : 0.f; };
        for (int i = 0; i < n.x; ++i) {
            switch (kind) {
            case FieldKind::VelocityX: row[i] = cx(i); break;
            case FieldKind::VelocityY: row[i] = cy(i); break;
            case FieldKind::VelocityZ: row[i] = cz(i); break;
            default: row[i] = std::sqrt(cx(i) * cx(i) + cy(i) * cy(i) + cz(i) * cz(i)); break;
            }
        }
    });
}

float SmokeSolver::maxVelocity() const
{
    double m = 0.0;
    for (int axis = 0; axis < axesOf(mDomain); ++axis) {
        const ScalarGrid &c = mVelocity.component(axis);
        m = std::max(m, maxRows(c.size(), [&](int j, int k) {
                         double rowMax = 0.0;
                         const std::size_t base = c.index(0, j, k);
                         for (int i = 0; i < c.size().x; ++i)
                             rowMax = std::max(rowMax, double(std::fabs(c[base + i])));
                         return rowMax;
                     }));
    }
    return float(m);
}

std::string SmokeSolver::firstNonFiniteField() const
{
    auto bad = [](const ScalarGrid &g) { return !allFinite(g); };
    if (bad(mVelocity.u))
        return "velocity x";
    if (bad(mVelocity.v))
        return "velocity y";
    if (mVelocity.w.count() > 0 && bad(mVelocity.w))
        return "velocity z";
    if (bad(mDensity))
        return "density";
    if (bad(mTemperature))
        return "temperature";
    if (bad(mPressureField))
        return "pressure";
    if (hasCombustion() && bad(mFuel))
        return "fuel";
    if (hasCombustion() && bad(mFlame))
        return "flame";
    static const char *dyeNames[3] = {"dye red", "dye green", "dye blue"};
    for (int c = 0; c < 3; ++c) {
        if (mDye[c].count() > 0 && bad(mDye[c]))
            return dyeNames[c];
    }
    return {};
}

std::size_t SmokeSolver::memoryBytes() const
{
    std::size_t total = mSolids.count() + mVelocity.u.bytes() + mVelocity.v.bytes()
                        + mVelocity.w.bytes() + mDensity.bytes() + mTemperature.bytes()
                        + mPressureField.bytes() + mWork.bytes() + mPressure.memoryBytes()
                        + mAdvector.memoryBytes() + mDrivenFaces.memoryBytes()
                        + mControlWeights.bytes();
    for (const std::vector<float> &f : mEmitterFactors)
        total += f.size() * sizeof(float);
    for (const ScalarGrid &c : mDye)
        total += c.bytes();
    total += mFuel.bytes() + mFlame.bytes() + mExpansion.bytes() + mIgnite.size();
    for (const auto &stage : mStages)
        for (const ScalarGrid &g : stage)
            total += g.bytes();
    return total;
}

} // namespace plume::sim
