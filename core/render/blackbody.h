// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/types.h>

namespace plume {

/// Range of the precomputed blackbody table, kelvin: colours below and above are clamped.
inline constexpr float kBlackbodyMinKelvin = 1000.f;
inline constexpr float kBlackbodyMaxKelvin = 12000.f;

/// Colour of a blackbody radiator at `kelvin` (docs/blackbody.md): Planck's spectral radiance
/// integrated against the CIE 1931 2-degree colour-matching functions, converted to linear
/// sRGB (IEC 61966-2-1 primaries, no white adaptation), negative channels clamped to 0 and
/// scaled so that the largest channel is 1. Chromaticity only: the caller chooses the
/// brightness. Interpolated linearly in a table of 10 K steps built once on first use
/// (thread-safe, deterministic); NaN gives the lowest temperature's colour.
sim::Vec3 blackbodyColor(float kelvin);

/// CIE 1931 xy chromaticity of the Planckian radiator at `kelvin`, computed directly (not from
/// the table) with the same spectral integration; for tests and documentation.
struct Chromaticity
{
    double x = 0.0;
    double y = 0.0;
};
Chromaticity blackbodyChromaticity(double kelvin);

namespace detail {
/// CIE 1931 2-degree colour-matching functions at `nanometres`, the multi-lobe piecewise
/// Gaussian fit of Wyman, Sloan and Shirley (2013), "Simple Analytic Approximations to the
/// CIE XYZ Color Matching Functions", JCGT 2(2), equations 2 to 4.
void cieMatching(double nanometres, double (&xyz)[3]);
/// CIE XYZ of a blackbody at `kelvin` (arbitrary scale): Planck's law times the matching
/// functions, summed over 360 to 830 nm in 1 nm steps.
void blackbodyXyz(double kelvin, double (&xyz)[3]);
} // namespace detail

} // namespace plume
