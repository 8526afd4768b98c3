// SPDX-License-Identifier: Apache-2.0
#include <core/sim/ops/boundaryconditions.h>

#include <core/sim/base/assert.h>

#include <core/sim/base/parallel.h>

namespace plume::sim {

bool faceIsClosed(const FlagGrid &solids, const Domain &domain, int axis, int i, int j, int k)
{
    const Int3 n = domain.cells;
    int idx[3] = {i, j, k};
    const int along = idx[axis];
    if (along == 0 || along == n[axis]) {
        const Boundary b = domain.boundary(axis, along != 0);
        if (b == Boundary::Wall)
            return true;
        if (b == Boundary::Open) {
            idx[axis] = along == 0 ? 0 : n[axis] - 1;
            return solids.isSolid(idx[0], idx[1], idx[2]);
        }
        // Periodic: the face joins cell n-1 and cell 0.
        int lo[3] = {idx[0], idx[1], idx[2]};
        int hi[3] = {idx[0], idx[1], idx[2]};
        lo[axis] = n[axis] - 1;
        hi[axis] = 0;
        return solids.isSolid(lo[0], lo[1], lo[2]) || solids.isSolid(hi[0], hi[1], hi[2]);
    }
    int lo[3] = {idx[0], idx[1], idx[2]};
    lo[axis] = along - 1;
    return solids.isSolid(lo[0], lo[1], lo[2]) || solids.isSolid(idx[0], idx[1], idx[2]);
}

void admitAmbientAtOpenFaces(std::span<const AmbientField> fields, const MacGrid &vel,
                             const FlagGrid &solids, const Domain &domain, float dt)
{
    const Int3 n = domain.cells;
    PLUME_ASSERT_OR_RETURN(vel.cells() == n && solids.size() == n,
                           "open boundaries: the grids do not match the domain");
    if (fields.empty() || !(dt > 0.f))
        return;
    const float steps = dt / domain.cellSize; // face velocity -> cells moved in the step
    for (int axis = 0; axis < domain.dimensions(); ++axis) {
        const ScalarGrid &u = vel.component(axis);
        for (const bool high : {false, true}) {
            if (domain.boundary(axis, high) != Boundary::Open)
                continue;
            const int cellAlong = high ? n[axis] - 1 : 0;
            const int faceAlong = high ? n[axis] : 0;
            const float inward = high ? -1.f : 1.f;
            // The face's cells, as rows of the two other axes (a row of one cell for x).
            const int rowLength = axis == 0 ? 1 : n.x;
            forEachRow({rowLength, axis == 1 ? 1 : n.y, axis == 2 ? 1 : n.z}, [&](int j, int k) {
                for (int i = 0; i < rowLength; ++i) {
                    int c[3] = {i, j, k};
                    c[axis] = cellAlong;
                    if (solids.isSolid(c[0], c[1], c[2]))
                        continue;
                    int f[3] = {c[0], c[1], c[2]};
                    f[axis] = faceAlong;
                    const float in = inward * u(f[0], f[1], f[2]) * steps;
                    if (!(in > 0.f))
                        continue; // outflow or at rest (or not finite): nothing comes in
                    const float keep = in < 1.f ? 1.f - in : 0.f;
                    const std::size_t at = solids.index(c[0], c[1], c[2]);
                    for (const AmbientField &a : fields) {
                        float &q = (*a.field)[at];
                        q = a.ambient + (q - a.ambient) * keep;
                    }
                }
            });
        }
    }
}

void enforceVelocityBoundaries(MacGrid &vel, const FlagGrid &solids, const Domain &domain)
{
    const Int3 n = domain.cells;
    const int axes = domain.is2D() ? 2 : 3;
    const bool anySolid = solids.anySolid();
    const std::uint8_t *flag = solids.data();
    for (int axis = 0; axis < axes; ++axis) {
        ScalarGrid &c = vel.component(axis);
        const Int3 s = c.size();
        const Boundary lo = domain.boundary(axis, false);
        const Boundary hi = domain.boundary(axis, true);
        // Interior faces: closed when a neighbouring cell is solid. The cells on the two sides
        // of face (i,j,k) are (i,j,k) - e_axis and (i,j,k).
        const std::size_t step = axis == 0
                                     ? 1
                                     : (axis == 1 ? std::size_t(n.x) : std::size_t(n.x) * n.y);
        forEachRow(s, [&](int j, int k) {
            float *row = &c(0, j, k);
            const int along = axis == 0 ? -1 : (axis == 1 ? j : k);
            if (anySolid) {
                if (axis == 0) {
                    const std::uint8_t *cells = flag + solids.index(0, j, k);
                    for (int i = 1; i < n.x; ++i)
                        row[i] = (cells[i - 1] | cells[i]) ? 0.f : row[i];
                } else if (along > 0 && along < n[axis]) {
                    const std::uint8_t *above = flag + solids.index(0, j, k);
                    const std::uint8_t *below = above - step;
                    for (int i = 0; i < n.x; ++i)
                        row[i] = (below[i] | above[i]) ? 0.f : row[i];
                }
            }
            // Faces on the domain's ends along this axis.
            auto end = [&](bool high, int i, int jj, int kk) {
                const Boundary b = high ? hi : lo;
                float &face = c(i, jj, kk);
                if (b == Boundary::Wall) {
                    face = 0.f;
                    return;
                }
                if (faceIsClosed(solids, domain, axis, i, jj, kk))
                    face = 0.f;
                else if (b == Boundary::Periodic && high) {
                    int first[3] = {i, jj, kk};
                    first[axis] = 0;
                    face = c(first[0], first[1], first[2]);
                }
            };
            if (axis == 0) {
                end(false, 0, j, k);
                end(true, n.x, j, k);
            } else if (along == 0 || along == n[axis]) {
                for (int i = 0; i < n.x; ++i)
                    end(along != 0, i, j, k);
            }
        });
    }
}

void clearSolidCells(ScalarGrid &field, const FlagGrid &solids)
{
    const std::uint8_t *f = solids.data();
    float *d = field.data();
    forEachIndex(std::int64_t(field.count()), [&](std::int64_t n) {
        if (f[n])
            d[n] = 0.f;
    });
}

} // namespace plume::sim
