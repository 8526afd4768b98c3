#pragma once

#include <core/scene/rasterize.h>
#include <core/scene/scene.h>
#include <core/scene/scenesetup.h>

#include <core/sim/run/checkpoint.h>
#include <core/sim/run/simulation.h>

#include <QString>

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace plume {

/// A scene's simulation frame by frame: the one frame loop (rasterise the scene's inputs at a
/// frame -> hand what changed to the solver -> advance one frame) behind the baker, the app's
/// simulation runner and the export dialog's preview.
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

    /// The simulation's complete state (frame and step counters, every solver field) as a
    /// checkpoint (sim/run/checkpoint.h) tagged with `sceneHash`: io/scenehash.h's sceneHash() of
    /// the scene the state was simulated under. Restoring it and advancing gives the bytes of never
    /// having stopped. Refused without a simulation or after a failed frame.
    sim::Status saveCheckpoint(std::uint64_t sceneHash, std::vector<std::uint8_t> &out) const;

    /// Replaces the running simulation's state with a checkpoint's (the current scene's inputs
    /// are handed over again at the next applyInputs()). SameScene: the checkpoint must carry
    /// `sceneHash`, the hash of the scene now set; SameGrid: any scene with this domain and
    /// scheme (the app restores a checkpoint taken under an earlier version of an edited
    /// scene). A damaged or mismatched checkpoint is refused with the reason and nothing
    /// changes.
    sim::Status restoreCheckpoint(std::span<const std::uint8_t> data, std::uint64_t sceneHash,
                                  sim::CheckpointMatch match = sim::CheckpointMatch::SameScene);

    /// saveCheckpoint() into a file, written atomically (a temporary file renamed over `path`).
    /// A failure names the file and the cause.
    sim::Status saveCheckpointFile(const QString &path, std::uint64_t sceneHash) const;
    /// restoreCheckpoint() from a file; the message names the file.
    sim::Status restoreCheckpointFile(const QString &path, std::uint64_t sceneHash,
                                      sim::CheckpointMatch match = sim::CheckpointMatch::SameScene);

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
    /// The frame of the last applyInputs(): the substep hook moves obstacles within it (the
    /// app's runner applies inputs and then advances the Simulation itself).
    double mFrame = 0.0;
};

} // namespace plume
