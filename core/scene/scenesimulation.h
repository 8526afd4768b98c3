#pragma once

#include "rasterize.h"
#include "scene.h"
#include "scenesetup.h"

#include <sim/simulation.h>

#include <memory>

namespace plume {

/// A scene's simulation frame by frame: the one frame loop (rasterise the scene's inputs at a
/// frame -> hand what changed to the solver -> advance one frame) behind the baker, the app's
/// simulation runner and the export dialog's preview. Checkpoints will hang off this object.
///
/// Frames: advance(f) applies the scene's inputs at frame f, then simulates one frame. The baker
/// passes scene frames frameStart, frameStart + 1, ...; so does everything that must match it.
class SceneSimulation
{
public:
    /// Takes the scene (checked and rasterised; images decoded) and starts a fresh simulation.
    /// On failure the message names the item or parameter, and no simulation is held.
    sim::Status setScene(const Scene &scene);

    /// Changes the scene under the running simulation (same domain and scheme): parameters and
    /// time settings now, every input at the next applyInputs() or advance().
    sim::Status changeScene(const Scene &scene);

    /// A fresh simulation of the current scene (the state before its first frame).
    sim::Status restart();

    /// Hands the scene's inputs at `frame` to the solver (only what changed since the last call).
    sim::Status applyInputs(double frame);

    /// applyInputs(frame), then one frame of simulation. A failure names the frame.
    sim::FrameStats advance(double frame);

    bool ready() const { return mSimulation != nullptr; }
    sim::Simulation &simulation() { return *mSimulation; }
    const sim::Simulation &simulation() const { return *mSimulation; }
    const sim::Solver &solver() const { return mSimulation->solver(); }
    const SceneSetup &setup() const { return mRasterizer.setup(); }
    const Scene &scene() const { return mRasterizer.scene(); }

private:
    SceneRasterizer mRasterizer;
    std::unique_ptr<sim::Simulation> mSimulation;
    bool mApplyAll = true; ///< the next applyInputs hands over every input
    double mFrame = 0.0;   ///< the scene frame being advanced (for the substep hook)
};

} // namespace plume
