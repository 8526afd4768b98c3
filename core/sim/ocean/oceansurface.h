// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/grid.h>
#include <core/sim/numerics/oceanfft.h>
#include <core/sim/ocean/oceanspectrum.h>

#include <complex>
#include <vector>

namespace plume::sim {

/// The fields of the ocean surface at one time, at cell centres of the patch (nx * ny * 1).
struct OceanFields
{
    ScalarGrid height;                       ///< h, m
    ScalarGrid displacementX, displacementY; ///< lambda D, m
    ScalarGrid normalX, normalY, normalZ;    ///< unit normal of the displaced surface
    ScalarGrid foam;                         ///< clamp(1 - J, 0, 1)
};

/// Where in its loop time t lies: frac(t / period), rounded to a multiple of 2^-24. Phases
/// are then frac(multiple * cycle), exact in double, so that t and t + period (and frame N of
/// a loop of N frames and frame 0) give the same bytes. 2^-24 of a 20 s loop is 1.2 us.
double loopCycle(double time, double period);

/// Synthesises the surface of a spectrum at a time with four inverse FFTs (docs/ocean.md):
///   h(k, t) = h0(k) exp(-i w t) + conj(h0(-k)) exp(i w t),  w = multiple(k) 2 pi / T
///   h(x, t) = sum over k of h(k, t) exp(i k . x)   (waves travel along k)
///   D(x, t) = sum over k of i k / |k| h(k, t) exp(i k . x)
/// and the derivatives of h and D (i k times the spectra) for the normal and the Jacobian
/// J = (1 + lambda dDx/dx)(1 + lambda dDy/dy) - (lambda dDx/dy)^2 of the displaced map
/// x -> x + lambda D. x is measured from the centre of cell (0, 0). The result depends only on
/// the spectrum, the time and lambda, not on the thread count.
class OceanSynthesis
{
public:
    /// May throw std::bad_alloc.
    explicit OceanSynthesis(int nx, int ny);

    void evaluate(const OceanSpectrum &spectrum, double time, float choppiness, OceanFields &out);

    std::size_t memoryBytes() const { return mPacked.capacity() * sizeof(std::complex<float>); }

private:
    int mNx = 0, mNy = 0;
    InverseFft2D mFft;
    /// Four spectra, each packing two real fields as a + i b: (h, Dx), (Dy, dh/dx),
    /// (dh/dy, dDx/dx), (dDy/dy, dDx/dy).
    std::vector<std::complex<float>> mPacked;
};

} // namespace plume::sim
