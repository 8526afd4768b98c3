// SPDX-License-Identifier: Apache-2.0
#include <ui/mainwindow/viewexport.h>

#include <ui/viewport/volumeview.h>

#include <QDir>
#include <QImage>
#include <QSaveFile>
#include <QWidget>

namespace plume {

namespace {

sim::Status writePng(const QImage &image, const QString &path)
{
    if (image.isNull())
        return sim::Status::failure(path.toStdString() + ": the view has nothing to save");
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || !image.save(&file, "PNG") || !file.commit())
        return sim::Status::failure("cannot write " + path.toStdString() + ": "
                                    + file.errorString().toStdString());
    return sim::Status::success();
}

} // namespace

sim::Status saveViewImage(QWidget *view, const QString &path)
{
    return writePng(view->grab().toImage(), path);
}

sim::Status saveTurntable(VolumeView *view, const TurntableOptions &options,
                          const std::function<bool(int, int)> &progress, QStringList *written)
{
    if (options.frames < 1)
        return sim::Status::failure("a turntable needs at least one image");
    if (!QDir().mkpath(options.directory))
        return sim::Status::failure("cannot create the folder " + options.directory.toStdString());
    const float yaw = view->yaw(), pitch = view->pitch(), distance = view->distance();
    sim::Status status = sim::Status::success();
    for (int n = 0; n < options.frames; ++n) {
        view->setCamera(yaw + 360.f * float(n) / float(options.frames), pitch, distance);
        const QString path = QDir(options.directory)
                                 .filePath(QStringLiteral("%1.%2.png")
                                               .arg(options.baseName)
                                               .arg(n, 4, 10, QLatin1Char('0')));
        status = writePng(view->renderStill(), path);
        if (!status)
            break;
        if (written)
            *written << path;
        if (progress && !progress(n + 1, options.frames))
            break;
    }
    view->setCamera(yaw, pitch, distance);
    return status;
}

} // namespace plume
