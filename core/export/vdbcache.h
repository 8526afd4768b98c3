// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/export/vdbwriter.h>
#include <core/sim/base/result.h>

#include <filesystem>
#include <string>

namespace plume {

// A baked VDB sequence read back as a cache (docs/farm.md, "Render from a cache"): a bake can
// write only the VDB files and render its flipbooks, images and meshes later, on this machine
// or split over a farm. The files keep every value the renderer reads, so rendering from a
// cache gives the same bytes as rendering while simulating: a bake renders its frames as its
// VDB files hold them (keepAsWritten), and a render from the cache reads exactly those values.

/// The grid fields of one frame as a VDB file holds them: cell-centred over `domain`, each
/// empty (count() == 0) when the file has no such grid. Temperature is absolute (the
/// simulation's own units); dye is colour times density (Cd * density).
struct VdbFields
{
    sim::Domain domain;
    sim::ScalarGrid density;
    sim::ScalarGrid temperature;
    sim::ScalarGrid flame, fuel;
    sim::ScalarGrid velocityX, velocityY, velocityZ; ///< world units per second
    sim::ScalarGrid dyeRed, dyeGreen, dyeBlue;

    bool hasVelocity() const { return velocityX.count() != 0; }
    bool hasDye() const { return dyeRed.count() != 0; }
};

/// Replaces every value of `fields` by the one a file written with `options` gives back when
/// read with readVdbFrame(): values at or below the active threshold become 0, velocity
/// outside its mask 0, dye goes through Cd = dye / density and back, and with halfFloat every
/// value is rounded to a half float. Whatever the thread count, the same result.
void keepAsWritten(VdbFields &fields, const VdbWriteOptions &options);

/// Reads a frame file that writeVdbFrame() wrote (density required; temperature, flame, fuel,
/// vel and Cd when present) into fields over `domain`, the cells the scene samples (the
/// domain's, or upres's finer ones): voxel (i, j, k) is cell (i, j, k), or for a Z-up file
/// (metadata `up_axis`, else told by the transform) cell (i, k, nz-1-j), velocity rotated back.
/// Refuses, naming the file, a missing file or density grid, a voxel size or placement that is
/// not the domain's (a cache of another scene or resolution), an active voxel outside the
/// domain and a non-finite value. Never throws.
sim::Status readVdbFrame(const std::filesystem::path &path, const sim::Domain &domain,
                         VdbFields &out);

/// The file's content UUID (writeVdbFrame derives it from the file's bytes): two files with the
/// same UUID hold the same grids. Fails when the header cannot be read.
sim::Result<std::string> vdbContentId(const std::filesystem::path &path);

} // namespace plume
