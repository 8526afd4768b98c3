// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/bake/sinks/bakesink.h>

#include <core/export/vectorfield.h>

namespace plume {

/// Vector fields for game engines (export/vectorfield.h): <baseName>.<frame:04d>.vf (or .fga)
/// for each of the plan's vector field frames, or with `average` one
/// <baseName>_vectorfield.vf of their mean, written after the last.
class VectorFieldSink : public BakeSink
{
public:
    explicit VectorFieldSink(const BakePlan &plan)
        : mPlan(plan)
    {}
    sim::Status frame(const BakeFrame &frame, std::vector<std::filesystem::path> &files) override;
    sim::Status finish(std::vector<std::filesystem::path> &files) override;

private:
    const BakePlan &mPlan;
    VectorFieldAverage mAverage;
};

} // namespace plume
