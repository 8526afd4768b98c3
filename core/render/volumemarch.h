// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/render/renderer.h>

namespace plume::detail {

/// The 3D path of renderFrame: camera rays through the domain box, front-to-back compositing
/// of single scattering (light attenuated by the transmittance volume, plus ambient) and
/// emission; motion vectors are the contribution-weighted mean screen-space velocity. Six-way
/// lightmaps, normals and depth as PassRequest asks (planes of `out` already sized). The
/// camera frames `framed` (Framing::Effect; see Camera).
void renderVolume(const FrameFields &fields, const RenderSettings &settings,
                  const PassRequest &passes, float frameRate, const WorldBox &framed,
                  RenderedFrame &out);

} // namespace plume::detail
