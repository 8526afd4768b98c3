// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace plume::bench {

/// plume-bench --surface: what level surfaces cost (docs/surfaces.md): meshing 100k
/// particles and a 128^3 density, the volume view's 64^3 mesh, the dense field the renderer
/// reads and a VDB frame with the surface and points grids; medians of `repeats` runs with 1
/// and 2 threads, alternating. Returns the exit code.
int runSurfaceBench(int repeats);

} // namespace plume::bench
