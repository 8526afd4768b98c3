// SPDX-License-Identifier: Apache-2.0
#include <ui/mainwindow/frameratemeter.h>

#include <ui/mainwindow/mainwindow.h>

#include <ui/document/document.h>
#include <ui/simulation/simulationcontroller.h>
#include <ui/viewport/viewlayout.h>
#include <ui/viewport/viewport.h>

#include <QEvent>

namespace plume {

FrameRateMeter::FrameRateMeter(MainWindow *window, int warmup, int frames)
    : QObject(window)
    , mWindow(window)
    , mWarmup(warmup)
    , mFrames(frames)
{
    Document *document = window->document();
    SimulationSettings simulation = document->scene().simulation;
    simulation.frameEnd = std::max(simulation.frameEnd, warmup + frames + 1);
    document->setSimulation(simulation); // a mutator, not an undo command: nothing to save
    if (document->scene().domain.dimension == Dimension::ThreeD)
        window->viewLayout()->setQuad(true);
    window->viewport()->installEventFilter(this);
    connect(window->simulation(), &SimulationController::frameShown, this,
            &FrameRateMeter::frameShown);
    window->simulation()->play();
}

QString FrameRateMeter::report() const
{
    const Scene &scene = mWindow->document()->scene();
    const bool threeD = scene.domain.dimension == Dimension::ThreeD;
    // The cells simulated: the preview resolution's when there is one.
    const auto gridOf = [threeD](const DomainSettings &d) {
        const sim::Int3 cells = domainCells(d);
        return threeD ? QStringLiteral("%1x%2x%3").arg(cells.x).arg(cells.y).arg(cells.z)
                      : QStringLiteral("%1x%2").arg(cells.x).arg(cells.y);
    };
    QString grid = gridOf(previewDomain(scene.domain));
    if (scene.domain.preview != PreviewResolution::Full)
        grid += QStringLiteral(" (%1 preview of %2)")
                    .arg(toString(scene.domain.preview), gridOf(scene.domain));
    return QStringLiteral("plume: %1 frames in %2 s: %3 frames/s (scene '%4', %5 cells, %6); "
                          "the main view painted %7 times")
        .arg(mFrames)
        .arg(mSeconds, 0, 'f', 3)
        .arg(mSeconds > 0 ? mFrames / mSeconds : 0.0, 0, 'f', 1)
        .arg(QString::fromStdString(scene.name))
        .arg(grid)
        .arg(threeD ? QStringLiteral("quad layout with the volume view")
                    : QStringLiteral("field view"))
        .arg(mPaints);
}

bool FrameRateMeter::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::Paint && mTimer.isValid() && mSeconds == 0)
        ++mPaints;
    return QObject::eventFilter(watched, event);
}

void FrameRateMeter::frameShown()
{
    ++mSeen;
    if (mSeen == mWarmup)
        mTimer.start();
    else if (mSeen == mWarmup + mFrames) {
        mSeconds = double(mTimer.nsecsElapsed()) * 1e-9;
        disconnect(mWindow->simulation(), nullptr, this, nullptr);
        Q_EMIT finished();
    }
}

} // namespace plume
