// SPDX-License-Identifier: Apache-2.0
// Shredding (docs/look.md): the velocity along the temperature gradient amplified where the
// flame's edges are, per cell centre with central differences and a per-cell limit, averaged to
// the open faces.
#include <core/sim/ops/forces.h>

#include <core/sim/base/assert.h>
#include <core/sim/base/parallel.h>

#include <core/sim/ops/cellstencils.h>
#include <core/sim/ops/faceloops.h>

#include <algorithm>
#include <cmath>

namespace plume::sim {

using namespace detail;

void addShredding(MacGrid &vel, const ScalarGrid &temperature, const Shredding &shredding,
                  const FlagGrid &solids, const Domain &domain, float dt, Workspace &work)
{
    const Int3 n = domain.cells;
    if (shredding.strength == 0.f || !std::isfinite(shredding.strength) || dt == 0.f)
        return;
    PLUME_ASSERT_OR_RETURN(vel.cells() == n && solids.size() == n && temperature.size() == n,
                           "shredding: the velocity, temperature or solids do not match the "
                           "domain");
    const float *weight = shredding.mask && shredding.mask->size() == n ? shredding.mask->data()
                                                                        : nullptr;
    const bool is3D = !domain.is2D();
    for (int a = 0; a < 3; ++a)
        work[a].reshapeForOverwrite(n, kCellCentre); // every cell is written below
    const bool anySolid = solids.anySolid();
    const CellStencils cells{solids, domain, anySolid, 1.f / domain.cellSize};
    const float edge = shredding.edge;
    const float strength = shredding.strength;
    const float invDt = 1.f / dt;
    const std::ptrdiff_t sy_ = n.x, sz_ = std::ptrdiff_t(n.x) * n.y;
    // Steps between y and z neighbours in each face grid (centre averages).
    const std::ptrdiff_t vy = n.x, wz_ = std::ptrdiff_t(n.x) * n.y;
    ScalarGrid &ax = work[0], &ay = work[1], &az = work[2];
    forEachRow(n, [&](int j, int k) {
        const std::size_t row = temperature.index(0, j, k);
        const float *t = temperature.data() + row;
        const float *u = vel.u.data() + vel.u.index(0, j, k);
        const float *v = vel.v.data() + vel.v.index(0, j, k);
        const float *w = is3D ? vel.w.data() + vel.w.index(0, j, k) : nullptr;
        float *px = ax.data() + row, *py = ay.data() + row, *pz = az.data() + row;
        auto accelAt = [&](int i, const Stencil &sx, const Stencil &sy, const Stencil &sz) {
            const float gx = (t[i + sx.hi] - t[i + sx.lo]) * sx.factor;
            const float gy = (t[i + sy.hi * sy_] - t[i + sy.lo * sy_]) * sy.factor;
            const float gz = is3D ? (t[i + sz.hi * sz_] - t[i + sz.lo * sz_]) * sz.factor : 0.f;
            const float g = std::sqrt(gx * gx + gy * gy + gz * gz);
            const float cx = 0.5f * (u[i] + u[i + 1]);
            const float cy = 0.5f * (v[i] + v[i + vy]);
            const float cz = is3D ? 0.5f * (w[i] + w[i + wz_]) : 0.f;
            const float speed = std::sqrt(cx * cx + cy * cy + cz * cz);
            px[i] = py[i] = pz[i] = 0.f;
            if (!(g > 0.f) || !(speed > 0.f) || !std::isfinite(g))
                return;
            const float nx = gx / g, ny = gy / g, nz = gz / g;
            const float along = cx * nx + cy * ny + cz * nz; // u . N
            float m = strength * std::min(1.f, g * edge) * (along / speed);
            const float limit = std::abs(along) * invDt; // dt |a| <= |u . N|
            m = std::clamp(m, -limit, limit);
            px[i] = m * nx;
            py[i] = m * ny;
            pz[i] = m * nz;
        };
        Stencil sy, sz;
        cells.row(j, k, sy, sz);
        for (int i0 = 0; i0 < n.x; i0 += CellStencils::kSegment) {
            cells.visitSegment(j, k, i0, std::min(n.x, i0 + CellStencils::kSegment), sy, sz,
                               accelAt, [&](int i) { px[i] = py[i] = pz[i] = 0.f; });
        }
        // The control mask and the field's region, per cell.
        if (weight || shredding.region) {
            const float *mw = weight ? weight + row : nullptr;
            for (int i = 0; i < n.x; ++i) {
                float s = mw ? mw[i] : 1.f;
                if (shredding.region && s != 0.f)
                    s *= shredding.region->regionWeight(shredding.field,
                                                        domain.cellCentre(i, j, k));
                px[i] *= s;
                py[i] *= s;
                pz[i] *= s;
            }
        }
    });

    // Centre accelerations averaged to the open faces.
    const FaceClosure closure{solids, domain, anySolid};
    const float half = 0.5f * dt;
    for (int axis = 0; axis < domain.dimensions(); ++axis) {
        const float *f = work[axis].data();
        addAtOpenFaces(vel.component(axis), axis, closure,
                       [&](std::size_t lo, std::size_t hi) { return half * (f[lo] + f[hi]); });
    }
}

} // namespace plume::sim
