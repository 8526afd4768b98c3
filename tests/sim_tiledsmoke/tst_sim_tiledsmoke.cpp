// SPDX-License-Identifier: Apache-2.0
// The smoke scheme over active tiles (core/sim/smoke/tiledsmoke.h), first stage: the tiles
// follow the smoke, the emitters and moving obstacles, the composite projection stands in for
// the dense one, and results are deterministic and resume from checkpoints exactly.
#include <core/sim/run/checkpoint.h>
#include <core/sim/run/simulation.h>
#include <core/sim/smoke/tiledsmoke.h>

#include <oneapi/tbb/global_control.h>

#include <tests/common/instrumented.h>

#include <QtTest>

#include <cmath>

using namespace plume::sim;

namespace {

Domain room(int n, bool threeD)
{
    Domain d;
    d.cells = {n, n, threeD ? n : 1};
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

std::unique_ptr<Simulation> risingPlume(int n, bool threeD, bool tiles)
{
    const Domain d = room(n, threeD);
    SimParams p;
    p.buoyancyTemperature = 1.5f;
    p.buoyancyDensity = 0.05f;
    p.temperatureDissipation = 0.3f;
    p.vorticity = 0.2f;
    p.activeTiles = tiles;
    TimeSettings t;
    t.substeps = 2;
    auto made = Simulation::create(d, p, t);
    if (!made)
        qFatal("%s", made.error().c_str());
    std::unique_ptr<Simulation> sim = made.take();
    Emitter e;
    e.mask = ball(d, {0.5f, 0.12f, 0.5f}, 0.08f);
    e.density = 3.f;
    e.temperature = 6.f;
    e.velocityMode = EmitterVelocity::Force;
    e.velocity = {0.f, 2.f, 0.f};
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

ScalarGrid field(const Simulation &sim, FieldKind kind)
{
    ScalarGrid g;
    sim.solver().sample(kind, g);
    return g;
}

double relativeL1(const ScalarGrid &a, const ScalarGrid &b)
{
    double diff = 0, total = 0;
    for (std::size_t n = 0; n < a.count(); ++n) {
        diff += std::abs(double(a[n]) - double(b[n]));
        total += std::abs(double(a[n]));
    }
    return total > 0 ? diff / total : 0;
}

const TiledSmokeSolver &tiled(const Simulation &sim)
{
    return dynamic_cast<const TiledSmokeSolver &>(sim.solver());
}

} // namespace

class TestSimTiledSmoke : public QObject
{
    Q_OBJECT

private slots:
    // The setting makes the tiled solver where the domain splits into whole tiles, and a dense
    // one elsewhere; it cannot be switched on a running solver.
    void madeWhereTheDomainFits()
    {
        auto sim = risingPlume(32, true, true);
        QVERIFY(dynamic_cast<const TiledSmokeSolver *>(&sim->solver()));
        SimParams p = sim->solver().params();
        p.activeTiles = false;
        QVERIFY(!sim->solver().setParams(p));
        Domain odd = room(30, true);
        SimParams q;
        q.activeTiles = true;
        auto dense = Simulation::create(odd, q, TimeSettings{});
        QVERIFY(dense);
        QVERIFY(!dynamic_cast<const TiledSmokeSolver *>(&dense->solver()));
    }

    // The active tiles hold the smoke and the emitter, and leave the empty room out.
    void tilesFollowTheSmoke()
    {
        auto sim = risingPlume(64, true, true);
        advance(*sim, 1);
        const ActiveTiles &tiles = tiled(*sim).tiles();
        const TileGrid &grid = tiles.grid();
        // The emitter's tiles (around x = z = 32, y = 8) are active.
        QVERIFY(tiles.active(grid.index({4, 0, 4})));
        QVERIFY(tiles.active(grid.index({3, 1, 3})));
        const double early = tiles.share();
        QVERIFY2(early < 0.6, qPrintable(QString("share %1").arg(early)));
        advance(*sim, plume::test::fullOrUnderTsan(11, 4)); // fewer under ThreadSanitizer
        // Every cell holding smoke lies in an active tile.
        const ScalarGrid d = field(*sim, FieldKind::Density);
        for (std::size_t c = 0; c < d.count(); ++c) {
            if (d[c] <= TiledSmokeSolver::kThreshold)
                continue;
            const Int3 p = cellOf(c, d.size());
            QVERIFY(tiled(*sim).tiles().active(grid.index({p.x / 8, p.y / 8, p.z / 8})));
        }
        // The room's far corners stay inactive.
        QVERIFY(!tiled(*sim).tiles().active(grid.index({0, 0, 0})));
        QVERIFY(!tiled(*sim).tiles().active(grid.index({7, 0, 7})));
    }

    // A moving obstacle's tiles are active wherever it is, smoke or not; a resting one's are
    // not.
    void tilesFollowMovingObstacles()
    {
        for (const bool moving : {false, true}) {
            auto sim = risingPlume(64, true, true);
            const Domain d = sim->solver().domain();
            FlagGrid solids(d.cells);
            ObstacleMotion motion;
            if (moving)
                for (int a = 0; a < 3; ++a)
                    motion.velocity[a].reshape(d.cells, kCellCentre, 0.f);
            for (int k = 50; k < 56; ++k) // a block in the far corner, moving along x
                for (int j = 50; j < 56; ++j)
                    for (int i = 2; i < 8; ++i) {
                        solids.setSolid(i, j, k, true);
                        if (moving)
                            motion.velocity[0](i, j, k) = 0.5f;
                    }
            QVERIFY(sim->solver().setObstacles(solids, motion));
            advance(*sim, 1);
            const TileGrid &grid = tiled(*sim).tiles().grid();
            QCOMPARE(tiled(*sim).tiles().active(grid.index({0, 6, 6})), moving);
        }
    }

    // The stirred flow (vorticity above a share of the largest) widens the tiles beyond the
    // smoke; with the share 0 the smoke alone makes them, and they still hold all of it.
    // (With the default share, the plume's stirred flow lies inside the smoke's padding over
    // the first frames at 64^3: the shares differ only later, as docs/adaptive.md measures.)
    void stirredFlowWidensTheTiles()
    {
        auto withFlow = risingPlume(64, true, true);
        auto smokeOnly = risingPlume(64, true, true);
        // A share of 1e-6 takes in all the flow the plume has set moving, most of the room.
        dynamic_cast<TiledSmokeSolver &>(withFlow->solver()).setVorticityShare(1e-6);
        auto &narrow = dynamic_cast<TiledSmokeSolver &>(smokeOnly->solver());
        QCOMPARE(narrow.vorticityShare(), TiledSmokeSolver::kVorticityShare);
        narrow.setVorticityShare(2.0); // outside [0, 1]: ignored
        QCOMPARE(narrow.vorticityShare(), TiledSmokeSolver::kVorticityShare);
        narrow.setVorticityShare(0.0);
        QCOMPARE(narrow.vorticityShare(), 0.0);
        const int frames = plume::test::fullOrUnderTsan(10, 3); // fewer under ThreadSanitizer
        advance(*withFlow, frames);
        advance(*smokeOnly, frames);
        const double wide = tiled(*withFlow).tiles().share();
        const double tight = tiled(*smokeOnly).tiles().share();
        qInfo("tiles: %.1f %% with the stirred flow, %.1f %% with smoke alone", 100 * wide,
              100 * tight);
        QVERIFY2(tight < wide, qPrintable(QString("%1 vs %2").arg(tight).arg(wide)));
        const ScalarGrid d = field(*smokeOnly, FieldKind::Density);
        const TileGrid &grid = narrow.tiles().grid();
        for (std::size_t c = 0; c < d.count(); ++c) {
            const Int3 p = cellOf(c, d.size());
            if (d[c] > TiledSmokeSolver::kThreshold)
                QVERIFY(narrow.tiles().active(grid.index({p.x / 8, p.y / 8, p.z / 8})));
        }
    }

    // A tile stays active for the lifetime after the smoke last needed it: each needed tile's
    // timer starts at the lifetime set (0: only the needed tiles are active), and a longer
    // lifetime keeps every tile a shorter one does, and more.
    void lifetimeSetsTheTimers()
    {
        auto kept = risingPlume(32, true, true);
        auto bare = risingPlume(32, true, true);
        auto &k = dynamic_cast<TiledSmokeSolver &>(kept->solver());
        auto &b = dynamic_cast<TiledSmokeSolver &>(bare->solver());
        QCOMPARE(b.lifetime(), TiledSmokeSolver::kLifetime);
        b.setLifetime(-1); // outside [0, 65535]: ignored
        QCOMPARE(b.lifetime(), TiledSmokeSolver::kLifetime);
        b.setLifetime(0);
        QCOMPARE(b.lifetime(), 0);
        k.setLifetime(64);
        advance(*kept, 2);
        advance(*bare, 2);
        const auto most = [](const TiledSmokeSolver &s) {
            const auto &t = s.tiles().timers();
            return int(*std::max_element(t.begin(), t.end()));
        };
        QCOMPARE(most(k), 64);
        QCOMPARE(most(b), 0);
        // The tiles the first steps' faster flow reached stay active with the lifetime.
        QVERIFY(b.tiles().list().size() > 0);
        QVERIFY(b.tiles().list().size() < k.tiles().list().size());
        for (std::uint32_t t : b.tiles().list())
            QVERIFY(k.tiles().active(t));
    }

    // With the tiles covering the whole room, the composite projection is the dense one: the
    // result is the dense solver's to the pressure tolerance. On a larger room the far field
    // is coarse, and the plume stays close to the dense one over the first frames.
    void closeToTheDenseSolve()
    {
        {
            auto dense = risingPlume(16, true, false);
            auto tiles = risingPlume(16, true, true);
            advance(*dense, 6);
            advance(*tiles, 6);
            QCOMPARE(tiled(*tiles).tiles().share(), 1.0);
            const double l1 = relativeL1(field(*dense, FieldKind::Density),
                                         field(*tiles, FieldKind::Density));
            QVERIFY2(l1 < 1e-3, qPrintable(QString("L1 %1").arg(l1)));
        }
        for (const bool threeD : {false, true}) {
            const int n = threeD ? 48 : 96;
            auto dense = risingPlume(n, threeD, false);
            auto tiles = risingPlume(n, threeD, true);
            const int frames = plume::test::fullOrUnderTsan(16, 6); // fewer under ThreadSanitizer
            advance(*dense, frames);
            advance(*tiles, frames);
            QVERIFY(tiled(*tiles).tiles().share() < 1.0);
            const double l1 = relativeL1(field(*dense, FieldKind::Density),
                                         field(*tiles, FieldKind::Density));
            qInfo("%s, %d frames: tiles %.1f %% of the room, density L1 %.3f %%",
                  threeD ? "3D" : "2D", frames, 100.0 * tiled(*tiles).tiles().share(), 100.0 * l1);
            QVERIFY2(l1 < 0.02, qPrintable(QString("L1 %1").arg(l1)));
        }
    }

    // The same bytes with one thread and with two.
    void threadCountIndependent()
    {
        auto run = [](int threads) {
            oneapi::tbb::global_control limit(oneapi::tbb::global_control::max_allowed_parallelism,
                                              std::size_t(threads));
            auto sim = risingPlume(32, true, true);
            advance(*sim, 8);
            return std::make_pair(field(*sim, FieldKind::Density),
                                  field(*sim, FieldKind::VelocityY));
        };
        const auto one = run(1), two = run(2);
        QVERIFY(one.first.identical(two.first));
        QVERIFY(one.second.identical(two.second));
    }

    // A checkpoint holds the tiles: simulating on from a restore gives the bytes of never
    // having stopped. A dense solver's checkpoint restores too (the tiles start over).
    void checkpointsRestoreTheTiles()
    {
        for (const bool threeD : {true, false}) {
            auto a = risingPlume(32, threeD, true);
            advance(*a, 8);
            std::vector<std::uint8_t> bytes;
            QVERIFY(Checkpoint::save(*a, 7, bytes));
            const std::vector<std::uint8_t> flags = tiled(*a).tiles().flags();
            advance(*a, 5);
            auto b = risingPlume(32, threeD, true);
            advance(*b, 2);
            const Status restored = Checkpoint::restore(*b, bytes, 7, CheckpointMatch::SameScene);
            QVERIFY2(restored, restored.error.c_str());
            QVERIFY(tiled(*b).tiles().flags() == flags);
            advance(*b, 5);
            QVERIFY(field(*a, FieldKind::Density).identical(field(*b, FieldKind::Density)));
            QVERIFY(field(*a, FieldKind::VelocityY).identical(field(*b, FieldKind::VelocityY)));
        }
        auto dense = risingPlume(32, true, false);
        advance(*dense, 6);
        std::vector<std::uint8_t> bytes;
        QVERIFY(Checkpoint::save(*dense, 7, bytes));
        auto c = risingPlume(32, true, true);
        QVERIFY(Checkpoint::restore(*c, bytes, 7, CheckpointMatch::SameScene));
        QVERIFY(field(*dense, FieldKind::Density).identical(field(*c, FieldKind::Density)));
        advance(*c, 2); // and runs on
    }
};

QTEST_GUILESS_MAIN(TestSimTiledSmoke)
#include "tst_sim_tiledsmoke.moc"
