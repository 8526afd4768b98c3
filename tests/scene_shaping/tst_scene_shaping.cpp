// SPDX-License-Identifier: Apache-2.0
// The shaping controls of docs/look.md in scene files: control masks, the disturbance force
// field and the confinement's world length are read, validated (messages naming the file, the
// key path and what was expected), written only when set (older files stay byte-identical),
// round-trip, and reach the solver inputs. So do noisy sources (an emitter's "noise") and the
// shredding force field.

#include <core/io/scenereader.h>
#include <core/io/scenewriter.h>
#include <core/scene/rasterize.h>
#include <core/scene/scene.h>
#include <core/scene/scenesimulation.h>

#include <tests/common/jsontree.h>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace plume;
using test::setPath;

namespace {

/// A smoke scene with one disturbance force (items[0]) masked by temperature, and a masked
/// confinement with a world length.
QJsonObject shapedScene()
{
    const QJsonObject mask{{"field", "temperature"},
                           {"from", 0.1},
                           {"to", 1},
                           {"ramp",
                            QJsonArray{QJsonArray{0, 0}, QJsonArray{0.5, 1}, QJsonArray{1, 0.5}}}};
    const QJsonObject force{{"type", "disturbance"},
                            {"strength", 40},
                            {"scale", 0.16},
                            {"timeScale", 8},
                            {"mask", mask}};
    const QJsonObject item{{"name", "billows"},
                           {"kind", "force"},
                           {"shape", QJsonObject{{"type", "everywhere"}}},
                           {"force", force}};
    const QJsonObject vorticityMask{{"field", "density"}, {"from", 0.05}, {"to", 0.5}};
    return QJsonObject{
        {"format", "plume-scene"},
        {"version", 1},
        {"domain",
         QJsonObject{{"dimension", "3d"}, {"size", QJsonArray{1, 1, 1}}, {"resolution", 16}}},
        {"simulation", QJsonObject{{"vorticity", 0.4},
                                   {"vorticityLength", 0.02},
                                   {"vorticityMask", vorticityMask}}},
        {"items", QJsonArray{item}},
    };
}

/// A smoke scene with one emitter (items[0]) whose rates a noise modulates.
QJsonObject noisyScene()
{
    const QJsonObject noise{{"size", 0.1}, {"amplitude", 0.6}, {"speed", 1.5}, {"seed", 3}};
    const QJsonObject emitter{{"density", 2}, {"temperature", 5}, {"noise", noise}};
    const QJsonObject item{{"name", "torch"},
                           {"kind", "emitter"},
                           {"shape", QJsonObject{{"type", "sphere"},
                                                 {"centre", QJsonArray{0.5, 0.2, 0.5}},
                                                 {"radius", 0.15}}},
                           {"emitter", emitter}};
    return QJsonObject{
        {"format", "plume-scene"},
        {"version", 1},
        {"domain",
         QJsonObject{{"dimension", "3d"}, {"size", QJsonArray{1, 1, 1}}, {"resolution", 16}}},
        {"items", QJsonArray{item}},
    };
}

SceneReadResult read(const QJsonObject &scene)
{
    return readSceneJson(QJsonDocument(scene).toJson(), "shaped.plume", ".");
}

QString scenesDir() { return QStringLiteral(PLUME_SOURCE_DIR "/resources/scenes"); }

/// A 2D smoke scene in world units: a hot source, a disturbance masked by density, confinement
/// with a world length and a density mask, cubic scalars over linear velocity.
Scene shapedPlume(int resolution)
{
    Scene scene;
    scene.domain.size = {1.f, 1.5f, 1.f};
    scene.domain.resolution = resolution;
    scene.simulation.time.cfl = 1.f;
    sim::SimParams &p = scene.simulation.params;
    p.buoyancyTemperature = 1.2f;
    p.temperatureDissipation = 0.5f;
    p.vorticity = 0.4f;
    p.vorticityLength = 0.02f;
    p.vorticityMask = {sim::ControlField::Density, 0.02f, 0.5f, {}};
    p.advection = sim::AdvectionOrder::MonotoneCubic;
    p.velocityAdvection = sim::AdvectionOrder::SemiLagrangian;
    Item e;
    e.name = "source";
    e.kind = ItemKind::Emitter;
    e.shape.type = ShapeType::Sphere;
    e.shape.centre = {0.5f, 0.2f, 0.f};
    e.shape.radius = 0.08f;
    e.emitter.density = 2.f;
    e.emitter.temperature = 4.f;
    scene.items.push_back(e);
    Item d;
    d.name = "billows";
    d.kind = ItemKind::ForceField;
    d.shape.type = ShapeType::Everywhere;
    d.force.type = sim::ForceType::Disturbance;
    d.force.strength = Animated<float>{6.f};
    d.force.scale = 0.12f;
    d.force.timeScale = 4.f;
    d.force.mask = {sim::ControlField::Density, 0.01f, 0.2f, {}};
    scene.items.push_back(d);
    return scene;
}

/// The smoke of a simulated scene at a frame: its total (density times cell area), the height
/// below which 95 % of it lies, and its total variation per unit of smoke (how much edge it has
/// per amount: more detail, more edge).
struct SmokeFigures
{
    double total = 0, height = 0, variation = 0;
};

SmokeFigures smokeAt(const Scene &scene, int frame)
{
    SceneSimulation simulation;
    if (const sim::Status st = simulation.setScene(scene); !st)
        qFatal("%s", st.error.c_str());
    for (int f = scene.simulation.frameStart; f <= frame; ++f)
        if (const sim::FrameStats s = simulation.advance(f); !s.status)
            qFatal("%s", s.status.error.c_str());
    sim::ScalarGrid rho;
    simulation.solver().sample(sim::FieldKind::Density, rho);
    const sim::Domain &d = simulation.solver().domain();
    const double area = double(d.cellSize) * d.cellSize;
    const sim::Int3 n = rho.size();
    std::vector<double> rows(std::size_t(n.y), 0.0);
    SmokeFigures out;
    for (int j = 0; j < n.y; ++j)
        for (int i = 0; i < n.x; ++i) {
            rows[std::size_t(j)] += rho(i, j, 0) * area;
            if (i + 1 < n.x && j + 1 < n.y)
                out.variation += (std::abs(rho(i + 1, j, 0) - rho(i, j, 0))
                                  + std::abs(rho(i, j + 1, 0) - rho(i, j, 0)))
                                 * d.cellSize;
        }
    for (double r : rows)
        out.total += r;
    double below = 0;
    for (int j = 0; j < n.y; ++j) {
        below += rows[std::size_t(j)];
        if (below >= 0.95 * out.total) {
            out.height = (j + 1) * double(d.cellSize);
            break;
        }
    }
    out.variation /= out.total;
    return out;
}

} // namespace

class TestSceneShaping : public QObject
{
    Q_OBJECT

private slots:
    void readsTheControls()
    {
        const SceneReadResult r = read(shapedScene());
        QVERIFY2(r.ok, r.error.c_str());
        QVERIFY2(r.warnings.empty(), r.warnings.empty() ? "" : r.warnings.front().message.c_str());
        const ForceSettings &f = r.scene.items[0].force;
        QCOMPARE(f.type, sim::ForceType::Disturbance);
        QCOMPARE(f.strength.value, 40.f);
        QCOMPARE(f.scale, 0.16f);
        QCOMPARE(f.timeScale, 8.f);
        QCOMPARE(f.mask.field, sim::ControlField::Temperature);
        QCOMPARE(f.mask.from, 0.1f);
        QCOMPARE(f.mask.to, 1.f);
        QCOMPARE(f.mask.ramp.keys.size(), std::size_t(3));
        QCOMPARE(f.mask.ramp.keys[1].position, 0.5f);
        QCOMPARE(f.mask.ramp.keys[2].value, 0.5f);
        const sim::SimParams &p = r.scene.simulation.params;
        QCOMPARE(p.vorticityLength, 0.02f);
        QCOMPARE(p.vorticityMask.field, sim::ControlField::Density);
        QCOMPARE(p.vorticityMask.ramp, sim::Ramp{}); // the default identity
    }

    // load -> save -> load gives the same scene; the second save is byte-identical; unknown
    // keys inside a mask are kept.
    void roundTrip()
    {
        QJsonObject json = shapedScene();
        json = setPath(json, {"items", "0", "force", "mask", "future"}, 3).toObject();
        const SceneReadResult first = read(json);
        QVERIFY2(first.ok, first.error.c_str());
        QCOMPARE(first.warnings.size(), std::size_t(1)); // the unknown key, kept
        const QByteArray a = sceneToJson(first.scene, {});
        const SceneReadResult second = readSceneJson(a, "a.plume", ".");
        QVERIFY2(second.ok, second.error.c_str());
        QVERIFY(second.scene == first.scene);
        QCOMPARE(sceneToJson(second.scene, {}), a);
        QVERIFY(a.contains("\"future\": 3"));
        QVERIFY(a.contains("\"ramp\": [\n"));
        QVERIFY(a.contains("[0.5, 1],\n"));
        QVERIFY(a.contains("\"vorticityLength\": 0.02"));
    }

    // Defaults write nothing new: a default scene and every shipped scene without the controls
    // keep the text they had (no mask, vorticityLength or vorticityMask keys).
    void defaultsWriteNothingNew()
    {
        Scene scene;
        Item force;
        force.name = "wind";
        force.kind = ItemKind::ForceField;
        force.shape.type = ShapeType::Everywhere;
        scene.items.push_back(force);
        scene.simulation.params.vorticity = 0.3f;
        const QByteArray text = sceneToJson(scene, {});
        for (const char *key : {"\"mask\"", "\"vorticityLength\"", "\"vorticityMask\""})
            QVERIFY2(!text.contains(key), key);
        int scenes = 0;
        for (const QString &f : QDir(scenesDir()).entryList({"*.plume"}, QDir::Files)) {
            QFile file(scenesDir() + "/" + f);
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QByteArray original = file.readAll();
            if (original.contains("\"mask\"") || original.contains("\"vorticityLength\""))
                continue; // the examples of the controls
            const SceneReadResult r = readSceneFile(scenesDir() + "/" + f);
            QVERIFY2(r.ok, r.error.c_str());
            const QByteArray written = sceneToJson(r.scene, scenesDir().toStdString());
            for (const char *key : {"\"mask\"", "\"vorticityLength\"", "\"vorticityMask\""})
                QVERIFY2(!written.contains(key), qPrintable(f + ": " + key));
            ++scenes;
        }
        QVERIFY(scenes >= 10);
    }

    void badValuesAreRefused_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QJsonValue>("value");
        QTest::addColumn<QString>("message");
        const QString mask = "items/0/force/mask/";
        QTest::newRow("unknown field")
            << mask + "field" << QJsonValue("heat")
            << "items[0].force.mask.field: expected one of none, density, temperature, flame, "
               "fuel, speed, vorticity, got string \"heat\"";
        QTest::newRow("from == to") << mask + "to" << QJsonValue(0.1)
                                    << "items[0].force.mask.to: expected a number other than "
                                       "from (0.1)";
        QTest::newRow("from not a number") << mask + "from" << QJsonValue("low")
                                           << "items[0].force.mask.from: expected a finite number";
        QTest::newRow("ramp not an array")
            << mask + "ramp" << QJsonValue(1)
            << "items[0].force.mask.ramp: expected an array of 1 to 16 [position, value] pairs";
        QTest::newRow("ramp empty") << mask + "ramp" << QJsonValue(QJsonArray{})
                                    << "items[0].force.mask.ramp: expected an array of 1 to 16";
        QTest::newRow("ramp key not a pair")
            << mask + "ramp" << QJsonValue(QJsonArray{QJsonArray{0, 0, 1}})
            << "items[0].force.mask.ramp[0]: expected a [position, value] pair of numbers";
        QTest::newRow("ramp position above 1")
            << mask + "ramp" << QJsonValue(QJsonArray{QJsonArray{1.5, 0}})
            << "items[0].force.mask.ramp[0][0]: expected a number in [0, 1], got number 1.5";
        QTest::newRow("ramp value below 0")
            << mask + "ramp" << QJsonValue(QJsonArray{QJsonArray{0, 0}, QJsonArray{1, -0.5}})
            << "items[0].force.mask.ramp[1][1]: expected a number in [0, 1], got number -0.5";
        QTest::newRow("ramp unsorted")
            << mask + "ramp" << QJsonValue(QJsonArray{QJsonArray{0.5, 0}, QJsonArray{0.25, 1}})
            << "items[0].force.mask.ramp[1][0]: expected a position > 0.5 (ramp keys are sorted "
               "by position), got number 0.25";
        QJsonArray seventeen;
        for (int n = 0; n < 17; ++n)
            seventeen.append(QJsonArray{n / 16.0, 0});
        QTest::newRow("ramp too long") << mask + "ramp" << QJsonValue(seventeen)
                                       << "items[0].force.mask.ramp: expected an array of 1 to 16";
        QTest::newRow("mask not an object") << "items/0/force/mask" << QJsonValue(true)
                                            << "items[0].force.mask: expected an object";
        QTest::newRow("block size 0") << "items/0/force/scale" << QJsonValue(0)
                                      << "items[0].force.scale: expected a number > 0";
        QTest::newRow("refresh rate negative")
            << "items/0/force/timeScale" << QJsonValue(-1)
            << "items[0].force.timeScale: expected a number >= 0";
        QTest::newRow("length negative")
            << "simulation/vorticityLength" << QJsonValue(-0.1)
            << "simulation.vorticityLength: expected a number in [0, 10000], got number -0.1";
        QTest::newRow("vorticity mask to == from")
            << "simulation/vorticityMask/to" << QJsonValue(0.05)
            << "simulation.vorticityMask.to: expected a number other than from (0.05)";
        QTest::newRow("unknown force type")
            << "items/0/force/type" << QJsonValue("shred")
            << "items[0].force.type: expected one of directional, vortex, radial, turbulence, "
               "drag, disturbance, shredding, got string \"shred\"";
    }

    void badValuesAreRefused()
    {
        QFETCH(QString, path);
        QFETCH(QJsonValue, value);
        QFETCH(QString, message);
        const QJsonValue scene = setPath(shapedScene(), path.split('/'), value);
        const SceneReadResult r = read(scene.toObject());
        QVERIFY(!r.ok);
        const QString error = QString::fromStdString(r.error);
        QVERIFY2(error.startsWith("shaped.plume: "), qPrintable(error));
        QVERIFY2(error.contains(message), qPrintable(error));
    }

    // Upres (docs/upres.md): read, round-tripped, written only when set, refused with the key
    // path when out of range, warned about in other schemes, and shipped in an example.
    void upresInFiles()
    {
        QJsonObject json = setPath(shapedScene(), {"simulation", "upres"},
                                   QJsonObject{{"factor", 3}, {"strength", 6}, {"lifetime", 0.3}})
                               .toObject();
        const SceneReadResult r = read(json);
        QVERIFY2(r.ok, r.error.c_str());
        const sim::UpresSettings &u = r.scene.simulation.params.upres;
        QCOMPARE(u.factor, 3);
        QCOMPARE(u.strength, 6.f);
        QCOMPARE(u.size, 0.f);
        QCOMPARE(u.lifetime, 0.3f);
        const QByteArray a = sceneToJson(r.scene, {});
        QVERIFY(a.contains("\"upres\": {"));
        const SceneReadResult back = readSceneJson(a, "a.plume", ".");
        QVERIFY2(back.ok, back.error.c_str());
        QVERIFY(back.scene == r.scene);
        QVERIFY(!sceneToJson(Scene{}, {}).contains("\"upres\""));
        for (auto [key, value, message] :
             {std::tuple{"factor", QJsonValue(5),
                         "simulation.upres.factor: expected an integer in [1, 4], got number 5"},
              {"factor", QJsonValue(1.5), "simulation.upres.factor: expected an integer"},
              {"strength", QJsonValue(-1),
               "simulation.upres.strength: expected a number in [0, "
               "100], got number -1"},
              {"lifetime", QJsonValue(0),
               "simulation.upres.lifetime: expected a number in "
               "[0.05, 100]"}}) {
            const SceneReadResult bad = read(
                setPath(json, {"simulation", "upres", key}, value).toObject());
            QVERIFY(!bad.ok);
            QVERIFY2(QString::fromStdString(bad.error).contains(message), bad.error.c_str());
        }
        const SceneReadResult stam = read(
            setPath(json, {"simulation", "scheme"}, "stam").toObject());
        QVERIFY2(stam.ok, stam.error.c_str());
        bool warned = false;
        for (const ReadWarning &w : stam.warnings)
            warned |= w.kind == ReadWarningKind::IgnoredByScheme
                      && w.path == "simulation.upres.factor"
                      && w.message.find("the stam scheme has no upres") != std::string::npos;
        QVERIFY(warned);
        const SceneReadResult example = readSceneFile(scenesDir() + "/explosion-upres-3d.plume");
        QVERIFY2(example.ok, example.error.c_str());
        QVERIFY(example.warnings.empty());
        QCOMPARE(example.scene.simulation.params.upres.factor, 2);
    }

    // Resolution independence: the controls in world units (a masked disturbance, confinement
    // with a world length and a mask) keep the large scale of the same scene at 64 and at 128
    // cells (plume height and total smoke within 10 % at frame 36), while the finer grid shows
    // more detail (more edge per amount of smoke).
    void resolutionIndependence()
    {
        const SmokeFigures coarse = smokeAt(shapedPlume(64), 36);
        const SmokeFigures fine = smokeAt(shapedPlume(128), 36);
        const QString figures = QString("64: total %1 height %2 edge %3; 128: total %4 height %5 "
                                        "edge %6")
                                    .arg(coarse.total)
                                    .arg(coarse.height)
                                    .arg(coarse.variation)
                                    .arg(fine.total)
                                    .arg(fine.height)
                                    .arg(fine.variation);
        qInfo("%s", qPrintable(figures));
        QVERIFY2(std::abs(fine.total / coarse.total - 1.0) < 0.1, qPrintable(figures));
        QVERIFY2(std::abs(fine.height / coarse.height - 1.0) < 0.1, qPrintable(figures));
        QVERIFY2(fine.variation > coarse.variation, qPrintable(figures));
    }

    // The window's preview resolution (docs/preview.md): the scene simulated at 1/2 and 1/4 of
    // its 128 cells (previewDomain, as the window does) keeps its large shapes: plume height and
    // total smoke within 10 % of the full resolution's at frame 36 at 1/2. At 1/4 the
    // disturbance's 0.12-unit blocks are 2.6 cells wide, forcing at the grid's own scale, which
    // mixes away smoke: 12 % less (within 3 % without the disturbance), so 1/4 is held to 15 %.
    void previewKeepsTheLargeShapes_data()
    {
        QTest::addColumn<int>("preview");
        QTest::addColumn<int>("cells");
        QTest::addColumn<double>("tolerance");
        QTest::newRow("1/2") << int(PreviewResolution::Half) << 64 << 0.10;
        QTest::newRow("1/4") << int(PreviewResolution::Quarter) << 32 << 0.15;
    }

    void previewKeepsTheLargeShapes()
    {
        QFETCH(int, preview);
        QFETCH(int, cells);
        QFETCH(double, tolerance);
        const Scene full = shapedPlume(128);
        Scene shown = full;
        shown.domain.preview = PreviewResolution(preview);
        shown.domain = previewDomain(shown.domain);
        QCOMPARE(shown.domain.resolution, cells);
        QCOMPARE(shown.domain.preview, PreviewResolution::Full);
        QCOMPARE(shown.domain.size, full.domain.size);
        const SmokeFigures a = smokeAt(full, 36);
        const SmokeFigures b = smokeAt(shown, 36);
        const QString figures = QString("128: total %1 height %2; %3: total %4 height %5")
                                    .arg(a.total)
                                    .arg(a.height)
                                    .arg(cells)
                                    .arg(b.total)
                                    .arg(b.height);
        qInfo("%s", qPrintable(figures));
        QVERIFY2(std::abs(b.total / a.total - 1.0) < tolerance, qPrintable(figures));
        QVERIFY2(std::abs(b.height / a.height - 1.0) < tolerance, qPrintable(figures));
    }

    // Masks read the smoke scheme's fields: other schemes warn that they ignore them.
    void otherSchemesWarn()
    {
        const QJsonValue stam = setPath(shapedScene(), {"simulation", "scheme"}, "stam");
        const SceneReadResult r = read(stam.toObject());
        QVERIFY2(r.ok, r.error.c_str());
        QCOMPARE(r.warnings.size(), std::size_t(1));
        QCOMPARE(r.warnings[0].kind, ReadWarningKind::IgnoredByScheme);
        QCOMPARE(r.warnings[0].path, std::string("items[0].force.mask"));
        QVERIFY2(r.warnings[0].message.find(
                     "items[0].force.mask: the stam scheme ignores control masks")
                     != std::string::npos,
                 r.warnings[0].message.c_str());
    }

    // The rasteriser hands the solver the disturbance with its mask, seed and keyed strength.
    void reachesTheSolverInputs()
    {
        QJsonObject json = shapedScene();
        const QJsonObject keyed{{"keys", QJsonArray{QJsonObject{{"frame", 1}, {"value", 0}},
                                                    QJsonObject{{"frame", 3}, {"value", 50}}}}};
        json = setPath(json, {"items", "0", "force", "strength"}, keyed).toObject();
        const SceneReadResult r = read(json);
        QVERIFY2(r.ok, r.error.c_str());
        SceneSetup setup;
        QVERIFY(rasterizeScene(r.scene, 2.0, setup));
        QCOMPARE(setup.forces.size(), std::size_t(1));
        const sim::ForceField &f = setup.forces[0];
        QCOMPARE(f.type, sim::ForceType::Disturbance);
        QCOMPARE(f.strength, 25.f);
        QCOMPARE(f.scale, 0.16f);
        QCOMPARE(f.timeScale, 8.f);
        QCOMPARE(f.seed, itemSeed(r.scene.simulation.seed, "billows"));
        QVERIFY(f.mask == r.scene.items[0].force.mask);
        QCOMPARE(f.region.shape, sim::RegionShape::Everywhere);
        QVERIFY(sim::validate(f));
    }

    // The example scene reads without warnings and holds a masked disturbance.
    void exampleScene()
    {
        const SceneReadResult r = readSceneFile(scenesDir() + "/explosion-disturbed-3d.plume");
        QVERIFY2(r.ok, r.error.c_str());
        QVERIFY(r.warnings.empty());
        const Item *billows = r.scene.findItem("billows");
        QVERIFY(billows);
        QCOMPARE(billows->force.type, sim::ForceType::Disturbance);
        QCOMPARE(billows->force.mask.field, sim::ControlField::Temperature);
    }

    // ---- noisy sources -------------------------------------------------------------------------

    void readsTheNoise()
    {
        const SceneReadResult r = read(noisyScene());
        QVERIFY2(r.ok, r.error.c_str());
        QVERIFY(r.warnings.empty());
        const EmitterNoiseSettings &n = r.scene.items[0].emitter.noise;
        QCOMPARE(n.size, 0.1f);
        QCOMPARE(n.amplitude.value, 0.6f);
        QVERIFY(!n.amplitude.isAnimated());
        QCOMPARE(n.speed, 1.5f);
        QCOMPARE(n.seed, 3u);
        QVERIFY(n.isSet() && n.active());
        // Missing keys keep their defaults.
        const QJsonValue partial = setPath(noisyScene(), {"items", "0", "emitter", "noise"},
                                           QJsonObject{{"amplitude", 0.25}});
        const SceneReadResult p = read(partial.toObject());
        QVERIFY2(p.ok, p.error.c_str());
        QCOMPARE(p.scene.items[0].emitter.noise.size, EmitterNoiseSettings{}.size);
        QCOMPARE(p.scene.items[0].emitter.noise.speed, 1.f);
        QCOMPARE(p.scene.items[0].emitter.noise.seed, 0u);
    }

    // load -> save -> load: the same scene and bytes, keyed amplitude and unknown keys kept; the
    // noise is written after the emitter's other keys.
    void noiseRoundTrip()
    {
        QJsonObject json = noisyScene();
        const QJsonObject keyed{{"interpolation", "smooth"},
                                {"keys", QJsonArray{QJsonObject{{"frame", 0}, {"value", 0.2}},
                                                    QJsonObject{{"frame", 24}, {"value", 0.8}}}}};
        json = setPath(json, {"items", "0", "emitter", "noise", "amplitude"}, keyed).toObject();
        json = setPath(json, {"items", "0", "emitter", "noise", "future"}, 7).toObject();
        const SceneReadResult first = read(json);
        QVERIFY2(first.ok, first.error.c_str());
        QCOMPARE(first.warnings.size(), std::size_t(1)); // the unknown key, kept
        QCOMPARE(first.warnings[0].kind, ReadWarningKind::UnknownKey);
        QCOMPARE(first.warnings[0].path, std::string("items[0].emitter.noise.future"));
        const QByteArray a = sceneToJson(first.scene, {});
        const SceneReadResult second = readSceneJson(a, "a.plume", ".");
        QVERIFY2(second.ok, second.error.c_str());
        QVERIFY(second.scene == first.scene);
        QCOMPARE(sceneToJson(second.scene, {}), a);
        QVERIFY(a.contains("\"future\": 7"));
        QVERIFY(a.contains("\"noise\": {\n"));
        QVERIFY(a.contains("\"size\": 0.1,\n"));
        QVERIFY(a.contains("\"speed\": 1.5,\n"));
        QVERIFY(a.contains("\"seed\": 3"));
        QCOMPARE(second.scene.items[0].emitter.noise.amplitude.keys.size(), std::size_t(2));
        QCOMPARE(second.scene.items[0].emitter.noise.amplitude.at(12.0), 0.5f);
    }

    // An emitter without noise writes no "noise" key, and no shipped scene gains one.
    void noiseDefaultsWriteNothingNew()
    {
        Scene scene;
        Item emitter;
        emitter.name = "smoke";
        emitter.kind = ItemKind::Emitter;
        scene.items.push_back(emitter);
        QVERIFY(!sceneToJson(scene, {}).contains("\"noise\""));
        int scenes = 0;
        for (const QString &f : QDir(scenesDir()).entryList({"*.plume"}, QDir::Files)) {
            QFile file(scenesDir() + "/" + f);
            QVERIFY(file.open(QIODevice::ReadOnly));
            if (file.readAll().contains("\"noise\""))
                continue; // the examples of noisy sources
            const SceneReadResult r = readSceneFile(scenesDir() + "/" + f);
            QVERIFY2(r.ok, r.error.c_str());
            for (const Item &item : r.scene.items)
                QVERIFY(!item.emitter.noise.isSet());
            QVERIFY2(!sceneToJson(r.scene, scenesDir().toStdString()).contains("\"noise\""),
                     qPrintable(f));
            ++scenes;
        }
        QVERIFY(scenes >= 10);
    }

    void badNoiseIsRefused_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QJsonValue>("value");
        QTest::addColumn<QString>("message");
        const QString noise = "items/0/emitter/noise";
        QTest::newRow("not an object")
            << noise << QJsonValue(0.5) << "items[0].emitter.noise: expected an object";
        QTest::newRow("size 0") << noise + "/size" << QJsonValue(0)
                                << "items[0].emitter.noise.size: expected a number > 0";
        QTest::newRow("amplitude above 1")
            << noise + "/amplitude" << QJsonValue(1.5)
            << "items[0].emitter.noise.amplitude: expected a number in [0, 1], got number 1.5";
        QTest::newRow("amplitude key below 0")
            << noise + "/amplitude"
            << QJsonValue(
                   QJsonObject{{"keys", QJsonArray{QJsonObject{{"frame", 0}, {"value", -1}}}}})
            << "items[0].emitter.noise.amplitude.keys[0].value: expected a number in [0, 1]";
        QTest::newRow("speed negative") << noise + "/speed" << QJsonValue(-1)
                                        << "items[0].emitter.noise.speed: expected a number >= 0";
        QTest::newRow("seed fractional")
            << noise + "/seed" << QJsonValue(1.5)
            << "items[0].emitter.noise.seed: expected an integer in [0, 4294967295]";
        QTest::newRow("seed negative")
            << noise + "/seed" << QJsonValue(-1)
            << "items[0].emitter.noise.seed: expected an integer in [0, 4294967295]";
        QTest::newRow("size a string") << noise + "/size" << QJsonValue("big")
                                       << "items[0].emitter.noise.size: expected a number > 0";
    }

    void badNoiseIsRefused()
    {
        QFETCH(QString, path);
        QFETCH(QJsonValue, value);
        QFETCH(QString, message);
        const QJsonValue scene = setPath(noisyScene(), path.split('/'), value);
        const SceneReadResult r = read(scene.toObject());
        QVERIFY(!r.ok);
        const QString error = QString::fromStdString(r.error);
        QVERIFY2(error.startsWith("shaped.plume: "), qPrintable(error));
        QVERIFY2(error.contains(message), qPrintable(error));
    }

    // Noisy sources are the smoke scheme's: others warn.
    void otherSchemesWarnAboutNoise()
    {
        const QJsonValue stam = setPath(noisyScene(), {"simulation"},
                                        QJsonObject{{"scheme", "stam"}});
        const SceneReadResult r = read(stam.toObject());
        QVERIFY2(r.ok, r.error.c_str());
        QCOMPARE(r.warnings.size(), std::size_t(1));
        QCOMPARE(r.warnings[0].kind, ReadWarningKind::IgnoredByScheme);
        QVERIFY2(r.warnings[0].message.find("items[0].emitter.noise: the stam scheme ignores an "
                                            "emitter's noise")
                     != std::string::npos,
                 r.warnings[0].message.c_str());
        // Amplitude 0: nothing to warn about.
        const QJsonValue off = setPath(stam, {"items", "0", "emitter", "noise", "amplitude"}, 0);
        QVERIFY(read(off.toObject()).warnings.empty());
    }

    // The rasteriser hands the solver the noise with the keyed amplitude at the frame and the
    // seed mixed with the scene's.
    void noiseReachesTheSolverInputs()
    {
        QJsonObject json = noisyScene();
        const QJsonObject keyed{{"keys", QJsonArray{QJsonObject{{"frame", 1}, {"value", 0}},
                                                    QJsonObject{{"frame", 3}, {"value", 0.6}}}}};
        json = setPath(json, {"items", "0", "emitter", "noise", "amplitude"}, keyed).toObject();
        const SceneReadResult r = read(json);
        QVERIFY2(r.ok, r.error.c_str());
        SceneSetup setup;
        QVERIFY(rasterizeScene(r.scene, 2.0, setup));
        QCOMPARE(setup.emitters.size(), std::size_t(1));
        const sim::EmitterNoise &n = setup.emitters[0].noise;
        QCOMPARE(n.amplitude, 0.3f);
        QCOMPARE(n.size, 0.1f);
        QCOMPARE(n.speed, 1.5f);
        QCOMPARE(n.seed, emitterNoiseSeed(r.scene.simulation.seed, 3));
        QVERIFY(emitterNoiseSeed(1, 3) != emitterNoiseSeed(2, 3));
        QVERIFY(emitterNoiseSeed(1, 3) != emitterNoiseSeed(1, 4));
        QVERIFY(sim::validate(setup.emitters[0], std::size_t(16 * 16 * 16)));
        // A keyed amplitude updates the inputs from one frame to the next.
        SceneRasterizer raster;
        QVERIFY(raster.setScene(r.scene));
        raster.update(2.0);
        QVERIFY(raster.update(2.5).emitters);
        QCOMPARE(raster.setup().emitters[0].noise.amplitude, 0.45f);
    }

    // ---- shredding ---------------------------------------------------------------------------

    // The torch example reads without warnings and holds a noisy source and a temperature-masked
    // shredding field.
    void torchExample()
    {
        const SceneReadResult r = readSceneFile(scenesDir() + "/torch-3d.plume");
        QVERIFY2(r.ok, r.error.c_str());
        QVERIFY(r.warnings.empty());
        const Item *flame = r.scene.findItem("flame");
        QVERIFY(flame);
        QVERIFY(flame->emitter.noise.active());
        const Item *shredding = r.scene.findItem("shredding");
        QVERIFY(shredding);
        QCOMPARE(shredding->force.type, sim::ForceType::Shredding);
        QCOMPARE(shredding->force.mask.field, sim::ControlField::Temperature);
        QCOMPARE(r.scene.domain.resolution, 173);
        QCOMPARE(r.scene.simulation.params.advection, sim::AdvectionOrder::MonotoneCubic);
        QCOMPARE(r.scene.simulation.params.velocityAdvection, sim::AdvectionOrder::MacCormack);
    }

    // A shredding field reads, round-trips, reaches the solver with its keyed strength, edge
    // length and mask, and other schemes warn that they have none.
    void shreddingInFiles()
    {
        QJsonObject json = shapedScene();
        json = setPath(json, {"items", "0", "force", "type"}, "shredding").toObject();
        json = setPath(json, {"items", "0", "force", "scale"}, 0.05).toObject();
        const QJsonObject keyed{{"keys", QJsonArray{QJsonObject{{"frame", 0}, {"value", 10}},
                                                    QJsonObject{{"frame", 4}, {"value", -6}}}}};
        json = setPath(json, {"items", "0", "force", "strength"}, keyed).toObject();
        const SceneReadResult r = read(json);
        QVERIFY2(r.ok, r.error.c_str());
        QVERIFY(r.warnings.empty());
        const ForceSettings &f = r.scene.items[0].force;
        QCOMPARE(f.type, sim::ForceType::Shredding);
        QCOMPARE(f.scale, 0.05f);
        const QByteArray a = sceneToJson(r.scene, {});
        QVERIFY(a.contains("\"type\": \"shredding\""));
        const SceneReadResult back = readSceneJson(a, "a.plume", ".");
        QVERIFY2(back.ok, back.error.c_str());
        QVERIFY(back.scene == r.scene);
        QCOMPARE(sceneToJson(back.scene, {}), a);

        SceneSetup setup;
        QVERIFY(rasterizeScene(r.scene, 2.0, setup));
        QCOMPARE(setup.forces.size(), std::size_t(1));
        QCOMPARE(setup.forces[0].type, sim::ForceType::Shredding);
        QCOMPARE(setup.forces[0].strength, 2.f); // halfway from 10 to -6
        QCOMPARE(setup.forces[0].scale, 0.05f);
        QVERIFY(setup.forces[0].mask == f.mask);
        QVERIFY(sim::validate(setup.forces[0]));

        const QJsonValue stam = setPath(json, {"simulation", "scheme"}, "stam");
        const SceneReadResult w = read(stam.toObject());
        QVERIFY2(w.ok, w.error.c_str());
        bool warned = false;
        for (const ReadWarning &m : w.warnings)
            warned = warned
                     || (m.kind == ReadWarningKind::IgnoredByScheme
                         && m.message.find("items[0].force.type: the stam scheme has no shredding")
                                != std::string::npos);
        QVERIFY(warned);
        // Its edge length is refused like a block size.
        const QJsonValue zero = setPath(json, {"items", "0", "force", "scale"}, 0);
        const SceneReadResult z = read(zero.toObject());
        QVERIFY(!z.ok);
        QVERIFY2(QString::fromStdString(z.error).contains(
                     "items[0].force.scale: expected a number > 0"),
                 z.error.c_str());
    }
};

QTEST_MAIN(TestSceneShaping)
#include "tst_scene_shaping.moc"
