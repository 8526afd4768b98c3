// SPDX-License-Identifier: Apache-2.0
#include <core/sim/numerics/oceanfft.h>

#include <core/sim/base/parallel.h>

#include <kiss_fft.h>

#include <new>
#include <vector>

namespace plume::sim {

static_assert(sizeof(kiss_fft_cpx) == sizeof(std::complex<float>),
              "Kiss FFT must be built for float (kissfft-float)");

/// One Kiss FFT plan per axis. kiss_fft only reads a plan when it transforms out of place, so
/// threads share them.
struct InverseFft2D::Plans
{
    kiss_fft_cfg x = nullptr, y = nullptr;
    ~Plans()
    {
        kiss_fft_free(x);
        kiss_fft_free(y);
    }
};

InverseFft2D::InverseFft2D(int nx, int ny)
    : mNx(nx)
    , mNy(ny)
    , mPlans(std::make_unique<Plans>())
{
    mPlans->x = kiss_fft_alloc(nx, 1, nullptr, nullptr);
    mPlans->y = kiss_fft_alloc(ny, 1, nullptr, nullptr);
    if (!mPlans->x || !mPlans->y)
        throw std::bad_alloc();
}

InverseFft2D::~InverseFft2D() = default;

void InverseFft2D::run(std::complex<float> *data) const
{
    auto *cells = reinterpret_cast<kiss_fft_cpx *>(data);
    const std::size_t nx = std::size_t(mNx), ny = std::size_t(mNy);
    // Rows: x is contiguous; each chunk transforms out of place into its own buffer.
    detail::forRowChunks(mNy, [&](std::int64_t b, std::int64_t e) {
        std::vector<kiss_fft_cpx> out(nx);
        for (std::int64_t j = b; j < e; ++j) {
            kiss_fft_cpx *row = cells + std::size_t(j) * nx;
            kiss_fft(mPlans->x, row, out.data());
            std::copy(out.begin(), out.end(), row);
        }
    });
    // Columns: gather, transform, scatter.
    detail::forRowChunks(mNx, [&](std::int64_t b, std::int64_t e) {
        std::vector<kiss_fft_cpx> in(ny), out(ny);
        for (std::int64_t i = b; i < e; ++i) {
            for (std::size_t j = 0; j < ny; ++j)
                in[j] = cells[j * nx + std::size_t(i)];
            kiss_fft(mPlans->y, in.data(), out.data());
            for (std::size_t j = 0; j < ny; ++j)
                cells[j * nx + std::size_t(i)] = out[j];
        }
    });
}

} // namespace plume::sim
