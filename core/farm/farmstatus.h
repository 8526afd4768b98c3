// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/farm/farmrecord.h>

#include <QString>
#include <QVector>

namespace plume {

// plume-cli farm status DIR: a farm bake's progress read from the folder alone (no scheduler
// query): the files each variation holds, its resume record, the kept renders and the states
// that the tasks' scripts write (slurmjobs.h).

/// The last state a task's script wrote.
enum class FarmTaskState { NotStarted, Running, Requeued, Done, Stopped, Failed };

struct FarmTaskStatus
{
    FarmStep step = FarmStep::Simulate;
    int task = 0;
    FarmTaskState state = FarmTaskState::NotStarted;
    QString line;    ///< the state file's line ("failed exit 1")
    QString logLine; ///< failed or stopped: the last "plume-cli:" error line of its log
};

struct FarmVariationStatus
{
    QString name;
    int vdbFrames = 0;         ///< <name>.<frame>.vdb files of the bake's frames present
    int totalFrames = 0;       ///< the bake's frames
    bool resumeRecord = false; ///< .plume-bake/bake.json present: a bake stopped or running
    int checkpointFrames = -1; ///< frames simulated at its last checkpoint; -1: none
    bool renders = false;
    int chunks = 0; ///< render tasks
    int chunksDone = 0;
    int keptRenders = -1; ///< files in .plume-render/; -1: no such folder
    bool atlas = false;   ///< the flipbook atlas is present (when it has one)
    bool done = false;
    QVector<FarmTaskStatus> troubles; ///< its failed or stopped tasks
    QString phase; ///< "done", "simulating", "rendering", "packing", "failed", "waiting"
};

struct FarmStatus
{
    FarmRecord record;
    QVector<FarmVariationStatus> variations;
    int done = 0;
    int failed = 0;
    int running = 0; ///< neither done nor failed: queued, running, requeued
};

/// Reads DIR's submission record and the state of every variation. Fails (the message names
/// the file) when DIR holds no farm submission.
sim::Status readFarmStatus(const QString &output, FarmStatus &status);

/// The report: one line per variation, then the totals.
QString describeFarmStatus(const FarmStatus &status);

/// The last line of `log` that plume-cli wrote about an error ("plume-cli: ..."), leaving out
/// its hint to resume; empty when there is none.
QString lastPlumeCliError(const QString &log);

} // namespace plume
