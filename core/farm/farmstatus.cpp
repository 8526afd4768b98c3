// SPDX-License-Identifier: Apache-2.0
#include <core/farm/farmstatus.h>

#include <core/bake/bakerecord.h>
#include <core/bake/sinks/bakesink.h>
#include <core/farm/slurmjobs.h>
#include <core/sim/run/checkpoint.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <vector>

namespace plume {

namespace {

FarmTaskStatus taskStatus(const QString &farm, FarmStep step, int task)
{
    FarmTaskStatus t;
    t.step = step;
    t.task = task;
    QFile file(farmTaskStatePath(farm, step, task));
    if (!file.open(QIODevice::ReadOnly))
        return t;
    t.line = QString::fromUtf8(file.readAll()).trimmed();
    const QString word = t.line.section(' ', 0, 0);
    if (word == "running")
        t.state = FarmTaskState::Running;
    else if (word == "requeued")
        t.state = FarmTaskState::Requeued;
    else if (word == "done")
        t.state = FarmTaskState::Done;
    else if (word == "stopped")
        t.state = FarmTaskState::Stopped;
    else
        t.state = FarmTaskState::Failed;
    if (t.state == FarmTaskState::Failed || t.state == FarmTaskState::Stopped) {
        QFile log(farmTaskLogPath(farm, step, task));
        if (log.open(QIODevice::ReadOnly))
            t.logLine = lastPlumeCliError(QString::fromUtf8(log.readAll()));
    }
    return t;
}

/// Frames simulated at the checkpoint in `resumeDir`; -1 when there is none or it is damaged.
int checkpointFrames(const QString &resumeDir)
{
    QFile file(QString::fromStdString(checkpointPath(resumeDir.toStdString()).string()));
    if (!file.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray bytes = file.readAll();
    sim::CheckpointInfo info;
    const auto *data = reinterpret_cast<const std::uint8_t *>(bytes.constData());
    if (!sim::Checkpoint::read({data, std::size_t(bytes.size())}, info))
        return -1;
    return info.frame;
}

FarmVariationStatus variationStatus(const FarmPlan &plan, const QString &farm, int k,
                                    const QVector<FarmTask> &renderTasks,
                                    const QVector<FarmTask> &packTasks)
{
    const FarmVariation &v = plan.variations[k];
    FarmVariationStatus s;
    s.name = v.name;
    s.renders = v.renders;
    s.totalFrames = v.lastFrame - v.firstFrame + 1;
    const QDir folder(QDir(plan.output).filePath(v.name));
    for (int f = v.firstFrame; f <= v.lastFrame; ++f) {
        if (folder.exists(QString::fromStdString(frameFileName(v.name.toStdString(), f))))
            ++s.vdbFrames;
    }
    const QString resume = folder.filePath(kResumeFolder);
    s.resumeRecord = QFileInfo::exists(resume + "/bake.json");
    if (s.resumeRecord)
        s.checkpointFrames = checkpointFrames(resume);
    const QDir kept(folder.filePath(kRenderFolder));
    if (kept.exists())
        s.keptRenders = int(kept.entryList(QDir::Files | QDir::NoDotAndDotDot).size());
    if (!v.atlas.isEmpty())
        s.atlas = folder.exists(v.atlas + ".png") || folder.exists(v.atlas + ".exr");

    const FarmTaskStatus sim = taskStatus(farm, FarmStep::Simulate, k);
    QVector<FarmTaskStatus> tasks{sim};
    FarmTaskStatus pack;
    for (const FarmTask &t : renderTasks) {
        if (t.variation != k)
            continue;
        const FarmTaskStatus r = taskStatus(farm, FarmStep::Render, t.index);
        ++s.chunks;
        s.chunksDone += r.state == FarmTaskState::Done;
        tasks.push_back(r);
    }
    for (const FarmTask &t : packTasks) {
        if (t.variation == k) {
            pack = taskStatus(farm, FarmStep::Pack, t.index);
            tasks.push_back(pack);
        }
    }
    for (const FarmTaskStatus &t : tasks) {
        if (t.state == FarmTaskState::Failed || t.state == FarmTaskState::Stopped)
            s.troubles.push_back(t);
    }
    const bool simulated = s.vdbFrames == s.totalFrames && !s.resumeRecord;
    const bool packed = s.keptRenders < 0
                        && (v.atlas.isEmpty() ? pack.state == FarmTaskState::Done : s.atlas);
    s.done = simulated && (!v.renders || packed);
    if (s.done)
        s.phase = "done";
    else if (!s.troubles.isEmpty())
        s.phase = "failed";
    else if (!simulated)
        s.phase = sim.state == FarmTaskState::NotStarted ? "waiting" : "simulating";
    else if (s.chunksDone < s.chunks)
        s.phase = "rendering";
    else
        s.phase = "packing";
    return s;
}

QString stateWord(FarmTaskState s)
{
    switch (s) {
    case FarmTaskState::NotStarted: return "not started";
    case FarmTaskState::Running: return "running";
    case FarmTaskState::Requeued: return "requeued";
    case FarmTaskState::Done: return "done";
    case FarmTaskState::Stopped: return "stopped";
    case FarmTaskState::Failed: return "failed";
    }
    return "failed";
}

} // namespace

QString lastPlumeCliError(const QString &log)
{
    const QStringList lines = log.split('\n');
    for (auto it = lines.crbegin(); it != lines.crend(); ++it) {
        // A progress line ends in \r-separated updates: the message is after the last one.
        const QString line = it->section('\r', -1).trimmed();
        if (line.startsWith("plume-cli:") && !line.contains("--resume continues")
            && !line.startsWith("plume-cli: warning:"))
            return line;
    }
    return {};
}

sim::Status readFarmStatus(const QString &output, FarmStatus &status)
{
    FarmStatus s;
    if (sim::Status st = readFarmRecord(output, s.record); !st)
        return st;
    // The folder may have moved since the submission: read it where it is now.
    FarmPlan &plan = s.record.plan;
    plan.output = QDir::cleanPath(QFileInfo(output).absoluteFilePath());
    const QString farm = plan.farmFolder();
    const QVector<FarmTask> renderTasks = plan.tasks(FarmStep::Render);
    const QVector<FarmTask> packTasks = plan.tasks(FarmStep::Pack);
    for (int k = 0; k < plan.variations.size(); ++k) {
        FarmVariationStatus v = variationStatus(plan, farm, k, renderTasks, packTasks);
        s.done += v.done;
        s.failed += !v.done && !v.troubles.isEmpty();
        s.running += !v.done && v.troubles.isEmpty();
        s.variations.push_back(v);
    }
    status = s;
    return sim::Status::success();
}

QString describeFarmStatus(const FarmStatus &status)
{
    const FarmRecord &r = status.record;
    QString out = QString("%1: %2 bake of %3, submitted %4\n")
                      .arg(r.plan.output, r.engine, r.plan.input, r.created);
    for (const FarmJobRecord &j : r.jobs) {
        out += QString("  %1: %2 task%3%4\n")
                   .arg(farmStepName(j.step))
                   .arg(j.tasks)
                   .arg(j.tasks == 1 ? "" : "s")
                   .arg(j.jobId.isEmpty() ? QString() : ", job " + j.jobId);
    }
    for (const FarmVariationStatus &v : status.variations) {
        out +=
            QString("%1  %2  vdb %3/%4").arg(v.name, v.phase).arg(v.vdbFrames).arg(v.totalFrames);
        if (v.resumeRecord)
            out +=
                v.checkpointFrames >= 0
                    ? QString("  resume record: checkpoint after %1 frames").arg(v.checkpointFrames)
                    : QString("  resume record: no checkpoint yet");
        if (v.renders) {
            out += QString("  chunks %1/%2").arg(v.chunksDone).arg(v.chunks);
            if (v.keptRenders >= 0)
                out += QString("  kept renders %1").arg(v.keptRenders);
            out += QString("  atlas %1").arg(v.atlas ? "yes" : "no");
        }
        out += "\n";
        for (const FarmTaskStatus &t : v.troubles) {
            out += QString("    %1 task %2 %3: %4\n")
                       .arg(farmStepName(t.step))
                       .arg(t.task)
                       .arg(stateWord(t.state), t.line);
            if (!t.logLine.isEmpty())
                out += "      " + t.logLine + "\n";
        }
    }
    out += QString("%1 variation%2: %3 done, %4 running or waiting, %5 failed\n")
               .arg(status.variations.size())
               .arg(status.variations.size() == 1 ? "" : "s")
               .arg(status.done)
               .arg(status.running)
               .arg(status.failed);
    return out;
}

} // namespace plume
