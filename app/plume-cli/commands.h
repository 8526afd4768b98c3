// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QStringList>

namespace plume::cli {

// plume-cli's commands, one source file each; each takes the whole argument list and returns
// the exit code (app/plume-cli/common.h).

/// plume-cli simulate: runs a built-in scene headless and prints per-frame timings.
int simulate(const QStringList &arguments);
/// plume-cli validate SCENE: reads and checks a scene; exit 0 when valid, 2 when not.
int validate(const QStringList &arguments);
/// plume-cli info SCENE: what a scene holds and what it will cost.
int info(const QStringList &arguments);
/// plume-cli bake SCENE -o DIR: simulates and writes the outputs asked for.
int bake(const QStringList &arguments);
/// plume-cli wedge SCENE -o DIR --vary KEY=VALUES...: writes variations of a scene and their
/// manifest (core/bake/wedge.h).
int wedge(const QStringList &arguments);
/// plume-cli farm submit|status: bakes on a Slurm farm or writes an OpenJD template.
int farm(const QStringList &arguments);

} // namespace plume::cli
