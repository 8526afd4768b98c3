// SPDX-License-Identifier: Apache-2.0
// The sph scheme's particles splatted to the domain grid, so that every field view and export
// of the grid schemes works on the liquid.
#include <core/sim/base/parallel.h>
#include <core/sim/sph/sphsolver.h>

#include <algorithm>
#include <cmath>

namespace plume::sim {

void SphSolver::sample(FieldKind kind, ScalarGrid &out) const
{
    out.reshape(mDomain.cells, kCellCentre, 0.f);
    const Int3 cells = mDomain.cells;
    if (kind == FieldKind::Solid) {
        for (std::size_t n = 0; n < out.count(); ++n)
            out.data()[n] = mSolids.isSolid(n) ? 1.f : 0.f;
        return;
    }
    const bool velocity = kind == FieldKind::VelocityX || kind == FieldKind::VelocityY
                          || kind == FieldKind::VelocityZ || kind == FieldKind::Speed;
    if (mParticles.empty()
        || (kind != FieldKind::Density && kind != FieldKind::Pressure && !velocity))
        return;
    const std::vector<Vec3> &x = mParticles.position;
    const std::vector<Vec3> &v = mParticles.velocity;
    const float volume = mMass / mParams.sph.restDensity;
    // Rows of cells in parallel; each cell sums its neighbours in the grid's fixed order.
    detail::forRowChunks(std::int64_t(cells.y) * cells.z,
                         [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t row = begin; row < end; ++row) {
            const int j = int(row % cells.y), k = int(row / cells.y);
            for (int i = 0; i < cells.x; ++i) {
                Vec3 c = mDomain.cellCentre(i, j, k);
                if (mDims == 2)
                    c.z = 0.f;
                // Volume fraction sum_j (m / rho0) W and Shepard-normalised averages
                // sum_j (m / rho_j) W q_j / sum_j (m / rho_j) W.
                float fraction = 0.f, weight = 0.f, pressure = 0.f;
                Vec3 vel{};
                mGrid.forNeighbours(c, [&](std::uint32_t p, Vec3 shift) {
                    const Vec3 r = c - (x[p] + shift);
                    const float w = mKernels.densityW(dot(r, r));
                    if (w == 0.f)
                        return;
                    fraction += volume * w;
                    const float wj = w * mMass / mDensity[p];
                    weight += wj;
                    pressure += wj * mPressure[p];
                    vel = vel + v[p] * wj;
                });
                float value = 0.f;
                if (kind == FieldKind::Density)
                    value = std::min(fraction, 1.f);
                else if (weight > 0.f) {
                    const float inv = 1.f / weight;
                    switch (kind) {
                    case FieldKind::VelocityX: value = vel.x * inv; break;
                    case FieldKind::VelocityY: value = vel.y * inv; break;
                    case FieldKind::VelocityZ: value = vel.z * inv; break;
                    case FieldKind::Speed: value = length(vel) * inv; break;
                    default: value = pressure * inv; break;
                    }
                }
                out.data()[out.index(i, j, k)] = value;
            }
        }
    });
}

} // namespace plume::sim
