#pragma once

#include <sim/domain.h>
#include <sim/grid.h>
#include <sim/types.h>

#include <filesystem>
#include <string>

namespace plume {

/// One simulation frame to export: the domain, identification, and non-owning pointers to
/// cell-centred fields (size == domain.cells, offset == sim::kCellCentre). Only density is
/// required; a null pointer leaves that grid out of the file.
///
/// Written grids (voxel (i,j,k) is cell (i,j,k); 2D domains give one voxel layer, k = 0):
/// - `density`, `temperature`: float, grid class fog volume, in the fields' own units.
/// - `flame`, `fuel`: float, grid class fog volume (combustion; the names Blender and Houdini
///   use). Written when given.
/// - `vel`: vec3s (world units per second), vector type contravariant-relative, grid class
///   unknown, not staggered. Written when velocityX and velocityY are given; velocityZ is
///   required in 3D and taken as zero when null in 2D.
/// - `Cd`: vec3s dye colour per unit density, (red, green, blue) / density where
///   density > VdbWriteOptions::activeThreshold, else 0; vector type invariant, grid class
///   unknown. Written when all three dye components are given.
struct VdbFrame
{
    sim::Domain domain;       ///< cells, cellSize (world units) and origin (low corner)
    int frame = 0;            ///< stored as int metadata `frame`
    std::string sceneName;    ///< stored as string metadata `scene`
    std::string plumeVersion; ///< `plume_version`, and `creator` = "Plume <version>"

    const sim::ScalarGrid *density = nullptr;
    const sim::ScalarGrid *temperature = nullptr;
    const sim::ScalarGrid *flame = nullptr;
    const sim::ScalarGrid *fuel = nullptr;
    const sim::ScalarGrid *velocityX = nullptr; ///< cell-centred, world units per second
    const sim::ScalarGrid *velocityY = nullptr;
    const sim::ScalarGrid *velocityZ = nullptr;
    const sim::ScalarGrid *dyeRed = nullptr; ///< dye amount (colour times density)
    const sim::ScalarGrid *dyeGreen = nullptr;
    const sim::ScalarGrid *dyeBlue = nullptr;
};

/// Where the `vel` grid has active voxels.
enum class VelocityMask {
    Density, ///< where density is active (renderers only need motion inside the smoke)
    Speed,   ///< where any velocity component is non-negligible (full field, larger files)
};

/// Sparsity rules. Every grid has background 0; inactive voxels hold 0.
struct VdbWriteOptions
{
    /// A scalar voxel is active when |value| > activeThreshold; a vector voxel when any
    /// component's magnitude is. Values are written unchanged (no rounding, no clamping).
    float activeThreshold = 1e-6f;
    VelocityMask velocityMask = VelocityMask::Density;
};

/// Writes one frame to the OpenVDB file `path` (grids as documented on VdbFrame, sparse and
/// pruned, Blosc-compressed when OpenVDB has Blosc, else zip). File metadata: `frame` (int),
/// `scene`, `plume_version` and `creator` (strings).
///
/// Transform: linear, voxel size = cellSize, voxel (i,j,k) centred at the world position
/// origin + (i + 0.5, j + 0.5, k + 0.5) * cellSize.
///
/// Atomic: the file is written to a temporary file in the same directory and renamed over
/// `path` only when complete, so `path` holds either the old or the new file, never a part.
///
/// Deterministic: the same frame and options give byte-identical files. OpenVDB puts a random
/// UUID in the file header; it is replaced by one derived from a hash of the file's contents
/// (an RFC 9562 version-8 UUID), so identical contents carry identical UUIDs.
///
/// Fails (never throws) on missing density, fields whose size or staggering does not match
/// the domain, an incomplete velocity or dye triple, a non-finite value (the message names
/// the field and the cell), an invalid domain, and any I/O or OpenVDB error; the message names
/// `path` and the reason. Thread-safe; OpenVDB is initialised once on first use.
/// (The path is a std::filesystem::path so that this header pulls in no Qt macros: Qt's `emit`
/// breaks oneTBB headers included after it.)
sim::Status writeVdbFrame(const std::filesystem::path &path, const VdbFrame &frame,
                          const VdbWriteOptions &options = {});

} // namespace plume
