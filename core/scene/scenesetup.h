// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/domain.h>
#include <core/sim/base/grid.h>
#include <core/sim/base/params.h>
#include <core/sim/base/sources.h>
#include <core/sim/run/simulation.h>

#include <string>
#include <vector>

namespace plume {

/// Everything a simulation needs, already rasterised to the domain's cells.
struct SceneSetup
{
    std::string name;
    sim::Domain domain;
    sim::SimParams params;
    sim::TimeSettings time;
    sim::FlagGrid solids;
    sim::ObstacleMotion obstacleMotion; ///< empty unless an obstacle moves
    std::vector<sim::Emitter> emitters;
    std::vector<sim::ForceField> forces;
};

} // namespace plume
