// SPDX-License-Identifier: Apache-2.0
#include <core/bake/oceanbake.h>

namespace plume {

BakeResult bakeOceanMaps(const Scene &scene, const OceanBakeSettings &s, BakeObserver *observer)
{
    BakeSettings settings;
    settings.outputDirectory = s.outputDirectory;
    settings.baseName = s.baseName;
    settings.firstFrame = s.firstFrame;
    settings.lastFrame = s.lastFrame;
    settings.plumeVersion = s.plumeVersion;
    settings.vdb = false;
    settings.oceanMaps = s;
    return bakeScene(scene, settings, observer);
}

} // namespace plume
