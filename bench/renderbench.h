// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace plume::bench {

/// plume-bench --render: milliseconds to render one 384 x 384 frame (orthographic, the default
/// camera) of the built-in 3D plume at `resolution`^3 after `frames` frames, with the light
/// model's parts switched on one by one (docs/render.md): single scattering alone (the work of
/// the model before multiple scattering), then multiple scattering, then the sky, then the
/// defaults with emission light, then with six-way lightmaps. Medians of `repeats` runs, on
/// all cores. Returns the exit code.
int runRenderBench(int resolution, int frames, int repeats);

} // namespace plume::bench
