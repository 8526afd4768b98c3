// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/bake/sinks/bakesink.h>

#include <core/export/flowmap.h>

namespace plume {

/// 2D: <baseName>_flowmap.png and .json, the velocity averaged over the plan's flow map
/// frames (export/flowmap.h), written after the last.
class FlowMapSink : public BakeSink
{
public:
    /// `cellSize`: the simulated domain's, recorded in the sidecar.
    FlowMapSink(const BakePlan &plan, double cellSize)
        : mPlan(plan)
        , mCellSize(cellSize)
    {}
    sim::Status frame(const BakeFrame &frame, std::vector<std::filesystem::path> &files) override;
    sim::Status finish(std::vector<std::filesystem::path> &files) override;

private:
    const BakePlan &mPlan;
    double mCellSize;
    FlowMapAccumulator mSum;
};

} // namespace plume
