// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/farm/farmplan.h>

#include <QString>
#include <QStringList>
#include <QVector>

namespace plume {

// The Slurm side of a farm bake (docs/farm.md): one batch script per step, each an array job,
// submitted with sbatch --parsable in the order simulate, render (afterok on simulate), pack
// (afterok on render). Each task writes its state to DIR/.plume-farm/tasks/<step>.<task> and
// its log to DIR/.plume-farm/logs/<step>.<task>.log (appended across requeues).
//
// A simulation task runs with --requeue and --signal=B:USR1@<signalGrace>: the script traps
// USR1, sends plume-cli SIGTERM (it stops between frames with its resume record in place),
// waits for it and requeues its own array task with scontrol; run again, it adds --resume
// because DIR/<name>/.plume-bake/bake.json exists. A task requeued from outside (scontrol
// requeue, a node failure) continues the same way.

struct SlurmJob
{
    FarmStep step = FarmStep::Simulate;
    QString scriptPath; ///< DIR/.plume-farm/<step>.sh
    QString script;     ///< the batch script's text
    int tasks = 0;      ///< array size
};

/// The jobs of `plan` in submission order: simulate, and when a variation renders, render and
/// pack.
QVector<SlurmJob> slurmJobs(const FarmPlan &plan);

/// sbatch's arguments for `job`: --parsable, --dependency=afterok:`dependsOn` unless empty,
/// and the script. Everything else is in the script's #SBATCH lines.
QStringList sbatchArguments(const SlurmJob &job, const QString &dependsOn);

/// The job id in sbatch --parsable's output ("1234" or "1234;cluster"); empty when there is
/// none.
QString parseSbatchJobId(const QString &output);

/// DIR/.plume-farm/tasks/<step>.<task>: the state a task's script writes.
QString farmTaskStatePath(const QString &farmFolder, FarmStep step, int task);
/// DIR/.plume-farm/logs/<step>.<task>.log
QString farmTaskLogPath(const QString &farmFolder, FarmStep step, int task);

} // namespace plume
