// SPDX-License-Identifier: Apache-2.0
// Scene files: the examples load cleanly, round trips are exact, unknown keys survive, every
// bad file is refused with a message naming the file, the JSON path and what was expected,
// the valid inputs the fuzzer crashed on read and rasterise, and saving is atomic. No
// simulation runs here.

#include <core/io/scenehash.h>
#include <core/io/scenenumbers.h>
#include <core/io/scenereader.h>
#include <core/io/scenewriter.h>
#include <core/scene/rasterize.h>

#include <tests/common/jsontree.h>

#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <vector>

#if defined(__SSE__) || defined(__x86_64__)
#include <xmmintrin.h>
#define PLUME_TEST_MXCSR 1
#endif

using namespace plume;
using sim::Vec3;

namespace {

QString scenesDir() { return QStringLiteral(PLUME_SOURCE_DIR "/resources/scenes"); }
QString badDir() { return QStringLiteral(PLUME_SOURCE_DIR "/tests/scene_io/bad"); }
/// Inputs the fuzzer (tests/fuzz, docs/fuzzing.md) crashed on that are valid scenes.
QString fuzzAcceptedDir()
{
    return QStringLiteral(PLUME_SOURCE_DIR "/tests/scene_io/fuzz-accepted");
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeAll(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

QString joined(const std::vector<ReadWarning> &warnings)
{
    QStringList l;
    for (const ReadWarning &w : warnings)
        l << QString::fromStdString(w.message);
    return l.join('\n');
}

/// A scene using every feature: all shape types (an image in `dir`), animation, odd numbers.
Scene featureScene(const QString &dir)
{
    QImage img(8, 8, QImage::Format_ARGB32);
    img.fill(qRgba(255, 255, 255, 128));
    img.save(dir + "/images/mask.png");
    Scene s;
    s.name = "features \"quoted\" \\ and ünïcode";
    s.directory = dir.toStdString();
    s.domain.size = {1.5f, 1.f, 1.f};
    s.domain.origin = {-0.25f, 0.1f, 0.f};
    s.domain.resolution = 96;
    s.domain.boundaries[int(sim::Face::XMin)] = sim::Boundary::Periodic;
    s.domain.boundaries[int(sim::Face::XMax)] = sim::Boundary::Periodic;
    s.simulation.params.viscosity = 1e-4f;
    s.simulation.params.pressure.tolerance = 3e-7;
    s.simulation.time.cfl = 1.5f;
    s.simulation.seed = 4000000000u;
    s.simulation.frameEnd = 48;
    s.exports.openvdb.up = UpAxis::Z;
    s.exports.openvdb.halfFloat = true;
    s.exports.openvdb.velocityMask = VelocityMask::Speed;
    Item e;
    e.name = "image";
    e.shape.type = ShapeType::Image;
    e.shape.file = "images/mask.png";
    e.shape.imageMin = {0.1f, 0.1f, 0.f};
    e.shape.imageMax = {0.4f, 0.3f, 0.f};
    e.shape.channel = ImageChannel::Alpha;
    e.emitter.dye = {0.1f, 0.2f, 0.3f};
    e.emitter.velocityMode = sim::EmitterVelocity::Inflow;
    e.emitter.rate.interpolation = Interpolation::Smooth;
    e.emitter.rate.keys = {{0.5, 0.f, {}}, {12.25, 2.5f, {}}};
    e.activeStart = 2.0;
    e.activeEnd = 30.5;
    s.items.push_back(e);
    Item st;
    st.name = "stroke";
    st.kind = ItemKind::Obstacle;
    st.shape.type = ShapeType::Stroke;
    st.shape.points = {{Vec3{0.1f, 0.2f, 0.f}, 0.01f, 0.3f, {}},
                       {Vec3{1.f / 3.f, 0.7f, 0.f}, 0.05f, 1.f, {}}};
    st.offset.keys = {{0.0, {0.f, 0.f, 0.f}, {}}, {10.0, {0.1f, -0.2f, 0.f}, {}}};
    s.items.push_back(st);
    Item f;
    f.name = "turb";
    f.kind = ItemKind::ForceField;
    f.enabled = false;
    f.hidden = true; // editor flags round trip too
    f.shape.type = ShapeType::Box;
    f.shape.rotation = 12.5f;
    f.force.type = sim::ForceType::Turbulence;
    f.force.strength = -0.75f;
    f.force.scale = 0.125f;
    f.force.falloff = 0.05f;
    s.items.push_back(f);
    Item c;
    c.name = "cap";
    c.kind = ItemKind::Obstacle;
    c.shape.type = ShapeType::Capsule;
    c.locked = true;
    s.items.push_back(c);
    return s;
}

} // namespace

class TestSceneIo : public QObject
{
    Q_OBJECT

private slots:
    void examplesLoad_data();
    void examplesLoad();
    void oceanExample();
    void roundTrip_data();
    void roundTrip();
    void featureRoundTrip();
    void filesWithoutCombustionLoad();
    void stamNumericWrittenOnlyWhenFixed();
    void velocityAdvectionDefaultsToAdvection();
    void previewResolutionKey();
    void numberKeysFromTheTables();
    void everyKeyRoundTrip_data();
    void everyKeyRoundTrip();
    void generatedScenesRoundTrip();
    void lightModelKeys();
    void lightModelKeysRefused_data();
    void lightModelKeysRefused();
    void unknownKeysKept();
    void badFiles_data();
    void badFiles();
    void everyBadFileIsTested();
    void fuzzAccepted_data();
    void fuzzAccepted();
    void atomicSave();

private:
    QStringList mTestedBadFiles;
};

void TestSceneIo::examplesLoad_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("threeD");
    QTest::addColumn<int>("longest");
    QTest::newRow("plume-2d") << "plume-2d.plume" << false << 128;
    QTest::newRow("cylinder-2d") << "cylinder-2d.plume" << false << 256;
    QTest::newRow("logo-2d") << "logo-2d.plume" << false << 256;
    QTest::newRow("plume-3d") << "plume-3d.plume" << true << 64;
    QTest::newRow("vortex-3d") << "vortex-3d.plume" << true << 48;
    QTest::newRow("torch-2d") << "torch-2d.plume" << false << 160;
    QTest::newRow("campfire-3d") << "campfire-3d.plume" << true << 115;
    QTest::newRow("torch-3d") << "torch-3d.plume" << true << 173;
    QTest::newRow("explosion-3d") << "explosion-3d.plume" << true << 128;
    QTest::newRow("explosion-disturbed-3d") << "explosion-disturbed-3d.plume" << true << 96;
    QTest::newRow("explosion-upres-3d") << "explosion-upres-3d.plume" << true << 96;
    QTest::newRow("fireball-3d") << "fireball-3d.plume" << true << 128;
    QTest::newRow("ground-explosion-3d") << "ground-explosion-3d.plume" << true << 120;
    QTest::newRow("candle-3d") << "candle-3d.plume" << true << 160;
    QTest::newRow("chimney-3d") << "chimney-3d.plume" << true << 154;
    QTest::newRow("incense-3d") << "incense-3d.plume" << true << 150;
    QTest::newRow("dust-impact-3d") << "dust-impact-3d.plume" << true << 168;
    QTest::newRow("magic-swirl-3d") << "magic-swirl-3d.plume" << true << 96;
    QTest::newRow("stam-fixed-2d") << "stam-fixed-2d.plume" << false << 64;
    QTest::newRow("lava-2d") << "lava-2d.plume" << false << 128;
    QTest::newRow("dam-break-2d") << "dam-break-2d.plume" << false << 112;
    QTest::newRow("pour-3d") << "pour-3d.plume" << true << 48;
}

void TestSceneIo::examplesLoad()
{
    // Loads without warnings, is already in the writer's form (so saving it changes nothing),
    // and rasterises at frame 1 into valid solver inputs.
    QFETCH(QString, file);
    QFETCH(bool, threeD);
    QFETCH(int, longest);
    const QString path = scenesDir() + "/" + file;
    const SceneReadResult r = readSceneFile(path);
    QVERIFY2(r.ok, r.error.c_str());
    QVERIFY2(r.warnings.empty(), qPrintable(joined(r.warnings)));
    QCOMPARE(sceneToJson(r.scene, scenesDir().toStdString()), readAll(path));
    SceneRasterizer raster;
    QVERIFY(raster.setScene(r.scene).ok());
    raster.update(double(r.scene.simulation.frameStart));
    const SceneSetup &setup = raster.setup();
    QCOMPARE(setup.domain.is2D(), !threeD);
    const sim::Int3 c = setup.domain.cells;
    QCOMPARE(std::max({c.x, c.y, c.z}), longest);
    QVERIFY(setup.domain.validate().ok());
    QVERIFY(setup.params.validate().ok());
    // Something moves the fluid: emitters, or force fields alone (lava-2d).
    QVERIFY(!setup.emitters.empty() || !setup.forces.empty());
    for (const sim::Emitter &e : setup.emitters)
        QVERIFY(sim::validate(e, std::size_t(setup.domain.cellCount())).ok());
    for (const sim::ForceField &f : setup.forces)
        QVERIFY(sim::validate(f).ok());
}

void TestSceneIo::oceanExample()
{
    // The ocean example: canonical, no warnings, no items, the periodic 2D patch its scheme
    // needs, and its loop a whole number of frames (10 s at 24 fps).
    const QString path = scenesDir() + "/ocean-tile.plume";
    const SceneReadResult r = readSceneFile(path);
    QVERIFY2(r.ok, r.error.c_str());
    QVERIFY2(r.warnings.empty(), qPrintable(joined(r.warnings)));
    QCOMPARE(sceneToJson(r.scene, scenesDir().toStdString()), readAll(path));
    QVERIFY(r.scene.items.empty());
    const sim::SimParams &p = r.scene.simulation.params;
    QCOMPARE(p.scheme, sim::Scheme::Ocean);
    QCOMPARE(p.ocean.loopPeriod * r.scene.simulation.time.frameRate, 240.f);
    QCOMPARE(r.scene.simulation.frameEnd, 240);
    SceneRasterizer raster;
    QVERIFY(raster.setScene(r.scene).ok());
    QCOMPARE(raster.setup().domain.cells, (sim::Int3{256, 256, 1}));
    // The "ocean" object is written only where it matters: smoke scenes stay as they were.
    Scene smoke;
    QVERIFY(!sceneToJson(smoke, {}).contains("\"ocean\""));
    smoke.simulation.params.ocean.windSpeed = 5.f;
    QVERIFY(sceneToJson(smoke, {}).contains("\"ocean\""));
}

void TestSceneIo::roundTrip_data()
{
    QTest::addColumn<QString>("file");
    const QStringList files = QDir(scenesDir()).entryList({"*.plume"}, QDir::Files);
    QVERIFY(files.size() >= 20); // an empty table would pass without testing anything
    for (const QString &f : files)
        QTest::newRow(qPrintable(f)) << f;
}

void TestSceneIo::roundTrip()
{
    // load -> save -> load gives the same scene; the second save is byte-identical.
    QFETCH(QString, file);
    QTemporaryDir dir;
    const SceneReadResult first = readSceneFile(scenesDir() + "/" + file);
    QVERIFY2(first.ok, first.error.c_str());
    const QString a = dir.filePath("a.plume");
    const QString b = dir.filePath("b.plume");
    QVERIFY(writeSceneFile(first.scene, a).ok());
    const SceneReadResult second = readSceneFile(a);
    QVERIFY2(second.ok, second.error.c_str());
    // Saved elsewhere, a model's path is rewritten to name the same file.
    auto resolved = [](Scene s) {
        for (Item &item : s.items)
            if (!item.shape.file.empty())
                item.shape.file = resolveImagePath(item.shape.file, s.directory);
        LiquidTextureSettings &texture = s.simulation.liquidTexture;
        if (texture.enabled())
            texture.file = resolveImagePath(texture.file, s.directory);
        return s;
    };
    QVERIFY(resolved(second.scene) == resolved(first.scene));
    QVERIFY(writeSceneFile(second.scene, b).ok());
    QCOMPARE(readAll(b), readAll(a));
}

void TestSceneIo::featureRoundTrip()
{
    // Every shape type, keyframes, fractional frames, unusual floats, escaped strings; the
    // image path is rewritten relative to wherever the file is saved.
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkpath("images"));
    QVERIFY(QDir(dir.path()).mkpath("sub/deeper"));
    const Scene scene = featureScene(dir.path());
    QVERIFY(checkScene(scene).ok());
    const QString a = dir.filePath("sub/deeper/a.plume");
    QVERIFY(writeSceneFile(scene, a).ok());
    QVERIFY(readAll(a).contains("\"file\": \"../../images/mask.png\""));
    const SceneReadResult r = readSceneFile(a);
    QVERIFY2(r.ok, r.error.c_str());
    QVERIFY2(r.warnings.empty(), qPrintable(joined(r.warnings)));
    Scene expected = scene;
    expected.items[0].shape.file = "../../images/mask.png";
    QVERIFY(r.scene == expected);
    const QString b = dir.filePath("b.plume");
    QVERIFY(writeSceneFile(r.scene, b).ok());
    const SceneReadResult again = readSceneFile(b);
    QVERIFY2(again.ok, again.error.c_str());
    QCOMPARE(again.scene.items[0].shape.file, std::string("images/mask.png"));
    // And it rasterises: the image resolves from the new folder.
    SceneSetup setup;
    QVERIFY(rasterizeScene(again.scene, 5.0, setup).ok());
    QCOMPARE(setup.emitters.size(), std::size_t(1));
}

// A file written before combustion existed (no emitter fuel/ignite, no simulation.combustion)
// loads with the defaults: no fuel, self-igniting emitters, default combustion settings.
void TestSceneIo::stamNumericWrittenOnlyWhenFixed()
{
    // Files from before the key stay byte-identical: the default is not written.
    const SceneReadResult plain = readSceneFile(scenesDir() + "/plume-2d.plume");
    QVERIFY2(plain.ok, plain.error.c_str());
    QCOMPARE(plain.scene.simulation.params.stamNumeric, sim::StamNumeric::Float);
    QVERIFY(!sceneToJson(plain.scene, scenesDir().toStdString()).contains("stamNumeric"));
    const SceneReadResult fixed = readSceneFile(scenesDir() + "/stam-fixed-2d.plume");
    QVERIFY2(fixed.ok, fixed.error.c_str());
    QCOMPARE(fixed.scene.simulation.params.stamNumeric, sim::StamNumeric::Fixed);
    QCOMPARE(fixed.scene.simulation.params.scheme, sim::Scheme::Stam);
    QVERIFY(
        sceneToJson(fixed.scene, scenesDir().toStdString()).contains("\"stamNumeric\": \"fixed\""));
}

// The wedge asks the tables (scenenumbers.h) whether a key takes whole numbers only, where it
// once searched the reader's message for "expected an integer".
void TestSceneIo::numberKeysFromTheTables()
{
    const SceneReadResult r = readSceneFile(
        QStringLiteral(PLUME_SOURCE_DIR "/resources/scenes/explosion-3d.plume"));
    QVERIFY2(r.ok, r.error.c_str());
    const auto integer = [&](const char *path) {
        const auto key = sceneNumberKey(r.scene, path);
        return key ? int(key->integer) : -1;
    };
    QCOMPARE(integer("domain.resolution"), 1); // integer range
    QCOMPARE(integer("simulation.substeps"), 1);
    QCOMPARE(integer("simulation.upres.factor"), 1);  // a section the file leaves out
    QCOMPARE(integer("export.flipbook.first"), 1);    // an int setting
    QCOMPARE(integer("export.flipbook.bitDepth"), 1); // 8 or 16
    QCOMPARE(integer("simulation.vorticity"), 0);
    QCOMPARE(integer("items[0].offset[1]"), 0);          // a component of an animated vector
    QCOMPARE(integer("items[0].emitter.noise.seed"), 1); // an object written when set
    QCOMPARE(integer("simulation.scheme"), -1);          // not a number
    QCOMPARE(integer("simulation.nonsense"), -1);
    const auto vorticity = sceneNumberKey(r.scene, "simulation.vorticity");
    QVERIFY(vorticity && std::string(vorticity->param.key) == "vorticity");
}

void TestSceneIo::everyKeyRoundTrip_data() { roundTrip_data(); } // every shipped scene

// Every shipped scene (the examples and the templates' scenes): the plain write gives the
// file's own bytes, and the write with every key (what the Python module reads) reads back as
// the same scene, with no warning: no key is written with another value than the scene's
// (issue 48: hidden, locked and the adaptive domain came back true). The same for the scene
// with every item hidden and locked and the adaptive domain on, and in the plain write.
void TestSceneIo::everyKeyRoundTrip()
{
    QFETCH(QString, file);
    const QString path = scenesDir() + "/" + file;
    const SceneReadResult r = readSceneFile(path);
    QVERIFY2(r.ok, r.error.c_str());
    QCOMPARE(sceneToJson(r.scene, scenesDir().toStdString()), readAll(path));
    Scene flipped = r.scene;
    for (Item &item : flipped.items) {
        item.hidden = !item.hidden;
        item.locked = !item.locked;
    }
    if (flipped.simulation.params.scheme == sim::Scheme::Smoke) // off: 1024^3 is refused
        flipped.simulation.params.adaptiveDomain = true;
    for (const Scene &scene : {r.scene, flipped}) {
        const QByteArray every = sceneToJsonWithDefaults(scene);
        const SceneReadResult back = readSceneJson(every, file, scene.directory);
        QVERIFY2(back.ok, back.error.c_str());
        QVERIFY2(back.warnings.empty(), qPrintable(joined(back.warnings)));
        QVERIFY2(back.scene == scene, qPrintable(file));
        QCOMPARE(sceneToJsonWithDefaults(back.scene), every);
        const QByteArray plain = sceneToJson(scene, scene.directory);
        const SceneReadResult again = readSceneJson(plain, file, scene.directory);
        QVERIFY2(again.ok, again.error.c_str());
        QVERIFY2(again.scene == scene, qPrintable(file));
    }
}

// Issue 48: a generator of scenes over every key the writer writes. From each shipped scene's
// every-key JSON, seeded random leaves (numbers, booleans, enumeration strings) are changed to
// other values the reader accepts (a number scaled, shifted or negated; a boolean flipped; a
// string to another value the same key takes in some shipped scene), and every few changes the
// scene must survive both writes: read -> write (with every key, and plain) -> read gives an
// equal scene, and the second write the same bytes. Names and file paths stay as they are.
void TestSceneIo::generatedScenesRoundTrip()
{
    const QStringList files = QDir(scenesDir()).entryList({"*.plume"}, QDir::Files, QDir::Name);
    const std::string dir = scenesDir().toStdString();
    const auto read = [&](const QJsonObject &json) {
        return readSceneJson(QJsonDocument(json).toJson(QJsonDocument::Compact), "generated.plume",
                             dir);
    };
    // The values each key name takes anywhere: the alternatives for enumeration strings.
    std::vector<QJsonObject> bases;
    std::map<QString, QSet<QString>> strings;
    for (const QString &file : files) {
        const SceneReadResult r = readSceneFile(scenesDir() + "/" + file);
        QVERIFY2(r.ok, r.error.c_str());
        const QJsonObject json = QJsonDocument::fromJson(sceneToJsonWithDefaults(r.scene)).object();
        bases.push_back(json);
        std::vector<QStringList> leaves;
        QStringList path;
        test::collectLeaves(json, path, leaves);
        for (const QStringList &p : leaves)
            if (const QJsonValue v = test::valueAt(json, p); v.isString())
                strings[p.back()].insert(v.toString());
    }
    std::mt19937 random(48);
    int generated = 0, changes = 0;
    for (std::size_t f = 0; f < bases.size(); ++f) {
        QJsonObject json = bases[f];
        std::vector<QStringList> leaves;
        QStringList path;
        test::collectLeaves(json, path, leaves);
        std::shuffle(leaves.begin(), leaves.end(), random);
        leaves.resize(std::min<std::size_t>(leaves.size(), 150));
        const auto check = [&] {
            const SceneReadResult a = read(json);
            QVERIFY2(a.ok, a.error.c_str());
            const QByteArray every = sceneToJsonWithDefaults(a.scene);
            const SceneReadResult b = readSceneJson(every, "every.plume", dir);
            QVERIFY2(b.ok, b.error.c_str());
            QVERIFY2(b.scene == a.scene, qPrintable(files[qsizetype(f)] + "\n" + every));
            QCOMPARE(sceneToJsonWithDefaults(b.scene), every);
            const QByteArray plain = sceneToJson(a.scene, dir);
            const SceneReadResult c = readSceneJson(plain, "plain.plume", dir);
            QVERIFY2(c.ok, c.error.c_str());
            QVERIFY2(c.scene == a.scene, qPrintable(files[qsizetype(f)] + "\n" + plain));
            QCOMPARE(sceneToJson(c.scene, dir), plain);
            ++generated;
        };
        int sinceCheck = 0;
        for (const QStringList &leaf : leaves) {
            const QString key = leaf.back();
            if (key == "format" || key == "version" || key == "name" || key == "file")
                continue;
            const QJsonValue now = test::valueAt(json, leaf);
            std::vector<QJsonValue> candidates;
            if (now.isBool()) {
                candidates.push_back(!now.toBool());
            } else if (now.isDouble()) {
                const double v = now.toDouble();
                for (double c :
                     {v + 1.0, v * 0.5, 2.0 * v + 0.25, -v, std::round(v) + 2.0, 0.0, 1.0})
                    if (c != v)
                        candidates.push_back(c);
            } else {
                for (const QString &s : strings[key])
                    if (s != now.toString())
                        candidates.push_back(s);
            }
            std::shuffle(candidates.begin(), candidates.end(), random);
            for (const QJsonValue &c : candidates) {
                const QJsonObject changed = test::setPath(json, leaf, c).toObject();
                if (!read(changed).ok)
                    continue;
                json = changed;
                ++changes;
                if (++sinceCheck == 6) {
                    check();
                    sinceCheck = 0;
                }
                break;
            }
        }
        check();
    }
    qInfo("%d generated scenes from %d changes of %d shipped scenes", generated, changes,
          int(bases.size()));
    QVERIFY(generated >= 200);
}

// domain.preview (docs/preview.md): written only when set (files without it stay
// byte-identical), read back, and left out of the scene's hash, which a bake's resume record
// and checkpoints compare: bakes ignore it.
void TestSceneIo::previewResolutionKey()
{
    const SceneReadResult plain = readSceneFile(scenesDir() + "/plume-3d.plume");
    QVERIFY2(plain.ok, plain.error.c_str());
    QCOMPARE(plain.scene.domain.preview, PreviewResolution::Full);
    QVERIFY(!sceneToJson(plain.scene, scenesDir().toStdString()).contains("preview"));
    for (PreviewResolution p : {PreviewResolution::Half, PreviewResolution::Quarter}) {
        Scene scene = plain.scene;
        scene.domain.preview = p;
        const QByteArray json = sceneToJson(scene, scenesDir().toStdString());
        QVERIFY(json.contains(QByteArray("\"preview\": \"") + toString(p) + "\""));
        const SceneReadResult back = readSceneJson(json, "preview.plume",
                                                   scenesDir().toStdString());
        QVERIFY2(back.ok, back.error.c_str());
        QVERIFY(back.warnings.empty());
        QCOMPARE(back.scene.domain.preview, p);
        QVERIFY(back.scene == scene);
        QCOMPARE(sceneHash(scene), sceneHash(plain.scene));
        // What the window simulates: half or a quarter of the cells along each axis.
        const DomainSettings shown = previewDomain(scene.domain);
        QCOMPARE(shown.resolution, p == PreviewResolution::Half ? 32 : 16);
        QCOMPARE(shown.size, scene.domain.size);
    }
    // Never below the resolution's minimum of 8.
    DomainSettings tiny = plain.scene.domain;
    tiny.resolution = 12;
    tiny.preview = PreviewResolution::Quarter;
    QCOMPARE(previewDomain(tiny).resolution, 8);
}

// Files from before simulation.velocityAdvection moved the velocity with `advection`: they
// still do, and are written back without the key (byte-identical); a scene that sets it apart
// keeps it.
void TestSceneIo::velocityAdvectionDefaultsToAdvection()
{
    const SceneReadResult old = readSceneFile(scenesDir() + "/plume-2d.plume");
    QVERIFY2(old.ok, old.error.c_str());
    const sim::SimParams &p = old.scene.simulation.params;
    QCOMPARE(p.advection, sim::AdvectionOrder::MacCormack);
    QCOMPARE(p.velocityAdvection, sim::AdvectionOrder::MacCormack);
    QVERIFY(!sceneToJson(old.scene, scenesDir().toStdString()).contains("velocityAdvection"));
    const SceneReadResult split = readSceneFile(scenesDir() + "/plume-3d.plume");
    QVERIFY2(split.ok, split.error.c_str());
    QCOMPARE(split.scene.simulation.params.advection, sim::AdvectionOrder::MonotoneCubic);
    QCOMPARE(split.scene.simulation.params.velocityAdvection, sim::AdvectionOrder::SemiLagrangian);
    const QByteArray json = sceneToJson(split.scene, scenesDir().toStdString());
    QVERIFY(json.contains("\"advection\": \"cubic\""));
    QVERIFY(json.contains("\"velocityAdvection\": \"linear\""));
}

// The light model's render keys (skyColor ... toneCurve) round-trip and are written only when
// they differ from their defaults, so files from before them save unchanged (examplesLoad).
void TestSceneIo::lightModelKeys()
{
    const QByteArray plain = sceneToJson(Scene{}, {});
    const char *const keys[] = {"skyColor",           "groundColor",        "anisotropy",
                                "multipleScattering", "emissionScattering", "exposure",
                                "toneCurve"};
    for (const char *key : keys)
        QVERIFY2(!plain.contains(QByteArray("\"") + key + "\""), key);
    Scene scene;
    RenderSettings &r = scene.exports.render;
    r.skyColor = {0.5f, 0.625f, 2.f};
    r.groundColor = {0.2f, 0.3f, 0.f};
    r.anisotropy = -0.35f;
    r.multipleScattering = 0.f;
    r.emissionScattering = 2.5f;
    r.exposure = -1.5f;
    r.toneCurve = ToneCurve::Clip;
    const QByteArray json = sceneToJson(scene, {});
    for (const char *written :
         {"\"skyColor\": [0.5, 0.625, 2]", "\"groundColor\": [0.2, 0.3, 0]",
          "\"anisotropy\": -0.35", "\"multipleScattering\": 0", "\"emissionScattering\": 2.5",
          "\"exposure\": -1.5", "\"toneCurve\": \"clip\""})
        QVERIFY2(json.contains(written), written);
    const SceneReadResult back = readSceneJson(json, "light.plume", ".");
    QVERIFY2(back.ok, back.error.c_str());
    QVERIFY2(back.warnings.empty(), qPrintable(joined(back.warnings)));
    QVERIFY(back.scene.exports.render == r);
    QCOMPARE(sceneToJson(back.scene, {}), json);
    // Each key alone, the others at their defaults.
    for (const char *key : keys) {
        Scene one;
        RenderSettings &o = one.exports.render;
        const QString k = QString::fromLatin1(key);
        if (k == "skyColor")
            o.skyColor = r.skyColor;
        else if (k == "groundColor")
            o.groundColor = r.groundColor;
        else if (k == "anisotropy")
            o.anisotropy = r.anisotropy;
        else if (k == "multipleScattering")
            o.multipleScattering = r.multipleScattering;
        else if (k == "emissionScattering")
            o.emissionScattering = r.emissionScattering;
        else if (k == "exposure")
            o.exposure = r.exposure;
        else
            o.toneCurve = r.toneCurve;
        const QByteArray text = sceneToJson(one, {});
        for (const char *other : keys)
            QCOMPARE(text.contains(QByteArray("\"") + other + "\""), qstrcmp(other, key) == 0);
        const SceneReadResult again = readSceneJson(text, "one.plume", ".");
        QVERIFY2(again.ok, again.error.c_str());
        QVERIFY(again.scene.exports.render == o);
    }
}

void TestSceneIo::lightModelKeysRefused_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QJsonValue>("value");
    QTest::addColumn<QStringList>("expected");
    auto row = [](const char *name, const char *key, QJsonValue value, QStringList expected) {
        QTest::newRow(name) << QString(key) << value << expected;
    };
    row("skyColor", "skyColor", QJsonArray{1, -0.5, 1},
        {"export.render.skyColor[1]", "number >= 0", "-0.5"});
    row("groundColor", "groundColor", "brown",
        {"export.render.groundColor", "2 or 3 numbers", "string \"brown\""});
    row("anisotropy", "anisotropy", 1, {"export.render.anisotropy", "number in (-1, 1)"});
    row("anisotropy below", "anisotropy", -1.5,
        {"export.render.anisotropy", "number in (-1, 1)", "-1.5"});
    row("multipleScattering", "multipleScattering", -1,
        {"export.render.multipleScattering", "number >= 0"});
    row("emissionScattering", "emissionScattering", "strong",
        {"export.render.emissionScattering", "number >= 0", "string \"strong\""});
    row("exposure", "exposure", 1e39, {"export.render.exposure", "32-bit float"});
    row("toneCurve", "toneCurve", "aces",
        {"export.render.toneCurve", "one of filmic, clip", "\"aces\""});
}

// A bad value of each light-model key is refused with its key path and what is expected.
void TestSceneIo::lightModelKeysRefused()
{
    QFETCH(QString, key);
    QFETCH(QJsonValue, value);
    QFETCH(QStringList, expected);
    QJsonObject root = QJsonDocument::fromJson(sceneToJson(Scene{}, {})).object();
    QJsonObject exports = root["export"].toObject();
    QJsonObject render = exports["render"].toObject();
    render[key] = value;
    exports["render"] = render;
    root["export"] = exports;
    const SceneReadResult r = readSceneJson(QJsonDocument(root).toJson(), "light.plume", ".");
    QVERIFY(!r.ok);
    const QString error = QString::fromStdString(r.error);
    for (const QString &part : expected)
        QVERIFY2(error.contains(part), qPrintable("missing '" + part + "' in: " + error));
}

void TestSceneIo::filesWithoutCombustionLoad()
{
    QJsonObject root = QJsonDocument::fromJson(readAll(scenesDir() + "/plume-2d.plume")).object();
    QJsonObject simulation = root["simulation"].toObject();
    QVERIFY(simulation.contains("combustion"));
    simulation.remove("combustion");
    root["simulation"] = simulation;
    QJsonArray items = root["items"].toArray();
    for (int n = 0; n < items.size(); ++n) {
        QJsonObject item = items[n].toObject();
        if (!item.contains("emitter"))
            continue;
        QJsonObject emitter = item["emitter"].toObject();
        emitter.remove("fuel");
        emitter.remove("ignite");
        item["emitter"] = emitter;
        items[n] = item;
    }
    root["items"] = items;
    const SceneReadResult r = readSceneJson(QJsonDocument(root).toJson(), "older.plume",
                                            scenesDir().toStdString());
    QVERIFY2(r.ok, r.error.c_str());
    QVERIFY2(r.warnings.empty(), qPrintable(joined(r.warnings)));
    QVERIFY(r.scene.simulation.params.combustion == sim::CombustionSettings{});
    QCOMPARE(r.scene.items[0].emitter.fuel, 0.f);
    QVERIFY(r.scene.items[0].emitter.ignite);
    // Fuel in the stam scheme, which has no combustion, loads with a warning that says so.
    QJsonObject stam = simulation;
    stam["scheme"] = "stam";
    QJsonObject withFuel = root;
    withFuel["simulation"] = stam;
    QJsonObject firstItem = items[0].toObject();
    QJsonObject firstEmitter = firstItem["emitter"].toObject();
    firstEmitter["fuel"] = 2;
    firstItem["emitter"] = firstEmitter;
    QJsonArray fuelItems = items;
    fuelItems[0] = firstItem;
    withFuel["items"] = fuelItems;
    const SceneReadResult unburnt = readSceneJson(QJsonDocument(withFuel).toJson(), "stam.plume",
                                                  scenesDir().toStdString());
    QVERIFY2(unburnt.ok, unburnt.error.c_str());
    QCOMPARE(int(unburnt.warnings.size()), 1);
    QCOMPARE(unburnt.warnings[0].kind, ReadWarningKind::IgnoredByScheme);
    QCOMPARE(unburnt.warnings[0].path, std::string("items[0].emitter.fuel"));
    QVERIFY2(QString::fromStdString(unburnt.warnings[0].message)
                 .startsWith("stam.plume: items[0].emitter.fuel: the stam scheme"),
             unburnt.warnings[0].message.c_str());
    // A combustion value out of range names its key path.
    simulation["combustion"] = QJsonObject{{"burnRate", -1}};
    root["simulation"] = simulation;
    const SceneReadResult bad = readSceneJson(QJsonDocument(root).toJson(), "bad.plume",
                                              scenesDir().toStdString());
    QVERIFY(!bad.ok);
    QVERIFY2(QString::fromStdString(bad.error).contains("simulation.combustion.burnRate"),
             bad.error.c_str());
}

void TestSceneIo::unknownKeysKept()
{
    const QByteArray json = R"({
        "format": "plume-scene", "version": 1, "future": {"b": [1, 2.5, "x"], "a": null},
        "domain": {"resolution": 64, "fog": true},
        "simulation": {"pressure": {"smoother": "jacobi"}},
        "items": [{"name": "a", "kind": "emitter", "glow": 0.5,
                   "shape": {"type": "circle", "bevel": 2},
                   "emitter": {"rate": {"keys": [{"frame": 0, "value": 1, "ease": "in"}]}}},
                  {"name": "b", "kind": "obstacle", "shape": {"type": "box"},
                   "emitter": {"density": 1}}]
    })";
    QTemporaryDir dir;
    const QString path = dir.filePath("newer.plume");
    QVERIFY(writeAll(path, json));
    const SceneReadResult r = readSceneFile(path);
    QVERIFY2(r.ok, r.error.c_str());
    const QString warnings = joined(r.warnings);
    const QStringList paths = {
        "future",          "domain.fog",           "simulation.pressure.smoother",
        "items[0].glow",   "items[0].shape.bevel", "items[0].emitter.rate.keys[0].ease",
        "items[1].emitter"};
    QCOMPARE(int(r.warnings.size()), int(paths.size()));
    for (const QString &p : paths)
        QVERIFY2(warnings.contains("newer.plume: " + p + ": unknown key"), qPrintable(warnings));
    // The facts as codes (issue 48): each warning's kind and JSON path, in the file's order.
    for (std::size_t n = 0; n < r.warnings.size(); ++n) {
        QCOMPARE(r.warnings[n].kind, ReadWarningKind::UnknownKey);
        QVERIFY2(paths.contains(QString::fromStdString(r.warnings[n].path)),
                 r.warnings[n].path.c_str());
    }
    const QString saved = dir.filePath("saved.plume");
    QVERIFY(writeSceneFile(r.scene, saved).ok());
    const QByteArray text = readAll(saved);
    for (const char *kept :
         {"\"future\"", "\"fog\": true", "\"smoother\": \"jacobi\"", "\"glow\": 0.5",
          "\"bevel\": 2", "\"ease\": \"in\"", "\"b\": [1, 2.5, \"x\"]", "\"a\": null"})
        QVERIFY2(text.contains(kept), kept);
    const SceneReadResult again = readSceneFile(saved);
    QVERIFY(again.ok);
    QCOMPARE(again.warnings.size(), r.warnings.size());
    QVERIFY(again.scene == r.scene);
}

void TestSceneIo::badFiles_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("expected");
    auto row = [](const char *file, QStringList expected) {
        QTest::newRow(file) << QString(file) << expected;
    };
    row("truncated.plume", {"line 6", "items[0].shape.radius", "JSON parse error"});
    row("infinite-number.plume", {"line 2", "items[0].shape.radius", "illegal number"});
    row("not-an-object.plume", {"expected a JSON object"});
    row("wrong-type-radius.plume",
        {"items[0].shape.radius", "expected a number > 0", "string \"big\""});
    row("wrong-type-items.plume", {"items: expected an array", "an object"});
    row("wrong-type-resolution.plume", {"domain.resolution", "integer in [8, 16384]"});
    row("wrong-type-bool.plume", {"items[0].enabled", "true or false"});
    row("short-vector.plume", {"items[0].shape.centre", "2 or 3 numbers"});
    row("negative-size.plume", {"domain.size[0]", "number > 0", "-1"});
    row("negative-radius.plume", {"items[0].shape.radius", "number > 0", "-0.1"});
    row("negative-drag.plume", {"items[0].force.strength", "number >= 0"});
    row("nan-string.plume", {"items[0].emitter.density", "number >= 0", "string \"NaN\""});
    row("float-overflow.plume", {"items[0].emitter.density", "32-bit float"});
    row("tolerance-range.plume", {"simulation.pressure.tolerance", "in (0, 1)"});
    row("frame-range.plume", {"simulation.frameEnd", "integer >= 10"});
    row("fractional-seed.plume", {"simulation.seed", "an integer in [0, 4294967295]"});
    row("active-range.plume", {"items[0].active.end", "frame >= 10"});
    row("unknown-boundary.plume",
        {"domain.boundaries.xmin", "one of wall, open, periodic", "\"bouncy\""});
    row("unknown-preview.plume", {"domain.preview", "one of full, half, quarter", "\"eighth\""});
    row("unknown-kind.plume", {"items[1].kind", "one of emitter, obstacle, force", "\"light\""});
    row("unknown-shape.plume", {"items[0].shape.type", "sphere, circle, box", "\"torus\""});
    row("unknown-scheme.plume", {"simulation.scheme", "one of stam, smoke"});
    row("unknown-velocity-advection.plume",
        {"simulation.velocityAdvection", "one of linear, maccormack, bfecc, cubic", "\"weno\""});
    row("unknown-up-axis.plume", {"export.openvdb.up", "one of y, z", "\"x\""});
    row("unknown-interpolation.plume",
        {"items[0].emitter.rate.interpolation", "one of linear, smooth"});
    row("everywhere-emitter.plume", {"items[0].shape.type", "is for force items only"});
    row("image-in-3d.plume", {"items[0].shape.type", "image masks need a 2d domain"});
    row("empty-stroke.plume", {"items[0].shape.points", "non-empty array"});
    row("missing-shape.plume", {"items[0].shape", "required"});
    row("zero-direction.plume", {"items[0].force.direction", "non-zero"});
    row("huge-resolution.plume",
        {"domain.resolution", "1024 x 1024 x 1024", "64.0 GiB", "at most 134217728 cells",
         "adaptive domain (simulation.adaptiveDomain) takes up to 1024^3"});
    // The adaptive domain takes up to 1024^3 cells, the smoke scheme's only.
    row("huge-adaptive.plume",
        {"domain.resolution", "2048 x 2048 x 2048", "at most 1073741824 cells (1024^3"});
    row("huge-adaptive-stam.plume", {"domain.resolution", "at most 134217728 cells"});
    row("resolution-out-of-range.plume", {"domain.resolution", "integer in [8, 16384]"});
    row("periodic-one-face.plume", {"domain.boundaries", "periodic", "both faces"});
    row("ocean-loop-period.plume",
        {"simulation.ocean.loopPeriod", "in (0, 10000]", "got number 0"});
    row("ocean-walls.plume", {"boundaries.xmin is \"wall\"", "must be \"periodic\""});
    row("ocean-with-emitter.plume", {"item 'spray'", "the ocean scheme has no emitters"});
    row("missing-image.plume", {"items[0].shape.file", "images/missing.png", "does not exist"});
    row("duplicate-names.plume", {"items[1].name", "unique name", "items[0]"});
    row("unsorted-keys.plume", {"items[0].emitter.rate.keys[1].frame", "frame > 10"});
    row("newer-version.plume", {"version", "format version 2 is newer", "version 1"});
    row("wrong-format.plume", {"format", "\"plume-scene\"", "\"tiled-map\""});
    row("missing-format.plume", {"format", "required"});
    row("tiny-radius.plume",
        {"items[0].shape.radius", "a number > 0 as a 32-bit float", "0 as a float", "1e-46"});
    row("denormal-radius.plume",
        {"items[0].shape.radius", "a number > 0 as a 32-bit float", "0 as a float", "1e-40"});
}

void TestSceneIo::badFiles()
{
    QFETCH(QString, file);
    QFETCH(QStringList, expected);
    mTestedBadFiles << file;
    const SceneReadResult r = readSceneFile(badDir() + "/" + file);
    QVERIFY(!r.ok);
    const QString error = QString::fromStdString(r.error);
    QVERIFY2(error.contains(file), qPrintable(error));
    for (const QString &part : expected)
        QVERIFY2(error.contains(part), qPrintable("missing '" + part + "' in: " + error));
}

void TestSceneIo::everyBadFileIsTested()
{
    const QStringList all = QDir(badDir()).entryList({"*.plume"}, QDir::Files);
    QVERIFY(all.size() >= 30);
    for (const QString &f : all)
        QVERIFY2(mTestedBadFiles.contains(f), qPrintable(f + " has no row in badFiles_data"));
}

void TestSceneIo::fuzzAccepted_data()
{
    QTest::addColumn<QString>("file");
    const QStringList all = QDir(fuzzAcceptedDir()).entryList({"*.plume"}, QDir::Files);
    QVERIFY(!all.isEmpty());
    for (const QString &f : all)
        QTest::newRow(qPrintable(f)) << f;
}

void TestSceneIo::fuzzAccepted()
{
    // Valid scenes on which the fuzzer once crashed (or broke the round trip): each reads, the
    // same with flush-to-zero on, rasterises at its first and last frame, and reads back from
    // what the writer makes of it, which then writes the same bytes again. As in the fuzzer,
    // image paths resolve in a temporary folder holding a small "mask.png".
    QFETCH(QString, file);
    const QString path = fuzzAcceptedDir() + "/" + file;
    QTemporaryDir dir;
    QImage mask(5, 3, QImage::Format_ARGB32);
    mask.fill(qRgba(200, 100, 50, 128));
    QVERIFY(mask.save(dir.filePath("mask.png")));
    const std::string folder = dir.path().toStdString();
    const SceneReadResult r = readSceneJson(readAll(path), path, folder);
    QVERIFY2(r.ok, r.error.c_str());
#ifdef PLUME_TEST_MXCSR
    {
        // The same on a thread that flushes denormals to zero, as solver kernels leave theirs.
        const unsigned csr = _mm_getcsr();
        _mm_setcsr(csr | 0x8040u); // FTZ, DAZ
        const SceneReadResult flushed = readSceneJson(readAll(path), path, folder);
        _mm_setcsr(csr);
        QVERIFY2(flushed.ok, flushed.error.c_str());
        QVERIFY(flushed.scene == r.scene);
    }
#endif
    SceneRasterizer raster;
    const sim::Status set = raster.setScene(r.scene);
    QVERIFY2(set.ok(), set.error.c_str());
    raster.update(double(r.scene.simulation.frameStart));
    raster.update(double(r.scene.simulation.frameEnd) + 0.5);
    const QByteArray written = sceneToJson(r.scene, folder);
    const SceneReadResult again = readSceneJson(written, path, folder);
    QVERIFY2(again.ok, again.error.c_str());
    QCOMPARE(sceneToJson(again.scene, folder), written);
}

void TestSceneIo::atomicSave()
{
    const SceneReadResult r = readSceneFile(scenesDir() + "/plume-2d.plume");
    QVERIFY(r.ok);
    QTemporaryDir dir;
    // A folder that does not exist: refused, nothing created.
    const QString nowhere = dir.filePath("no/such/folder/scene.plume");
    const sim::Status s = writeSceneFile(r.scene, nowhere);
    QVERIFY(!s.ok());
    QVERIFY2(QString::fromStdString(s.error).contains(nowhere), s.error.c_str());
    QVERIFY(!QFile::exists(nowhere));
    // An existing file whose save fails (the temporary file's name, 7 characters longer, is
    // over the 255-byte name limit): the old contents stay as they were.
    const QString longName = dir.filePath(QString(250, 'x'));
    const QByteArray old = "previous contents";
    QVERIFY(writeAll(longName, old));
    const sim::Status t = writeSceneFile(r.scene, longName);
    QVERIFY(!t.ok());
    QVERIFY(QString::fromStdString(t.error).contains("xxxxxxxx"));
    QCOMPARE(readAll(longName), old);
    // A successful save replaces the file completely.
    const QString good = dir.filePath("good.plume");
    QVERIFY(writeAll(good, old));
    QVERIFY(writeSceneFile(r.scene, good).ok());
    QVERIFY(readSceneFile(good).ok);
}

QTEST_GUILESS_MAIN(TestSceneIo)
#include "tst_scene_io.moc"
