// SPDX-License-Identifier: Apache-2.0
// Never blow up on what an artist paints: seeded random layouts (many obstacles, sealed pockets,
// emitters and force fields of every kind, every boundary mode) run for tens of frames in 2D and
// 3D; every pressure solve reaches its tolerance (reporting a fallback if multigrid broke down)
// and no field ever holds NaN or infinity. The scene that used to blow up runs its whole range.
//
// Soak (opt-in, run before changing the pressure solve): PLUME_SOAK=300 tst_sim_robustness runs
// that many scenes of each dimension and prints the totals.
#include "randomscene.h"

#include <core/io/scenereader.h>
#include <core/scene/scenesimulation.h>
#include <core/sim/ops/pressure.h>

#include <QtTest>

#include <algorithm>
#include <chrono>

using namespace plume;

namespace {

struct RunTotals
{
    int frames = 0;
    int solves = 0;
    int fallbacks = 0;
    int iterations = 0;
    int worstIterations = 0;
    double worstResidual = 0.0;
};

/// Simulates the scene's whole range as the baker does; the first failure is returned.
QString runScene(const Scene &scene, RunTotals &totals)
{
    SceneSimulation simulation;
    if (sim::Status st = simulation.setScene(scene); !st)
        return QString::fromStdString("setScene: " + st.error);
    for (int frame = scene.simulation.frameStart; frame <= scene.simulation.frameEnd; ++frame) {
        const sim::FrameStats stats = simulation.advance(frame);
        if (!stats.status)
            return QString::fromStdString(stats.status.error);
        if (!stats.pressureConverged)
            return QString("frame %1: pressure solve did not converge (%2 iterations, residual "
                           "%3; %4)")
                .arg(frame)
                .arg(stats.pressureIterations)
                .arg(stats.pressureResidual)
                .arg(QString::fromStdString(sim::pressureTrouble(stats)));
        ++totals.frames;
        totals.solves += stats.substeps;
        totals.fallbacks += stats.pressureFallbacks;
        totals.iterations += stats.pressureIterations;
        totals.worstIterations = std::max(totals.worstIterations,
                                          stats.pressureIterations / std::max(1, stats.substeps));
        totals.worstResidual = std::max(totals.worstResidual, stats.pressureResidual);
    }
    return {};
}

int soakScenes() { return qEnvironmentVariableIntValue("PLUME_SOAK"); }

} // namespace

class TestSimRobustness : public QObject
{
    Q_OBJECT

private slots:
    // The generator is deterministic and makes what it promises: many obstacles, sealed
    // pockets, every emitter velocity mode and force type over the seeds used below.
    void generatorIsDeterministic()
    {
        QVERIFY(testing::randomScene(7, false) == testing::randomScene(7, false));
        QVERIFY(!(testing::randomScene(7, false) == testing::randomScene(8, false)));
        int obstacles = 0, sealed = 0, modes[3] = {}, forces[5] = {};
        for (std::uint32_t seed = 0; seed < 24; ++seed) {
            for (const Item &i : testing::randomScene(seed, seed % 2 == 1).items) {
                obstacles += i.kind == ItemKind::Obstacle;
                sealed += i.name.rfind("sealed", 0) == 0;
                if (i.kind == ItemKind::Emitter)
                    ++modes[int(i.emitter.velocityMode)];
                if (i.kind == ItemKind::ForceField)
                    ++forces[int(i.force.type)];
            }
        }
        QVERIFY(obstacles > 24 * 8);
        QVERIFY(sealed > 6);
        QVERIFY(*std::min_element(std::begin(modes), std::end(modes)) > 0);
        QVERIFY(*std::min_element(std::begin(forces), std::end(forces)) > 0);
    }

    void randomLayouts_data()
    {
        QTest::addColumn<bool>("threeD");
        QTest::addColumn<int>("count");
        const int soak = soakScenes();
        QTest::newRow("2d") << false << (soak > 0 ? soak : 32);
        QTest::newRow("3d") << true << (soak > 0 ? soak : 12);
    }

    // Dozens of painted-like layouts run 30 frames each without a blow-up or an unconverged
    // pressure solve.
    void randomLayouts()
    {
        QFETCH(bool, threeD);
        QFETCH(int, count);
        RunTotals totals;
        QStringList failures;
        const auto start = std::chrono::steady_clock::now();
        // PLUME_SEED=N runs scene N alone (to look into one failure).
        const int only = qEnvironmentVariableIsSet("PLUME_SEED")
                             ? qEnvironmentVariableIntValue("PLUME_SEED")
                             : -1;
        for (int seed = 0; seed < count; ++seed) {
            if (only >= 0 && seed != only)
                continue;
            const Scene scene = testing::randomScene(std::uint32_t(seed), threeD);
            const QString failure = runScene(scene, totals);
            if (!failure.isEmpty())
                failures << QString("seed %1: %2").arg(seed).arg(failure);
        }
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        qInfo("%s: %d scenes, %d frames, %d pressure solves, %d fallbacks, %.1f iterations per "
              "solve (worst frame %d per solve), worst residual %.3g, %.1f s",
              threeD ? "3d" : "2d", count, totals.frames, totals.solves, totals.fallbacks,
              double(totals.iterations) / std::max(1, totals.solves), totals.worstIterations,
              totals.worstResidual, seconds);
        if (!failures.isEmpty())
            QFAIL(qPrintable(failures.join("\n")));
    }

    // The layout that blew up at frame 8 (scattered obstacles, sealed pockets, force strokes).
    void reproSceneRunsItsRange()
    {
        const SceneReadResult r = readSceneFile(
            QStringLiteral(PLUME_SOURCE_DIR "/tests/sim_robustness/pressure-blowup.plume"));
        QVERIFY2(r.ok, r.error.c_str());
        RunTotals totals;
        const auto start = std::chrono::steady_clock::now();
        const QString failure = runScene(r.scene, totals);
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now()
                                                                    - start)
                              .count();
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        QCOMPARE(totals.frames, r.scene.simulation.frameEnd - r.scene.simulation.frameStart + 1);
        qInfo("repro: %d frames, %.1f iterations per solve (worst frame %d per solve), %d "
              "fallbacks, %.1f ms per frame",
              totals.frames, double(totals.iterations) / std::max(1, totals.solves),
              totals.worstIterations, totals.fallbacks, ms / totals.frames);
    }
};

QTEST_GUILESS_MAIN(TestSimRobustness)
#include "tst_sim_robustness.moc"
