// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/settings/vdboptions.h>
#include <core/sim/base/domain.h>
#include <core/sim/base/grid.h>
#include <core/sim/base/particles.h>
#include <core/sim/base/types.h>
#include <core/surface/surface.h>

#include <filesystem>
#include <string>

namespace plume {

/// One simulation frame to export: the domain, identification, and non-owning pointers to
/// cell-centred fields (size == domain.cells, offset == sim::kCellCentre). Only density is
/// required; a null pointer leaves that grid out of the file.
///
/// Written grids (Y-up: voxel (i,j,k) is cell (i,j,k); 2D domains give one voxel layer, k = 0;
/// Z-up: see VdbWriteOptions::up):
/// - `density`, `temperature`: float, grid class fog volume, in the fields' own units.
/// - `flame`, `fuel`: float, grid class fog volume (combustion; the names Blender and Houdini
///   use). Written when given.
/// - `vel`: vec3s (world units per second), vector type contravariant-relative, grid class
///   unknown, not staggered. Written when velocityX and velocityY are given; velocityZ is
///   required in 3D and taken as zero when null in 2D.
/// - `Cd`: vec3s dye colour per unit density, (red, green, blue) / density where
///   density > VdbWriteOptions::activeThreshold, else 0; vector type invariant, grid class
///   unknown. Written when all three dye components are given.
/// - `surface`: float, grid class level set (signed distance in world units, negative inside,
///   narrow band of 3 voxels each side; docs/surfaces.md). With `particles`: the liquid's
///   surface (surface/surface.h), voxel size particleVoxelSize, voxel (i, j, k) centred at
///   (i, j, k) * voxel size. Else with `levelSurface`: the iso-surface density ==
///   levelSurfaceIso, on the density's voxels.
/// - `points`: OpenVDB points (PointDataGrid) of `particles`, attribute `P` (positions; full
///   floats, with halfFloat 16-bit fixed point within the voxel) and, when the particles have
///   velocities, `v` (vec3s, world units per second; half floats with halfFloat). Voxel size
///   as `surface`'s.
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
    /// The cells the field grids cover, [lo, hi) of the domain's: the fields are
    /// fieldBox.size() cells and field cell (i, j, k) is domain cell fieldBox.lo + (i, j, k);
    /// every voxel outside is inactive. Empty (the default): the whole domain. The file is the
    /// same as from whole-domain fields that are zero outside the box (Solver::fieldBox).
    /// Not with levelSurface, which needs the whole density.
    sim::CellBox fieldBox;

    /// A particle scheme's particles (world units, sim/base/particles.h): `surface` and `points`.
    const sim::ParticleSet *particles = nullptr;
    ParticleSurfaceOptions surfaceOptions; ///< how particles become `surface`
    /// Without particles: also write the density's level surface as `surface`.
    bool levelSurface = false;
    float levelSurfaceIso = kDefaultLevelSurfaceIso;
};

/// Sparsity, axes and storage. Every grid has background 0; inactive voxels hold 0.
struct VdbWriteOptions
{
    /// A scalar voxel is active when |value| > activeThreshold; a vector voxel when any
    /// component's magnitude is. Values are written unchanged (no rounding, no clamping) unless
    /// halfFloat says otherwise.
    float activeThreshold = 1e-6f;
    VelocityMask velocityMask = VelocityMask::Density; ///< settings/vdboptions.h
    /// Y: as simulated. Z: the frame rotated by +90 degrees about x (a rotation, det +1, so
    /// nothing is mirrored): the world point (x, y, z) is written at (x, -z, y), so the
    /// scene's up (+y) becomes +z and its front (+z) becomes -y. Voxel (i, j, k) becomes
    /// (i, nz-1-k, j), where nz = domain.cells.z (the index box stays [0, n)); the transform's
    /// origin is the rotated domain's low corner (origin.x, -(origin.z + nz * cellSize),
    /// origin.y); `vel` (vx, vy, vz) becomes (vx, -vz, vy); `Cd` (a colour) is unchanged.
    UpAxis up = UpAxis::Y;
    /// Store every grid as 16-bit half floats (OpenVDB's saveFloatAsHalf; readers get floats
    /// back, rounded to 11 significant bits). A density, temperature, flame, fuel or velocity
    /// value beyond the half range (kHalfMax) is refused, naming the field and cell; `Cd`
    /// components are clamped to it (only a trace of density can give such a colour).
    bool halfFloat = false;
};

/// Writes one frame to the OpenVDB file `path` (grids as documented on VdbFrame, sparse and
/// pruned, Blosc-compressed when OpenVDB has Blosc, else zip). File metadata: `frame` (int),
/// `scene`, `plume_version`, `creator` and `up_axis` ("y" or "z") (strings).
///
/// Transform: linear, voxel size = cellSize, voxel (i,j,k) centred at the world position
/// origin + (i + 0.5, j + 0.5, k + 0.5) * cellSize (Z-up: of the rotated domain, see
/// VdbWriteOptions::up). Half-float grids carry OpenVDB's `is_saved_as_half_float` metadata.
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
/// the field and the cell), a value beyond the half range with halfFloat (likewise), an
/// invalid domain, and any I/O or OpenVDB error; the message names
/// `path` and the reason. Thread-safe; OpenVDB is initialised once on first use.
/// (The path is a std::filesystem::path so that this header pulls in no Qt macros: Qt's `emit`
/// breaks oneTBB headers included after it.)
sim::Status writeVdbFrame(const std::filesystem::path &path, const VdbFrame &frame,
                          const VdbWriteOptions &options = {});

} // namespace plume
