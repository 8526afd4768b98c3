// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace plume::bench {

/// plume-bench --ensemble: the dense solve's own spread as the yardstick of another solver
/// (issue 36; docs/adaptive.md "The dense solve's own spread").
///
/// Runs, one after another over `frames` frames, the adaptive domain's solve of a scene (the
/// built-in 3D plume at `resolution`^3, or `sceneFile`, at `resolution` cells on its long axis
/// when `resolution` > 0), its dense solve, and `members` (2 to 8) dense solves with one
/// parameter scaled by 1 + eps or 1 - eps: in turn the vorticity confinement, the buoyancy
/// (per unit temperature), the first emitter's density rate and its temperature rate, first with
/// + then with -. The ensemble is the dense solve and its perturbed copies. Every frame, each
/// run's integrals (sim/run/plumeintegrals.h) are taken; the table gives per frame each
/// integral's ensemble range and the adaptive run's value, marking those outside the widened
/// interval (EnsembleTolerance's defaults), and the verdict over frames 24-96. Then each
/// member against the others (how often a dense run itself falls outside) and the spread of
/// every integral. Returns the exit code.
/// With `tiles` (--tiles), the run judged is the active tiles' (tiledsmoke.h) instead of the
/// adaptive box's, its kinetic energy over the whole room.
int runEnsembleBench(const std::string &sceneFile, int resolution, int frames, int members,
                     double eps, bool tiles = false);

} // namespace plume::bench
