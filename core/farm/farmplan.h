// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/farm/farmconfig.h>

#include <QString>
#include <QStringList>
#include <QVector>

namespace plume {

// What a farm bake runs (docs/farm.md): the variations (a wedge's, or one scene), each baked
// into DIR/<name>/ as `plume-cli bake` would, by a chain of three array jobs:
//   simulate  one task per variation: the VDB cache, with checkpoints (resumable)
//   render    one task per frame chunk of every variation that renders (flipbook, images)
//   pack      one task per variation that renders: the atlas, sidecar and images
// Scripts, logs, task states and the submission record live in DIR/.plume-farm/.

/// The farm's own folder inside the output folder.
inline constexpr const char *kFarmFolder = ".plume-farm";

enum class FarmStep { Simulate, Render, Pack };

/// "simulate", "render", "pack": the scripts', logs' and task states' names.
QString farmStepName(FarmStep step);

/// Frames first..last, inclusive.
struct FarmChunk
{
    int first = 0;
    int last = 0;
};

struct FarmVariation
{
    int index = 0;
    QString name;       ///< the output folder's name: DIR/<name>; the scene file's base name
    QString scene;      ///< absolute
    QString folder;     ///< absolute: DIR/<name>
    int firstFrame = 0; ///< the bake's frames (the scene's frame range)
    int lastFrame = 0;
    /// Whether the scene's presets ask for a flipbook or images: then the simulation writes the
    /// cache only and render and pack tasks make the rest from it.
    bool renders = false;
    QVector<FarmChunk> chunks; ///< the render tasks' frames; empty without renders
    QString atlas;             ///< the flipbook's base name (no extension); empty without one
};

/// One array task: its step, its index in the step's array and what it bakes.
struct FarmTask
{
    FarmStep step = FarmStep::Simulate;
    int index = 0;
    int variation = 0; ///< index into FarmPlan::variations
    FarmChunk chunk;   ///< render tasks only
};

struct FarmPlan
{
    QString input;    ///< the scene or wedge manifest, absolute
    QString output;   ///< DIR, absolute
    QString plumeCli; ///< plume-cli on the farm's machines
    FarmConfig config;
    QVector<FarmVariation> variations;

    /// DIR/.plume-farm
    QString farmFolder() const;
    /// Whether any variation renders (then the render and pack jobs run).
    bool renders() const;
    /// Every task of `step`, in array order.
    QVector<FarmTask> tasks(FarmStep step) const;
};

/// The most tasks one array may hold (Slurm's default MaxArraySize is 1001: indices 0-1000).
inline constexpr int kMaxArrayTasks = 1000;

/// Reads `input` (a scene, or a wedge manifest: isFarmWedgePath()) and plans its farm bake
/// into `output`. Refused, with the file and the reason: unreadable or invalid scenes, ocean
/// scenes (they bake maps, not a cache), more than kMaxArrayTasks tasks in one array.
sim::Status planFarm(const QString &input, const QString &output, const FarmConfig &config,
                     const QString &plumeCli, FarmPlan &plan);

/// The plume-cli arguments (after the program) of a task; `threads` is put in as it is, e.g.
/// "$threads" in a script. Simulation tasks get --resume added by their script when the resume
/// record exists.
QStringList farmTaskArguments(const FarmPlan &plan, const FarmTask &task, const QString &threads);

/// A task's command as a bash line that runs "$plume_cli" with "$threads" threads, e.g.
///   "$plume_cli" bake /farm/w/scene_w0.plume -o /farm/out/scene_w0 ... --threads "$threads"
/// The scripts (Slurm's and OpenJD's) set both variables.
QString farmTaskCommandLine(const FarmPlan &plan, const FarmTask &task);

/// `text` quoted for a POSIX shell when it needs it.
QString shellQuote(const QString &text);

} // namespace plume
