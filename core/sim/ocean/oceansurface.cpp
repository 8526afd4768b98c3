// SPDX-License-Identifier: Apache-2.0
#include <core/sim/ocean/oceansurface.h>

#include <core/sim/base/parallel.h>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace plume::sim {

double loopCycle(double time, double period)
{
    constexpr double kSteps = 16777216.0; // 2^24
    double c = time / period;
    c -= std::floor(c);
    c = std::round(c * kSteps) / kSteps;
    return c >= 1.0 ? 0.0 : c;
}

OceanSynthesis::OceanSynthesis(int nx, int ny)
    : mNx(nx)
    , mNy(ny)
    , mFft(nx, ny)
    , mPacked(std::size_t(nx) * std::size_t(ny) * 4)
{}

void OceanSynthesis::evaluate(const OceanSpectrum &s, double time, float choppiness,
                              OceanFields &out)
{
    using C = std::complex<float>;
    const std::size_t n = std::size_t(mNx) * std::size_t(mNy);
    C *packed[4] = {mPacked.data(), mPacked.data() + n, mPacked.data() + 2 * n,
                    mPacked.data() + 3 * n};
    const double cycle = loopCycle(time, s.loopPeriod);
    const C i1(0.f, 1.f);

    // The time-dependent spectrum and its derivatives, packed in pairs.
    forEachRow({mNx, mNy, 1}, [&](int j, int) {
        const float ky = float(s.ky(j));
        for (int i = 0; i < mNx; ++i) {
            const std::size_t m = s.index(i, j);
            const float kx = float(s.kx(i));
            const float k = std::sqrt(kx * kx + ky * ky);
            double turns = s.multiple[m] * cycle; // exact: 24 fractional bits
            turns -= std::floor(turns);
            const double theta = 2.0 * std::numbers::pi * turns;
            const C spin(float(std::cos(theta)), float(std::sin(theta)));
            const C h = s.h0[m] * std::conj(spin) + s.h0Mirror[m] * spin;
            const float ux = k > 0.f ? kx / k : 0.f, uy = k > 0.f ? ky / k : 0.f;
            const C dx = i1 * ux * h, dy = i1 * uy * h;     // D = i k^ h
            const C hx = i1 * kx * h, hy = i1 * ky * h;     // grad h = i k h
            const C dxx = i1 * kx * dx, dyy = i1 * ky * dy; // i k D
            const C dxy = i1 * ky * dx;
            packed[0][m] = h + i1 * dx;
            packed[1][m] = dy + i1 * hx;
            packed[2][m] = hy + i1 * dxx;
            packed[3][m] = dyy + i1 * dxy;
        }
    });
    for (C *p : packed)
        mFft.run(p);

    const Int3 size{mNx, mNy, 1};
    for (ScalarGrid *g : {&out.height, &out.displacementX, &out.displacementY, &out.normalX,
                          &out.normalY, &out.normalZ, &out.foam})
        g->reshape(size, kCellCentre);
    const float lambda = choppiness;
    forEachRow(size, [&](int j, int) {
        for (int i = 0; i < mNx; ++i) {
            const std::size_t m = std::size_t(i) + std::size_t(mNx) * j;
            const float h = packed[0][m].real(), dx = packed[0][m].imag();
            const float dy = packed[1][m].real(), hx = packed[1][m].imag();
            const float hy = packed[2][m].real(), dxx = packed[2][m].imag();
            const float dyy = packed[3][m].real(), dxy = packed[3][m].imag();
            // Tangents of the displaced surface (x + lambda Dx, y + lambda Dy, h).
            const float txx = 1.f + lambda * dxx, txy = lambda * dxy;
            const float tyy = 1.f + lambda * dyy;
            const float jacobian = txx * tyy - txy * txy;
            float nx = txy * hy - hx * tyy;
            float ny = hx * txy - txx * hy;
            float nz = jacobian;
            const float length = std::sqrt(nx * nx + ny * ny + nz * nz);
            if (length > 0.f) {
                nx /= length;
                ny /= length;
                nz /= length;
            } else {
                nx = ny = 0.f;
                nz = 1.f;
            }
            out.height[m] = h;
            out.displacementX[m] = lambda * dx;
            out.displacementY[m] = lambda * dy;
            out.normalX[m] = nx;
            out.normalY[m] = ny;
            out.normalZ[m] = nz;
            out.foam[m] = std::clamp(1.f - jacobian, 0.f, 1.f);
        }
    });
}

} // namespace plume::sim
