// SPDX-License-Identifier: Apache-2.0
// The stam scheme in Q12.20 fixed point (docs/fixed-point.md): the arithmetic, its range
// checks, agreement with the float scheme on the paper's demo scenario, determinism.
#include <core/sim/base/fixedpoint.h>
#include <core/sim/run/simulation.h>
#include <core/sim/run/solverfactory.h>
#include <core/sim/stam/stamsolver.h>

#include <oneapi/tbb/global_control.h>

#include <tests/common/instrumented.h>

#include <QtTest>

#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

using namespace plume::sim;

namespace {

Domain makeDomain(Int3 cells, float h, Boundary b = Boundary::Wall)
{
    Domain d;
    d.cells = cells;
    d.cellSize = h;
    d.boundaries = allBoundaries(b);
    return d;
}

SimParams stamParams(StamNumeric numeric, SweepOrder order)
{
    SimParams p;
    p.scheme = Scheme::Stam;
    p.stamNumeric = numeric;
    p.stamSweep = order;
    return p;
}

std::uint32_t cellIndex(Int3 n, int i, int j, int k)
{
    return std::uint32_t(i + n.x * (j + n.y * k));
}

SparseMask boxMask(Int3 n, Int3 lo, Int3 hi)
{
    SparseMask m;
    for (int k = lo.z; k < hi.z; ++k)
        for (int j = lo.y; j < hi.y; ++j)
            for (int i = lo.x; i < hi.x; ++i)
                m.add(cellIndex(n, i, j, k), 1.f);
    return m;
}

/// The demo of the paper (Stam 2003, demo.c): N = 64 in the unit box, dt = 0.1, diff = visc = 0,
/// a source of 100 into one cell and a force of 5 (upwards, slightly sideways) into the cells
/// around it, as a mouse held still near the bottom would give. In 3D the same at N = 24.
struct DemoScene
{
    Domain domain;
    std::vector<Emitter> emitters;
    float dt = 0.1f;
};

DemoScene demoScene(bool is3D)
{
    DemoScene s;
    const int N = is3D ? 24 : 64;
    const Int3 cells{N, N, is3D ? N : 1};
    s.domain = makeDomain(cells, 1.f / float(N));
    const int kc = is3D ? N / 2 : 0;
    Emitter source;
    source.mask = boxMask(cells, {N / 2, N / 8, kc}, {N / 2 + 1, N / 8 + 1, kc + 1});
    source.density = 100.f;
    Emitter force;
    force.mask = boxMask(cells, {N / 2 - 1, N / 8 - 1, is3D ? kc - 1 : 0},
                         {N / 2 + 2, N / 8 + 2, is3D ? kc + 2 : 1});
    force.velocityMode = EmitterVelocity::Force;
    force.velocity = {1.f, 5.f, is3D ? -0.5f : 0.f};
    s.emitters = {source, force};
    return s;
}

std::unique_ptr<Solver> makeSolver(const DemoScene &s, const SimParams &p)
{
    auto made = createSolver(s.domain, p);
    if (!made)
        qFatal("createSolver failed: %s", made.error().c_str());
    std::unique_ptr<Solver> solver = made.take();
    const Status st = solver->setEmitters(s.emitters);
    if (!st)
        qFatal("setEmitters failed: %s", st.error.c_str());
    return solver;
}

ScalarGrid sampled(const Solver &s, FieldKind kind)
{
    ScalarGrid g;
    s.sample(kind, g);
    return g;
}

/// sum |a - b| / sum |b|
double relativeL1(const ScalarGrid &a, const ScalarGrid &b)
{
    double d = 0.0, n = 0.0;
    for (std::size_t m = 0; m < a.count(); ++m) {
        d += std::fabs(double(a[m]) - double(b[m]));
        n += std::fabs(double(b[m]));
    }
    return d / n;
}

/// Runs the demo scene `steps` steps with both number types; returns the relative L1 error of
/// the fixed-point density and velocity against the float run.
struct Comparison
{
    double density = 0.0, velocity = 0.0, mass = 0.0;
};

Comparison compare(bool is3D, SweepOrder order, int steps)
{
    const DemoScene scene = demoScene(is3D);
    auto exact = makeSolver(scene, stamParams(StamNumeric::Float, order));
    auto fixed = makeSolver(scene, stamParams(StamNumeric::Fixed, order));
    for (int n = 0; n < steps; ++n) {
        exact->step(scene.dt, scene.dt * n);
        fixed->step(scene.dt, scene.dt * n);
    }
    const ScalarGrid d = sampled(*exact, FieldKind::Density);
    Comparison c;
    c.density = relativeL1(sampled(*fixed, FieldKind::Density), d);
    c.velocity = relativeL1(sampled(*fixed, FieldKind::VelocityY),
                            sampled(*exact, FieldKind::VelocityY));
    for (std::size_t m = 0; m < d.count(); ++m)
        c.mass += d[m];
    return c;
}

/// Every state grid's bytes (the fixed grids' int32 bits) after `steps` steps of a scene with
/// an obstacle, a periodic axis, inflow and dye.
std::vector<std::uint8_t> busyRun(bool is3D, SweepOrder order, int threads)
{
    oneapi::tbb::global_control limit(oneapi::tbb::global_control::max_allowed_parallelism,
                                      std::size_t(threads));
    const int N = is3D ? 16 : 40;
    const Int3 cells{N, N, is3D ? N : 1};
    Domain d = makeDomain(cells, 1.f / float(N));
    d.boundaries[0] = d.boundaries[1] = Boundary::Periodic;
    auto made = createSolver(d, stamParams(StamNumeric::Fixed, order));
    if (!made)
        qFatal("%s", made.error().c_str());
    std::unique_ptr<Solver> solver = made.take();
    FlagGrid solids(cells);
    for (int k = 0; k < cells.z; ++k)
        for (int j = N / 2; j < N / 2 + 3; ++j)
            for (int i = N / 3; i < 2 * N / 3; ++i)
                solids.setSolid(i, j, k, true);
    if (!solver->setObstacles(solids))
        qFatal("setObstacles failed");
    Emitter smoke;
    smoke.mask = boxMask(cells, {N / 4, 2, 0}, {N / 2, 6, cells.z});
    smoke.density = 3.f;
    smoke.temperature = 1.f;
    smoke.dye = {1.f, 0.5f, 0.2f};
    smoke.velocityMode = EmitterVelocity::Inflow;
    smoke.velocity = {0.3f, 1.5f, 0.1f};
    if (!solver->setEmitters({smoke}))
        qFatal("setEmitters failed");
    SimParams p = solver->params();
    p.viscosity = 1e-4f;
    p.diffusion = 1e-4f;
    if (!solver->setParams(p))
        qFatal("setParams failed");
    for (int n = 0; n < 15; ++n)
        solver->step(0.02f, 0.02 * n);
    std::vector<std::uint8_t> bytes;
    for (const FieldKind kind :
         {FieldKind::Density, FieldKind::Temperature, FieldKind::DyeRed, FieldKind::VelocityX,
          FieldKind::VelocityY, FieldKind::VelocityZ, FieldKind::Pressure}) {
        const ScalarGrid g = sampled(*solver, kind);
        const auto *b = reinterpret_cast<const std::uint8_t *>(g.data());
        bytes.insert(bytes.end(), b, b + g.count() * sizeof(float));
    }
    return bytes;
}

} // namespace

class TestSimFixed : public QObject
{
    Q_OBJECT

private slots:
    void arithmeticIsExact()
    {
        constexpr std::int32_t one = Fixed::kOneRaw;
        QCOMPARE(one, 1 << 20); // Q12.20
        // Conversions: nearest, ties away from zero.
        QCOMPARE(Fixed(1).raw(), one);
        QCOMPARE(Fixed(0.1f).raw(), 104858); // 104857.60
        QCOMPARE(Fixed(-0.1f).raw(), -104858);
        QCOMPARE(Fixed(1.5f / float(one)).raw(), 2); // 1.5 raw: tie, away from zero
        QCOMPARE(Fixed(-1.5f / float(one)).raw(), -2);
        QCOMPARE(Fixed(0.25f).toFloat(), 0.25f);
        QCOMPARE(Fixed(-3).floorToInt(), -3);
        QCOMPARE(Fixed(-2.5f).floorToInt(), -3);
        QCOMPARE(Fixed(-2.5f).truncToInt(), -2);
        // Sums are exact, products of exact values are exact.
        QCOMPARE((Fixed(1.5f) + Fixed(-0.25f)).raw(), Fixed(1.25f).raw());
        QCOMPARE((Fixed(1.5f) * Fixed(2)).raw(), Fixed(3).raw());
        QCOMPARE((Fixed(-0.5f) * Fixed(3)).raw(), Fixed(-1.5f).raw());
        QCOMPARE((Fixed(45) * Fixed(45)).raw(), Fixed(2025).raw());
        // Products round to nearest, ties towards +infinity: raw 1 * 0.5 = 0.5 raw.
        QCOMPARE((Fixed::fromRaw(1) * Fixed(0.5f)).raw(), 1);
        QCOMPARE((Fixed::fromRaw(-1) * Fixed(0.5f)).raw(), 0);
        QCOMPARE((Fixed::fromRaw(3) * Fixed(0.25f)).raw(), 1); // 0.75 raw
        QCOMPARE((Fixed(0.1f) * Fixed(0.1f)).raw(), 10486);    // 104858^2 / 2^20 = 10485.76
        // Quotients round to nearest, ties away from zero.
        QCOMPARE((Fixed(1) / Fixed(3)).raw(), 349525); // 349525.33
        QCOMPARE((Fixed(2) / Fixed(3)).raw(), 699051); // 699050.67
        QCOMPARE((Fixed(-2) / Fixed(3)).raw(), -699051);
        QCOMPARE((Fixed::fromRaw(1) / Fixed(2)).raw(), 1);
        QCOMPARE((Fixed::fromRaw(-1) / Fixed(2)).raw(), -1);
        QCOMPARE((Fixed(7) / Fixed(-2)).raw(), Fixed(-3.5f).raw());
        QVERIFY(Fixed(0.5f) < Fixed(0.75f));
        QVERIFY(Fixed(-1) < Fixed(0));
    }

    void outOfRangeSticksAndNeverWraps()
    {
        const Fixed big(1500);
        QVERIFY(!Fixed(2047).outOfRange());
        QVERIFY(!Fixed(-2047).outOfRange());
        QVERIFY((big + big).outOfRange()); // past 2048
        QVERIFY((-big - big).outOfRange());
        QVERIFY((Fixed(50) * Fixed(50)).outOfRange());
        QVERIFY((Fixed(50) * Fixed(-50)).outOfRange());
        QVERIFY((Fixed(1) / Fixed(0)).outOfRange());
        QVERIFY((Fixed(1500) / Fixed(0.5f)).outOfRange());
        QVERIFY(Fixed(4000.f).outOfRange());
        QVERIFY(Fixed(-4000).outOfRange());
        QVERIFY(Fixed(std::numeric_limits<float>::quiet_NaN()).outOfRange());
        QVERIFY(Fixed(std::numeric_limits<float>::infinity()).outOfRange());
        // Like a NaN, it sticks through every operation.
        const Fixed bad = big + big;
        QVERIFY((bad - big).outOfRange());
        QVERIFY((bad * Fixed(0)).outOfRange());
        QVERIFY((Fixed(0) * bad).outOfRange());
        QVERIFY((bad / Fixed(1000)).outOfRange());
        QVERIFY((-bad).outOfRange());
        QVERIFY(std::isnan(bad.toFloat()));
    }

    void matchesFloatOnThePaperDemo_data()
    {
        QTest::addColumn<bool>("is3D");
        QTest::addColumn<int>("order");
        QTest::newRow("2D N=64 paper order") << false << int(SweepOrder::Paper);
        QTest::newRow("2D N=64 red-black") << false << int(SweepOrder::RedBlack);
        QTest::newRow("3D N=24 paper order") << true << int(SweepOrder::Paper);
        QTest::newRow("3D N=24 red-black") << true << int(SweepOrder::RedBlack);
    }

    // The issue's bound: after 100 steps of the demo the fixed-point density is within 1 %
    // (relative L1) of the float density.
    void matchesFloatOnThePaperDemo()
    {
        QFETCH(bool, is3D);
        QFETCH(int, order);
        // Under ThreadSanitizer 10 steps, enough to run every kernel on the threads; the bound
        // is checked in the other builds.
        const Comparison c = compare(is3D, SweepOrder(order),
                                     plume::test::fullOrUnderTsan(100, 10));
        qInfo("density relative L1 %.3g, velocity-y relative L1 %.3g (float mass %.4g)", c.density,
              c.velocity, c.mass);
        if (plume::test::kThreadSanitizer)
            return;
        QVERIFY(c.mass > 100.0); // the source really filled the box
        QVERIFY2(c.density < 0.01, QByteArray::number(c.density));
        QVERIFY2(c.velocity < 0.05, QByteArray::number(c.velocity));
    }

    void sameBytesWithAnyThreadCount_data()
    {
        QTest::addColumn<bool>("is3D");
        QTest::addColumn<int>("order");
        QTest::newRow("2D red-black") << false << int(SweepOrder::RedBlack);
        QTest::newRow("2D paper order") << false << int(SweepOrder::Paper);
        QTest::newRow("3D red-black") << true << int(SweepOrder::RedBlack);
        QTest::newRow("3D paper order") << true << int(SweepOrder::Paper);
    }

    void sameBytesWithAnyThreadCount()
    {
        QFETCH(bool, is3D);
        QFETCH(int, order);
        const std::vector<std::uint8_t> serial = busyRun(is3D, SweepOrder(order), 1);
        const std::vector<std::uint8_t> parallel = busyRun(is3D, SweepOrder(order), 4);
        QVERIFY(serial == parallel);
        // The scene moved: some density bytes are not zero.
        bool any = false;
        for (std::uint8_t b : serial)
            any = any || b != 0;
        QVERIFY(any);
    }

    // A source that piles density past 2048 stops the simulation with the field and the cell
    // instead of wrapping to negative density.
    void outOfRangeIsABlowUp()
    {
        const Int3 cells{16, 16, 1};
        SimParams p = stamParams(StamNumeric::Fixed, SweepOrder::RedBlack);
        auto sim = Simulation::create(makeDomain(cells, 1.f / 16.f), p, TimeSettings{});
        QVERIFY(sim);
        Emitter e;
        e.mask = boxMask(cells, {5, 3, 0}, {6, 4, 1});
        e.density = 1500.f; // representable; a few dozen frames of it (dt 1/24) are not
        QVERIFY(sim->solver().setEmitters({e}));
        FrameStats stats;
        int frames = 0;
        for (; frames < 200 && stats.status; ++frames)
            stats = sim->advanceFrame();
        QVERIFY(!stats.status);
        qInfo("%s", stats.status.error.c_str());
        // The first such cell in x-fastest order, next to the source (5, 3) that fills it.
        QVERIFY2(QRegularExpression("^simulation blew up at frame \\d+, substep 1 of 1 \\(step "
                                    "\\d+\\): density out of fixed-point range at cell "
                                    "\\([4-6], [2-4]\\)$")
                     .match(QString::fromStdString(stats.status.error))
                     .hasMatch(),
                 stats.status.error.c_str());
        QVERIFY(frames > 1); // it piled up; the input itself was in range
        QCOMPARE(sim->solver().firstNonFiniteField(), std::string());
    }

    void refusesDomainsPastTheRange()
    {
        const SimParams p = stamParams(StamNumeric::Fixed, SweepOrder::RedBlack);
        const std::string error = createSolver(makeDomain({2047, 8, 1}, 0.01f), p).error();
        QVERIFY2(error.find("at most 2046 cells per axis") != std::string::npos, error.c_str());
        QVERIFY(createSolver(makeDomain({2046, 8, 1}, 0.01f), p));
    }

    void numericCannotChangeOnARunningSolver()
    {
        auto s = createSolver(makeDomain({8, 8, 1}, 0.125f),
                              stamParams(StamNumeric::Fixed, SweepOrder::RedBlack));
        QVERIFY(s);
        SimParams p = s->params();
        p.stamNumeric = StamNumeric::Float;
        const Status st = s->setParams(p);
        QVERIFY(!st);
        QVERIFY2(st.error.find("numeric") != std::string::npos, st.error.c_str());
    }
};

QTEST_APPLESS_MAIN(TestSimFixed)
#include "tst_sim_fixed.moc"
