// SPDX-License-Identifier: Apache-2.0
// Upres (core/sim/upres/upressolver.h, docs/upres.md): the fine fields hold the simulation's
// smoke at large scales with sharper fronts and sub-grid detail on top, from divergence-free
// band-limited noise, and take the solver's sources and dissipation; they are
// the same bytes for any thread count, restore exactly from checkpoints, and are refused where
// they cannot fit.
#include <core/sim/numerics/noisetile.h>
#include <core/sim/run/checkpoint.h>
#include <core/sim/run/memoryestimate.h>
#include <core/sim/run/simulation.h>
#include <core/sim/run/solverfactory.h>
#include <core/sim/upres/upressolver.h>

#include <oneapi/tbb/global_control.h>

#include <QtTest>

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

using namespace plume::sim;

namespace {

Domain room(int n, bool threeD)
{
    Domain d;
    d.cells = {n, n * 3 / 2, threeD ? n : 1};
    d.cellSize = 1.f / float(n);
    d.boundaries = allBoundaries(Boundary::Wall);
    d.boundaries[int(Face::YMax)] = Boundary::Open;
    return d;
}

SparseMask ball(const Domain &d, Vec3 c, float r)
{
    SparseMask m;
    for (int k = 0; k < d.cells.z; ++k)
        for (int j = 0; j < d.cells.y; ++j)
            for (int i = 0; i < d.cells.x; ++i) {
                Vec3 p = d.cellCentre(i, j, k) - c;
                if (d.is2D())
                    p.z = 0.f;
                if (length(p) <= r)
                    m.add(std::uint32_t(i + d.cells.x * (j + std::size_t(d.cells.y) * k)), 1.f);
            }
    return m;
}

SimParams fineParams(int factor, float strength = 4.f)
{
    SimParams p;
    p.buoyancyTemperature = 1.5f;
    p.temperatureDissipation = 0.3f;
    p.vorticity = 0.3f;
    p.advection = AdvectionOrder::SemiLagrangian;
    p.velocityAdvection = AdvectionOrder::SemiLagrangian;
    p.upres.factor = factor;
    p.upres.strength = strength;
    return p;
}

/// A hot puff rising from a source low in a room (dye and fuel optional).
std::unique_ptr<Simulation> risingPuff(int n, bool threeD, const SimParams &p, bool dye = false,
                                       bool fuel = false)
{
    const Domain d = room(n, threeD);
    TimeSettings t;
    t.substeps = 2;
    auto made = Simulation::create(d, p, t);
    if (!made)
        qFatal("%s", made.error().c_str());
    std::unique_ptr<Simulation> sim = made.take();
    Emitter e;
    e.mask = ball(d, {0.5f, 0.2f, 0.5f}, 0.1f);
    e.density = 3.f;
    e.temperature = 4.f;
    if (dye)
        e.dye = {2.f, 1.f, 0.5f};
    if (fuel)
        e.fuel = 1.f;
    e.velocityMode = EmitterVelocity::Force;
    e.velocity = {0.3f, 2.f, 0.f};
    if (!sim->solver().setEmitters({e}))
        qFatal("emitter refused");
    return sim;
}

void advance(Simulation &sim, int frames)
{
    for (int f = 0; f < frames; ++f) {
        const FrameStats s = sim.advanceFrame();
        if (!s.status)
            qFatal("%s", s.status.error.c_str());
    }
}

ScalarGrid field(const Solver &solver, FieldKind kind)
{
    ScalarGrid g;
    solver.sample(kind, g);
    return g;
}

const UpresSolver &upres(const Simulation &sim)
{
    return dynamic_cast<const UpresSolver &>(sim.solver());
}

/// Each coarse cell's mean of the fine field.
ScalarGrid cellMeans(const ScalarGrid &fine, Int3 cells, Int3 f)
{
    ScalarGrid out(cells, kCellCentre);
    for (int k = 0; k < fine.size().z; ++k)
        for (int j = 0; j < fine.size().y; ++j)
            for (int i = 0; i < fine.size().x; ++i)
                out(i / f.x, j / f.y, k / f.z) += fine(i, j, k) / float(f.volume());
    return out;
}

/// The blocks of 4 x 4 cells (4 x 4 x 1: the tests' blocks are in x and y) a grid splits into.
Int3 blocksOf(const ScalarGrid &g)
{
    return {(g.size().x + 3) / 4, (g.size().y + 3) / 4, g.size().z};
}

/// The solver's field interpolated to the fine cells (bilinear, as upres samples its velocity).
ScalarGrid interpolatedToFine(const UpresSolver &u, FieldKind kind)
{
    const ScalarGrid coarse = field(u.inner(), kind);
    const Int3 n = u.sampleDomain().cells, f = u.factor();
    ScalarGrid out(n, kCellCentre);
    for (int k = 0; k < n.z; ++k)
        for (int j = 0; j < n.y; ++j)
            for (int i = 0; i < n.x; ++i) {
                const float x = std::clamp((float(i) + 0.5f) / float(f.x) - 0.5f, 0.f,
                                           float(coarse.size().x - 1));
                const float y = std::clamp((float(j) + 0.5f) / float(f.y) - 0.5f, 0.f,
                                           float(coarse.size().y - 1));
                const int i0 = std::min(int(x), coarse.size().x - 2);
                const int j0 = std::min(int(y), coarse.size().y - 2);
                const float fx = x - float(i0), fy = y - float(j0);
                const int kk = k / f.z;
                const float a = coarse(i0, j0, kk)
                                + fx * (coarse(i0 + 1, j0, kk) - coarse(i0, j0, kk));
                const float b = coarse(i0, j0 + 1, kk)
                                + fx * (coarse(i0 + 1, j0 + 1, kk) - coarse(i0, j0 + 1, kk));
                out(i, j, k) = a + fy * (b - a);
            }
    return out;
}

/// The share of a field's squared values in its finest band: sum (g - blur g)^2 / sum g^2,
/// blur being [1 2 1] / 4 along x and y.
double fineShare(const ScalarGrid &g)
{
    double fine = 0, total = 0;
    const Int3 n = g.size();
    for (int k = 0; k < n.z; ++k)
        for (int j = 1; j + 1 < n.y; ++j)
            for (int i = 1; i + 1 < n.x; ++i) {
                double b = 0;
                for (int dj = -1; dj <= 1; ++dj)
                    for (int di = -1; di <= 1; ++di)
                        b += (di ? 0.25 : 0.5) * (dj ? 0.25 : 0.5) * g(i + di, j + dj, k);
                fine += (g(i, j, k) - b) * (g(i, j, k) - b);
                total += double(g(i, j, k)) * g(i, j, k);
            }
    return total > 0 ? fine / total : 0;
}

} // namespace

class TestSimUpres : public QObject
{
    Q_OBJECT

private slots:
    // The noise: root-mean-square length 1, zero mean, divergence-free under central
    // differences (the curl's own stencil), and nothing at the grid's Nyquist frequency.
    void noiseTileIsDivergenceFreeAndBandLimited()
    {
        for (const bool threeD : {true, false}) {
            const NoiseTile tile(threeD, 7);
            const int n = NoiseTile::kSize, c = threeD ? 3 : 2, stride = threeD ? 4 : 2;
            const std::vector<float> &v = tile.samples();
            QCOMPARE(int(v.size()), stride * n * n * (threeD ? n : 1));
            auto at = [&](int comp, int i, int j, int k) {
                const int m = n - 1;
                const std::size_t idx = (std::size_t(threeD ? (k & m) : 0) * n + (j & m)) * n
                                        + std::size_t(i & m);
                return double(v[std::size_t(stride) * idx + std::size_t(comp)]);
            };
            double sum2 = 0, mean[3] = {0, 0, 0}, maxDiv = 0, nyquist[3] = {0, 0, 0};
            for (int k = 0; k < (threeD ? n : 1); ++k)
                for (int j = 0; j < n; ++j)
                    for (int i = 0; i < n; ++i) {
                        double div = 0;
                        for (int a = 0; a < c; ++a) {
                            const double x = at(a, i, j, k);
                            sum2 += x * x;
                            mean[a] += x;
                            nyquist[a] += ((i + j + k) % 2 ? -x : x);
                            const int di = a == 0, dj = a == 1, dk = a == 2;
                            div += 0.5
                                   * (at(a, i + di, j + dj, k + dk)
                                      - at(a, i - di, j - dj, k - dk));
                        }
                        maxDiv = std::max(maxDiv, std::abs(div));
                    }
            const double samples = double(n) * n * (threeD ? n : 1);
            QVERIFY(std::abs(sum2 / samples - 1.0) < 1e-4);
            QVERIFY2(maxDiv < 1e-4, qPrintable(QString::number(maxDiv)));
            for (int a = 0; a < c; ++a) {
                QVERIFY(std::abs(mean[a] / samples) < 1e-3);
                QVERIFY(std::abs(nyquist[a] / samples) < 1e-3);
            }
            // Interpolation is periodic: a whole tile along any axis lands on the same value.
            const Vec3 p{3.3f, 17.6f, 40.2f};
            const Vec3 a = tile.at(p), b = tile.at(p + Vec3{float(n), float(-n), float(2 * n)});
            QVERIFY(std::abs(a.x - b.x) < 1e-5f && std::abs(a.y - b.y) < 1e-5f);
            // Another seed gives other noise.
            QVERIFY(NoiseTile(threeD, 8).samples() != v);
        }
    }

    // The fine grid: factor times the cells per axis (not along z in 2D) over the same box;
    // every field comes at its cells, the flags of each fine cell its cell's.
    void samplesOnTheFineGrid()
    {
        for (const bool threeD : {true, false}) {
            auto sim = risingPuff(16, threeD, fineParams(3));
            advance(*sim, 2);
            const Solver &s = sim->solver();
            const Domain &c = s.domain(), &f = s.sampleDomain();
            QVERIFY(f.cells == (Int3{48, 72, threeD ? 48 : 1}));
            QCOMPARE(f.cellSize, c.cellSize / 3.f);
            QVERIFY(f.origin == c.origin);
            for (FieldKind kind : {FieldKind::Density, FieldKind::Temperature, FieldKind::VelocityY,
                                   FieldKind::Solid, FieldKind::Pressure})
                QVERIFY(field(s, kind).size() == f.cells);
            QVERIFY(s.fieldBox() == (CellBox{{0, 0, 0}, f.cells}));
            ScalarGrid part;
            const CellBox box{{3, 5, 0}, {20, 30, threeD ? 9 : 1}};
            s.sampleIn(FieldKind::Density, box, part);
            const ScalarGrid whole = field(s, FieldKind::Density);
            QCOMPARE(part(4, 6, 0), whole(7, 11, 0));
        }
    }

    // The fine fields keep the simulation's smoke at large scales (its total within 10 %: the
    // fine grid's own advection gains or loses a little, pulled back slowly; its means over
    // blocks of 4 cells) while their fronts are sharper than the simulation's: more of
    // their squared values lie in the finest band than in the simulation's fields
    // interpolated to the fine grid; the turbulence adds more.
    void fineFieldsKeepTheSimulationsLargeScales()
    {
        double share[2] = {0, 0};
        for (const float strength : {0.f, 4.f}) {
            auto sim = risingPuff(24, false, fineParams(2, strength), true);
            advance(*sim, 24);
            const UpresSolver &u = upres(*sim);
            for (FieldKind kind : {FieldKind::Density, FieldKind::Temperature, FieldKind::DyeRed}) {
                const ScalarGrid coarse = field(u.inner(), kind);
                const ScalarGrid means = cellMeans(field(u, kind), coarse.size(), u.factor());
                const ScalarGrid coarseBlocks = cellMeans(coarse, blocksOf(coarse), {4, 4, 1});
                const ScalarGrid fineBlocks = cellMeans(means, blocksOf(coarse), {4, 4, 1});
                double diff = 0, total = 0, fineTotal = 0;
                for (std::size_t n = 0; n < coarseBlocks.count(); ++n) {
                    diff += std::abs(double(coarseBlocks[n]) - fineBlocks[n]);
                    total += std::abs(double(coarseBlocks[n]));
                    fineTotal += fineBlocks[n];
                }
                QVERIFY(total > 0.1);
                const QString what = QString("%1 strength %2").arg(toString(kind)).arg(strength);
                QVERIFY2(std::abs(fineTotal / total - 1) < 0.1,
                         qPrintable(
                             what
                             + QString(": total %1 of the simulation's").arg(fineTotal / total)));
                // The turbulence moves smoke between blocks: a looser bound with it.
                QVERIFY2(diff / total < (strength > 0.f ? 0.25 : 0.12),
                         qPrintable(what + QString(": blocks differ by %1").arg(diff / total)));
            }
            const ScalarGrid fine = field(u, FieldKind::Density);
            share[strength > 0.f] = fineShare(fine);
            if (strength == 0.f) {
                const double interpolated = fineShare(interpolatedToFine(u, FieldKind::Density));
                QVERIFY2(share[0] > 2 * interpolated,
                         qPrintable(QString("fine share %1, the simulation's interpolated %2")
                                        .arg(share[0])
                                        .arg(interpolated)));
            }
        }
        QVERIFY2(share[1] > 1.2 * share[0],
                 qPrintable(QString("fine share %1 without, %2 with").arg(share[0]).arg(share[1])));
    }

    // The fine fields take the solver's changes that are not motion: at rest, a puff that
    // dissipates at rate k holds exp(-k t) of its smoke and heat in every fine cell after t.
    void fineFieldsFollowTheDissipation()
    {
        SimParams p = fineParams(2, 4.f);
        p.buoyancyTemperature = 0.f;
        p.buoyancyDensity = 0.f;
        p.vorticity = 0.f;
        p.densityDissipation = 0.5f;
        p.temperatureDissipation = 0.8f;
        auto sim = risingPuff(16, true, p);
        Emitter still;
        still.mask = ball(sim->solver().domain(), {0.5f, 0.4f, 0.5f}, 0.2f);
        still.density = 3.f;
        still.temperature = 2.f;
        QVERIFY(sim->solver().setEmitters({still}));
        advance(*sim, 2);
        QVERIFY(sim->solver().setEmitters({}));
        const ScalarGrid density = field(sim->solver(), FieldKind::Density);
        const ScalarGrid heat = field(sim->solver(), FieldKind::Temperature);
        const int frames = 12;
        advance(*sim, frames);
        const double t = frames / 24.0;
        const ScalarGrid density2 = field(sim->solver(), FieldKind::Density);
        const ScalarGrid heat2 = field(sim->solver(), FieldKind::Temperature);
        // Every cell inside the puff (the fine fields' slow pull towards the solver's large
        // scales moves its edge a little), and the total.
        const float peak = *std::max_element(density.data(), density.data() + density.count());
        double worst = 0, total = 0, before = 0, after = 0;
        for (std::size_t n = 0; n < density.count(); ++n) {
            before += density[n];
            after += density2[n];
            if (density[n] < 0.5f * peak)
                continue;
            worst = std::max(worst, std::abs(density2[n] / (density[n] * std::exp(-0.5 * t)) - 1));
            worst = std::max(worst, std::abs(heat2[n] / (heat[n] * std::exp(-0.8 * t)) - 1));
            total += density[n];
        }
        QVERIFY(total > 1);
        QVERIFY2(worst < 0.02, qPrintable(QString("worst relative error %1").arg(worst)));
        QVERIFY2(std::abs(after / before / std::exp(-0.5 * t) - 1) < 0.005,
                 qPrintable(QString("total: %1 of the start, exp(-k t) = %2")
                                .arg(after / before)
                                .arg(std::exp(-0.5 * t))));
    }

    // The same bytes with one thread and with two, in 3D with dye and fire.
    void sameBytesForAnyThreadCount()
    {
        auto run = [](int threads) {
            oneapi::tbb::global_control limit(oneapi::tbb::global_control::max_allowed_parallelism,
                                              std::size_t(threads));
            auto sim = risingPuff(12, true, fineParams(2), true, true);
            advance(*sim, 6);
            return std::array{field(sim->solver(), FieldKind::Density),
                              field(sim->solver(), FieldKind::DyeGreen),
                              field(sim->solver(), FieldKind::Flame)};
        };
        const auto one = run(1), two = run(2);
        for (int f = 0; f < 3; ++f)
            QVERIFY(one[std::size_t(f)].identical(two[std::size_t(f)]));
    }

    // A checkpoint holds the fine fields and the noise coordinates: simulating on from a restore
    // gives the bytes of never having stopped, even across a noise restart (lifetime 0.25 s);
    // a solver without upres refuses it.
    void checkpointsRestoreExactly()
    {
        for (const bool threeD : {true, false}) {
            SimParams p = fineParams(2);
            p.upres.lifetime = 0.25f;
            auto a = risingPuff(12, threeD, p, true, true);
            advance(*a, 5);
            std::vector<std::uint8_t> bytes;
            QVERIFY(Checkpoint::save(*a, 3, bytes));
            advance(*a, 8);
            auto b = risingPuff(12, threeD, p, true, true);
            advance(*b, 2);
            const Status restored = Checkpoint::restore(*b, bytes, 3, CheckpointMatch::SameScene);
            QVERIFY2(restored, restored.error.c_str());
            advance(*b, 8);
            for (FieldKind kind : {FieldKind::Density, FieldKind::Temperature, FieldKind::DyeBlue,
                                   FieldKind::Fuel, FieldKind::Flame})
                QVERIFY2(field(a->solver(), kind).identical(field(b->solver(), kind)),
                         toString(kind));
            auto plain = risingPuff(12, threeD, fineParams(1), true, true);
            QVERIFY(!Checkpoint::restore(*plain, bytes, 3, CheckpointMatch::SameScene));
        }
    }

    // A reset clears the fine fields; the fine fields stay zero away from the smoke.
    void resetAndEmptyCells()
    {
        auto sim = risingPuff(16, true, fineParams(2));
        advance(*sim, 4);
        const ScalarGrid rho = field(sim->solver(), FieldKind::Density);
        QVERIFY(std::accumulate(rho.data(), rho.data() + rho.count(), 0.0) > 1.0);
        QCOMPARE(rho(1, 45, 1), 0.f); // a top corner, far from the puff
        QVERIFY(!upres(*sim).box().empty());
        sim->reset();
        const ScalarGrid cleared = field(sim->solver(), FieldKind::Density);
        QVERIFY(std::all_of(cleared.data(), cleared.data() + cleared.count(),
                            [](float v) { return v == 0.f; }));
        QVERIFY(upres(*sim).box().empty());
    }

    // Refusals: a fine grid past 512^3 cells, and a factor change on a running solver. The
    // estimate covers what the solver holds.
    void refusalsAndMemory()
    {
        Domain big = room(160, true);
        const std::string error = createSolver(big, fineParams(4)).error();
        QVERIFY2(QString::fromStdString(error).contains("upres.factor 4 makes 640 x 960 x 640"),
                 error.c_str());
        auto sim = risingPuff(16, true, fineParams(2));
        SimParams other = fineParams(3);
        const Status s = sim->solver().setParams(other);
        QVERIFY(!s);
        QVERIFY2(QString::fromStdString(s.error).contains("upres.factor cannot change from 2 to 3"),
                 s.error.c_str());
        other = fineParams(2, 9.f);
        QVERIFY(sim->solver().setParams(other));
        QCOMPARE(sim->solver().params().upres.strength, 9.f);
        advance(*sim, 3);
        const Domain d = sim->solver().domain();
        QVERIFY(sim->solver().memoryBytes()
                <= solverMemoryBytes(d, Scheme::Smoke) + upresMemoryBytes(d, 2));
        QCOMPARE(upresMemoryBytes(d, 1), std::uint64_t(0));
        SimParams bad = fineParams(5);
        QVERIFY(!bad.validate());
        QVERIFY2(QString::fromStdString(bad.validate().error).contains("upres.factor"),
                 bad.validate().error.c_str());
    }
};

QTEST_GUILESS_MAIN(TestSimUpres)
#include "tst_sim_upres.moc"
