// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/farm/farmplan.h>

#include <QString>
#include <QStringList>
#include <QVector>

namespace plume {

// The submission record, DIR/.plume-farm/submission.json (docs/farm.md): the engine, the
// variations with their frames and chunks, the jobs with their ids and sbatch command lines,
// and every task's plume-cli command. Written before the first sbatch and again after each, so
// that a failed submission leaves a record of what was submitted; plume-cli farm status reads
// it.

/// A submitted (or, in a dry run or for OpenJD, written) job of the chain.
struct FarmJobRecord
{
    FarmStep step = FarmStep::Simulate;
    QString script;      ///< the batch script or template
    int tasks = 0;       ///< array size
    QString jobId;       ///< Slurm's job id; empty until submitted
    QStringList command; ///< the submitting command line (sbatch ...)
};

struct FarmRecord
{
    QString engine;  ///< "slurm" or "openjd"
    QString created; ///< ISO 8601, UTC
    FarmPlan plan;
    QVector<FarmJobRecord> jobs;
};

/// DIR/.plume-farm/submission.json
QString farmRecordPath(const QString &output);

/// The record as JSON (format "plume-farm", version 1).
QByteArray farmRecordJson(const FarmRecord &record);

/// Writes the record atomically; the message names the file.
sim::Status writeFarmRecord(const FarmRecord &record);

/// Reads DIR/.plume-farm/submission.json; the message names the file and what is wrong.
sim::Status readFarmRecord(const QString &output, FarmRecord &record);

} // namespace plume
