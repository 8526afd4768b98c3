// SPDX-License-Identifier: Apache-2.0
#include <core/sim/upres/upressolver.h>

#include <core/sim/upres/upresrows.h>

#include <core/sim/base/parallel.h>
#include <core/sim/numerics/sampling.h>

#include <algorithm>
#include <cmath>
#include <new>
#include <type_traits>

namespace plume::sim {

using namespace upres;

namespace {

constexpr FieldKind kFieldKinds[UpresSolver::kFields] = {FieldKind::Density, FieldKind::Temperature,
                                                         FieldKind::DyeRed,  FieldKind::DyeGreen,
                                                         FieldKind::DyeBlue, FieldKind::Fuel,
                                                         FieldKind::Flame};

/// The fine field that holds `kind`, or -1.
int fieldOf(FieldKind kind)
{
    for (int f = 0; f < UpresSolver::kFields; ++f)
        if (kFieldKinds[f] == kind)
            return f;
    return -1;
}

/// The noise seed: fixed, so that a scene bakes the same everywhere (the noise coordinates,
/// not the seed, make every frame different).
constexpr std::uint32_t kNoiseSeed = 0x0B5E55EDu;

/// Whether set `set` starts afresh in a step from `time` to `time + dt`.
bool setRestarts(double time, float dt, float lifetime, int set)
{
    return std::floor(time / lifetime + 0.5 * set)
           != std::floor((time + dt) / lifetime + 0.5 * set);
}

} // namespace

Domain UpresSolver::fineDomainOf(const Domain &domain, int factor)
{
    Domain fine = domain;
    fine.cells = {domain.cells.x * factor, domain.cells.y * factor,
                  domain.is2D() ? 1 : domain.cells.z * factor};
    fine.cellSize = domain.cellSize / float(factor);
    return fine;
}

UpresSolver::UpresSolver(std::unique_ptr<Solver> inner, const SimParams &params)
    : mInner(std::move(inner))
    , mParams(params)
{
    const Domain &d = mInner->domain();
    const int f = params.upres.factor;
    mFactor = {f, f, d.is2D() ? 1 : f};
    mFine = fineDomainOf(d, f);
    mTile = NoiseTile(!d.is2D(), kNoiseSeed);
    mFields[0].reshape(mFine.cells, kCellCentre);
    mFields[1].reshape(mFine.cells, kCellCentre);
    mInner->keepScalarStages(true);
    for (auto &set : mCoords)
        for (int a = 0; a < d.dimensions(); ++a)
            set[a].reshape(d.cells, kCellCentre);
    ensureFields();
}

Status UpresSolver::setParams(const SimParams &params)
{
    if (Status s = checkParamsChange(mParams, params); !s)
        return s;
    if (Status s = mInner->setParams(params); !s)
        return s;
    mParams = params;
    return Status::success();
}

bool UpresSolver::present(int f) const { return mFields[f].count() > 0; }

void UpresSolver::ensureFields()
{
    if (mInner->hasDye() && !present(2))
        for (int f = 2; f <= 4; ++f)
            mFields[f].reshape(mFine.cells, kCellCentre);
    if (mInner->hasCombustion() && !present(5))
        for (int f = 5; f <= 6; ++f)
            mFields[f].reshape(mFine.cells, kCellCentre);
}

void UpresSolver::reset()
{
    mInner->reset();
    for (ScalarGrid &g : mFields)
        if (g.count() > 0)
            g.fill(0.f);
    for (auto &set : mCoords)
        for (ScalarGrid &g : set)
            if (g.count() > 0)
                g.fill(0.f);
    mBox = {};
    mPrevBox = {};
}

StepStats UpresSolver::step(float dt, double time)
{
    mDt = dt;
    sampleFields(mStart);                           // the solver's fields before the step
    const StepStats stats = mInner->step(dt, time); // the flow, sources, burning, its fields
    ensureFields();
    sampleCoarse();
    findSmoke(dt);
    findColumns();
    advectCoordinates(dt, time);
    computeAmplitude();
    for (int f = 0; f < kFields; ++f) {
        if (!present(f))
            continue;
        // What the sources and the burning changed, before the solver advected its fields.
        sampleStage(f, ScalarStage::BeforeAdvection, mStage);
        follow(f, mStart[f], mStage);
    }
    traceFine(dt, time);
    for (int f = 0; f < kFields; ++f) {
        if (!present(f))
            continue;
        correctTrace(f); // MacCormack on the fine grid: fronts stay a few fine cells wide
        sampleStage(f, ScalarStage::AfterAdvection, mStage);
        follow(f, mStage, mCoarse[f]); // diffusion, dissipation, cooling
        match(f);
        clearLeftCells(f);
    }
    mPrevBox = mBox;
    return stats;
}

void UpresSolver::sampleFields(ScalarGrid (&out)[kFields]) const
{
    for (int f = 0; f < kFields; ++f) {
        mInner->sample(kFieldKinds[f], out[f]);
        if (f == 1)
            relativeToAmbient(out[f]);
    }
}

void UpresSolver::sampleStage(int f, ScalarStage stage, ScalarGrid &out) const
{
    mInner->sampleStage(stage, kFieldKinds[f], out);
    if (f == 1)
        relativeToAmbient(out);
}

void UpresSolver::relativeToAmbient(ScalarGrid &t) const
{
    float *v = t.data();
    const float ambient = mParams.ambientTemperature;
    forEachIndex(std::int64_t(t.count()), [&](std::int64_t n) { v[n] -= ambient; });
}

void UpresSolver::sampleCoarse()
{
    for (int f = 0; f < kFields; ++f) {
        if (!present(f)) {
            mCoarse[f] = ScalarGrid();
            continue;
        }
        mInner->sample(kFieldKinds[f], mCoarse[f]);
        if (f == 1)
            relativeToAmbient(mCoarse[f]);
    }
    const FieldKind velocity[3] = {FieldKind::VelocityX, FieldKind::VelocityY,
                                   FieldKind::VelocityZ};
    for (int a = 0; a < 3; ++a)
        mInner->sample(velocity[a], mVelocity[a]);
}

void UpresSolver::findSmoke(float dt)
{
    // 1. The cells holding smoke (any field above kActiveThreshold), and per row of the search
    //    box the lowest and highest of them, combined in order (the box does not depend on how
    //    rows were shared out).
    const Domain &d = mInner->domain();
    mActive.assign(std::size_t(d.cellCount()), 0);
    mBox = {};
    const CellBox search = mInner->fieldBox();
    if (search.empty())
        return;
    const Int3 n = search.size();
    std::vector<Int3> rowRange(std::size_t(n.y) * std::size_t(n.z), Int3{-1, -1, 0});
    forEachBoxRow(search, [&](int j, int k) {
        int lo = -1, hi = -1;
        for (int i = search.lo.x; i < search.hi.x; ++i) {
            bool smoke = false;
            for (int f = 0; f < kFields && !smoke; ++f)
                smoke = present(f) && std::abs(mCoarse[f](i, j, k)) > kActiveThreshold;
            if (!smoke)
                continue;
            mActive[mCoarse[0].index(i, j, k)] = 1;
            if (lo < 0)
                lo = i;
            hi = i;
        }
        rowRange[std::size_t(k - search.lo.z) * std::size_t(n.y) + std::size_t(j - search.lo.y)] = {
            lo, hi, 0};
    });
    CellBox box{{d.cells.x, d.cells.y, d.cells.z}, {0, 0, 0}};
    for (int kk = 0; kk < n.z; ++kk)
        for (int jj = 0; jj < n.y; ++jj) {
            const Int3 r = rowRange[std::size_t(kk) * std::size_t(n.y) + std::size_t(jj)];
            if (r.x < 0)
                continue;
            box.lo = {std::min(box.lo.x, r.x), std::min(box.lo.y, search.lo.y + jj),
                      std::min(box.lo.z, search.lo.z + kk)};
            box.hi = {std::max(box.hi.x, r.y + 1), std::max(box.hi.y, search.lo.y + jj + 1),
                      std::max(box.hi.z, search.lo.z + kk + 1)};
        }
    if (box.empty())
        return;

    // 2. The box: grown by the margin and the distance the fastest flow covers in the step (the
    //    noise adds less than the flow's finest band, which the margin covers).
    const float travel = mInner->maxVelocity() * dt / d.cellSize;
    const int grow = kMargin + int(std::ceil(std::min(travel, float(1 << 20))));
    for (int a = 0; a < d.dimensions(); ++a) {
        const bool periodic = d.boundary(a, false) == Boundary::Periodic;
        box.lo[a] = periodic ? 0 : std::max(box.lo[a] - grow, 0);
        box.hi[a] = periodic ? d.cells[a] : std::min(box.hi[a] + grow, d.cells[a]);
    }
    if (d.is2D())
        box.lo.z = 0, box.hi.z = 1;
    mBox = box;

    // 3. The active cells: the smoke grown as far within the box, along each axis in turn (a
    //    box-shaped neighbourhood).
    std::vector<std::uint8_t> grown(mActive.size());
    for (int a = 0; a < d.dimensions(); ++a) {
        const std::size_t stride = a == 0 ? 1
                                          : (a == 1 ? mCoarse[0].strideY() : mCoarse[0].strideZ());
        const bool periodic = d.boundary(a, false) == Boundary::Periodic;
        const int cells = d.cells[a];
        forEachBoxRow(mBox, [&](int j, int k) {
            for (int i = mBox.lo.x; i < mBox.hi.x; ++i) {
                const Int3 c{i, j, k};
                const std::size_t at = mCoarse[0].index(i, j, k);
                std::uint8_t on = 0;
                for (int o = -grow; o <= grow && !on; ++o) {
                    int m = c[a] + o;
                    if (m < 0 || m >= cells) {
                        if (!periodic)
                            continue;
                        m = (m % cells + cells) % cells;
                    }
                    on = mActive[at
                                 + std::size_t(std::ptrdiff_t(m - c[a]) * std::ptrdiff_t(stride))];
                }
                grown[at] = on;
            }
        });
        mActive.swap(grown);
    }
}

void UpresSolver::findColumns()
{
    const CellBox fineBox = scaled(mBox, mFactor);
    mColumns.resize(std::size_t(std::max(fineBox.size().x, 0)));
    const detail::GridMap map = detail::gridMap(mVelocity[0], mInner->domain());
    const float inv = 1.f / float(mFactor.x);
    for (std::size_t ii = 0; ii < mColumns.size(); ++ii) {
        const int I = fineBox.lo.x + int(ii);
        const detail::Lerp lx = detail::locate(map.axis[0], (float(I) + 0.5f) * inv);
        mColumns[ii] = {I / mFactor.x, lx.i0, lx.i1, lx.f};
    }
}

void UpresSolver::advectCoordinates(float dt, double time)
{
    // Both sets move along the same trace: each cell of the box traces back once (midpoint
    // rule along the cell-centre velocity) and takes each set's coordinates there. Outside the
    // box, and in a set that restarts, the coordinates are 0.
    const Domain &d = mInner->domain();
    const int axes = d.dimensions();
    const detail::GridMap map = detail::gridMap(mVelocity[0], d);
    const float toCells = dt / d.cellSize;
    bool restart[2];
    for (int set = 0; set < 2; ++set) {
        restart[set] = setRestarts(time, dt, mParams.upres.lifetime, set);
        for (int a = 0; a < axes; ++a)
            mCoordsNext[set * 3 + a].reshape(d.cells, kCellCentre, 0.f);
    }
    const auto advect = [&]<bool k3D>(std::bool_constant<k3D>) {
        forEachBoxRow(mBox, [&](int j, int k) {
            for (int i = mBox.lo.x; i < mBox.hi.x; ++i) {
                const std::size_t c = mCoordsNext[0].index(i, j, k);
                const Vec3 x{float(i) + 0.5f, float(j) + 0.5f, float(k) + 0.5f};
                const auto velocityAt = [&](Vec3 p) {
                    const detail::Stencil s = detail::stencilAt<k3D>(map, p);
                    Vec3 u{};
                    for (int a = 0; a < axes; ++a)
                        u[a] = detail::interpolate<k3D>(mVelocity[a].data(), s);
                    return u;
                };
                const Vec3 mid = x - velocityAt(x) * (0.5f * toCells);
                const Vec3 from = x - velocityAt(mid) * toCells;
                const detail::Stencil s = detail::stencilAt<k3D>(map, from);
                for (int set = 0; set < 2; ++set)
                    if (!restart[set])
                        for (int a = 0; a < axes; ++a)
                            mCoordsNext[set * 3 + a][c] =
                                detail::interpolate<k3D>(mCoords[set][a].data(), s)
                                + (from[a] - x[a]);
            }
        });
    };
    if (!mBox.empty()) {
        if (d.is2D())
            advect(std::false_type{});
        else
            advect(std::true_type{});
    }
    for (int set = 0; set < 2; ++set)
        for (int a = 0; a < axes; ++a)
            mCoords[set][a].swap(mCoordsNext[set * 3 + a]);
}

void UpresSolver::computeAmplitude()
{
    // The kinetic energy e = |u|^2 / 2 at each cell, and its finest resolved band: e minus its
    // [1 2 1] / 4 blur along every axis (neighbours clamped at the domain's edge, wrapped on
    // periodic axes), as Kim et al. decompose the energy. The amplitude is sqrt(2 |e_high|).
    const Domain &d = mInner->domain();
    const Int3 n = d.cells;
    const int axes = d.dimensions();
    mAmplitude.reshape(n, kCellCentre, 0.f);
    if (mBox.empty() || mParams.upres.strength <= 0.f)
        return;
    // The energy over the box grown by one cell (the blur's reach).
    CellBox grown = mBox;
    for (int a = 0; a < axes; ++a) {
        grown.lo[a] = std::max(grown.lo[a] - 1, 0);
        grown.hi[a] = std::min(grown.hi[a] + 1, n[a]);
    }
    mCoordsNext[0].reshape(n, kCellCentre, 0.f);
    ScalarGrid &energy = mCoordsNext[0]; // scratch until the next step's coordinates
    forEachBoxRow(grown, [&](int j, int k) {
        for (int i = grown.lo.x; i < grown.hi.x; ++i) {
            float e = 0.f;
            for (int a = 0; a < axes; ++a)
                e += mVelocity[a](i, j, k) * mVelocity[a](i, j, k);
            energy(i, j, k) = 0.5f * e;
        }
    });
    auto neighbour = [&](int i, int a) {
        if (i < 0)
            return d.boundary(a, false) == Boundary::Periodic ? i + n[a] : 0;
        if (i >= n[a])
            return d.boundary(a, false) == Boundary::Periodic ? i - n[a] : n[a] - 1;
        return i;
    };
    constexpr float w[3] = {0.25f, 0.5f, 0.25f};
    forEachBoxRow(mBox, [&](int j, int k) {
        for (int i = mBox.lo.x; i < mBox.hi.x; ++i) {
            float blurred = 0.f;
            for (int dk = axes == 3 ? -1 : 0; dk <= (axes == 3 ? 1 : 0); ++dk) {
                const int kk = axes == 3 ? neighbour(k + dk, 2) : 0;
                const float wk = axes == 3 ? w[dk + 1] : 1.f;
                for (int dj = -1; dj <= 1; ++dj) {
                    const int jj = neighbour(j + dj, 1);
                    const float wjk = wk * w[dj + 1];
                    for (int di = -1; di <= 1; ++di)
                        blurred += wjk * w[di + 1] * energy(neighbour(i + di, 0), jj, kk);
                }
            }
            mAmplitude(i, j, k) = std::sqrt(2.f * std::abs(energy(i, j, k) - blurred));
        }
    });
}

void UpresSolver::sample(FieldKind kind, ScalarGrid &out) const
{
    const Int3 n = mFine.cells;
    if (const int f = fieldOf(kind); f >= 0) {
        if (!present(f)) {
            out.reshape(n, kCellCentre, 0.f);
            return;
        }
        out.reshapeForOverwrite(n, kCellCentre);
        const float add = f == 1 ? mParams.ambientTemperature : 0.f;
        const float *src = mFields[f].data();
        float *dst = out.data();
        forEachIndex(std::int64_t(out.count()), [&](std::int64_t c) { dst[c] = src[c] + add; });
        return;
    }
    // Everything else comes from the solver, interpolated to the fine cells' centres (the
    // solid flags: each fine cell takes its cell's).
    const Domain &d = mInner->domain();
    ScalarGrid coarse;
    mInner->sample(kind, coarse);
    out.reshapeForOverwrite(n, kCellCentre);
    const Int3 F = mFactor;
    if (kind == FieldKind::Solid) {
        forEachRow(n, [&](int j, int k) {
            float *row = out.data() + out.index(0, j, k);
            for (int i = 0; i < n.x; ++i)
                row[i] = coarse(i / F.x, j / F.y, k / F.z);
        });
        return;
    }
    const detail::GridMap map = detail::gridMap(coarse, d);
    const Vec3 inv{1.f / float(F.x), 1.f / float(F.y), 1.f / float(F.z)};
    const bool k3D = !d.is2D();
    forEachRow(n, [&](int j, int k) {
        float *row = out.data() + out.index(0, j, k);
        for (int i = 0; i < n.x; ++i) {
            const Vec3 x{(float(i) + 0.5f) * inv.x, (float(j) + 0.5f) * inv.y,
                         (float(k) + 0.5f) * inv.z};
            row[i] = k3D ? detail::interpolate<true>(coarse.data(), detail::stencilAt<true>(map, x))
                         : detail::interpolate<false>(coarse.data(),
                                                      detail::stencilAt<false>(map, x));
        }
    });
}

CellBox UpresSolver::fieldBox() const { return scaled(mInner->fieldBox(), mFactor); }

void UpresSolver::sampleIn(FieldKind kind, const CellBox &box, ScalarGrid &out) const
{
    const int f = fieldOf(kind);
    if (f < 0 || !present(f)) {
        Solver::sampleIn(kind, box, out);
        return;
    }
    out.reshapeForOverwrite(box.size(), kCellCentre);
    copyBlock(mFields[f], box.lo, out, {0, 0, 0}, box.size());
    if (f == 1) {
        float *t = out.data();
        const float ambient = mParams.ambientTemperature;
        forEachIndex(std::int64_t(out.count()), [&](std::int64_t n) { t[n] += ambient; });
    }
}

std::string UpresSolver::firstNonFiniteField() const
{
    std::string inner = mInner->firstNonFiniteField();
    if (!inner.empty())
        return inner;
    for (int f = 0; f < kFields; ++f)
        if (present(f) && !allFinite(mFields[f]))
            return std::string("upres ") + toString(kFieldKinds[f]);
    return {};
}

std::size_t UpresSolver::memoryBytes() const
{
    std::size_t bytes = mInner->memoryBytes() + mTile.samples().capacity() * sizeof(float);
    auto add = [&](const ScalarGrid &g) { bytes += g.bytes(); };
    for (const ScalarGrid &g : mFields)
        add(g);
    for (const auto &set : mCoords)
        for (const ScalarGrid &g : set)
            add(g);
    for (const ScalarGrid &g : mCoarse)
        add(g);
    for (const ScalarGrid &g : mVelocity)
        add(g);
    for (const ScalarGrid &g : mCoordsNext)
        add(g);
    add(mAmplitude);
    bytes += mActive.capacity();
    for (const ScalarGrid &g : mAdvected)
        add(g);
    add(mDifference);
    for (const ScalarGrid &g : mStart)
        add(g);
    add(mStage);
    add(mAmplitudeScratch);
    for (const ScalarGrid &g : mMove)
        add(g);
    add(mCorrected);
    return bytes;
}

std::vector<StateField> UpresSolver::stateFields()
{
    std::vector<StateField> fields = mInner->stateFields();
    static constexpr const char *kNames[kFields] = {"upres-density",  "upres-temperature",
                                                    "upres-dye-red",  "upres-dye-green",
                                                    "upres-dye-blue", "upres-fuel",
                                                    "upres-flame"};
    static constexpr int kGroup[kFields] = {0, 0, 101, 101, 101, 102, 102};
    const Int3 n = mFine.cells;
    for (int f = 0; f < kFields; ++f)
        fields.push_back({.name = kNames[f],
                          .grid = &mFields[f],
                          .size = n,
                          .optional = kGroup[f] != 0,
                          .group = kGroup[f]});
    static constexpr const char *kCoordNames[2][3] = {{"upres-coords-a-x", "upres-coords-a-y",
                                                       "upres-coords-a-z"},
                                                      {"upres-coords-b-x", "upres-coords-b-y",
                                                       "upres-coords-b-z"}};
    const Domain &d = mInner->domain();
    for (int set = 0; set < 2; ++set)
        for (int a = 0; a < d.dimensions(); ++a)
            fields.push_back(
                {.name = kCoordNames[set][a], .grid = &mCoords[set][a], .size = d.cells});
    return fields;
}

void UpresSolver::stateRestored(bool solidsChanged)
{
    mInner->stateRestored(solidsChanged);
    // The restored fields are zero outside the box they were saved with, which is not kept:
    // the next step clears everything outside its own box.
    mPrevBox = {{0, 0, 0}, mInner->domain().cells};
}

void UpresSolver::applyObstacles(const FlagGrid &solids, const ObstacleMotion &motion)
{
    if (!mInner->setObstacles(solids, motion))
        throw std::bad_alloc();
}

void UpresSolver::applyEmitters(std::vector<Emitter> emitters)
{
    if (!mInner->setEmitters(std::move(emitters)))
        throw std::bad_alloc();
}

void UpresSolver::applyForceFields(std::vector<ForceField> fields)
{
    if (!mInner->setForceFields(std::move(fields)))
        throw std::bad_alloc();
}

} // namespace plume::sim
