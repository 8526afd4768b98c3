// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/scene/scene.h>

#include <QSize>
#include <QString>

class QMimeData;

namespace plume {

/// What a file dropped on the window is to Plume, by its suffix (any case).
enum class DropKind {
    None,  ///< not taken: the window says so in the status bar
    Scene, ///< .plume: opened (after asking about unsaved changes, as File > Open)
    Image, ///< .png, .jpg, .jpeg: added as an image-shape emitter (2D scenes)
    Model, ///< meshFileSuffixes(): File > Import Model's dialog for it
};

DropKind dropKind(const QString &path);

/// The first local file a drag carries, or empty (no local file).
QString droppedFile(const QMimeData *mime);

/// The suffixes dropping takes, for messages: "plume, png, jpg, jpeg, obj, ...".
QString droppableSuffixes();

/// An emitter whose shape is the image at `path` (its luminance), as large as fits the
/// domain's x-y with the image's aspect kept (`imageSize`), centred.
Item imageItem(const Scene &scene, const QString &path, QSize imageSize, const std::string &name);

} // namespace plume
