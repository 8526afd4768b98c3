// SPDX-License-Identifier: Apache-2.0
#pragma once

// OpenVDB level sets of particles and densities (docs/surfaces.md). Internal to plume_core:
// only .cpp files include this header (OpenVDB stays out of the public headers), and so do the
// tests that measure the level sets.

#include <core/surface/surface.h>

#include <openvdb/openvdb.h>

#include <new>
#include <stdexcept>
#include <string>

namespace plume::surface {

/// The level set of `particles` (see ParticleSurfaceOptions): narrow band of 3 voxels each
/// side, voxel size `voxelSize`, untranslated linear transform (voxel (i, j, k) centred at
/// (i, j, k) * voxelSize). Empty particles give an empty level set. Throws OpenVDB's
/// exceptions; the callers in surface.cpp catch them.
openvdb::FloatGrid::Ptr particleLevelSet(const sim::ParticleSet &particles, double voxelSize,
                                         const ParticleSurfaceOptions &options);

/// The signed field iso - density of a cell-centred density as a dense OpenVDB grid (every
/// cell active, background iso: outside the domain is density 0), with the cell-centred
/// transform of the VDB exporter: voxel (i, j, k) centred at origin + (i + 1/2) * cellSize.
openvdb::FloatGrid::Ptr densityField(const sim::ScalarGrid &density, const sim::Domain &domain,
                                     float iso);

/// The true signed distance level set (narrow band of 3 voxels each side) of the iso-surface
/// density == iso: the zero crossing of densityField, rebuilt by OpenVDB's levelSetRebuild.
openvdb::FloatGrid::Ptr densityLevelSet(const sim::ScalarGrid &density, const sim::Domain &domain,
                                        float iso);

/// The zero crossing of `grid` (negative inside) as triangles (volumeToMesh, quads split),
/// wound counter-clockwise seen from outside, with area-weighted vertex normals.
void meshZeroCrossing(const openvdb::FloatGrid &grid, SurfaceMesh &out);

/// Initialises OpenVDB once (thread-safe).
void initializeOpenVdb();

/// Runs `body` (which returns a Status), turning OpenVDB's, the standard library's and any
/// other exception into a failure "what: reason". What body returns is returned unchanged.
template<class F>
sim::Status guarded(const std::string &what, F &&body)
{
    std::string reason;
    try {
        return body();
    } catch (const openvdb::Exception &e) {
        reason = std::string("OpenVDB error: ") + e.what();
    } catch (const std::bad_alloc &) {
        reason = "out of memory";
    } catch (const std::exception &e) {
        reason = e.what();
    } catch (...) {
        reason = "unknown error";
    }
    return sim::Status::failure(what + ": " + reason);
}

} // namespace plume::surface
