// SPDX-License-Identifier: Apache-2.0
#include <ui/simulation/simulationcontroller.h>

#include <ui/simulation/simulationrunner.h>

#include <ui/document/document.h>

#include <climits>

namespace plume {

SimulationController::SimulationController(Document *document, QObject *parent)
    : QObject(parent)
    , mDocument(document)
    , mSettings(CacheSettings::load())
    , mCache(std::make_shared<FrameCache>(mSettings.memoryBytes, mSettings.diskBytes))
{
    newSpillFolder();
    qRegisterMetaType<plume::Scene>("plume::Scene");
    qRegisterMetaType<plume::FramePtr>("plume::FramePtr");
    mRunner = new SimulationRunner(mCache);
    mRunner->moveToThread(&mThread);
    connect(&mThread, &QThread::finished, mRunner, &QObject::deleteLater);
    connect(this, &SimulationController::loadScene, mRunner, &SimulationRunner::load);
    connect(this, &SimulationController::updateScene, mRunner, &SimulationRunner::setScene);
    connect(this, &SimulationController::runnerPlay, mRunner, &SimulationRunner::play);
    connect(this, &SimulationController::runnerPause, mRunner, &SimulationRunner::pause);
    connect(this, &SimulationController::runnerStep, mRunner, &SimulationRunner::step);
    connect(this, &SimulationController::runnerReset, mRunner, &SimulationRunner::reset);
    connect(mRunner, &SimulationRunner::frameReady, this, &SimulationController::onFrameReady);
    connect(mRunner, &SimulationRunner::headChanged, this, &SimulationController::onHeadChanged);
    connect(mRunner, &SimulationRunner::playingChanged, this, [this](bool playing) {
        // The worker stops by itself on failure or after a step.
        if (!playing && mFollowHead)
            setPlaying(false);
    });
    connect(mRunner, &SimulationRunner::failed, this, &SimulationController::failed);
    connect(mRunner, &SimulationRunner::smokeAtSides, this, &SimulationController::smokeAtSides);
    mThread.setObjectName("plume-simulation");
    mThread.start();

    connect(this, &SimulationController::runnerTrim, mRunner, [cache = mCache] { cache->trim(); });
    connect(this, &SimulationController::runnerCheckpoints, mRunner,
            &SimulationRunner::setCheckpoints);
    Q_EMIT runnerCheckpoints(mSettings.checkpointInterval, mSettings.checkpointBytes);
    connect(&mPlayback, &QTimer::timeout, this, &SimulationController::playCached);
    connect(this, &SimulationController::runnerFrameEnd, mRunner, &SimulationRunner::setFrameEnd);
    connect(document, &Document::changed, this, [this](const ChangeEvent &event) {
        // Names, the frame range and export presets do not change what is simulated: the
        // frames stay. Playing stops at the range's end.
        if (event.type == ChangeEvent::Type::Simulation
            && event.simulation.has(SimulationSettings::Property::FrameEnd))
            Q_EMIT runnerFrameEnd(mDocument->scene().simulation.frameEnd);
        if (event.changesSimulation(mDocument->scene()))
            onDocumentChanged(event.type == ChangeEvent::Type::Reset);
    });
}

SimulationController::~SimulationController()
{
    QMetaObject::invokeMethod(mRunner, &SimulationRunner::pause, Qt::BlockingQueuedConnection);
    mThread.quit();
    mThread.wait();
}

int SimulationController::framesSimulated() const { return mRunner->framesSimulated(); }

int SimulationController::checkpointCount() const { return mRunner->checkpointCount(); }

std::size_t SimulationController::checkpointBytes() const { return mRunner->checkpointBytes(); }

void SimulationController::play()
{
    setPlaying(true);
    if ((mCursor < mHead && mCache->contains(mCursor + 1))
        || (mCursor >= rangeEnd() && mCache->contains(0))) {
        mFollowHead = false;
        startPlayback();
        return;
    }
    mFollowHead = true;
    Q_EMIT runnerPlay();
}

void SimulationController::pause()
{
    mPlayback.stop();
    Q_EMIT runnerPause();
    setPlaying(false);
}

void SimulationController::togglePlay()
{
    if (mPlaying)
        pause();
    else
        play();
}

void SimulationController::step()
{
    pause();
    if (mCursor < mHead && mCache->contains(mCursor + 1)) {
        mFollowHead = false;
        show(mCursor + 1);
        return;
    }
    mFollowHead = true;
    Q_EMIT runnerStep();
}

void SimulationController::reset()
{
    mPlayback.stop();
    mFollowHead = true;
    mCursor = 0;
    Q_EMIT runnerReset();
    if (mPlaying)
        Q_EMIT runnerPlay();
}

void SimulationController::scrub(int frame)
{
    if (frame == mCursor)
        return;
    pause();
    mFollowHead = frame >= mHead;
    show(std::clamp(frame, 0, mHead));
}

void SimulationController::clearCache()
{
    pause();
    reset();
}

void SimulationController::setCacheSettings(const CacheSettings &settings)
{
    mSettings = settings;
    mCache->setBudgets(settings.memoryBytes, settings.diskBytes);
    Q_EMIT runnerTrim(); // spilling writes files: on the worker
    Q_EMIT runnerCheckpoints(settings.checkpointInterval, settings.checkpointBytes);
}

void SimulationController::newSpillFolder()
{
    mFolder = std::make_shared<SpillFolder>(spillParentFor(mDocument->filePath()));
    mCache->setSpillFolder(mFolder);
}

void SimulationController::onFrameReady(int frame)
{
    if (frame != mHead) {
        mHead = frame;
        Q_EMIT headChanged(frame);
    }
    if (!mFollowHead)
        return;
    show(frame);
    // The scene's range is simulated: play it back from the cache, in a loop, at the frame
    // rate (the solver stops; Play at the end goes round again, edits re-simulate).
    if (mPlaying && frame >= rangeEnd()) {
        mFollowHead = false;
        Q_EMIT runnerPause();
        startPlayback();
    }
}

int SimulationController::rangeEnd() const { return mDocument->scene().simulation.frameEnd; }

void SimulationController::startPlayback()
{
    const float rate = std::max(1.f, mDocument->scene().simulation.time.frameRate);
    mPlayback.start(int(1000.f / rate));
}

void SimulationController::onHeadChanged(int frame)
{
    // The runner says a new frame with frameReady(frame) right after; taken there, the
    // timeline and the views repaint once for it rather than twice (with the volume view open
    // each repaint composes the whole window).
    if (frame > mHead)
        return;
    mHead = frame;
    Q_EMIT headChanged(frame);
    if (mCursor > frame)
        show(frame);
}

void SimulationController::onDocumentChanged(bool reset)
{
    if (reset) {
        mScenePending = false;
        mPlayback.stop();
        mFollowHead = true;
        mCursor = 0;
        mHead = 0;
        newSpillFolder();
        Q_EMIT loadScene(simulatedScene());
        if (mPlaying)
            Q_EMIT runnerPlay();
        return;
    }
    // Many edits in one turn (a drag) reach the worker as one scene.
    if (!mScenePending) {
        mScenePending = true;
        QMetaObject::invokeMethod(this, &SimulationController::sendScene, Qt::QueuedConnection);
    }
}

void SimulationController::sendScene()
{
    if (!mScenePending)
        return;
    mScenePending = false;
    Q_EMIT updateScene(simulatedScene(), mFollowHead ? INT_MAX : mCursor);
}

Scene SimulationController::simulatedScene() const
{
    Scene scene = mDocument->scene();
    scene.domain = previewDomain(scene.domain); // the window's preview resolution
    if (!mPreviewUpres)
        scene.simulation.params.upres = sim::UpresSettings{};
    return scene;
}

void SimulationController::setPreviewUpres(bool on)
{
    if (on == mPreviewUpres)
        return;
    mPreviewUpres = on;
    onDocumentChanged(true);
}

void SimulationController::show(int frame)
{
    FramePtr data = mCache->at(frame);
    mCursor = frame;
    if (data) {
        mCurrent = std::move(data);
        Q_EMIT frameShown(mCurrent);
    }
}

void SimulationController::playCached()
{
    if (mCursor >= rangeEnd() && mCache->contains(0)) {
        show(0);
    } else if (mCursor < mHead && mCache->contains(mCursor + 1)) {
        show(mCursor + 1);
    } else {
        mPlayback.stop();
        mFollowHead = true;
        Q_EMIT runnerPlay();
        return;
    }
    // While this frame shows, the next one is read from the disk cache if it was spilled.
    mCache->prefetch(mCursor >= rangeEnd() ? 0 : mCursor + 1);
}

void SimulationController::setPlaying(bool playing)
{
    if (playing == mPlaying)
        return;
    mPlaying = playing;
    Q_EMIT playingChanged(playing);
}

} // namespace plume
