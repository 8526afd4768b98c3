// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QElapsedTimer>
#include <QObject>

namespace plume {

class MainWindow;

/// `plume --benchmark-frames N` (docs/performance.md): how fast the window simulates and shows
/// a scene. After `warmup` new frames it times the next `frames` new frames reaching the views
/// (SimulationController::frameShown while playing) and counts the main view's paints in that
/// time, then reports. The scene's frame range is widened in memory (not an edit: nothing to
/// save) so that playing does not stop at its end; in 3D the quad layout (three slices and the
/// volume view) is shown, the most the window draws.
class FrameRateMeter : public QObject
{
    Q_OBJECT

public:
    FrameRateMeter(MainWindow *window, int warmup, int frames);

    /// One line: frames, seconds, frames per second, paints, and the scene.
    QString report() const;

signals:
    void finished();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void frameShown();

    MainWindow *mWindow;
    int mWarmup;
    int mFrames;
    int mSeen = 0;
    int mPaints = 0;
    double mSeconds = 0;
    QElapsedTimer mTimer;
};

} // namespace plume
