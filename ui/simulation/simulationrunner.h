// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <ui/simulation/framecache.h>

#include <core/scene/scene.h>
#include <core/scene/scenesimulation.h>
#include <core/sim/run/simulation.h>

#include <QObject>
#include <QString>

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace plume {

/// Runs the simulation of the open scene on a worker thread (it lives on one; talk to it
/// through queued calls) and publishes each frame into a FrameCache.
///
/// Live edits: setScene(scene, frame) makes the new scene act from `frame` on without a
/// reset: the solver keeps its state and gets the new obstacles, emitters, forces, parameters
/// and time settings before the next frame. The runner keeps the scene versions it used with
/// the frame each took effect at, so frame f is always reproducible: when an edit lands on a
/// frame before the newest one (the user scrubbed back), the frames after it are invalidated
/// and the runner re-simulates to that frame with the recorded versions (same bytes,
/// deterministic solver), then goes on with the new scene. A change of domain or scheme needs
/// new grids: the runner starts again from frame 0.
///
/// Checkpoints: every `interval` frames the runner keeps the solver's state (SceneSimulation::
/// saveCheckpoint, compressed), tagged with the scene version it was simulated under. An edit
/// before the newest frame restores the nearest checkpoint at or before the edit's frame
/// (CheckpointMatch::SameGrid: the versions differ) and re-simulates only from there; without
/// one, from frame 0. Checkpoints after an edit's frame go with the frames. Past the memory
/// budget the checkpoint whose neighbours are closest goes (ties: the oldest), so those left
/// stay spread over the whole range and a replay is at most a few intervals long.
class SimulationRunner : public QObject
{
    Q_OBJECT

public:
    explicit SimulationRunner(std::shared_ptr<FrameCache> cache, QObject *parent = nullptr);
    ~SimulationRunner() override;

    /// Frames simulated since this runner was made, replays included (any thread).
    int framesSimulated() const { return mFramesSimulated.load(); }
    /// Checkpoints held and their bytes (any thread).
    int checkpointCount() const { return mCheckpointCount.load(); }
    std::size_t checkpointBytes() const { return mCheckpointBytes.load(); }
    /// The frames that have a checkpoint (the runner's thread).
    std::vector<int> checkpointFrames() const;

public slots:
    /// Starts over from frame 0 with `scene` (new, open, revert).
    void load(const plume::Scene &scene);
    /// The scene changed: it acts from `frame` on (clamped to the newest frame).
    void setScene(const plume::Scene &scene, int frame);
    /// Playing stops at this frame (the scene's frameEnd; the range does not change what is
    /// simulated, so changing it keeps every frame).
    void setFrameEnd(int frameEnd);
    void play();
    void pause();
    /// One frame, then pause.
    void step();
    /// Back to frame 0 with the current scene; keeps playing if it was. Frees every frame and
    /// checkpoint.
    void reset();
    /// A checkpoint every `interval` frames (0: none) within `budgetBytes`.
    void setCheckpoints(int interval, std::size_t budgetBytes);

signals:
    /// Frame `frame` is in the cache and is the newest one.
    void frameReady(int frame);
    /// The newest simulated frame changed (edits can move it back). When it moves forward,
    /// frameReady(frame) follows at once.
    void headChanged(int frame);
    void playingChanged(bool playing);
    /// The scene could not be simulated (bad input, blow-up). The runner pauses.
    void failed(const QString &message);
    /// Smoke reached an open side of the domain for the first time in `frame` (sim::SideWatch:
    /// each side once per run from frame 0); `note` names the sides.
    void smokeAtSides(int frame, const QString &note);

private:
    struct Version
    {
        int frame = 0; ///< acts on frames after this one
        Scene scene;
        std::optional<std::uint64_t> hash{}; ///< sceneHash(scene), made at the first checkpoint
    };

    struct Checkpoint
    {
        std::size_t version = 0; ///< index into mVersions the state was simulated under
        std::vector<std::uint8_t> data;
    };

    void restart();
    void schedule();
    void runFrame();
    bool advance();
    bool applyVersion(std::size_t version, int nextFrame);
    FramePtr capture(const sim::FrameStats &stats) const;
    void fail(const std::string &message);
    void takeCheckpoint();
    bool resumeBefore(int frame);
    void dropCheckpointsAfter(int frame);
    void fitCheckpoints();
    void publishCheckpointUse();
    static bool needsNewGrids(const Scene &a, const Scene &b);

    std::shared_ptr<FrameCache> mCache;
    std::vector<Version> mVersions;
    int mFrameEnd = 0;        ///< playing stops here
    std::size_t mApplied = 0; ///< index into mVersions the solver runs with
    SceneSimulation mLoop;    ///< the scene's rasteriser and simulation
    int mTarget = 0;          ///< re-simulate silently up to this frame
    bool mPlaying = false;
    bool mStepping = false;
    bool mQueued = false;
    bool mFailed = false;
    std::atomic<int> mFramesSimulated{0};
    std::map<int, Checkpoint> mCheckpoints; ///< by the frame the state is at
    int mCheckpointInterval = 10;
    std::size_t mCheckpointBudget = std::size_t(256) << 20;
    std::atomic<int> mCheckpointCount{0};
    std::atomic<std::size_t> mCheckpointBytes{0};
};

} // namespace plume
