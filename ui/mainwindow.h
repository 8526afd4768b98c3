#pragma once

#include <scene/builtinscene.h>

#include <QLabel>
#include <QMainWindow>
#include <QThread>

namespace plume {

class SimulationRunner;
class SimulationView;

/// The window: a live view of the running simulation, play/pause/reset, and a status bar with
/// frame, milliseconds per step, pressure iterations and residual.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    /// Starts simulating a scene on the worker thread.
    void start(const SceneSetup &scene);

    SimulationView *view() const { return mView; }
    int lastFrame() const { return mLastFrame; }

signals:
    void loadRequested(const plume::SceneSetup &scene);

private:
    void showFrame(const QImage &image, int frame, double msPerStep, int iterations,
                   double residual);
    void showFailure(const QString &message);

    SimulationView *mView = nullptr;
    QLabel *mStatus = nullptr;
    QThread mThread;
    SimulationRunner *mRunner = nullptr;
    int mLastFrame = 0;
    bool mPlaying = true;
};

} // namespace plume
