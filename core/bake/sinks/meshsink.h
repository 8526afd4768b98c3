// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/bake/sinks/bakesink.h>

namespace plume {

/// <baseName>.<frame:04d>.obj for the plan's mesh frames: the liquid's surface (particle
/// schemes) or the density's level surface at levelSurfaceIso, in the VDB files' up axis
/// (docs/surfaces.md).
class MeshSink : public BakeSink
{
public:
    explicit MeshSink(const BakePlan &plan)
        : mPlan(plan)
    {}
    sim::Status frame(const BakeFrame &frame, std::vector<std::filesystem::path> &files) override;

private:
    const BakePlan &mPlan;
};

} // namespace plume
