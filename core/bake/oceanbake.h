// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/bake/baker.h>

#include <core/export/oceanmaps.h>
#include <core/scene/scene.h>
#include <core/settings/exportsettings.h>

#include <filesystem>
#include <string>
#include <vector>

namespace plume {

/// Bakes an ocean scene's maps: <base>_<map>.<frame:04d>.png (.exr) per frame (or
/// <base>_<map>_flipbook.png (.exr) with `flipbook`) and the sidecar <base>_ocean.json, which
/// records the height range the height maps are scaled by (over the frames written), the
/// patch size, frame rate and loop. The simulation runs twice through SceneSimulation (the
/// first pass finds the height range). With frames 1..N for a loop of N frames, frame N flows
/// into frame 1 and every map tiles. Files appear complete or not at all; the bytes do not
/// depend on the thread count. Refuses scenes of another scheme. The bake plan and loop
/// (bake/baker.h) with the ocean maps as the only output.
BakeResult bakeOceanMaps(const Scene &scene, const OceanBakeSettings &settings,
                         BakeObserver *observer = nullptr);

} // namespace plume
