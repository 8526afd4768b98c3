// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/scene/scene.h>
#include <core/sim/base/types.h>

#include <QByteArray>
#include <QString>

#include <string>

namespace plume {

/// The scene as .plume JSON text (docs/scene-format.md). Deterministic: keys in a fixed order
/// (the documented one, then unknown keys kept from reading in sorted order), 4-space indent,
/// numeric arrays on one line, floats in their shortest round-trip form (0.1, 1e-05), so the
/// same scene always gives the same bytes. Relative image paths, which the scene resolves
/// against Scene::directory, are rewritten relative to `directory` (the folder of the file
/// being written); pass an empty string to write them unchanged.
QByteArray sceneToJson(const Scene &scene, const std::string &directory);

/// sceneToJson() with every key a script may read: also those written only when they differ
/// from their default (rotation, scale, the render look's light keys, passes, upres, ...),
/// with their values. Keys that are absent when off (masks, noise, a liquid texture, an
/// item's active end) stay absent. Reads back as the same scene; paths are not rebased.
QByteArray sceneToJsonWithDefaults(const Scene &scene);

/// Moves the scene to `directory` as writing it there and reading it back would: relative
/// image paths rewritten as sceneToJson writes them, and `directory` its Scene::directory.
void rebaseScene(Scene &scene, const std::string &directory);

/// Writes the scene to `path` atomically (QSaveFile: a temporary file renamed over the target,
/// so a failure leaves any existing file untouched). The message names the file and the cause.
sim::Status writeSceneFile(const Scene &scene, const QString &path);

} // namespace plume
