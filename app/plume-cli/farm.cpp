// SPDX-License-Identifier: Apache-2.0
// plume-cli farm submit|status: a bake on a Slurm farm, or an OpenJD template for one
// (core/farm, docs/farm.md).
#include <app/plume-cli/commands.h>

#include <app/plume-cli/common.h>

#include <core/export/savefile.h>
#include <core/farm/farmconfig.h>
#include <core/farm/farmplan.h>
#include <core/farm/farmrecord.h>
#include <core/farm/farmstatus.h>
#include <core/farm/openjdtemplate.h>
#include <core/farm/slurmjobs.h>

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSaveFile>
#include <QStandardPaths>

#include <cstdio>

namespace plume::cli {

namespace {

struct SubmitOptions
{
    QCommandLineOption output{{"o", "output"}, "The output folder DIR.", "DIR"};
    QCommandLineOption engine{"engine",
                              "slurm (submit with sbatch) or openjd (write an Open Job "
                              "Description template to DIR/.plume-farm/openjd/).",
                              "ENGINE", "slurm"};
    QCommandLineOption partition{"partition", "Slurm partition.", "P"};
    QCommandLineOption time{"time", "Each task's time limit (Slurm's form: MM, HH:MM:SS, D-HH).",
                            "T"};
    QCommandLineOption cpus{"cpus-per-task", "CPUs, and plume-cli threads, of each task.", "C"};
    QCommandLineOption frames{"frames-per-task", "Frames each render task renders.", "K"};
    QCommandLineOption checkpoint{"checkpoint-every",
                                  "Simulated frames between checkpoints (what a requeued task "
                                  "resumes from).",
                                  "N"};
    QCommandLineOption grace{"signal-grace",
                             "Seconds before the time limit a simulation is told to stop, "
                             "checkpoint and requeue itself.",
                             "S"};
    QCommandLineOption config{"config",
                              "Site options (JSON; docs/farm.md). Default: $PLUME_FARM_CONFIG, "
                              "else ~/.config/plume/farm.json when present.",
                              "FILE"};
    QCommandLineOption again{"again",
                             "Submit again into a folder that holds this submission: finished "
                             "tasks are skipped, stopped simulations resume."};
    QCommandLineOption dryRun{"dry-run", "Print the scripts and the commands; submit nothing."};
};

/// Applies --partition ... --signal-grace over the config file's values.
QString applyOverrides(const QCommandLineParser &p, const SubmitOptions &o, FarmConfig &c)
{
    auto intOption = [&p](const QCommandLineOption &opt, int min, int max, int &out) -> QString {
        if (!p.isSet(opt))
            return {};
        bool ok = false;
        const int v = p.value(opt).toInt(&ok);
        if (!ok || v < min || v > max)
            return QString("--%1 must be an integer from %2 to %3, got '%4'")
                .arg(opt.names().front())
                .arg(min)
                .arg(max)
                .arg(p.value(opt));
        out = v;
        return {};
    };
    if (p.isSet(o.partition))
        c.partition = p.value(o.partition);
    if (p.isSet(o.time)) {
        if (!isSlurmTime(p.value(o.time)))
            return "--time must be a Slurm time limit (MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM:SS), "
                   "got '"
                   + p.value(o.time) + "'";
        c.time = p.value(o.time);
    }
    for (const QString &error : {intOption(o.cpus, 1, 4096, c.cpusPerTask),
                                 intOption(o.frames, 1, 100000, c.framesPerTask),
                                 intOption(o.checkpoint, 1, 100000, c.checkpointEvery),
                                 intOption(o.grace, 10, 65535, c.signalGrace)}) {
        if (!error.isEmpty())
            return error;
    }
    return {};
}

/// Writes `data` to `path` atomically, executable when asked.
sim::Status writeFile(const QString &path, const QByteArray &data, bool executable)
{
    if (!QDir().mkpath(QFileInfo(path).path()))
        return sim::Status::failure(path.toStdString() + ": cannot create its folder");
    QSaveFile file(path);
    if (sim::Status st = writeSaveFile(file, data.constData(), data.size()); !st)
        return sim::Status::failure(path.toStdString() + ": " + st.error);
    if (executable)
        file.setPermissions(file.permissions() | QFileDevice::ExeOwner | QFileDevice::ExeGroup
                            | QFileDevice::ExeOther);
    if (!file.commit())
        return sim::Status::failure(path.toStdString() + ": " + file.errorString().toStdString());
    return sim::Status::success();
}

QString commandLine(const QString &program, const QStringList &args)
{
    QStringList quoted{program};
    for (const QString &a : args)
        quoted << shellQuote(a);
    return quoted.join(' ');
}

/// Runs a Slurm command with this process's environment (SLURM_CONF included); its standard
/// output, or the reason it failed.
sim::Status runSlurm(const QString &program, const QStringList &args, QString &out)
{
    QProcess process;
    process.start(program, args);
    if (!process.waitForStarted(30000))
        return sim::Status::failure(
            QString("cannot run %1 (%2): is Slurm's client installed and on PATH?")
                .arg(program, process.errorString())
                .toStdString());
    if (!process.waitForFinished(120000)) {
        process.kill();
        process.waitForFinished(5000);
        return sim::Status::failure(program.toStdString() + " did not answer within 2 minutes");
    }
    out = QString::fromUtf8(process.readAllStandardOutput());
    const QString err = QString::fromUtf8(process.readAllStandardError()).trimmed();
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0)
        return sim::Status::failure(QString("%1 failed (exit %2): %3")
                                        .arg(commandLine(program, args))
                                        .arg(process.exitCode())
                                        .arg(err.isEmpty() ? out.trimmed() : err)
                                        .toStdString());
    return sim::Status::success();
}

int failure(const sim::Status &st)
{
    std::fprintf(stderr, "plume-cli: %s\n", st.error.c_str());
    return kExitFailure;
}

int refused(const sim::Status &st)
{
    std::fprintf(stderr, "plume-cli: %s\n", st.error.c_str());
    return kExitUsage;
}

/// The variation list of an earlier submission matches this one: --again may reuse its states.
bool sameVariations(const FarmPlan &a, const FarmPlan &b)
{
    if (a.variations.size() != b.variations.size())
        return false;
    for (qsizetype i = 0; i < a.variations.size(); ++i) {
        if (a.variations[i].name != b.variations[i].name
            || a.variations[i].scene != b.variations[i].scene)
            return false;
    }
    return true;
}

int submitOpenJd(const FarmPlan &plan, bool dryRun)
{
    const QByteArray json = openJdTemplateJson(plan);
    if (dryRun) {
        std::printf("# %s\n%s", qPrintable(openJdTemplatePath(plan)), json.constData());
        return kExitOk;
    }
    if (sim::Status st = writeFile(openJdTemplatePath(plan), json, false); !st)
        return failure(st);
    FarmRecord record{"openjd", QDateTime::currentDateTimeUtc().toString(Qt::ISODate), plan, {}};
    for (FarmStep step : {FarmStep::Simulate, FarmStep::Render, FarmStep::Pack}) {
        if (step == FarmStep::Simulate || plan.renders())
            record.jobs.push_back(
                {step, openJdTemplatePath(plan), int(plan.tasks(step).size()), {}, {}});
    }
    if (sim::Status st = writeFarmRecord(record); !st)
        return failure(st);
    std::printf("wrote %s\nsubmit the job bundle %s (e.g. deadline bundle submit %s)\n",
                qPrintable(openJdTemplatePath(plan)),
                qPrintable(QFileInfo(openJdTemplatePath(plan)).path()),
                qPrintable(QFileInfo(openJdTemplatePath(plan)).path()));
    return kExitOk;
}

int submitSlurm(const FarmPlan &plan, bool dryRun, bool again)
{
    const QVector<SlurmJob> jobs = slurmJobs(plan);
    if (dryRun) {
        for (const SlurmJob &job : jobs)
            std::printf("# ---- %s\n%s\n", qPrintable(job.scriptPath), qPrintable(job.script));
        QString previous;
        for (const SlurmJob &job : jobs) {
            std::printf("%s\n", qPrintable(commandLine("sbatch", sbatchArguments(job, previous))));
            previous = "<" + farmStepName(job.step) + " job id>";
        }
        return kExitOk;
    }
    if (QStandardPaths::findExecutable("sbatch").isEmpty())
        return refused(sim::Status::failure(
            "sbatch is not on PATH: install Slurm's client (slurm-client) or submit from a "
            "machine of the cluster; --engine openjd writes a template instead"));
    const QString farm = plan.farmFolder();
    if (!again)
        QDir(farm + "/tasks").removeRecursively(); // the states of an earlier submission
    if (!QDir().mkpath(farm + "/logs") || !QDir().mkpath(farm + "/tasks"))
        return failure(sim::Status::failure(farm.toStdString() + ": cannot create it"));
    FarmRecord record{"slurm", QDateTime::currentDateTimeUtc().toString(Qt::ISODate), plan, {}};
    for (const SlurmJob &job : jobs) {
        if (sim::Status st = writeFile(job.scriptPath, job.script.toUtf8(), true); !st)
            return failure(st);
        record.jobs.push_back({job.step, job.scriptPath, job.tasks, {}, {}});
    }
    if (sim::Status st = writeFarmRecord(record); !st)
        return failure(st);
    QString previous;
    for (qsizetype i = 0; i < jobs.size(); ++i) {
        const QStringList args = sbatchArguments(jobs[i], previous);
        record.jobs[i].command = QStringList{"sbatch"} + args;
        QString out;
        sim::Status st = runSlurm("sbatch", args, out);
        const QString id = st ? parseSbatchJobId(out) : QString();
        if (st && id.isEmpty())
            st = sim::Status::failure("sbatch printed no job id: '" + out.trimmed().toStdString()
                                      + "'");
        if (!st) {
            // Nothing half-submitted: the jobs already queued would wait for a chain that
            // never comes.
            for (qsizetype j = 0; j < i; ++j) {
                QString ignored;
                if (runSlurm("scancel", {record.jobs[j].jobId}, ignored))
                    std::fprintf(stderr, "plume-cli: cancelled job %s\n",
                                 qPrintable(record.jobs[j].jobId));
            }
            if (i == 0 && !again)
                QFile::remove(farmRecordPath(plan.output)); // nothing submitted: a plain retry
            else
                writeFarmRecord(record);
            return failure(st);
        }
        record.jobs[i].jobId = previous = id;
        if (sim::Status w = writeFarmRecord(record); !w)
            return failure(w);
        std::printf("%s: job %s, %d task%s\n", qPrintable(farmStepName(jobs[i].step)),
                    qPrintable(id), jobs[i].tasks, jobs[i].tasks == 1 ? "" : "s");
    }
    std::printf("submitted %lld variation%s into %s; watch with: plume-cli farm status %s\n",
                qlonglong(plan.variations.size()), plan.variations.size() == 1 ? "" : "s",
                qPrintable(plan.output), qPrintable(shellQuote(plan.output)));
    return kExitOk;
}

int submit(const QStringList &arguments)
{
    QCommandLineParser parser;
    const SubmitOptions o;
    parser.addOptions({o.output, o.engine, o.partition, o.time, o.cpus, o.frames, o.checkpoint,
                       o.grace, o.config, o.again, o.dryRun});
    QStringList args = arguments;
    args.removeAt(1); // "farm"
    if (auto done = parseCommand(
            parser, args, "farm submit",
            "Bakes a scene, or every variation of a wedge manifest (plume-cli wedge), on a farm: "
            "DIR/<variation>/ ends holding what plume-cli bake of that variation writes (with its "
            "VDB cache), and DIR/.plume-farm/ the scripts, logs, task states and submission "
            "record. "
            "Slurm: an array job simulates each variation (requeued and resumed before its time "
            "limit), then, when the scenes ask for a flipbook or images, an array renders frame "
            "chunks from the cache and a last array packs each variation's atlas (docs/farm.md). "
            "Exit codes: 0 submitted (or written); 1 sbatch failed; 2 bad usage or input.",
            {"input", "A scene (.plume) or a wedge manifest (.json).", "scene or wedge manifest"}))
        return *done;
    if (!parser.isSet(o.output))
        return usageError("farm submit needs an output folder: -o DIR");
    const QString engine = parser.value(o.engine);
    if (engine != "slurm" && engine != "openjd")
        return usageError("--engine must be slurm or openjd, got '" + engine + "'");
    FarmConfig config;
    if (sim::Status st = loadFarmConfig(parser.value(o.config), config); !st)
        return refused(st);
    if (const QString error = applyOverrides(parser, o, config); !error.isEmpty())
        return usageError(error);
    if (!config.time.isEmpty() && slurmTimeSeconds(config.time) <= config.signalGrace)
        return usageError(QString("the time limit %1 leaves no time before the stop signal "
                                  "%2 s ahead of it: raise --time or lower --signal-grace")
                              .arg(config.time)
                              .arg(config.signalGrace));
    const QString plumeCli = config.plumeCli.isEmpty() ? QCoreApplication::applicationFilePath()
                                                       : config.plumeCli;
    FarmPlan plan;
    if (sim::Status st = planFarm(parser.positionalArguments()[1], parser.value(o.output), config,
                                  plumeCli, plan);
        !st)
        return refused(st);
    if (!parser.isSet(o.dryRun) && QFileInfo::exists(farmRecordPath(plan.output))) {
        FarmRecord earlier;
        const bool readable = readFarmRecord(plan.output, earlier).ok();
        if (!parser.isSet(o.again))
            return usageError(plan.output + " already holds a farm submission ("
                              + farmRecordPath(plan.output)
                              + "): --again submits it again, resuming; or choose another folder");
        if (!readable || !sameVariations(earlier.plan, plan))
            return usageError("--again: " + plan.output
                              + " holds a submission of other variations; choose another folder");
    }
    if (engine == "openjd")
        return submitOpenJd(plan, parser.isSet(o.dryRun));
    return submitSlurm(plan, parser.isSet(o.dryRun), parser.isSet(o.again));
}

int status(const QStringList &arguments)
{
    QCommandLineParser parser;
    QStringList args = arguments;
    args.removeAt(1); // "farm"
    if (auto done = parseCommand(
            parser, args, "farm status",
            "Reports a farm bake's progress from its folder: per variation the VDB frames written, "
            "the resume record's last checkpoint, render chunks done, kept renders, the atlas, and "
            "failed or stopped tasks with the last error line of their log. Exit codes: 0 every "
            "variation done; 1 running or failed (the last line says which); 2 not a farm "
            "folder.",
            {"folder", "The output folder of plume-cli farm submit.", "folder"}))
        return *done;
    FarmStatus s;
    if (sim::Status st = readFarmStatus(parser.positionalArguments()[1], s); !st)
        return refused(st);
    std::fputs(qPrintable(describeFarmStatus(s)), stdout);
    if (s.done == s.variations.size()) {
        std::puts("done");
        return kExitOk;
    }
    std::puts(s.failed > 0 ? "failed" : "running");
    return kExitFailure;
}

} // namespace

int farm(const QStringList &arguments)
{
    const QString sub = arguments.size() > 2 ? arguments[2] : QString();
    if (sub == "submit")
        return submit(arguments);
    if (sub == "status")
        return status(arguments);
    if (sub == "--help" || sub == "-h") {
        std::puts("Usage: plume-cli farm submit SCENE|MANIFEST -o DIR [options]\n"
                  "       plume-cli farm status DIR\n"
                  "'plume-cli farm submit --help' and 'plume-cli farm status --help' describe them "
                  "(docs/farm.md).");
        return kExitOk;
    }
    return usageError(sub.isEmpty() ? QString("farm needs a command: submit or status")
                                    : "unknown farm command '" + sub + "' (submit or status)");
}

} // namespace plume::cli
