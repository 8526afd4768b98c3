// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/types.h>

#include <QString>
#include <QStringList>

namespace plume {

// A site's farm options (docs/farm.md): a JSON object whose keys are the members below, e.g.
//   {"account": "fx", "qos": "normal", "partition": "cpu", "time": "2:00:00",
//    "cpusPerTask": 8, "framesPerTask": 10, "checkpointEvery": 5, "signalGrace": 120,
//    "sbatch": ["--mem=16G", "--constraint=avx2"],
//    "environment": ["module load plume/1.4"], "plumeCli": "/opt/plume/bin/plume-cli"}
// Every key is optional; an unknown key or a value of the wrong kind is refused with the file,
// the key and what was expected. plume-cli farm submit's options override the file's values.

/// The options of every farm job; an empty string means "not given" (the scheduler's default).
struct FarmConfig
{
    QString account;         ///< sbatch --account
    QString qos;             ///< sbatch --qos
    QString partition;       ///< sbatch --partition
    QString time;            ///< each task's time limit, Slurm's form ("90", "2:00:00", "1-0")
    int cpusPerTask = 1;     ///< CPUs of a task; plume-cli bakes with as many threads
    int framesPerTask = 10;  ///< frames a render task renders
    int checkpointEvery = 5; ///< simulated frames between checkpoints (the resume record)
    int signalGrace = 120;   ///< seconds before the time limit a simulation is told to stop
    QStringList sbatch;      ///< extra sbatch options, one "#SBATCH" line each ("--mem=16G")
    QStringList environment; ///< shell lines run before plume-cli ("module load plume")
    QString plumeCli;        ///< plume-cli on the farm's machines; empty: the one submitting
    QString source;          ///< the file the options came from; empty: the defaults
};

/// The config file to read: `explicitPath` (--config), else $PLUME_FARM_CONFIG, else
/// ~/.config/plume/farm.json. `required` says whether it must exist (false only for the last).
QString farmConfigPath(const QString &explicitPath, bool &required);

/// Reads `path` into `config` (defaults for what it does not name). Messages name the file, the
/// key and what was expected.
sim::Status readFarmConfig(const QString &path, FarmConfig &config);

/// farmConfigPath() then readFarmConfig(); a missing optional file leaves the defaults.
sim::Status loadFarmConfig(const QString &explicitPath, FarmConfig &config);

/// Whether `text` is a Slurm time limit: "MM", "MM:SS", "HH:MM:SS", "D-HH", "D-HH:MM",
/// "D-HH:MM:SS".
bool isSlurmTime(const QString &text);

/// A Slurm time limit in seconds; -1 when `text` is not one.
long long slurmTimeSeconds(const QString &text);

} // namespace plume
