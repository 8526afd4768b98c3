// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace plume::bench {

/// plume-bench --streamlines: milliseconds to place and trace the view's streamlines
/// (render/streamlines.h, viewStreamlineOptions) in the built-in 2D plume after `frames`
/// frames, at 128^2, 256^2 and 512^2: medians of `repeats` runs of the wall time and of the
/// process's CPU time (serial code, as the view runs it: on a loaded machine the CPU time is the
/// steadier figure). Returns the exit code.
int runStreamlineBench(int frames, int repeats);

} // namespace plume::bench
