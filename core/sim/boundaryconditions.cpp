#include "boundaryconditions.h"

#include "parallel.h"

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

void enforceVelocityBoundaries(MacGrid &vel, const FlagGrid &solids, const Domain &domain)
{
    const int axes = domain.is2D() ? 2 : 3;
    const bool anySolid = solids.anySolid();
    for (int axis = 0; axis < axes; ++axis) {
        ScalarGrid &c = vel.component(axis);
        const Int3 s = c.size();
        const int last = s[axis] - 1;
        const bool periodic = domain.boundary(axis, false) == Boundary::Periodic;
        forEachRow(s, [&](int j, int k) {
            for (int i = 0; i < s.x; ++i) {
                const int along = axis == 0 ? i : (axis == 1 ? j : k);
                const bool end = along == 0 || along == last;
                if (!end && !anySolid)
                    continue;
                if (faceIsClosed(solids, domain, axis, i, j, k)) {
                    c(i, j, k) = 0.f;
                } else if (periodic && along == last) {
                    int lo[3] = {i, j, k};
                    lo[axis] = 0;
                    c(i, j, k) = c(lo[0], lo[1], lo[2]);
                }
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
