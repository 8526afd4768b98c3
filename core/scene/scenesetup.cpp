#include "scenesetup.h"

namespace plume {

sim::Status applyScene(const SceneSetup &scene, sim::Simulation &simulation)
{
    sim::Solver &solver = simulation.solver();
    if (sim::Status st = solver.setObstacles(scene.solids); !st)
        return st;
    if (sim::Status st = solver.setEmitters(scene.emitters); !st)
        return st;
    return solver.setForceFields(scene.forces);
}

} // namespace plume
