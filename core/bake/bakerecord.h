// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/bake/bakesettings.h>

#include <core/render/renderer.h>
#include <core/scene/scene.h>

#include <QJsonObject>

#include <cstdint>
#include <filesystem>
#include <string>

namespace plume {

// The resume record of a bake (docs/checkpoints.md): a hidden folder in the output folder,
// written while the bake runs and removed when it finishes, holding what `--resume` needs to
// continue after a crash, a kill or a full disk, and to refuse continuing a different bake.
//
//   .plume-bake/bake.json            the scene (simulation part) and the bake's options
//   .plume-bake/checkpoint.plumeckpt the solver state at the last checkpoint
//   .plume-bake/flipbook.NNNN.frame  flipbook frames rendered so far (until the atlas exists)

/// The resume folder's name.
inline constexpr const char *kResumeFolder = ".plume-bake";
/// Where a bake from a cache keeps the frames it rendered until it is complete
/// (BakeSettings::fromCache; its chunks fill it for the bake that writes the outputs).
inline constexpr const char *kRenderFolder = ".plume-render";
/// Where a bake with effect framing (BakePlan::framed) keeps the fields of the frames it
/// renders, as VDB files, until it has rendered them after the simulation; a resumed bake
/// reads them back.
inline constexpr const char *kFramingFolder = ".plume-framing";

/// <resumeDir>/checkpoint.plumeckpt: the solver state at the last checkpoint.
std::filesystem::path checkpointPath(const std::filesystem::path &resumeDir);
/// <resumeDir>/flipbook.<frame:04d>.frame: a flipbook frame kept until the atlas is written.
std::filesystem::path keptFramePath(const std::filesystem::path &resumeDir, int frame);

/// What identifies a bake: the same record means the same output files.
struct BakeRecord
{
    QJsonObject scene;   ///< io/scenehash.h simulationJson() of the scene
    QJsonObject options; ///< bakeOptionsJson() of the settings
    std::uint64_t sceneHash = 0;
};

/// The record of baking `scene` with `settings`.
BakeRecord makeBakeRecord(const Scene &scene, const BakeSettings &settings);

/// The settings that decide the files: base name, frames, outputs, looks, the version written
/// into them (checkpointEvery and resume are not among them).
QJsonObject bakeOptionsJson(const BakeSettings &settings);

/// Writes <folder>/bake.json atomically; the message names the file.
sim::Status writeBakeRecord(const std::filesystem::path &folder, const BakeRecord &record);
/// Reads <folder>/bake.json; the message names the file and what is wrong.
sim::Status readBakeRecord(const std::filesystem::path &folder, BakeRecord &record);

/// What differs between the record of an interrupted bake and of the bake now asked for, e.g.
/// "the scene changed: simulation.params.vorticity 0.3 -> 0.6"; empty when they match.
std::string bakeRecordDifference(const BakeRecord &was, const BakeRecord &now);

/// A rendered flipbook frame kept for the atlas, written atomically (zlib-compressed floats);
/// read back bit for bit. Messages name the file.
sim::Status saveRenderedFrame(const std::filesystem::path &path, const RenderedFrame &frame);
sim::Status loadRenderedFrame(const std::filesystem::path &path, RenderedFrame &frame);

} // namespace plume
