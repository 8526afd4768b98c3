// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <complex>
#include <memory>

namespace plume::sim {

/// An unnormalised inverse 2D discrete Fourier transform of complex floats, in place:
///   out(x, y) = sum over (m, n) of in(m, n) exp(+2 pi i (m x / nx + n y / ny))
/// for an nx * ny array stored x fastest. Kiss FFT (BSD-3-Clause) transforms the rows, then
/// the columns; rows (and columns) run in parallel, each with the same serial 1D transform, so
/// the bytes do not depend on the thread count. Any sizes work; products of 2, 3 and 5 are
/// fastest.
class InverseFft2D
{
public:
    /// Plans the transforms; throws std::bad_alloc when Kiss FFT cannot allocate.
    InverseFft2D(int nx, int ny);
    ~InverseFft2D();
    InverseFft2D(const InverseFft2D &) = delete;
    InverseFft2D &operator=(const InverseFft2D &) = delete;

    int nx() const { return mNx; }
    int ny() const { return mNy; }

    /// Transforms nx * ny values at `data` in place.
    void run(std::complex<float> *data) const;

private:
    struct Plans;
    int mNx = 0, mNy = 0;
    std::unique_ptr<Plans> mPlans;
};

} // namespace plume::sim
