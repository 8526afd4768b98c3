// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/io/readwarning.h>
#include <core/scene/scene.h>

#include <QByteArray>
#include <QString>

#include <string>
#include <vector>

namespace plume {

/// The format name and the newest version this build reads and writes.
inline constexpr const char *kSceneFormatName = "plume-scene";
inline constexpr int kSceneFormatVersion = 1;
/// File name extension of scene files, without the dot.
inline constexpr const char *kSceneFileExtension = "plume";

/// A scene read from a file, or why it could not be.
struct SceneReadResult
{
    bool ok = false;
    Scene scene;       ///< valid when ok
    std::string error; ///< when not ok: "<file>: <json path>: expected ..."
    /// Unknown keys, and settings the scheme does not use: each with its kind, JSON path and
    /// message ("<file>: <json path>: ...").
    std::vector<ReadWarning> warnings;
};

/// Reads and validates a .plume file (docs/scene-format.md). Every value is checked for type,
/// range and finiteness; enum strings must be known; item names unique; referenced images
/// must exist (relative paths resolve against the file's folder) and decode; the domain must
/// fit the cell limit. The first problem refuses the file with a message naming the file, the
/// JSON path and what was expected (parse errors name the line, column and path reached).
/// Unknown keys are kept in the scene's `extra` objects and reported as warnings. A file of a
/// newer format version is refused. Never throws.
SceneReadResult readSceneFile(const QString &path);

/// Same, from bytes. `fileName` only names the source in messages; `directory` is where
/// relative image paths resolve (and becomes Scene::directory).
SceneReadResult readSceneJson(const QByteArray &json, const QString &fileName,
                              const std::string &directory);

} // namespace plume
