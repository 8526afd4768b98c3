// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/bake/sinks/bakesink.h>

namespace plume {

/// The flipbook: keeps the rendered tiles (on disk too, with a resume record) and writes the
/// atlases and the JSON sidecar after the last one (export/flipbook.h).
class FlipbookSink : public BakeSink
{
public:
    /// `resumed`: the tiles a resumed bake loaded; `frameRate`: the simulation's.
    FlipbookSink(const BakePlan &plan, std::vector<RenderedFrame> resumed, float frameRate)
        : mPlan(plan)
        , mTiles(std::move(resumed))
        , mFrameRate(frameRate)
    {}
    sim::Status frame(const BakeFrame &frame, std::vector<std::filesystem::path> &files) override;
    sim::Status finish(std::vector<std::filesystem::path> &files) override;
    bool takesImages() const override { return true; }

private:
    const BakePlan &mPlan;
    std::vector<RenderedFrame> mTiles;
    float mFrameRate;
};

} // namespace plume
