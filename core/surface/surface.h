// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/domain.h>
#include <core/sim/base/grid.h>
#include <core/sim/base/particles.h>
#include <core/sim/base/types.h>

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

// Level surfaces (docs/surfaces.md): the liquid's surface from its particles and the iso-surface
// ("level surface") of a density field, as triangle meshes, dense signed fields for the CPU
// renderer and OBJ files. OpenVDB does the work (particles to level set, volume to mesh) but
// stays out of this header.

namespace plume {

/// The iso value of a level surface when none is given: half of the density (for the SPH
/// liquid: half full, where the liquid fraction crosses 0.5).
inline constexpr float kDefaultLevelSurfaceIso = 0.5f;

/// A triangle mesh in world units (Y-up, the simulation's frame). Triangles wind
/// counter-clockwise seen from outside; normals are per vertex, unit length, pointing out.
struct SurfaceMesh
{
    std::vector<sim::Vec3> positions;
    std::vector<sim::Vec3> normals;
    std::vector<std::array<std::uint32_t, 3>> triangles;

    bool empty() const { return triangles.empty(); }
};

/// How particles become a surface (docs/surfaces.md): each particle is a sphere of
/// radiusScale * radius, their union is smoothed, then shrunk back by (radiusScale - 1) *
/// radius so that a block of particles keeps its volume (particles at spacing 2 * radius fill
/// a box reaching one radius past the outer centres).
struct ParticleSurfaceOptions
{
    float radiusScale = 2.f; ///< >= 1; larger spheres join into a smoother surface
    int smoothing = 1;       ///< mean-curvature flow iterations (0: none)
};

/// The voxel size of a particle level set: the domain's cell size, made finer (down to the
/// particle radius) when the particles are smaller than the cells, so that every particle's
/// sphere spans enough voxels to be rasterised.
double particleVoxelSize(const sim::ParticleSet &particles, const sim::Domain &domain);

/// The liquid surface of `particles` as a mesh (OpenVDB ParticlesToLevelSet, LevelSetFilter,
/// volumeToMesh). No particles give an empty mesh. Fails (never throws) on a non-positive or
/// non-finite radius, a non-finite position, or an OpenVDB error. Deterministic: the same
/// particles give the same mesh whatever the thread count.
sim::Status particleSurfaceMesh(const sim::ParticleSet &particles, const sim::Domain &domain,
                                SurfaceMesh &out, const ParticleSurfaceOptions &options = {});

/// The iso-surface density == iso of a cell-centred density field (size == domain.cells) as a
/// mesh; inside is density > iso. Outside the domain counts as density 0, so the mesh is
/// closed where the density touches the domain's walls. Fails on a grid that does not match
/// the domain, a non-finite iso value or an OpenVDB error.
sim::Status densitySurfaceMesh(const sim::ScalarGrid &density, const sim::Domain &domain, float iso,
                               SurfaceMesh &out);

/// A dense signed field on the domain's cells for the CPU renderer: the particle level set's
/// signed distance (world units, negative inside) at each cell centre, clamped to the narrow
/// band (+-3 voxels) away from the surface.
sim::Status particleSurfaceField(const sim::ParticleSet &particles, const sim::Domain &domain,
                                 sim::ScalarGrid &out, const ParticleSurfaceOptions &options = {});

/// The signed field of a density iso-surface: iso - density at each cell (negative inside),
/// the zero crossing at the level surface. Not a distance; its gradient gives the normal.
void densitySurfaceField(const sim::ScalarGrid &density, float iso, sim::ScalarGrid &out);

/// Enclosed volume of a closed, outward-wound mesh (divergence theorem), world units cubed.
double meshVolume(const SurfaceMesh &mesh);

/// Writes `mesh` as a Wavefront OBJ file (v, vn, f v//vn; 1-based), atomically (QSaveFile:
/// `path` holds the old file or the new one, never a part). zUp: positions and normals
/// rotated as the VDB export's UpAxis::Z, (x, y, z) -> (x, -z, y). `comment` goes into the header
/// line. Fails (never throws) naming the path and the reason.
sim::Status writeObj(const std::filesystem::path &path, const SurfaceMesh &mesh, bool zUp,
                     const std::string &comment);

} // namespace plume
