// SPDX-License-Identifier: Apache-2.0
#include <core/render/blackbody.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace plume {

namespace detail {

namespace {

/// One lobe of the fit: a Gaussian with different widths left and right of its peak, written
/// with inverse widths as in the paper: exp(-((nm - peak) * inverseWidth)^2 / 2).
double lobe(double nm, double peak, double inverseLeft, double inverseRight)
{
    const double t = (nm - peak) * (nm < peak ? inverseLeft : inverseRight);
    return std::exp(-0.5 * t * t);
}

} // namespace

void cieMatching(double nm, double (&xyz)[3])
{
    // Wyman, Sloan and Shirley 2013, the multi-lobe fit of the CIE 1931 2-degree observer.
    xyz[0] = 1.056 * lobe(nm, 599.8, 0.0264, 0.0323) + 0.362 * lobe(nm, 442.0, 0.0624, 0.0374)
             - 0.065 * lobe(nm, 501.1, 0.0490, 0.0382);
    xyz[1] = 0.821 * lobe(nm, 568.8, 0.0213, 0.0247) + 0.286 * lobe(nm, 530.9, 0.0613, 0.0322);
    xyz[2] = 1.217 * lobe(nm, 437.0, 0.0845, 0.0278) + 0.681 * lobe(nm, 459.0, 0.0385, 0.0725);
}

void blackbodyXyz(double kelvin, double (&xyz)[3])
{
    // Planck: B(lambda, T) = 2 h c^2 / lambda^5 / (exp(h c / (lambda k T)) - 1). The constant
    // 2 h c^2 only scales the result, so it is left out; c2 = h c / k (CODATA 2018).
    constexpr double c2 = 1.438776877e-2; // m K
    xyz[0] = xyz[1] = xyz[2] = 0.0;
    for (int nm = 360; nm <= 830; ++nm) {
        const double lambda = double(nm) * 1e-9;
        const double radiance = 1.0 / (std::pow(lambda, 5) * std::expm1(c2 / (lambda * kelvin)));
        double cmf[3];
        cieMatching(double(nm), cmf);
        for (int c = 0; c < 3; ++c)
            xyz[c] += radiance * cmf[c];
    }
}

} // namespace detail

namespace {

constexpr float kTableStep = 10.f; // kelvin
constexpr int kTableSize = int((kBlackbodyMaxKelvin - kBlackbodyMinKelvin) / kTableStep) + 1;

/// Linear sRGB of a blackbody, largest channel 1, negatives clamped.
sim::Vec3 linearSrgb(double kelvin)
{
    double xyz[3];
    detail::blackbodyXyz(kelvin, xyz);
    // XYZ to linear sRGB, IEC 61966-2-1 (D65 white, no chromatic adaptation).
    const double rgb[3] = {3.2406 * xyz[0] - 1.5372 * xyz[1] - 0.4986 * xyz[2],
                           -0.9689 * xyz[0] + 1.8758 * xyz[1] + 0.0415 * xyz[2],
                           0.0557 * xyz[0] - 0.2040 * xyz[1] + 1.0570 * xyz[2]};
    const double top = std::max({rgb[0], rgb[1], rgb[2]});
    if (!(top > 0.0))
        return {1.f, 0.f, 0.f};
    return {float(std::max(rgb[0], 0.0) / top), float(std::max(rgb[1], 0.0) / top),
            float(std::max(rgb[2], 0.0) / top)};
}

using Table = std::array<sim::Vec3, kTableSize>;

const Table &table()
{
    // A function-local static: built once, by the first caller, thread-safely (C++11).
    static const Table colors = [] {
        Table t;
        for (int n = 0; n < kTableSize; ++n)
            t[std::size_t(n)] = linearSrgb(double(kBlackbodyMinKelvin) + n * double(kTableStep));
        return t;
    }();
    return colors;
}

} // namespace

sim::Vec3 blackbodyColor(float kelvin)
{
    const Table &t = table();
    if (!(kelvin > kBlackbodyMinKelvin)) // also NaN
        return t.front();
    if (kelvin >= kBlackbodyMaxKelvin)
        return t.back();
    const float at = (kelvin - kBlackbodyMinKelvin) / kTableStep;
    const int n = std::min(int(at), kTableSize - 2);
    const float f = at - float(n);
    const sim::Vec3 a = t[std::size_t(n)], b = t[std::size_t(n) + 1];
    return a + (b - a) * f;
}

Chromaticity blackbodyChromaticity(double kelvin)
{
    double xyz[3];
    detail::blackbodyXyz(kelvin, xyz);
    const double sum = xyz[0] + xyz[1] + xyz[2];
    return {xyz[0] / sum, xyz[1] / sum};
}

} // namespace plume
