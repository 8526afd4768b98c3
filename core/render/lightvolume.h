// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/grid.h>
#include <core/sim/base/types.h>

namespace plume {

/// Transmittance of a directional light at every cell centre of a density grid: the fraction of
/// the light that reaches the cell through the smoke between it and the domain's edge,
/// exp(-densityScale * integral of density), 0 behind solids. A solid cell holds the light that
/// reaches it (so a lit face shades smoothly where a view samples next to it).
///
/// One sweep of slices away from the light along the light's dominant axis: each cell takes the
/// transmittance one slice nearer the light (bilinear in that slice, 1 where the ray leaves the
/// domain) times the trapezoid-rule attenuation over the step between them. That is O(cells),
/// once per frame, where marching a shadow ray from every ray-march sample costs
/// samples x shadow steps per pixel. The CPU renderer (exports) and the volume view both sample
/// this grid, so the window's shadows are the exports' shadows.
/// The result does not depend on the thread count (cells of one slice are independent).
///
/// `lightDirection` points towards the light (need not be unit length, must not be zero);
/// `cellSize` and `densityScale` are the world units and extinction per unit density.
sim::ScalarGrid lightTransmittance(const sim::ScalarGrid &density, const sim::FlagGrid *solids,
                                   sim::Vec3 lightDirection, float densityScale, float cellSize);

} // namespace plume
