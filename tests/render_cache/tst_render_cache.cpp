// SPDX-License-Identifier: Apache-2.0
// Rendering from a cache (docs/farm.md): a VDB file read back holds exactly what
// keepAsWritten() says it keeps, so a bake from a cache writes the same bytes as a bake that
// simulates, whole or in chunks; and what a cache cannot give is refused before anything runs.
// oneTBB before any Qt header: Qt's `emit` macro breaks oneTBB's headers.
#include <core/sim/base/parallel.h>

#include <core/bake/bakefields.h>
#include <core/bake/baker.h>
#include <core/bake/bakerecord.h>
#include <core/export/vdbcache.h>
#include <core/io/scenereader.h>
#include <core/scene/rasterize.h>
#include <core/sim/run/simulation.h>
#include <tests/common/examplescene.h>

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cstring>
#include <random>

using namespace plume;

namespace {

using test::loadExample;

/// Random fields with every case the files treat apart: zeros, values at and just above the
/// threshold, negatives, -0, denormals, large values (half range), dye on thin density.
VdbFields randomFields(sim::Int3 cells, bool dye, std::uint32_t seed)
{
    std::mt19937 rng(seed);
    auto value = [&](float scale) {
        switch (rng() % 10) {
        case 0: return 0.f;
        case 1: return -0.f;
        case 2: return 1e-6f;
        case 3: return 1.1e-6f;
        case 4: return -3e-7f;
        case 5: return 1e-39f; // denormal
        case 6: return scale * 3000.f;
        default: return scale * (float(rng() % 100000) / 50000.f - 0.3f);
        }
    };
    VdbFields f;
    f.domain.cells = cells;
    f.domain.cellSize = 0.125f;
    f.domain.origin = {-0.5f, 0.25f, 1.f};
    auto fill = [&](sim::ScalarGrid &g, float scale) {
        g.reshape(cells, sim::kCellCentre);
        for (std::size_t n = 0; n < g.count(); ++n)
            g.data()[n] = value(scale);
    };
    fill(f.density, 1.f);
    fill(f.temperature, 2.f);
    fill(f.flame, 1.f);
    fill(f.fuel, 1.f);
    fill(f.velocityX, 5.f);
    fill(f.velocityY, 5.f);
    if (!f.domain.is2D())
        fill(f.velocityZ, 5.f);
    if (dye) {
        fill(f.dyeRed, 1.f);
        fill(f.dyeGreen, 1.f);
        fill(f.dyeBlue, 0.5f);
    }
    return f;
}

bool sameBits(const sim::ScalarGrid &a, const sim::ScalarGrid &b)
{
    // memcmp must not see the null data of empty grids.
    return a.count() == b.count()
           && (a.count() == 0 || std::memcmp(a.data(), b.data(), a.count() * sizeof(float)) == 0);
}

/// Every file under `dir` (relative path -> bytes), hidden folders included.
QMap<QString, QByteArray> folder(const QString &dir)
{
    QMap<QString, QByteArray> files;
    QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QFile f(path);
        f.open(QIODevice::ReadOnly);
        files.insert(QDir(dir).relativeFilePath(path), f.readAll());
    }
    return files;
}

BakeSettings renderSettings(const Scene &s, const QString &out)
{
    BakeSettings b;
    b.outputDirectory = out.toStdString();
    b.baseName = s.name;
    b.firstFrame = s.simulation.frameStart;
    b.lastFrame = s.simulation.frameEnd;
    b.plumeVersion = "test";
    b.vdb = false;
    b.render.width = 40;
    b.render.height = 48;
    b.flipbook.enabled = true;
    b.flipbook.rows = 2;
    b.flipbook.columns = 3;
    b.flipbook.first = b.flipbook.last = kBakeRange;
    b.images.enabled = true;
    b.images.first = b.images.last = kBakeRange;
    b.mesh = true;
    b.levelSurfaceIso = 0.05f;
    return b;
}

} // namespace

class TestRenderCache : public QObject
{
    Q_OBJECT

private slots:
    // Written then read back: exactly keepAsWritten()'s values, bit for bit, for every up axis,
    // precision and velocity mask, in 2D and 3D, with a field box too.
    void readBackIsKeepAsWritten_data()
    {
        QTest::addColumn<bool>("is3D");
        QTest::addColumn<bool>("zUp");
        QTest::addColumn<bool>("half");
        QTest::addColumn<bool>("speedMask");
        QTest::addColumn<bool>("box");
        for (bool is3D : {false, true})
            for (bool zUp : {false, true})
                for (bool half : {false, true})
                    for (bool speed : {false, true})
                        QTest::addRow("%s%s%s%s", is3D ? "3D" : "2D", zUp ? " z-up" : "",
                                      half ? " half" : "", speed ? " speed mask" : "")
                            << is3D << zUp << half << speed << false;
        QTest::newRow("3D field box") << true << false << false << false << true;
    }
    void readBackIsKeepAsWritten()
    {
        QFETCH(bool, is3D);
        QFETCH(bool, zUp);
        QFETCH(bool, half);
        QFETCH(bool, speedMask);
        QFETCH(bool, box);
        const sim::Int3 cells = is3D ? sim::Int3{11, 9, 7} : sim::Int3{13, 10, 1};
        VdbFields fields = randomFields(cells, true, 7u + unsigned(zUp) + 2u * unsigned(half));
        if (half) // values past the half range are refused, not rounded (the dye's Cd clamps)
            for (sim::ScalarGrid *g :
                 {&fields.density, &fields.temperature, &fields.flame, &fields.fuel,
                  &fields.velocityX, &fields.velocityY, &fields.velocityZ})
                for (std::size_t n = 0; n < g->count(); ++n)
                    g->data()[n] = std::clamp(g->data()[n], -60000.f, 60000.f);
        sim::CellBox fieldBox;
        if (box) { // zero outside a box: the file holds the box alone
            fieldBox = {{2, 1, 3}, {9, 8, 6}};
            for (sim::ScalarGrid *g :
                 {&fields.density, &fields.temperature, &fields.flame, &fields.fuel,
                  &fields.velocityX, &fields.velocityY, &fields.velocityZ, &fields.dyeRed,
                  &fields.dyeGreen, &fields.dyeBlue})
                for (int k = 0; k < cells.z; ++k)
                    for (int j = 0; j < cells.y; ++j)
                        for (int i = 0; i < cells.x; ++i)
                            if (i < 2 || j < 1 || k < 3 || i >= 9 || j >= 8 || k >= 6)
                                (*g)(i, j, k) = 0.f;
        }
        VdbWriteOptions options;
        options.up = zUp ? UpAxis::Z : UpAxis::Y;
        options.halfFloat = half;
        options.velocityMask = speedMask ? VelocityMask::Speed : VelocityMask::Density;
        // The writer takes the box's cells only.
        auto boxed = [&](const sim::ScalarGrid &g) {
            if (!box)
                return g;
            sim::ScalarGrid b(fieldBox.size(), sim::kCellCentre);
            for (int k = 0; k < b.size().z; ++k)
                for (int j = 0; j < b.size().y; ++j)
                    for (int i = 0; i < b.size().x; ++i)
                        b(i, j, k) = g(fieldBox.lo.x + i, fieldBox.lo.y + j, fieldBox.lo.z + k);
            return b;
        };
        const sim::ScalarGrid d = boxed(fields.density), t = boxed(fields.temperature),
                              fl = boxed(fields.flame), fu = boxed(fields.fuel),
                              vx = boxed(fields.velocityX), vy = boxed(fields.velocityY),
                              vz = is3D ? boxed(fields.velocityZ) : sim::ScalarGrid(),
                              r = boxed(fields.dyeRed), g = boxed(fields.dyeGreen),
                              b = boxed(fields.dyeBlue);
        VdbFrame frame;
        frame.domain = fields.domain;
        frame.fieldBox = fieldBox;
        frame.density = &d;
        frame.temperature = &t;
        frame.flame = &fl;
        frame.fuel = &fu;
        frame.velocityX = &vx;
        frame.velocityY = &vy;
        frame.velocityZ = is3D ? &vz : nullptr;
        frame.dyeRed = &r;
        frame.dyeGreen = &g;
        frame.dyeBlue = &b;
        QTemporaryDir dir;
        const std::filesystem::path path = dir.filePath("f.0001.vdb").toStdString();
        const sim::Status written = writeVdbFrame(path, frame, options);
        QVERIFY2(written.ok(), written.error.c_str());

        VdbFields read;
        const sim::Status st = readVdbFrame(path, fields.domain, read);
        QVERIFY2(st.ok(), st.error.c_str());
        keepAsWritten(fields, options);
        if (!is3D)
            fields.velocityZ = sim::ScalarGrid();
        QVERIFY(sameBits(read.density, fields.density));
        QVERIFY(sameBits(read.temperature, fields.temperature));
        QVERIFY(sameBits(read.flame, fields.flame));
        QVERIFY(sameBits(read.fuel, fields.fuel));
        QVERIFY(sameBits(read.velocityX, fields.velocityX));
        QVERIFY(sameBits(read.velocityY, fields.velocityY));
        QVERIFY(sameBits(read.velocityZ, fields.velocityZ));
        QVERIFY(sameBits(read.dyeRed, fields.dyeRed));
        QVERIFY(sameBits(read.dyeGreen, fields.dyeGreen));
        QVERIFY(sameBits(read.dyeBlue, fields.dyeBlue));
        // The rules themselves: nothing at or below the threshold survives; the rest is the
        // value, or with half floats the value rounded to 11 bits.
        int kept = 0;
        for (std::size_t n = 0; n < fields.density.count(); ++n) {
            const float v = fields.density.data()[n];
            QVERIFY(v == 0.f || std::abs(v) > 1e-6f);
            kept += v != 0.f ? 1 : 0;
        }
        QVERIFY(kept > (box ? 20 : int(fields.density.count()) / 4));
    }

    // A file of another scene, a missing file or one without density: refused, naming it.
    void readRefusesAnotherDomain()
    {
        VdbFields fields = randomFields({8, 8, 8}, false, 3);
        VdbFrame frame;
        frame.domain = fields.domain;
        frame.density = &fields.density;
        QTemporaryDir dir;
        const std::filesystem::path path = dir.filePath("a.vdb").toStdString();
        QVERIFY(writeVdbFrame(path, frame).ok());
        VdbFields read;
        sim::Domain other = fields.domain;
        other.cellSize *= 2.f;
        sim::Status st = readVdbFrame(path, other, read);
        QVERIFY(!st.ok());
        QVERIFY2(st.error.find("a.vdb") != std::string::npos
                     && st.error.find("voxel size") != std::string::npos,
                 st.error.c_str());
        other = fields.domain;
        other.origin.x += 1.f;
        st = readVdbFrame(path, other, read);
        QVERIFY2(!st.ok() && st.error.find("not placed on the scene's domain") != std::string::npos,
                 st.error.c_str());
        other = fields.domain;
        other.cells = {4, 8, 8};
        st = readVdbFrame(path, other, read);
        QVERIFY2(!st.ok() && st.error.find("outside the scene's domain") != std::string::npos,
                 st.error.c_str());
        st = readVdbFrame(dir.filePath("none.vdb").toStdString(), fields.domain, read);
        QVERIFY2(!st.ok() && st.error.find("no such file") != std::string::npos, st.error.c_str());
        QFile junk(dir.filePath("junk.vdb"));
        QVERIFY(junk.open(QIODevice::WriteOnly));
        junk.write("not a vdb file at all, but long enough to have a header of sorts........");
        junk.close();
        st = readVdbFrame(dir.filePath("junk.vdb").toStdString(), fields.domain, read);
        QVERIFY2(!st.ok() && st.error.find("junk.vdb") != std::string::npos, st.error.c_str());
    }

    // The same outputs, byte for byte, from a bake that simulates and from its cache: whole,
    // in three chunks (a farm's render tasks), and with half-float Z-up files.
    void cacheGivesTheSameFiles_data()
    {
        QTest::addColumn<QString>("scene");
        QTest::addColumn<bool>("halfZUp");
        QTest::addColumn<bool>("passes");
        QTest::newRow("fire, six-way, EXR") << "fireball-3d" << false << true;
        QTest::newRow("fire, half, z-up") << "fireball-3d" << true << false;
        QTest::newRow("2D dye") << "logo-2d" << false << false;
    }
    void cacheGivesTheSameFiles()
    {
        QFETCH(QString, scene);
        QFETCH(bool, halfZUp);
        QFETCH(bool, passes);
        const Scene s = loadExample(qPrintable(scene), scene.endsWith("2d") ? 40 : 20, 6);
        QTemporaryDir dir;
        BakeSettings b = renderSettings(s, dir.filePath("direct"));
        b.vdb = true;
        b.openvdb.halfFloat = halfZUp;
        b.openvdb.up = halfZUp ? UpAxis::Z : UpAxis::Y;
        if (passes) {
            b.flipbook.passes.lighting = Lighting::SixWay;
            b.flipbook.passes.format = ImageFormat::Exr;
        }
        BakeResult direct = bakeScene(s, b);
        QVERIFY2(direct.status.ok(), direct.status.error.c_str());

        // The cache alone, then its renders: whole, and in three chunks then the rest.
        const QString cache = dir.filePath("cache");
        BakeSettings c = b;
        c.outputDirectory = cache.toStdString();
        c.flipbook.enabled = c.images.enabled = c.mesh = false;
        QVERIFY(bakeScene(s, c).status.ok());
        for (const char *how : {"whole", "chunks"}) {
            BakeSettings r = b;
            r.vdb = false;
            r.fromCache = cache.toStdString();
            r.outputDirectory = dir.filePath(how).toStdString();
            if (std::string(how) == "chunks") {
                for (auto [first, last] : {std::pair{1, 2}, {3, 4}, {5, 6}}) {
                    BakeSettings part = r;
                    part.chunk = true;
                    part.chunkFirst = first;
                    part.chunkLast = last;
                    const BakeResult pr = bakeScene(s, part);
                    QVERIFY2(pr.status.ok(), pr.status.error.c_str());
                    QVERIFY(pr.files.empty()); // a chunk keeps frames, writes no output
                }
                QCOMPARE(QDir(dir.filePath("chunks/.plume-render")).entryList(QDir::Files).size(),
                         6);
            }
            const BakeResult rendered = bakeScene(s, r);
            QVERIFY2(rendered.status.ok(), rendered.status.error.c_str());
            QVERIFY(!QDir(dir.filePath(QString(how) + "/.plume-render")).exists());
            QMap<QString, QByteArray> want = folder(dir.filePath("direct"));
            for (auto it = want.begin(); it != want.end();)
                it = it.key().endsWith(".vdb") ? want.erase(it) : std::next(it);
            const QMap<QString, QByteArray> got = folder(dir.filePath(how));
            QCOMPARE(got.keys(), want.keys());
            for (const QString &name : want.keys())
                QVERIFY2(got[name] == want[name], qPrintable(QString(how) + ": " + name));
        }
    }

    // A kept frame is used only for the same look from the same cache file: a frame kept with
    // another exposure is rendered again, and so is one whose cache file changed.
    void keptFramesFollowLookAndCache()
    {
        const Scene s = loadExample("fireball-3d", 16, 3);
        QTemporaryDir dir;
        const QString cache = dir.filePath("cache");
        BakeSettings c = renderSettings(s, cache);
        c.vdb = true;
        c.flipbook.enabled = c.images.enabled = c.mesh = false;
        QVERIFY(bakeScene(s, c).status.ok());
        BakeSettings r = renderSettings(s, dir.filePath("out"));
        r.flipbook.enabled = r.mesh = false;
        r.fromCache = cache.toStdString();
        r.chunk = true;
        r.chunkFirst = 1;
        r.chunkLast = 3;
        r.render.exposure = 1.f; // kept with another look
        QVERIFY(bakeScene(s, r).status.ok());
        const QStringList brighter = QDir(dir.filePath("out/.plume-render")).entryList(QDir::Files);
        QCOMPARE(brighter.size(), 3);
        r.render.exposure = 0.f;
        QVERIFY(bakeScene(s, r).status.ok());
        QCOMPARE(QDir(dir.filePath("out/.plume-render")).entryList(QDir::Files).size(), 6);
        // The whole bake renders with the look it is given, whatever else is kept.
        r.chunk = false;
        QVERIFY(bakeScene(s, r).status.ok());
        BakeSettings fresh = r;
        fresh.outputDirectory = dir.filePath("fresh").toStdString();
        QVERIFY(bakeScene(s, fresh).status.ok());
        QCOMPARE(folder(dir.filePath("out")), folder(dir.filePath("fresh")));
    }

    // Rendering the fields as the files keep them instead of the solver's own changes a
    // picture by less than a 16-bit level: what the threshold drops is too thin to show.
    void keptFieldsLookTheSame_data()
    {
        QTest::addColumn<QString>("scene");
        QTest::newRow("3D smoke") << "plume-3d";
        QTest::newRow("3D fire") << "fireball-3d";
        QTest::newRow("2D dye") << "logo-2d";
    }
    void keptFieldsLookTheSame()
    {
        QFETCH(QString, scene);
        const Scene s = loadExample(qPrintable(scene), scene.endsWith("2d") ? 64 : 24, 12);
        QTemporaryDir dir;
        BakeSettings b = renderSettings(s, dir.path());
        b.render.width = b.render.height = 96;
        const PlannedBake planned = planBake(s, b);
        QVERIFY(planned.ok());
        SceneRasterizer raster;
        QVERIFY(raster.setScene(s).ok());
        const SceneSetup &setup = raster.setup();
        auto sim = sim::Simulation::create(setup.domain, setup.params, setup.time);
        QVERIFY(sim);
        for (int f = 1; f <= 12; ++f) {
            raster.update(f);
            sim->solver().setObstacles(setup.solids);
            sim->solver().setEmitters(setup.emitters);
            sim->solver().setForceFields(setup.forces);
            sim->advanceFrame();
        }
        const float ambient = setup.params.ambientTemperature;
        FrameFields raw, kept;
        sampleFrameFields(sim->solver(), b.render, true, ambient, raw);
        simulatedFrameFields(sim->solver(), planned.plan, ambient, kept);
        const RenderedFrame a = renderFrame(raw, b.render, planned.plan.passes, 24.f);
        const RenderedFrame k = renderFrame(kept, b.render, planned.plan.passes, 24.f);
        float worst = 0.f, peak = 0.f;
        for (std::size_t n = 0; n < a.color.size(); ++n) {
            worst = std::max(worst, std::abs(a.color[n] - k.color[n]));
            peak = std::max(peak, a.color[n]);
        }
        for (std::size_t n = 0; n < a.emission.size(); ++n)
            worst = std::max(worst, std::abs(a.emission[n] - k.emission[n]));
        qInfo("%s: largest difference %.3g (peak colour %.3g)", qPrintable(scene), double(worst),
              double(peak));
        QVERIFY(peak > 0.1f);
        QVERIFY2(worst < 1.f / 65535.f, qPrintable(QString::number(double(worst))));
    }

    // What a cache cannot give is refused by the plan, before anything is written.
    void refusals_data()
    {
        QTest::addColumn<QString>("scene");
        QTest::addColumn<QString>("change");
        QTest::addColumn<QString>("message");
        QTest::newRow("vdb") << "plume-3d"
                             << "vdb"
                             << "not VDB files";
        QTest::newRow("missing frame") << "plume-3d"
                                       << "missing"
                                       << "has no frame 2";
        QTest::newRow("liquid") << "pour-3d"
                                << ""
                                << "sph";
        QTest::newRow("resume") << "plume-3d"
                                << "resume"
                                << "without --resume";
        QTest::newRow("chunk without cache") << "plume-3d"
                                             << "nocache"
                                             << "--from-cache";
        QTest::newRow("empty chunk") << "plume-3d"
                                     << "far chunk"
                                     << "holds no frame";
        QTest::newRow("field look") << "plume-2d"
                                    << "speed"
                                    << "'speed' is not in VDB files";
        QTest::newRow("nothing") << "plume-3d"
                                 << "nothing"
                                 << "nothing to render";
    }
    void refusals()
    {
        QFETCH(QString, scene);
        QFETCH(QString, change);
        QFETCH(QString, message);
        const Scene s = loadExample(qPrintable(scene), 16, 3);
        QTemporaryDir dir;
        BakeSettings b = renderSettings(s, dir.filePath("out"));
        b.mesh = false;
        b.fromCache = dir.filePath("cache").toStdString();
        QDir().mkpath(dir.filePath("cache"));
        for (int f : {1, 3}) { // frame 2 missing
            QFile file(QString::fromStdString(cacheFramePath(b, f).string()));
            QVERIFY(file.open(QIODevice::WriteOnly));
        }
        if (change == "vdb")
            b.vdb = true;
        if (change == "resume")
            b.resume = true;
        if (change == "nocache") {
            b.fromCache.clear();
            b.chunk = true;
        }
        if (change == "far chunk") {
            b.chunk = true;
            b.chunkFirst = b.chunkLast = 40;
        }
        if (change == "speed") {
            b.render.look2D = Look2D::Field;
            b.render.field = sim::FieldKind::Speed;
        }
        if (change == "nothing")
            b.flipbook.enabled = b.images.enabled = false;
        const PlannedBake planned = planBake(s, b);
        QVERIFY(!planned.ok());
        QVERIFY2(QString::fromStdString(planned.message).contains(message),
                 planned.message.c_str());
        QVERIFY(!QDir(dir.filePath("out")).exists());
    }
};

QTEST_GUILESS_MAIN(TestRenderCache)
#include "tst_render_cache.moc"
