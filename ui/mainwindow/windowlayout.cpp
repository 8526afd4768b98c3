// SPDX-License-Identifier: Apache-2.0
// The MainWindow's layout, first-run help and dropped files (mainwindow.h); the rest of the
// window is in mainwindow.cpp.
#include <ui/mainwindow/filedrop.h>
#include <ui/mainwindow/gettingstarted.h>
#include <ui/mainwindow/mainwindow.h>

#include <ui/document/document.h>
#include <ui/document/undocommands.h>

#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QGuiApplication>
#include <QImageReader>
#include <QMimeData>
#include <QScreen>
#include <QStatusBar>
#include <QToolBar>

#include <algorithm>

namespace plume {

QRect MainWindow::defaultGeometry(const QRect &available, int minimumWidth)
{
    const int w = std::min(available.width(),
                           std::max({int(0.8 * available.width()), 1024, minimumWidth}));
    const int h = std::min(available.height(), std::max(int(0.8 * available.height()), 700));
    return {available.x() + (available.width() - w) / 2,
            available.y() + (available.height() - h) / 2, w, h};
}

QRect MainWindow::defaultGeometry() const
{
    // The toolbars share the top row: every tool button shows when the window is as wide as
    // their widths together.
    int toolbars = 0;
    for (const QToolBar *t : findChildren<QToolBar *>())
        if (toolBarArea(t) == Qt::TopToolBarArea)
            toolbars += t->sizeHint().width() + 4;
    const QScreen *s = screen() ? screen() : QGuiApplication::primaryScreen();
    return defaultGeometry(s ? s->availableGeometry() : QRect(0, 0, 1280, 900), toolbars);
}

// The side docks about a fifth of the window together, the timeline short: the views get the
// rest.
void MainWindow::applyDefaultDockSizes()
{
    auto dock = [this](const char *name) { return findChild<QDockWidget *>(name); };
    QDockWidget *left = dock("outlinerDock"), *options = dock("toolOptionsDock");
    QDockWidget *properties = dock("propertiesDock"), *timeline = dock("timelineDock");
    if (!left || !options || !properties || !timeline)
        return;
    const int side = std::clamp(width() / 6, 200, 280);
    resizeDocks({left, properties}, {side, std::max(side, properties->minimumWidth())},
                Qt::Horizontal);
    resizeDocks({timeline}, {std::max(60, timeline->minimumSizeHint().height())}, Qt::Vertical);
}

void MainWindow::resetLayout()
{
    restoreState(mDefaultState);
    for (QDockWidget *d : findChildren<QDockWidget *>()) {
        d->setFloating(false);
        d->show();
    }
    for (QToolBar *t : findChildren<QToolBar *>())
        t->show();
    if (isMaximized() || isFullScreen())
        showNormal();
    setGeometry(defaultGeometry());
    applyDefaultDockSizes();
    statusBar()->showMessage("Layout reset", 3000);
}

void MainWindow::showGettingStarted() { mGettingStarted->popUp(); }

bool MainWindow::showGettingStartedIfWanted()
{
    if (!GettingStarted::wantedAtStart())
        return false;
    showGettingStarted();
    return true;
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    // A file Plume cannot take is refused at the door, and the status bar says why.
    const QString path = droppedFile(event->mimeData());
    if (path.isEmpty())
        return;
    if (dropKind(path) == DropKind::None) {
        openDropped(path);
        return;
    }
    event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QString path = droppedFile(event->mimeData());
    if (path.isEmpty())
        return;
    event->acceptProposedAction();
    openDropped(path);
}

bool MainWindow::openDropped(const QString &path)
{
    const QString name = QFileInfo(path).fileName();
    switch (dropKind(path)) {
    case DropKind::Scene: return maybeSave() && openFile(path);
    case DropKind::Image: return importImage(path);
    case DropKind::Model: return importModel(path);
    case DropKind::None: break;
    }
    statusBar()->showMessage(QString("Cannot open %1: Plume takes scenes, images and models (%2)")
                                 .arg(name, droppableSuffixes()),
                             8000);
    return false;
}

bool MainWindow::importImage(const QString &path)
{
    const QString name = QFileInfo(path).fileName();
    if (mDocument->scene().domain.dimension == Dimension::ThreeD) {
        statusBar()->showMessage(QString("Cannot add %1: image shapes are for 2D scenes; this "
                                         "scene is 3D")
                                     .arg(name),
                                 8000);
        return false;
    }
    QImageReader reader(path);
    const QSize size = reader.size();
    if (!reader.canRead() || !size.isValid()) {
        statusBar()->showMessage(QString("Cannot add %1: %2").arg(name, reader.errorString()),
                                 8000);
        return false;
    }
    const std::string item = mDocument->uniqueItemName(
        QFileInfo(path).completeBaseName().toStdString());
    const int index = int(mDocument->scene().items.size());
    mDocument->undoStack()->push(
        new AddItem(mDocument, index, imageItem(mDocument->scene(), path, size, item)));
    mDocument->setSelectedItem(index);
    statusBar()->showMessage(QString("Added %1 as an image emitter").arg(name), 5000);
    return true;
}

} // namespace plume
