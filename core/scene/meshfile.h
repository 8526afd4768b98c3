// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/result.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace plume {

/// A triangle mesh read from a model file: positions welded (equal positions share a vertex),
/// every part of the file's node hierarchy in the file's own coordinates.
struct TriangleMesh
{
    std::vector<sim::Vec3> vertices;
    std::vector<std::array<std::uint32_t, 3>> triangles;
    sim::Vec3 lo, hi;          ///< bounding box
    std::size_t openEdges = 0; ///< edges not shared by exactly two triangles
    /// Closed (watertight): every edge is shared by exactly two triangles, so it has an inside.
    bool closed() const { return openEdges == 0; }
};

using MeshPtr = std::shared_ptr<const TriangleMesh>;

/// Sets a mesh's bounding box and counts its open edges (for meshes built in code).
void measureMesh(TriangleMesh &mesh);

/// Model formats read (through Assimp): file suffixes, lower case, without the dot.
const std::vector<std::string> &meshFileSuffixes();
/// Whether `path` ends in one of meshFileSuffixes() (any case).
bool isMeshFile(const std::string &path);

/// Reads the triangles of a model file (OBJ, glTF 2.0, FBX, PLY, STL and the other formats
/// Assimp reads). Files are kept in a process-wide cache keyed by path, size and modification
/// time, so editing a scene does not parse its models again. Fails (naming the file and the
/// problem) when the file is missing, unreadable, not a model, holds no triangles, or has
/// non-finite positions. Thread-safe; never throws.
sim::Result<MeshPtr> loadMesh(const std::string &path);

} // namespace plume
