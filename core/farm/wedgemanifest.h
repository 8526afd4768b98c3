// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/types.h>

#include <QString>
#include <QVector>

namespace plume {

// The farm's reading of a wedge manifest (plume-cli wedge, format "plume-wedge" version 1):
//   {"format": "plume-wedge", "version": 1, "source": "/abs/scene.plume", "keys": [...],
//    "variations": [{"index": 0, "name": "scene_w0", "scene": "scene_w0.plume",
//                    "values": {...}}, ...]}
// with each `scene` relative to the manifest's folder. Only what the farm needs is read here,
// in this one place, so that it can give way to the wedge's own reader.

/// One variation: its name (its output folder's name) and its scene file.
struct WedgeEntry
{
    int index = 0;
    QString name;  ///< also the scene file's base name
    QString scene; ///< absolute path
};

struct WedgeManifest
{
    QString path;   ///< the manifest, absolute
    QString source; ///< the scene the wedge varies
    QVector<WedgeEntry> variations;
};

/// Whether `path` looks like a wedge manifest (a .json file) rather than a scene.
bool isWedgeManifestPath(const QString &path);

/// Reads a manifest; messages name the file, the JSON path and what was expected.
sim::Status readWedgeManifest(const QString &path, WedgeManifest &manifest);

} // namespace plume
