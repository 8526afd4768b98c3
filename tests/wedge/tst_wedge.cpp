// SPDX-License-Identifier: Apache-2.0
// Wedges (core/bake/wedge.h, plume-cli wedge): the values a spec makes, the scenes and the
// manifest written, the refusals, and a variation baked against the same scene edited by hand.
#include <core/bake/wedge.h>
#include <core/io/scenereader.h>
#include <core/io/scenewriter.h>

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <set>

using namespace plume;

namespace {

const QString kCli = PLUME_BINARY_DIR "/bin/plume-cli";
const QString kScenes = PLUME_SOURCE_DIR "/resources/scenes/";

Scene readScene(const QString &path)
{
    SceneReadResult r = readSceneFile(path);
    if (!r.ok)
        qFatal("%s", r.error.c_str());
    return std::move(r.scene);
}

WedgeSpec spec(const QStringList &varies)
{
    WedgeSpec s;
    for (const QString &v : varies) {
        auto axis = parseWedgeAxis(v.toStdString());
        if (!axis)
            qFatal("%s", axis.error().c_str());
        s.axes.push_back(axis.take());
    }
    return s;
}

double number(const WedgeValue &v) { return std::get<double>(v); }

/// The JSON paths where `a` and `b` differ (arrays by index, objects by key).
void differences(const QJsonValue &a, const QJsonValue &b, const QString &path, QStringList &out)
{
    if (a.isObject() && b.isObject()) {
        const QJsonObject oa = a.toObject(), ob = b.toObject();
        QSet<QString> keys;
        for (const QString &k : oa.keys())
            keys.insert(k);
        for (const QString &k : ob.keys())
            keys.insert(k);
        for (const QString &k : keys)
            differences(oa.value(k), ob.value(k), path.isEmpty() ? k : path + "." + k, out);
        return;
    }
    if (a.isArray() && b.isArray() && a.toArray().size() == b.toArray().size()) {
        for (int n = 0; n < int(a.toArray().size()); ++n)
            differences(a.toArray()[n], b.toArray()[n], path + QString("[%1]").arg(n), out);
        return;
    }
    if (a != b)
        out << path;
}

QJsonObject jsonOf(const QByteArray &bytes) { return QJsonDocument::fromJson(bytes).object(); }

QByteArray fileBytes(const QString &path)
{
    QFile f(path);
    f.open(QIODevice::ReadOnly);
    return f.readAll();
}

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

Run run(const QStringList &args)
{
    QProcess p;
    p.start(kCli, args);
    if (!p.waitForFinished(300000))
        qFatal("plume-cli did not finish: %s", qPrintable(args.join(' ')));
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

/// A small, fast copy of an example scene: `resolution` cells, frames 1..`frames`.
QString smallScene(const QString &dir, const QString &example, int resolution, int frames)
{
    QString text = QString::fromUtf8(fileBytes(kScenes + example + ".plume"));
    text.replace(QRegularExpression("\"resolution\": \\d+"),
                 QString("\"resolution\": %1").arg(resolution));
    text.replace(QRegularExpression("\"frameEnd\": \\d+"), QString("\"frameEnd\": %1").arg(frames));
    const QString path = QDir(dir).filePath(example + ".plume");
    QFile out(path);
    out.open(QIODevice::WriteOnly);
    out.write(text.toUtf8());
    return path;
}

/// Every file below `dir` (relative path -> bytes).
QMap<QString, QByteArray> filesBelow(const QString &dir)
{
    QMap<QString, QByteArray> files;
    QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        files.insert(QDir(dir).relativeFilePath(path), fileBytes(path));
    }
    return files;
}

} // namespace

class TestWedge : public QObject
{
    Q_OBJECT

private slots:
    void rangeValuesAreExact_data();
    void rangeValuesAreExact();
    void productOrder();
    void randomIsDeterministicAndInRange();
    void syntaxRefused_data();
    void syntaxRefused();
    void tooManyVariations();
    void sceneRefusals_data();
    void sceneRefusals();
    void scenesDifferOnlyAtTheKeys();
    void randomWedgeOfIntegerKey();
    void animatedValueIsReplaced();
    void manifestRoundTrips();
    void manifestRefusals_data();
    void manifestRefusals();
    void relativeFilesStillResolve_data();
    void relativeFilesStillResolve();
    void keysForPickers();
    void cli();
    void bakedVariationMatchesHandEdit();
};

void TestWedge::rangeValuesAreExact_data()
{
    QTest::addColumn<QString>("values");
    QTest::addColumn<QList<double>>("expected");
    QTest::newRow("integers") << "4:12:3" << QList<double>{4, 8, 12};
    QTest::newRow("tenths") << "0.1:0.4:4" << QList<double>{0.1, 0.2, 0.3, 0.4};
    QTest::newRow("half") << "0:1:3" << QList<double>{0, 0.5, 1};
    QTest::newRow("negative") << "-1:1:5" << QList<double>{-1, -0.5, 0, 0.5, 1};
    QTest::newRow("descending") << "1:0:5" << QList<double>{1, 0.75, 0.5, 0.25, 0};
    QTest::newRow("one") << "2.5:7:1" << QList<double>{2.5};
    QTest::newRow("list") << "0.1, 0.2,0.4" << QList<double>{0.1, 0.2, 0.4};
}

void TestWedge::rangeValuesAreExact()
{
    QFETCH(QString, values);
    QFETCH(QList<double>, expected);
    const auto axis = parseWedgeValues("simulation.vorticity", values.toStdString());
    QVERIFY2(axis, axis.error().c_str());
    const std::vector<WedgeValue> got = axis->values();
    QCOMPARE(int(got.size()), int(expected.size()));
    for (int n = 0; n < int(got.size()); ++n)
        QCOMPARE(number(got[n]), expected[n]); // exactly the double the literal is
}

void TestWedge::productOrder()
{
    const WedgeSpec s = spec({"simulation.vorticity=0.1,0.2,0.4", "a.b=4:12:3", "a.c=x,true"});
    QCOMPARE(wedgeCount(s), 18LL);
    const auto made = wedgeValues(s);
    QVERIFY2(made, made.error().c_str());
    const std::vector<std::vector<WedgeValue>> &rows = made.value();
    QCOMPARE(int(rows.size()), 18);
    // The last key varies fastest.
    QCOMPARE(number(rows[0][0]), 0.1);
    QCOMPARE(number(rows[0][1]), 4.0);
    QCOMPARE(std::get<std::string>(rows[0][2]), std::string("x"));
    QCOMPARE(std::get<bool>(rows[1][2]), true);
    QCOMPARE(number(rows[2][1]), 8.0);
    QCOMPARE(number(rows[17][0]), 0.4);
    QCOMPARE(number(rows[17][1]), 12.0);
    std::set<std::string> distinct;
    for (const auto &row : rows) {
        std::string text;
        for (const WedgeValue &v : row)
            text += formatWedgeValue(v) + "|";
        distinct.insert(text);
    }
    QCOMPARE(int(distinct.size()), 18);
}

void TestWedge::randomIsDeterministicAndInRange()
{
    WedgeSpec s = spec({"simulation.vorticity=0.25:0.75", "domain.resolution=16:64",
                        "simulation.advection=linear,cubic,bfecc"});
    s.axes[1].integral = true;
    s.random = WedgeRandom{200, 7};
    const auto madeA = wedgeValues(s);
    const auto madeB = wedgeValues(s);
    QVERIFY2(madeA && madeB, madeA.error().c_str());
    const std::vector<std::vector<WedgeValue>> &a = madeA.value();
    QCOMPARE(int(a.size()), 200);
    QVERIFY(a == madeB.value());
    s.random->seed = 8;
    const auto madeC = wedgeValues(s);
    QVERIFY(madeC);
    QVERIFY(a != madeC.value());
    std::set<std::string> picked;
    std::set<double> resolutions;
    for (const auto &row : a) {
        QVERIFY(number(row[0]) >= 0.25 && number(row[0]) <= 0.75);
        const double r = number(row[1]);
        QVERIFY(r >= 16 && r <= 64 && r == std::floor(r));
        resolutions.insert(r);
        picked.insert(std::get<std::string>(row[2]));
    }
    QCOMPARE(int(picked.size()), 3);
    QVERIFY(resolutions.count(16) && resolutions.count(64)); // both ends reachable
    // The same numbers on every platform: mt19937_64 and our own mapping (6 digits).
    QCOMPARE(number(a[0][0]), 0.627193);
    // A random wedge may draw from A:B without a count, a product may not.
    WedgeSpec product = spec({"simulation.vorticity=0:1"});
    const std::string error = wedgeValues(product).error();
    QVERIFY2(QString::fromStdString(error).contains("needs a count"), error.c_str());
}

void TestWedge::syntaxRefused_data()
{
    QTest::addColumn<QString>("vary");
    QTest::addColumn<QString>("message");
    QTest::newRow("no equals") << "simulation.vorticity"
                               << "is not KEY=VALUES";
    QTest::newRow("empty key") << "=1"
                               << "an empty key";
    QTest::newRow("double dot") << "simulation..vorticity=1"
                                << "expected a name";
    QTest::newRow("open bracket") << "items[charge.emitter.fuel=1"
                                  << "'[' without ']'";
    QTest::newRow("empty brackets") << "items[].emitter.fuel=1"
                                    << "empty brackets";
    QTest::newRow("no values") << "simulation.vorticity="
                               << "no values";
    QTest::newRow("empty value") << "simulation.vorticity=1,,2"
                                 << "an empty value";
    QTest::newRow("mixed") << "simulation.vorticity=1,2:3:2"
                           << "mixes a list and a range";
    QTest::newRow("bad count") << "simulation.vorticity=0:1:x"
                               << "N an integer";
    QTest::newRow("fraction count") << "simulation.vorticity=0:1:2.5"
                                    << "N an integer";
    QTest::newRow("bad end") << "simulation.vorticity=0:b:3"
                             << "A and B numbers";
    QTest::newRow("nan") << "simulation.vorticity=nan:1:3"
                         << "A and B numbers";
}

void TestWedge::syntaxRefused()
{
    QFETCH(QString, vary);
    QFETCH(QString, message);
    const auto axis = parseWedgeAxis(vary.toStdString());
    QVERIFY(!axis);
    const std::string &error = axis.error();
    QVERIFY2(QString::fromStdString(error).contains(message), error.c_str());
}

void TestWedge::tooManyVariations()
{
    const WedgeSpec s = spec({"simulation.vorticity=0:1:40", "domain.resolution=8:100:30"});
    QCOMPARE(wedgeCount(s), -1LL);
    std::string error = wedgeValues(s).error();
    QVERIFY2(QString::fromStdString(error).contains("1200 variations (40 x 30)"), error.c_str());
    QVERIFY2(QString::fromStdString(error).contains("at most 1000"), error.c_str());
    WedgeSpec random = spec({"simulation.vorticity=0:1"});
    random.random = WedgeRandom{kMaxWedgeVariations + 1, 0};
    error = wedgeValues(random).error();
    QVERIFY2(QString::fromStdString(error).contains("1001 variations"), error.c_str());
    const Scene scene = readScene(kScenes + "explosion-3d.plume");
    QVERIFY(QString::fromStdString(checkWedge(scene, s, "explosion-3d.plume").error)
                .contains("(kMaxWedgeVariations)"));
}

void TestWedge::sceneRefusals_data()
{
    QTest::addColumn<QStringList>("varies");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown key")
        << QStringList{"simulation.vorticty=1"}
        << "simulation.vorticty: no such key in this scene (the reader does not read "
           "simulation.vorticty; docs/scene-format.md";
    QTest::newRow("unknown section")
        << QStringList{"simulation.bogus.size=1"}
        << "simulation.bogus.size: no such key in this scene (the reader does not read "
           "simulation.bogus";
    QTest::newRow("section of another kind")
        << QStringList{"items[charge].obstacle.noSlip=true"}
        << "items[charge].obstacle.noSlip: no such key in this scene (the reader does not read "
           "items[0].obstacle;";
    QTest::newRow("unknown item") << QStringList{"items[chrge].emitter.fuel=1"}
                                  << "items[chrge].emitter.fuel: no element of items is named "
                                     "'chrge' (names: charge, billows, smoke billows)";
    QTest::newRow("index out of range")
        << QStringList{"items[3].emitter.fuel=1"}
        << "items[3].emitter.fuel: index 3 is out of range: items has 3 elements";
    QTest::newRow("not an array") << QStringList{"simulation[0]=1"} << "simulation is not an array";
    QTest::newRow("below range")
        << QStringList{"simulation.vorticity=0.1,-1"}
        << "simulation.vorticity = -1: explosion-3d.plume: simulation.vorticity: expected a "
           "number >= 0, got number -1";
    QTest::newRow("item value out of range")
        << QStringList{"items[charge].emitter.fuel=4:-4:3"}
        << "items[charge].emitter.fuel = -4: explosion-3d.plume: items[0].emitter.fuel: "
           "expected a number >= 0, got number -4";
    QTest::newRow("integer key")
        << QStringList{"domain.resolution=16,20.5"}
        << "domain.resolution: expected an integer in [8, 16384], got number 20.5";
    QTest::newRow("enum") << QStringList{"simulation.advection=linear,fast"}
                          << "simulation.advection: expected one of";
    QTest::newRow("random range end")
        << QStringList{"simulation.substeps=1:2000"} << "simulation.substeps: expected an integer";
    QTest::newRow("same key twice")
        << QStringList{"simulation.vorticity=1", "simulation.vorticity=2"} << "varied twice";
    QTest::newRow("same value twice")
        << QStringList{"items[charge].emitter.fuel=1", "items[0].emitter.fuel=2"}
        << "which another key of the wedge sets too";
}

void TestWedge::sceneRefusals()
{
    QFETCH(QStringList, varies);
    QFETCH(QString, message);
    const Scene scene = readScene(kScenes + "explosion-3d.plume");
    WedgeSpec s = spec(varies);
    if (QString(QTest::currentDataTag()).startsWith("random"))
        s.random = WedgeRandom{3, 1};
    QTemporaryDir dir;
    // The check and the plan refuse alike (the plan names the variation too).
    const std::string checked = checkWedge(scene, s, "explosion-3d.plume").error;
    QVERIFY2(QString::fromStdString(checked).contains(message), checked.c_str());
    const auto planned = planWedge(scene, "", "explosion-3d", s, dir.path().toStdString());
    QVERIFY(!planned);
    QVERIFY2(QString::fromStdString(planned.error()).contains(message), planned.error().c_str());
}

void TestWedge::scenesDifferOnlyAtTheKeys()
{
    const Scene scene = readScene(kScenes + "explosion-3d.plume");
    const WedgeSpec s = spec({"simulation.vorticity=0.1,0.2,0.4",
                              "items[charge].emitter.fuel=4:12:3", "simulation.advection=bfecc",
                              "items[charge].offset[1]=0.05"});
    QTemporaryDir dir;
    const std::string out = dir.filePath("wedge").toStdString();
    QCOMPARE(checkWedge(scene, s, "explosion-3d.plume").error, std::string());
    const auto planned = planWedge(scene, "/x/explosion-3d.plume", "explosion-3d", s, out);
    QVERIFY2(planned, planned.error().c_str());
    const WedgePlan &plan = planned.value();
    QVERIFY(writeWedge(plan, "explosion-3d", out).ok());
    const QJsonObject source = jsonOf(sceneToJson(scene, out));
    QCOMPARE(int(plan.manifest.variations.size()), 9);
    for (const WedgeVariation &v : plan.manifest.variations) {
        const QString path =
            QDir(QString::fromStdString(out)).filePath(QString::fromStdString(v.scene));
        QCOMPARE(QString::fromStdString(v.scene), QString::fromStdString(v.name) + ".plume");
        const Scene varied = readScene(path);
        QStringList diff;
        differences(source, jsonOf(fileBytes(path)), "", diff);
        diff.sort();
        QStringList expected{"simulation.advection", "items[0].offset[1]"};
        const double vorticity = number(v.values[0].second), fuel = number(v.values[1].second);
        if (float(vorticity) != scene.simulation.params.vorticity)
            expected << "simulation.vorticity";
        if (float(fuel) != scene.items[0].emitter.fuel)
            expected << "items[0].emitter.fuel";
        expected.sort();
        QCOMPARE(diff, expected);
        QCOMPARE(varied.simulation.params.vorticity, float(vorticity));
        QCOMPARE(varied.items[0].emitter.fuel, float(fuel));
        QCOMPARE(varied.items[0].offset.value[1], 0.05f);
        // The plan's scene is the file's.
        QVERIFY(varied == plan.scenes[std::size_t(v.index)]);
    }
}

void TestWedge::randomWedgeOfIntegerKey()
{
    const Scene scene = readScene(kScenes + "explosion-3d.plume");
    WedgeSpec s = spec({"domain.resolution=16:24", "simulation.vorticity=0:1"});
    s.random = WedgeRandom{20, 3};
    QTemporaryDir dir;
    const auto planned = planWedge(scene, "", "explosion-3d", s, dir.path().toStdString());
    QVERIFY2(planned, planned.error().c_str());
    const WedgePlan &plan = planned.value();
    bool fraction = false;
    for (std::size_t k = 0; k < plan.scenes.size(); ++k) {
        const double r = number(plan.manifest.variations[k].values[0].second);
        QVERIFY(r == std::floor(r) && r >= 16 && r <= 24);
        QCOMPARE(plan.scenes[k].domain.resolution, int(r));
        const double v = number(plan.manifest.variations[k].values[1].second);
        fraction = fraction || v != std::floor(v);
    }
    QVERIFY(fraction); // 0:1 on a float key draws fractions
}

void TestWedge::animatedValueIsReplaced()
{
    Scene scene = readScene(kScenes + "explosion-3d.plume");
    scene.items[0].emitter.rate.keys = {{.frame = 1, .value = 0.f}, {.frame = 10, .value = 2.f}};
    const SceneReadResult r = applyWedgeValues(scene, {{"items[charge].emitter.rate", 0.5}},
                                               scene.directory, "x.plume");
    QVERIFY2(r.ok, r.error.c_str());
    QVERIFY(r.scene.items[0].emitter.rate.keys.empty());
    QCOMPARE(r.scene.items[0].emitter.rate.value, 0.5f);
    // A key of the animation is a key too.
    const SceneReadResult k = applyWedgeValues(scene,
                                               {{"items[charge].emitter.rate.keys[1].value", 3.0}},
                                               scene.directory, "x.plume");
    QVERIFY2(k.ok, k.error.c_str());
    QCOMPARE(k.scene.items[0].emitter.rate.keys.size(), std::size_t(2));
    QCOMPARE(k.scene.items[0].emitter.rate.keys[1].value, 3.f);
}

void TestWedge::manifestRoundTrips()
{
    const Scene scene = readScene(kScenes + "explosion-3d.plume");
    for (bool random : {false, true}) {
        WedgeSpec s = spec({"simulation.vorticity=0.1:0.3:3", "simulation.advection=linear,cubic",
                            "items[charge].emitter.ignite=true,false"});
        if (random)
            s.random = WedgeRandom{5, 4294967295u};
        QTemporaryDir dir;
        const std::string out = dir.path().toStdString();
        const auto planned = planWedge(scene, "/abs/explosion-3d.plume", "explosion-3d", s, out);
        QVERIFY2(planned, planned.error().c_str());
        const WedgePlan &plan = planned.value();
        QVERIFY(writeWedge(plan, "explosion-3d", out).ok());
        const QString path = wedgeManifestPath(out, "explosion-3d");
        QCOMPARE(path, dir.filePath("explosion-3d_wedge.json"));
        const auto read = readWedgeManifest(path);
        QVERIFY2(read, read.error().c_str());
        QVERIFY(read.value() == plan.manifest);
        // The documented form.
        const QJsonObject json = jsonOf(fileBytes(path));
        QCOMPARE(json.value("format").toString(), QString("plume-wedge"));
        QCOMPARE(json.value("version").toInt(), 1);
        QCOMPARE(json.value("source").toString(), QString("/abs/explosion-3d.plume"));
        QCOMPARE(json.value("keys").toArray().size(), 3);
        if (random) {
            QCOMPARE(json.value("random").toObject().value("count").toInt(), 5);
            QCOMPARE(json.value("random").toObject().value("seed").toDouble(), 4294967295.0);
        } else {
            QVERIFY(json.value("random").isNull());
        }
        const QJsonArray variations = json.value("variations").toArray();
        QCOMPARE(variations.size(), random ? 5 : 12);
        const QJsonObject first = variations[1].toObject();
        QCOMPARE(first.value("index").toInt(), 1);
        QCOMPARE(first.value("name").toString(), QString("explosion-3d_w1"));
        QCOMPARE(first.value("scene").toString(), QString("explosion-3d_w1.plume"));
        QVERIFY(QFile::exists(dir.filePath(first.value("scene").toString())));
        if (!random) {
            const QJsonObject values = first.value("values").toObject();
            QCOMPARE(values.value("simulation.vorticity").toDouble(), 0.1);
            QCOMPARE(values.value("simulation.advection").toString(), QString("linear"));
            QCOMPARE(values.value("items[charge].emitter.ignite").toBool(), false);
        }
        // Written again: the same bytes.
        QCOMPARE(wedgeManifestToJson(read.value()), fileBytes(path));
    }
}

void TestWedge::manifestRefusals_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    const QString head = R"({"format": "plume-wedge", "version": 1, "source": "/a.plume", )";
    QTest::newRow("format") << R"({"format": "plume-scene", "version": 1})"
                            << "format: expected \"plume-wedge\"";
    QTest::newRow("newer") << R"({"format": "plume-wedge", "version": 2})"
                           << "version: format version 2 is newer";
    QTest::newRow("syntax") << "{\"format\": "
                            << "line 1, column";
    QTest::newRow("no keys") << head + R"("keys": [], "random": null, "variations": []})"
                             << "keys: expected a non-empty array";
    QTest::newRow("random") << head + R"("keys": ["a.b"], "random": {"count": 0, "seed": 1},
                                         "variations": []})"
                            << "random.count: expected an integer in [1, 1000]";
    QTest::newRow("index") << head + R"("keys": ["a.b"], "random": null, "variations": [
                                        {"index": 1, "name": "s_w0", "scene": "s_w0.plume",
                                         "values": {"a.b": 1}}]})"
                           << "variations[0].index: expected 0";
    QTest::newRow("missing value")
        << head + R"("keys": ["a.b", "c"], "random": null, "variations": [
                     {"index": 0, "name": "s_w0", "scene": "s_w0.plume", "values": {"a.b": 1}}]})"
        << "variations[0].values.c: expected a number, a boolean or a string, got";
    QTest::newRow("stray value") << head + R"("keys": ["a.b"], "random": null, "variations": [
                     {"index": 0, "name": "s_w0", "scene": "s_w0.plume",
                      "values": {"a.b": 1, "x": 2}}]})"
                                 << "variations[0].values.x: expected one of the keys";
    QTest::newRow("absolute scene") << head + R"("keys": ["a.b"], "random": null, "variations": [
                     {"index": 0, "name": "s_w0", "scene": "/s_w0.plume", "values": {"a.b": 1}}]})"
                                    << "variations[0].scene: expected a scene file relative";
    QTest::newRow("random count")
        << head + R"("keys": ["a.b"], "random": {"count": 2, "seed": 0}, "variations": [
                     {"index": 0, "name": "s_w0", "scene": "s_w0.plume", "values": {"a.b": 1}}]})"
        << "variations: expected random.count = 2 variations";
}

void TestWedge::manifestRefusals()
{
    QFETCH(QString, text);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const QString path = dir.filePath("bad_wedge.json");
    QFile f(path);
    f.open(QIODevice::WriteOnly);
    f.write(text.toUtf8());
    f.close();
    const std::string error = readWedgeManifest(path).error();
    QVERIFY2(QString::fromStdString(error).startsWith(path + ": "), error.c_str());
    QVERIFY2(QString::fromStdString(error).contains(message), error.c_str());
}

void TestWedge::relativeFilesStillResolve_data()
{
    QTest::addColumn<QString>("example");
    QTest::addColumn<QString>("vary");
    QTest::newRow("mesh") << "knot-smoke-3d"
                          << "simulation.vorticity=0.1,0.3";
    QTest::newRow("texture") << "lava-2d"
                             << "simulation.liquidTexture.tiling=1,2";
}

void TestWedge::relativeFilesStillResolve()
{
    QFETCH(QString, example);
    QFETCH(QString, vary);
    const Scene scene = readScene(kScenes + example + ".plume");
    QTemporaryDir dir;
    const std::string out = dir.filePath("deeper/wedge").toStdString();
    const auto planned = planWedge(scene, "", example.toStdString(), spec({vary}), out);
    QVERIFY2(planned, planned.error().c_str());
    const WedgePlan &plan = planned.value();
    QVERIFY(writeWedge(plan, example.toStdString(), out).ok());
    for (const WedgeVariation &v : plan.manifest.variations) {
        const QString path =
            QDir(QString::fromStdString(out)).filePath(QString::fromStdString(v.scene));
        const SceneReadResult r = readSceneFile(path);
        QVERIFY2(r.ok, r.error.c_str());
        // Written relative to the wedge's folder, not absolute and not as in the source.
        const QByteArray text = fileBytes(path);
        QVERIFY2(text.contains("\"file\": \"../../"), text.constData());
    }
}

void TestWedge::keysForPickers()
{
    const Scene scene = readScene(kScenes + "explosion-3d.plume");
    const std::vector<std::string> keys = wedgeKeys(scene);
    const auto has = [&](const char *k) {
        return std::find(keys.begin(), keys.end(), std::string(k)) != keys.end();
    };
    QVERIFY(has("simulation.vorticity"));
    QVERIFY(has("domain.resolution"));
    QVERIFY(has("items[charge].emitter.fuel"));
    QVERIFY(has("items[charge].emitter.velocity[1]"));
    QVERIFY(!has("version"));
    // Every key offered is one the wedge takes.
    for (const std::string &key : keys) {
        const SceneReadResult r = applyWedgeValues(scene, {{key, 1.0}}, scene.directory, "k");
        QVERIFY2(r.ok || !QString::fromStdString(r.error).contains("no such key"), r.error.c_str());
    }
}

void TestWedge::cli()
{
    QTemporaryDir dir;
    const QString scene = smallScene(dir.path(), "explosion-3d", 16, 2);
    const QString out = dir.filePath("out");
    Run r = run({"wedge", scene, "-o", out, "--vary", "simulation.vorticity=0.1,0.2,0.4", "--vary",
                 "items[charge].emitter.fuel=4:12:3"});
    QCOMPARE(r.exitCode, 0);
    const QStringList lines = r.out.split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 10);
    QCOMPARE(lines[0], QString("explosion-3d_w0  simulation.vorticity=0.1  "
                               "items[charge].emitter.fuel=4"));
    QCOMPARE(lines[8], QString("explosion-3d_w8  simulation.vorticity=0.4  "
                               "items[charge].emitter.fuel=12"));
    QVERIFY(QFile::exists(out + "/explosion-3d_w8.plume"));
    auto read = readWedgeManifest(out + "/explosion-3d_wedge.json");
    QVERIFY2(read, read.error().c_str());
    WedgeManifest m = read.take();
    QCOMPARE(QString::fromStdString(m.source), QFileInfo(scene).absoluteFilePath());
    QCOMPARE(int(m.variations.size()), 9);

    r = run({"wedge", scene, "-o", out, "--vary", "simulation.vorticity=0:1", "--random", "4",
             "--seed", "9", "--quiet"});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.isEmpty());
    read = readWedgeManifest(out + "/explosion-3d_wedge.json");
    QVERIFY(read);
    m = read.take();
    QCOMPARE(m.random, std::optional<WedgeRandom>(WedgeRandom{4, 9}));

    const struct
    {
        QStringList args;
        const char *message;
    } refused[] = {
        {{"--vary", "simulation.vorticity=-1"}, "simulation.vorticity: expected a number >= 0"},
        {{"--vary", "items[nope].emitter.fuel=1"}, "no element of items is named 'nope'"},
        {{"--vary", "simulation.vorticty=1"}, "no such key"},
        {{"--vary", "simulation.vorticity"}, "is not KEY=VALUES"},
        {{"--vary", "simulation.vorticity=0:1:40", "--vary", "domain.resolution=8:100:30"},
         "1200 variations"},
        {{"--vary", "simulation.vorticity=1", "--seed", "3"}, "--seed goes with --random"},
        {{"--vary", "simulation.vorticity=1", "--random", "1001"}, "--random must be"},
        {{}, "at least one --vary"},
    };
    for (const auto &c : refused) {
        r = run(QStringList{"wedge", scene, "-o", dir.filePath("refused")} + c.args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(c.message), qPrintable(r.err));
    }
    QVERIFY(!QDir(dir.filePath("refused")).exists()); // nothing written when refused
    // A folder that cannot be made: a failure while running.
    QFile blocker(dir.filePath("blocker"));
    QVERIFY(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    r = run(
        {"wedge", scene, "-o", dir.filePath("blocker/out"), "--vary", "simulation.vorticity=1"});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("cannot create the folder"), qPrintable(r.err));
    r = run({"wedge", scene, "--vary", "simulation.vorticity=1"});
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.err.contains("-o DIR"));
    r = run({"--help"});
    QVERIFY(r.out.contains("wedge"));
    r = run({"wedge", "--help"});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.contains("--vary"));
}

// A variation baked gives the same bytes as the source scene edited by hand and baked under
// the same file name.
void TestWedge::bakedVariationMatchesHandEdit()
{
    QTemporaryDir dir;
    const QString scene = smallScene(dir.path(), "plume-2d", 32, 4);
    const QString out = dir.filePath("wedge");
    Run r = run({"wedge", scene, "-o", out, "--vary", "simulation.vorticity=0.35", "--vary",
                 "items[source].emitter.temperature=9", "--quiet"});
    QCOMPARE(r.exitCode, 0);
    r = run({"bake", out + "/plume-2d_w0.plume", "-o", dir.filePath("bake-wedge"), "--quiet"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));

    Scene edited = readScene(scene);
    edited.simulation.params.vorticity = 0.35f;
    Item *source = nullptr;
    for (Item &item : edited.items)
        source = item.name == "source" ? &item : source;
    QVERIFY(source);
    source->emitter.temperature = 9.f;
    QDir(dir.path()).mkdir("hand");
    const QString hand = dir.filePath("hand/plume-2d_w0.plume");
    QVERIFY(writeSceneFile(edited, hand).ok());
    r = run({"bake", hand, "-o", dir.filePath("bake-hand"), "--quiet"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));

    QCOMPARE(fileBytes(out + "/plume-2d_w0.plume"), fileBytes(hand));
    const QMap<QString, QByteArray> a = filesBelow(dir.filePath("bake-wedge"));
    const QMap<QString, QByteArray> b = filesBelow(dir.filePath("bake-hand"));
    QVERIFY(a.size() >= 4);
    QCOMPARE(a.keys(), b.keys());
    for (const QString &name : a.keys())
        QVERIFY2(a[name] == b[name], qPrintable(name));
    // And it differs from the source scene's bake.
    r = run({"bake", scene, "-o", dir.filePath("bake-source"), "--quiet"});
    QCOMPARE(r.exitCode, 0);
    const QString frame = "plume-2d_w0.0004.vdb";
    QVERIFY(a.contains(frame));
    QVERIFY(fileBytes(dir.filePath("bake-source/plume-2d.0004.vdb")) != a[frame]);
}

QTEST_GUILESS_MAIN(TestWedge)
#include "tst_wedge.moc"
