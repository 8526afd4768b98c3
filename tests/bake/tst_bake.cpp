// SPDX-License-Identifier: Apache-2.0
// Baking a scene to OpenVDB: the files hold the simulation's fields at the same cells, with
// metadata, are deterministic across runs and thread counts, and never appear half-written.
// OpenVDB and oneTBB come before any Qt header: Qt's `emit` macro breaks oneTBB's headers.
#include <openvdb/math/Half.h>
#include <openvdb/openvdb.h>

#include <core/sim/base/parallel.h>
#include <core/sim/run/simulation.h>

#include <oneapi/tbb/task_arena.h>

#include <core/bake/baker.h>
#include <core/bake/bakerecord.h>
#include <core/io/scenereader.h>
#include <core/scene/rasterize.h>
#include <tests/common/examplescene.h>

#include <QDir>
#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

using namespace plume;

namespace {

using test::loadExample;

QByteArray readAll(const std::filesystem::path &p)
{
    QFile f(QString::fromStdString(p.string()));
    f.open(QIODevice::ReadOnly);
    return f.readAll();
}

/// The solver state after simulating the scene's frames up to `frame`, as the bake does.
std::unique_ptr<sim::Simulation> simulateTo(const Scene &scene, int frame)
{
    SceneRasterizer r;
    if (!r.setScene(scene))
        qFatal("scene refused");
    auto s = sim::Simulation::create(r.setup().domain, r.setup().params, r.setup().time);
    if (!s)
        qFatal("%s", s.error().c_str());
    for (int f = scene.simulation.frameStart; f <= frame; ++f) {
        r.update(f);
        s->solver().setObstacles(r.setup().solids);
        s->solver().setEmitters(r.setup().emitters);
        s->solver().setForceFields(r.setup().forces);
        s->advanceFrame();
    }
    return s.take();
}

/// Settings that bake frame frameStart + 2 of `scene` as VDB files "p.NNNN.vdb" into `folder`.
BakeSettings thirdFrameInto(const Scene &scene, const QString &folder)
{
    BakeSettings settings;
    settings.baseName = "p";
    settings.firstFrame = settings.lastFrame = scene.simulation.frameStart + 2;
    settings.outputDirectory = folder.toStdString();
    return settings;
}

} // namespace

class TestBake : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { openvdb::initialize(); }

    void valuesMatchSimulation_data()
    {
        QTest::addColumn<QString>("scene");
        QTest::addColumn<int>("resolution");
        QTest::newRow("2D with dye") << "logo-2d" << 64;
        QTest::newRow("3D") << "plume-3d" << 24;
    }

    // Every voxel of density, temperature, vel and Cd equals the solver's field at that cell.
    void valuesMatchSimulation()
    {
        QFETCH(QString, scene);
        QFETCH(int, resolution);
        const Scene s = loadExample(qPrintable(scene), resolution, 4);
        QTemporaryDir dir;
        BakeSettings settings;
        settings.outputDirectory = dir.path().toStdString();
        settings.baseName = scene.toStdString();
        settings.firstFrame = s.simulation.frameStart + 2;
        settings.lastFrame = s.simulation.frameStart + 3;
        settings.plumeVersion = "test";
        const BakeResult result = bakeScene(s, settings);
        QVERIFY2(result.status.ok(), result.status.error.c_str());
        QCOMPARE(int(result.files.size()), 2);
        QVERIFY(result.files[0].filename().string()
                == scene.toStdString() + "."
                       + QString::number(settings.firstFrame).rightJustified(4, '0').toStdString()
                       + ".vdb");

        auto sim = simulateTo(s, settings.lastFrame);
        const sim::Solver &solver = sim->solver();
        openvdb::io::File file(result.files[1].string());
        file.open();
        openvdb::MetaMap::Ptr meta = file.getMetadata();
        QCOMPARE(meta->metaValue<openvdb::Int32>("frame"), settings.lastFrame);
        QCOMPARE(QString::fromStdString(meta->metaValue<std::string>("scene")), scene);
        QCOMPARE(QString::fromStdString(meta->metaValue<std::string>("plume_version")),
                 QString("test"));

        auto checkScalar = [&](const char *name, sim::FieldKind kind) {
            auto grid = openvdb::gridPtrCast<openvdb::FloatGrid>(file.readGrid(name));
            QVERIFY2(grid, name);
            sim::ScalarGrid expected;
            solver.sample(kind, expected);
            auto acc = grid->getConstAccessor();
            int compared = 0;
            const sim::Int3 n = expected.size();
            for (int k = 0; k < n.z; ++k)
                for (int j = 0; j < n.y; ++j)
                    for (int i = 0; i < n.x; ++i) {
                        const float want = expected(i, j, k);
                        const float got = acc.getValue(openvdb::Coord(i, j, k));
                        if (std::fabs(want) > 1e-6f) {
                            QCOMPARE(got, want);
                            ++compared;
                        } else {
                            QCOMPARE(got, 0.f);
                        }
                    }
            QVERIFY2(compared > 10, name);
        };
        checkScalar("density", sim::FieldKind::Density);
        checkScalar("temperature", sim::FieldKind::Temperature);

        auto vel = openvdb::gridPtrCast<openvdb::Vec3SGrid>(file.readGrid("vel"));
        QVERIFY(vel);
        QCOMPARE(vel->getVectorType(), openvdb::VEC_CONTRAVARIANT_RELATIVE);
        sim::ScalarGrid vx, vy, rho;
        solver.sample(sim::FieldKind::VelocityX, vx);
        solver.sample(sim::FieldKind::VelocityY, vy);
        solver.sample(sim::FieldKind::Density, rho);
        for (auto it = vel->cbeginValueOn(); it; ++it) {
            const openvdb::Coord c = it.getCoord();
            QCOMPARE((*it).x(), vx(c.x(), c.y(), c.z()));
            QCOMPARE((*it).y(), vy(c.x(), c.y(), c.z()));
        }
        // Cell centres sit at their world positions.
        const sim::Domain d = solver.domain();
        const openvdb::Vec3d w = vel->indexToWorld(openvdb::Coord(3, 5, 0));
        QVERIFY(std::fabs(w.x() - (d.origin.x + 3.5 * d.cellSize)) < 1e-5);
        QVERIFY(std::fabs(w.y() - (d.origin.y + 5.5 * d.cellSize)) < 1e-5);
        if (solver.hasDye()) {
            auto cd = openvdb::gridPtrCast<openvdb::Vec3SGrid>(file.readGrid("Cd"));
            QVERIFY(cd);
            sim::ScalarGrid red;
            solver.sample(sim::FieldKind::DyeRed, red);
            for (auto it = cd->cbeginValueOn(); it; ++it) {
                const openvdb::Coord c = it.getCoord();
                QCOMPARE((*it).x(), red(c.x(), c.y(), c.z()) / rho(c.x(), c.y(), c.z()));
            }
        }
        file.close();
    }

    // The OpenVDB preset reaches the files: Z up and half floats hold the Y-up file's density
    // at the rotated voxels, rounded to half; a resume record tells the two bakes apart.
    void vdbSettingsReachFiles()
    {
        const Scene s = loadExample("plume-3d", 20, 3);
        QTemporaryDir dir;
        const BakeSettings settings = thirdFrameInto(s, dir.path() + "/y");
        const BakeResult y = bakeScene(s, settings);
        QVERIFY2(y.status.ok(), y.status.error.c_str());
        BakeSettings zSettings = settings;
        zSettings.outputDirectory = (dir.path() + "/z").toStdString();
        zSettings.openvdb.up = UpAxis::Z;
        zSettings.openvdb.halfFloat = true;
        const BakeResult z = bakeScene(s, zSettings);
        QVERIFY2(z.status.ok(), z.status.error.c_str());
        QVERIFY(bakeRecordDifference(makeBakeRecord(s, settings), makeBakeRecord(s, zSettings))
                    .find("openvdb")
                != std::string::npos);

        auto density = [](const std::filesystem::path &path) {
            openvdb::io::File file(path.string());
            file.open();
            auto grid = openvdb::gridPtrCast<openvdb::FloatGrid>(file.readGrid("density"));
            file.close();
            return grid;
        };
        const auto yGrid = density(y.files[0]), zGrid = density(z.files[0]);
        QVERIFY(yGrid && zGrid);
        QVERIFY(!yGrid->saveFloatAsHalf() && zGrid->saveFloatAsHalf());
        QCOMPARE(zGrid->activeVoxelCount(), yGrid->activeVoxelCount());
        const int nz = makeDomain(s.domain).cells.z;
        auto zAcc = zGrid->getConstAccessor();
        for (auto v = yGrid->cbeginValueOn(); v; ++v) {
            const openvdb::Coord c = v.getCoord();
            const openvdb::Coord at(c.x(), nz - 1 - c.z(), c.y());
            QVERIFY(zAcc.isValueOn(at));
            QCOMPARE(zAcc.getValue(at), float(openvdb::math::half(*v)));
        }
    }

    // The window's preview resolution (docs/preview.md) is the window's alone: a scene with a
    // preview bakes the same bytes as without one, at the full resolution, and its bake record
    // (what --resume compares) is the same.
    void bakeIgnoresThePreview()
    {
        const Scene full = loadExample("plume-3d", 20, 3);
        Scene preview = full;
        preview.domain.preview = PreviewResolution::Quarter;
        QTemporaryDir dir;
        const BakeSettings settings = thirdFrameInto(full, dir.path() + "/full");
        const BakeResult a = bakeScene(full, settings);
        QVERIFY2(a.status.ok(), a.status.error.c_str());
        const BakeResult b = bakeScene(preview, thirdFrameInto(preview, dir.path() + "/preview"));
        QVERIFY2(b.status.ok(), b.status.error.c_str());
        QCOMPARE(b.files.size(), a.files.size());
        QVERIFY(!a.files.empty());
        for (std::size_t n = 0; n < a.files.size(); ++n)
            QVERIFY(readAll(a.files[n]) == readAll(b.files[n]));
        QCOMPARE(bakeRecordDifference(makeBakeRecord(full, settings),
                                      makeBakeRecord(preview, settings)),
                 std::string());
    }

    // The same scene baked twice, or with 1 and 2 threads, gives byte-identical files.
    void deterministic()
    {
        const Scene s = loadExample("plume-3d", 20, 3);
        QByteArray reference;
        for (int threads : {0, 1, 2}) {
            QTemporaryDir dir;
            BakeSettings settings;
            settings.outputDirectory = dir.path().toStdString();
            settings.baseName = "p";
            settings.firstFrame = settings.lastFrame = s.simulation.frameStart + 2;
            BakeResult result;
            if (threads == 0) {
                result = bakeScene(s, settings);
            } else {
                oneapi::tbb::task_arena arena(threads);
                arena.execute([&] { result = bakeScene(s, settings); });
            }
            QVERIFY(result.status.ok());
            const QByteArray bytes = readAll(result.files[0]);
            QVERIFY(bytes.size() > 1000);
            if (reference.isEmpty())
                reference = bytes;
            QVERIFY2(bytes == reference, qPrintable(QString("threads %1").arg(threads)));
        }
    }

    // A cancelled bake stops between frames: the files it wrote are complete, no more appear.
    void cancelKeepsCompleteFiles()
    {
        struct StopAfterTwo : BakeObserver
        {
            int written = 0;
            void frameWritten(int, int, int, double) override { ++written; }
            bool cancelRequested() override { return written >= 2; }
        } observer;
        const Scene s = loadExample("plume-2d", 32, 6);
        QTemporaryDir dir;
        BakeSettings settings;
        settings.outputDirectory = dir.path().toStdString();
        settings.baseName = "p";
        settings.firstFrame = s.simulation.frameStart;
        settings.lastFrame = s.simulation.frameEnd;
        const BakeResult result = bakeScene(s, settings, &observer);
        QVERIFY(!result.status.ok());
        QVERIFY(isCancelled(result.outcome));
        QCOMPARE(int(result.files.size()), 2);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 2);
        for (const auto &f : result.files) {
            openvdb::io::File file(f.string());
            file.open();
            QVERIFY(file.readGrid("density"));
        }
    }

    // A bake cancelled after frame 7 with checkpoints every 3 frames resumes from frame 6 and
    // leaves the files of an uninterrupted bake, flipbook included; its record then goes.
    // Fire (campfire-3d) puts combustion through the checkpoint.
    void resumeAfterCancel()
    {
        struct StopAfterSeven : BakeObserver
        {
            int written = 0;
            void frameWritten(int, int, int, double) override { ++written; }
            bool cancelRequested() override { return written >= 7; }
        } observer;
        const Scene s = loadExample("campfire-3d", 24, 12);
        QTemporaryDir dir;
        BakeSettings settings;
        settings.baseName = "c";
        settings.firstFrame = s.simulation.frameStart;
        settings.lastFrame = s.simulation.frameEnd;
        settings.flipbook.enabled = true;
        settings.flipbook.rows = settings.flipbook.columns = 3;
        settings.render.width = settings.render.height = 32;
        settings.checkpointEvery = 3;
        settings.outputDirectory = dir.filePath("ref").toStdString();
        QVERIFY(bakeScene(s, settings).status.ok());
        QVERIFY(!QDir(dir.filePath("ref/.plume-bake")).exists());

        settings.outputDirectory = dir.filePath("cut").toStdString();
        const BakeResult cut = bakeScene(s, settings, &observer);
        QVERIFY(isCancelled(cut.outcome) && isResumable(cut.outcome));
        QVERIFY(QFile::exists(dir.filePath("cut/.plume-bake/checkpoint.plumeckpt")));
        settings.resume = true;
        const BakeResult resumed = bakeScene(s, settings);
        QVERIFY2(resumed.status.ok(), resumed.status.error.c_str());
        QCOMPARE(resumed.resumedAfter, 6);
        const QStringList files = QDir(dir.filePath("ref")).entryList(QDir::Files);
        QVERIFY(files.contains("c_flipbook.png"));
        QCOMPARE(QDir(dir.filePath("cut"))
                     .entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
                 files);
        for (const QString &f : files)
            QVERIFY2(readAll((dir.filePath("ref/") + f).toStdString())
                         == readAll((dir.filePath("cut/") + f).toStdString()),
                     qPrintable(f));

        // Nothing left to resume; other settings are refused by name.
        const BakeResult again = bakeScene(s, settings);
        QCOMPARE(again.outcome, BakeOutcome::ResumeRefused);
        QVERIFY2(again.status.error.find("holds no interrupted bake") != std::string::npos,
                 again.status.error.c_str());
        settings.resume = false;
        settings.outputDirectory = dir.filePath("cut2").toStdString();
        QVERIFY(isCancelled(bakeScene(s, settings, &observer).outcome));
        settings.resume = true;
        settings.render.width = 40;
        const BakeResult other = bakeScene(s, settings);
        QCOMPARE(other.outcome, BakeOutcome::ResumeRefused);
        QVERIFY2(other.status.error.find("the bake's options changed: export.render.width 32 "
                                         "-> 40")
                     != std::string::npos,
                 other.status.error.c_str());
    }

    // Upres (docs/upres.md): the VDB grids hold the fine fields at the fine voxel size over the
    // same box, the flipbook renders them, and a cancelled bake resumes to the same bytes.
    void upresBakesFineGrids()
    {
        struct StopAfterThree : BakeObserver
        {
            int written = 0;
            void frameWritten(int, int, int, double) override { ++written; }
            bool cancelRequested() override { return written >= 3; }
        } observer;
        Scene s = loadExample("campfire-3d", 16, 6);
        s.simulation.params.upres.factor = 2;
        QTemporaryDir dir;
        BakeSettings settings;
        settings.baseName = "u";
        settings.plumeVersion = "test";
        settings.firstFrame = s.simulation.frameStart;
        settings.lastFrame = s.simulation.frameEnd;
        settings.flipbook.enabled = true;
        settings.flipbook.rows = settings.flipbook.columns = 2;
        settings.render.width = settings.render.height = 32;
        settings.checkpointEvery = 2;
        settings.outputDirectory = dir.filePath("ref").toStdString();
        const BakeResult ref = bakeScene(s, settings);
        QVERIFY2(ref.status.ok(), ref.status.error.c_str());

        auto sim = simulateTo(s, settings.lastFrame);
        const sim::Solver &solver = sim->solver();
        const sim::Domain &fine = solver.sampleDomain();
        QCOMPARE(fine.cells.x, 2 * solver.domain().cells.x);
        const std::string last =
            dir.filePath("ref/u.%1.vdb").arg(settings.lastFrame, 4, 10, QChar('0')).toStdString();
        openvdb::io::File file(last);
        file.open();
        auto grid = openvdb::gridPtrCast<openvdb::FloatGrid>(file.readGrid("density"));
        QVERIFY(grid);
        QCOMPARE(grid->transform().voxelSize(), openvdb::Vec3d(fine.cellSize));
        sim::ScalarGrid expected;
        solver.sample(sim::FieldKind::Density, expected);
        auto acc = grid->getConstAccessor();
        int compared = 0;
        for (int k = 0; k < fine.cells.z; ++k)
            for (int j = 0; j < fine.cells.y; ++j)
                for (int i = 0; i < fine.cells.x; ++i)
                    if (expected(i, j, k) > 1e-6f) {
                        QCOMPARE(acc.getValue(openvdb::Coord(i, j, k)), expected(i, j, k));
                        ++compared;
                    }
        QVERIFY(compared > 100);
        // The fine cell (2i + 1, 2j + 1) of cell (i, j) sits at its world position.
        const openvdb::Vec3d w = grid->indexToWorld(openvdb::Coord(7, 9, 3));
        QVERIFY(std::fabs(w.x() - (fine.origin.x + 7.5 * fine.cellSize)) < 1e-5);
        QVERIFY(std::fabs(w.y() - (fine.origin.y + 9.5 * fine.cellSize)) < 1e-5);
        file.close();

        settings.outputDirectory = dir.filePath("cut").toStdString();
        QVERIFY(isCancelled(bakeScene(s, settings, &observer).outcome));
        settings.resume = true;
        const BakeResult resumed = bakeScene(s, settings);
        QVERIFY2(resumed.status.ok(), resumed.status.error.c_str());
        const QStringList files = QDir(dir.filePath("ref")).entryList(QDir::Files);
        QVERIFY(files.contains("u_flipbook.png"));
        QCOMPARE(QDir(dir.filePath("cut")).entryList(QDir::Files), files);
        for (const QString &f : files)
            QVERIFY2(readAll((dir.filePath("ref/") + f).toStdString())
                         == readAll((dir.filePath("cut/") + f).toStdString()),
                     qPrintable(f));
    }

    // --mesh and --level-surface: an OBJ per frame and a `surface` level set in each VDB file,
    // the surface look in the images; a resumed bake leaves the same files, OBJs included.
    void meshAndLevelSurface()
    {
        struct StopAfterTwo : BakeObserver
        {
            int written = 0;
            void frameWritten(int, int, int, double) override { ++written; }
            bool cancelRequested() override { return written >= 2; }
        } observer;
        const Scene s = loadExample("plume-3d", 20, 4);
        QTemporaryDir dir;
        BakeSettings settings;
        settings.baseName = "p";
        settings.firstFrame = s.simulation.frameStart;
        settings.lastFrame = s.simulation.frameEnd;
        settings.mesh = true;
        settings.levelSurface = true;
        settings.levelSurfaceIso = 0.05f;
        settings.images.enabled = true;
        settings.render.look3D = Look3D::Surface;
        settings.render.surfaceIso = 0.05f;
        settings.render.width = settings.render.height = 24;
        settings.checkpointEvery = 1;
        settings.outputDirectory = dir.filePath("ref").toStdString();
        const BakeResult ref = bakeScene(s, settings);
        QVERIFY2(ref.status.ok(), ref.status.error.c_str());
        const QString last = QString("ref/p.%1").arg(s.simulation.frameEnd, 4, 10, QChar('0'));
        QFile obj(dir.filePath(last + ".obj"));
        QVERIFY(obj.open(QIODevice::ReadOnly));
        const QByteArray text = obj.readAll();
        QVERIFY(text.startsWith("# Plume"));
        QVERIFY2(text.contains("\nf "), "the plume's level surface has triangles");
        openvdb::io::File file(dir.filePath(last + ".vdb").toStdString());
        file.open();
        const auto surface = file.readGrid("surface");
        file.close();
        QVERIFY(surface);
        QCOMPARE(surface->getGridClass(), openvdb::GRID_LEVEL_SET);

        settings.outputDirectory = dir.filePath("cut").toStdString();
        QVERIFY(isCancelled(bakeScene(s, settings, &observer).outcome));
        settings.resume = true;
        const BakeResult resumed = bakeScene(s, settings);
        QVERIFY2(resumed.status.ok(), resumed.status.error.c_str());
        const QStringList files = QDir(dir.filePath("ref")).entryList(QDir::Files);
        QCOMPARE(files.filter(".obj").size(), 4);
        QCOMPARE(QDir(dir.filePath("cut")).entryList(QDir::Files), files);
        for (const QString &f : files)
            QVERIFY2(readAll((dir.filePath("ref/") + f).toStdString())
                         == readAll((dir.filePath("cut/") + f).toStdString()),
                     qPrintable(f));
        // Another iso value is another bake: resume refuses it.
        settings.outputDirectory = dir.filePath("cut2").toStdString();
        settings.resume = false;
        observer.written = 0;
        QVERIFY(isCancelled(bakeScene(s, settings, &observer).outcome));
        settings.resume = true;
        settings.levelSurfaceIso = 0.1f;
        const BakeResult other = bakeScene(s, settings);
        QCOMPARE(other.outcome, BakeOutcome::ResumeRefused);
        QVERIFY2(other.status.error.find("levelSurfaceIso") != std::string::npos,
                 other.status.error.c_str());
    }

    // Every example scene bakes without error (at a reduced resolution, a few frames).
    void examplesBake_data()
    {
        QTest::addColumn<QString>("scene");
        for (const char *s :
             {"plume-2d", "cylinder-2d", "logo-2d", "plume-3d", "vortex-3d", "torch-2d",
              "campfire-3d", "explosion-3d", "paddle-3d", "knot-smoke-3d", "lava-2d", "fireball-3d",
              "ground-explosion-3d", "candle-3d", "chimney-3d", "incense-3d", "dust-impact-3d",
              "magic-swirl-3d", "explosion-upres-3d"})
            QTest::newRow(s) << s;
    }

    void examplesBake()
    {
        QFETCH(QString, scene);
        const bool threeD = scene.endsWith("3d");
        const Scene s = loadExample(qPrintable(scene), threeD ? 24 : 64, 3);
        QTemporaryDir dir;
        BakeSettings settings;
        settings.outputDirectory = dir.path().toStdString();
        settings.baseName = scene.toStdString();
        settings.firstFrame = s.simulation.frameStart;
        settings.lastFrame = s.simulation.frameEnd;
        const BakeResult result = bakeScene(s, settings);
        QVERIFY2(result.status.ok(), result.status.error.c_str());
        QCOMPARE(int(result.files.size()), 3);
        // Scenes with fuel add the flame and fuel grids (Blender's and Houdini's names); the
        // others do not.
        const bool fire = std::any_of(s.items.begin(), s.items.end(),
                                      [](const Item &i) { return i.emitter.fuel > 0.f; });
        openvdb::io::File file(result.files.back().string());
        file.open();
        for (const char *grid : {"flame", "fuel"}) {
            QCOMPARE(file.hasGrid(grid), fire);
            if (fire) {
                auto g = openvdb::gridPtrCast<openvdb::FloatGrid>(file.readGrid(grid));
                QVERIFY(g && g->getGridClass() == openvdb::GRID_FOG_VOLUME);
                QVERIFY(g->activeVoxelCount() > 0);
            }
        }
    }

    // The gallery (docs/gallery.md): each scene's own flipbook preset bakes end to end, at a
    // third of the scene's resolution (at least 32 cells) over its first few frames (the
    // preset's loop and 4 more, as `plume-cli bake --frames` takes them): the atlas and its
    // sidecar appear, the atlas has the size the preset says, and it is not all transparent.
    void galleryFlipbooks_data()
    {
        QTest::addColumn<QString>("scene");
        for (const char *s :
             {"fireball-3d", "ground-explosion-3d", "explosion-3d", "campfire-3d", "torch-3d",
              "candle-3d", "chimney-3d", "incense-3d", "dust-impact-3d", "magic-swirl-3d"})
            QTest::newRow(s) << s;
    }

    void galleryFlipbooks()
    {
        QFETCH(QString, scene);
        const SceneReadResult full = readSceneFile(QString(PLUME_SOURCE_DIR "/resources/scenes/")
                                                   + scene + ".plume");
        QVERIFY2(full.ok, full.error.c_str());
        const FlipbookSettings &preset = full.scene.exports.flipbook;
        const RenderSettings &look = full.scene.exports.render;
        QVERIFY2(preset.enabled, "a gallery scene bakes its flipbook preset without flags");
        const Scene s = loadExample(qPrintable(scene),
                                    std::max(32, full.scene.domain.resolution / 3),
                                    preset.loopFrames + 4);
        QTemporaryDir dir;
        BakeSettings settings;
        settings.outputDirectory = dir.path().toStdString();
        settings.baseName = scene.toStdString();
        settings.firstFrame = s.simulation.frameStart;
        settings.lastFrame = s.simulation.frameEnd;
        settings.vdb = false;
        settings.render = s.exports.render;
        settings.flipbook = s.exports.flipbook;
        settings.flipbook.first = settings.flipbook.last = kBakeRange;
        const BakeResult result = bakeScene(s, settings);
        QVERIFY2(result.status.ok(), result.status.error.c_str());
        const QString base = preset.fileName.empty() ? scene + "_flipbook"
                                                     : QString::fromStdString(preset.fileName);
        QVERIFY(QFile::exists(dir.filePath(base + ".json")));
        const QImage atlas(dir.filePath(base + ".png"));
        QVERIFY2(!atlas.isNull(), qPrintable(base + ".png"));
        QCOMPARE(atlas.width(), preset.columns * (look.width + 2 * preset.padding));
        QCOMPARE(atlas.height(), preset.rows * (look.height + 2 * preset.padding));
        // Premultiplied: a transparent pixel is 0 in every channel; a flame with almost no
        // soot has little alpha but its emission shows in RGB.
        bool visible = false;
        for (int y = 0; y < atlas.height() && !visible; ++y)
            for (int x = 0; x < atlas.width() && !visible; ++x)
                visible = atlas.pixel(x, y) != 0;
        QVERIFY2(visible, "the atlas is all transparent");
    }

    // Past 512^3 cells (the adaptive domain's) only VDB files sample the box alone: images,
    // flipbooks, meshes and level surfaces are refused before anything is allocated or written.
    void wholeDomainOutputsRefusedPast512Cubed()
    {
        const Scene s = loadExample("hall-1024-3d", 1024, 2);
        QVERIFY(s.simulation.params.adaptiveDomain);
        for (const char *what : {"images", "a flipbook", "meshes", "a level surface"}) {
            QTemporaryDir dir;
            BakeSettings settings;
            settings.outputDirectory = dir.filePath("out").toStdString();
            settings.baseName = "hall";
            settings.firstFrame = 1;
            settings.lastFrame = 2;
            settings.images.enabled = QString(what) == "images";
            settings.flipbook.enabled = QString(what) == "a flipbook";
            settings.mesh = QString(what) == "meshes";
            settings.levelSurface = QString(what) == "a level surface";
            const BakeResult r = bakeScene(s, settings);
            QCOMPARE(r.outcome, BakeOutcome::Invalid);
            const QString message = QString::fromStdString(r.status.error);
            QVERIFY2(message.contains(QString(what) + " of a domain above 512^3 cells")
                         && message.contains("1024 x 1024 x 1024"),
                     qPrintable(message));
            QVERIFY(!QFileInfo::exists(dir.filePath("out")));
        }
    }

    void badRangeRefused()
    {
        const Scene s = loadExample("plume-2d", 32, 6);
        QVERIFY(!checkFrameRange(s, 5, 2).ok());
        QVERIFY(QString::fromStdString(checkFrameRange(s, 1, 99).error).contains("outside"));
        QVERIFY(checkFrameRange(s, s.simulation.frameStart, s.simulation.frameEnd).ok());
    }
};

QTEST_GUILESS_MAIN(TestBake)
#include "tst_bake.moc"
