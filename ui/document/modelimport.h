// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/scene/meshfile.h>
#include <core/scene/scene.h>

#include <QString>

#include <optional>
#include <string>

namespace plume {

/// What File > Import Model asks before it adds a model (the import dialog's answers).
struct ModelImportOptions
{
    std::string name;
    ItemKind kind = ItemKind::Obstacle;
    /// true: scaled uniformly to fit a quarter of the domain (per axis), centred; false: the
    /// file's coordinates are world units.
    bool fit = true;
};

/// The path a scene stores for `file`: relative to the scene's folder when the scene has one
/// (it was read or saved), absolute for an unsaved scene. The scene writer rebases relative
/// paths when the scene is saved elsewhere.
std::string scenePathOf(const Scene &scene, const QString &file);

/// The mesh item an import adds: the model file `file` (already read into `mesh`) as an
/// obstacle or emitter named options.name. Fitted, it is scaled to the largest uniform scale
/// that keeps its bounding box within a quarter of the domain on every axis (x and y in 2D)
/// and centred on `at`, or on the domain's centre; in the file's units it is moved only when
/// `at` is given, its bounding box centred there. In 2D its middle is always put on the plane
/// that cuts it (the domain's middle z), or nothing of it would show.
Item modelItem(const Scene &scene, const QString &file, const TriangleMesh &mesh,
               const ModelImportOptions &options, std::optional<sim::Vec3> at = std::nullopt);

/// What the properties panel says of a mesh shape: "closed, 1280 triangles", or for a shell
/// (an open mesh, or fill "surface") what thickness it is used at, or why the file cannot be
/// read.
QString meshStatus(const Scene &scene, const Shape &shape);

} // namespace plume
