// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/bake/bakeplan.h>

#include <core/export/vdbcache.h>
#include <core/render/renderer.h>
#include <core/sim/base/solver.h>

#include <filesystem>

namespace plume {

// What a bake renders and meshes: a frame's fields as its VDB files hold them
// (export/vdbcache.h), whether they come from the running simulation or from a cache baked
// before, so that both give the same pictures, byte for byte.

/// The render fields of a simulated frame. Grid schemes: the fields the VDB files hold (density,
/// temperature, flame, velocity, dye), as keepAsWritten() with the bake's OpenVDB options
/// leaves them, then turned into FrameFields as cachedFrameFields() does. Particle schemes
/// (their surface comes from the particles): sampleFrameFields() as it is.
void simulatedFrameFields(const sim::Solver &solver, const BakePlan &plan, float ambientTemperature,
                          FrameFields &out);

/// The render fields of a cache file over the scene's sampled `domain` (readVdbFrame()), for
/// the plan's look: temperature above `ambientTemperature`, velocity when the plan needs motion
/// vectors, flame when the look shows it, the surface looks' level surface of the density and
/// the foam's speed |vel|, the 2D field look's field when the file holds it (density,
/// temperature, flame or fuel). Refuses what readVdbFrame() refuses and a field look of a field
/// the file does not hold.
sim::Status cachedFrameFields(const std::filesystem::path &file, const sim::Domain &domain,
                              const BakePlan &plan, float ambientTemperature, FrameFields &out);

/// Whether a 2D field look of `field` can be drawn from a cache (the VDB files hold it).
bool cachedField(sim::FieldKind field);

/// The cells a scene's frames are sampled on: its domain's, or with upres the finer ones.
sim::Domain sampledDomain(const Scene &scene);

} // namespace plume
