// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/bake/sinks/bakesink.h>

#include <core/export/volumetexture.h>

namespace plume {

/// Volume textures (export/volumetexture.h): <baseName>_volume.<frame:04d>.png, a slice atlas,
/// for each of the plan's volume texture frames, and after the last <baseName>_volume.json,
/// the layout and each frame's range.
class VolumeTextureSink : public BakeSink
{
public:
    explicit VolumeTextureSink(const BakePlan &plan)
        : mPlan(plan)
    {}
    sim::Status frame(const BakeFrame &frame, std::vector<std::filesystem::path> &files) override;
    sim::Status finish(std::vector<std::filesystem::path> &files) override;

private:
    const BakePlan &mPlan;
    VolumeLayout mLayout; ///< the layout the sidecar names
    sim::Domain mDomain;
    std::vector<VolumeFrame> mFrames;
    sim::ScalarGrid mField;
};

} // namespace plume
