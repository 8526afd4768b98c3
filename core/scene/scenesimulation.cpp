#include "scenesimulation.h"

#include <string>

namespace plume {

sim::Status SceneSimulation::setScene(const Scene &scene)
{
    mSimulation.reset();
    if (sim::Status st = mRasterizer.setScene(scene); !st)
        return st;
    return restart();
}

sim::Status SceneSimulation::changeScene(const Scene &scene)
{
    if (!mSimulation)
        return setScene(scene);
    if (sim::Status st = mRasterizer.setScene(scene); !st)
        return st;
    const SceneSetup &s = mRasterizer.setup();
    if (sim::Status st = mSimulation->solver().setParams(s.params); !st)
        return st;
    if (sim::Status st = mSimulation->setTimeSettings(s.time); !st)
        return st;
    mApplyAll = true;
    return sim::Status::success();
}

sim::Status SceneSimulation::restart()
{
    const SceneSetup &s = mRasterizer.setup();
    std::string error;
    mSimulation = sim::Simulation::create(s.domain, s.params, s.time, &error);
    mApplyAll = true;
    if (!mSimulation)
        return sim::Status::failure(error);
    // Moving obstacles move within a frame too: with several substeps, substep s of n sees
    // them at frame f - 1 + (s + 1) / n, with the velocity of their motion over that substep.
    mSimulation->setStepHook([this](int substep, int substeps) {
        if (substeps == 1 || !mRasterizer.hasMovingObstacles())
            return sim::Status::success();
        const double frame = mFrame - 1.0 + double(substep + 1) / double(substeps);
        const InputChanges changes = mRasterizer.updateObstacles(frame, 1.0 / substeps);
        return plume::applyInputs(mRasterizer.setup(), changes, mSimulation->solver());
    });
    return sim::Status::success();
}

sim::Status SceneSimulation::applyInputs(double frame)
{
    if (!mSimulation)
        return sim::Status::failure("no simulation");
    InputChanges changes = mRasterizer.update(frame);
    if (mApplyAll)
        changes = {true, true, true};
    mApplyAll = false;
    return plume::applyInputs(mRasterizer.setup(), changes, mSimulation->solver());
}

sim::FrameStats SceneSimulation::advance(double frame)
{
    sim::FrameStats stats;
    if (sim::Status st = applyInputs(frame); !st) {
        stats.status = sim::Status::failure("frame " + std::to_string(int(frame)) + ": "
                                            + st.error);
        return stats;
    }
    mFrame = frame;
    stats = mSimulation->advanceFrame();
    if (!stats.status)
        stats.status = sim::Status::failure("frame " + std::to_string(int(frame)) + ": "
                                            + stats.status.error);
    return stats;
}

} // namespace plume
