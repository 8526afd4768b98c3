#pragma once

#include <scene/builtinscene.h>
#include <sim/simulation.h>

#include <QImage>
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>

namespace plume {

/// Advances a simulation on its own thread and hands out a picture of every frame, so the
/// window never waits for the solver. Lives on a worker QThread; talk to it with queued calls.
class SimulationRunner : public QObject
{
    Q_OBJECT

public:
    explicit SimulationRunner(QObject *parent = nullptr);
    ~SimulationRunner() override;

    /// Frames run since start (readable from any thread).
    int framesDone() const { return mFramesDone.load(); }

public slots:
    /// Builds the scene's simulation and starts playing. Emits failed() on bad input.
    void load(const plume::SceneSetup &scene);
    void play();
    void pause();
    void reset();

signals:
    /// A new frame is ready: the picture plus its numbers.
    void frameReady(const QImage &image, int frame, double msPerStep, int pressureIterations,
                    double residual);
    void failed(const QString &message);

private:
    void runFrame();
    QImage render() const;

    SceneSetup mScene;
    std::unique_ptr<sim::Simulation> mSimulation;
    bool mPlaying = false;
    bool mQueued = false;
    std::atomic<int> mFramesDone{0};
};

} // namespace plume
