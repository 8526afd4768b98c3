#include "simulationrunner.h"

#include <render/colormap.h>

#include <QMetaObject>

namespace plume {

SimulationRunner::SimulationRunner(QObject *parent)
    : QObject(parent)
{
}

SimulationRunner::~SimulationRunner() = default;

void SimulationRunner::load(const SceneSetup &scene)
{
    std::string error;
    auto simulation = sim::Simulation::create(scene.domain, scene.params, scene.time, &error);
    if (!simulation) {
        Q_EMIT failed(QString::fromStdString(error));
        return;
    }
    if (sim::Status st = applyScene(scene, *simulation); !st) {
        Q_EMIT failed(QString::fromStdString(st.error));
        return;
    }
    mScene = scene;
    mSimulation = std::move(simulation);
    mFramesDone = 0;
    Q_EMIT frameReady(render(), 0, 0.0, 0, 0.0);
    play();
}

void SimulationRunner::play()
{
    mPlaying = true;
    if (!mQueued) {
        mQueued = true;
        QMetaObject::invokeMethod(this, &SimulationRunner::runFrame, Qt::QueuedConnection);
    }
}

void SimulationRunner::pause() { mPlaying = false; }

void SimulationRunner::reset()
{
    if (!mSimulation)
        return;
    mSimulation->reset();
    mFramesDone = 0;
    Q_EMIT frameReady(render(), 0, 0.0, 0, 0.0);
}

// One frame per event-loop turn, so pause/reset calls queued from the GUI get through.
void SimulationRunner::runFrame()
{
    mQueued = false;
    if (!mPlaying || !mSimulation)
        return;
    const sim::FrameStats stats = mSimulation->advanceFrame();
    if (!stats.status) {
        mPlaying = false;
        Q_EMIT failed(QString::fromStdString(stats.status.error));
        return;
    }
    ++mFramesDone;
    Q_EMIT frameReady(render(), stats.frame, stats.milliseconds / std::max(1, stats.substeps),
                    stats.pressureIterations, stats.pressureResidual);
    play();
}

QImage SimulationRunner::render() const
{
    const sim::Solver &solver = mSimulation->solver();
    sim::ScalarGrid density, red, green, blue;
    solver.sample(sim::FieldKind::Density, density);
    if (solver.hasDye()) {
        solver.sample(sim::FieldKind::DyeRed, red);
        solver.sample(sim::FieldKind::DyeGreen, green);
        solver.sample(sim::FieldKind::DyeBlue, blue);
    }
    const int slice = solver.domain().cells.z / 2;
    return dyeImage(density, red, green, blue, slice, &mScene.solids);
}

} // namespace plume
