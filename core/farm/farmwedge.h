// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/types.h>

#include <QString>
#include <QVector>

namespace plume {

// The farm's reading of a wedge manifest (core/bake/wedgemanifest.h, docs/wedges.md): the
// wedge's own reader, then what the farm needs of each variation, a name that can name a
// folder and a scene file named after it (absolute here).

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
