// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/scene/scene.h>

#include <QByteArray>

#include <cstdint>

namespace plume {

/// The part of a scene that decides simulation results, as canonical .plume JSON
/// (sceneToJson): the domain, the simulation settings and the items, with the scene's name,
/// its export presets (looks of flipbooks and images) and simulation.frameEnd (how far to go,
/// not what happens) left out. Image paths stay as the scene holds them.
QByteArray simulationJson(const Scene &scene);

/// 64-bit FNV-1a hash of simulationJson() and of the bytes of every image and model file an
/// item's shape reads and of the liquid texture's image (so a file edited on disk changes it
/// too; a missing file counts as size -1).
/// Checkpoints carry it: a checkpoint restores only into a scene with the same hash.
std::uint64_t sceneHash(const Scene &scene);

} // namespace plume
