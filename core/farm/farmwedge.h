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
// in this one place (readFarmWedge), so that it can give way to the wedge's own reader
// (core/bake/wedge.h's readWedgeManifest) once both are on one branch.

/// One variation: its name (its output folder's name) and its scene file.
struct FarmWedgeEntry
{
    int index = 0;
    QString name;  ///< also the scene file's base name
    QString scene; ///< absolute path
};

struct FarmWedge
{
    QString path;   ///< the manifest, absolute
    QString source; ///< the scene the wedge varies
    QVector<FarmWedgeEntry> variations;
};

/// Whether `path` looks like a wedge manifest (a .json file) rather than a scene.
bool isFarmWedgePath(const QString &path);

/// Reads a manifest; messages name the file, the JSON path and what was expected.
sim::Status readFarmWedge(const QString &path, FarmWedge &manifest);

} // namespace plume
