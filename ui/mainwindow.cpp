#include "mainwindow.h"

#include "simulationrunner.h"
#include "simulationview.h"

#include <QAction>
#include <QKeySequence>
#include <QMessageBox>
#include <QStatusBar>
#include <QToolBar>

namespace plume {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , mView(new SimulationView(this))
    , mStatus(new QLabel(this))
{
    setWindowTitle("Plume");
    setCentralWidget(mView);
    statusBar()->addWidget(mStatus, 1);

    qRegisterMetaType<plume::SceneSetup>("plume::SceneSetup");
    mRunner = new SimulationRunner;
    mRunner->moveToThread(&mThread);
    connect(&mThread, &QThread::finished, mRunner, &QObject::deleteLater);
    connect(this, &MainWindow::loadRequested, mRunner, &SimulationRunner::load);
    connect(mRunner, &SimulationRunner::frameReady, this, &MainWindow::showFrame);
    connect(mRunner, &SimulationRunner::failed, this, &MainWindow::showFailure);
    mThread.start();

    QToolBar *bar = addToolBar("Simulation");
    bar->setObjectName("simulationToolBar");
    QAction *playPause = bar->addAction("Pause");
    playPause->setShortcut(Qt::Key_Space);
    connect(playPause, &QAction::triggered, this, [this, playPause] {
        mPlaying = !mPlaying;
        playPause->setText(mPlaying ? "Pause" : "Play");
        QMetaObject::invokeMethod(mRunner, mPlaying ? &SimulationRunner::play
                                                    : &SimulationRunner::pause);
    });
    QAction *reset = bar->addAction("Reset");
    reset->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    connect(reset, &QAction::triggered, this,
            [this] { QMetaObject::invokeMethod(mRunner, &SimulationRunner::reset); });
    QAction *quit = new QAction("Quit", this);
    quit->setShortcut(QKeySequence::Quit);
    connect(quit, &QAction::triggered, this, &QWidget::close);
    addAction(quit);
    resize(720, 760);
}

MainWindow::~MainWindow()
{
    QMetaObject::invokeMethod(mRunner, &SimulationRunner::pause, Qt::BlockingQueuedConnection);
    mThread.quit();
    mThread.wait();
}

void MainWindow::start(const SceneSetup &scene) { Q_EMIT loadRequested(scene); }

void MainWindow::showFrame(const QImage &image, int frame, double msPerStep, int iterations,
                           double residual)
{
    mLastFrame = frame;
    mView->setImage(image);
    mStatus->setText(QString("frame %1   %2 ms/step   pressure %3 iterations, residual %4")
                         .arg(frame)
                         .arg(msPerStep, 0, 'f', 2)
                         .arg(iterations)
                         .arg(residual, 0, 'g', 3));
}

void MainWindow::showFailure(const QString &message)
{
    mStatus->setText("stopped: " + message);
    QMessageBox::warning(this, "Simulation stopped", message);
}

} // namespace plume
