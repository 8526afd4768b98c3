// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/scene/scene.h>

#include <optional>
#include <string>

namespace plume {

/// A number key of a scene file, as the reader checks it.
struct SceneNumberKey
{
    sim::Param param;     ///< its range
    bool integer = false; ///< the reader takes whole numbers only (the range says so, or the
                          ///< setting is an integer)
};

/// The number key at `path` in the reader's form ("items[0].emitter.fuel",
/// "simulation.upres.factor", "items[1].offset[1]": a component of a vector or animated value),
/// from the same tables the reader and writer walk (scenefields.h); nothing when `path` names
/// no number of this scene (another type, or a key the format has not).
std::optional<SceneNumberKey> sceneNumberKey(const Scene &scene, const std::string &path);

} // namespace plume
