// SPDX-License-Identifier: Apache-2.0
#include <core/farm/slurmjobs.h>

#include <QDir>

namespace plume {

namespace {

/// The #SBATCH lines: the step's, then the site's.
QString sbatchLines(const FarmPlan &plan, FarmStep step, int tasks)
{
    const FarmConfig &c = plan.config;
    const QString name = farmStepName(step);
    QStringList lines;
    lines << "--job-name=plume-" + name << QString("--array=0-%1").arg(tasks - 1)
          << QString("--cpus-per-task=%1").arg(c.cpusPerTask);
    if (!c.time.isEmpty())
        lines << "--time=" + c.time;
    if (!c.partition.isEmpty())
        lines << "--partition=" + c.partition;
    if (!c.account.isEmpty())
        lines << "--account=" + c.account;
    if (!c.qos.isEmpty())
        lines << "--qos=" + c.qos;
    lines << "--requeue";
    if (step == FarmStep::Simulate)
        lines << QString("--signal=B:USR1@%1").arg(c.signalGrace);
    else
        lines << "--kill-on-invalid-dep=yes";
    lines << "--open-mode=append"
          << "--output=" + QDir(plan.farmFolder()).filePath("logs/" + name + ".%a.log");
    lines << c.sbatch;
    QString out;
    for (const QString &l : lines)
        out += "#SBATCH " + l + "\n";
    return out;
}

/// The case statement choosing each task's folder and command.
QString taskCases(const FarmPlan &plan, FarmStep step)
{
    QString out = "case \"$task\" in\n";
    for (const FarmTask &t : plan.tasks(step)) {
        const FarmVariation &v = plan.variations[t.variation];
        out += QString("%1) out=%2\n   cmd=(%3) ;;\n")
                   .arg(t.index)
                   .arg(shellQuote(v.folder), farmTaskCommandLine(plan, t));
    }
    out += "*) echo \"plume-farm: this job has no task $task\" >&2; exit 2 ;;\nesac\n";
    return out;
}

/// What every task does around plume-cli: state, log lines, signals, and for the simulation
/// the resume and the requeue.
QString runner(FarmStep step)
{
    QString s = R"sh(mkdir -p "$farm/tasks"
mark() { # the task's state, read by plume-cli farm status
    printf '%s\n' "$*" >"$farm/tasks/.$step.$task" && mv -f "$farm/tasks/.$step.$task" "$farm/tasks/$step.$task"
}
)sh";
    s +=
        R"sh(if [ "$(cat "$farm/tasks/$step.$task" 2>/dev/null)" = done ] && [ ! -e "$out/.plume-bake" ]; then
    echo "plume-farm: $step task $task finished in an earlier run (plume-cli farm submit --again)"
    exit 0
fi
)sh";
    if (step == FarmStep::Simulate)
        s +=
            R"sh(# A resume record means an earlier run of this task stopped (requeued, preempted, timed out).
if [ -f "$out/.plume-bake/bake.json" ]; then cmd+=(--resume); fi
)sh";
    s += R"sh(why= child=
stop() { # plume-cli stops between frames on SIGTERM, keeping its resume record
    why=$1
    echo "plume-farm: $(date -u +%FT%TZ) $why: stopping plume-cli at the next frame"
    if [ -n "$child" ]; then kill -TERM "$child" 2>/dev/null; fi
}
trap 'stop "the time limit is near (USR1)"' USR1
trap 'stop "Slurm stops the task (TERM)"' TERM
mark "running job ${SLURM_JOB_ID:-?} restart ${SLURM_RESTART_COUNT:-0}"
echo "plume-farm: $(date -u +%FT%TZ) $step task $task, job ${SLURM_JOB_ID:-?}, restart ${SLURM_RESTART_COUNT:-0}, host $(hostname -s): ${cmd[*]}"
"${cmd[@]}" &
child=$!
status=0
wait "$child" || status=$?
# A trapped signal ends wait early (status > 128): wait again for plume-cli itself.
while [ "$status" -gt 128 ] && kill -0 "$child" 2>/dev/null; do
    status=0
    wait "$child" || status=$?
done
echo "plume-farm: $(date -u +%FT%TZ) plume-cli exited $status"
if [ "$status" = 0 ]; then
    mark "done"
    exit 0
fi
)sh";
    if (step == FarmStep::Simulate)
        s +=
            R"sh(if [ "$why" = "the time limit is near (USR1)" ] && [ -f "$out/.plume-bake/bake.json" ]; then
    # Resumable: run this task again; it continues from the last checkpoint.
    mark "requeued exit $status"
    echo "plume-farm: requeueing ${SLURM_ARRAY_JOB_ID}_${task}: it continues with --resume"
    if scontrol requeue "${SLURM_ARRAY_JOB_ID}_${task}"; then
        exit 0
    fi
    mark "failed exit $status: scontrol requeue refused"
    exit "$status"
fi
)sh";
    s += R"sh(if [ -n "$why" ]; then
    mark "stopped exit $status: $why"
else
    mark "failed exit $status"
fi
exit "$status"
)sh";
    return s;
}

QString batchScript(const FarmPlan &plan, FarmStep step, int tasks)
{
    static const char *what[] = {
        "simulate: one task per variation bakes its VDB cache with checkpoints",
        "render: one task per frame chunk renders from the VDB cache",
        "pack: one task per variation writes the flipbook atlas, its sidecar and images"};
    QString s = "#!/bin/bash\n";
    s += QString("# Plume farm bake of %1 into %2 (plume-cli farm submit; docs/farm.md)\n")
             .arg(plan.input, plan.output);
    s += QString("# %1\n").arg(what[int(step)]);
    s += sbatchLines(plan, step, tasks);
    s += "set -u\n";
    for (const QString &line : plan.config.environment)
        s += line + "\n";
    s += "plume_cli=" + shellQuote(plan.plumeCli) + "\n";
    s += "farm=" + shellQuote(plan.farmFolder()) + "\n";
    s += "step=" + farmStepName(step) + "\n";
    s += "task=${SLURM_ARRAY_TASK_ID:?plume-farm: submit this script with sbatch, as an array "
         "job}\n";
    s += "threads=${SLURM_CPUS_PER_TASK:-1} # task/none binds no CPUs: plume-cli uses this many\n";
    s += taskCases(plan, step);
    s += runner(step);
    return s;
}

} // namespace

QVector<SlurmJob> slurmJobs(const FarmPlan &plan)
{
    QVector<SlurmJob> jobs;
    QVector<FarmStep> steps{FarmStep::Simulate};
    if (plan.renders())
        steps << FarmStep::Render << FarmStep::Pack;
    for (FarmStep step : steps) {
        SlurmJob job;
        job.step = step;
        job.tasks = int(plan.tasks(step).size());
        job.scriptPath = QDir(plan.farmFolder()).filePath(farmStepName(step) + ".sh");
        job.script = batchScript(plan, step, job.tasks);
        jobs.push_back(job);
    }
    return jobs;
}

QStringList sbatchArguments(const SlurmJob &job, const QString &dependsOn)
{
    QStringList args{"--parsable"};
    if (!dependsOn.isEmpty())
        args << "--dependency=afterok:" + dependsOn;
    args << job.scriptPath;
    return args;
}

QString parseSbatchJobId(const QString &output)
{
    const QString first = output.trimmed().section('\n', -1).section(';', 0, 0).trimmed();
    bool ok = false;
    first.toLongLong(&ok);
    return ok ? first : QString();
}

QString farmTaskStatePath(const QString &farmFolder, FarmStep step, int task)
{
    return QDir(farmFolder).filePath(QString("tasks/%1.%2").arg(farmStepName(step)).arg(task));
}

QString farmTaskLogPath(const QString &farmFolder, FarmStep step, int task)
{
    return QDir(farmFolder).filePath(QString("logs/%1.%2.log").arg(farmStepName(step)).arg(task));
}

} // namespace plume
