// SPDX-License-Identifier: Apache-2.0
// core/farm: the Slurm scripts (what a dry run prints), the site config and its refusals, the
// wedge manifest, farm status on hand-made folders and the OpenJD template against its
// specification. tests/farm/slurm-farm.sh runs a real cluster. Past 800 lines because the
// template checks follow the specification section by section; they stay next to the test
// that uses them.
#include <core/farm/farmconfig.h>
#include <core/farm/farmplan.h>
#include <core/farm/farmrecord.h>
#include <core/farm/farmstatus.h>
#include <core/farm/farmwedge.h>
#include <core/farm/openjdtemplate.h>
#include <core/farm/slurmjobs.h>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

using namespace plume;

namespace {

QJsonObject readJson(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

bool writeText(const QString &path, const QByteArray &text)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
}

bool writeJson(const QString &path, const QJsonObject &o)
{
    return writeText(path, QJsonDocument(o).toJson());
}

/// A wedge of `count` variations of tests/farm/farm-smoke.plume (12 frames, a flipbook unless
/// `flipbook` is false) in `dir`; returns the manifest's path.
QString makeWedge(const QString &dir, int count, bool flipbook)
{
    QJsonObject scene = readJson(QString(PLUME_SOURCE_DIR) + "/tests/farm/farm-smoke.plume");
    QJsonObject exports = scene.value("export").toObject();
    QJsonObject fb = exports.value("flipbook").toObject();
    fb.insert("enabled", flipbook);
    exports.insert("flipbook", fb);
    scene.insert("export", exports);
    QJsonArray variations;
    for (int k = 0; k < count; ++k) {
        QJsonObject sim = scene.value("simulation").toObject();
        sim.insert("vorticity", 0.1 * (k + 1));
        scene.insert("simulation", sim);
        const QString name = QString("smoke_w%1").arg(k);
        if (!writeJson(dir + "/" + name + ".plume", scene))
            return {};
        variations.append(
            QJsonObject{{"index", k},
                        {"name", name},
                        {"scene", name + ".plume"},
                        {"values", QJsonObject{{"simulation.vorticity", 0.1 * (k + 1)}}}});
    }
    const QString manifest = dir + "/smoke_wedge.json";
    writeJson(manifest, {{"format", "plume-wedge"},
                         {"version", 1},
                         {"source", dir + "/smoke.plume"},
                         {"keys", QJsonArray{"simulation.vorticity"}},
                         {"random", QJsonValue()},
                         {"variations", variations}});
    return manifest;
}

/// The #SBATCH lines of a script.
QStringList sbatchLines(const QString &script)
{
    QStringList out;
    for (const QString &line : script.split('\n')) {
        if (line.startsWith("#SBATCH "))
            out << line.mid(8);
    }
    return out;
}

} // namespace

class TestFarm : public QObject
{
    Q_OBJECT

private slots:
    void slurmChain();
    void slurmWithoutRenders();
    void siteOptions();
    void sbatchIds_data();
    void sbatchIds();
    void configRefused_data();
    void configRefused();
    void configPaths();
    void slurmTimes_data();
    void slurmTimes();
    void manifestRefused_data();
    void manifestRefused();
    void planRefused();
    void record();
    void statusOfFolders();
    void statusRefusesOtherFolders();
    void logLine_data();
    void logLine();
    void shellQuoting_data();
    void shellQuoting();
    void openJdAgainstSpecification();
    void openJdWithoutRenders();
    void commandLine();
};

void TestFarm::slurmChain()
{
    QTemporaryDir dir;
    const QString manifest = makeWedge(dir.path(), 4, true);
    FarmConfig config;
    config.framesPerTask = 5;
    FarmPlan plan;
    const sim::Status st = planFarm(manifest, dir.filePath("out"), config, "/opt/plume/plume-cli",
                                    plan);
    QVERIFY2(st.ok(), st.error.c_str());
    QCOMPARE(plan.variations.size(), 4);
    QVERIFY(plan.renders());
    // 12 frames in chunks of 5: 1-5, 6-10, 11-12.
    QCOMPARE(plan.variations[2].chunks.size(), 3);
    QCOMPARE(plan.variations[2].chunks[2].first, 11);
    QCOMPARE(plan.variations[2].chunks[2].last, 12);
    QCOMPARE(plan.variations[1].folder, QDir(dir.filePath("out")).filePath("smoke_w1"));
    QCOMPARE(plan.variations[1].atlas, QString("smoke_w1_flipbook"));

    const QVector<SlurmJob> jobs = slurmJobs(plan);
    QCOMPARE(jobs.size(), 3);
    const QString out = plan.output;
    // simulate: one task per variation, requeued before its time limit, resumed.
    const QString &sim = jobs[0].script;
    QCOMPARE(jobs[0].step, FarmStep::Simulate);
    QCOMPARE(jobs[0].scriptPath, out + "/.plume-farm/simulate.sh");
    QCOMPARE(jobs[0].tasks, 4);
    const QStringList simLines = sbatchLines(sim);
    QVERIFY(simLines.contains("--array=0-3"));
    QVERIFY(simLines.contains("--requeue"));
    QVERIFY(simLines.contains("--signal=B:USR1@120"));
    QVERIFY(simLines.contains("--cpus-per-task=1"));
    QVERIFY(simLines.contains("--open-mode=append"));
    QVERIFY(simLines.contains("--output=" + out + "/.plume-farm/logs/simulate.%a.log"));
    QVERIFY(sim.startsWith("#!/bin/bash\n"));
    QVERIFY(sim.contains("threads=${SLURM_CPUS_PER_TASK:-1}"));
    QVERIFY(sim.contains("plume_cli=/opt/plume/plume-cli\n"));
    QVERIFY(sim.contains(QString("3) out=%1/smoke_w3\n").arg(out)));
    QVERIFY(sim.contains(QString("cmd=(\"$plume_cli\" bake %1/smoke_w3.plume -o %2/smoke_w3 "
                                 "--cache-only --checkpoint-every 5 --threads \"$threads\")")
                             .arg(dir.path(), out)));
    QVERIFY(sim.contains("if [ -f \"$out/.plume-bake/bake.json\" ]; then cmd+=(--resume); fi"));
    QVERIFY(sim.contains("trap 'stop \"the time limit is near (USR1)\"' USR1"));
    QVERIFY(sim.contains("kill -TERM \"$child\""));
    QVERIFY(sim.contains("scontrol requeue \"${SLURM_ARRAY_JOB_ID}_${task}\""));
    QVERIFY(sim.contains("$farm/tasks/$step.$task"));
    // Slurm ending the task (scancel, a requeue from outside) stops plume-cli between frames too.
    QVERIFY(sim.contains("trap 'stop \"Slurm stops the task (TERM)\"' TERM"));
    // Submitted --again, a task that finished is not run twice.
    QVERIFY(
        sim.contains("if [ \"$(cat \"$farm/tasks/$step.$task\" 2>/dev/null)\" = done ] && [ ! -e "
                     "\"$out/.plume-bake\" ]; then"));

    // render: every variation's chunks, after the simulation.
    const QString &render = jobs[1].script;
    QCOMPARE(jobs[1].tasks, 12);
    const QStringList renderLines = sbatchLines(render);
    QVERIFY(renderLines.contains("--array=0-11"));
    QVERIFY(renderLines.contains("--kill-on-invalid-dep=yes"));
    QVERIFY(!renderLines.join(' ').contains("--signal"));
    QVERIFY(render.contains(QString("11) out=%1/smoke_w3\n   cmd=(\"$plume_cli\" bake "
                                    "%2/smoke_w3.plume --from-cache %1/smoke_w3 -o %1/smoke_w3 "
                                    "--chunk 11:12 --threads \"$threads\")")
                                .arg(out, dir.path())));
    QVERIFY(!render.contains("--resume"));
    QVERIFY(!render.contains("scontrol requeue"));

    // pack: one task per variation, without --chunk.
    const QString &pack = jobs[2].script;
    QCOMPARE(jobs[2].tasks, 4);
    QVERIFY(sbatchLines(pack).contains("--array=0-3"));
    QVERIFY(pack.contains(QString("0) out=%1/smoke_w0\n   cmd=(\"$plume_cli\" bake "
                                  "%2/smoke_w0.plume --from-cache %1/smoke_w0 -o %1/smoke_w0 "
                                  "--threads \"$threads\")")
                              .arg(out, dir.path())));

    // The chain: each step afterok on the one before.
    QCOMPARE(sbatchArguments(jobs[0], {}),
             QStringList({"--parsable", out + "/.plume-farm/simulate.sh"}));
    QCOMPARE(sbatchArguments(jobs[1], "41"), QStringList({"--parsable", "--dependency=afterok:41",
                                                          out + "/.plume-farm/render.sh"}));
    QCOMPARE(sbatchArguments(jobs[2], "42"),
             QStringList({"--parsable", "--dependency=afterok:42", out + "/.plume-farm/pack.sh"}));
    QCOMPARE(farmTaskStatePath(plan.farmFolder(), FarmStep::Render, 7),
             out + "/.plume-farm/tasks/render.7");
    QCOMPARE(farmTaskLogPath(plan.farmFolder(), FarmStep::Pack, 2),
             out + "/.plume-farm/logs/pack.2.log");
}

void TestFarm::slurmWithoutRenders()
{
    QTemporaryDir dir;
    const QString manifest = makeWedge(dir.path(), 2, false);
    FarmPlan plan;
    QVERIFY(planFarm(manifest, dir.filePath("out"), FarmConfig{}, "/p/plume-cli", plan).ok());
    QVERIFY(!plan.renders());
    const QVector<SlurmJob> jobs = slurmJobs(plan);
    QCOMPARE(jobs.size(), 1); // a VDB bake: the simulation alone
    QVERIFY(sbatchLines(jobs[0].script).contains("--array=0-1"));
    // The whole bake in the task: no --cache-only, so the folder is plume-cli bake's.
    QVERIFY(!jobs[0].script.contains("--cache-only"));
    QVERIFY(jobs[0].script.contains("-o " + plan.output + "/smoke_w1 --checkpoint-every 5 "));
    QVERIFY(plan.variations[0].chunks.isEmpty());

    // A plain scene is one variation named after it.
    FarmPlan one;
    QVERIFY(planFarm(dir.filePath("smoke_w1.plume"), dir.filePath("o2"), FarmConfig{}, "/p/c", one)
                .ok());
    QCOMPARE(one.variations.size(), 1);
    QCOMPARE(one.variations[0].name, QString("smoke_w1"));
    QCOMPARE(one.variations[0].folder, QDir(dir.filePath("o2")).filePath("smoke_w1"));
}

void TestFarm::siteOptions()
{
    QTemporaryDir dir;
    const QString manifest = makeWedge(dir.path(), 2, true);
    const QString path = dir.filePath("farm.json");
    QVERIFY(writeJson(path, {{"account", "fx"},
                             {"qos", "high"},
                             {"partition", "cpu"},
                             {"time", "2:00:00"},
                             {"cpusPerTask", 8},
                             {"framesPerTask", 4},
                             {"checkpointEvery", 3},
                             {"signalGrace", 300},
                             {"sbatch", QJsonArray{"--mem=16G", "--constraint=avx2"}},
                             {"environment", QJsonArray{"module load plume/1.4"}},
                             {"plumeCli", "/opt/plume/bin/plume-cli"}}));
    FarmConfig c;
    const sim::Status st = readFarmConfig(path, c);
    QVERIFY2(st.ok(), st.error.c_str());
    QCOMPARE(c.cpusPerTask, 8);
    QCOMPARE(c.source, path);
    FarmPlan plan;
    QVERIFY(planFarm(manifest, dir.filePath("out"), c, c.plumeCli, plan).ok());
    QCOMPARE(plan.variations[0].chunks.size(), 3); // 12 frames, 4 a task
    for (const SlurmJob &job : slurmJobs(plan)) {
        const QStringList lines = sbatchLines(job.script);
        QVERIFY(lines.contains("--account=fx"));
        QVERIFY(lines.contains("--qos=high"));
        QVERIFY(lines.contains("--partition=cpu"));
        QVERIFY(lines.contains("--time=2:00:00"));
        QVERIFY(lines.contains("--cpus-per-task=8"));
        QVERIFY(lines.contains("--mem=16G"));
        QVERIFY(lines.contains("--constraint=avx2"));
        QVERIFY(job.script.contains("\nmodule load plume/1.4\n"));
        QVERIFY(job.script.contains("plume_cli=/opt/plume/bin/plume-cli\n"));
        if (job.step == FarmStep::Simulate) {
            QVERIFY(lines.contains("--signal=B:USR1@300"));
            QVERIFY(job.script.contains("--checkpoint-every 3 "));
        }
    }
}

void TestFarm::sbatchIds_data()
{
    QTest::addColumn<QString>("output");
    QTest::addColumn<QString>("id");
    QTest::newRow("plain") << "1234\n"
                           << "1234";
    QTest::newRow("cluster") << "77;plumetest\n"
                             << "77";
    QTest::newRow("after a warning") << "sbatch: warning: something\n981\n"
                                     << "981";
    QTest::newRow("none") << "sbatch: error: Batch job submission failed\n"
                          << "";
    QTest::newRow("empty") << ""
                           << "";
}

void TestFarm::sbatchIds()
{
    QFETCH(QString, output);
    QFETCH(QString, id);
    QCOMPARE(parseSbatchJobId(output), id);
}

void TestFarm::configRefused_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("expected");
    QTest::newRow("not JSON") << QByteArray("{\"account\": ") << ""
                              << "not JSON";
    QTest::newRow("not an object") << QByteArray("[1]") << ""
                                   << "expected a JSON object";
    QTest::newRow("unknown key") << QByteArray(R"({"acount": "fx"})") << "acount"
                                 << "expected one of account";
    QTest::newRow("cpus as text") << QByteArray(R"({"cpusPerTask": "8"})") << "cpusPerTask"
                                  << "expected an integer from 1 to 4096";
    QTest::newRow("no cpus") << QByteArray(R"({"cpusPerTask": 0})") << "cpusPerTask"
                             << "expected an integer from 1 to 4096";
    QTest::newRow("half a frame") << QByteArray(R"({"framesPerTask": 2.5})") << "framesPerTask"
                                  << "expected an integer";
    QTest::newRow("short grace") << QByteArray(R"({"signalGrace": 5})") << "signalGrace"
                                 << "expected an integer from 10";
    QTest::newRow("bad time") << QByteArray(R"({"time": "two hours"})") << "time"
                              << "expected a Slurm time limit";
    QTest::newRow("sbatch not a list") << QByteArray(R"({"sbatch": "--mem=4G"})") << "sbatch"
                                       << "expected an array of sbatch options";
    QTest::newRow("sbatch not an option") << QByteArray(R"({"sbatch": ["mem=4G"]})") << "sbatch"
                                          << "starting with '--'";
    QTest::newRow("two lines") << QByteArray(R"({"environment": ["a\nb"]})") << "environment"
                               << "expected an array of shell lines";
    QTest::newRow("account with a space") << QByteArray(R"({"account": "f x"})") << "account"
                                          << "without spaces";
    QTest::newRow("relative plume-cli")
        << QByteArray(R"({"plumeCli": "bin/plume-cli"})") << "plumeCli"
        << "expected an absolute path";
}

void TestFarm::configRefused()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, key);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    const QString path = dir.filePath("farm.json");
    QVERIFY(writeText(path, json));
    FarmConfig c;
    c.account = "kept";
    const sim::Status st = readFarmConfig(path, c);
    QVERIFY(!st.ok());
    const QString message = QString::fromStdString(st.error);
    QVERIFY2(message.startsWith(path + ": "), qPrintable(message));
    if (!key.isEmpty())
        QVERIFY2(message.contains("key '" + key + "'"), qPrintable(message));
    QVERIFY2(message.contains(expected), qPrintable(message));
    QCOMPARE(c.account, QString("kept")); // untouched when refused
}

void TestFarm::configPaths()
{
    QTemporaryDir dir;
    bool required = false;
    QCOMPARE(farmConfigPath("/x/farm.json", required), QString("/x/farm.json"));
    QVERIFY(required);
    qputenv("PLUME_FARM_CONFIG", dir.filePath("env.json").toUtf8());
    QCOMPARE(farmConfigPath({}, required), dir.filePath("env.json"));
    QVERIFY(required);
    FarmConfig c;
    // Named but missing: refused, naming the file.
    const sim::Status st = loadFarmConfig({}, c);
    QVERIFY(!st.ok());
    QVERIFY(QString::fromStdString(st.error).startsWith(dir.filePath("env.json")));
    qunsetenv("PLUME_FARM_CONFIG");
    qputenv("HOME", dir.path().toUtf8());
    QCOMPARE(farmConfigPath({}, required), dir.path() + "/.config/plume/farm.json");
    QVERIFY(!required);
    // The default file may be absent: the defaults.
    QVERIFY(loadFarmConfig({}, c).ok());
    QCOMPARE(c.cpusPerTask, 1);
    QVERIFY(c.source.isEmpty());
    QVERIFY(writeJson(dir.path() + "/.config/plume/farm.json", {{"qos", "low"}}));
    QVERIFY(loadFarmConfig({}, c).ok());
    QCOMPARE(c.qos, QString("low"));
}

void TestFarm::slurmTimes_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<qlonglong>("seconds");
    QTest::newRow("minutes") << "90" << 5400LL;
    QTest::newRow("MM:SS") << "10:30" << 630LL;
    QTest::newRow("HH:MM:SS") << "2:00:00" << 7200LL;
    QTest::newRow("D-HH") << "1-2" << 93600LL;
    QTest::newRow("D-HH:MM") << "1-0:30" << 88200LL;
    QTest::newRow("D-HH:MM:SS") << "0-0:0:45" << 45LL;
    QTest::newRow("words") << "two hours" << -1LL;
    QTest::newRow("empty") << "" << -1LL;
    QTest::newRow("four parts") << "1:2:3:4" << -1LL;
}

void TestFarm::slurmTimes()
{
    QFETCH(QString, text);
    QFETCH(qlonglong, seconds);
    QCOMPARE(slurmTimeSeconds(text), seconds);
    QCOMPARE(isSlurmTime(text), seconds >= 0);
}

void TestFarm::manifestRefused_data()
{
    // The wedge's reader checks the manifest (tst_wedge); the farm adds names that can name
    // folders and scene files named after their variation.
    auto wedge = [](const char *variations) {
        return QByteArray(R"({"format": "plume-wedge", "version": 1, "source": "/s.plume",
                              "keys": ["simulation.vorticity"], "random": null,
                              "variations": [)")
               + variations + "]}";
    };
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("expected");
    QTest::newRow("other format") << QByteArray(R"({"format": "plume-scene", "version": 1})")
                                  << "format: expected \"plume-wedge\"";
    QTest::newRow("newer") << QByteArray(R"({"format": "plume-wedge", "version": 2})")
                           << "version: format version 2 is newer";
    QTest::newRow("no variations") << wedge("") << "variations: expected a non-empty array";
    QTest::newRow("a path as name") << wedge(R"({"index": 0, "name": "../x", "scene": "x.plume",
                     "values": {"simulation.vorticity": 1}})")
                                    << "variations[0].name: expected a name";
    QTest::newRow("twice the same name")
        << wedge(R"({"index": 0, "name": "a", "scene": "a.plume",
                     "values": {"simulation.vorticity": 1}},
                    {"index": 1, "name": "a", "scene": "a.plume",
                     "values": {"simulation.vorticity": 2}})")
        << "variations[1].name: expected a name no other variation has";
    QTest::newRow("scene named otherwise")
        << wedge(R"({"index": 0, "name": "a", "scene": "b.plume",
                     "values": {"simulation.vorticity": 1}})")
        << "variations[0].scene: expected a file named after the variation";
    QTest::newRow("no index") << wedge(R"({"name": "a", "scene": "a.plume",
                                          "values": {"simulation.vorticity": 1}})")
                              << "variations[0].index: expected 0";
}

void TestFarm::manifestRefused()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    const QString path = dir.filePath("w_wedge.json");
    QVERIFY(writeText(path, json));
    FarmWedge m;
    const sim::Status st = readFarmWedge(path, m);
    QVERIFY(!st.ok());
    const QString message = QString::fromStdString(st.error);
    QVERIFY2(message.startsWith(path + ": ") && message.contains(expected), qPrintable(message));
}

void TestFarm::planRefused()
{
    QTemporaryDir dir;
    FarmPlan plan;
    // A missing scene, a variation whose scene is missing, too many render tasks.
    sim::Status st = planFarm(dir.filePath("none.plume"), dir.filePath("o"), {}, "/p", plan);
    QVERIFY(QString::fromStdString(st.error).contains("none.plume: no such scene file"));
    const QString manifest = makeWedge(dir.path(), 2, true);
    QFile::remove(dir.filePath("smoke_w1.plume"));
    st = planFarm(manifest, dir.filePath("o"), {}, "/p", plan);
    QVERIFY2(QString::fromStdString(st.error).contains("smoke_w1.plume"), st.error.c_str());
    const QString many = makeWedge(dir.path(), 90, true);
    FarmConfig oneFrame;
    oneFrame.framesPerTask = 1; // 90 variations x 12 frames: more than an array holds
    st = planFarm(many, dir.filePath("o"), oneFrame, "/p", plan);
    QVERIFY2(QString::fromStdString(st.error).contains("1080 render tasks"), st.error.c_str());
    oneFrame.framesPerTask = 2;
    QVERIFY(planFarm(many, dir.filePath("o"), oneFrame, "/p", plan).ok());
}

void TestFarm::record()
{
    QTemporaryDir dir;
    const QString manifest = makeWedge(dir.path(), 3, true);
    FarmRecord r;
    r.engine = "slurm";
    r.created = "2026-11-29T10:00:00Z";
    QVERIFY(planFarm(manifest, dir.filePath("out"), FarmConfig{}, "/p/plume-cli", r.plan).ok());
    r.jobs.push_back({FarmStep::Simulate, "s.sh", 3, "17", {"sbatch", "--parsable", "s.sh"}});
    r.jobs.push_back({FarmStep::Render, "r.sh", 6, "18", {"sbatch", "x"}});
    QVERIFY(writeFarmRecord(r).ok());
    const QJsonObject o = readJson(farmRecordPath(r.plan.output));
    QCOMPARE(o.value("format").toString(), QString("plume-farm"));
    QCOMPARE(o.value("variations").toArray().size(), 3);
    QCOMPARE(o.value("variations").toArray()[1].toObject().value("chunks").toArray().size(), 2);
    QCOMPARE(o.value("jobs").toArray()[0].toObject().value("jobId").toString(), QString("17"));
    // Every task's command: 3 simulations, 3 x 2 chunks, 3 packs.
    const QJsonArray tasks = o.value("tasks").toArray();
    QCOMPARE(tasks.size(), 12);
    const QJsonObject render = tasks[4].toObject();
    QCOMPARE(render.value("step").toString(), QString("render"));
    QCOMPARE(render.value("frames").toArray(), QJsonArray({11, 12})); // w0, chunk 2 of 2
    QVERIFY(render.value("command").toArray().contains("--chunk"));
    QVERIFY(render.value("command").toArray().contains("$SLURM_CPUS_PER_TASK"));

    FarmRecord back;
    QVERIFY(readFarmRecord(r.plan.output, back).ok());
    QCOMPARE(back.engine, QString("slurm"));
    QCOMPARE(back.plan.variations.size(), 3);
    QCOMPARE(back.plan.variations[2].name, QString("smoke_w2"));
    QCOMPARE(back.plan.variations[2].chunks.size(), 2);
    QCOMPARE(back.jobs.size(), 2);
    QCOMPARE(back.jobs[1].jobId, QString("18"));
    QCOMPARE(back.jobs[1].step, FarmStep::Render);
}

void TestFarm::statusOfFolders()
{
    // A submission of four variations, 4 frames each, two chunks, made by hand.
    QTemporaryDir dir;
    FarmRecord r;
    r.engine = "slurm";
    r.created = "2026-11-29T10:00:00Z";
    r.plan.input = "/w/s_wedge.json";
    r.plan.output = dir.filePath("out");
    r.plan.plumeCli = "/p/plume-cli";
    for (int k = 0; k < 4; ++k) {
        FarmVariation v;
        v.index = k;
        v.name = QString("s_w%1").arg(k);
        v.scene = "/w/" + v.name + ".plume";
        v.folder = r.plan.output + "/" + v.name;
        v.firstFrame = 1;
        v.lastFrame = 4;
        v.renders = true;
        v.chunks = {{1, 2}, {3, 4}};
        v.atlas = v.name + "_flipbook";
        r.plan.variations.push_back(v);
    }
    r.jobs.push_back({FarmStep::Simulate, "s.sh", 4, "5", {}});
    QVERIFY(writeFarmRecord(r).ok());
    const QString out = r.plan.output, farm = r.plan.farmFolder();
    auto touch = [](const QString &path, const QByteArray &text = "x") {
        QVERIFY(writeText(path, text));
    };
    // w0: done: every VDB, the atlas, no kept renders.
    for (int f = 1; f <= 4; ++f)
        touch(QString("%1/s_w0/s_w0.%2.vdb").arg(out).arg(f, 4, 10, QChar('0')));
    touch(out + "/s_w0/s_w0_flipbook.png");
    touch(farm + "/tasks/simulate.0", "done\n");
    touch(farm + "/tasks/render.0", "done\n");
    touch(farm + "/tasks/render.1", "done\n");
    touch(farm + "/tasks/pack.0", "done\n");
    // w1: simulating, two frames and a resume record without a checkpoint yet.
    touch(out + "/s_w1/s_w1.0001.vdb");
    touch(out + "/s_w1/s_w1.0002.vdb");
    touch(out + "/s_w1/.plume-bake/bake.json", "{}");
    touch(farm + "/tasks/simulate.1", "running job 7 restart 1\n");
    // w2: its simulation failed; the log says why.
    touch(out + "/s_w2/s_w2.0001.vdb");
    touch(farm + "/tasks/simulate.2", "failed exit 1\n");
    touch(farm + "/logs/simulate.2.log",
          "plume-farm: simulate task 2\nframe 1  1/4\r"
          "\nplume-cli: s_w2.plume: frame 2: the simulation blew up: density is NaN\n"
          "plume-cli: the same command with --resume continues the bake\n"
          "plume-farm: plume-cli exited 1\n");
    // w3: simulated, one chunk rendered and kept, the other still to come.
    for (int f = 1; f <= 4; ++f)
        touch(QString("%1/s_w3/s_w3.%2.vdb").arg(out).arg(f, 4, 10, QChar('0')));
    touch(out + "/s_w3/.plume-render/frame.0001");
    touch(out + "/s_w3/.plume-render/frame.0002");
    touch(farm + "/tasks/simulate.3", "done\n");
    touch(farm + "/tasks/render.6", "done\n");
    touch(farm + "/tasks/render.7", "running job 9 restart 0\n");

    FarmStatus s;
    const sim::Status st = readFarmStatus(out, s);
    QVERIFY2(st.ok(), st.error.c_str());
    QCOMPARE(s.variations.size(), 4);
    QCOMPARE(s.done, 1);
    QCOMPARE(s.failed, 1);
    QCOMPARE(s.running, 2);
    const FarmVariationStatus &w0 = s.variations[0], &w1 = s.variations[1], &w2 = s.variations[2],
                              &w3 = s.variations[3];
    QCOMPARE(w0.phase, QString("done"));
    QVERIFY(w0.atlas);
    QCOMPARE(w0.chunksDone, 2);
    QCOMPARE(w1.phase, QString("simulating"));
    QCOMPARE(w1.vdbFrames, 2);
    QVERIFY(w1.resumeRecord);
    QCOMPARE(w1.checkpointFrames, -1);
    QCOMPARE(w2.phase, QString("failed"));
    QCOMPARE(w2.troubles.size(), 1);
    QCOMPARE(w2.troubles[0].state, FarmTaskState::Failed);
    QCOMPARE(w2.troubles[0].logLine,
             QString("plume-cli: s_w2.plume: frame 2: the simulation blew up: density is NaN"));
    QCOMPARE(w3.phase, QString("rendering"));
    QCOMPARE(w3.chunks, 2);
    QCOMPARE(w3.chunksDone, 1);
    QCOMPARE(w3.keptRenders, 2);
    QVERIFY(!w3.atlas);

    const QString text = describeFarmStatus(s);
    QVERIFY2(text.contains("s_w0  done  vdb 4/4  chunks 2/2  atlas yes\n"), qPrintable(text));
    QVERIFY2(text.contains("s_w1  simulating  vdb 2/4  resume record: no checkpoint yet"),
             qPrintable(text));
    QVERIFY2(text.contains("s_w2  failed  vdb 1/4"), qPrintable(text));
    QVERIFY2(text.contains("simulate task 2 failed: failed exit 1\n      plume-cli: s_w2.plume: "
                           "frame 2: the simulation blew up"),
             qPrintable(text));
    QVERIFY2(text.contains("s_w3  rendering  vdb 4/4  chunks 1/2  kept renders 2  atlas no"),
             qPrintable(text));
    QVERIFY2(text.contains("4 variations: 1 done, 2 running or waiting, 1 failed"),
             qPrintable(text));

    // Packed: the kept renders gone, the atlas there.
    QVERIFY(QDir(out + "/s_w3/.plume-render").removeRecursively());
    touch(out + "/s_w3/s_w3_flipbook.png");
    QVERIFY(readFarmStatus(out, s).ok());
    QCOMPARE(s.variations[3].phase, QString("done"));

    // The folder moved: read where it is now.
    QVERIFY(QDir().rename(out, dir.filePath("moved")));
    QVERIFY(readFarmStatus(dir.filePath("moved"), s).ok());
    QCOMPARE(s.done, 2);
}

void TestFarm::statusRefusesOtherFolders()
{
    QTemporaryDir dir;
    FarmStatus s;
    sim::Status st = readFarmStatus(dir.path(), s);
    QVERIFY(QString::fromStdString(st.error).contains("no farm submission here"));
    QVERIFY(writeText(dir.filePath(".plume-farm/submission.json"), R"({"format": "other"})"));
    st = readFarmStatus(dir.path(), s);
    QVERIFY2(QString::fromStdString(st.error).contains("format: expected \"plume-farm\""),
             st.error.c_str());
}

void TestFarm::logLine_data()
{
    QTest::addColumn<QString>("log");
    QTest::addColumn<QString>("line");
    QTest::newRow("none") << "plume-farm: started\nwrote 12 files\n"
                          << "";
    QTest::newRow("the last error") << "plume-cli: first\nplume-cli: second\nplume-farm: x\n"
                                    << "plume-cli: second";
    QTest::newRow("not the hint") << "plume-cli: out of disk\nplume-cli: the same command with "
                                     "--resume continues the bake\n"
                                  << "plume-cli: out of disk";
    QTest::newRow("not a warning") << "plume-cli: refused\nplume-cli: warning: unknown key\n"
                                   << "plume-cli: refused";
    QTest::newRow("after progress") << "frame 3  3/12\rplume-cli: interrupted\n"
                                    << "plume-cli: interrupted";
}

void TestFarm::logLine()
{
    QFETCH(QString, log);
    QFETCH(QString, line);
    QCOMPARE(lastPlumeCliError(log), line);
}

void TestFarm::shellQuoting_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("quoted");
    QTest::newRow("plain") << "/farm/out/scene_w0.plume"
                           << "/farm/out/scene_w0.plume";
    QTest::newRow("space") << "/my scenes/a.plume"
                           << "'/my scenes/a.plume'";
    QTest::newRow("quote") << "it's"
                           << R"('it'\''s')";
    QTest::newRow("dollar") << "$HOME"
                            << "'$HOME'";
    QTest::newRow("empty") << ""
                           << "''";
}

void TestFarm::shellQuoting()
{
    QFETCH(QString, text);
    QFETCH(QString, quoted);
    QCOMPARE(shellQuote(text), quoted);
}

namespace {

// The Open Job Description template schema, version 2023-09 ("2023-09 Template Schemas" in
// the openjd-specifications wiki, github.com/OpenJobDescription/openjd-specifications): the
// required keys and their types, section by section.

/// 7.1 <Identifier>: latin letters, digits and '_', not starting with a digit, 1-64 long.
bool isIdentifier(const QJsonValue &v)
{
    static const QRegularExpression id("^[A-Za-z_][A-Za-z0-9_]{0,63}$");
    return v.isString() && id.match(v.toString()).hasMatch();
}

/// No character of the Unicode Cc category (1.1.1 <JobName>, 3.1 <StepName>, 5.1, 5.2).
bool noControl(const QString &s)
{
    for (QChar c : s) {
        if (c.category() == QChar::Other_Control)
            return false;
    }
    return true;
}

/// The format-string references the template may use (7.3.1 Value References): job
/// parameters, the step's task parameters and its embedded files.
void checkReferences(const QString &text, const QSet<QString> &known)
{
    static const QRegularExpression ref(R"(\{\{\s*([^}\s]+)\s*\}\})");
    for (auto it = ref.globalMatch(text); it.hasNext();) {
        const QString name = it.next().captured(1);
        QVERIFY2(known.contains(name), qPrintable("unknown reference {{" + name + "}}"));
    }
}

/// 5. <Action>: command (a non-empty format string), args (format strings), optional timeout
/// and cancelation (5.3: TERMINATE, or NOTIFY_THEN_TERMINATE with notifyPeriodInSeconds of at
/// most 600).
void checkAction(const QJsonObject &a, const QSet<QString> &known)
{
    QVERIFY(a.value("command").isString());
    QVERIFY(!a.value("command").toString().isEmpty());
    QVERIFY(noControl(a.value("command").toString()));
    checkReferences(a.value("command").toString(), known);
    if (a.contains("args")) {
        QVERIFY(a.value("args").isArray());
        for (const QJsonValue &arg : a.value("args").toArray()) {
            QVERIFY(arg.isString());
            QVERIFY(noControl(arg.toString()));
            checkReferences(arg.toString(), known);
        }
    }
    if (a.contains("timeout"))
        QVERIFY(a.value("timeout").toInt() > 0);
    if (a.contains("cancelation")) {
        const QJsonObject c = a.value("cancelation").toObject();
        const QString mode = c.value("mode").toString();
        QVERIFY(mode == "TERMINATE" || mode == "NOTIFY_THEN_TERMINATE");
        if (c.contains("notifyPeriodInSeconds")) {
            QCOMPARE(mode, QString("NOTIFY_THEN_TERMINATE"));
            const int period = c.value("notifyPeriodInSeconds").toInt();
            QVERIFY(period >= 1 && period <= 600);
        }
    }
    for (const QString &key : a.keys())
        QVERIFY2(QStringList({"command", "args", "timeout", "cancelation"}).contains(key),
                 qPrintable(key));
}

/// 3.4 <StepParameterSpaceDefinition>: 1-16 task parameters (3.4.1: name, type, range), and a
/// combination (3.4.3) naming each exactly once, associated lists of equal length. Returns the
/// task count.
int checkParameterSpace(const QJsonObject &space, QSet<QString> &known)
{
    const QJsonArray defs = space.value("taskParameterDefinitions").toArray();
    [&] {
        QVERIFY(space.value("taskParameterDefinitions").isArray());
        QVERIFY(!defs.isEmpty() && defs.size() <= 16);
        }();
    QMap<QString, int> sizes;
    for (const QJsonValue &d : defs) {
        const QJsonObject p = d.toObject();
        [&] {
            QVERIFY(isIdentifier(p.value("name")));
            const QString type = p.value("type").toString();
            QVERIFY(QStringList({"INT", "FLOAT", "STRING", "PATH"}).contains(type));
            const QJsonValue range = p.value("range");
            if (type == "INT" && range.isString())
                return; // an <IntRangeExpr>
            QVERIFY(range.isArray());
            const QJsonArray list = range.toArray();
            QVERIFY(!list.isEmpty() && list.size() <= 1024);
            for (const QJsonValue &v : list) {
                if (type == "INT")
                    QVERIFY(v.isDouble() && v.toDouble() == double(qint64(v.toDouble())));
                else if (type == "STRING" || type == "PATH")
                    QVERIFY(v.isString() && !v.toString().isEmpty() && v.toString().size() <= 1024);
            }
            }();
        sizes.insert(p.value("name").toString(), int(p.value("range").toArray().size()));
        known.insert("Task.Param." + p.value("name").toString());
        known.insert("Task.RawParam." + p.value("name").toString());
    }
    if (!space.contains("combination")) {
        int product = 1;
        for (int n : sizes)
            product *= n;
        return product;
    }
    // Only the form this generator writes, "(A, B)": an association of equal-length lists.
    const QString combination = space.value("combination").toString();
    static const QRegularExpression assoc(R"(^\(\s*(\w+)\s*(?:,\s*(\w+)\s*)*\)$)");
    [&] { QVERIFY2(assoc.match(combination).hasMatch(), qPrintable(combination)); }();
    QStringList names = combination.mid(1, combination.size() - 2).split(',');
    for (QString &n : names)
        n = n.trimmed();
    [&] {
        QCOMPARE(QSet<QString>(names.begin(), names.end()).size(), names.size());
        QCOMPARE(QSet<QString>(names.begin(), names.end()),
                 QSet<QString>(sizes.keyBegin(), sizes.keyEnd()));
        for (const QString &n : names)
            QCOMPARE(sizes.value(n), sizes.value(names.front()));
        }();
    return sizes.value(names.front());
}

/// The whole template: 1.1 root, 2 parameter definitions, 3 steps, 3.2 dependencies, 3.5 step
/// script, 6 embedded files.
void checkJobTemplate(const QJsonObject &t, QMap<QString, int> &taskCounts,
                      QMap<QString, QStringList> &dependencies, QMap<QString, QString> &scripts)
{
    // 1.1: specificationVersion, name and steps are required; nothing else is allowed.
    QCOMPARE(t.value("specificationVersion").toString(), QString("jobtemplate-2023-09"));
    QVERIFY(t.value("name").isString());
    const QString name = t.value("name").toString();
    QVERIFY(!name.isEmpty() && name.size() <= 128 && noControl(name));
    for (const QString &key : t.keys())
        QVERIFY2(QStringList({"specificationVersion", "$schema", "name", "description",
                              "parameterDefinitions", "jobEnvironments", "steps"})
                     .contains(key),
                 qPrintable(key));
    if (t.contains("description")) {
        const QString d = t.value("description").toString();
        QVERIFY(!d.isEmpty() && d.size() <= 2048); // 7.2
    }
    QSet<QString> jobKnown;
    if (t.contains("parameterDefinitions")) {
        // 1.1 (5): 1-50 definitions; 2.1-2.4: name (an identifier) and type.
        const QJsonArray defs = t.value("parameterDefinitions").toArray();
        QVERIFY(!defs.isEmpty() && defs.size() <= 50);
        for (const QJsonValue &d : defs) {
            const QJsonObject p = d.toObject();
            QVERIFY(isIdentifier(p.value("name")));
            const QString type = p.value("type").toString();
            QVERIFY(QStringList({"STRING", "PATH", "INT", "FLOAT"}).contains(type));
            if (type == "INT" && p.contains("default"))
                QVERIFY(p.value("default").isDouble());
            if (type == "STRING" && p.contains("default"))
                QVERIFY(p.value("default").isString());
            jobKnown << "Param." + p.value("name").toString()
                     << "RawParam." + p.value("name").toString();
        }
    }
    // 1.1 (7), 3: steps, each with a unique name (3.1: 1-64 characters) and a script.
    QVERIFY(t.value("steps").isArray());
    const QJsonArray steps = t.value("steps").toArray();
    QVERIFY(!steps.isEmpty());
    QStringList names;
    for (const QJsonValue &sv : steps) {
        QVERIFY(sv.isObject());
        const QJsonObject s = sv.toObject();
        for (const QString &key : s.keys())
            QVERIFY2(QStringList({"name", "description", "dependencies", "stepEnvironments",
                                  "hostRequirements", "parameterSpace", "script"})
                         .contains(key),
                     qPrintable(key));
        QVERIFY(s.value("name").isString());
        const QString stepName = s.value("name").toString();
        QVERIFY(!stepName.isEmpty() && stepName.size() <= 64 && noControl(stepName));
        QVERIFY(!names.contains(stepName));
        names << stepName;
        QSet<QString> known = jobKnown;
        int tasks = 1; // 3 (6): without a parameter space the step runs once
        if (s.contains("parameterSpace")) {
            tasks = checkParameterSpace(s.value("parameterSpace").toObject(), known);
            QVERIFY(!QTest::currentTestFailed());
        }
        taskCounts.insert(stepName, tasks);
        if (s.contains("dependencies")) {
            // 3.2: at least one, each {dependsOn: <StepName>}.
            const QJsonArray deps = s.value("dependencies").toArray();
            QVERIFY(!deps.isEmpty());
            for (const QJsonValue &d : deps) {
                QVERIFY(d.toObject().value("dependsOn").isString());
                dependencies[stepName] << d.toObject().value("dependsOn").toString();
            }
        }
        // 3.5 <StepScript>: actions (3.5.1: onRun, an <Action>) and optional embedded files.
        const QJsonObject script = s.value("script").toObject();
        QVERIFY(s.value("script").isObject());
        QVERIFY(script.value("actions").isObject());
        if (script.contains("embeddedFiles")) {
            const QJsonArray files = script.value("embeddedFiles").toArray();
            QVERIFY(!files.isEmpty());
            for (const QJsonValue &fv : files) {
                // 6.1 <EmbeddedFileText>: name, type TEXT, data; filename 1-64, a base name.
                const QJsonObject f = fv.toObject();
                QVERIFY(isIdentifier(f.value("name")));
                QCOMPARE(f.value("type").toString(), QString("TEXT"));
                QVERIFY(f.value("data").isString() && !f.value("data").toString().isEmpty());
                if (f.contains("filename")) {
                    const QString fn = f.value("filename").toString();
                    QVERIFY(!fn.isEmpty() && fn.size() <= 64 && !fn.contains('/'));
                }
                if (f.contains("runnable"))
                    QVERIFY(f.value("runnable").isBool());
                known.insert("Task.File." + f.value("name").toString());
                scripts.insert(stepName, f.value("data").toString());
            }
        }
        known << "Session.WorkingDirectory"
              << "Session.HasPathMappingRules"
              << "Session.PathMappingRulesFile";
        for (const QJsonValue &fv : script.value("embeddedFiles").toArray())
            checkReferences(fv.toObject().value("data").toString(), known);
        const QJsonObject actions = script.value("actions").toObject();
        QVERIFY(actions.value("onRun").isObject());
        QCOMPARE(actions.keys(), QStringList({"onRun"}));
        checkAction(actions.value("onRun").toObject(), known);
        if (QTest::currentTestFailed())
            return;
    }
    // 3.2: dependencies name other steps of the job.
    for (auto it = dependencies.cbegin(); it != dependencies.cend(); ++it) {
        for (const QString &d : it.value())
            QVERIFY2(names.contains(d) && d != it.key(), qPrintable(d));
    }
}

} // namespace

void TestFarm::openJdAgainstSpecification()
{
    QTemporaryDir dir;
    const QString manifest = makeWedge(dir.path(), 4, true);
    FarmConfig config;
    config.framesPerTask = 5;
    config.cpusPerTask = 2;
    config.environment = {"module load plume"};
    FarmPlan plan;
    QVERIFY(planFarm(manifest, dir.filePath("out"), config, "/opt/plume/plume-cli", plan).ok());
    const QJsonObject t = QJsonDocument::fromJson(openJdTemplateJson(plan)).object();
    QCOMPARE(openJdTemplate(plan), t);
    QMap<QString, int> tasks;
    QMap<QString, QStringList> dependencies;
    QMap<QString, QString> scripts;
    checkJobTemplate(t, tasks, dependencies, scripts);
    if (QTest::currentTestFailed())
        return;
    // The same chain as on Slurm: 4 simulations, 4 x 3 chunks, 4 packs, one after the other.
    QCOMPARE(tasks.value("Simulate"), 4);
    QCOMPARE(tasks.value("Render"), 12);
    QCOMPARE(tasks.value("Pack"), 4);
    QCOMPARE(dependencies.value("Render"), QStringList({"Simulate"}));
    QCOMPARE(dependencies.value("Pack"), QStringList({"Render"}));
    QVERIFY(!dependencies.contains("Simulate"));
    // The same commands, the resume and the environment lines.
    const QString &sim = scripts.value("Simulate");
    QVERIFY(sim.contains("\"$plume_cli\" bake " + dir.path() + "/smoke_w2.plume -o " + plan.output
                         + "/smoke_w2 --cache-only --checkpoint-every 5 "
                           "--threads \"$threads\""));
    QVERIFY(sim.contains("cmd+=(--resume)"));
    QVERIFY(sim.contains("\nmodule load plume\n"));
    QVERIFY(scripts.value("Render").contains("'3 11:12') out=" + plan.output + "/smoke_w3\n"));
    QVERIFY(scripts.value("Render").contains("--chunk 11:12 --threads \"$threads\""));
    QVERIFY(scripts.value("Pack").contains("--from-cache " + plan.output + "/smoke_w1 -o "));
    const QJsonArray params = t.value("parameterDefinitions").toArray();
    QCOMPARE(params[0].toObject().value("default").toString(), QString("/opt/plume/plume-cli"));
    QCOMPARE(params[1].toObject().value("default").toInt(), 2);
    // plume-cli stops between frames on SIGTERM: the simulation is told before it is killed.
    const QJsonObject onRun = t.value("steps")
                                  .toArray()[0]
                                  .toObject()
                                  .value("script")
                                  .toObject()
                                  .value("actions")
                                  .toObject()
                                  .value("onRun")
                                  .toObject();
    QCOMPARE(onRun.value("cancelation").toObject().value("mode").toString(),
             QString("NOTIFY_THEN_TERMINATE"));
    QCOMPARE(openJdTemplatePath(plan), plan.output + "/.plume-farm/openjd/template.json");
}

void TestFarm::openJdWithoutRenders()
{
    QTemporaryDir dir;
    const QString manifest = makeWedge(dir.path(), 3, false);
    FarmPlan plan;
    QVERIFY(planFarm(manifest, dir.filePath("out"), FarmConfig{}, "/p/plume-cli", plan).ok());
    const QJsonObject t = openJdTemplate(plan);
    QMap<QString, int> tasks;
    QMap<QString, QStringList> dependencies;
    QMap<QString, QString> scripts;
    checkJobTemplate(t, tasks, dependencies, scripts);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(tasks.keys(), QStringList({"Simulate"}));
    QCOMPARE(tasks.value("Simulate"), 3);
    QVERIFY(!scripts.value("Simulate").contains("--cache-only"));
}

namespace {

struct Run
{
    int code = -1;
    QString out;
    QString err;
};

Run plumeCli(const QStringList &args, const QProcessEnvironment &env = {})
{
    QProcess p;
    if (!env.isEmpty())
        p.setProcessEnvironment(env);
    p.start(QString(PLUME_BINARY_DIR) + "/bin/plume-cli", args);
    p.waitForFinished(60000);
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

} // namespace

void TestFarm::commandLine()
{
    QTemporaryDir dir;
    const QString manifest = makeWedge(dir.path(), 2, true);
    const QString out = dir.filePath("out");
    // A dry run prints the scripts and the sbatch lines, and writes nothing.
    Run r = plumeCli({"farm", "submit", manifest, "-o", out, "--dry-run", "--cpus-per-task", "2",
                      "--frames-per-task", "6", "--time", "30:00"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY(r.out.contains("# ---- " + out + "/.plume-farm/simulate.sh\n#!/bin/bash\n"));
    QVERIFY(r.out.contains("#SBATCH --cpus-per-task=2\n"));
    QVERIFY(r.out.contains("#SBATCH --time=30:00\n"));
    QVERIFY(r.out.contains("#SBATCH --array=0-3\n")); // 2 variations x 2 chunks
    QVERIFY(r.out.contains("\nsbatch --parsable " + out + "/.plume-farm/simulate.sh\n"));
    QVERIFY(r.out.contains("\nsbatch --parsable '--dependency=afterok:<render job id>' " + out
                           + "/.plume-farm/pack.sh\n"));
    QVERIFY(!QFileInfo::exists(out));

    // Refusals: exit 2 with the reason.
    QVERIFY(writeText(dir.filePath("bad.json"), R"({"qos": 3})"));
    r = plumeCli({"farm", "submit", manifest, "-o", out, "--config", dir.filePath("bad.json")});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains(dir.filePath("bad.json") + ": key 'qos': expected a string"),
             qPrintable(r.err));
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("PLUME_FARM_CONFIG", dir.filePath("missing.json"));
    r = plumeCli({"farm", "submit", manifest, "-o", out, "--dry-run"}, env);
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains(dir.filePath("missing.json") + ": cannot read the farm config"),
             qPrintable(r.err));
    r = plumeCli({"farm", "submit", manifest, "-o", out, "--time", "1:00", "--dry-run"});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("leaves no time before the stop signal"), qPrintable(r.err));
    r = plumeCli({"farm", "submit", manifest, "-o", out, "--engine", "condor"});
    QCOMPARE(r.code, 2);
    r = plumeCli({"farm", "status", dir.path()});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("no farm submission here"), qPrintable(r.err));

    // OpenJD: the template and the record; status reads the folder like a Slurm one's.
    r = plumeCli({"farm", "submit", manifest, "-o", out, "--engine", "openjd"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QJsonObject t = readJson(out + "/.plume-farm/openjd/template.json");
    QCOMPARE(t.value("specificationVersion").toString(), QString("jobtemplate-2023-09"));
    r = plumeCli({"farm", "status", out});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.out.contains("smoke_w1  waiting  vdb 0/12") && r.out.endsWith("running\n"),
             qPrintable(r.out));
    // A second submission into the same folder needs --again.
    r = plumeCli({"farm", "submit", manifest, "-o", out, "--engine", "openjd"});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("already holds a farm submission"), qPrintable(r.err));
}

QTEST_GUILESS_MAIN(TestFarm)
#include "tst_farm.moc"
