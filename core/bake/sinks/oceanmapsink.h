// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/bake/sinks/bakesink.h>

#include <core/export/oceanmaps.h>

namespace plume {

/// An ocean scene's maps (docs/ocean.md): <base>_<map>.<frame:04d>.png (.exr) per frame, or
/// one atlas per map, and the sidecar <base>_ocean.json. The PNG height maps are scaled by the
/// height range over the frames written, which begin() finds by simulating them once ahead.
class OceanMapSink : public BakeSink
{
public:
    /// `observer` is polled while begin() looks ahead (a cancel stops it).
    OceanMapSink(const Scene &scene, const BakePlan &plan, BakeObserver *observer)
        : mScene(scene)
        , mPlan(plan)
        , mSettings(*plan.settings.oceanMaps)
        , mObserver(observer)
    {}
    sim::Status begin() override;
    sim::Status frame(const BakeFrame &frame, std::vector<std::filesystem::path> &files) override;
    sim::Status finish(std::vector<std::filesystem::path> &files) override;

private:
    const Scene &mScene;
    const BakePlan &mPlan;
    const OceanBakeSettings &mSettings;
    BakeObserver *mObserver;
    float mLow = 0.f, mHigh = 1.f;               ///< the height range over the frames written
    std::vector<std::string> mNames;             ///< the maps' file names, for the sidecar
    std::vector<std::vector<MapImage>> mAtlases; ///< per map, its frames (flipbook layout)
    sim::Domain mDomain;
};

} // namespace plume
