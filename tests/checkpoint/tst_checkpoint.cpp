// SPDX-License-Identifier: Apache-2.0
// Solver checkpoints: simulating on from a restored checkpoint gives the bytes of never having
// stopped (both schemes, 2D and 3D, every feature on), checkpoints do not depend on the thread
// count, and damaged or mismatched ones are refused with a clear message, changing nothing.
#include <core/sim/run/checkpoint.h>

#include <oneapi/tbb/global_control.h>

#include <core/io/scenehash.h>
#include <core/scene/scenesimulation.h>

#include <tests/common/filesizelimit.h>

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <zlib.h>

#include <cstring>
#include <random>

using namespace plume;

namespace {

using Bytes = std::vector<std::uint8_t>;

/// A scene with every feature the scheme has: dye, fuel (combustion, smoke only), inflow and
/// force emitters, a keyframed moving obstacle, turbulence and an animated vortex, vorticity
/// confinement, viscosity, diffusion, dissipation, CFL substeps and an open top.
Scene featureScene(sim::Scheme scheme, bool threeD, int resolution, bool accounting = false)
{
    Scene s;
    s.name = "features";
    s.domain.dimension = threeD ? Dimension::ThreeD : Dimension::TwoD;
    s.domain.resolution = resolution;
    s.domain.boundaries[3] = sim::Boundary::Open;
    sim::SimParams &p = s.simulation.params;
    p.scheme = scheme;
    p.viscosity = 2e-4f;
    p.diffusion = 1e-4f;
    p.densityDissipation = 0.1f;
    p.temperatureDissipation = 0.3f;
    p.velocityDissipation = 0.05f;
    p.buoyancyDensity = 0.1f;
    p.buoyancyTemperature = 2.f;
    p.vorticity = 0.3f;
    p.advection = sim::AdvectionOrder::MacCormack;
    p.accountingDensity = accounting;
    p.stamIterations = 10;
    s.simulation.time.cfl = 0.5f;
    s.simulation.time.maxSubsteps = 4;
    s.simulation.frameStart = 1;
    s.simulation.frameEnd = 40;
    s.simulation.seed = 7;

    Item smoke;
    smoke.name = "smoke";
    smoke.shape.centre = {0.5f, 0.15f, 0.5f};
    smoke.shape.radius = 0.1f;
    smoke.emitter.density = 2.f;
    smoke.emitter.temperature = 3.f;
    smoke.emitter.dye = {1.f, 0.4f, 0.1f};
    smoke.emitter.velocityMode = sim::EmitterVelocity::Inflow;
    smoke.emitter.velocity = {0.f, 0.6f, 0.f};
    s.items.push_back(smoke);

    Item fuel;
    fuel.name = "fuel";
    fuel.shape.centre = {0.3f, 0.2f, 0.5f};
    fuel.shape.radius = 0.08f;
    fuel.emitter.density = 0.f;
    fuel.emitter.fuel = scheme == sim::Scheme::Smoke ? 4.f : 0.f;
    fuel.emitter.temperature = 1.f;
    fuel.emitter.velocityMode = sim::EmitterVelocity::Force;
    fuel.emitter.velocity = {0.5f, 2.f, 0.f};
    s.items.push_back(fuel);

    Item ball;
    ball.name = "ball";
    ball.kind = ItemKind::Obstacle;
    ball.shape.centre = {0.45f, 0.55f, 0.5f};
    ball.shape.radius = 0.1f;
    ball.offset.keys = {{1.0, {0.f, 0.f, 0.f}, {}}, {20.0, {0.25f, 0.1f, 0.f}, {}}};
    s.items.push_back(ball);

    Item turbulence;
    turbulence.name = "turbulence";
    turbulence.kind = ItemKind::ForceField;
    turbulence.shape.type = ShapeType::Everywhere;
    turbulence.force.type = sim::ForceType::Turbulence;
    turbulence.force.strength.value = 1.5f;
    turbulence.force.scale = 0.2f;
    s.items.push_back(turbulence);

    Item vortex;
    vortex.name = "vortex";
    vortex.kind = ItemKind::ForceField;
    vortex.shape.centre = {0.6f, 0.7f, 0.5f};
    vortex.shape.radius = 0.2f;
    vortex.force.type = sim::ForceType::Vortex;
    vortex.force.direction = {0.f, 0.f, 1.f};
    vortex.force.centre = {0.6f, 0.7f, 0.5f};
    vortex.force.strength.keys = {{1.0, 0.f, {}}, {12.0, 3.f, {}}};
    vortex.force.falloff = 0.05f;
    s.items.push_back(vortex);
    return s;
}

constexpr sim::FieldKind kAllFields[] = {
    sim::FieldKind::Density,   sim::FieldKind::Temperature,   sim::FieldKind::DyeRed,
    sim::FieldKind::DyeGreen,  sim::FieldKind::DyeBlue,       sim::FieldKind::VelocityX,
    sim::FieldKind::VelocityY, sim::FieldKind::VelocityZ,     sim::FieldKind::Speed,
    sim::FieldKind::Pressure,  sim::FieldKind::Divergence,    sim::FieldKind::Vorticity,
    sim::FieldKind::Solid,     sim::FieldKind::Fuel,          sim::FieldKind::Flame,
    sim::FieldKind::Height,    sim::FieldKind::DisplacementX, sim::FieldKind::DisplacementY,
    sim::FieldKind::NormalX,   sim::FieldKind::NormalY,       sim::FieldKind::NormalZ,
    sim::FieldKind::Foam};

/// Every field the solver can hand out, as bytes.
QByteArray fieldBytes(const SceneSimulation &s)
{
    QByteArray out;
    sim::ScalarGrid g;
    for (sim::FieldKind kind : kAllFields) {
        s.solver().sample(kind, g);
        out.append(reinterpret_cast<const char *>(g.data()), qsizetype(g.count() * sizeof(float)));
    }
    return out;
}

void advance(SceneSimulation &s, int from, int to)
{
    for (int f = from; f <= to; ++f) {
        const sim::FrameStats stats = s.advance(f);
        if (!stats.status)
            qFatal("%s", stats.status.error.c_str());
    }
}

double sum(const SceneSimulation &s, sim::FieldKind kind)
{
    sim::ScalarGrid g;
    s.solver().sample(kind, g);
    double total = 0.0;
    for (std::size_t n = 0; n < g.count(); ++n)
        total += g[n];
    return total;
}

std::span<const std::uint8_t> span(const QByteArray &b)
{
    return {reinterpret_cast<const std::uint8_t *>(b.data()), std::size_t(b.size())};
}

} // namespace

class TestCheckpoint : public QObject
{
    Q_OBJECT

private slots:
    void resumesExactly_data()
    {
        QTest::addColumn<int>("scheme");
        QTest::addColumn<bool>("threeD");
        QTest::addColumn<int>("resolution");
        QTest::addColumn<bool>("accounting");
        QTest::addColumn<bool>("fixed");
        const int smoke = int(sim::Scheme::Smoke), stam = int(sim::Scheme::Stam);
        QTest::newRow("smoke 2D") << smoke << false << 48 << false << false;
        QTest::newRow("smoke 2D accounting") << smoke << false << 48 << true << false;
        QTest::newRow("smoke 3D") << smoke << true << 20 << false << false;
        QTest::newRow("stam 2D") << stam << false << 48 << false << false;
        QTest::newRow("stam 3D") << stam << true << 20 << false << false;
        QTest::newRow("stam 2D fixed point") << stam << false << 48 << false << true;
        QTest::newRow("stam 3D fixed point") << stam << true << 20 << false << true;
    }

    // Simulate N frames, checkpoint, simulate M more: the same bytes as restoring the
    // checkpoint into a fresh simulation of the same scene and simulating those M frames.
    void resumesExactly()
    {
        QFETCH(int, scheme);
        QFETCH(bool, threeD);
        QFETCH(int, resolution);
        QFETCH(bool, accounting);
        QFETCH(bool, fixed);
        Scene scene = featureScene(sim::Scheme(scheme), threeD, resolution, accounting);
        if (fixed)
            scene.simulation.params.stamNumeric = sim::StamNumeric::Fixed;
        const std::uint64_t hash = sceneHash(scene);
        constexpr int N = 8, M = 7;

        SceneSimulation a;
        QVERIFY(a.setScene(scene));
        advance(a, 1, N);
        Bytes checkpoint;
        QVERIFY(a.saveCheckpoint(hash, checkpoint));
        advance(a, N + 1, N + M);

        SceneSimulation b;
        QVERIFY(b.setScene(scene));
        const sim::Status st = b.restoreCheckpoint(checkpoint, hash);
        QVERIFY2(st, st.error.c_str());
        QCOMPARE(b.simulation().frame(), N);
        Bytes again;
        QVERIFY(b.saveCheckpoint(hash, again));
        QVERIFY(again == checkpoint); // restore then save gives the same bytes
        advance(b, N + 1, N + M);

        QCOMPARE(b.simulation().frame(), a.simulation().frame());
        QCOMPARE(b.simulation().stepsTaken(), a.simulation().stepsTaken());
        QVERIFY(fieldBytes(a) == fieldBytes(b));
        Bytes endA, endB;
        QVERIFY(a.saveCheckpoint(hash, endA));
        QVERIFY(b.saveCheckpoint(hash, endB));
        QVERIFY(endA == endB);

        // The run did what the test is about: smoke, dye, substeps, and fire in the smoke scheme.
        QVERIFY(sum(a, sim::FieldKind::Density) > 0.0);
        QVERIFY(sum(a, sim::FieldKind::DyeRed) > 0.0);
        QVERIFY(a.solver().hasDye());
        QVERIFY(a.simulation().stepsTaken() > N + M); // the CFL condition asked for substeps
        if (sim::Scheme(scheme) == sim::Scheme::Smoke) {
            QVERIFY(a.solver().hasCombustion());
            QVERIFY(sum(a, sim::FieldKind::Flame) > 0.0);
        }
        if (!fixed)
            return;
        // A fixed-point checkpoint holds int32 grids: a float stam simulation refuses it.
        Scene floatScene = scene;
        floatScene.simulation.params.stamNumeric = sim::StamNumeric::Float;
        SceneSimulation c;
        QVERIFY(c.setScene(floatScene));
        const sim::Status refused = c.restoreCheckpoint(checkpoint, hash);
        QVERIFY(!refused);
        QVERIFY2(refused.error.find("of another kind") != std::string::npos, refused.error.c_str());
    }

    // The obstacle moves between the checkpoint and the frames after it, and the solids in the
    // checkpoint are the ones of its frame: a restore must not clear or keep the wrong cells.
    void movingObstacleAcrossTheCheckpoint()
    {
        const Scene scene = featureScene(sim::Scheme::Smoke, false, 48);
        const std::uint64_t hash = sceneHash(scene);
        SceneSimulation a;
        QVERIFY(a.setScene(scene));
        advance(a, 1, 5);
        const QByteArray solidsAt5 = [&] {
            sim::ScalarGrid g;
            a.solver().sample(sim::FieldKind::Solid, g);
            return QByteArray(reinterpret_cast<const char *>(g.data()), qsizetype(g.count() * 4));
        }();
        Bytes checkpoint;
        QVERIFY(a.saveCheckpoint(hash, checkpoint));
        advance(a, 6, 6);
        sim::ScalarGrid g;
        a.solver().sample(sim::FieldKind::Solid, g);
        QVERIFY(QByteArray(reinterpret_cast<const char *>(g.data()), qsizetype(g.count() * 4))
                != solidsAt5);
        SceneSimulation b;
        QVERIFY(b.setScene(scene));
        QVERIFY(b.restoreCheckpoint(checkpoint, hash));
        advance(b, 6, 6);
        QVERIFY(fieldBytes(a) == fieldBytes(b));
    }

    // Restoring into a simulation that ran ahead (the app going back to a cached frame): the
    // solids are the same, so what derives from them is kept; the result is still exact.
    // The ocean's state is its time: a checkpoint restores it exactly (with substeps, into a
    // fresh simulation and into one that ran past it), and the surface moved in between.
    void oceanResumesExactly()
    {
        Scene scene;
        scene.domain.size = {40.f, 40.f, 1.f};
        scene.domain.resolution = 32;
        scene.domain.boundaries = sim::allBoundaries(sim::Boundary::Periodic);
        scene.simulation.params.scheme = sim::Scheme::Ocean;
        scene.simulation.params.ocean.loopPeriod = 3.7f;
        scene.simulation.time.substeps = 3;
        const std::uint64_t hash = sceneHash(scene);
        SceneSimulation a;
        QVERIFY(a.setScene(scene));
        advance(a, 1, 5);
        const QByteArray atCheckpoint = fieldBytes(a);
        Bytes checkpoint;
        QVERIFY(a.saveCheckpoint(hash, checkpoint));
        advance(a, 6, 9);
        QVERIFY(fieldBytes(a) != atCheckpoint);
        for (int ranBefore : {0, 12}) {
            SceneSimulation b;
            QVERIFY(b.setScene(scene));
            advance(b, 1, ranBefore);
            const sim::Status st = b.restoreCheckpoint(checkpoint, hash);
            QVERIFY2(st, st.error.c_str());
            QVERIFY(fieldBytes(b) == atCheckpoint);
            advance(b, 6, 9);
            QVERIFY(fieldBytes(b) == fieldBytes(a));
        }
    }

    // The sph scheme's particles are no grid: they go into the checkpoint as rows of floats
    // (StateField::anyLength) whose length the file sets. A block filled at frame 1 and a hose
    // pouring round an obstacle resume to the same bytes, into a fresh simulation (whose fill
    // must not run again) and into one that ran ahead with other particle counts.
    void sphResumesExactly()
    {
        Scene scene;
        scene.domain.size = {1.f, 1.f, 1.f};
        scene.domain.resolution = 24;
        scene.simulation.params.scheme = sim::Scheme::Sph;
        scene.simulation.frameEnd = 20;
        Item block;
        block.name = "block";
        block.shape.type = ShapeType::Box;
        block.shape.centre = {0.2f, 0.3f, 0.5f};
        block.shape.halfSize = {0.15f, 0.25f, 0.1f};
        block.emitter.liquid = sim::LiquidMode::Fill;
        scene.items.push_back(block);
        Item hose;
        hose.name = "hose";
        hose.shape.centre = {0.7f, 0.85f, 0.5f};
        hose.shape.radius = 0.06f;
        hose.emitter.liquid = sim::LiquidMode::Emit;
        hose.emitter.rate.value = 6.f;
        hose.emitter.velocityMode = sim::EmitterVelocity::Inflow;
        hose.emitter.velocity = {0.f, -1.f, 0.f};
        scene.items.push_back(hose);
        Item rock;
        rock.name = "rock";
        rock.kind = ItemKind::Obstacle;
        rock.shape.centre = {0.7f, 0.3f, 0.5f};
        rock.shape.radius = 0.1f;
        scene.items.push_back(rock);
        const std::uint64_t hash = sceneHash(scene);
        auto particleBytes = [](const SceneSimulation &s) {
            const sim::ParticleSet &p = *s.solver().particles();
            return QByteArray(reinterpret_cast<const char *>(p.position.data()),
                              qsizetype(p.size() * sizeof(sim::Vec3)))
                   + QByteArray(reinterpret_cast<const char *>(p.velocity.data()),
                                qsizetype(p.size() * sizeof(sim::Vec3)));
        };
        SceneSimulation a;
        QVERIFY(a.setScene(scene));
        advance(a, 1, 4);
        const std::size_t atCheckpoint = a.solver().particles()->size();
        QVERIFY(atCheckpoint > 300);
        Bytes checkpoint;
        QVERIFY(a.saveCheckpoint(hash, checkpoint));
        advance(a, 5, 8);
        QVERIFY(a.solver().particles()->size() > atCheckpoint); // the hose poured on
        for (int ranBefore : {0, 10}) {
            SceneSimulation b;
            QVERIFY(b.setScene(scene));
            advance(b, 1, ranBefore);
            const sim::Status st = b.restoreCheckpoint(checkpoint, hash);
            QVERIFY2(st, st.error.c_str());
            QCOMPARE(b.solver().particles()->size(), atCheckpoint);
            advance(b, 5, 8);
            QVERIFY(particleBytes(b) == particleBytes(a));
            QVERIFY(fieldBytes(b) == fieldBytes(a));
        }
    }

    void restoreIntoARunningSimulation_data()
    {
        QTest::addColumn<int>("scheme");
        QTest::newRow("smoke") << int(sim::Scheme::Smoke);
        QTest::newRow("stam") << int(sim::Scheme::Stam);
    }

    void restoreIntoARunningSimulation()
    {
        QFETCH(int, scheme);
        Scene scene = featureScene(sim::Scheme(scheme), true, 16);
        scene.items[2].offset.keys.clear(); // a still obstacle
        const std::uint64_t hash = sceneHash(scene);
        SceneSimulation a;
        QVERIFY(a.setScene(scene));
        advance(a, 1, 4);
        Bytes checkpoint;
        QVERIFY(a.saveCheckpoint(hash, checkpoint));
        advance(a, 5, 8);
        SceneSimulation c;
        QVERIFY(c.setScene(scene));
        advance(c, 1, 10);
        QVERIFY(c.restoreCheckpoint(checkpoint, hash));
        advance(c, 5, 8);
        QVERIFY(fieldBytes(a) == fieldBytes(c));
    }

    // Checkpoints hold the same bytes whatever the thread count.
    void independentOfThreads()
    {
        const Scene scene = featureScene(sim::Scheme::Smoke, true, 20);
        auto take = [&](int threads) {
            oneapi::tbb::global_control limit(oneapi::tbb::global_control::max_allowed_parallelism,
                                              std::size_t(threads));
            SceneSimulation s;
            if (!s.setScene(scene))
                qFatal("scene refused");
            advance(s, 1, 4);
            Bytes out;
            if (!s.saveCheckpoint(sceneHash(scene), out))
                qFatal("save failed");
            return out;
        };
        QVERIFY(take(1) == take(2));
    }

    void describesItself()
    {
        const Scene scene = featureScene(sim::Scheme::Smoke, false, 32);
        SceneSimulation s;
        QVERIFY(s.setScene(scene));
        advance(s, 1, 3);
        Bytes bytes;
        QVERIFY(s.saveCheckpoint(42, bytes));
        sim::CheckpointInfo info;
        QVERIFY(sim::Checkpoint::read(bytes, info));
        QCOMPARE(info.version, sim::Checkpoint::kVersion);
        QCOMPARE(info.sceneHash, std::uint64_t(42));
        QCOMPARE(info.scheme, sim::Scheme::Smoke);
        QCOMPARE(info.domain.cells, s.solver().domain().cells);
        QCOMPARE(info.frame, 3);
        QCOMPARE(info.steps, s.simulation().stepsTaken());
        QVERIFY(info.time == scene.simulation.time);
        QVERIFY(std::any_of(info.fields.begin(), info.fields.end(), [](const auto &f) {
            return f.name == "flame" && f.rawBytes == 32 * 32 * 4 && f.storedBytes > 0;
        }));
        QVERIFY(bytes.size() < info.stateBytes); // compressed
    }

    void refusesDamagedOrMismatched_data()
    {
        QTest::addColumn<QString>("damage");
        QTest::addColumn<QString>("message");
        QTest::newRow("flipped byte") << "flip"
                                      << "the checkpoint is damaged: checksum";
        QTest::newRow("truncated") << "truncate"
                                   << "the checkpoint is truncated: ";
        QTest::newRow("extra bytes") << "append"
                                     << "the checkpoint is damaged: 3 bytes follow";
        QTest::newRow("not a checkpoint") << "magic"
                                          << "not a Plume checkpoint";
        QTest::newRow("newer format") << "version"
                                      << "the checkpoint has format version 2; this "
                                         "Plume reads version 1";
        QTest::newRow("other scene") << "hash"
                                     << "the checkpoint belongs to another scene";
        QTest::newRow("other domain") << "domain"
                                      << "the checkpoint is for a domain of 32 x 32 x "
                                         "1 cells; this simulation has 40 x 40 x 1";
        QTest::newRow("other scheme") << "scheme"
                                      << "the checkpoint is for the scheme smoke; "
                                         "this simulation has stam";
        QTest::newRow("empty") << "empty"
                               << "not a Plume checkpoint";
    }

    // A damaged or mismatched checkpoint is refused with the reason and changes nothing.
    void refusesDamagedOrMismatched()
    {
        QFETCH(QString, damage);
        QFETCH(QString, message);
        Scene scene = featureScene(sim::Scheme::Smoke, false, 32);
        SceneSimulation source;
        QVERIFY(source.setScene(scene));
        advance(source, 1, 4);
        Bytes bytes;
        QVERIFY(source.saveCheckpoint(sceneHash(scene), bytes));

        std::uint64_t hash = sceneHash(scene);
        if (damage == "flip")
            bytes[bytes.size() / 2] ^= 0x10;
        else if (damage == "truncate")
            bytes.resize(bytes.size() - 100);
        else if (damage == "append")
            bytes.insert(bytes.end(), {1, 2, 3});
        else if (damage == "magic")
            bytes[0] = 'X';
        else if (damage == "version")
            bytes[8] = 2;
        else if (damage == "hash")
            hash ^= 1;
        else if (damage == "domain")
            scene.domain.resolution = 40;
        else if (damage == "scheme")
            scene.simulation.params.scheme = sim::Scheme::Stam;
        else if (damage == "empty")
            bytes.clear();

        SceneSimulation target;
        QVERIFY(target.setScene(scene));
        advance(target, 1, 2);
        const QByteArray before = fieldBytes(target);
        const sim::Status st = target.restoreCheckpoint(bytes, hash);
        QVERIFY(!st);
        QVERIFY2(QString::fromStdString(st.error).startsWith(message), st.error.c_str());
        QCOMPARE(target.simulation().frame(), 2);
        QVERIFY(fieldBytes(target) == before);
        sim::CheckpointInfo info;
        if (damage != "hash" && damage != "domain" && damage != "scheme")
            QVERIFY(!sim::Checkpoint::read(bytes, info));
    }

    // Damage that keeps the checksum right (a crafted file): bytes of the header and of the
    // field table set at random, the CRC recomputed. Every restore either succeeds or is
    // refused with nothing changed; none crashes (the sanitizer run checks the reads).
    void craftedDataNeverCrashes()
    {
        const Scene scene = featureScene(sim::Scheme::Smoke, false, 24);
        const std::uint64_t hash = sceneHash(scene);
        SceneSimulation source;
        QVERIFY(source.setScene(scene));
        advance(source, 1, 3);
        Bytes original;
        QVERIFY(source.saveCheckpoint(hash, original));
        SceneSimulation target;
        QVERIFY(target.setScene(scene));
        advance(target, 1, 2);
        const QByteArray before = fieldBytes(target);
        std::mt19937 random(12345);
        int refused = 0;
        for (int trial = 0; trial < 400; ++trial) {
            Bytes bytes = original;
            const std::size_t at = 24 + random() % 400; // header and the first field entries
            bytes[at] = std::uint8_t(random());
            const auto crc = std::uint32_t(crc32_z(0, bytes.data() + 16, bytes.size() - 16));
            std::memcpy(bytes.data() + 12, &crc, sizeof crc);
            const sim::Status st = target.restoreCheckpoint(bytes, hash);
            if (!st) {
                ++refused;
                QCOMPARE(target.simulation().frame(), 2);
                QVERIFY2(fieldBytes(target) == before, st.error.c_str());
            } else { // a harmless byte (e.g. in a number that is only reported): start over
                QVERIFY(target.setScene(scene));
                advance(target, 1, 2);
            }
        }
        QVERIFY(refused > 100);
    }

    // An edited scene: SameScene refuses the checkpoint of its earlier version, SameGrid takes
    // it (the app's cache), and the result is the old state simulated on with the new scene.
    void sameGridAcceptsAnEditedScene()
    {
        const Scene before = featureScene(sim::Scheme::Smoke, false, 32);
        Scene after = before;
        after.simulation.params.vorticity = 0.6f;
        QVERIFY(sceneHash(before) != sceneHash(after));
        SceneSimulation s;
        QVERIFY(s.setScene(before));
        advance(s, 1, 4);
        Bytes bytes;
        QVERIFY(s.saveCheckpoint(sceneHash(before), bytes));

        SceneSimulation edited;
        QVERIFY(edited.setScene(after));
        const sim::Status refused = edited.restoreCheckpoint(bytes, sceneHash(after));
        QVERIFY(QString::fromStdString(refused.error).contains("another scene"));
        QVERIFY(edited.restoreCheckpoint(bytes, sceneHash(after), sim::CheckpointMatch::SameGrid));
        advance(edited, 5, 6);

        QVERIFY(s.changeScene(after));
        advance(s, 5, 6);
        QVERIFY(fieldBytes(s) == fieldBytes(edited));
    }

    void files()
    {
        QTemporaryDir dir;
        const Scene scene = featureScene(sim::Scheme::Stam, false, 32);
        SceneSimulation s;
        QVERIFY(s.setScene(scene));
        advance(s, 1, 3);
        const QString path = dir.filePath("state.plumeckpt");
        QVERIFY(s.saveCheckpointFile(path, sceneHash(scene)));
        QVERIFY(QFile::exists(path));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 1); // no temporary left over

        SceneSimulation t;
        QVERIFY(t.setScene(scene));
        QVERIFY(t.restoreCheckpointFile(path, sceneHash(scene)));
        QVERIFY(fieldBytes(s) == fieldBytes(t));

        const QString missing = dir.filePath("missing.plumeckpt");
        const sim::Status st = t.restoreCheckpointFile(missing, sceneHash(scene));
        QVERIFY(QString::fromStdString(st.error).startsWith(missing + ": cannot read"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadWrite));
        file.seek(200);
        file.write("garbage");
        file.close();
        const sim::Status damaged = t.restoreCheckpointFile(path, sceneHash(scene));
        QVERIFY2(
            QString::fromStdString(damaged.error).startsWith(path + ": the checkpoint is damaged"),
            damaged.error.c_str());
        const sim::Status unwritable = s.saveCheckpointFile(dir.filePath("no/such/dir/x"), 1);
        QVERIFY(QString::fromStdString(unwritable.error).contains("cannot write the checkpoint"));
    }

    // A save removes the temporaries that a save killed before its rename left in the folder
    // (its own, by their name: the target's name, ".tmp-" and six letters or digits) and
    // nothing else; a save that fails on a full disk names the file and the system's reason,
    // keeps the previous checkpoint and leaves no temporary.
    void staleTemporariesAndFullDisk()
    {
        QTemporaryDir dir;
        const Scene scene = featureScene(sim::Scheme::Smoke, false, 24);
        SceneSimulation s;
        QVERIFY(s.setScene(scene));
        advance(s, 1, 2);
        const QString path = dir.filePath("checkpoint.plumeckpt");
        auto plant = [&](const QString &name) {
            QFile f(dir.filePath(name));
            return f.open(QIODevice::WriteOnly) && f.write("PLUMECKP half-written") > 0;
        };
        QVERIFY(plant("checkpoint.plumeckpt.tmp-Ab12Cd")); // a killed save's
        QVERIFY(plant("checkpoint.plumeckpt.tmp-zzzzzz")); // another killed save's
        const QStringList others{"checkpoint.plumeckpt.backup", "checkpoint.plumeckpt.tmp-abc",
                                 "checkpoint.plumeckpt.tmp-Ab12Cd7", "other.plumeckpt.tmp-Ab12Cd",
                                 "notes.txt"};
        for (const QString &name : others)
            QVERIFY(plant(name));
        QVERIFY(QDir(dir.path()).mkdir("checkpoint.plumeckpt.tmp-Zz99Zz")); // not a file
        QVERIFY(s.saveCheckpointFile(path, sceneHash(scene)));
        QStringList expected = others;
        expected << "checkpoint.plumeckpt"
                 << "checkpoint.plumeckpt.tmp-Zz99Zz";
        expected.sort();
        const auto all = QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot;
        QCOMPARE(QDir(dir.path()).entryList(all, QDir::Name), expected);
        for (const QString &name : others) {
            QFile f(dir.filePath(name));
            QVERIFY(f.open(QIODevice::ReadOnly));
            QCOMPARE(f.readAll(), QByteArray("PLUMECKP half-written"));
        }

        QFile saved(path);
        QVERIFY(saved.open(QIODevice::ReadOnly));
        const QByteArray before = saved.readAll();
        saved.close();
        advance(s, 3, 3);
        sim::Status full;
        {
            test::FileSizeLimit limit(before.size() / 2);
            QVERIFY(limit.active());
            full = s.saveCheckpointFile(path, sceneHash(scene));
        }
        // "<path>: cannot write the checkpoint: File too large"
        QVERIFY(!full.ok());
        QVERIFY2(full.error
                     == path.toStdString()
                            + ": cannot write the checkpoint: " + test::FileSizeLimit::reason(),
                 full.error.c_str());
        QVERIFY(saved.open(QIODevice::ReadOnly));
        QCOMPARE(saved.readAll(), before);
        QCOMPARE(QDir(dir.path()).entryList(all, QDir::Name), expected);
    }

    // What changes results changes the hash; names, export looks and the last frame do not.
    void sceneHashCoversSimulation()
    {
        const Scene base = featureScene(sim::Scheme::Smoke, false, 32);
        const std::uint64_t h = sceneHash(base);
        QCOMPARE(sceneHash(base), h);
        Scene s = base;
        s.name = "renamed";
        s.simulation.frameEnd = 200;
        s.exports.render.width = 320;
        s.exports.flipbook.enabled = true;
        QCOMPARE(sceneHash(s), h);
        auto changes = [&](auto &&edit) {
            Scene e = base;
            edit(e);
            return sceneHash(e) != h;
        };
        QVERIFY(changes([](Scene &e) { e.simulation.params.vorticity = 0.31f; }));
        QVERIFY(changes([](Scene &e) { e.simulation.seed = 8; }));
        QVERIFY(changes([](Scene &e) { e.simulation.frameStart = 2; }));
        QVERIFY(changes([](Scene &e) { e.simulation.time.frameRate = 30.f; }));
        QVERIFY(changes([](Scene &e) { e.domain.resolution = 33; }));
        QVERIFY(changes([](Scene &e) { e.items[2].offset.keys[1].frame = 21.0; }));
        QVERIFY(changes([](Scene &e) { e.items[3].name = "turbulence 2"; })); // seeds the noise
    }
};

QTEST_GUILESS_MAIN(TestCheckpoint)
#include "tst_checkpoint.moc"
