// SPDX-License-Identifier: Apache-2.0
#pragma once

// The light model shared by the CPU renderer (volumemarch.cpp), the six-way lightmaps and the
// volume view's shader (ui/viewport/shaders/volume.frag mirrors these formulas line for line):
// docs/render.md derives them and records how they compare with Blender Cycles.

#include <core/render/rendersettings.h>

#include <core/sim/base/grid.h>
#include <core/sim/base/types.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace plume {

/// The multiple-scattering octaves after Wrenninge, Kulla and Lundqvist, "Oz: the great and
/// volumetric" (SIGGRAPH 2013 talk): octave i sees the light's transmittance with its
/// extinction scaled by kOctaveExtinction^i (T^(a^i): light reaching deeper), contributes
/// (albedo * kOctaveContribution)^i (each order of scattering keeps the albedo's share) and
/// scatters with g * kOctaveEccentricity^i (later orders forget the light's direction).
/// Octave 0 is single scattering.
inline constexpr int kScatterOctaves = 4;
inline constexpr float kOctaveExtinction = 0.5f;    ///< a: T^0.5, T^0.25, ... (square roots)
inline constexpr float kOctaveContribution = 0.37f; ///< b, per unit albedo (fitted to Cycles)
inline constexpr float kOctaveEccentricity = 0.5f;  ///< c

/// Henyey-Greenstein phase times 4 pi (1 for every angle when g = 0), for light that travels
/// along -towardsLight and leaves towards the camera against `viewRay`: cosTheta =
/// dot(towardsLight, viewRay), both unit length.
inline float phaseHG(float cosTheta, float g)
{
    const float d = 1.f + g * g - 2.f * g * cosTheta;
    return (1.f - g * g) / (d * std::sqrt(d));
}

/// The octaves' phase values for one view ray and light (phaseHG at g * c^i).
struct OctavePhases
{
    std::array<float, kScatterOctaves> p{};

    OctavePhases() { p.fill(1.f); }
    OctavePhases(float cosTheta, float g)
    {
        for (int i = 0; i < kScatterOctaves; ++i, g *= kOctaveEccentricity)
            p[std::size_t(i)] = phaseHG(cosTheta, g);
    }
};

/// Light scattered towards the camera per unit of the light's radiance and per unit albedo at
/// a point whose transmittance towards the light is `t`, split by octave:
/// terms[i] = phase[i] * t^(a^i). A channel of albedo w scatters
/// terms[0] + strength * sum over i >= 1 of (w b)^i terms[i]: single scattering plus the
/// octaves. The terms are found once per sample and shared by its colour channels.
struct ScatterOctaves
{
    std::array<float, kScatterOctaves> terms{};

    ScatterOctaves(float t, const OctavePhases &phases)
    {
        terms[0] = phases.p[0] * t;
        for (std::size_t i = 1; i < terms.size(); ++i) {
            t = std::sqrt(t); // kOctaveExtinction == 0.5
            terms[i] = phases.p[i] * t;
        }
    }

    float operator()(float albedo, float strength) const
    {
        const float ab = albedo * kOctaveContribution;
        float ms = 0.f;
        for (std::size_t i = terms.size() - 1; i >= 1; --i)
            ms = ab * (terms[i] + ms);
        return terms[0] + strength * ms;
    }
};

/// ScatterOctaves for one channel.
inline float scatteredLight(float t, float albedo, float strength, const OctavePhases &phases)
{
    return ScatterOctaves(t, phases)(albedo, strength);
}

/// The tone curve's knee: below it Filmic is the identity, above it an exponential shoulder
/// with the same slope at the knee rises towards 1.
inline constexpr float kFilmicKnee = 0.6f;

/// Linear light (after the exposure) to [0, 1] by the tone curve; negatives and NaN give 0.
inline float toneMap(float x, ToneCurve curve)
{
    if (!(x > 0.f))
        return 0.f;
    if (curve == ToneCurve::Clip || x <= kFilmicKnee)
        return std::min(x, 1.f);
    constexpr float room = 1.f - kFilmicKnee;
    return 1.f - room * std::exp(-(x - kFilmicKnee) / room);
}

/// 2^exposure.
inline float exposureScale(float exposure) { return std::exp2(exposure); }

} // namespace plume
