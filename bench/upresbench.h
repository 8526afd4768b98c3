// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace plume::bench {

/// plume-bench --upres: a smoke scene (a file, or the built-in 3D plume) at `resolution` cells
/// on its long axis, simulated without upres and with each factor in 2..`maxFactor`
/// (docs/upres.md) side by side in one run. After `warmup` frames (untimed) it times `frames`
/// frames of each in turn and prints per factor the median ms per step, the median of the
/// per-frame ratios to the base step, the cells the fine fields worked in and the solver's
/// bytes. Returns the exit code.
int runUpresBench(const std::string &sceneFile, int resolution, int warmup, int frames,
                  int maxFactor);

} // namespace plume::bench
