// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace plume::bench {

/// plume-bench --composite: the sparse scheme's pressure solve (core/sim/sparse/
/// compositepressure.h) against the dense one on the built-in 3D plume at `resolution`^3.
/// The plume runs dense; at every `every`-th frame up to `frames`, the tiles within a padding
/// of the smoke are made active, the velocity gets one step of buoyancy (the divergence a
/// projection removes in a step), and the dense and composite solves project copies of it in
/// turn, `repeats` times each. Prints per frame the smoke's and the active tiles' share, the
/// composite cells against the domain's, iterations, median ms of each, their ratio, and the
/// relative L2 difference of the velocity over the active tiles. Returns the exit code.
int runCompositeBench(int resolution, int frames, int every, int repeats);

} // namespace plume::bench
