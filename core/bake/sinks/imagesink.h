// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/bake/sinks/bakesink.h>

namespace plume {

/// The image sequence: per frame of the plan's images, <base><suffix>.<frame:04d>.<ext> for
/// each texture (colour, emission when separate, the passes'), written together atomically.
class ImageSink : public BakeSink
{
public:
    explicit ImageSink(const BakePlan &plan)
        : mPlan(plan)
    {}
    sim::Status frame(const BakeFrame &frame, std::vector<std::filesystem::path> &files) override;
    bool takesImages() const override { return true; }

private:
    const BakePlan &mPlan;
};

/// The image sequence's files of a frame (a resumed bake checks that they exist).
std::vector<std::filesystem::path> sequencePaths(const BakeSettings &settings, int frame);

} // namespace plume
