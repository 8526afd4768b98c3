// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/render/renderer.h>

namespace plume::detail {

/// The surface looks of renderFrame (docs/surfaces.md), drawing fields.surface (negative
/// inside; a distance or iso - density): a lit, shaded liquid with Blinn-Phong diffuse and
/// specular light from the settings' light, the ambient term, and foam-white albedo where the
/// speed nears foamSpeed. 2D: the filled region, its rim rounded over three cells by a normal
/// tilted out along the field's gradient, antialiased over a pixel. 3D: camera rays to the
/// first zero crossing (half-cell steps, then bisection), the normal from the field's gradient;
/// no cast shadows. Motion vectors, normals and (3D) depth passes as PassRequest asks; six-way
/// lightmaps are for volumes and stay empty. Rows are independent: the result does not depend
/// on the thread count.
void renderSurface2D(const FrameFields &fields, const RenderSettings &settings,
                     const PassRequest &passes, float frameRate, RenderedFrame &out);
/// The 3D camera frames `framed` (Framing::Effect; see Camera).
void renderSurface3D(const FrameFields &fields, const RenderSettings &settings,
                     const PassRequest &passes, float frameRate, const WorldBox &framed,
                     RenderedFrame &out);

} // namespace plume::detail
