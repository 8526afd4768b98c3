// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/bake/bakeplan.h>
#include <core/bake/bakerecord.h>

#include <core/render/renderer.h>
#include <core/scene/scenesimulation.h>

#include <vector>

namespace plume {

/// Where a resumed bake stands: the simulation restored, the flipbook frames before it loaded.
struct ResumePoint
{
    int start = 0; ///< the first frame to simulate
    std::vector<RenderedFrame> flipbook;
};

/// Checks an interrupted bake's record against this one (`record`), restores its checkpoint
/// into `simulation` and loads what it wrote before it (with effect framing, BakePlan::framed,
/// no flipbook frames: they are rendered after the simulation); every refusal says why and
/// what to do.
sim::Status prepareResume(const BakePlan &plan, const BakeRecord &record, int frameStart,
                          SceneSimulation &simulation, ResumePoint &out);

} // namespace plume
