#pragma once

#include "framecache.h"

#include <scene/scene.h>

#include <QObject>
#include <QThread>
#include <QTimer>

#include <memory>

namespace plume {

class Document;
class SimulationRunner;

/// The window's side of the simulation: owns the worker thread and its SimulationRunner, the
/// frame cache, and the frame being shown (the timeline's cursor). Forwards every document
/// edit to the runner (coalesced per event-loop turn) so that it acts from the shown frame.
///
/// Playing follows the newest frame; a cursor scrubbed back plays through the cache first,
/// at the scene's frame rate, and then lets the worker simulate on.
class SimulationController : public QObject
{
    Q_OBJECT

public:
    explicit SimulationController(Document *document, QObject *parent = nullptr);
    ~SimulationController() override;

    FrameCache &cache() { return *mCache; }
    /// The frame shown (may be null before the first frame arrives).
    FramePtr currentFrame() const { return mCurrent; }
    int currentFrameNumber() const { return mCursor; }
    /// The newest simulated frame.
    int headFrame() const { return mHead; }
    bool isPlaying() const { return mPlaying; }
    /// Frames the worker has simulated in all (any thread).
    int framesSimulated() const;

public slots:
    void play();
    void pause();
    void togglePlay();
    void step();
    void reset();
    /// Shows a cached frame; pauses.
    void scrub(int frame);

signals:
    void frameShown(const plume::FramePtr &frame);
    void headChanged(int frame);
    void playingChanged(bool playing);
    void failed(const QString &message);

    // To the worker (queued).
    void loadScene(const plume::Scene &scene);
    void updateScene(const plume::Scene &scene, int frame);
    void runnerPlay();
    void runnerPause();
    void runnerStep();
    void runnerReset();
    void runnerFrameEnd(int frameEnd);

private:
    void onFrameReady(int frame);
    void onHeadChanged(int frame);
    void onDocumentChanged(bool reset);
    void sendScene();
    void show(int frame);
    void playCached();
    void setPlaying(bool playing);

    Document *mDocument;
    std::shared_ptr<FrameCache> mCache;
    QThread mThread;
    SimulationRunner *mRunner = nullptr;
    /// Last frame of the scene's range; playback loops over [0, rangeEnd()] once simulated.
    int rangeEnd() const;
    void startPlayback();

    QTimer mPlayback; ///< steps the cursor through cached frames
    FramePtr mCurrent;
    int mCursor = 0;
    int mHead = 0;
    bool mPlaying = false; ///< what the user asked for
    bool mFollowHead = true;
    bool mScenePending = false;
};

} // namespace plume
