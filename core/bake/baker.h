// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/bake/bakeplan.h>
#include <core/bake/bakesettings.h>

#include <core/scene/scene.h>

namespace plume {

/// Runs a plan (bake/bakeplan.h): simulates `scene` from its first frame through the plan's
/// last and hands each frame to the output sinks (bake/sinks/): per frame an OpenVDB file
/// (grids density, temperature, vel and, when an emitter has dye, Cd; with particles or
/// levelSurface, `surface` and `points`; see export/vdbwriter.h), with `mesh` an OBJ of the
/// level surface, a PNG of the image sequence, the ocean maps; at the end the flipbook
/// atlases and sidecar (export/flipbook.h), the flow map (export/flowmap.h) and the ocean
/// maps' sidecar. Each frame is rendered once for the flipbook and the image sequence
/// together; with the render look "texture" they show the scene's liquid texture
/// (render/liquidtexture.h). Frame f is the state after simulating frames frameStart..f, with
/// the scene's inputs evaluated at f. Every file appears complete or not at all. The result is
/// the same whatever the thread count, and a resumed bake leaves the same files as one that
/// was never interrupted. A write that fails (a full disk) stops the bake; the frames written
/// before stay, and so does the resume record.
BakeResult runBake(const Scene &scene, const BakePlan &plan, BakeObserver *observer = nullptr);

/// planBake() then runBake(): a refused plan is the result, with the plan's outcome.
BakeResult bakeScene(const Scene &scene, const BakeSettings &settings,
                     BakeObserver *observer = nullptr);

} // namespace plume
