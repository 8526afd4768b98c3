#pragma once

#include "framecache.h"

#include <scene/scene.h>
#include <scene/scenesimulation.h>
#include <sim/simulation.h>

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
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
/// and the runner re-simulates from frame 0 to that frame with the recorded versions (same
/// bytes, deterministic solver), then goes on with the new scene. A change of domain or scheme
/// needs new grids: the runner starts again from frame 0.
class SimulationRunner : public QObject
{
    Q_OBJECT

public:
    explicit SimulationRunner(std::shared_ptr<FrameCache> cache, QObject *parent = nullptr);
    ~SimulationRunner() override;

    /// Frames simulated since this runner was made, replays included (any thread).
    int framesSimulated() const { return mFramesSimulated.load(); }

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
    /// Back to frame 0 with the current scene; keeps playing if it was.
    void reset();

signals:
    /// Frame `frame` is in the cache and is the newest one.
    void frameReady(int frame);
    /// The newest simulated frame changed (edits can move it back).
    void headChanged(int frame);
    void playingChanged(bool playing);
    /// The scene could not be simulated (bad input, blow-up). The runner pauses.
    void failed(const QString &message);

private:
    struct Version
    {
        int frame = 0; ///< acts on frames after this one
        Scene scene;
    };

    void restart();
    void schedule();
    void runFrame();
    bool advance();
    bool applyVersion(std::size_t version, int nextFrame);
    FramePtr capture(const sim::FrameStats &stats) const;
    void fail(const std::string &message);
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
};

} // namespace plume
