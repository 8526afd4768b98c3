// SPDX-License-Identifier: Apache-2.0
// The one table per setting (sim/base/param.h): enum tables round-trip, the scene reader accepts
// exactly the values each Param allows (probing both ends of every range), and the properties
// panel's and export dialog's spin boxes offer the tables' ranges. A limit or name changed in
// one place only fails here.

#include <core/io/scenereader.h>
#include <ui/document/document.h>
#include <ui/export/exportdialog.h>
#include <ui/panels/propertiespanel.h>

#include <tests/common/jsontree.h>

#include <QApplication>
#include <QDoubleSpinBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSpinBox>
#include <QTest>

#include <climits>
#include <cmath>
#include <functional>

using namespace plume;
using sim::Param;
using test::setPath;

namespace {

/// A scene exercising every object the tables cover. Partner limits (frameEnd >= frameStart,
/// fieldMax > fieldMin, active end >= start) are set wide so that each key is probed alone.
QJsonObject baseScene()
{
    auto item = [](const char *name, const char *kind, QJsonObject shape) {
        return QJsonObject{{"name", name},
                           {"kind", kind},
                           {"shape", shape},
                           {"active", QJsonObject{{"start", -1e7}}}};
    };
    QJsonObject emitter = item("emitter", "emitter", {{"type", "sphere"}});
    emitter["emitter"] = QJsonObject{};
    QJsonObject drag = item("drag", "force", {{"type", "everywhere"}});
    drag["force"] = QJsonObject{{"type", "drag"}};
    QJsonObject turbulence = item("turbulence", "force", {{"type", "box"}});
    turbulence["force"] = QJsonObject{{"type", "turbulence"}};
    const QJsonObject point{{"position", QJsonArray{0.5, 0.5}}};
    const QJsonObject stroke = item("stroke", "obstacle",
                                    {{"type", "stroke"}, {"points", QJsonArray{point}}});
    const QJsonObject capsule = item("capsule", "obstacle", {{"type", "capsule"}});
    const QJsonObject wide{{"fieldMin", -1e7},
                           {"fieldMax", 1e7},
                           {"emissionMin", -1e7},
                           {"emissionMax", 1e7}};
    return QJsonObject{
        {"format", "plume-scene"},
        {"version", 1},
        {"domain", QJsonObject{{"size", QJsonArray{1, 0.25}}}},
        {"simulation",
         QJsonObject{{"frameStart", 0}, {"frameEnd", 1e7}, {"pressure", QJsonObject{}}}},
        {"items", QJsonArray{emitter, drag, turbulence, stroke, capsule}},
        {"export", QJsonObject{{"render", wide},
                               {"flipbook", QJsonObject{}},
                               {"images", QJsonObject{}},
                               {"openvdb", QJsonObject{}}}},
    };
}

struct Probe
{
    QString path; ///< where the key's object is; the key is Param::key
    Param param;
    int vector = 0; ///< 1: probe [v, 1, 1] (x alone); 3: [v, v, v] (the domain's size)
};

QList<Probe> probes()
{
    namespace sp = sim::simParams;
    namespace tp = sim::timeParams;
    namespace rp = renderParams;
    namespace fp = flipbookParams;
    const QString sim = "simulation", render = "export/render";
    return {
        {"domain", domainParams::size, 3},
        {"domain", domainParams::origin, 1},
        {"domain", domainParams::resolution},
        {sim, tp::frameRate},
        {sim, tp::substeps},
        {sim, tp::cfl},
        {sim, tp::maxSubsteps},
        {sim, simulationParams::frameStart},
        {sim, simulationParams::frameEnd},
        {sim, simulationParams::seed},
        {sim, sp::viscosity},
        {sim, sp::diffusion},
        {sim, sp::densityDissipation},
        {sim, sp::temperatureDissipation},
        {sim, sp::velocityDissipation},
        {sim, sp::up, 1},
        {sim, sp::ambientTemperature},
        {sim, sp::buoyancyDensity},
        {sim, sp::buoyancyTemperature},
        {sim, sp::vorticity},
        {sim, sp::vorticityLength},
        {sim, sp::stamIterations},
        {"simulation/pressure", sp::pressureTolerance},
        {"simulation/pressure", sp::pressureMaxIterations},
        {"simulation/combustion", sim::combustionParams::ignitionTemperature},
        {"simulation/combustion", sim::combustionParams::burnRate},
        {"simulation/combustion", sim::combustionParams::heatRelease},
        {"simulation/combustion", sim::combustionParams::smokePerFuel},
        {"simulation/combustion", sim::combustionParams::flameCooling},
        {"simulation/combustion", sim::combustionParams::expansion},
        {"simulation/sph", sim::sphParams::restDensity},
        {"simulation/sph", sim::sphParams::soundSpeed},
        {"simulation/sph", sim::sphParams::viscosity},
        {"simulation/sph", sim::sphParams::artificialViscosity},
        {"simulation/sph", sim::sphParams::surfaceTension},
        {"simulation/sph", sim::sphParams::spacing},
        {"simulation/sph", sim::sphParams::smoothing},
        {"simulation/sph", sim::sphParams::maxParticles},
        {"simulation/sph", sim::sphParams::courant},
        {"simulation/sph", sim::sphParams::gravity},
        {"items/0/active", itemParams::activeStart},
        {"items/0/active", itemParams::activeEnd},
        {"items/0", itemParams::offset, 1},
        {"items/0/shape", shapeParams::centre, 1},
        {"items/0/shape", shapeParams::radius},
        {"items/2/shape", shapeParams::halfSize, 1},
        {"items/2/shape", shapeParams::rotation},
        {"items/4/shape", shapeParams::start, 1},
        {"items/4/shape", shapeParams::end, 1},
        {"items/3/shape/points/0", strokeParams::position, 1},
        {"items/3/shape/points/0", strokeParams::radius},
        {"items/3/shape/points/0", strokeParams::pressure},
        {"items/0/emitter", emitterParams::density},
        {"items/0/emitter", emitterParams::temperature},
        {"items/0/emitter", emitterParams::dye, 1},
        {"items/0/emitter", emitterParams::fuel},
        {"items/0/emitter", emitterParams::velocity, 1},
        {"items/0/emitter", emitterParams::rate},
        {"items/0/emitter/noise", emitterNoiseParams::size},
        {"items/0/emitter/noise", emitterNoiseParams::amplitude},
        {"items/0/emitter/noise", emitterNoiseParams::speed},
        {"items/0/emitter/noise", emitterNoiseParams::seed},
        {"items/1/force", forceParams::dragStrength},
        {"items/2/force", forceParams::strength},
        {"items/2/force", forceParams::direction, 1},
        {"items/2/force", forceParams::centre, 1},
        {"items/2/force", forceParams::scale},
        {"items/2/force", forceParams::timeScale},
        {"items/2/force", forceParams::falloff},
        {"items/2/force/mask", sim::controlMaskParams::from},
        {"items/2/force/mask", sim::controlMaskParams::to},
        {render, rp::width},
        {render, rp::height},
        {render, rp::fieldMin},
        {render, rp::fieldMax},
        {render, rp::yaw},
        {render, rp::pitch},
        {render, rp::fov},
        {render, rp::zoom},
        {render, rp::lightDirection, 1},
        {render, rp::lightColor, 1},
        {render, rp::lightIntensity},
        {render, rp::ambient},
        {render, rp::skyColor, 1},
        {render, rp::groundColor, 1},
        {render, rp::smokeColor, 1},
        {render, rp::densityScale},
        {render, rp::stepCells},
        {render, rp::anisotropy},
        {render, rp::multipleScattering},
        {render, rp::emissionScattering},
        {render, rp::exposure},
        {render, rp::emissionIntensity},
        {render, rp::emissionMin},
        {render, rp::emissionMax},
        {render, rp::flameIntensity},
        {render, rp::surfaceIso},
        {render, rp::surfaceColor, 1},
        {render, rp::foamSpeed},
        {render, rp::framingPadding},
        {"export/flipbook", fp::rows},
        {"export/flipbook", fp::columns},
        {"export/flipbook", fp::first},
        {"export/flipbook", fp::last},
        {"export/flipbook", fp::step},
        {"export/flipbook", fp::padding},
        {"export/flipbook", fp::motionRange},
        {"export/flipbook", fp::loopFrames},
        {"export/images", imageParams::first},
        {"export/images", imageParams::last},
        {"export/images", imageParams::step},
    };
}

/// Values around both ends of a range, and inside it.
QList<double> probeValues(const Param &p)
{
    QList<double> v;
    for (double end : {p.min, p.max}) {
        if (std::isinf(end))
            continue;
        const double d = std::max(1.0, std::abs(end)) * 1e-3;
        v << end << end - d << end + d << end - 1 << end + 1;
    }
    v << (std::isinf(p.min) ? -10 : p.min + 0.5) << (std::isinf(p.max) ? 10 : p.max - 0.5);
    return v;
}

SceneReadResult readWith(const Probe &probe, double value)
{
    const QJsonValue v = probe.vector == 3   ? QJsonValue(QJsonArray{value, value, value})
                         : probe.vector == 1 ? QJsonValue(QJsonArray{value, 1, 1})
                                             : QJsonValue(value);
    QStringList path = probe.path.split('/');
    path << QString::fromLatin1(probe.param.key);
    const QJsonValue scene = setPath(baseScene(), path, v);
    return readSceneJson(QJsonDocument(scene.toObject()).toJson(), "probe.plume", ".");
}

template<class E, std::size_t N>
void checkNames(const sim::EnumNames<E, N> &table)
{
    for (std::size_t i = 0; i < N; ++i) {
        E back{};
        QVERIFY2(table.parse(table.name(E(i)), back) && back == E(i), table.names[i]);
        QVERIFY(table.expected().find(table.names[i]) != std::string::npos);
    }
    E out{};
    QVERIFY(!table.parse("no-such-name", out));
    QCOMPARE(std::string(table.name(E(N))), std::string("unknown"));
    if (table.alias) {
        QVERIFY(table.parse(table.alias, out) && out == table.aliasOf);
        QVERIFY(table.expected().find(table.alias) != std::string::npos);
    }
}

/// Every spin box named after a table key offers that key's range.
void checkSpinBoxes(QWidget *root, const QList<Param> &params, int expectedCount)
{
    int found = 0;
    for (const Param &p : params) {
        const QString key = QString::fromLatin1(p.key);
        for (auto *box : root->findChildren<QDoubleSpinBox *>(key)) {
            QCOMPARE(box->minimum(), p.lowest());
            QCOMPARE(box->maximum(), p.highest());
            QCOMPARE(box->decimals(), p.decimals);
            ++found;
        }
        for (auto *box : root->findChildren<QSpinBox *>(key)) {
            QCOMPARE(box->minimum(), int(std::max(p.lowest(), double(INT_MIN))));
            QCOMPARE(box->maximum(), int(std::min(p.highest(), double(INT_MAX))));
            ++found;
        }
    }
    QCOMPARE(found, expectedCount);
}

} // namespace

class TestParams : public QObject
{
    Q_OBJECT

private slots:
    void enumTablesRoundTrip()
    {
        checkNames(sim::kBoundaryNames);
        checkNames(sim::kSchemeNames);
        checkNames(sim::kAdvectionOrderNames);
        checkNames(sim::kSweepOrderNames);
        checkNames(sim::kStamNumericNames);
        checkNames(sim::kFieldKindNames);
        checkNames(sim::kEmitterVelocityNames);
        checkNames(sim::kForceTypeNames);
        checkNames(sim::kControlFieldNames);
        checkNames(kInterpolationNames);
        checkNames(kDimensionNames);
        checkNames(kItemKindNames);
        checkNames(kShapeTypeNames);
        checkNames(kImageChannelNames);
        checkNames(kColorMapNames);
        checkNames(kLook2DNames);
        checkNames(kLook3DNames);
        checkNames(kProjectionNames);
        checkNames(kToneCurveNames);
        checkNames(kFramingNames);
        checkNames(kAlphaModeNames);
        checkNames(kEmissionOutputNames);
        QCOMPARE(kShapeTypeNames.expected(),
                 std::string(
                     "one of sphere, circle, box, capsule, stroke, image, everywhere, mesh"));
    }

    void describe()
    {
        QCOMPARE(simulationParams::seed.describe(), std::string("an integer in [0, 4294967295]"));
        QCOMPARE(sim::simParams::pressureTolerance.describe(), std::string("a number in (0, 1)"));
        QCOMPARE(shapeParams::radius.describe(), std::string("a number > 0"));
        QCOMPARE(emitterParams::temperature.describe(), std::string("a finite number"));
        QCOMPARE(renderParams::fov.describe("angle"), std::string("an angle in (0, 180)"));
        QCOMPARE(shapeParams::radius.lowest(), 1e-4);
        QCOMPARE(renderParams::fov.highest(), 179.9);
    }

    void baseSceneIsValid()
    {
        const SceneReadResult r = readSceneJson(QJsonDocument(baseScene()).toJson(), "probe.plume",
                                                ".");
        QVERIFY2(r.ok, r.error.c_str());
    }

    // The reader accepts a value exactly when its Param contains it, and says what it expected.
    void readerFollowsTables_data()
    {
        QTest::addColumn<int>("index");
        const QList<Probe> all = probes();
        for (int i = 0; i < all.size(); ++i)
            QTest::newRow(qPrintable(all[i].path + "/" + all[i].param.key)) << i;
    }

    void readerFollowsTables()
    {
        QFETCH(int, index);
        const Probe probe = probes()[index];
        for (double v : probeValues(probe.param)) {
            // A float setting holds the value as a float: probe what it becomes.
            const SceneReadResult r = readWith(probe, v);
            const bool allowed = probe.param.contains(v);
            QVERIFY2(r.ok == allowed || (!r.ok && allowed && !probe.param.contains(float(v))),
                     qPrintable(QString("%1 = %2: %3")
                                    .arg(probe.param.key)
                                    .arg(v)
                                    .arg(QString::fromStdString(r.ok ? "accepted" : r.error))));
            if (!r.ok)
                QVERIFY2(r.error.find(probe.param.describe()) != std::string::npos,
                         r.error.c_str());
        }
    }

    // Each enum key reads every name of its table and refuses others, naming the table's list.
    void readerUsesEnumTables()
    {
        // Keys separated by '|' take the same name (periodic needs both faces of an axis).
        auto check = [](const QString &path, const char *keys, const auto &table,
                        QJsonValue base = baseScene()) {
            const auto with = [&](const char *name) {
                QJsonValue scene = base;
                for (const QString &key : QString(keys).split('|'))
                    scene = setPath(scene, path.split('/') << key, name);
                return scene;
            };
            for (std::size_t i = 0; i < table.size(); ++i) {
                const QJsonValue scene = with(table.names[i]);
                const SceneReadResult r = readSceneJson(QJsonDocument(scene.toObject()).toJson(),
                                                        "probe.plume", ".");
                QVERIFY2(r.ok, r.error.c_str());
            }
            const QJsonValue bad = with("no-such-name");
            const SceneReadResult r = readSceneJson(QJsonDocument(bad.toObject()).toJson(),
                                                    "probe.plume", ".");
            QVERIFY(!r.ok);
            QVERIFY2(r.error.find(table.expected()) != std::string::npos, r.error.c_str());
        };
        check("domain/boundaries", "xmin|xmax", sim::kBoundaryNames);
        // Every scheme runs on a periodic 2D patch without items (the ocean scheme needs one).
        QJsonValue patch = baseScene();
        for (const char *face : {"xmin", "xmax", "ymin", "ymax"})
            patch = setPath(patch, {"domain", "boundaries", face}, "periodic");
        QJsonObject bare = patch.toObject();
        bare.remove("items");
        check("simulation", "scheme", sim::kSchemeNames, bare);
        check("simulation", "advection", sim::kAdvectionOrderNames);
        check("simulation", "velocityAdvection", sim::kAdvectionOrderNames);
        check("simulation", "stamSweep", sim::kSweepOrderNames);
        check("simulation", "stamNumeric", sim::kStamNumericNames);
        check("items/0/emitter", "velocityMode", sim::kEmitterVelocityNames);
        check("items/2/force", "type", sim::kForceTypeNames);
        check("items/2/force/mask", "field", sim::kControlFieldNames);
        check("export/render", "field", sim::kFieldKindNames);
        check("export/render", "colorMap", kColorMapNames);
        check("export/render", "look2d", kLook2DNames);
        check("export/render", "look3d", kLook3DNames);
        check("export/render", "projection", kProjectionNames);
        check("export/render", "toneCurve", kToneCurveNames);
        check("export/render", "framing", kFramingNames);
        check("export/flipbook", "alpha", kAlphaModeNames);
        check("export/images", "emission", kEmissionOutputNames);
        check("export/openvdb", "up", kUpAxisNames);
        check("export/openvdb", "velocityMask", kVelocityMaskNames);
    }

    // The properties panel's spin boxes for the domain and simulation offer the tables' ranges.
    void panelSpinBoxesFollowTables()
    {
        Document document;
        PropertiesPanel panel(&document);
        namespace sp = sim::simParams;
        namespace tp = sim::timeParams;
        checkSpinBoxes(&panel,
                       {domainParams::size,
                        domainParams::origin,
                        domainParams::resolution,
                        tp::frameRate,
                        tp::substeps,
                        tp::cfl,
                        tp::maxSubsteps,
                        simulationParams::frameStart,
                        simulationParams::frameEnd,
                        simulationParams::seed,
                        sp::viscosity,
                        sp::diffusion,
                        sp::densityDissipation,
                        sp::temperatureDissipation,
                        sp::velocityDissipation,
                        sp::up,
                        sp::ambientTemperature,
                        sp::buoyancyDensity,
                        sp::buoyancyTemperature,
                        sp::vorticity,
                        sp::pressureTolerance,
                        sp::pressureMaxIterations,
                        sp::stamIterations,
                        sim::combustionParams::ignitionTemperature,
                        sim::combustionParams::burnRate,
                        sim::combustionParams::heatRelease,
                        sim::combustionParams::smokePerFuel,
                        sim::combustionParams::flameCooling,
                        sim::combustionParams::expansion,
                        sim::oceanParams::windSpeed,
                        sim::oceanParams::windDirection,
                        sim::oceanParams::amplitude,
                        sim::oceanParams::smallWaves,
                        sim::oceanParams::choppiness,
                        sim::oceanParams::loopPeriod,
                        sim::oceanParams::gravity,
                        sim::kTexturePeriod,
                        liquidTextureParams::tiling},
                       3 + 3 + 1 + 4 + 3 + 5 + 3 + 4 + 3 + 6 + 7 + 2);
    }

    // So do the upres editors, named apart from the domain's size and the items' strength.
    void panelUpresSpinBoxesFollowTables()
    {
        Document document;
        PropertiesPanel panel(&document);
        namespace up = sim::upresParams;
        const auto named = [](const char *name, const Param &p) {
            Param renamed = p;
            renamed.key = name;
            return renamed;
        };
        checkSpinBoxes(&panel,
                       {named("upresStrength", up::strength), named("upresSize", up::size),
                        named("upresLifetime", up::lifetime)},
                       3);
        auto *factor = panel.findChild<QSpinBox *>("upresFactor");
        QVERIFY(factor);
        QCOMPARE(factor->minimum(), 1);
        QCOMPARE(factor->maximum(), 4);
    }

    // So do the item editors of a mesh obstacle: item rotation and scale, the model's
    // translation, rotation and scale, and the shell thickness (renamed where keys repeat).
    void panelItemSpinBoxesFollowTables()
    {
        Document document;
        Scene scene;
        Item mesh;
        mesh.name = "model";
        mesh.kind = ItemKind::Obstacle;
        mesh.shape.type = ShapeType::Mesh;
        scene.items.push_back(mesh);
        document.reset(scene, {});
        document.setSelectedItem(0);
        PropertiesPanel panel(&document);
        const auto named = [](const char *name, const Param &p) {
            Param renamed = p;
            renamed.key = name;
            return renamed;
        };
        checkSpinBoxes(&panel,
                       {itemParams::offset, named("itemRotation", itemParams::rotation),
                        named("itemScale", itemParams::scale),
                        named("meshTranslation", shapeParams::meshTranslation),
                        named("meshRotation", shapeParams::meshRotation),
                        named("meshScale", shapeParams::meshScale), shapeParams::thickness},
                       3 + 3 + 3 + 3 + 3 + 3 + 1);
    }

    // So do the export dialog's.
    void exportDialogSpinBoxesFollowTables()
    {
        Document document;
        ExportDialog dialog(&document, 1);
        namespace rp = renderParams;
        namespace fp = flipbookParams;
        const auto named = [&](const char *name, const Param &p) {
            Param renamed = p;
            renamed.key = name;
            return renamed;
        };
        checkSpinBoxes(&dialog,
                       {named("frameWidth", rp::width),
                        named("frameHeight", rp::height),
                        rp::fieldMin,
                        rp::fieldMax,
                        rp::yaw,
                        rp::pitch,
                        rp::fov,
                        rp::zoom,
                        rp::framingPadding,
                        rp::lightDirection,
                        rp::lightColor,
                        rp::lightIntensity,
                        rp::skyColor,
                        rp::groundColor,
                        rp::ambient,
                        rp::smokeColor,
                        rp::densityScale,
                        rp::anisotropy,
                        rp::multipleScattering,
                        rp::emissionIntensity,
                        rp::flameIntensity,
                        rp::emissionScattering,
                        rp::exposure,
                        fp::rows,
                        fp::columns,
                        named("flipbookStep", fp::step),
                        fp::padding,
                        fp::motionRange,
                        fp::loopFrames,
                        named("imageStep", imageParams::step)},
                       18 + 3 + 3 + 1 + 3 + 3 + 1 + 3 + 1 + 1 + 1 + 1 + 1);
    }
};

QTEST_MAIN(TestParams)
#include "tst_params.moc"
