// SPDX-License-Identifier: Apache-2.0
// Mick West's mass-conserving "accounting" advection (Game Developer, 2008) for the smoke
// scheme's density: amounts move from cell to cell, forward then backward, and a cell never
// gives more than it holds. Shares the traces, clearance map and sample sweep of the other
// passes (obstaclewalk.h, samplesweep.h).
#include <core/sim/ops/advection.h>

#include <core/sim/base/assert.h>

#include <core/sim/ops/samplesweep.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace plume::sim {

using namespace detail;

namespace {

/// The 4 (2D) or 8 cells around a point on the cell grid, corner c = x + 2y + 4z in low/high
/// bits, with their bilinear/trilinear weights. Solid corners weigh 0; corners beyond an open
/// face are flagged outside (what goes there leaves the domain).
struct Footprint
{
    std::size_t idx[8];
    float w[8];
    bool inside[8];
    float total = 0.f; ///< sum of the weights: below 1 when corners are solid
};

/// Footprint of x for moving amounts (West 2008): walls clamp, open faces let weight fall
/// outside the domain, periodic axes wrap.
template<bool k3D, bool kSolids>
Footprint footprintAt(const Setup &c, Vec3 x)
{
    int i0[3] = {0, 0, 0};
    int i1[3] = {0, 0, 0};
    float f[3] = {0.f, 0.f, 0.f};
    bool in0[3] = {true, true, true};
    bool in1[3] = {true, true, true};
    for (int a = 0; a < (k3D ? 3 : 2); ++a) {
        const int n = c.domain.cells[a];
        float s = x[a] - 0.5f;
        if (c.periodic[a]) {
            s = wrapCoordinate(s, float(n));
            i0[a] = int(s);
            i1[a] = i0[a] + 1 < n ? i0[a] + 1 : 0;
        } else {
            const float lo = c.domain.boundary(a, false) == Boundary::Open ? -1.f : 0.f;
            const float hi = c.domain.boundary(a, true) == Boundary::Open ? float(n) : n - 1.f;
            s = s > lo ? s : lo;
            s = s < hi ? s : hi;
            i0[a] = int(s + 1.f) - 1; // floor on [-1, n]
            i1[a] = i0[a] + 1;
            in0[a] = i0[a] >= 0 && i0[a] < n;
            in1[a] = i1[a] < n;
        }
        f[a] = s - float(i0[a]);
    }
    Footprint fp;
    const std::size_t sy = std::size_t(c.domain.cells.x);
    const std::size_t sz = sy * std::size_t(c.domain.cells.y);
    for (int corner = 0; corner < (k3D ? 8 : 4); ++corner) {
        const int b[3] = {corner & 1, (corner >> 1) & 1, (corner >> 2) & 1};
        float w = 1.f;
        bool inside = true;
        int at[3] = {0, 0, 0};
        for (int a = 0; a < (k3D ? 3 : 2); ++a) {
            w *= b[a] ? f[a] : 1.f - f[a];
            at[a] = b[a] ? i1[a] : i0[a];
            inside = inside && (b[a] ? in1[a] : in0[a]);
        }
        fp.inside[corner] = inside;
        fp.idx[corner] = inside ? std::size_t(at[0]) + sy * std::size_t(at[1])
                                      + sz * std::size_t(at[2])
                                : 0;
        if constexpr (kSolids) {
            if (inside && c.obstacles.cell(at[0], at[1], at[2]))
                w = 0.f;
        }
        fp.w[corner] = w;
        fp.total += w;
    }
    return fp;
}

/// Splits `amount` between two groups of weight w0 and w1 so that the parts add up to it
/// exactly: the larger part is a product (at least half the amount), the smaller one the
/// remainder, exact by Sterbenz's lemma. The weights need not be normalised.
inline void splitExactly(float amount, float w0, float w1, float &a0, float &a1)
{
    if (!(w1 > 0.f)) {
        a0 = amount;
        a1 = 0.f;
    } else if (!(w0 > 0.f)) {
        a0 = 0.f;
        a1 = amount;
    } else if (w0 >= w1) {
        a0 = amount * (w0 / (w0 + w1));
        a1 = amount - a0;
    } else {
        a1 = amount * (w1 / (w0 + w1));
        a0 = amount - a1;
    }
}

/// Shares `amount` among the corners in proportion to their weights, halving along z, y then
/// x, so that the shares add up to the amount exactly: rounded weights cannot make the total
/// drift. The weights must not all be zero.
template<bool k3D>
void shareExactly(float amount, const float w[8], float share[8])
{
    float half[2] = {amount, 0.f};
    if constexpr (k3D)
        splitExactly(amount, w[0] + w[1] + w[2] + w[3], w[4] + w[5] + w[6] + w[7], half[0],
                     half[1]);
    for (int z = 0; z < (k3D ? 2 : 1); ++z) {
        const float *v = w + 4 * z;
        float *out = share + 4 * z;
        float y0, y1;
        splitExactly(half[z], v[0] + v[1], v[2] + v[3], y0, y1);
        splitExactly(y0, v[0], v[1], out[0], out[1]);
        splitExactly(y1, v[2], v[3], out[2], out[3]);
    }
}

/// Runs body(begin, end) over blocks of slabs (rows in 2D) in two phases, even blocks then odd
/// blocks, each block serially. Blocks are at least 2 * reach slabs thick, so two blocks of a
/// phase never write the same cell, and every float addition happens in a fixed order whatever
/// the thread count.
template<class F>
void forEachBlockPhased(int slabs, int reach, bool periodic, F &&body)
{
    int blocks = slabs / (2 * std::max(reach, 1));
    if (periodic && blocks % 2 == 1)
        --blocks; // block 0 and the last block are neighbours
    if (blocks < 2) {
        forEachSlab(1, [&](int) { body(0, slabs); });
        return;
    }
    for (int phase = 0; phase < 2; ++phase) {
        forEachSlab((blocks - phase + 1) / 2, [&](int m) {
            const std::int64_t b = 2 * m + phase;
            body(int(b * slabs / blocks), int((b + 1) * slabs / blocks));
        });
    }
}

/// Largest |displacement| in cells along the slab axis (z in 3D, y in 2D), plus one cell for
/// the interpolation footprint; `slabs` when it is not finite or larger than the domain.
int scatterReach(const MacGrid &vel, const Domain &d, float scale)
{
    const ScalarGrid &g = vel.component(d.is2D() ? 1 : 2);
    const double largest = maxRows(g.size(), [&](int j, int k) {
        const float *row = g.data() + g.index(0, j, k);
        float m = 0.f;
        for (int i = 0; i < g.size().x; ++i)
            m = std::max(m, std::fabs(row[i]));
        return double(m);
    });
    const double cells = largest * std::fabs(double(scale));
    const int slabs = d.cells[d.is2D() ? 1 : 2];
    return cells < slabs ? int(std::ceil(cells)) + 1 : slabs;
}

/// trace() with the path chosen at run time (always plain without obstacles).
template<bool k3D, bool kSolids>
PLUME_INLINE Vec3 traceAlong(const Setup &c, Path path, Vec3 p, Vec3 d)
{
    if constexpr (kSolids) {
        if (path == Path::Exact)
            return trace<k3D, Path::Exact>(c, p, d);
        if (path == Path::Clear)
            return trace<k3D, Path::Clear>(c, p, d);
    }
    return p + d;
}

/// West's forward-then-backward accounting advection. Each half moves by `scale` * u (cells),
/// so the caller passes half of dt / h: the content travels dt u over the whole step.
template<bool k3D, bool kSolids>
void accounting(const Setup &c, ScalarGrid &q, const MacGrid &vel, float scale, ScalarGrid &movedHi,
                ScalarGrid &movedLo, ScalarGrid &asked)
{
    const Int3 n = c.domain.cells;
    const CentreDisplacement<k3D> disp{vel, scale};
    constexpr int kCorners = k3D ? 8 : 4;
    const float *src = q.data();
    float *hi = movedHi.data();
    float *lo = movedLo.data();
    float *req = asked.data();
    // Moved amounts are kept as hi + lo float pairs (Knuth's TwoSum): adding trickles to a
    // large pile in plain float would lose them and bias the total downwards.
    auto give = [&](std::size_t n, float amount) {
        const float sum = hi[n] + amount;
        const float b = sum - hi[n];
        lo[n] += (hi[n] - (sum - b)) + (amount - b);
        hi[n] = sum;
    };
    // Forward: every cell hands its content to the corners around x + d; in the same sweep,
    // every cell asks its backward source corners (around x - d) for their fractions.
    const int slabAxis = k3D ? 2 : 1;
    const int reach = scatterReach(vel, c.domain, scale);
    forEachBlockPhased(n[slabAxis], reach, c.periodic[slabAxis], [&](int begin, int end) {
        for (int k = k3D ? begin : 0; k < (k3D ? end : 1); ++k) {
            for (int j = k3D ? 0 : begin; j < (k3D ? n.y : end); ++j) {
                const auto velocity = disp.row(j, k);
                [[maybe_unused]] const RowClearance room = kSolids ? rowClearance(c, -1, j, k)
                                                                   : RowClearance{};
                for (int i = 0; i < n.x; ++i) {
                    const std::size_t self = q.index(i, j, k);
                    if constexpr (kSolids) {
                        if (c.obstacles.cell(i, j, k))
                            continue;
                    }
                    const Vec3 p{float(i) + 0.5f, float(j) + 0.5f, float(k) + 0.5f};
                    const Vec3 d = velocity(i);
                    const Path path = kSolids ? room.path(i, d) : Path::Plain;
                    if (src[self] != 0.f) {
                        const Vec3 to = traceAlong<k3D, kSolids>(c, path, p, d);
                        const Footprint fp = footprintAt<k3D, kSolids>(c, to);
                        if (fp.total > 0.f) {
                            float share[8];
                            shareExactly<k3D>(src[self], fp.w, share);
                            for (int m = 0; m < kCorners; ++m)
                                if (fp.inside[m] && share[m] != 0.f)
                                    give(fp.idx[m], share[m]);
                        } else {
                            give(self, src[self]); // every corner solid: nothing moves
                        }
                    }
                    const Vec3 from = traceAlong<k3D, kSolids>(c, path, p, d * -1.f);
                    const Footprint fp = footprintAt<k3D, kSolids>(c, from);
                    const float norm = kSolids && fp.total > 0.f ? 1.f / fp.total : 1.f;
                    for (int m = 0; m < kCorners; ++m) {
                        if (fp.inside[m] && fp.w[m] != 0.f)
                            req[fp.idx[m]] += fp.w[m] * norm;
                    }
                }
            }
        }
    });
    // Backward: a source asked for more than it holds gives each asker a scaled share; what a
    // source gives is taken from it (the gather form of West's subtract-where-taken).
    const auto gather = [&](auto path, std::size_t self, Vec3 p, Vec3 d) PLUME_LAMBDA_INLINE {
        constexpr Path kPath = decltype(path)::value;
        const Footprint fp = footprintAt<k3D, kSolids>(c, trace<k3D, kPath>(c, p, d * -1.f));
        const float norm = kSolids && fp.total > 0.f ? 1.f / fp.total : 1.f;
        const float own = hi[self] + lo[self];
        double v = own - own * std::min(req[self], 1.f);
        for (int m = 0; m < kCorners; ++m) {
            const float r = req[fp.idx[m]];
            const float a = hi[fp.idx[m]] + lo[fp.idx[m]];
            v += fp.inside[m] ? fp.w[m] * norm * (r > 1.f ? a / r : a) : 0.f;
        }
        return float(v);
    };
    forEachSample<kSolids>(c, q, -1, disp, gather);
}

} // namespace

void Advector::advectAccounting(ScalarGrid &q, const MacGrid &vel, float dt, Workspace &work) const
{
    const float scale = dt / mDomain.cellSize;
    PLUME_ASSERT_OR_RETURN(q.size() == mDomain.cells && q.offset() == kCellCentre
                               && velocityFits(vel, mDomain),
                           "accounting advection: the grids do not match the domain");
    if (!std::isfinite(scale))
        return;
    const Setup c = makeSetup(mDomain, mSolids, mAnySolid, mClearance, mExactEverywhere);
    ScalarGrid &movedHi = work[0];
    ScalarGrid &movedLo = work[1];
    ScalarGrid &asked = work[2];
    movedHi.reshape(q.size(), q.offset(), 0.f);
    movedLo.reshape(q.size(), q.offset(), 0.f);
    asked.reshape(q.size(), q.offset(), 0.f);
    dispatch(!mDomain.is2D(), mAnySolid, [&](auto k3D, auto solids) {
        accounting<decltype(k3D)::value, decltype(solids)::value>(c, q, vel, 0.5f * scale, movedHi,
                                                                  movedLo, asked);
    });
}

} // namespace plume::sim
