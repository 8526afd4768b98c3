// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/scene/scene.h>
#include <core/sim/base/types.h>

#include <QList>
#include <QString>

namespace plume {

/// An item preset (issue 17): a configured emitter, obstacle or force field saved for reuse, as
/// a scene file holding only that item and the domain it was made in, in the user's data folder
/// (itemPresetFolder()/<name>.plume). A preset file also opens as a scene.
struct ItemPreset
{
    QString name; ///< the file's base name
    QString path;
    ItemKind kind = ItemKind::Emitter;
    Dimension dimension = Dimension::TwoD;
};

/// <the platform's app data folder>/presets (e.g. ~/.local/share/Plume/plume/presets).
QString itemPresetFolder();

/// The presets in `folder` by name; files that do not read as one-item scenes are left out.
QList<ItemPreset> itemPresets(const QString &folder = itemPresetFolder());

/// Writes item `index` of `scene` as preset `name` (characters a file name cannot hold become
/// '_'), atomically, replacing a preset of that name; image and model paths are rewritten to
/// stay valid from the preset folder. `path` gets the file written. Fails naming the file.
sim::Status saveItemPreset(const Scene &scene, int index, const QString &name,
                           const QString &folder = itemPresetFolder(), QString *path = nullptr);

/// The preset's item for `scene`: moved so that it sits where it sat in the preset's domain
/// box, relative to the box (same fraction of the size along each axis), with paths relative
/// to `scene`'s folder. Refuses a 2D preset in a 3D scene and the reverse, naming both.
sim::Status loadItemPreset(const QString &path, const Scene &scene, Item &out);

} // namespace plume
