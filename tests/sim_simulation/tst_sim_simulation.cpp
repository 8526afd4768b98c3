// SPDX-License-Identifier: Apache-2.0
// Frame stepping, CFL substeps, blow-up detection, refusal of invalid input, and the watch on
// smoke that reaches an open side.
#include <core/sim/run/simulation.h>

#include <QtTest>

#include <cmath>
#include <limits>
#include <memory>

using namespace plume::sim;

namespace {

Domain square(int n)
{
    Domain d;
    d.cells = {n, n, 1};
    d.cellSize = 1.f / float(n);
    return d;
}

SparseMask everywhere(const Domain &d)
{
    SparseMask m;
    for (std::uint32_t c = 0; c < std::uint32_t(d.cellCount()); ++c)
        m.add(c, 1.f);
    return m;
}

} // namespace

class TestSimSimulation : public QObject
{
    Q_OBJECT

private slots:
    // Result, the library's one way to make something or say why not (issue 48).
    void resultHoldsAValueOrTheReason()
    {
        const Result<int> made = 7;
        QVERIFY(made);
        QCOMPARE(made.value(), 7);
        QCOMPARE(*made, 7);
        QVERIFY(made.error().empty());
        QVERIFY(made.status().ok());
        const Result<int> refused = Status::failure("no room");
        QVERIFY(!refused);
        QCOMPARE(refused.error(), std::string("no room"));
        QCOMPARE(refused.status().error, std::string("no room"));
        // A failure without a message still fails, with one.
        const Result<int> silent = Status::failure("");
        QVERIFY(!silent);
        QVERIFY(!silent.error().empty());
        // A Result of a pointer reads like the pointer: * and -> reach the pointee; value()
        // and take() give the pointer itself; a derived class's pointer converts.
        struct Base
        {
            virtual ~Base() = default;
            virtual int id() const { return 1; }
        };
        struct Derived : Base
        {
            int id() const override { return 2; }
        };
        Result<std::unique_ptr<Base>> pointer = std::make_unique<Derived>();
        QVERIFY(pointer);
        QCOMPARE(pointer->id(), 2);
        QCOMPARE((*pointer).id(), 2);
        QVERIFY(pointer.value() != nullptr);
        const std::unique_ptr<Base> taken = pointer.take();
        QCOMPARE(taken->id(), 2);
        // Simulation::create says why, with no null to check.
        TimeSettings t;
        t.substeps = 0;
        const auto sim = Simulation::create(square(16), SimParams{}, t);
        QVERIFY(!sim);
        QVERIFY2(sim.error().find("substeps") != std::string::npos, sim.error().c_str());
    }

    void invalidInputIsRefused_data()
    {
        QTest::addColumn<int>("case_");
        QTest::addColumn<QString>("expected");
        QTest::newRow("negative resolution") << 0 << "along x is -8";
        QTest::newRow("zero resolution") << 1 << "along y is 0";
        QTest::newRow("too big to fit") << 2 << "limit";
        QTest::newRow("NaN viscosity") << 3 << "viscosity";
        QTest::newRow("NaN cell size") << 4 << "cell size";
        QTest::newRow("bad frame rate") << 5 << "frameRate";
        QTest::newRow("zero substeps") << 6 << "substeps";
        QTest::newRow("bad tolerance") << 7 << "pressure.tolerance";
        QTest::newRow("one-sided periodic") << 8 << "periodic";
    }

    // Bad parameters produce a message naming the value, never a crash or an abort.
    void invalidInputIsRefused()
    {
        QFETCH(int, case_);
        QFETCH(QString, expected);
        for (Scheme scheme : {Scheme::Smoke, Scheme::Stam}) {
            Domain d = square(32);
            SimParams p;
            p.scheme = scheme;
            TimeSettings t;
            switch (case_) {
            case 0: d.cells.x = -8; break;
            case 1: d.cells.y = 0; break;
            case 2: d.cells = {4096, 4096, 4096}; break;
            case 3: p.viscosity = std::nanf(""); break;
            case 4: d.cellSize = std::nanf(""); break;
            case 5: t.frameRate = -24.f; break;
            case 6: t.substeps = 0; break;
            case 7: p.pressure.tolerance = 0.0; break;
            case 8: d.boundaries[int(Face::YMin)] = Boundary::Periodic; break;
            }
            auto sim = Simulation::create(d, p, t);
            QVERIFY(!sim);
            const std::string error = sim.error();
            QVERIFY2(QString::fromStdString(error).contains(expected), error.c_str());
        }
    }

    void badEmitterIsRefused()
    {
        auto sim = Simulation::create(square(16), SimParams{}, TimeSettings{});
        QVERIFY(sim);
        Emitter e;
        e.mask.add(16 * 16 + 3, 1.f); // outside the grid
        const Status s = sim->solver().setEmitters({e});
        QVERIFY(!s.ok());
        QVERIFY2(QString::fromStdString(s.error).contains("outside the grid"), s.error.c_str());
        Emitter nan;
        nan.mask.add(3, 1.f);
        nan.density = std::nanf("");
        QVERIFY(!sim->solver().setEmitters({nan}).ok());
        ForceField f;
        f.type = ForceType::Turbulence;
        f.scale = -1.f;
        QVERIFY(!sim->solver().setForceFields({f}).ok());
    }

    // Both schemes check their inputs in one place, so they refuse the same things with the
    // same words (the stam scheme once took a force field whose mask left the grid).
    void schemesRefuseAlike()
    {
        QStringList messages[2];
        for (Scheme scheme : {Scheme::Smoke, Scheme::Stam}) {
            SimParams p;
            p.scheme = scheme;
            auto sim = Simulation::create(square(16), p, TimeSettings{});
            QVERIFY2(sim, sim.error().c_str());
            ForceField f;
            f.region.mask.add(16 * 16 + 3, 1.f); // outside the grid
            Emitter e;
            e.mask.add(16 * 16 + 3, 1.f);
            const Status statuses[3] = {sim->solver().setForceFields({f}),
                                        sim->solver().setEmitters({e}),
                                        sim->solver().setObstacles(FlagGrid({8, 8, 1}))};
            for (const Status &s : statuses) {
                QVERIFY(!s.ok());
                messages[int(scheme == Scheme::Stam)] << QString::fromStdString(s.error);
            }
        }
        QCOMPARE(messages[0], messages[1]);
        QVERIFY2(messages[0][0].startsWith("force field 0: region"), qPrintable(messages[0][0]));
    }

    // A step that produces infinity stops with an error naming the frame, step and field.
    void blowUpIsReported_data()
    {
        QTest::addColumn<int>("scheme");
        QTest::newRow("smoke") << int(Scheme::Smoke);
        QTest::newRow("stam") << int(Scheme::Stam);
    }

    void blowUpIsReported()
    {
        QFETCH(int, scheme);
        SimParams p;
        p.scheme = Scheme(scheme);
        TimeSettings t;
        t.frameRate = 1.f;
        t.substeps = 2; // dt = 0.5 s
        const Domain d = square(16);
        auto sim = Simulation::create(d, p, t);
        QVERIFY(sim);
        // Each step adds half the largest float: within a couple of steps some field
        // (density, or what it drives) overflows to infinity.
        Emitter e;
        e.mask = everywhere(d);
        e.density = std::numeric_limits<float>::max();
        QVERIFY(sim->solver().setEmitters({e}).ok());
        FrameStats stats;
        int frame = 0;
        while (frame < 5) {
            ++frame;
            stats = sim->advanceFrame();
            if (!stats.status.ok())
                break;
        }
        QVERIFY(!stats.status.ok());
        const QString message = QString::fromStdString(stats.status.error);
        QVERIFY2(
            message.contains(QString("frame %1, substep %2 of 2").arg(frame).arg(stats.substeps))
                && message.contains(QRegularExpression("field '(density|velocity [xy]|pressure)'")),
            qPrintable(message));
        // Refuses to go on until reset.
        QVERIFY(!sim->advanceFrame().status.ok());
        sim->solver().setEmitters({});
        sim->reset();
        QVERIFY(sim->advanceFrame().status.ok());
    }

    // With a CFL number the substeps follow the fastest velocity.
    void cflChoosesSubsteps()
    {
        TimeSettings t;
        t.frameRate = 10.f;
        t.cfl = 1.f;
        t.maxSubsteps = 50;
        Domain d = square(32);
        d.boundaries[int(Face::XMin)] = Boundary::Periodic;
        d.boundaries[int(Face::XMax)] = Boundary::Periodic;
        auto sim = Simulation::create(d, SimParams{}, t);
        QVERIFY(sim);
        Emitter push;
        push.mask = everywhere(d);
        push.velocityMode = EmitterVelocity::Inflow;
        push.velocity = {2.f, 0.f, 0.f}; // 64 cells per second
        sim->solver().setEmitters({push});
        QCOMPARE(sim->advanceFrame().substeps, 1); // at rest: one step
        // The periodic channel moves at 2 units/s: 6.4 cells per frame at CFL 1 needs 7.
        const FrameStats stats = sim->advanceFrame();
        QVERIFY2(stats.substeps >= 6 && stats.substeps <= 7,
                 qPrintable(QString::number(stats.substeps)));
        t.maxSubsteps = 3;
        QVERIFY(sim->setTimeSettings(t).ok());
        QCOMPARE(sim->advanceFrame().substeps, 3);
    }

    // SideWatch: smoke within 2 cells of an open side at more than 1 % of the peak seen so far
    // is said once per side; walls and periodic sides never; the band follows a finer grid.
    void sideWatchSaysOnce()
    {
        Domain d;
        d.cells = {16, 12, 8};
        d.cellSize = 0.125f;
        d.boundaries = allBoundaries(Boundary::Open);
        d.boundaries[int(Face::YMin)] = Boundary::Wall;     // the ground
        d.boundaries[int(Face::ZMin)] = Boundary::Periodic; // wraps
        d.boundaries[int(Face::ZMax)] = Boundary::Periodic;
        SideWatch watch(d);
        ScalarGrid density({16, 12, 8}, {0.5f, 0.5f, 0.5f});
        density(8, 6, 4) = 2.f; // the peak, in the middle
        QCOMPARE(int(watch.observe(density)), 0);
        // 0.02 = 1 % of the peak: not above it. Cell 13 is 3 cells from the +x side: outside.
        density(14, 6, 4) = 0.02f;
        density(13, 6, 4) = 1.f;
        QCOMPARE(int(watch.observe(density)), 0);
        QCOMPARE(watch.lastShare(Face::XMax), 0.01f);
        density(14, 6, 4) = 0.03f; // 1.5 % of the peak, 2 cells from +x
        density(8, 0, 4) = 1.f;    // on the ground: a wall
        density(8, 6, 0) = 1.f;    // at a periodic side
        QCOMPARE(int(watch.observe(density)), 1 << int(Face::XMax));
        QCOMPARE(watch.lastShare(Face::XMax), 0.015f);
        QCOMPARE(watch.lastShare(Face::YMin), 0.f);
        QCOMPARE(watch.lastShare(Face::ZMin), 0.f);
        QCOMPARE(int(watch.observe(density)), 0); // said once
        density(3, 11, 2) = 1.5f;                 // the top
        density(0, 5, 5) = 0.5f;                  // and -x
        QVERIFY(!watch.done());
        const std::uint8_t fresh = watch.observe(density);
        QCOMPARE(int(fresh), (1 << int(Face::YMax)) | (1 << int(Face::XMin)));
        QVERIFY(watch.done()); // every open side said: the simulation stops looking
        QCOMPARE(QString::fromStdString(watch.note(fresh)),
                 QString("smoke reached the open sides xmin (25 %), ymax (75 %) of the domain at "
                         "that share of its peak density: it is cut off there; enlarge the "
                         "domain or move the source away"));
        QCOMPARE(watch.note(0), std::string());
        // The peak is the largest seen so far: smoke that thins out is still compared with it.
        ScalarGrid thin({16, 12, 8}, {0.5f, 0.5f, 0.5f});
        thin(15, 6, 4) = 0.01f;
        watch.reset();
        QCOMPARE(int(watch.observe(thin)), 1 << int(Face::XMax)); // its own peak
        thin(8, 6, 4) = 4.f;
        watch.reset();
        QCOMPARE(int(watch.observe(thin)), 0); // 0.25 %

        // A grid twice as fine (upres) has a band of 4 of its cells.
        ScalarGrid fine({32, 24, 16}, {0.5f, 0.5f, 0.5f});
        fine(16, 12, 8) = 1.f;
        fine(28, 12, 8) = 0.5f; // 4 fine cells from +x: 2 domain cells
        SideWatch fineWatch(d);
        QCOMPARE(int(fineWatch.observe(fine)), 1 << int(Face::XMax));
        ScalarGrid fine2({32, 24, 16}, {0.5f, 0.5f, 0.5f});
        fine2(16, 12, 8) = 1.f;
        fine2(27, 12, 8) = 0.5f; // 5 fine cells: outside
        SideWatch fineWatch2(d);
        QCOMPARE(int(fineWatch2.observe(fine2)), 0);

        // In 2D there are no z sides, whatever their mode.
        Domain flat = square(8);
        flat.boundaries = allBoundaries(Boundary::Open);
        SideWatch flatWatch(flat);
        ScalarGrid plane({8, 8, 1}, {0.5f, 0.5f, 0.5f});
        plane(4, 4, 0) = 1.f;
        QCOMPARE(int(flatWatch.observe(plane)), 0);
        plane(4, 7, 0) = 1.f;
        QCOMPARE(int(flatWatch.observe(plane)), 1 << int(Face::YMax));
    }

    // The simulation says it in the frame's stats, the first frame the smoke gets there.
    void frameStatsSaySmokeAtSides()
    {
        TimeSettings t;
        Domain d = square(16);
        d.boundaries = allBoundaries(Boundary::Open);
        auto sim = Simulation::create(d, SimParams{}, t);
        QVERIFY2(sim, sim.error().c_str());
        Emitter source;
        source.mask.add(std::uint32_t(d.cells.x * 8 + 8), 1.f); // the middle: nowhere near
        source.density = 1.f;
        sim->solver().setEmitters({source});
        QCOMPARE(sim->advanceFrame().smokeAtSides, std::string());
        Emitter edge = source;
        edge.mask = SparseMask();
        edge.mask.add(std::uint32_t(d.cells.x * 8 + 15), 1.f); // at +x
        sim->solver().setEmitters({source, edge});
        const std::string note = sim->advanceFrame().smokeAtSides;
        QVERIFY2(note.find("side xmax") != std::string::npos, note.c_str());
        QCOMPARE(sim->advanceFrame().smokeAtSides, std::string()); // once
        sim->reset();
        sim->solver().setEmitters({source, edge});
        QVERIFY(!sim->advanceFrame().smokeAtSides.empty()); // a new run says it again
    }

    void framesAndTime()
    {
        TimeSettings t;
        t.frameRate = 25.f;
        t.substeps = 3;
        auto sim = Simulation::create(square(16), SimParams{}, t);
        QVERIFY(sim);
        for (int f = 1; f <= 5; ++f)
            QCOMPARE(sim->advanceFrame().frame, f);
        QCOMPARE(sim->stepsTaken(), std::int64_t(15));
        QCOMPARE(sim->time(), 0.2);
    }
};

QTEST_GUILESS_MAIN(TestSimSimulation)
#include "tst_sim_simulation.moc"
