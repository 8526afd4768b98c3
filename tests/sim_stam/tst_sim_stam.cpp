// SPDX-License-Identifier: Apache-2.0
#include <reference/stam_reference.h>

#include <core/sim/base/parallel.h>
#include <core/sim/stam/stamsolver.h>

#include <oneapi/tbb/task_arena.h>

#include <tests/common/instrumented.h>

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>
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

SimParams stamParams(SweepOrder order, float viscosity, float diffusion)
{
    SimParams p;
    p.scheme = Scheme::Stam;
    p.stamSweep = order;
    p.viscosity = viscosity;
    p.diffusion = diffusion;
    return p;
}

std::uint32_t cellIndex(Int3 n, int i, int j, int k)
{
    return std::uint32_t(i + n.x * (j + n.y * k));
}

/// A disc (ball in 3D) of cells around `centre` (cell coordinates) with a one-cell soft edge.
SparseMask ballMask(Int3 n, Vec3 centre, float radius)
{
    SparseMask m;
    for (int k = 0; k < n.z; ++k)
        for (int j = 0; j < n.y; ++j)
            for (int i = 0; i < n.x; ++i) {
                const Vec3 c{i + 0.5f, j + 0.5f, n.z > 1 ? k + 0.5f : centre.z};
                const float w = std::clamp(radius - length(c - centre) + 0.5f, 0.f, 1.f);
                if (w > 0.f)
                    m.add(cellIndex(n, i, j, k), w);
            }
    return m;
}

/// Every cell with lo <= (i, j, k) < hi, weight 1.
SparseMask boxMask(Int3 n, Int3 lo, Int3 hi)
{
    SparseMask m;
    for (int k = lo.z; k < hi.z; ++k)
        for (int j = lo.y; j < hi.y; ++j)
            for (int i = lo.x; i < hi.x; ++i)
                m.add(cellIndex(n, i, j, k), 1.f);
    return m;
}

Emitter densityEmitter(SparseMask mask, float density)
{
    Emitter e;
    e.mask = std::move(mask);
    e.density = density;
    return e;
}

Emitter velocityEmitter(SparseMask mask, EmitterVelocity mode, Vec3 velocity)
{
    Emitter e;
    e.mask = std::move(mask);
    e.velocityMode = mode;
    e.velocity = velocity;
    return e;
}

std::unique_ptr<StamSolver> makeSolver(const Domain &d, const SimParams &p,
                                       std::vector<Emitter> emitters)
{
    auto s = std::make_unique<StamSolver>(d, p);
    const Status st = s->setEmitters(std::move(emitters));
    if (!st)
        qFatal("setEmitters failed: %s", st.error.c_str());
    return s;
}

ScalarGrid sampled(const Solver &s, FieldKind kind)
{
    ScalarGrid g;
    s.sample(kind, g);
    return g;
}

const char *kindName(FieldKind k)
{
    static const char *const names[] = {"density",  "temperature", "dye red",    "dye green",
                                        "dye blue", "velocity x",  "velocity y", "velocity z",
                                        "speed",    "pressure",    "divergence", "vorticity",
                                        "solid"};
    return names[int(k)];
}

double total(const ScalarGrid &g)
{
    double t = 0.0;
    for (std::size_t n = 0; n < g.count(); ++n)
        t += g[n];
    return t;
}

/// The paper-match scene: a density source disc near the bottom and an upward, sideways force
/// in a box above it, with viscosity and diffusion.
struct PaperScene
{
    int N;
    bool is3D;
    Domain domain;
    std::vector<Emitter> emitters;
    float dt = 0.1f;
    float viscosity = 1e-4f;
    float diffusion = 5e-5f;
};

PaperScene paperScene(bool is3D)
{
    PaperScene s;
    s.N = is3D ? 24 : 64;
    s.is3D = is3D;
    const int N = s.N;
    const Int3 cells{N, N, is3D ? N : 1};
    // The paper's unit box, h = 1/N: exact in 2D (N = 64), rounded in 3D (N = 24).
    s.domain = makeDomain(cells, 1.f / float(N));
    const float zc = is3D ? 0.5f * N : 0.5f;
    s.emitters.push_back(
        densityEmitter(ballMask(cells, {0.5f * N, 0.15f * N, zc}, 0.08f * N), 40.f));
    const Int3 lo{N / 3, N / 10, is3D ? N / 3 : 0};
    const Int3 hi{2 * N / 3, N / 2, is3D ? 2 * N / 3 : 1};
    s.emitters.push_back(velocityEmitter(boxMask(cells, lo, hi), EmitterVelocity::Force,
                                         {0.6f, 2.f, is3D ? -0.4f : 0.f}));
    return s;
}

/// The published code run on the scene: the prototype's loop (get_from_UI fills the zeroed
/// "prev" arrays, then vel_step, dens_step).
struct ReferenceRun
{
    int N;
    bool is3D;
    std::vector<float> u, v, w, u0, v0, w0, d, d0;

    explicit ReferenceRun(const PaperScene &s)
        : N(s.N)
        , is3D(s.is3D)
    {
        const std::size_t size = std::size_t(N + 2) * (N + 2) * (is3D ? N + 2 : 1);
        for (auto *a : {&u, &v, &w, &u0, &v0, &w0, &d, &d0})
            a->assign(size, 0.f);
    }

    std::size_t padded(std::uint32_t cell) const
    {
        const int i = int(cell % N), j = int(cell / N % N), k = int(cell / (N * N));
        const std::size_t P = std::size_t(N + 2);
        return std::size_t(i + 1) + P * (std::size_t(j + 1) + P * std::size_t(is3D ? k + 1 : 0));
    }

    void step(const PaperScene &s)
    {
        for (auto *a : {&u0, &v0, &w0, &d0})
            std::fill(a->begin(), a->end(), 0.f);
        for (const Emitter &e : s.emitters) {
            for (std::size_t m = 0; m < e.mask.size(); ++m) {
                const std::size_t p = padded(e.mask.cells[m]);
                const float wt = e.mask.weights[m];
                d0[p] += wt * e.density;
                if (e.velocityMode == EmitterVelocity::Force) {
                    u0[p] += wt * e.velocity.x;
                    v0[p] += wt * e.velocity.y;
                    if (is3D)
                        w0[p] += wt * e.velocity.z;
                }
            }
        }
        if (is3D) {
            stamref::vel_step3(N, u.data(), v.data(), w.data(), u0.data(), v0.data(), w0.data(),
                               s.viscosity, s.dt);
            stamref::dens_step3(N, d.data(), d0.data(), u.data(), v.data(), w.data(), s.diffusion,
                                s.dt);
        } else {
            stamref::vel_step(N, u.data(), v.data(), u0.data(), v0.data(), s.viscosity, s.dt);
            stamref::dens_step(N, d.data(), d0.data(), u.data(), v.data(), s.diffusion, s.dt);
        }
    }

    /// The interior as a cell-centred grid of the domain.
    ScalarGrid interior(const std::vector<float> &a) const
    {
        const Int3 cells{N, N, is3D ? N : 1};
        ScalarGrid g(cells, kCellCentre);
        for (int k = 0; k < cells.z; ++k)
            for (int j = 0; j < N; ++j)
                for (int i = 0; i < N; ++i)
                    g(i, j, k) = a[padded(cellIndex(cells, i, j, k))];
        return g;
    }
};

double maxAbs(const ScalarGrid &g)
{
    double m = 0.0;
    for (std::size_t n = 0; n < g.count(); ++n)
        m = std::max(m, double(std::fabs(g[n])));
    return m;
}

double maxDiff(const ScalarGrid &a, const ScalarGrid &b)
{
    double m = 0.0;
    for (std::size_t n = 0; n < a.count(); ++n)
        m = std::max(m, double(std::fabs(a[n] - b[n])));
    return m;
}

/// |a - b| / |b| in the L2 norm.
double l2Diff(const ScalarGrid &a, const ScalarGrid &b)
{
    double d = 0.0, n = 0.0;
    for (std::size_t m = 0; m < a.count(); ++m) {
        d += double(a[m] - b[m]) * (a[m] - b[m]);
        n += double(b[m]) * b[m];
    }
    return std::sqrt(d / n);
}

/// A scene touching every kernel: an obstacle, periodic x, force, inflow, temperature, dye.
std::unique_ptr<StamSolver> busyScene(bool is3D, SweepOrder order)
{
    const Int3 cells = is3D ? Int3{20, 18, 16} : Int3{48, 40, 1};
    Domain d = makeDomain(cells, 0.05f);
    d.boundaries[int(Face::XMin)] = d.boundaries[int(Face::XMax)] = Boundary::Periodic;
    d.boundaries[int(Face::YMax)] = Boundary::Open;
    auto s = std::make_unique<StamSolver>(d, stamParams(order, 2e-3f, 1e-3f));
    const Vec3 centre{0.5f * cells.x, 0.25f * cells.y, is3D ? 0.5f * cells.z : 0.5f};
    Emitter src = densityEmitter(ballMask(cells, centre, 3.f), 5.f);
    src.temperature = 2.f;
    src.dye = {1.f, 0.5f, 0.25f};
    std::vector<Emitter> emitters{src};
    emitters.push_back(
        velocityEmitter(ballMask(cells, centre, 4.f), EmitterVelocity::Force, {1.5f, 4.f, 0.7f}));
    emitters.push_back(velocityEmitter(boxMask(cells, {1, 1, 0}, {4, 5, is3D ? 4 : 1}),
                                       EmitterVelocity::Inflow, {2.f, 0.5f, 0.f}));
    if (!s->setEmitters(emitters))
        qFatal("setEmitters failed");
    FlagGrid solids(cells);
    for (int k = 0; k < cells.z; ++k)
        for (int j = cells.y / 2; j < cells.y / 2 + 3; ++j)
            for (int i = cells.x / 3; i < cells.x / 2; ++i)
                solids.setSolid(i, j, k, true);
    if (!s->setObstacles(solids))
        qFatal("setObstacles failed");
    return s;
}

const FieldKind kAllKinds[] = {FieldKind::Density,   FieldKind::Temperature, FieldKind::DyeRed,
                               FieldKind::DyeGreen,  FieldKind::DyeBlue,     FieldKind::VelocityX,
                               FieldKind::VelocityY, FieldKind::VelocityZ,   FieldKind::Speed,
                               FieldKind::Pressure,  FieldKind::Divergence,  FieldKind::Vorticity,
                               FieldKind::Solid};

std::vector<ScalarGrid> runBusy(bool is3D, SweepOrder order, int steps)
{
    auto s = busyScene(is3D, order);
    for (int n = 0; n < steps; ++n)
        s->step(0.05f, 0.05 * n);
    std::vector<ScalarGrid> out;
    for (FieldKind k : kAllKinds)
        out.push_back(sampled(*s, k));
    return out;
}

} // namespace

class TestSimStam : public QObject
{
    Q_OBJECT

private slots:
    void matchesPublishedCode_data()
    {
        QTest::addColumn<bool>("is3D");
        QTest::newRow("2D paper N=64") << false;
        QTest::newRow("3D Ash fixed N=24") << true;
    }

    // THE paper test: 100 steps of the published code and of StamSolver in Paper order.
    void matchesPublishedCode()
    {
        QFETCH(bool, is3D);
        const PaperScene scene = paperScene(is3D);
        ReferenceRun ref(scene);
        auto paper = makeSolver(scene.domain,
                                stamParams(SweepOrder::Paper, scene.viscosity, scene.diffusion),
                                scene.emitters);
        auto redBlack = makeSolver(scene.domain,
                                   stamParams(SweepOrder::RedBlack, scene.viscosity,
                                              scene.diffusion),
                                   scene.emitters);
        // Under ThreadSanitizer 30 steps: the published code is serial, and the bounds below hold
        // all the sooner (the two orders drift apart with time).
        const int steps = plume::test::fullOrUnderTsan(100, 30);
        for (int n = 0; n < steps; ++n) {
            ref.step(scene);
            paper->step(scene.dt, scene.dt * n);
            redBlack->step(scene.dt, scene.dt * n);
        }
        const std::pair<FieldKind, const std::vector<float> *> fields[] = {
            {FieldKind::Density, &ref.d},
            {FieldKind::VelocityX, &ref.u},
            {FieldKind::VelocityY, &ref.v},
            {FieldKind::VelocityZ, &ref.w}};
        for (const auto &[kind, array] : fields) {
            if (kind == FieldKind::VelocityZ && !is3D)
                continue;
            const ScalarGrid expected = ref.interior(*array);
            const ScalarGrid got = sampled(*paper, kind);
            const ScalarGrid rb = sampled(*redBlack, kind);
            const double scale = maxAbs(expected);
            QVERIFY2(scale > 1e-3, kindName(kind)); // the scene really moves
            const double paperErr = maxDiff(got, expected) / scale;
            const double redBlackMax = maxDiff(rb, got) / scale;
            const double redBlackL2 = l2Diff(rb, got);
            qInfo("%s: max |ref| %.4g, paper order %.3g; red-black vs paper: max %.3g, L2 %.3g",
                  kindName(kind), scale, paperErr, redBlackMax, redBlackL2);
            // Same formulas in the same order. With h = 1/N a power of two every scale factor
            // is exact and the result is bit-identical (measured 0 in 2D); h = 1/24 rounds dt/h
            // and 1/h^2 differently from dt*N (measured 1.5e-6 in 3D). 1e-5 also leaves room
            // for a compiler that contracts a*b+c into FMA.
            QVERIFY2(paperErr <= 1e-5, kindName(kind));
            // Red-black is a different iteration: after 20 unconverged sweeps its pressure
            // differs by a few percent per step (measured 2-3% of max after one step) and the
            // plumes drift apart. Measured after 100 steps: pointwise max 41% (2D density) and
            // 10% (3D), relative L2 12% (2D density) and 6% (3D). Bounds: 50% pointwise, 15%
            // L2. That both orders solve the same equations is redBlackConvergesToPaperOrder's
            // job.
            QVERIFY2(redBlackMax < 0.5, kindName(kind));
            QVERIFY2(redBlackL2 < 0.15, kindName(kind));
        }
    }

    void redBlackConvergesToPaperOrder_data()
    {
        QTest::addColumn<bool>("is3D");
        QTest::newRow("2D N=24") << false;
        QTest::newRow("3D N=12") << true;
    }

    // With sweeps enough to converge (Gauss-Seidel's rate is cos^2(pi/(N+1)) per sweep:
    // 1500 sweeps leave e^-23 of the N=24 error), both orders reach the same solution.
    void redBlackConvergesToPaperOrder()
    {
        QFETCH(bool, is3D);
        const int N = is3D ? 12 : 24;
        const Int3 cells{N, N, is3D ? N : 1};
        const Domain d = makeDomain(cells, 1.f / float(N));
        const float zc = is3D ? 0.5f * N : 0.5f;
        const std::vector<Emitter> emitters{
            densityEmitter(ballMask(cells, {0.5f * N, 0.3f * N, zc}, 3.f), 40.f),
            velocityEmitter(ballMask(cells, {0.5f * N, 0.4f * N, zc}, 5.f), EmitterVelocity::Force,
                            {0.6f, 2.f, is3D ? -0.4f : 0.f})};
        SimParams p = stamParams(SweepOrder::Paper, 1e-4f, 5e-5f);
        p.stamIterations = 1500;
        auto paper = makeSolver(d, p, emitters);
        p.stamSweep = SweepOrder::RedBlack;
        auto redBlack = makeSolver(d, p, emitters);
        for (int n = 0; n < 3; ++n) {
            paper->step(0.1f, 0.0);
            redBlack->step(0.1f, 0.0);
        }
        for (FieldKind kind : {FieldKind::Density, FieldKind::VelocityX, FieldKind::VelocityY,
                               FieldKind::VelocityZ}) {
            const ScalarGrid a = sampled(*paper, kind), b = sampled(*redBlack, kind);
            const double scale = maxAbs(a);
            if (kind == FieldKind::VelocityZ && !is3D) {
                QCOMPARE(scale, 0.0);
                continue;
            }
            const double diff = maxDiff(a, b) / scale;
            qInfo("%s: converged orders differ by %.3g of max", kindName(kind), diff);
            // Only float rounding of the converged solves remains (measured below 1e-5).
            QVERIFY2(diff < 1e-4, kindName(kind));
        }
    }

    void serialEqualsParallel_data()
    {
        QTest::addColumn<bool>("is3D");
        QTest::addColumn<int>("order");
        QTest::newRow("2D red-black") << false << int(SweepOrder::RedBlack);
        QTest::newRow("3D red-black") << true << int(SweepOrder::RedBlack);
        QTest::newRow("2D paper") << false << int(SweepOrder::Paper);
        QTest::newRow("3D paper") << true << int(SweepOrder::Paper);
    }

    // Every kernel (sources, set_bnd, sweeps, project, advect with obstacles and periodic
    // wrap, sampling) gives the same bytes serially and with 1, 2 and 4 threads.
    void serialEqualsParallel()
    {
        QFETCH(bool, is3D);
        QFETCH(int, order);
        const SweepOrder sweep = SweepOrder(order);
        const int steps = 12;
        std::vector<ScalarGrid> serial;
        {
            SerialScope scope;
            serial = runBusy(is3D, sweep, steps);
        }
        QVERIFY(maxAbs(serial[0]) > 0.0);
        for (int threads : {1, 2, 4}) {
            oneapi::tbb::task_arena arena(threads);
            std::vector<ScalarGrid> parallel;
            arena.execute([&] { parallel = runBusy(is3D, sweep, steps); });
            for (std::size_t f = 0; f < serial.size(); ++f)
                QVERIFY2(parallel[f].identical(serial[f]), kindName(kAllKinds[f]));
        }
    }

    void periodicWraps_data()
    {
        QTest::addColumn<float>("cellsPerStep");
        QTest::newRow("whole cells") << 1.f;
        QTest::newRow("fraction") << 0.37f;
    }

    // A uniform flow along a periodic x axis carries density out of +x and back in at -x.
    void periodicWraps()
    {
        QFETCH(float, cellsPerStep);
        const Int3 cells{32, 12, 1};
        Domain d = makeDomain(cells, 1.f / 32.f);
        d.boundaries[int(Face::XMin)] = d.boundaries[int(Face::XMax)] = Boundary::Periodic;
        const float dt = 1.f / 32.f;
        const float speed = cellsPerStep; // dt / h = 1, so cells per step = speed
        const Emitter flow = velocityEmitter(boxMask(cells, {0, 0, 0}, cells),
                                             EmitterVelocity::Inflow, {speed, 0.f, 0.f});
        auto s = makeSolver(d, stamParams(SweepOrder::RedBlack, 0.f, 0.f),
                            {flow, densityEmitter(boxMask(cells, {26, 0, 0}, {30, 12, 1}), 32.f)});
        s->step(dt, 0.0);
        QVERIFY(s->setEmitters({flow}));
        const ScalarGrid start = sampled(*s, FieldKind::Density);
        const int steps = 16;
        for (int n = 0; n < steps; ++n)
            s->step(dt, 0.0);
        const ScalarGrid end = sampled(*s, FieldKind::Density);
        // No diffusion; the linear interpolation of a uniform shift keeps the sum up to float
        // rounding (about 1e-7 per step).
        QVERIFY(std::fabs(total(end) - total(start)) <= 1e-5 * total(start));
        if (cellsPerStep == 1.f) {
            // Whole-cell shifts are exact: the band reappears bit for bit 16 cells on.
            for (int j = 0; j < cells.y; ++j)
                for (int i = 0; i < cells.x; ++i)
                    QCOMPARE(end(i, j, 0), start((i + cells.x - steps) % cells.x, j, 0));
            QVERIFY(end(12, 5, 0) > 0.5f && end(31, 5, 0) == 0.f);
        } else {
            // The density-weighted circular mean of x moves by 16 * 0.37 cells, through +x.
            auto centre = [&](const ScalarGrid &g) {
                double c = 0, sn = 0;
                for (int j = 0; j < cells.y; ++j)
                    for (int i = 0; i < cells.x; ++i) {
                        const double a = 2 * std::numbers::pi * (i + 0.5) / cells.x;
                        c += g(i, j, 0) * std::cos(a);
                        sn += g(i, j, 0) * std::sin(a);
                    }
                const double x = std::atan2(sn, c) * cells.x / (2 * std::numbers::pi);
                return x < 0 ? x + cells.x : x;
            };
            const double expected = std::fmod(centre(start) + steps * cellsPerStep, cells.x);
            QVERIFY2(std::fabs(centre(end) - expected) < 0.05,
                     qPrintable(QString::number(centre(end)) + " vs " + QString::number(expected)));
            QVERIFY(expected < 5.0); // the band did cross the boundary
        }
    }

    void obstaclesHoldNothing_data()
    {
        QTest::addColumn<bool>("is3D");
        QTest::addColumn<int>("order");
        QTest::newRow("2D red-black") << false << int(SweepOrder::RedBlack);
        QTest::newRow("2D paper") << false << int(SweepOrder::Paper);
        QTest::newRow("3D red-black") << true << int(SweepOrder::RedBlack);
    }

    // Density pushed at a block and at a one-cell-thin wall: nothing inside the solids and
    // nothing at all behind the wall (diffusion on), so each side sees only itself.
    void obstaclesHoldNothing()
    {
        QFETCH(bool, is3D);
        QFETCH(int, order);
        const Int3 cells = is3D ? Int3{24, 20, 12} : Int3{48, 40, 1};
        const Domain d = makeDomain(cells, 1.f / 40.f);
        const int wall = cells.x / 2;
        FlagGrid solids(cells);
        for (int k = 0; k < cells.z; ++k) {
            for (int j = 0; j < cells.y; ++j)
                solids.setSolid(wall, j, k, true); // one cell thick, full height
            for (int j = cells.y / 2; j < cells.y / 2 + 3; ++j)
                for (int i = 3; i < wall - 5; ++i)
                    solids.setSolid(i, j, k, true); // a block above the source
        }
        const Vec3 centre{0.3f * cells.x, 0.25f * cells.y, is3D ? 0.5f * cells.z : 0.5f};
        auto s = makeSolver(d, stamParams(SweepOrder(order), 1e-3f, 1e-3f),
                            {densityEmitter(ballMask(cells, centre, 3.f), 20.f),
                             velocityEmitter(ballMask(cells, centre, 5.f), EmitterVelocity::Force,
                                             {6.f, 5.f, 1.f})});
        QVERIFY(s->setObstacles(solids));
        for (int n = 0; n < 60; ++n)
            s->step(0.05f, 0.0);
        const ScalarGrid density = sampled(*s, FieldKind::Density);
        const ScalarGrid speed = sampled(*s, FieldKind::Speed);
        double left = 0, behind = 0, inside = 0, moving = 0;
        for (int k = 0; k < cells.z; ++k)
            for (int j = 0; j < cells.y; ++j)
                for (int i = 0; i < cells.x; ++i) {
                    const double v = density(i, j, k);
                    if (solids.isSolid(i, j, k)) {
                        inside += std::fabs(v);
                        moving += speed(i, j, k);
                    } else if (i > wall) {
                        behind += std::fabs(v) + speed(i, j, k);
                    } else {
                        left += v;
                    }
                }
        QVERIFY(left > 1.0);   // the source ran and the flow hit the wall
        QCOMPARE(inside, 0.0); // solid cells hold zero density...
        QCOMPARE(moving, 0.0); // ...and zero velocity
        QCOMPARE(behind, 0.0); // exactly nothing crossed the one-cell wall
        QVERIFY(density(wall - 1, cells.y / 4, is3D ? cells.z / 2 : 0) > 0.f);
    }

    // Projection of a velocity kick: a force in a disc gives u = dt * F * weight before the
    // projection. The paper's collocated grid solves the compact 5-point Poisson equation but
    // measures divergence with wide central differences, so even a converged solve leaves a
    // checkerboard part: measured, 20 sweeps leave 27% of the L2 divergence and 2000 sweeps
    // still 18%, the collocated floor (about 1/4 to 1/5 of the start here).
    void projectionReducesDivergence()
    {
        const Int3 cells{64, 64, 1};
        const Domain d = makeDomain(cells, 1.f / 64.f);
        const float dt = 1e-3f;
        const Vec3 force{400.f, 0.f, 0.f};
        const SparseMask disc = ballMask(cells, {32.f, 32.f, 0.5f}, 8.f);
        // Divergence of the unprojected field (the disc is far from the walls).
        ScalarGrid u(cells, kCellCentre);
        for (std::size_t m = 0; m < disc.size(); ++m)
            u[disc.cells[m]] = dt * (disc.weights[m] * force.x);
        double before = 0.0;
        for (int j = 1; j < cells.y - 1; ++j)
            for (int i = 1; i < cells.x - 1; ++i) {
                const double div = 0.5 * (u(i + 1, j, 0) - u(i - 1, j, 0)) / d.cellSize;
                before += div * div;
            }
        before = std::sqrt(before);
        auto after = [&](int iterations) {
            SimParams p = stamParams(SweepOrder::RedBlack, 0.f, 0.f);
            p.stamIterations = iterations;
            auto s = makeSolver(d, p, {velocityEmitter(disc, EmitterVelocity::Force, force)});
            const StepStats stats = s->step(dt, 0.0);
            if (stats.pressureIterations != 2 * iterations)
                qFatal("pressure sweeps not reported");
            const ScalarGrid div = sampled(*s, FieldKind::Divergence);
            double l2 = 0.0;
            for (std::size_t n = 0; n < div.count(); ++n)
                l2 += double(div[n]) * div[n];
            return std::sqrt(l2);
        };
        const double a20 = after(20), a2000 = after(2000);
        qInfo("L2 divergence: before %.4g, after 20 sweeps %.4g, after 2000 sweeps %.4g", before,
              a20, a2000);
        QVERIFY(a20 < 0.5 * before);
        QVERIFY(a2000 < a20);
        QVERIFY(a2000 > 0.1 * before); // the collocated floor: never near zero
    }

    // Open faces keep zero-gradient ghosts: a band carried up through the open top leaves.
    void openFaceLetsDensityOut()
    {
        const Int3 cells{16, 32, 1};
        Domain d = makeDomain(cells, 1.f / 32.f);
        d.boundaries[int(Face::YMin)] = d.boundaries[int(Face::YMax)] = Boundary::Open;
        const Emitter flow = velocityEmitter(boxMask(cells, {0, 0, 0}, cells),
                                             EmitterVelocity::Inflow, {0.f, 1.f, 0.f});
        auto s = makeSolver(d, stamParams(SweepOrder::RedBlack, 0.f, 0.f),
                            {flow, densityEmitter(boxMask(cells, {0, 12, 0}, {16, 16, 1}), 32.f)});
        s->step(1.f / 32.f, 0.0);
        QVERIFY(s->setEmitters({flow}));
        const double start = total(sampled(*s, FieldKind::Density));
        QVERIFY(start > 1.0);
        for (int n = 0; n < 24; ++n)
            s->step(1.f / 32.f, 0.0);
        QCOMPARE(total(sampled(*s, FieldKind::Density)), 0.0);
        QVERIFY(std::fabs(s->maxVelocity() - 1.f) < 1e-5f);
    }

    // Temperature and dye ride the same dens_step as density: equal rates, equal fields.
    void scalarsShareTheDensityStep()
    {
        const Int3 cells{20, 16, 12};
        auto s = busyScene(true, SweepOrder::RedBlack);
        Emitter e = densityEmitter(ballMask(cells, {10.f, 5.f, 6.f}, 3.f), 3.f);
        e.temperature = 3.f;
        e.dye = {3.f, 0.f, 3.f};
        e.velocityMode = EmitterVelocity::Force;
        e.velocity = {2.f, 3.f, 1.f};
        QVERIFY(s->setEmitters({e}));
        for (int n = 0; n < 8; ++n)
            s->step(0.05f, 0.0);
        const ScalarGrid density = sampled(*s, FieldKind::Density);
        QVERIFY(maxAbs(density) > 0.1);
        QVERIFY(sampled(*s, FieldKind::Temperature).identical(density));
        QVERIFY(sampled(*s, FieldKind::DyeRed).identical(density));
        QVERIFY(sampled(*s, FieldKind::DyeBlue).identical(density));
        QCOMPARE(maxAbs(sampled(*s, FieldKind::DyeGreen)), 0.0);
    }

    void derivedFields_data()
    {
        QTest::addColumn<bool>("is3D");
        QTest::newRow("2D") << false;
        QTest::newRow("3D") << true;
    }

    // Speed, divergence (1/s) and |curl| (1/s) agree with central differences of the sampled
    // velocity, computed here in double, away from the domain faces.
    void derivedFields()
    {
        QFETCH(bool, is3D);
        const PaperScene scene = paperScene(is3D);
        auto s = makeSolver(scene.domain, stamParams(SweepOrder::RedBlack, 1e-4f, 0.f),
                            scene.emitters);
        for (int n = 0; n < 10; ++n)
            s->step(scene.dt, 0.0);
        const ScalarGrid u = sampled(*s, FieldKind::VelocityX);
        const ScalarGrid v = sampled(*s, FieldKind::VelocityY);
        const ScalarGrid w = sampled(*s, FieldKind::VelocityZ);
        const ScalarGrid speed = sampled(*s, FieldKind::Speed);
        const ScalarGrid div = sampled(*s, FieldKind::Divergence);
        const ScalarGrid curl = sampled(*s, FieldKind::Vorticity);
        const Int3 n = u.size();
        const double g = 0.5 / scene.domain.cellSize;
        double errSpeed = 0, errDiv = 0, errCurl = 0;
        for (int k = is3D ? 1 : 0; k < (is3D ? n.z - 1 : 1); ++k)
            for (int j = 1; j < n.y - 1; ++j)
                for (int i = 1; i < n.x - 1; ++i) {
                    auto d = [&](const ScalarGrid &q, int axis) -> double {
                        if (axis == 2 && !is3D)
                            return 0.0;
                        const int di = axis == 0, dj = axis == 1, dk = axis == 2;
                        return g * (double(q(i + di, j + dj, k + dk)) - q(i - di, j - dj, k - dk));
                    };
                    const double sp = std::sqrt(double(u(i, j, k)) * u(i, j, k)
                                                + double(v(i, j, k)) * v(i, j, k)
                                                + double(w(i, j, k)) * w(i, j, k));
                    const double dv = d(u, 0) + d(v, 1) + d(w, 2);
                    const double cx = d(w, 1) - d(v, 2), cy = d(u, 2) - d(w, 0);
                    const double cz = d(v, 0) - d(u, 1);
                    const double c = std::sqrt(cx * cx + cy * cy + cz * cz);
                    errSpeed = std::max(errSpeed, std::fabs(speed(i, j, k) - sp));
                    errDiv = std::max(errDiv, std::fabs(div(i, j, k) - dv));
                    errCurl = std::max(errCurl, std::fabs(curl(i, j, k) - c));
                }
        // float against double on the same differences: a few ulps of the largest term.
        QVERIFY(maxAbs(curl) > 1.0);
        QVERIFY(errSpeed <= 1e-5 * maxAbs(speed));
        QVERIFY(errDiv <= 1e-5 * maxAbs(curl));
        QVERIFY(errCurl <= 1e-5 * maxAbs(curl));
    }

    void nonFiniteIsNamed_data()
    {
        QTest::addColumn<bool>("obstacles");
        QTest::newRow("walls") << false;
        QTest::newRow("periodic with obstacles") << true;
    }

    // A staircase wall whose cells touch only at corners: both sides are face-disconnected,
    // and the interpolation must not reach across the corners either.
    void diagonalWallHolds()
    {
        const Int3 cells{40, 40, 1};
        const Domain d = makeDomain(cells, 1.f / 40.f);
        FlagGrid solids(cells);
        for (int i = 0; i < cells.x; ++i)
            solids.setSolid(i, i, 0, true);
        // Smoke above the wall (diffusing onto it); below it a flow away from the wall, whose
        // backtraces end in the wall-side corners of their cells.
        auto s = makeSolver(d, stamParams(SweepOrder::RedBlack, 1e-3f, 1e-2f),
                            {densityEmitter(ballMask(cells, {14.f, 24.f, 0.5f}, 4.f), 20.f),
                             velocityEmitter(ballMask(cells, {22.f, 17.f, 0.5f}, 6.f),
                                             EmitterVelocity::Force, {8.f, -8.f, 0.f})});
        QVERIFY(s->setObstacles(solids));
        for (int n = 0; n < 60; ++n)
            s->step(0.05f, 0.0);
        const ScalarGrid density = sampled(*s, FieldKind::Density);
        double below = 0, above = 0;
        for (int j = 0; j < cells.y; ++j)
            for (int i = 0; i < cells.x; ++i)
                (i > j ? below : above) += (i == j ? 0.0 : std::fabs(density(i, j, 0)));
        QVERIFY(above > 1.0);
        QVERIFY(density(19, 20, 0) > 0.1f); // the smoke touches the wall
        QCOMPARE(below, 0.0);
    }

    // A finite but huge force overflows; the solver names the field instead of crashing (the
    // backtraces clamp NaN positions and the obstacle walk gives up on non-finite ones).
    void nonFiniteIsNamed()
    {
        QFETCH(bool, obstacles);
        const Int3 cells{24, 24, 1};
        Domain d = makeDomain(cells, 1.f / 24.f);
        if (obstacles)
            d.boundaries = allBoundaries(Boundary::Periodic);
        auto s = makeSolver(d, stamParams(SweepOrder::RedBlack, 1e-3f, 1e-3f),
                            {densityEmitter(ballMask(cells, {12.f, 12.f, 0.5f}, 4.f), 1.f),
                             velocityEmitter(ballMask(cells, {12.f, 12.f, 0.5f}, 4.f),
                                             EmitterVelocity::Force, {3e38f, -3e38f, 0.f})});
        if (obstacles) {
            FlagGrid solids(cells);
            for (int j = 2; j < 20; ++j)
                solids.setSolid(4, j, 0, true);
            QVERIFY(s->setObstacles(solids));
        }
        QCOMPARE(s->firstNonFiniteField(), std::string());
        for (int n = 0; n < 3; ++n)
            s->step(0.1f, 0.0);
        const std::string name = s->firstNonFiniteField();
        qInfo("first non-finite field: %s", name.c_str());
        QVERIFY(name == "density" || name.rfind("velocity", 0) == 0 || name == "pressure");
        s->reset();
        QCOMPARE(s->firstNonFiniteField(), std::string());
    }

    void interface()
    {
        const Int3 cells{16, 12, 8};
        const Domain d = makeDomain(cells, 0.1f);
        StamSolver s(d, stamParams(SweepOrder::RedBlack, 0.f, 0.f));
        QCOMPARE(s.domain().cells, cells);
        QCOMPARE(s.domain().cellSize, 0.1f);
        QCOMPARE(s.params().scheme, Scheme::Stam);
        SimParams smoke = s.params();
        smoke.scheme = Scheme::Smoke;
        QVERIFY(!s.setParams(smoke).ok());
        SimParams bad = s.params();
        bad.stamIterations = 0;
        QVERIFY(!s.setParams(bad).ok());
        SimParams more = s.params();
        more.stamIterations = 7;
        QVERIFY(s.setParams(more).ok());
        QCOMPARE(s.step(0.1f, 0.0).pressureIterations, 14);
        QVERIFY(!s.setObstacles(FlagGrid(Int3{16, 12, 1})).ok());
        ForceField wind;
        wind.strength = std::nanf("");
        QVERIFY(!s.setForceFields({wind}).ok());
        wind.strength = 2.f;
        QVERIFY(s.setForceFields({wind}).ok());
        s.step(0.1f, 0.0);
        QVERIFY(s.setForceFields({}).ok());
        Emitter broken = densityEmitter(boxMask(cells, {0, 0, 0}, {2, 2, 2}), 1.f);
        broken.mask.cells.back() = 100000;
        QVERIFY(!s.setEmitters({broken}).ok());
        // Dye exists only once an emitter has it; (nx+2)(ny+2)(nz+2) floats per grid.
        const std::size_t padded = 18 * 14 * 10 * sizeof(float);
        const std::size_t plain = s.memoryBytes();
        QVERIFY(plain >= 12 * padded);
        QVERIFY(!s.hasDye());
        Emitter dye = densityEmitter(boxMask(cells, {6, 4, 3}, {9, 7, 5}), 1.f);
        dye.dye = {0.f, 1.f, 0.f};
        QVERIFY(s.setEmitters({dye}).ok());
        QVERIFY(s.hasDye());
        QVERIFY(s.memoryBytes() >= plain + 6 * padded);
        s.step(0.1f, 0.0);
        ScalarGrid g;
        s.sample(FieldKind::DyeGreen, g);
        QCOMPARE(g.size(), cells);
        QVERIFY(maxAbs(g) > 0.0);
        s.sample(FieldKind::DyeRed, g);
        QCOMPARE(maxAbs(g), 0.0);
        QVERIFY(s.setEmitters({}).ok());
        s.reset();
        QVERIFY(!s.hasDye());
        QCOMPARE(s.maxVelocity(), 0.f);
        for (FieldKind k : kAllKinds) {
            s.sample(k, g);
            QCOMPARE(g.size(), cells);
            QCOMPARE(maxAbs(g), 0.0);
        }
    }
};

QTEST_GUILESS_MAIN(TestSimStam)
#include "tst_sim_stam.moc"
