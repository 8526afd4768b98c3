// SPDX-License-Identifier: Apache-2.0
#include <core/sim/upres/upressolver.h>

#include <core/sim/base/parallel.h>
#include <core/sim/numerics/sampling.h>

#include <algorithm>
#include <cmath>
#include <new>
#include <type_traits>

namespace plume::sim {

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

/// Where the two coordinate sets and the octaves read the tile, so that none repeats another.
constexpr Vec3 kTileOffset[2] = {{0.f, 0.f, 0.f}, {23.37f, 41.71f, 11.13f}};
constexpr Vec3 kOctaveOffset{13.3f, 7.9f, 29.3f};

/// The set's fade weight at `time`: a triangle over its lifetime, 0 when it starts afresh.
/// The two sets are half a lifetime apart, so their weights add up to 1.
float setWeight(double time, float lifetime, int set)
{
    const double phase = time / lifetime + 0.5 * set;
    const double f = phase - std::floor(phase);
    return float(1.0 - std::abs(2.0 * f - 1.0));
}

/// Whether set `set` starts afresh in a step from `time` to `time + dt`.
bool setRestarts(double time, float dt, float lifetime, int set)
{
    return std::floor(time / lifetime + 0.5 * set)
           != std::floor((time + dt) / lifetime + 0.5 * set);
}

/// Rows of a box: calls body(j, k) for rows of `box` (absolute cell indices).
template<class F>
void forEachBoxRow(const CellBox &box, F &&body)
{
    const Int3 n = box.size();
    forEachRow(n, [&](int j, int k) { body(box.lo.y + j, box.lo.z + k); });
}

CellBox scaled(const CellBox &b, Int3 f)
{
    return {{b.lo.x * f.x, b.lo.y * f.y, b.lo.z * f.z}, {b.hi.x * f.x, b.hi.y * f.y, b.hi.z * f.z}};
}

/// The four rows of a cell-centred coarse grid around a fine row at coarse coordinates (y, z),
/// and the weights between them: each grid interpolated in y and z once per fine row becomes a
/// line along x from which every fine cell takes one lerp.
struct RowStencil
{
    std::size_t r00 = 0, r01 = 0, r10 = 0, r11 = 0;
    float fy = 0.f, fz = 0.f;
    bool k3D = true;

    RowStencil(const detail::GridMap &map, float y, float z, bool threeD)
        : k3D(threeD)
    {
        const detail::Lerp ly = detail::locate(map.axis[1], y);
        const detail::Lerp lz = k3D ? detail::locate(map.axis[2], z) : detail::Lerp{};
        r00 = map.sy * std::size_t(ly.i0) + map.sz * std::size_t(lz.i0);
        r01 = map.sy * std::size_t(ly.i1) + map.sz * std::size_t(lz.i0);
        r10 = map.sy * std::size_t(ly.i0) + map.sz * std::size_t(lz.i1);
        r11 = map.sy * std::size_t(ly.i1) + map.sz * std::size_t(lz.i1);
        fy = ly.f;
        fz = lz.f;
    }

    /// line[i] for i in [first, end): grid `q` interpolated in y and z at x sample i.
    void line(const float *q, int first, int end, float *line) const
    {
        for (int i = first; i < end; ++i) {
            const std::size_t x = std::size_t(i);
            const float a = q[r00 + x] + fy * (q[r01 + x] - q[r00 + x]);
            if (!k3D) {
                line[i] = a;
                continue;
            }
            const float b = q[r10 + x] + fy * (q[r11 + x] - q[r10 + x]);
            line[i] = a + fz * (b - a);
        }
    }
};

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

void UpresSolver::traceFine(float dt, double time)
{
    const Domain &d = mInner->domain();
    const CellBox fineBox = scaled(mBox, mFactor);
    const Int3 size = fineBox.size();
    int traced[kFields], fields = 0; // the fields that exist
    for (int f = 0; f < kFields; ++f)
        if (present(f)) {
            traced[fields++] = f;
            mAdvected[f].reshapeForOverwrite(mBox.empty() ? Int3{0, 0, 0} : size, kCellCentre);
        } else {
            mAdvected[f] = ScalarGrid();
        }
    for (ScalarGrid &g : mMove)
        g.reshapeForOverwrite(mBox.empty() ? Int3{0, 0, 0} : size, kCellCentre);
    if (mBox.empty())
        return;
    const detail::GridMap fineMap = detail::gridMap(mFields[0], mFine);
    const bool k3D = !d.is2D();
    const int axes = d.dimensions();
    const detail::GridMap map = detail::gridMap(mVelocity[0], d);
    const UpresSettings &up = mParams.upres;
    const float t1 = float(time + dt);
    float weight[2] = {setWeight(t1, up.lifetime, 0), setWeight(t1, up.lifetime, 1)};
    // The blend of two independent noises is scaled back to the length of one.
    const float norm = 1.f / std::sqrt(weight[0] * weight[0] + weight[1] * weight[1]);
    weight[0] *= norm;
    weight[1] *= norm;
    // Octaves: one per halving of the cell size below the grid (2x: one; 3x and 4x: two).
    const int octaves = mFactor.x >= 3 ? 2 : 1;
    const float wavelengthCells = up.noiseWavelength(d.cellSize) / d.cellSize;
    const float tileScale = NoiseTile::kWavelength / wavelengthCells; // tile samples per cell
    float octaveAmplitude[2], octaveScale[2];
    for (int o = 0; o < octaves; ++o) {
        octaveAmplitude[o] = up.strength * std::pow(2.f, -5.f / 6.f * float(o + 1));
        octaveScale[o] = tileScale * float(1 << o);
    }
    const float toCells = dt / d.cellSize;
    const Vec3 inv{1.f / float(mFactor.x), 1.f / float(mFactor.y), 1.f / float(mFactor.z)};
    // A velocity times toFine is the step's move in fine cells along each axis.
    const Vec3 toFine{toCells * float(mFactor.x), toCells * float(mFactor.y),
                      toCells * float(mFactor.z)};
    const bool noise = up.strength > 0.f;
    // Below this amplitude the noise moves a fine cell's departure point less than 1 % of a fine
    // cell (the tile's vectors are at most about 3 long), so it is not read.
    const float minAmplitude = 0.01f * d.cellSize * inv.x / (3.f * std::max(dt, 1e-30f));

    // The cell-centred grids read at each fine cell: velocity, amplitude, two coordinate sets.
    const float *grids[10];
    int count = 0;
    for (int a = 0; a < axes; ++a)
        grids[count++] = mVelocity[a].data();
    const int amplitudeAt = count;
    grids[count++] = mAmplitude.data();
    const int coordsAt = count;
    if (noise)
        for (int set = 0; set < 2; ++set)
            for (int a = 0; a < axes; ++a)
                grids[count++] = mCoords[set][a].data();
    // The coarse samples one fine row reads along x: from the first fine cell's lower
    // neighbour to the last's upper one.
    const int lo = detail::locate(map.axis[0], (float(fineBox.lo.x) + 0.5f) * inv.x).i0;
    const int hi = detail::locate(map.axis[0], (float(fineBox.hi.x) - 0.5f) * inv.x).i1;
    const int span = map.axis[0].periodic ? d.cells.x : std::max(lo, hi) + 1;

    forEachRow(size, [&](int jj, int kk) {
        const int J = fineBox.lo.y + jj, K = fineBox.lo.z + kk;
        // Each grid interpolated in y and z to this fine row: a line of coarse samples along x.
        const RowStencil rows(map, (float(J) + 0.5f) * inv.y, (float(K) + 0.5f) * inv.z, k3D);
        std::vector<float> lines(std::size_t(count) * std::size_t(span));
        const int first = map.axis[0].periodic ? 0 : std::min(lo, hi);
        for (int g = 0; g < count; ++g)
            rows.line(grids[g], first, span, lines.data() + std::size_t(g) * std::size_t(span));
        auto at = [&](int g, const detail::Lerp &lx) {
            const float *line = lines.data() + std::size_t(g) * std::size_t(span);
            return line[lx.i0] + lx.f * (line[lx.i1] - line[lx.i0]);
        };
        const std::size_t row = mAdvected[0].index(0, jj, kk);
        const float y = (float(J) + 0.5f) * inv.y, z = (float(K) + 0.5f) * inv.z;
        const std::uint8_t *active = mActive.data()
                                     + mAmplitude.index(0, J / mFactor.y, K / mFactor.z);
        // Runs of fine cells: each cell's move (in fine cells) first, then every field
        // interpolated at the departure points of the whole run (sampling.h's batch form).
        std::uint8_t live[detail::kRun];
        detail::StencilRun stencils;
        for (int start = 0; start < size.x; start += detail::kRun) {
            const int runLength = std::min(detail::kRun, size.x - start);
            // Each cell's move in fine cells, kept for the correction (correctTrace).
            float *dx = mMove[0].data() + row + std::size_t(start);
            float *dy = mMove[1].data() + row + std::size_t(start);
            float *dz = mMove[2].data() + row + std::size_t(start);
            int anyLive = 0;
            for (int m = 0; m < runLength; ++m) {
                const FineColumn &column = mColumns[std::size_t(start + m)];
                live[m] = active[column.cell];
                anyLive |= live[m];
                dx[m] = dy[m] = dz[m] = 0.f;
                if (!live[m]) // far from smoke: the fields are 0
                    continue;
                // The fine cell's centre in coarse cell coordinates.
                const int I = fineBox.lo.x + start + m;
                const Vec3 x{(float(I) + 0.5f) * inv.x, y, z};
                const detail::Lerp lx{column.i0, column.i1, column.f};
                Vec3 u;
                for (int a = 0; a < axes; ++a)
                    u[a] = at(a, lx);
                const float amplitude = at(amplitudeAt, lx);
                if (noise && amplitude > minAmplitude) {
                    Vec3 n{};
                    for (int set = 0; set < 2; ++set) {
                        if (weight[set] <= 0.f)
                            continue;
                        // The noise coordinate: where this point was when the set started.
                        Vec3 p = x;
                        for (int a = 0; a < axes; ++a)
                            p[a] += at(coordsAt + set * axes + a, lx);
                        for (int o = 0; o < octaves; ++o) {
                            const Vec3 q = p * octaveScale[o] + kTileOffset[set]
                                           + kOctaveOffset * float(o);
                            n = n + mTile.at(q) * (weight[set] * octaveAmplitude[o]);
                        }
                    }
                    u = u + n * amplitude;
                }
                dx[m] = u.x * toFine.x;
                dy[m] = u.y * toFine.y;
                dz[m] = k3D ? u.z * toFine.z : 0.f;
            }
            for (int f = 0; f < fields; ++f) {
                float *out = mAdvected[traced[f]].data() + row + std::size_t(start);
                if (!anyLive)
                    std::fill(out, out + runLength, 0.f);
            }
            if (!anyLive)
                continue;
            // Each fine field at the departure points (fine cell coordinates).
            if (k3D)
                detail::stencilRun<true>(fineMap, fineBox.lo.x + start, kCellCentre,
                                         float(J) + 0.5f, float(K) + 0.5f, -1.f, dx, dy, dz,
                                         runLength, stencils);
            else
                detail::stencilRun<false>(fineMap, fineBox.lo.x + start, kCellCentre,
                                          float(J) + 0.5f, 0.5f, -1.f, dx, dy, dz, runLength,
                                          stencils);
            for (int f = 0; f < fields; ++f) {
                float *out = mAdvected[traced[f]].data() + row + std::size_t(start);
                if (k3D)
                    detail::interpolateRun<true>(mFields[traced[f]].data(), stencils, runLength,
                                                 out);
                else
                    detail::interpolateRun<false>(mFields[traced[f]].data(), stencils, runLength,
                                                  out);
                for (int m = 0; m < runLength; ++m)
                    out[m] = live[m] ? out[m] : 0.f;
            }
        }
    });
}

void UpresSolver::follow(int f, const ScalarGrid &before, const ScalarGrid &after)
{
    // At each fine cell, with b and c the solver's field before and after interpolated there:
    // c = r * b + a, with r in [0, 1] what the solver kept (dissipation, burnt fuel) and a what
    // it added (sources, the burning's heat and soot). The fine value takes the same: losses
    // scale the fine detail without blurring it, gains add to it. Interpolating b and c before
    // dividing keeps a uniform decay exact up to the smoke's edge.
    if (mBox.empty())
        return;
    const Domain &d = mInner->domain();
    ScalarGrid &field = mFields[f];
    const bool k3D = !d.is2D();
    const CellBox fineBox = scaled(mBox, mFactor);
    const detail::GridMap map = detail::gridMap(before, d);
    const Vec3 inv{1.f / float(mFactor.x), 1.f / float(mFactor.y), 1.f / float(mFactor.z)};
    const int nx = d.cells.x;
    forEachRow(fineBox.size(), [&](int jj, int kk) {
        const int J = fineBox.lo.y + jj, K = fineBox.lo.z + kk;
        const RowStencil rows(map, (float(J) + 0.5f) * inv.y, (float(K) + 0.5f) * inv.z, k3D);
        std::vector<float> line(2 * std::size_t(nx));
        float *was = line.data(), *is = line.data() + nx;
        rows.line(before.data(), 0, nx, was);
        rows.line(after.data(), 0, nx, is);
        float *out = field.data() + field.index(fineBox.lo.x, J, K);
        for (std::size_t ii = 0; ii < mColumns.size(); ++ii) {
            const FineColumn &col = mColumns[ii];
            const float b = col.at(was), c = col.at(is);
            const float r = std::abs(b) > kActiveThreshold ? std::clamp(c / b, 0.f, 1.f) : 1.f;
            out[ii] = out[ii] * r + (c - r * b);
        }
    });
}

void UpresSolver::correctTrace(int f)
{
    // MacCormack (Selle, Fedkiw, Kim, Liu and Rossignac 2008) on the fine grid: the traced
    // field, traced forward again along each cell's move, differs from the field before by
    // twice the trace's error; half of that is taken back, and the result kept within the
    // corners the trace read (their limiter), so no new extrema appear.
    const Domain &d = mInner->domain();
    const CellBox fineBox = scaled(mBox, mFactor);
    const Int3 size = fineBox.size();
    if (mBox.empty())
        return;
    const bool k3D = !d.is2D();
    const ScalarGrid &before = mFields[f];
    const ScalarGrid &traced = mAdvected[f];
    mCorrected.reshapeForOverwrite(size, kCellCentre);
    const detail::GridMap fineMap = detail::gridMap(before, mFine);
    // The traced field covers the box only; a periodic axis only when the box spans it.
    const detail::GridMap boxMap = detail::gridMap(traced, mFine);
    forEachRow(size, [&](int jj, int kk) {
        const int J = fineBox.lo.y + jj, K = fineBox.lo.z + kk;
        const std::size_t row = traced.index(0, jj, kk);
        const std::uint8_t *active = mActive.data()
                                     + mAmplitude.index(0, J / mFactor.y, K / mFactor.z);
        detail::StencilRun from, to;
        float lo[detail::kRun], hi[detail::kRun], back[detail::kRun];
        for (int start = 0; start < size.x; start += detail::kRun) {
            const int runLength = std::min(detail::kRun, size.x - start);
            float *out = mCorrected.data() + row + std::size_t(start);
            const float *forward = traced.data() + row + std::size_t(start);
            int anyLive = 0;
            for (int m = 0; m < runLength; ++m)
                anyLive |= active[mColumns[std::size_t(start + m)].cell];
            if (!anyLive) {
                std::fill(out, out + runLength, 0.f);
                continue;
            }
            const float *dx = mMove[0].data() + row + std::size_t(start);
            const float *dy = mMove[1].data() + row + std::size_t(start);
            const float *dz = mMove[2].data() + row + std::size_t(start);
            const float *at = before.data() + before.index(fineBox.lo.x + start, J, K);
            if (k3D) {
                detail::stencilRun<true>(fineMap, fineBox.lo.x + start, kCellCentre,
                                         float(J) + 0.5f, float(K) + 0.5f, -1.f, dx, dy, dz,
                                         runLength, from);
                detail::cornerRangeRun<true>(before.data(), from, runLength, lo, hi);
                detail::stencilRun<true>(boxMap, start, kCellCentre, float(jj) + 0.5f,
                                         float(kk) + 0.5f, 1.f, dx, dy, dz, runLength, to);
                detail::interpolateRun<true>(traced.data(), to, runLength, back);
            } else {
                detail::stencilRun<false>(fineMap, fineBox.lo.x + start, kCellCentre,
                                          float(J) + 0.5f, 0.5f, -1.f, dx, dy, dz, runLength, from);
                detail::cornerRangeRun<false>(before.data(), from, runLength, lo, hi);
                detail::stencilRun<false>(boxMap, start, kCellCentre, float(jj) + 0.5f, 0.5f, 1.f,
                                          dx, dy, dz, runLength, to);
                detail::interpolateRun<false>(traced.data(), to, runLength, back);
            }
            for (int m = 0; m < runLength; ++m) {
                const float v = forward[m] + 0.5f * (at[m] - back[m]);
                out[m] = active[mColumns[std::size_t(start + m)].cell] ? std::clamp(v, lo[m], hi[m])
                                                                       : 0.f;
            }
        }
    });
    ScalarGrid &field = mFields[f];
    forEachRow(size, [&](int jj, int kk) {
        const float *src = mCorrected.data() + mCorrected.index(0, jj, kk);
        std::copy(src, src + size.x,
                  field.data() + field.index(fineBox.lo.x, fineBox.lo.y + jj, fineBox.lo.z + kk));
    });
}

void UpresSolver::match(int f)
{
    const Domain &d = mInner->domain();
    ScalarGrid &field = mFields[f];
    const ScalarGrid &coarse = mCoarse[f];
    mDifference.reshape(d.cells, kCellCentre, 0.f);
    if (mBox.empty())
        return;
    const bool k3D = !d.is2D();
    const CellBox fineBox = scaled(mBox, mFactor);
    const Int3 size = fineBox.size();

    // Per cell of the box: the solver's value minus the mean of its fine cells.
    const Int3 F = mFactor;
    const float perCell = 1.f / float(F.volume());
    forEachBoxRow(mBox, [&](int j, int k) {
        for (int i = mBox.lo.x; i < mBox.hi.x; ++i) {
            float sum = 0.f;
            for (int c = 0; c < F.z; ++c)
                for (int b = 0; b < F.y; ++b) {
                    const float *r = field.data() + field.index(i * F.x, j * F.y + b, k * F.z + c);
                    for (int a = 0; a < F.x; ++a)
                        sum += r[a];
                }
            mDifference(i, j, k) = coarse(i, j, k) - sum * perCell;
        }
    });
    // Only the difference's large scales are taken back, slowly (kMatchSeconds): at a front
    // the fine field is sharper than the solver's, so the difference there is a pair of
    // opposite signs a cell apart, which its [1 2 1] / 4 blur along each axis cancels.
    blur(mDifference, 1);

    // The solver's range over the box: the fine field stays within it (and 0).
    const double hi = maxRows(mBox.size(), [&](int jj, int kk) {
        const float *r = coarse.data() + coarse.index(mBox.lo.x, mBox.lo.y + jj, mBox.lo.z + kk);
        float m = 0.f;
        for (int i = 0; i < mBox.size().x; ++i)
            m = std::max(m, r[i]);
        return double(m);
    });
    const double lo = -maxRows(mBox.size(), [&](int jj, int kk) {
        const float *r = coarse.data() + coarse.index(mBox.lo.x, mBox.lo.y + jj, mBox.lo.z + kk);
        float m = 0.f;
        for (int i = 0; i < mBox.size().x; ++i)
            m = std::max(m, -r[i]);
        return double(m);
    });

    // The fine field plus its share of the interpolated difference, clamped; 0 in solids and
    // far from smoke.
    const FlagGrid &solids = mInner->solids();
    const bool anySolid = solids.anySolid();
    const detail::GridMap map = detail::gridMap(mDifference, d);
    const Vec3 inv{1.f / float(F.x), 1.f / float(F.y), 1.f / float(F.z)};
    const float lower = float(lo), upper = float(hi);
    const float rate = 1.f - std::exp(-mDt / kMatchSeconds);
    const int nx = d.cells.x;
    forEachRow(size, [&](int jj, int kk) {
        const int J = fineBox.lo.y + jj, K = fineBox.lo.z + kk;
        const RowStencil rows(map, (float(J) + 0.5f) * inv.y, (float(K) + 0.5f) * inv.z, k3D);
        std::vector<float> line(static_cast<std::size_t>(nx));
        rows.line(mDifference.data(), 0, nx, line.data());
        float *out = field.data() + field.index(fineBox.lo.x, J, K);
        const std::uint8_t *active = mActive.data() + coarse.index(0, J / F.y, K / F.z);
        const int coarseJ = J / F.y, coarseK = K / F.z;
        for (int ii = 0; ii < size.x; ++ii) {
            const FineColumn &lx = mColumns[std::size_t(ii)];
            if (!active[lx.cell] || (anySolid && solids.isSolid(lx.cell, coarseJ, coarseK))) {
                out[ii] = 0.f;
                continue;
            }
            out[ii] = std::clamp(out[ii] + rate * lx.at(line.data()), lower, upper);
        }
    });
}

void UpresSolver::blur(ScalarGrid &g, int passes)
{
    const Domain &d = mInner->domain();
    ScalarGrid &blurred = mAmplitudeScratch;
    for (int pass = 0; pass < passes; ++pass)
        for (int a = 0; a < d.dimensions(); ++a) {
            blurred.reshape(d.cells, kCellCentre, 0.f);
            const std::size_t stride = a == 0 ? 1 : (a == 1 ? g.strideY() : g.strideZ());
            forEachBoxRow(mBox, [&](int j, int k) {
                for (int i = mBox.lo.x; i < mBox.hi.x; ++i) {
                    const Int3 c{i, j, k};
                    const std::size_t at = g.index(i, j, k);
                    const float mid = g[at];
                    const float below = c[a] > mBox.lo[a] ? g[at - stride] : mid;
                    const float above = c[a] + 1 < mBox.hi[a] ? g[at + stride] : mid;
                    blurred[at] = 0.25f * below + 0.5f * mid + 0.25f * above;
                }
            });
            g.swap(blurred);
        }
}

void UpresSolver::clearLeftCells(int f)
{
    if (mPrevBox.empty())
        return;
    const CellBox prev = scaled(mPrevBox, mFactor);
    const CellBox now = scaled(mBox, mFactor);
    ScalarGrid &field = mFields[f];
    forEachBoxRow(prev, [&](int j, int k) {
        float *row = field.data() + field.index(0, j, k);
        const bool rowInside = !now.empty() && j >= now.lo.y && j < now.hi.y && k >= now.lo.z
                               && k < now.hi.z;
        for (int i = prev.lo.x; i < prev.hi.x; ++i)
            if (!rowInside || i < now.lo.x || i >= now.hi.x)
                row[i] = 0.f;
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
