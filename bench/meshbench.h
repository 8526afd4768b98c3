// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace plume::bench {

/// plume-bench --mesh: coverage and per-frame costs of a 100k-triangle model at 128^3
/// (medians of `repeats` runs). Returns the exit code.
int runMeshBench(int repeats);

} // namespace plume::bench
