// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/bake/baker.h>

#include <core/export/oceanmaps.h>
#include <core/settings/exportsettings.h>

#include <filesystem>
#include <string>
#include <vector>

namespace plume {

/// What an ocean bake writes (docs/ocean.md): 16-bit PNG or OpenEXR maps per frame, or one
/// atlas per map.
struct OceanBakeSettings
{
    std::filesystem::path outputDirectory; ///< created when missing
    std::string baseName;
    int firstFrame = 1; ///< inclusive, within the scene's frame range
    int lastFrame = 1;
    std::vector<OceanMap> maps{OceanMap::Height, OceanMap::Normal, OceanMap::Foam};
    bool flipbook = false; ///< one atlas per map instead of an image per frame
    int columns = 0;       ///< atlas columns; 0: the smallest square that fits
    /// PNG: 16 bit, height scaled to [0, 1] by its range. OpenEXR (half or float, linear): the
    /// height in metres as it is; normal and foam encoded as in the PNGs.
    ImageFormat format = ImageFormat::Png;
    ExrPrecision exrPrecision = ExrPrecision::Half;
    std::string plumeVersion;
};

/// Bakes an ocean scene's maps: <base>_<map>.<frame:04d>.png (.exr) per frame (or
/// <base>_<map>_flipbook.png (.exr) with `flipbook`) and the sidecar <base>_ocean.json, which
/// records the height range the height maps are scaled by (over the frames written), the
/// patch size, frame rate and loop. The simulation runs twice through SceneSimulation (the
/// first pass finds the height range). With frames 1..N for a loop of N frames, frame N flows
/// into frame 1 and every map tiles. Files appear complete or not at all; the bytes do not
/// depend on the thread count. Refuses scenes of another scheme.
BakeResult bakeOceanMaps(const Scene &scene, const OceanBakeSettings &settings,
                         BakeObserver *observer = nullptr);

} // namespace plume
