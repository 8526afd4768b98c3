// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/domain.h>
#include <ui/document/sliceplane.h>
#include <ui/simulation/framecache.h>

namespace plume {

/// The cell layer of `domain` along `plane.axis` that holds the plane (clamped into the grid).
int sliceIndex(const sim::Domain &domain, const SlicePlane &plane);

/// The slice of a frame on `plane`, as a 2D frame in plane coordinates: every field, the solid
/// cells, the in-plane velocity as VelocityX (u) and VelocityY (v), and the domain's u-v
/// rectangle (one cell deep). Colour ranges stay those of the whole volume. Needs the frame's
/// volume in 3D (every frame of the cache has it); returns false without one, except for the
/// Z slice through the middle, which every frame stores. A 2D frame is returned as it is.
bool sliceFrame(const FrameData &frame, const SlicePlane &plane, FrameData &out);

} // namespace plume
