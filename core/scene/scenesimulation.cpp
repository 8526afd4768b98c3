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
    return mSimulation ? sim::Status::success() : sim::Status::failure(error);
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
    stats = mSimulation->advanceFrame();
    if (!stats.status)
        stats.status = sim::Status::failure("frame " + std::to_string(int(frame)) + ": "
                                            + stats.status.error);
    return stats;
}

} // namespace plume
