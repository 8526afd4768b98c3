// SPDX-License-Identifier: Apache-2.0
#pragma once

// The surface grids of a VDB frame (export/vdbwriter.h: `surface`, `points`). Internal to
// plume_core: included by vdbwriter.cpp only, so OpenVDB stays out of the public headers.

#include <core/export/vdbwriter.h>

#include <openvdb/openvdb.h>

namespace plume::detail {

/// Appends to `grids` the level set `surface` and the points grid `points` of frame.particles,
/// or, without particles and with frame.levelSurface, the level set `surface` of the density
/// (VdbFrame documents both), in the axes and precision of `options`. Throws OpenVDB's
/// exceptions (writeVdbFrame catches them); fails on bad particles.
sim::Status appendSurfaceGrids(const VdbFrame &frame, const VdbWriteOptions &options,
                               openvdb::GridCPtrVec &grids);

} // namespace plume::detail
