// SPDX-License-Identifier: Apache-2.0
// Moving obstacles (docs/colliders.md): solids that move impose their velocity on the fluid at
// their boundary, in both schemes, in 2D and 3D.
#include <core/sim/base/solver.h>
#include <core/sim/run/solverfactory.h>
#include <core/sim/smoke/smokesolver.h>

#include <oneapi/tbb/global_control.h>

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <memory>

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

SimParams params(Scheme scheme)
{
    SimParams p;
    p.scheme = scheme;
    p.buoyancyTemperature = 0.f;
    return p;
}

std::unique_ptr<Solver> makeSolver(const Domain &d, const SimParams &p)
{
    auto s = createSolver(d, p);
    if (!s)
        qFatal("solver: %s", s.error().c_str());
    return s.take();
}

/// Cells with lo <= (i, j, k) < hi (clipped to the grid) are solid.
FlagGrid boxSolids(Int3 n, Int3 lo, Int3 hi)
{
    FlagGrid f(n);
    for (int k = std::max(lo.z, 0); k < std::min(hi.z, n.z); ++k)
        for (int j = std::max(lo.y, 0); j < std::min(hi.y, n.y); ++j)
            for (int i = std::max(lo.x, 0); i < std::min(hi.x, n.x); ++i)
                f.setSolid(i, j, k, true);
    return f;
}

/// Every solid cell moves at `velocity`; sticky ones when noSlip.
ObstacleMotion rigidMotion(const FlagGrid &solids, Vec3 velocity, bool noSlip)
{
    ObstacleMotion m;
    const Int3 n = solids.size();
    for (int a = 0; a < (n.z > 1 ? 3 : 2); ++a) {
        m.velocity[a].reshape(n, kCellCentre, 0.f);
        for (std::size_t c = 0; c < solids.count(); ++c)
            m.velocity[a][c] = solids.isSolid(c) ? velocity[a] : 0.f;
    }
    if (noSlip) {
        m.noSlip.assign(solids.count(), 0);
        for (std::size_t c = 0; c < solids.count(); ++c)
            m.noSlip[c] = solids.isSolid(c) ? 1 : 0;
    }
    return m;
}

ScalarGrid sampled(const Solver &s, FieldKind kind)
{
    ScalarGrid g;
    s.sample(kind, g);
    return g;
}

/// A uniform density of 1 in every fluid cell: an emitter over the whole grid, one step at
/// rest, then no emitter.
void fillDensity(Solver &s)
{
    const Int3 n = s.domain().cells;
    Emitter e;
    for (std::uint32_t c = 0; c < std::uint32_t(n.volume()); ++c)
        e.mask.add(c, 1.f);
    e.density = 100.f;
    QVERIFY(s.setEmitters({e}));
    s.step(0.01f, 0.0);
    QVERIFY(s.setEmitters({}));
}

/// A box obstacle sliding along +x at `speed` (world units / s), one cell per `stepsPerCell`
/// steps: the mask moves cell by cell, the motion says how fast.
struct Slider
{
    Int3 lo, size;
    float speed = 1.f;
    bool noSlip = false;

    FlagGrid solidsAt(Int3 n, int shift) const
    {
        const Int3 at{lo.x + shift, lo.y, lo.z};
        return boxSolids(n, at, {at.x + size.x, at.y + size.y, at.z + size.z});
    }
    void place(Solver &s, int shift) const
    {
        const FlagGrid solids = solidsAt(s.domain().cells, shift);
        const Status st = s.setObstacles(solids, rigidMotion(solids, {speed, 0.f, 0.f}, noSlip));
        if (!st)
            qFatal("setObstacles: %s", st.error.c_str());
    }
};

/// Runs `steps` steps of dt = h / (2 speed) (two per cell), moving the slider before each.
template<class F>
void slide(Solver &s, const Slider &slider, int steps, F &&afterStep)
{
    const float dt = s.domain().cellSize / (2.f * slider.speed);
    for (int n = 0; n < steps; ++n) {
        slider.place(s, n / 2);
        s.step(dt, n * double(dt));
        afterStep(n);
    }
}

/// Sum of the x velocity over fluid cells times the cell volume.
double momentumX(const Solver &s)
{
    const ScalarGrid u = sampled(s, FieldKind::VelocityX);
    const ScalarGrid solid = sampled(s, FieldKind::Solid);
    const double h = s.domain().cellSize;
    double sum = 0.0;
    for (std::size_t c = 0; c < u.count(); ++c)
        sum += solid[c] == 0.f ? double(u[c]) : 0.0;
    return sum * std::pow(h, s.domain().dimensions());
}

double maxAbsFluid(const ScalarGrid &g, const ScalarGrid &solid)
{
    double m = 0.0;
    for (std::size_t c = 0; c < g.count(); ++c)
        m = solid[c] == 0.f ? std::max(m, double(std::fabs(g[c]))) : m;
    return m;
}

double l2(const ScalarGrid &g)
{
    double s = 0.0;
    for (std::size_t c = 0; c < g.count(); ++c)
        s += double(g[c]) * g[c];
    return std::sqrt(s);
}

bool finite(const ScalarGrid &g)
{
    for (std::size_t c = 0; c < g.count(); ++c)
        if (!std::isfinite(g[c]))
            return false;
    return true;
}

const FieldKind kState[] = {FieldKind::Density,   FieldKind::Temperature, FieldKind::VelocityX,
                            FieldKind::VelocityY, FieldKind::VelocityZ,   FieldKind::Pressure};

bool sameState(const Solver &a, const Solver &b)
{
    for (FieldKind f : kState) {
        if (!sampled(a, f).identical(sampled(b, f)))
            return false;
    }
    return true;
}

/// Data rows: each scheme in 2D and 3D.
void addSchemeRows()
{
    QTest::addColumn<int>("scheme");
    QTest::addColumn<bool>("is3D");
    QTest::newRow("smoke 2d") << int(Scheme::Smoke) << false;
    QTest::newRow("smoke 3d") << int(Scheme::Smoke) << true;
    QTest::newRow("stam 2d") << int(Scheme::Stam) << false;
    QTest::newRow("stam 3d") << int(Scheme::Stam) << true;
}

} // namespace

class TestSimColliders : public QObject
{
    Q_OBJECT

private slots:
    // Analytic: a solid spanning a channel and moving at U pushes the whole column at U (the
    // flow is incompressible and the channel has no way around). Smoke: exact up to the
    // pressure tolerance, on every fluid face, with open or periodic channel ends.
    void channelMovesAtObstacleSpeed_data()
    {
        QTest::addColumn<bool>("is3D");
        QTest::addColumn<int>("ends");
        QTest::newRow("2d open") << false << int(Boundary::Open);
        QTest::newRow("2d periodic") << false << int(Boundary::Periodic);
        QTest::newRow("3d open") << true << int(Boundary::Open);
        QTest::newRow("3d periodic") << true << int(Boundary::Periodic);
    }
    void channelMovesAtObstacleSpeed()
    {
        QFETCH(bool, is3D);
        QFETCH(int, ends);
        const Int3 n{32, 8, is3D ? 6 : 1};
        Domain d = makeDomain(n, 1.f / 32.f);
        d.boundaries[int(Face::XMin)] = d.boundaries[int(Face::XMax)] = Boundary(ends);
        const float speed = 0.75f;
        SmokeSolver s(d, params(Scheme::Smoke));
        const FlagGrid solids = boxSolids(n, {12, 0, 0}, {14, n.y, n.z});
        QVERIFY(s.setObstacles(solids, rigidMotion(solids, {speed, 0.f, 0.f}, false)));
        const StepStats stats = s.step(0.01f, 0.0);
        QVERIFY(stats.pressureConverged);
        double worstU = 0.0, worstV = 0.0;
        const MacGrid &vel = s.velocity();
        for (int k = 0; k < n.z; ++k)
            for (int j = 0; j < n.y; ++j)
                for (int i = 0; i <= n.x; ++i)
                    worstU = std::max(worstU, std::fabs(double(vel.u(i, j, k)) - speed));
        for (int k = 0; k < n.z; ++k)
            for (int j = 0; j <= n.y; ++j)
                for (int i = 0; i < n.x; ++i)
                    worstV = std::max(worstV, std::fabs(double(vel.v(i, j, k))));
        qInfo("largest |u - U| / U = %.3g, |v| / U = %.3g", worstU / speed, worstV / speed);
        QVERIFY(worstU <= 1e-4 * speed);
        QVERIFY(worstV <= 1e-4 * speed);
    }

    // The stam scheme on a periodic channel: its collocated projection puts the face to the
    // solid at U; the column away from the solid moves at U.
    void stamChannelMovesAtObstacleSpeed_data()
    {
        QTest::addColumn<bool>("is3D");
        QTest::newRow("2d") << false;
        QTest::newRow("3d") << true;
    }
    void stamChannelMovesAtObstacleSpeed()
    {
        QFETCH(bool, is3D);
        const Int3 n{24, 4, is3D ? 4 : 1};
        Domain d = makeDomain(n, 1.f / 24.f);
        d.boundaries[int(Face::XMin)] = d.boundaries[int(Face::XMax)] = Boundary::Periodic;
        SimParams p = params(Scheme::Stam);
        p.stamSweep = SweepOrder::RedBlack;
        p.stamIterations = 4000;
        auto s = makeSolver(d, p);
        const float speed = 0.75f;
        const FlagGrid solids = boxSolids(n, {10, 0, 0}, {12, n.y, n.z});
        QVERIFY(s->setObstacles(solids, rigidMotion(solids, {speed, 0.f, 0.f}, false)));
        s->step(1e-3f, 0.0);
        const ScalarGrid u = sampled(*s, FieldKind::VelocityX);
        const ScalarGrid solid = sampled(*s, FieldKind::Solid);
        // Cells two or more cells away from the solid move at U; the two beside it carry the
        // collocated scheme's dipole (measured: 0.63 U and 1.12 U on each side).
        double far = 0.0, lo = 1e9, hi = -1e9;
        for (int k = 0; k < n.z; ++k)
            for (int j = 0; j < n.y; ++j)
                for (int i = 0; i < n.x; ++i) {
                    if (solid(i, j, k) != 0.f)
                        continue;
                    const double value = u(i, j, k);
                    lo = std::min(lo, value);
                    hi = std::max(hi, value);
                    if (i < 8 || i > 13)
                        far = std::max(far, std::fabs(value - speed));
                }
        qInfo("fluid u / U in [%.4f, %.4f]; away from the solid |u - U| / U <= %.3g", lo / speed,
              hi / speed, far / speed);
        QVERIFY(far <= 5e-3 * speed);
        QVERIFY(lo >= 0.5 * speed);
        QVERIFY(hi <= 1.25 * speed);
    }

    // Couette flow: fluid between a plate sliding at U (the bottom row of solid cells, moving
    // along x but staying in place) and a plate at rest settles, with viscosity, to the linear
    // profile of the analytic solution. Smoke: closed faces are Dirichlet neighbours at the
    // solid's velocity in the viscous solve, so even free-slip plates hold the fluid (as static
    // solids always have); with no-slip the first fluid layers move with the plates. Stam:
    // the no-slip mirror; free-slip solids pass no tangential stress there.
    void couetteProfileIsLinear_data()
    {
        QTest::addColumn<int>("scheme");
        QTest::addColumn<bool>("noSlip");
        QTest::newRow("smoke free-slip") << int(Scheme::Smoke) << false;
        QTest::newRow("smoke no-slip") << int(Scheme::Smoke) << true;
        QTest::newRow("stam no-slip") << int(Scheme::Stam) << true;
    }
    void couetteProfileIsLinear()
    {
        QFETCH(int, scheme);
        QFETCH(bool, noSlip);
        const Int3 n{8, 12, 1};
        Domain d = makeDomain(n, 1.f / 12.f);
        d.boundaries[int(Face::XMin)] = d.boundaries[int(Face::XMax)] = Boundary::Periodic;
        SimParams p = params(Scheme(scheme));
        p.viscosity = 1.f;
        p.stamIterations = 400;
        p.stamSweep = SweepOrder::RedBlack;
        auto s = makeSolver(d, p);
        const float speed = 0.5f;
        FlagGrid plates = boxSolids(n, {0, 0, 0}, {n.x, 1, 1});
        const FlagGrid top = boxSolids(n, {0, n.y - 1, 0}, {n.x, n.y, 1});
        for (std::size_t c = 0; c < plates.count(); ++c)
            plates.data()[c] |= top.data()[c];
        ObstacleMotion m = rigidMotion(plates, {0.f, 0.f, 0.f}, noSlip);
        for (int i = 0; i < n.x; ++i)
            m.velocity[0](i, 0, 0) = speed; // the bottom plate slides
        QVERIFY(s->setObstacles(plates, m));
        for (int step = 0; step < 20; ++step)
            s->step(0.05f, step * 0.05);
        // u at the cell centres of column 3, rows 1 .. n.y - 2; the profile is linear between
        // the rows (or faces) that hold the plates' speeds.
        const ScalarGrid u = sampled(*s, FieldKind::VelocityX);
        const ScalarGrid v = sampled(*s, FieldKind::VelocityY);
        double curvature = 0.0, across = 0.0;
        for (int j = 2; j < n.y - 2; ++j)
            curvature = std::max(curvature, std::fabs(double(u(3, j - 1, 0)) - 2.0 * u(3, j, 0)
                                                      + u(3, j + 1, 0)));
        for (std::size_t c = 0; c < v.count(); ++c)
            across = std::max(across, double(std::fabs(v[c])));
        const double slope = double(u(3, 1, 0)) - u(3, 2, 0);
        qInfo("u: row 1 %.5f, row %d %.5f; largest second difference %.3g, |v| %.3g",
              double(u(3, 1, 0)), n.y - 2, double(u(3, n.y - 2, 0)), curvature, across);
        QVERIFY(slope > 0.02 * speed);      // the sliding plate drags the fluid...
        QVERIFY(curvature <= 1e-4 * speed); // ...into a straight profile
        QVERIFY(across <= 1e-4 * speed);
        QVERIFY(u(3, 1, 0) <= speed * 1.0001f);
        QVERIFY(u(3, n.y - 2, 0) >= -1e-4f * speed);
        if (noSlip) { // the first fluid layers move with the plates
            QVERIFY(std::fabs(u(3, 1, 0) - speed) <= 0.3f * speed);
            QVERIFY(std::fabs(u(3, n.y - 2, 0)) <= 0.3f * speed);
        }
    }

    // A box moving at U through still fluid in a periodic channel drags the fluid: momentum
    // along the push grows, the face ahead of the box moves at U and the fluid just ahead
    // nearly so; a no-slip box drags more than a free-slip one.
    void boxDragsFluid_data()
    {
        QTest::addColumn<int>("scheme");
        QTest::addColumn<bool>("is3D");
        QTest::newRow("smoke 2d") << int(Scheme::Smoke) << false;
        QTest::newRow("smoke 3d") << int(Scheme::Smoke) << true;
        QTest::newRow("stam 2d") << int(Scheme::Stam) << false;
        QTest::newRow("stam 3d") << int(Scheme::Stam) << true;
    }
    void boxDragsFluid()
    {
        QFETCH(int, scheme);
        QFETCH(bool, is3D);
        const Int3 n = is3D ? Int3{32, 16, 12} : Int3{64, 24, 1};
        Domain d = makeDomain(n, 1.f / 32.f);
        d.boundaries[int(Face::XMin)] = d.boundaries[int(Face::XMax)] = Boundary::Periodic;
        const int steps = is3D ? 16 : 40;
        double momentum[2] = {0.0, 0.0};
        for (bool noSlip : {false, true}) {
            auto s = makeSolver(d, params(Scheme(scheme)));
            const Slider box{{6, n.y / 2 - 3, is3D ? n.z / 2 - 3 : 0},
                             {4, 6, is3D ? 6 : 1},
                             1.f,
                             noSlip};
            double early = 0.0, late = 0.0, ahead = 0.0;
            slide(*s, box, steps, [&](int step) {
                if (step == steps / 4)
                    early = momentumX(*s);
                if (step == steps - 1) {
                    late = momentumX(*s);
                    // u at the centre of the first fluid cell ahead of the box
                    const ScalarGrid u = sampled(*s, FieldKind::VelocityX);
                    const int front = box.lo.x + step / 2 + box.size.x;
                    ahead = u(front, n.y / 2, is3D ? n.z / 2 : 0);
                }
            });
            const ScalarGrid all = sampled(*s, FieldKind::Speed);
            QVERIFY(finite(all));
            qInfo("%s: momentum %.4g then %.4g, u ahead %.3f U, max speed %.3f U",
                  noSlip ? "no-slip" : "free-slip", early, late, ahead, s->maxVelocity());
            QVERIFY(early > 0.0);
            QVERIFY(late > early);
            QVERIFY(ahead > 0.5 && ahead < 1.2);
            QVERIFY(s->maxVelocity() < 3.f);
            momentum[noSlip ? 1 : 0] = late;
        }
        QVERIFY(momentum[1] > momentum[0]);
    }

    // The smoke scheme's face ahead of a moving box is driven at exactly the box's velocity
    // (its normal component), before and after the projection; faces between solid cells
    // carry it too, so the velocity sampled inside the box is the box's.
    void facesTakeObstacleVelocity()
    {
        const Int3 n{24, 16, 1};
        const Domain d = makeDomain(n, 1.f / 16.f);
        SmokeSolver s(d, params(Scheme::Smoke));
        const FlagGrid solids = boxSolids(n, {8, 5, 0}, {12, 9, 0 + 1});
        const Vec3 velocity{0.6f, -0.3f, 0.f};
        QVERIFY(s.setObstacles(solids, rigidMotion(solids, velocity, false)));
        QCOMPARE(s.velocity().u(12, 6, 0), velocity.x); // before any step
        QCOMPARE(s.velocity().v(9, 5, 0), velocity.y);
        s.step(0.01f, 0.0);
        QCOMPARE(s.velocity().u(8, 6, 0), velocity.x);  // trailing face
        QCOMPARE(s.velocity().u(12, 6, 0), velocity.x); // leading face
        QCOMPARE(s.velocity().v(9, 5, 0), velocity.y);  // bottom face
        QCOMPARE(s.velocity().v(9, 9, 0), velocity.y);  // top face
        QCOMPARE(s.velocity().u(0, 6, 0), 0.f);         // the walls stay closed
        const ScalarGrid u = sampled(s, FieldKind::VelocityX);
        QCOMPARE(u(10, 7, 0), velocity.x);
        QVERIFY(u(13, 7, 0) > 0.f); // the fluid ahead is pushed
    }

    // A moving obstacle in a closed box: after every step the divergence is within the
    // pressure tolerance (smoke: max |div| h <= 1e-5 * the largest face flux difference before
    // the projection, a few U; measured below 1e-5 U). The stam scheme's collocated projection has
    // a floor (tst_sim_stam's projectionReducesDivergence): it removes most of what the moving
    // walls impose, and keeps doing so step after step.
    void closedBoxDivergence_data()
    {
        QTest::addColumn<int>("scheme");
        QTest::addColumn<bool>("is3D");
        QTest::addColumn<bool>("noSlip");
        QTest::newRow("smoke 2d") << int(Scheme::Smoke) << false << false;
        QTest::newRow("smoke 3d") << int(Scheme::Smoke) << true << false;
        QTest::newRow("smoke 2d no-slip") << int(Scheme::Smoke) << false << true;
        QTest::newRow("smoke 3d no-slip") << int(Scheme::Smoke) << true << true;
        QTest::newRow("stam 2d") << int(Scheme::Stam) << false << false;
        QTest::newRow("stam 3d") << int(Scheme::Stam) << true << false;
        QTest::newRow("stam 2d no-slip") << int(Scheme::Stam) << false << true;
        QTest::newRow("stam 3d no-slip") << int(Scheme::Stam) << true << true;
    }
    void closedBoxDivergence()
    {
        QFETCH(int, scheme);
        QFETCH(bool, is3D);
        QFETCH(bool, noSlip);
        const Int3 n = is3D ? Int3{24, 20, 16} : Int3{48, 32, 1};
        const Domain d = makeDomain(n, 1.f / 32.f);
        SimParams p = params(Scheme(scheme));
        p.stamSweep = SweepOrder::RedBlack;
        auto s = makeSolver(d, p);
        fillDensity(*s);
        const float speed = 1.5f;
        const Slider box{{8, n.y / 2 - 4, is3D ? n.z / 2 - 3 : 0},
                         {5, 8, is3D ? 6 : 1},
                         speed,
                         noSlip};
        const double h = d.cellSize;
        double worst = 0.0, first = 0.0, before = 0.0;
        const int steps = 20; // the box stays clear of the walls (a solid pushing into a wall
                              // would change the fluid's volume: no projection can fix that)
        slide(*s, box, steps, [&](int step) {
            const ScalarGrid div = sampled(*s, FieldKind::Divergence);
            QVERIFY(finite(div));
            const double value = Scheme(scheme) == Scheme::Smoke
                                     ? maxAbsFluid(div, sampled(*s, FieldKind::Solid)) * h
                                     : l2(div);
            worst = std::max(worst, value);
            if (step == 0)
                first = value;
        });
        if (Scheme(scheme) == Scheme::Smoke) {
            qInfo("largest |div| h over %d steps: %.3g U", steps, worst / speed);
            QVERIFY(worst <= 5e-5 * speed);
            return;
        }
        // What the walls impose on fluid at rest: the divergence right after setObstacles.
        auto fresh = makeSolver(d, p);
        box.place(*fresh, 0);
        before = l2(sampled(*fresh, FieldKind::Divergence));
        qInfo("L2 divergence imposed %.4g; after the first step %.4g, largest after any %.4g",
              before, first, worst);
        QVERIFY(before > 0.0);
        QVERIFY(first < 0.5 * before);
        QVERIFY(worst < 0.5 * before);
    }

    // Cells the obstacle leaves are filled from their fluid neighbours: a box sweeping through
    // a uniform density leaves it near-uniform behind (no holes), nothing above the initial
    // largest value, and no NaN; cells it covers lose their contents without blowing up.
    void uncoveredCellsHaveNoHoles_data() { addSchemeRows(); }
    void uncoveredCellsHaveNoHoles()
    {
        QFETCH(int, scheme);
        QFETCH(bool, is3D);
        const Int3 n = is3D ? Int3{24, 16, 12} : Int3{48, 24, 1};
        Domain d = makeDomain(n, 1.f / 24.f);
        d.boundaries[int(Face::XMin)] = d.boundaries[int(Face::XMax)] = Boundary::Periodic;
        auto s = makeSolver(d, params(Scheme(scheme)));
        const Slider box{{4, n.y / 2 - 3, is3D ? n.z / 2 - 3 : 0}, {4, 6, is3D ? 6 : 1}, 1.f};
        box.place(*s, 0);
        fillDensity(*s);
        const ScalarGrid start = sampled(*s, FieldKind::Density);
        float initialMax = 0.f;
        for (std::size_t c = 0; c < start.count(); ++c)
            initialMax = std::max(initialMax, start[c]);
        QVERIFY(initialMax > 0.f);
        const int steps = 24; // 12 cells: the box leaves its first place behind
        slide(*s, box, steps, [](int) {});
        const ScalarGrid rho = sampled(*s, FieldKind::Density);
        const ScalarGrid solid = sampled(*s, FieldKind::Solid);
        QVERIFY(finite(rho));
        QVERIFY(finite(sampled(*s, FieldKind::Speed)));
        float lo = initialMax, hi = 0.f;
        for (std::size_t c = 0; c < rho.count(); ++c) {
            if (solid[c] != 0.f) {
                QCOMPARE(rho[c], 0.f); // covered cells hold nothing
                continue;
            }
            lo = std::min(lo, rho[c]);
            hi = std::max(hi, rho[c]);
        }
        qInfo("fluid density in [%.5f, %.5f] of the initial %.5f", lo / initialMax, hi / initialMax,
              initialMax);
        QVERIFY(hi <= initialMax * (1.f + 1e-5f));
        QVERIFY(lo >= 0.9f * initialMax);
    }

    // Solids at rest give the bytes they always gave: setObstacles(solids) equals
    // setObstacles(solids, {}) and a motion of zero velocities, step after step, with every
    // stage that reads the boundaries switched on.
    void restingMotionKeepsBytes_data() { addSchemeRows(); }
    void restingMotionKeepsBytes()
    {
        QFETCH(int, scheme);
        QFETCH(bool, is3D);
        const Int3 n = is3D ? Int3{16, 16, 12} : Int3{40, 32, 1};
        Domain d = makeDomain(n, 1.f / 32.f);
        d.boundaries[int(Face::YMax)] = Boundary::Open;
        SimParams p = params(Scheme(scheme));
        p.viscosity = 1e-3f;
        p.diffusion = 1e-3f;
        p.vorticity = 0.2f;
        p.buoyancyTemperature = 1.f;
        const FlagGrid solids = boxSolids(n, {n.x / 3, n.y / 2, 0},
                                          {2 * n.x / 3, n.y / 2 + 2, n.z});
        Emitter e;
        for (int k = 0; k < n.z; ++k)
            for (int i = n.x / 2 - 3; i < n.x / 2 + 3; ++i)
                e.mask.add(std::uint32_t(i + n.x * (2 + n.y * k)), 1.f);
        e.density = 4.f;
        e.temperature = 6.f;
        auto run = [&](int variant) {
            auto s = makeSolver(d, p);
            s->setEmitters({e});
            for (int step = 0; step < 8; ++step) {
                Status st;
                if (variant == 0)
                    st = s->setObstacles(solids);
                else if (variant == 1)
                    st = s->setObstacles(solids, {});
                else
                    st = s->setObstacles(solids, rigidMotion(solids, {0.f, 0.f, 0.f}, false));
                if (!st)
                    qFatal("setObstacles: %s", st.error.c_str());
                s->step(0.01f, step * 0.01);
            }
            return s;
        };
        const auto plain = run(0);
        QVERIFY(sameState(*plain, *run(1)));
        QVERIFY(sameState(*plain, *run(2)));
        QVERIFY(sampled(*plain, FieldKind::Density).count() > 0);
    }

    // Results do not depend on the thread count: one thread and two give the same bytes with a
    // moving no-slip obstacle, viscosity and uncovered cells.
    void serialEqualsParallel_data() { addSchemeRows(); }
    void serialEqualsParallel()
    {
        QFETCH(int, scheme);
        QFETCH(bool, is3D);
        const Int3 n = is3D ? Int3{24, 16, 16} : Int3{64, 32, 1};
        Domain d = makeDomain(n, 1.f / 32.f);
        d.boundaries[int(Face::XMin)] = d.boundaries[int(Face::XMax)] = Boundary::Periodic;
        SimParams p = params(Scheme(scheme));
        p.viscosity = 1e-3f;
        p.stamSweep = SweepOrder::RedBlack;
        const Slider box{{4, n.y / 2 - 3, is3D ? n.z / 2 - 3 : 0}, {4, 6, is3D ? 6 : 1}, 1.f, true};
        auto run = [&](int threads) {
            tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                                      std::size_t(threads));
            auto s = makeSolver(d, p);
            box.place(*s, 0);
            fillDensity(*s);
            slide(*s, box, 12, [](int) {});
            return s;
        };
        const auto one = run(1);
        const auto two = run(2);
        QVERIFY(sameState(*one, *two));
    }

    // Bad motions are refused with a message naming what is wrong; the solver keeps its
    // previous obstacles.
    void badMotionIsRefused()
    {
        const Int3 n{16, 12, 1};
        const Domain d = makeDomain(n, 1.f / 16.f);
        SmokeSolver s(d, params(Scheme::Smoke));
        const FlagGrid solids = boxSolids(n, {4, 4, 0}, {8, 8, 1});
        ObstacleMotion wrongSize;
        wrongSize.velocity[0].reshape({8, 8, 1}, kCellCentre);
        Status st = s.setObstacles(solids, wrongSize);
        QVERIFY(!st);
        QVERIFY2(st.error.find("obstacle velocity x has 8 x 8 x 1 cells") != std::string::npos,
                 st.error.c_str());
        ObstacleMotion notFinite = rigidMotion(solids, {1.f, 0.f, 0.f}, false);
        notFinite.velocity[1](5, 6, 0) = std::nanf("");
        st = s.setObstacles(solids, notFinite);
        QVERIFY(!st);
        QVERIFY2(st.error.find("obstacle velocity y at cell (5, 6, 0) is not finite")
                     != std::string::npos,
                 st.error.c_str());
        ObstacleMotion flags;
        flags.noSlip.assign(7, 1);
        st = s.setObstacles(solids, flags);
        QVERIFY(!st);
        QVERIFY2(st.error.find("no-slip flags have 7 entries") != std::string::npos,
                 st.error.c_str());
        QVERIFY(!s.solids().anySolid()); // nothing was applied
    }
};

QTEST_GUILESS_MAIN(TestSimColliders)
#include "tst_sim_colliders.moc"
