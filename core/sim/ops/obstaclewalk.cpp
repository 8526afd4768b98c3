// SPDX-License-Identifier: Apache-2.0
#include <core/sim/ops/obstaclewalk.h>

#include <core/sim/base/parallel.h>

#include <algorithm>

namespace plume::sim::detail {

Setup makeSetup(const Domain &domain, const FlagGrid *solids, bool anySolid,
                const std::vector<std::uint8_t> &distances, bool exactEverywhere)
{
    Setup c;
    c.domain = domain;
    Obstacles &o = c.obstacles;
    o.n = domain.cells;
    for (int a = 0; a < 3; ++a)
        c.periodic[a] = o.periodic[a] = isPeriodic(domain, a);
    if (anySolid) {
        o.flags = solids->data();
        o.fy = std::size_t(o.n.x);
        o.fz = std::size_t(o.n.x) * std::size_t(o.n.y);
        c.solidDistance = distances.empty() ? nullptr : distances.data();
        c.clearance = exactEverywhere ? nullptr : c.solidDistance;
    }
    for (int a = 0; a < domain.dimensions(); ++a) {
        if (!c.periodic[a]) {
            c.boxLo[a] = 0.25f;
            c.boxHi[a] = float(domain.cells[a]) - 0.25f;
        }
    }
    return c;
}

namespace {

/// One offset of the min-max filter along a row: dst = min(dst, max(delta, src)). The rows
/// never overlap; saying so lets the loop vectorise.
void minOfFarther(std::uint8_t *__restrict dst, const std::uint8_t *__restrict src,
                  std::uint8_t delta, int count)
{
    for (int i = 0; i < count; ++i)
        dst[i] = std::min(dst[i], std::max(delta, src[i]));
}

/// How far a trace may go along `axis` from samples at index `at` (cells, or faces of that
/// axis when `face`) before the walk could meet a closed face: a cell's centre is half a cell
/// further from the face than its index says, a face sits on a cell boundary. A periodic axis
/// has no such face.
float roomAlong(const Setup &c, int axis, int at, bool face)
{
    const int n = c.domain.cells[axis];
    if (c.periodic[axis])
        return kInf;
    if (face)
        return std::max(float(std::min(at, n - at)) - 0.25f, 0.f);
    return float(std::min(at, n - 1 - at)) + 0.25f;
}

} // namespace

/// Chebyshev (L-infinity) distance in cells from every cell to the nearest solid cell, capped
/// at kClearanceCap and at the length of the shortest periodic axis (a trace longer than that
/// would outrun the walk's step budget); periodic axes wrap. Separable (min-max filters): a
/// two-sweep distance along each x-row, then windows of half-width cap - 1 along y and z.
std::vector<std::uint8_t> clearanceMap(const Domain &d, const FlagGrid &solids)
{
    const Int3 n = d.cells;
    int cap = kClearanceCap;
    for (int a = 0; a < d.dimensions(); ++a)
        cap = isPeriodic(d, a) ? std::min(cap, n[a]) : cap;
    std::vector<std::uint8_t> out(std::size_t(n.volume()));
    const std::uint8_t *flags = solids.data();
    const bool wrapX = isPeriodic(d, 0);
    forEachRow(n, [&](int j, int k) {
        const std::size_t row = solids.index(0, j, k);
        // Forward then backward: distance to the nearest solid on the left, then the right;
        // a periodic row runs two laps so that the wrapped neighbours count.
        int run = cap;
        for (int t = wrapX ? -n.x : 0; t < n.x; ++t) {
            const int i = t < 0 ? t + n.x : t;
            run = flags[row + std::size_t(i)] ? 0 : std::min(run + 1, cap);
            if (t >= 0)
                out[row + std::size_t(i)] = std::uint8_t(run);
        }
        run = cap;
        for (int t = wrapX ? 2 * n.x - 1 : n.x - 1; t >= 0; --t) {
            const int i = t >= n.x ? t - n.x : t;
            run = flags[row + std::size_t(i)] ? 0 : std::min(run + 1, cap);
            std::uint8_t &o = out[row + std::size_t(i)];
            if (t < n.x)
                o = std::uint8_t(std::min<int>(o, run));
        }
    });
    std::vector<std::uint8_t> in(out.size());
    for (int axis = 1; axis < d.dimensions(); ++axis) {
        in.swap(out);
        const bool wrap = isPeriodic(d, axis);
        const std::size_t stride = axis == 1 ? solids.index(0, 1, 0) : solids.index(0, 0, 1);
        forEachRow(n, [&](int j, int k) {
            const int at = axis == 1 ? j : k;
            const std::uint8_t *own = in.data() + solids.index(0, j, k);
            std::uint8_t *dst = out.data() + solids.index(0, j, k);
            std::copy_n(own, n.x, dst);
            for (int delta = 1; delta < cap; ++delta) {
                for (int side : {-1, 1}) {
                    int from = at + side * delta;
                    if (from < 0 || from >= n[axis]) {
                        if (!wrap)
                            continue;
                        from = ((from % n[axis]) + n[axis]) % n[axis];
                    }
                    const std::uint8_t *src = own
                                              + (std::ptrdiff_t(from) - at)
                                                    * std::ptrdiff_t(stride);
                    minOfFarther(dst, src, std::uint8_t(delta), n.x);
                }
            }
        });
    }
    return out;
}

/// The clearance of the cells of row (j, k) (faces past the last cell use the last cell) and
/// the room before closed faces, for samples of faceAxis (cells when negative).
RowClearance rowClearance(const Setup &c, int faceAxis, int j, int k)
{
    RowClearance r;
    if (!c.clearance)
        return r;
    const Int3 n = c.domain.cells;
    const int cj = std::min(j, n.y - 1);
    const int ck = std::min(k, n.z - 1);
    r.cells = c.clearance + std::size_t(n.x) * (std::size_t(cj) + std::size_t(n.y) * ck);
    r.lastX = n.x - 1;
    if (!c.periodic[0]) {
        r.endX = faceAxis == 0 ? float(n.x) - 0.25f : float(n.x - 1) + 0.25f;
        r.biasX = faceAxis == 0 ? -0.25f : 0.25f;
    }
    r.roomY = roomAlong(c, 1, j, faceAxis == 1);
    r.roomZ = c.domain.is2D() ? 0.f : roomAlong(c, 2, k, faceAxis == 2);
    return r;
}

} // namespace plume::sim::detail
