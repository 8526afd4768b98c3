// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <ui/simulation/cachesettings.h>
#include <ui/simulation/framecache.h>

#include <core/scene/scene.h>

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
///
/// The cache spills to a folder chosen when a scene is opened (spillParentFor: beside the
/// scene file, or the user's cache folder for unsaved scenes) and keeps the budgets of the
/// CacheSettings; everything goes with a new scene, Clear Cache, or the controller.
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
    CacheUsage cacheUsage() const { return mCache->usage(); }
    /// Checkpoints the worker holds and their bytes (any thread).
    int checkpointCount() const;
    std::size_t checkpointBytes() const;
    const CacheSettings &cacheSettings() const { return mSettings; }
    /// Where the cache spills now (the session folder; it exists once a frame spilled).
    QString spillFolder() const { return mFolder ? mFolder->path() : QString(); }
    /// Whether the window simulates the scene's upres (View > Preview Upres; docs/upres.md).
    /// Off, it simulates at the scene's resolution alone, which is faster to iterate on; bakes
    /// always use the scene's upres.
    bool previewUpres() const { return mPreviewUpres; }
    /// The document's scene as the window simulates it: at its preview resolution
    /// (previewDomain), without upres unless previewed.
    plume::Scene simulatedScene() const;
    /// Switches the preview of upres; the simulation starts again from the first frame.
    void setPreviewUpres(bool on);

public slots:
    void play();
    void pause();
    void togglePlay();
    void step();
    void reset();
    /// Shows a cached frame; pauses.
    void scrub(int frame);
    /// Frees every cached frame (memory and disk) and checkpoint, and starts again at frame 0
    /// of the current scene, paused.
    void clearCache();
    /// New budgets and checkpoint interval (the caller stores them as preferences).
    void setCacheSettings(const plume::CacheSettings &settings);

signals:
    void frameShown(const plume::FramePtr &frame);
    void headChanged(int frame);
    void playingChanged(bool playing);
    void failed(const QString &message);
    void smokeAtSides(int frame, const QString &note); ///< SimulationRunner::smokeAtSides

    // To the worker (queued).
    void loadScene(const plume::Scene &scene);
    void updateScene(const plume::Scene &scene, int frame);
    void runnerPlay();
    void runnerPause();
    void runnerStep();
    void runnerReset();
    void runnerFrameEnd(int frameEnd);
    void runnerTrim();
    void runnerCheckpoints(int interval, std::size_t budgetBytes);

private:
    void onFrameReady(int frame);
    void onHeadChanged(int frame);
    void onDocumentChanged(bool reset);
    void sendScene();
    void show(int frame);
    void playCached();
    void setPlaying(bool playing);
    void newSpillFolder();

    Document *mDocument;
    CacheSettings mSettings;
    std::shared_ptr<FrameCache> mCache;
    SpillFolderPtr mFolder;
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
    bool mPreviewUpres = false;
};

} // namespace plume
