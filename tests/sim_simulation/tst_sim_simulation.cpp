// SPDX-License-Identifier: Apache-2.0
// Frame stepping, CFL substeps, blow-up detection and refusal of invalid input.
#include <core/sim/run/simulation.h>

#include <QtTest>

#include <cmath>
#include <limits>

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
            std::string error;
            auto sim = Simulation::create(d, p, t, &error);
            QVERIFY(!sim);
            QVERIFY2(QString::fromStdString(error).contains(expected), error.c_str());
        }
    }

    void badEmitterIsRefused()
    {
        std::string error;
        auto sim = Simulation::create(square(16), SimParams{}, TimeSettings{}, &error);
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
            std::string error;
            auto sim = Simulation::create(square(16), p, TimeSettings{}, &error);
            QVERIFY2(sim, error.c_str());
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
        std::string error;
        const Domain d = square(16);
        auto sim = Simulation::create(d, p, t, &error);
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
        std::string error;
        Domain d = square(32);
        d.boundaries[int(Face::XMin)] = Boundary::Periodic;
        d.boundaries[int(Face::XMax)] = Boundary::Periodic;
        auto sim = Simulation::create(d, SimParams{}, t, &error);
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

    void framesAndTime()
    {
        TimeSettings t;
        t.frameRate = 25.f;
        t.substeps = 3;
        std::string error;
        auto sim = Simulation::create(square(16), SimParams{}, t, &error);
        QVERIFY(sim);
        for (int f = 1; f <= 5; ++f)
            QCOMPARE(sim->advanceFrame().frame, f);
        QCOMPARE(sim->stepsTaken(), std::int64_t(15));
        QCOMPARE(sim->time(), 0.2);
    }
};

QTEST_GUILESS_MAIN(TestSimSimulation)
#include "tst_sim_simulation.moc"
