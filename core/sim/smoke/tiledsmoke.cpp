// SPDX-License-Identifier: Apache-2.0
#include <core/sim/smoke/tiledsmoke.h>

#include <core/sim/base/parallel.h>
#include <core/sim/ops/forces.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <new>

namespace plume::sim {

namespace {

// The mean of `fine` over each composite cell (the cell itself on fine tiles).
void averageOnto(const CompositeGrid &g, const ScalarGrid &fine, std::vector<float> &out)
{
    out.assign(g.cellCount(), 0.f);
    forEachJob(std::int64_t(g.tileCount()), [&](std::int64_t tj) {
        const std::size_t t = std::size_t(tj);
        const Int3 tc = g.tileOf(t), e = g.extent(t);
        const int s = g.scale(t), sz = g.dims == 3 ? s : 1;
        for (int k = 0; k < e.z; ++k)
            for (int j = 0; j < e.y; ++j)
                for (int i = 0; i < e.x; ++i) {
                    const Int3 lo{tc.x * CompositeGrid::kTile + i * s,
                                  tc.y * CompositeGrid::kTile + j * s,
                                  tc.z * CompositeGrid::kTile + k * sz};
                    double sum = 0.0;
                    for (int z = 0; z < sz; ++z)
                        for (int y = 0; y < s; ++y)
                            for (int x = 0; x < s; ++x)
                                sum += fine(lo.x + x, lo.y + y, lo.z + z);
                    out[g.cell(t, {i, j, k})] = float(sum / double(s * s * sz));
                }
    });
}

// Each fine cell takes its composite cell's value.
void spreadOnto(const CompositeGrid &g, const std::vector<float> &values, ScalarGrid &fine)
{
    forEachJob(std::int64_t(g.tileCount()), [&](std::int64_t tj) {
        const std::size_t t = std::size_t(tj);
        const Int3 tc = g.tileOf(t);
        const int s = g.scale(t), sz = g.dims == 3 ? s : 1;
        const int depth = g.dims == 3 ? CompositeGrid::kTile : 1;
        for (int k = 0; k < depth; ++k)
            for (int j = 0; j < CompositeGrid::kTile; ++j)
                for (int i = 0; i < CompositeGrid::kTile; ++i)
                    fine(tc.x * CompositeGrid::kTile + i, tc.y * CompositeGrid::kTile + j,
                         tc.z * CompositeGrid::kTile
                             + k) = values[g.cell(t, {i / s, j / s, k / sz})];
    });
}

} // namespace

TiledSmokeSolver::TiledSmokeSolver(const Domain &domain, const SimParams &params)
    : mInner(domain, params)
    , mGrid(TileGrid::of(domain))
{
    mInner.mProjection = [this](float dt, bool expanding) { return project(dt, expanding); };
    mTiles.reset(mGrid);
}

Status TiledSmokeSolver::setParams(const SimParams &params)
{
    if (params.activeTiles != mInner.params().activeTiles)
        return Status::failure("active tiles cannot be switched on a running solver; make a new "
                               "one");
    return mInner.setParams(params);
}

void TiledSmokeSolver::reset()
{
    mInner.reset();
    mTiles.reset(mGrid);
    mLayout.clear();
}

void TiledSmokeSolver::updateTiles(float dt)
{
    const SmokeSolver &s = mInner;
    const ScalarGrid *fields[] = {&s.mDensity, &s.mTemperature, &s.mDye[0], &s.mDye[1],
                                  &s.mDye[2],  &s.mFuel,        &s.mFlame};
    const float reach = s.maxVelocity() * dt / s.domain().cellSize;
    const int padding = TileGrid::kTile + int(std::ceil(std::min(reach, float(INT_MAX / 4))));
    std::vector<CellBox> seeds = seedBoxes(mGrid, fields, kThreshold);
    // The flow the smoke stirs up: vorticity above a share of the largest.
    if (mVorticityShare > 0.0)
        addStirredFlow(seeds);
    std::vector<CellBox> forced = mEmitterBoxes;
    forced.insert(forced.end(), mObstacleBoxes.begin(), mObstacleBoxes.end());
    mTiles.update(seeds, padding, forced, mLifetime);
}

// Unites into `seeds` the cells whose vorticity lies above mVorticityShare of the largest.
void TiledSmokeSolver::addStirredFlow(std::vector<CellBox> &seeds)
{
    const SmokeSolver &s = mInner;
    vorticityMagnitude(s.mVelocity, s.mSolids, s.domain(), mVorticity);
    const double largest = maxRows(mVorticity.size(), [&](int j, int k) {
        const float *row = mVorticity.data() + mVorticity.index(0, j, k);
        float m = 0.f;
        for (int i = 0; i < mVorticity.size().x; ++i)
            m = std::max(m, row[i]);
        return double(m);
    });
    if (!(largest > 0.0))
        return;
    const ScalarGrid *curl[] = {&mVorticity};
    const std::vector<CellBox> stirred = seedBoxes(mGrid, curl, float(mVorticityShare * largest));
    for (std::size_t t = 0; t < seeds.size(); ++t)
        seeds[t] = unite(seeds[t], stirred[t]);
}

StepStats TiledSmokeSolver::step(float dt, double time)
{
    updateTiles(dt);
    clearInactive();
    // The velocity moves, and the confinement acts, on the active tiles only; elsewhere the
    // far field stands.
    mInner.setLiveTiles(mTiles.flags().data());
    return mInner.step(dt, time); // project() below stands in for its projection
}

// Outside the active tiles there is no smoke: what is left there lies below the threshold (the
// padding keeps more than that inside). With zeros there, the scalar advection skips those rows.
void TiledSmokeSolver::clearInactive()
{
    SmokeSolver &s = mInner;
    ScalarGrid *fields[] = {&s.mDensity, &s.mTemperature, &s.mDye[0], &s.mDye[1],
                            &s.mDye[2],  &s.mFuel,        &s.mFlame};
    forEachJob(std::int64_t(mGrid.count()), [&](std::int64_t tj) {
        const std::size_t t = std::size_t(tj);
        if (mTiles.active(t))
            return;
        const CellBox box = mGrid.cellsOf(t);
        for (ScalarGrid *g : fields) {
            if (g->count() == 0)
                continue;
            for (int k = box.lo.z; k < box.hi.z; ++k)
                for (int j = box.lo.y; j < box.hi.y; ++j) {
                    float *row = g->data() + g->index(0, j, k);
                    for (int i = box.lo.x; i < box.hi.x; ++i)
                        row[i] = 0.f;
                }
        }
    });
}

StepStats TiledSmokeSolver::project(float dt, bool expanding)
{
    const Domain &domain = mInner.domain();
    std::vector<std::uint8_t> active(mGrid.count(), 0);
    for (std::uint32_t t : mTiles.list())
        active[t] = 1;
    std::vector<std::uint8_t> levels = CompositeGrid::levelsAround(domain, active);
    if (levels != mLayout || mSolidsChanged) {
        mComposite.setup(domain, levels, mInner.mSolids);
        mLayout = std::move(levels);
        mSolidsChanged = false;
    }
    const CompositeGrid &g = mComposite.grid();
    // The warm start: the last pressure over the new cells.
    std::vector<float> pressure;
    if (mInner.mPressureField.size() == domain.cells)
        averageOnto(g, mInner.mPressureField, pressure);
    const bool source = expanding && mInner.mParams.combustion.expansion > 0.f;
    if (source)
        averageOnto(g, mInner.mExpansion, mTarget);
    mFaces.fromMac(g, mInner.mVelocity);
    const SolveResult r = mComposite.project(mFaces, pressure, dt, mInner.mParams.pressure,
                                             source ? &mTarget : nullptr);
    mFaces.toMac(g, mInner.mVelocity);
    mInner.mPressureField.reshape(domain.cells, kCellCentre, 0.f);
    spreadOnto(g, pressure, mInner.mPressureField);
    StepStats stats;
    stats.pressureIterations = r.iterations;
    stats.pressureResidual = r.residual;
    stats.pressureConverged = r.converged;
    stats.pressureFallback = r.fallback;
    return stats;
}

std::size_t TiledSmokeSolver::memoryBytes() const
{
    std::size_t bytes = mInner.memoryBytes() + mTiles.memoryBytes() + mComposite.memoryBytes()
                        + mLayout.capacity() + mTarget.capacity() * sizeof(float)
                        + mStageTiles.bytes();
    for (int a = 0; a < 3; ++a)
        bytes += mFaces.value[std::size_t(a)].capacity() * sizeof(float)
                 + mFaces.faceFirst[std::size_t(a)].capacity() * sizeof(std::uint32_t);
    return bytes;
}

std::vector<StateField> TiledSmokeSolver::stateFields()
{
    // The dense state, and the tiles: their flags, then their timers (the next step's tiles
    // follow from both).
    std::vector<StateField> fields = mInner.stateFields();
    const std::size_t n = mGrid.count();
    mStageTiles.reshape({int(2 * n), 1, 1}, kCellCentre);
    for (std::size_t t = 0; t < n; ++t) {
        mStageTiles[t] = float(mTiles.flags()[t]);
        mStageTiles[n + t] = float(mTiles.timers()[t]);
    }
    fields.push_back({.name = "active-tiles",
                      .grid = &mStageTiles,
                      .size = {int(2 * n), 1, 1},
                      .optional = true});
    return fields;
}

void TiledSmokeSolver::stateRestored(bool solidsChanged)
{
    mInner.stateRestored(solidsChanged);
    mSolidsChanged = true;
    const std::size_t n = mGrid.count();
    if (mStageTiles.count() != 2 * n) { // a dense solver's checkpoint: tiles from the state
        mTiles.reset(mGrid);
        mStageTiles = ScalarGrid();
        return;
    }
    std::vector<std::uint8_t> flags(n);
    std::vector<std::uint16_t> timers(n);
    for (std::size_t t = 0; t < n; ++t) {
        flags[t] = mStageTiles[t] != 0.f ? 1 : 0;
        timers[t] = std::uint16_t(std::clamp(mStageTiles[n + t], 0.f, 65535.f));
    }
    if (!mTiles.restore(mGrid, std::move(flags), std::move(timers)))
        mTiles.reset(mGrid);
    mStageTiles = ScalarGrid();
}

void TiledSmokeSolver::applyObstacles(const FlagGrid &solids, const ObstacleMotion &motion)
{
    if (!mInner.setObstacles(solids, motion))
        throw std::bad_alloc();
    mSolidsChanged = true;
    // Moving solids keep their tiles active: the tiles of every cell with a velocity.
    std::vector<std::uint8_t> moving(mGrid.count(), 0);
    for (const ScalarGrid &v : motion.velocity) {
        for (std::size_t c = 0; c < v.count(); ++c)
            if (v[c] != 0.f) {
                const Int3 p = cellOf(c, mGrid.cells);
                moving[mGrid.index(
                    {p.x / TileGrid::kTile, p.y / TileGrid::kTile, p.z / TileGrid::kTile})] = 1;
            }
    }
    mObstacleBoxes.clear();
    for (std::size_t t = 0; t < moving.size(); ++t)
        if (moving[t])
            mObstacleBoxes.push_back(mGrid.cellsOf(t));
}

void TiledSmokeSolver::applyEmitters(std::vector<Emitter> emitters)
{
    std::vector<CellBox> boxes;
    for (const Emitter &e : emitters)
        boxes.push_back(e.mask.bounds(mGrid.cells));
    if (!mInner.setEmitters(std::move(emitters)))
        throw std::bad_alloc();
    mEmitterBoxes = std::move(boxes);
}

void TiledSmokeSolver::applyForceFields(std::vector<ForceField> fields)
{
    if (!mInner.setForceFields(std::move(fields)))
        throw std::bad_alloc();
}

} // namespace plume::sim
