// SPDX-License-Identifier: Apache-2.0
#include <core/farm/farmrecord.h>

#include <core/export/frameimage.h>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace plume {

namespace {

constexpr int kRecordVersion = 1;

QJsonArray toArray(const QStringList &list) { return QJsonArray::fromStringList(list); }

QStringList toStrings(const QJsonValue &v)
{
    QStringList out;
    for (const QJsonValue &e : v.toArray())
        out << e.toString();
    return out;
}

QJsonObject configJson(const FarmConfig &c)
{
    return {{"account", c.account},
            {"qos", c.qos},
            {"partition", c.partition},
            {"time", c.time},
            {"cpusPerTask", c.cpusPerTask},
            {"framesPerTask", c.framesPerTask},
            {"checkpointEvery", c.checkpointEvery},
            {"signalGrace", c.signalGrace},
            {"sbatch", toArray(c.sbatch)},
            {"environment", toArray(c.environment)},
            {"source", c.source}};
}

FarmConfig configFromJson(const QJsonObject &o)
{
    FarmConfig c;
    c.account = o.value("account").toString();
    c.qos = o.value("qos").toString();
    c.partition = o.value("partition").toString();
    c.time = o.value("time").toString();
    c.cpusPerTask = o.value("cpusPerTask").toInt(c.cpusPerTask);
    c.framesPerTask = o.value("framesPerTask").toInt(c.framesPerTask);
    c.checkpointEvery = o.value("checkpointEvery").toInt(c.checkpointEvery);
    c.signalGrace = o.value("signalGrace").toInt(c.signalGrace);
    c.sbatch = toStrings(o.value("sbatch"));
    c.environment = toStrings(o.value("environment"));
    c.source = o.value("source").toString();
    return c;
}

QJsonObject variationJson(const FarmVariation &v)
{
    QJsonArray chunks;
    for (const FarmChunk &c : v.chunks)
        chunks.append(QJsonArray{c.first, c.last});
    return {{"index", v.index},
            {"name", v.name},
            {"scene", v.scene},
            {"folder", v.folder},
            {"frames", QJsonArray{v.firstFrame, v.lastFrame}},
            {"renders", v.renders},
            {"chunks", chunks},
            {"atlas", v.atlas}};
}

bool variationFromJson(const QJsonObject &o, FarmVariation &v)
{
    v.index = o.value("index").toInt(-1);
    v.name = o.value("name").toString();
    v.scene = o.value("scene").toString();
    v.folder = o.value("folder").toString();
    const QJsonArray frames = o.value("frames").toArray();
    v.firstFrame = frames.at(0).toInt();
    v.lastFrame = frames.at(1).toInt();
    v.renders = o.value("renders").toBool();
    v.atlas = o.value("atlas").toString();
    for (const QJsonValue &c : o.value("chunks").toArray())
        v.chunks.push_back({c.toArray().at(0).toInt(), c.toArray().at(1).toInt()});
    return v.index >= 0 && !v.name.isEmpty() && !v.folder.isEmpty() && frames.size() == 2
           && v.firstFrame <= v.lastFrame;
}

bool stepFromName(const QString &name, FarmStep &step)
{
    for (FarmStep s : {FarmStep::Simulate, FarmStep::Render, FarmStep::Pack}) {
        if (farmStepName(s) == name) {
            step = s;
            return true;
        }
    }
    return false;
}

} // namespace

QString farmRecordPath(const QString &output)
{
    return QDir(output).filePath(QString(kFarmFolder) + "/submission.json");
}

QByteArray farmRecordJson(const FarmRecord &record)
{
    const FarmPlan &p = record.plan;
    QJsonArray variations;
    for (const FarmVariation &v : p.variations)
        variations.append(variationJson(v));
    QJsonArray jobs;
    for (const FarmJobRecord &j : record.jobs)
        jobs.append(QJsonObject{{"step", farmStepName(j.step)},
                                {"script", j.script},
                                {"tasks", j.tasks},
                                {"jobId", j.jobId},
                                {"command", toArray(j.command)}});
    QJsonArray tasks;
    for (FarmStep step : {FarmStep::Simulate, FarmStep::Render, FarmStep::Pack}) {
        if (step != FarmStep::Simulate && !p.renders())
            continue;
        for (const FarmTask &t : p.tasks(step)) {
            QJsonObject o{{"step", farmStepName(step)},
                          {"task", t.index},
                          {"variation", t.variation},
                          {"command", toArray(QStringList{p.plumeCli}
                                              + farmTaskArguments(p, t, "$SLURM_CPUS_PER_TASK"))}};
            if (step == FarmStep::Render)
                o.insert("frames", QJsonArray{t.chunk.first, t.chunk.last});
            tasks.append(o);
        }
    }
    const QJsonObject root{{"format", "plume-farm"},
                           {"version", kRecordVersion},
                           {"engine", record.engine},
                           {"created", record.created},
                           {"input", p.input},
                           {"output", p.output},
                           {"plumeCli", p.plumeCli},
                           {"config", configJson(p.config)},
                           {"variations", variations},
                           {"jobs", jobs},
                           {"tasks", tasks}};
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

sim::Status writeFarmRecord(const FarmRecord &record)
{
    const QString path = farmRecordPath(record.plan.output);
    if (!QDir().mkpath(QFileInfo(path).path()))
        return sim::Status::failure(path.toStdString() + ": cannot create its folder");
    return writeFilesAtomically({path}, {farmRecordJson(record)});
}

sim::Status readFarmRecord(const QString &output, FarmRecord &record)
{
    const QString path = farmRecordPath(output);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return sim::Status::failure(path.toStdString() + ": no farm submission here ("
                                    + file.errorString().toStdString() + ")");
    QJsonParseError error;
    const QJsonObject o = QJsonDocument::fromJson(file.readAll(), &error).object();
    auto bad = [&path](const QString &what) {
        return sim::Status::failure(QString("%1: %2").arg(path, what).toStdString());
    };
    if (error.error != QJsonParseError::NoError)
        return bad("not JSON: " + error.errorString());
    if (o.value("format").toString() != "plume-farm")
        return bad("format: expected \"plume-farm\"");
    if (o.value("version").toInt() != kRecordVersion)
        return bad(QString("version: expected %1").arg(kRecordVersion));
    FarmRecord r;
    r.engine = o.value("engine").toString();
    r.created = o.value("created").toString();
    r.plan.input = o.value("input").toString();
    r.plan.output = o.value("output").toString();
    r.plan.plumeCli = o.value("plumeCli").toString();
    r.plan.config = configFromJson(o.value("config").toObject());
    const QJsonArray variations = o.value("variations").toArray();
    if (variations.isEmpty())
        return bad("variations: expected a non-empty array");
    for (qsizetype i = 0; i < variations.size(); ++i) {
        FarmVariation v;
        if (!variationFromJson(variations[i].toObject(), v))
            return bad(QString("variations[%1]: expected index, name, folder and frames").arg(i));
        r.plan.variations.push_back(v);
    }
    const QJsonArray jobs = o.value("jobs").toArray();
    for (qsizetype i = 0; i < jobs.size(); ++i) {
        const QJsonObject j = jobs[i].toObject();
        FarmJobRecord job;
        if (!stepFromName(j.value("step").toString(), job.step))
            return bad(QString("jobs[%1].step: expected simulate, render or pack").arg(i));
        job.script = j.value("script").toString();
        job.tasks = j.value("tasks").toInt();
        job.jobId = j.value("jobId").toString();
        job.command = toStrings(j.value("command"));
        r.jobs.push_back(job);
    }
    record = r;
    return sim::Status::success();
}

} // namespace plume
