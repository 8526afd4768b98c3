// SPDX-License-Identifier: Apache-2.0
#include <core/sim/ocean/oceanspectrum.h>

#include <core/sim/base/parallel.h>

#include <cmath>
#include <numbers>

namespace plume::sim {

namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;

std::uint64_t splitMix64(std::uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/// A uniform number in (0, 1] from the top 53 bits.
double unitInterval(std::uint64_t bits)
{
    return (double(bits >> 11) + 1.0) * (1.0 / 9007199254740992.0);
}

/// Whether DFT index i of n samples is the Nyquist mode (only for even n).
bool nyquist(int i, int n) { return n % 2 == 0 && i == n / 2; }

} // namespace

double phillips(const OceanSettings &s, double kx, double ky)
{
    const double k2 = kx * kx + ky * ky;
    if (k2 == 0.0)
        return 0.0;
    const double g = s.gravity;
    const double bigL = double(s.windSpeed) * s.windSpeed / g;
    const double angle = double(s.windDirection) * (std::numbers::pi / 180.0);
    const double k = std::sqrt(k2);
    const double cosine = (kx * std::cos(angle) + ky * std::sin(angle)) / k;
    const double l = s.smallWaves;
    return double(s.amplitude) * std::exp(-1.0 / (k2 * bigL * bigL)) / (k2 * k2) * cosine * cosine
           * std::exp(-k2 * l * l);
}

void gaussianPair(std::uint32_t seed, int mx, int my, double &a, double &b)
{
    const std::uint64_t key = (std::uint64_t(seed) << 32) ^ (std::uint64_t(std::uint32_t(mx)) << 16)
                              ^ std::uint64_t(std::uint32_t(my)) * 0x9e3779b1ull;
    const std::uint64_t h1 = splitMix64(key);
    const std::uint64_t h2 = splitMix64(h1 ^ 0xd1b54a32d192ed03ull);
    const double r = std::sqrt(-2.0 * std::log(unitInterval(h1)));
    const double theta = kTwoPi * unitInterval(h2);
    a = r * std::cos(theta);
    b = r * std::sin(theta);
}

double OceanSpectrum::kx(int i) const { return kTwoPi * mode(i, nx) / lx; }
double OceanSpectrum::ky(int j) const { return kTwoPi * mode(j, ny) / ly; }

void OceanSpectrum::allocate(int nxIn, int nyIn, double lxIn, double lyIn,
                             const OceanSettings &settings)
{
    nx = nxIn;
    ny = nyIn;
    lx = lxIn;
    ly = lyIn;
    loopPeriod = settings.loopPeriod;
    const std::size_t n = std::size_t(nx) * std::size_t(ny);
    h0.assign(n, {0.f, 0.f});
    h0Mirror.assign(n, {0.f, 0.f});
    multiple.assign(n, 0.0);
    const double omega0 = kTwoPi / loopPeriod;
    const double g = settings.gravity;
    forEachRow({nx, ny, 1}, [&](int j, int) {
        for (int i = 0; i < nx; ++i) {
            const double k = std::hypot(kx(i), ky(j));
            multiple[index(i, j)] = std::round(std::sqrt(g * k) / omega0);
        }
    });
}

void OceanSpectrum::mirror()
{
    forEachRow({nx, ny, 1}, [&](int j, int) {
        const int jm = (ny - j) % ny;
        for (int i = 0; i < nx; ++i)
            h0Mirror[index(i, j)] = std::conj(h0[index((nx - i) % nx, jm)]);
    });
}

OceanSpectrum OceanSpectrum::phillipsWaves(int nx, int ny, double lx, double ly,
                                           const OceanSettings &settings)
{
    OceanSpectrum s;
    s.allocate(nx, ny, lx, ly, settings);
    const double cellArea = (kTwoPi / lx) * (kTwoPi / ly);
    forEachRow({nx, ny, 1}, [&](int j, int) {
        for (int i = 0; i < nx; ++i) {
            if (nyquist(i, nx) || nyquist(j, ny))
                continue;
            double a = 0.0, b = 0.0;
            gaussianPair(settings.seed, mode(i, nx), mode(j, ny), a, b);
            const double scale = std::sqrt(phillips(settings, s.kx(i), s.ky(j)) * cellArea / 2.0);
            s.h0[s.index(i, j)] = {float(a * scale), float(b * scale)};
        }
    });
    s.mirror();
    return s;
}

OceanSpectrum OceanSpectrum::singleWave(int nx, int ny, double lx, double ly,
                                        const OceanSettings &settings, int mx, int my,
                                        std::complex<float> amplitude)
{
    OceanSpectrum s;
    s.allocate(nx, ny, lx, ly, settings);
    const int i = (mx % nx + nx) % nx, j = (my % ny + ny) % ny;
    if (!nyquist(i, nx) && !nyquist(j, ny) && (i != 0 || j != 0))
        s.h0[s.index(i, j)] = amplitude;
    s.mirror();
    return s;
}

} // namespace plume::sim
