// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/bake/sinks/bakesink.h>

namespace plume {

/// <baseName>.<frame:04d>.vdb for the plan's VDB frames (export/vdbwriter.h): density,
/// temperature, vel, and what the scene has of dye, combustion, particles and the level surface.
class VdbSink : public BakeSink
{
public:
    explicit VdbSink(const BakePlan &plan)
        : mPlan(plan)
    {}
    sim::Status frame(const BakeFrame &frame, std::vector<std::filesystem::path> &files) override;

private:
    const BakePlan &mPlan;
};

/// Writes the solver's frame as VdbSink does (the bake's OpenVDB options), atomically.
sim::Status writeSolverFrame(const sim::Solver &solver, const BakeSettings &settings, int frame,
                             const std::filesystem::path &path);

} // namespace plume
