// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/params.h>
#include <core/sim/base/types.h>

#include <complex>
#include <cstdint>
#include <vector>

namespace plume::sim {

/// The Phillips spectrum of Tessendorf's "Simulating Ocean Water" as a density over wave
/// vectors k (rad / m): A exp(-1 / (k L)^2) / k^4 (k^ . w^)^2 exp(-k^2 l^2), L = V^2 / g, w^
/// the wind direction, l the small-wave cut-off; 0 at k = 0. Units: A m^4.
double phillips(const OceanSettings &settings, double kx, double ky);

/// Two independent standard normal numbers for wave mode (mx, my) and a seed: a hash of the
/// three (SplitMix64) gives two uniform numbers, Box-Muller makes them normal. The same mode
/// gets the same numbers at any resolution, so refining the grid keeps the large waves.
void gaussianPair(std::uint32_t seed, int mx, int my, double &a, double &b);

/// The wave vectors and initial amplitudes of a periodic patch, in the layout of an inverse
/// DFT (InverseFft2D): entry i + nx j is mode (mx, my), mx = i for i < nx / 2 and i - nx
/// otherwise (likewise my), wave vector k = 2 pi (mx / Lx, my / Ly).
///
/// h0(k) = (xi_r + i xi_i) sqrt(P(k) dkx dky / 2): the Phillips density times the area of a
/// mode in k-space, so that heights do not depend on the resolution or the patch size. The
/// Nyquist modes (mx = -nx / 2 or my = -ny / 2) and k = 0 are zero, so that every field made
/// from the spectrum is real.
///
/// Frequencies are quantised to whole multiples of omega0 = 2 pi / loopPeriod: multiple(k) =
/// round(sqrt(g |k|) / omega0); the surface then repeats after exactly loopPeriod seconds.
struct OceanSpectrum
{
    int nx = 0, ny = 0;
    double lx = 1.0, ly = 1.0;                 ///< patch size, m
    double loopPeriod = 1.0;                   ///< s
    std::vector<std::complex<float>> h0;       ///< h0(k)
    std::vector<std::complex<float>> h0Mirror; ///< conj(h0(-k))
    std::vector<double> multiple;              ///< omega(k) / omega0, a whole number

    /// Mode number of DFT index i on an axis of n samples.
    static int mode(int i, int n) { return i < (n + 1) / 2 ? i : i - n; }
    double kx(int i) const;
    double ky(int j) const;
    std::size_t index(int i, int j) const { return std::size_t(i) + std::size_t(nx) * j; }

    /// The random spectrum of `settings` for a patch of nx * ny samples over lx * ly metres.
    /// May throw std::bad_alloc.
    static OceanSpectrum phillipsWaves(int nx, int ny, double lx, double ly,
                                       const OceanSettings &settings);
    /// A spectrum with one mode: h0 = `amplitude` at mode (mx, my), zero elsewhere. With a real
    /// amplitude a the height is 2 a cos(k . x - omega t) (for tests and docs).
    static OceanSpectrum singleWave(int nx, int ny, double lx, double ly,
                                    const OceanSettings &settings, int mx, int my,
                                    std::complex<float> amplitude);

private:
    void allocate(int nx, int ny, double lx, double ly, const OceanSettings &settings);
    void mirror();
};

} // namespace plume::sim
