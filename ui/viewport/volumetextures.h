// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to ui/viewport: the volume view's GL textures and what each was computed from,
// shared by volumeview.cpp (drawing, camera, input) and volumetextures.cpp (filling them from
// a frame's volume: the march texture, dye, flame, the light and the sky and emission light).

#include <ui/viewport/volumeview.h>

#include <core/render/marchbounds.h>
#include <core/render/renderer.h>

#include <vector>

namespace plume {

// Blackbody colours from emissionMin (1000 K) to emissionMax (6500 K), texel n at
// kelvin 1000 + 5500 n / (kBlackbodyTexels - 1): the CPU renderer's table (blackbody.h).
constexpr int kBlackbodyTexels = 256;

struct VolumeView::Textures
{
    /// RGBA: density, solid (0 or 1), transmittance towards the light (lightvolume.h) and
    /// temperature, so that a march sample is one fetch (three or four in separate textures,
    /// which a software renderer pays for in full).
    unsigned march = 0;
    unsigned dye = 0, flame = 0; ///< a single zero texel when the volume has none
    /// What the light texture was computed from: the volume, direction and extinction.
    VolumePtr lightOf;
    sim::Vec3 lightDirection{0.f, 0.f, 0.f};
    float lightScale = -1.f;
    /// The coarse sky (RG: up, down) and emission light (RGB) of illumination.h, a zero texel
    /// when off; what they were computed from: the volume and the look (illuminationLook).
    unsigned sky = 0, glow = 0;
    bool hasSky = false, hasGlow = false;
    sim::Int3 coarse{1, 1, 1};
    int coarseFactor = 1;
    VolumePtr illuminationOf;
    RenderSettings illuminationLook;
    float illuminationAmbient = 0.f;
    /// Where the march can see anything (marchbounds.h), and what it was computed from: the
    /// volume, whether hot gas glows and above which temperature, and whether flame counts.
    MarchBounds bounds;
    VolumePtr boundsOf;
    bool boundsHot = false;
    float boundsHotAbove = 0.f;
    bool boundsFlame = false;
    unsigned blackbody = 0;  ///< 1D, kBlackbodyTexels RGB texels
    sim::Int3 size{0, 0, 0}; ///< of the uploaded volume, and of the march texture's storage
    bool hasDye = false;
    bool hasSolids = false;
    bool hasFlame = false;
    std::vector<float> march4; ///< the march texture's texels
    std::vector<float> rgb;    ///< interleaving buffer for the dye texture
};

} // namespace plume
