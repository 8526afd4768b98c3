// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace plume::bench {

/// plume-bench --sph: the sph scheme (docs/sph.md). A 3D block of about 100k particles
/// collapsing in a tank: median ms per internal step with 1 and 2 threads after `warmup` steps,
/// over `steps` steps, and bytes per particle; then a block of about 1M particles: its memory
/// and one step's time. Returns the exit code.
int runSphBench(int warmup, int steps);

} // namespace plume::bench
