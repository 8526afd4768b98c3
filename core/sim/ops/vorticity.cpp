// SPDX-License-Identifier: Apache-2.0
// Vorticity (Fedkiw, Stam and Jensen 2001, eq. 9) and vorticity confinement (eq. 10-11):
// the curl at cell centres with one-sided stencils at walls and solids, and the confinement
// force averaged to the open faces.
#include <core/sim/ops/forces.h>

#include <core/sim/base/assert.h>

#include <core/sim/ops/cellstencils.h>
#include <core/sim/ops/faceloops.h>
#include <core/sim/ops/livetiles.h>

#include <algorithm>
#include <cmath>

namespace plume::sim {

using namespace detail;

namespace {

/// Curl of the centre-averaged velocity by central differences (Fedkiw et al. 2001, eq. 9):
/// writes the components (when given) and |omega| at cell centres, zeros in solid cells; with
/// `liveTiles` (livetiles.h), only at cells within `dilate` cells of them (the others are not
/// written).
void computeVorticity(const MacGrid &vel, const FlagGrid &solids, const Domain &domain,
                      ScalarGrid *wx, ScalarGrid *wy, ScalarGrid *wz, ScalarGrid &mag,
                      const std::uint8_t *liveTiles = nullptr, int dilate = 0)
{
    const LiveTiles live(domain, liveTiles);
    const Int3 n = domain.cells;
    const bool is3D = !domain.is2D();
    const CellStencils cells{solids, domain, solids.anySolid(), 1.f / domain.cellSize};
    mag.reshapeForOverwrite(n, kCellCentre); // every cell is written below
    for (ScalarGrid *g : {wx, wy, wz}) {
        if (g)
            g->reshapeForOverwrite(n, kCellCentre);
    }
    // Steps between y and z neighbours in each face grid.
    const std::ptrdiff_t uy = n.x + 1, uz = uy * n.y;
    const std::ptrdiff_t vy = n.x, vz = vy * (n.y + 1);
    const std::ptrdiff_t wy_ = n.x, wz_ = wy_ * n.y;
    forEachRow(n, [&](int j, int k) {
        const float *u = vel.u.data() + vel.u.index(0, j, k);
        const float *v = vel.v.data() + vel.v.index(0, j, k);
        const float *w = is3D ? vel.w.data() + vel.w.index(0, j, k) : nullptr;
        const std::size_t row = mag.index(0, j, k);
        Stencil sy, sz;
        cells.row(j, k, sy, sz);
        // Omega of cell i from twice the centre-averaged components at flat steps o.
        auto omegaAt = [&](int i, const Stencil &sx, const Stencil &sy, const Stencil &sz,
                           float &ox, float &oy, float &oz) {
            auto cu = [&](std::ptrdiff_t o) { return u[i + o] + u[i + 1 + o]; };
            auto cv = [&](std::ptrdiff_t o) { return v[i + o] + v[i + vy + o]; };
            auto cw = [&](std::ptrdiff_t o) { return w[i + o] + w[i + wz_ + o]; };
            const float fx = 0.5f * sx.factor, fy = 0.5f * sy.factor, fz = 0.5f * sz.factor;
            oz = (cv(sx.hi) - cv(sx.lo)) * fx - (cu(sy.hi * uy) - cu(sy.lo * uy)) * fy;
            ox = 0.f;
            oy = 0.f;
            if (is3D) {
                ox = (cw(sy.hi * wy_) - cw(sy.lo * wy_)) * fy
                     - (cv(sz.hi * vz) - cv(sz.lo * vz)) * fz;
                oy = (cu(sz.hi * uz) - cu(sz.lo * uz)) * fz - (cw(sx.hi) - cw(sx.lo)) * fx;
            }
        };
        constexpr int kSegment = CellStencils::kSegment;
        float ox[kSegment], oy[kSegment], oz[kSegment];
        live.forCells(j, k, dilate, [&](int from, int to) {
            for (int i0 = from; i0 < to; i0 += kSegment) {
                const int i1 = std::min(to, i0 + kSegment);
                cells.visitSegment(
                    j, k, i0, i1, sy, sz,
                    [&](int i, const Stencil &sx, const Stencil &syc, const Stencil &szc) {
                    omegaAt(i, sx, syc, szc, ox[i - i0], oy[i - i0], oz[i - i0]);
                    },
                    [&](int i) { ox[i - i0] = oy[i - i0] = oz[i - i0] = 0.f; });
                float *m = mag.data() + row;
                for (int i = i0; i < i1; ++i) {
                    const int s = i - i0;
                    m[i] = std::sqrt(ox[s] * ox[s] + oy[s] * oy[s] + oz[s] * oz[s]);
                }
                for (auto [g, o] : {std::pair{wx, ox}, std::pair{wy, oy}, std::pair{wz, oz}}) {
                    if (g)
                        std::copy(o, o + (i1 - i0), g->data() + row + i0);
                }
            }
        });
    });
}

} // namespace

void vorticityMagnitude(const MacGrid &vel, const FlagGrid &solids, const Domain &domain,
                        ScalarGrid &out)
{
    if (vel.cells() != domain.cells || solids.size() != domain.cells) {
        out.reshape(domain.cells, kCellCentre, 0.f);
        return;
    }
    computeVorticity(vel, solids, domain, nullptr, nullptr, nullptr, out);
}

void addVorticityConfinement(MacGrid &vel, const Confinement &confinement, const FlagGrid &solids,
                             const Domain &domain, float dt, Workspace &work)
{
    const Int3 n = domain.cells;
    const float epsilon = confinement.epsilon;
    if (epsilon == 0.f || dt == 0.f)
        return;
    PLUME_ASSERT_OR_RETURN(vel.cells() == n && solids.size() == n,
                           "vorticity confinement: the velocity or the solids do not match the "
                           "domain");
    const float *weight = confinement.mask && confinement.mask->size() == n
                              ? confinement.mask->data()
                              : nullptr;
    const bool is3D = !domain.is2D();
    ScalarGrid &magnitude = work[3];
    // 3D: work[0..2] hold omega; 2D: work[2] holds omega_z and work[0..1] receive the force.
    // With live tiles the force needs the curl one cell around them (its gradient's stencil).
    const LiveTiles live(domain, confinement.liveTiles);
    computeVorticity(vel, solids, domain, is3D ? &work[0] : nullptr, is3D ? &work[1] : nullptr,
                     &work[2], magnitude, confinement.liveTiles, 1);
    if (!is3D) {
        work[0].reshapeForOverwrite(n, kCellCentre); // the force loop writes every cell
        work[1].reshapeForOverwrite(n, kCellCentre);
    }

    // Eq. 10-11: N = grad|omega| / |grad|omega||, f = epsilon L (N x omega), in place per cell;
    // L is h unless the confinement gives a world length.
    const bool anySolid = solids.anySolid();
    const CellStencils cells{solids, domain, anySolid, 1.f / domain.cellSize};
    const float eh = epsilon * (confinement.length > 0.f ? confinement.length : domain.cellSize);
    const std::ptrdiff_t sy_ = n.x, sz_ = std::ptrdiff_t(n.x) * n.y;
    ScalarGrid &fx = work[0], &fy = work[1], &fz = work[2];
    forEachRow(n, [&](int j, int k) {
        const std::size_t row = magnitude.index(0, j, k);
        const float *m = magnitude.data() + row;
        float *px = fx.data() + row, *py = fy.data() + row, *pz = fz.data() + row;
        auto forceAt = [&](int i, const Stencil &sx, const Stencil &sy, const Stencil &sz) {
            const float gx = (m[i + sx.hi] - m[i + sx.lo]) * sx.factor;
            const float gy = (m[i + sy.hi * sy_] - m[i + sy.lo * sy_]) * sy.factor;
            const float gz = is3D ? (m[i + sz.hi * sz_] - m[i + sz.lo * sz_]) * sz.factor : 0.f;
            const float ox = is3D ? px[i] : 0.f, oy = is3D ? py[i] : 0.f, oz = pz[i];
            const float inv = eh / (std::sqrt(gx * gx + gy * gy + gz * gz) + 1e-20f);
            px[i] = (gy * oz - gz * oy) * inv;
            py[i] = (gz * ox - gx * oz) * inv;
            pz[i] = (gx * oy - gy * ox) * inv;
        };
        Stencil sy, sz;
        cells.row(j, k, sy, sz);
        const auto none = [&](int i) { px[i] = py[i] = pz[i] = 0.f; };
        int done = 0; // cells outside the live tiles get no force
        live.forCells(j, k, 0, [&](int from, int to) {
            for (int i = done; i < from; ++i)
                none(i);
            for (int i0 = from; i0 < to; i0 += CellStencils::kSegment)
                cells.visitSegment(j, k, i0, std::min(to, i0 + CellStencils::kSegment), sy, sz,
                                   forceAt, none);
            done = to;
        });
        for (int i = done; i < n.x; ++i)
            none(i);
        if (weight) { // the control mask, per cell
            const float *w = weight + row;
            for (int i = 0; i < n.x; ++i) {
                px[i] *= w[i];
                py[i] *= w[i];
                pz[i] *= w[i];
            }
        }
    });

    // Centre forces averaged to the open faces.
    const FaceClosure closure{solids, domain, anySolid};
    const float half = 0.5f * dt;
    for (int axis = 0; axis < domain.dimensions(); ++axis) {
        const float *f = work[axis].data();
        addAtOpenFaces(vel.component(axis), axis, closure,
                       [&](std::size_t lo, std::size_t hi) { return half * (f[lo] + f[hi]); });
    }
}

} // namespace plume::sim
