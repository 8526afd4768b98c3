// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/types.h>

#include <QString>
#include <QStringList>

#include <functional>

class QWidget;

namespace plume {

class VolumeView;

/// View > Save View Image: `view` as it is shown (slices, overlays and the OpenGL volume view
/// alike), written to `path` as PNG atomically (a temporary file renamed over it). A failure
/// names the file.
sim::Status saveViewImage(QWidget *view, const QString &path);

/// View > Save Turntable.
struct TurntableOptions
{
    QString directory;
    QString baseName; ///< files <baseName>.<n:04d>.png, n from 0
    int frames = 72;  ///< images per turn (72: 5 degrees apart)
};

/// `frames` images of the volume view orbiting once about +y from its current yaw in equal
/// steps (the image after the last would be the first: the sequence loops), drawn with the
/// still settings and no caption at the view's size, each written atomically. The camera comes
/// back afterwards. `progress(done, total)` after each image; returning false stops (the images
/// written stay). `written` gets the paths. A failure names the file.
sim::Status saveTurntable(VolumeView *view, const TurntableOptions &options,
                          const std::function<bool(int, int)> &progress, QStringList *written);

} // namespace plume
