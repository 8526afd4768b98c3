// SPDX-License-Identifier: Apache-2.0
#include <core/sim/smoke/adaptivedomain.h>

#include <core/sim/base/parallel.h>
#include <core/sim/ops/advection.h>
#include <core/sim/ops/boundaryconditions.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <new>

namespace plume::sim {

namespace {

Int3 add(Int3 a, Int3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
Int3 sub(Int3 a, Int3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }

/// The sub-domain over `box`: faces inside the domain are open, the others keep the domain's.
Domain subDomain(const Domain &d, const CellBox &box)
{
    Domain s = d;
    s.cells = box.size();
    s.origin = d.toWorld({float(box.lo.x), float(box.lo.y), float(box.lo.z)});
    for (int a = 0; a < 3; ++a) {
        if (box.lo[a] > 0)
            s.boundaries[2 * a] = Boundary::Open;
        if (box.hi[a] < d.cells[a])
            s.boundaries[2 * a + 1] = Boundary::Open;
    }
    return s;
}

/// The parameters of the solver inside the box: the same, dense.
SimParams dense(SimParams params)
{
    params.adaptiveDomain = false;
    return params;
}

/// A grid of the samples a field has over `to` cells, given its samples over `from` cells
/// (face grids have one more along their axis).
Int3 resized(Int3 samples, Int3 from, Int3 to)
{
    return samples.volume() == 0 ? samples : add(samples, sub(to, from));
}

/// Cells of a domain-wide mask that lie in `box`, renumbered over the box.
SparseMask cropMask(const SparseMask &mask, Int3 cells, const CellBox &box)
{
    SparseMask out;
    const Int3 n = box.size();
    for (std::size_t m = 0; m < mask.size(); ++m) {
        const Int3 c = cellOf(mask.cells[m], cells);
        if (c.x < box.lo.x || c.x >= box.hi.x || c.y < box.lo.y || c.y >= box.hi.y || c.z < box.lo.z
            || c.z >= box.hi.z)
            continue;
        const std::uint32_t local = std::uint32_t(c.x - box.lo.x)
                                    + std::uint32_t(n.x)
                                          * (std::uint32_t(c.y - box.lo.y)
                                             + std::uint32_t(n.y) * std::uint32_t(c.z - box.lo.z));
        out.add(local, mask.weights[m]);
    }
    return out;
}

/// Bounds of a mask's cells (empty for an empty mask).
/// The solids and their motion inside `box`, renumbered over the box.
void cropObstacles(const FlagGrid &solids, const ObstacleMotion &motion, const CellBox &box,
                   FlagGrid &outSolids, ObstacleMotion &outMotion)
{
    const Int3 n = box.size();
    outSolids.reshape(n);
    outMotion = ObstacleMotion();
    for (int a = 0; a < 3; ++a) {
        if (motion.velocity[a].count() > 0) {
            outMotion.velocity[a].reshape(n, kCellCentre);
            copyBlock(motion.velocity[a], box.lo, outMotion.velocity[a], {0, 0, 0}, n);
        }
    }
    if (!motion.noSlip.empty())
        outMotion.noSlip.resize(std::size_t(n.volume()));
    forEachRow(Int3{1, n.y, n.z}, [&](int j, int k) {
        const std::size_t from = solids.index(box.lo.x, box.lo.y + j, box.lo.z + k);
        const std::size_t to = outSolids.index(0, j, k);
        std::memcpy(outSolids.data() + to, solids.data() + from, std::size_t(n.x));
        if (!outMotion.noSlip.empty())
            std::memcpy(outMotion.noSlip.data() + to, motion.noSlip.data() + from,
                        std::size_t(n.x));
    });
}

} // namespace

CellBox AdaptiveDomainSolver::wholePeriodicAxes(CellBox box) const
{
    for (int a = 0; a < 3; ++a) {
        if (mDomain.boundary(a, false) == Boundary::Periodic) {
            box.lo[a] = 0;
            box.hi[a] = mDomain.cells[a];
        }
    }
    return box;
}

AdaptiveDomainSolver::AdaptiveDomainSolver(const Domain &domain, const SimParams &params)
    : mDomain(domain)
    , mParams(params)
    , mSolids(domain.cells)
    , mFactor(farFactor(domain))
    , mFarDomain(farDomainOf(domain))
{
    setFarSolids();
    reset();
}

Int3 AdaptiveDomainSolver::farFactor(const Domain &domain)
{
    const Int3 n = domain.cells;
    const int c = std::min({n.x, n.y, domain.is2D() ? n.x : n.z}) >= 4 * kCoarsen ? kCoarsen : 1;
    return {c, c, domain.is2D() ? 1 : c};
}

Domain AdaptiveDomainSolver::farDomainOf(const Domain &domain)
{
    // Coarse cells cover the domain; where a cell count does not divide, the last coarse cell
    // reaches past the domain's edge (by under kCoarsen cells).
    const Int3 f = farFactor(domain);
    Domain far = domain;
    for (int a = 0; a < 3; ++a)
        far.cells[a] = (domain.cells[a] + f[a] - 1) / f[a];
    far.cellSize = domain.cellSize * float(f.x);
    return far;
}

void AdaptiveDomainSolver::setFarSolids()
{
    // A coarse cell is solid when most of its cells are, or when a whole slice of it across
    // some axis is (so that a plate one cell thin still stops the far field).
    const Int3 n = mFarDomain.cells;
    const Int3 f = mFactor;
    const int dims = mDomain.dimensions();
    FlagGrid solids(n);
    forEachRow(n, [&](int j, int k) {
        for (int i = 0; i < n.x; ++i) {
            const Int3 lo{i * f.x, j * f.y, k * f.z};
            // The part of the coarse cell inside the domain.
            Int3 span;
            for (int a = 0; a < 3; ++a)
                span[a] = std::min(f[a], mDomain.cells[a] - lo[a]);
            int count = 0;
            int slices[3][kCoarsen] = {};
            for (int z = 0; z < span.z; ++z)
                for (int y = 0; y < span.y; ++y)
                    for (int x = 0; x < span.x; ++x) {
                        if (!mSolids.isSolid(lo.x + x, lo.y + y, lo.z + z))
                            continue;
                        ++count;
                        ++slices[0][x];
                        ++slices[1][y];
                        ++slices[2][z];
                    }
            bool solid = 2 * count > span.volume();
            for (int a = 0; a < dims && !solid; ++a) {
                const int area = int(span.volume() / span[a]);
                for (int s = 0; s < span[a]; ++s)
                    solid = solid || slices[a][s] == area;
            }
            solids.setSolid(i, j, k, solid);
        }
    });
    if (mFarSolids == solids)
        return;
    mFarSolids = std::move(solids);
    mFarPressure.setup(mFarDomain, mFarSolids);
}

float AdaptiveDomainSolver::farPressureAt(Vec3 p) const
{
    // Trilinear over the fluid cells only: solid cells hold no pressure (zero), and mixing
    // them in would pull the boundary pressure beside an obstacle towards zero.
    const Int3 n = mFarDomain.cells;
    int base[3];
    float t[3];
    for (int a = 0; a < 3; ++a) {
        const float s = std::clamp(p[a] - 0.5f, 0.f, float(n[a] - 1));
        base[a] = std::min(int(s), std::max(n[a] - 2, 0));
        t[a] = n[a] > 1 ? s - float(base[a]) : 0.f;
    }
    float sum = 0.f, weights = 0.f;
    for (int c = 0; c < 8; ++c) {
        const int i = std::min(base[0] + (c & 1), n.x - 1);
        const int j = std::min(base[1] + ((c >> 1) & 1), n.y - 1);
        const int k = std::min(base[2] + ((c >> 2) & 1), n.z - 1);
        if (mFarSolids.isSolid(i, j, k))
            continue;
        const float w = ((c & 1) ? t[0] : 1.f - t[0]) * (((c >> 1) & 1) ? t[1] : 1.f - t[1])
                        * (((c >> 2) & 1) ? t[2] : 1.f - t[2]);
        sum += w * mFarPressureField(i, j, k);
        weights += w;
    }
    return weights > 0.f ? sum / weights : 0.f;
}

void AdaptiveDomainSolver::projectFarField(float dt)
{
    const MacGrid &fine = mInner->mVelocity;
    const int dims = mDomain.dimensions();
    const Int3 factor = mFactor;
    Int3 lo, hi; // the coarse cells the box covers (the last one may reach past the domain)
    for (int a = 0; a < 3; ++a) {
        lo[a] = mBox.lo[a] / factor[a];
        hi[a] = (mBox.hi[a] + factor[a] - 1) / factor[a];
    }
    // The box's flow, averaged onto the coarse faces it covers; the rest keeps its flow. A box
    // not aligned to the coarse cells (one restored from a checkpoint) covers its first coarse
    // cells only in part: only fine faces inside the box are averaged, and a coarse face whose
    // fine face lies below the box keeps the far field's value.
    for (int a = 0; a < dims; ++a) {
        ScalarGrid &coarse = mFarVelocity.component(a);
        const ScalarGrid &f = fine.component(a);
        Int3 count = sub(hi, lo);
        count[a] += 1;
        const int b = (a + 1) % 3, e = (a + 2) % 3;
        const Int3 nb = mBox.size();
        forEachRow(count, [&](int j, int k) {
            for (int i = 0; i < count.x; ++i) {
                const Int3 C{lo.x + i, lo.y + j, lo.z + k};
                Int3 F; // the fine face at the coarse face's low corner, in the box
                for (int x = 0; x < 3; ++x)
                    F[x] = C[x] * factor[x] - mBox.lo[x];
                if (F[a] < 0)
                    continue;
                F[a] = std::min(F[a], nb[a]); // a coarse face past the domain's edge: the edge's
                float sum = 0.f;
                int faces = 0;
                for (int t = std::max(0, -F[e]); t < factor[e] && F[e] + t < nb[e]; ++t)
                    for (int q = std::max(0, -F[b]); q < factor[b] && F[b] + q < nb[b]; ++q) {
                        Int3 G = F;
                        G[b] += q;
                        G[e] += t;
                        sum += f(G.x, G.y, G.z);
                        ++faces;
                    }
                if (faces > 0)
                    coarse(C.x, C.y, C.z) = sum / float(faces);
            }
        });
    }
    enforceVelocityBoundaries(mFarVelocity, mFarSolids, mFarDomain);
    // Burning gas expands: the far field takes the box's expansion, averaged, as its own.
    const ScalarGrid *expansion = nullptr;
    if (mParams.combustion.expansion > 0.f && mInner->mExpansion.count() > 0) {
        mFarExpansion.reshape(mFarDomain.cells, kCellCentre, 0.f);
        const ScalarGrid &fineExpansion = mInner->mExpansion;
        forEachRow(sub(hi, lo), [&](int j, int k) {
            for (int i = 0; i < hi.x - lo.x; ++i) {
                const Int3 C{lo.x + i, lo.y + j, lo.z + k};
                float sum = 0.f;
                int cells = 0;
                for (int z = std::max(C.z * factor.z, mBox.lo.z);
                     z < (C.z + 1) * factor.z && z < mBox.hi.z; ++z)
                    for (int y = std::max(C.y * factor.y, mBox.lo.y);
                         y < (C.y + 1) * factor.y && y < mBox.hi.y; ++y)
                        for (int x = std::max(C.x * factor.x, mBox.lo.x);
                             x < (C.x + 1) * factor.x && x < mBox.hi.x; ++x) {
                            sum += fineExpansion(x - mBox.lo.x, y - mBox.lo.y, z - mBox.lo.z);
                            ++cells;
                        }
                mFarExpansion(C.x, C.y, C.z) = cells > 0 ? sum / float(cells) : 0.f;
            }
        });
        expansion = &mFarExpansion;
    }
    mFarPressure.project(mFarVelocity, mFarPressureField, dt, mParams.pressure, mFarWork,
                         expansion);

    // The open faces of the box see the far field's pressure just outside them instead of
    // zero. With ghost pressure g, the projection's u -= (p_in - g) on a low face equals
    // projecting u + g with a zero ghost (and u - g on a high face), which the inner solver does.
    MacGrid &u = mInner->mVelocity;
    const FlagGrid &solids = mInner->mSolids;
    const Int3 nb = mBox.size();
    const float toTilde = dt / mDomain.cellSize;
    for (int a = 0; a < dims; ++a) {
        const int b = (a + 1) % 3, e = (a + 2) % 3;
        for (int side = 0; side < 2; ++side) {
            if (side == 0 ? mBox.lo[a] == 0 : mBox.hi[a] == mDomain.cells[a])
                continue;
            ScalarGrid &f = u.component(a);
            Int3 span = nb;
            span[a] = 1;
            forEachRow(span, [&](int j, int k) {
                for (int i = 0; i < span.x; ++i) {
                    Int3 cell{i, j, k};
                    cell[a] = side == 0 ? 0 : nb[a] - 1;
                    if (solids.isSolid(cell.x, cell.y, cell.z))
                        continue;
                    Int3 face = cell;
                    face[a] = side == 0 ? 0 : nb[a];
                    Vec3 ghost; // centre of the cell outside the face, in coarse cells
                    ghost[a] = (side == 0 ? float(mBox.lo[a]) - 0.5f : float(mBox.hi[a]) + 0.5f)
                               / float(factor[a]);
                    for (int x : {b, e})
                        ghost[x] = (float(mBox.lo[x] + cell[x]) + 0.5f) / float(factor[x]);
                    const float g = farPressureAt(ghost) * toTilde;
                    f(face.x, face.y, face.z) += side == 0 ? g : -g;
                }
            });
        }
    }
}

Status AdaptiveDomainSolver::setParams(const SimParams &params)
{
    if (Status s = checkParamsChange(mParams, params); !s)
        return s;
    if (params.adaptiveDomain != mParams.adaptiveDomain)
        return Status::failure("the adaptive domain cannot be switched on a running solver; make a "
                               "new one");
    if (Status s = mInner->setParams(dense(params)); !s)
        return s;
    mParams = params;
    return Status::success();
}

void AdaptiveDomainSolver::reset()
{
    // A fresh solver and a reset one start alike: one tile at the low corner, until the first
    // step looks at the emitters.
    CellBox start;
    for (int a = 0; a < 3; ++a)
        start.hi[a] = std::min(kTile, mDomain.cells[a]);
    start = wholePeriodicAxes(start);
    mInner = makeInner(start);
    mBox = start;
    mFarVelocity.reshape(mFarDomain.cells);
    mFarPressureField.reshape(mFarDomain.cells, kCellCentre);
}

std::unique_ptr<SmokeSolver> AdaptiveDomainSolver::makeInner(const CellBox &box)
{
    auto inner = std::make_unique<SmokeSolver>(subDomain(mDomain, box), dense(mParams));
    FlagGrid solids;
    ObstacleMotion motion;
    cropObstacles(mSolids, mMotion, box, solids, motion);
    std::vector<Emitter> emitters = mEmitters;
    for (Emitter &e : emitters)
        e.mask = cropMask(e.mask, mDomain.cells, box);
    std::vector<ForceField> fields = mForceFields;
    for (ForceField &f : fields) {
        if (!f.region.mask.empty())
            f.region.mask = cropMask(f.region.mask, mDomain.cells, box);
    }
    // Cropped inputs that were valid stay valid: only running out of memory fails here.
    if (!inner->setObstacles(solids, motion) || !inner->setEmitters(std::move(emitters))
        || !inner->setForceFields(std::move(fields)))
        throw std::bad_alloc();
    inner->mBeforeProjection = [this](float dt) { projectFarField(dt); };
    inner->keepScalarStages(mKeepStages);
    return inner;
}

CellBox AdaptiveDomainSolver::wantedBox(float dt) const
{
    // Bounds of the cells holding smoke, row by row (the rows are reduced in order, so the
    // result does not depend on the threads).
    const Int3 n = mBox.size();
    std::vector<const ScalarGrid *> grids;
    for (const ScalarGrid *g :
         {&mInner->mDensity, &mInner->mTemperature, &mInner->mDye[0], &mInner->mDye[1],
          &mInner->mDye[2], &mInner->mFuel, &mInner->mFlame}) {
        if (g->count() > 0) // dye, fuel and flame exist only once emitted
            grids.push_back(g);
    }
    std::vector<Int3> rows(std::size_t(n.y) * std::size_t(n.z), Int3{INT_MAX, INT_MIN, 0});
    forEachRow(n, [&](int j, int k) {
        int lo = INT_MAX, hi = INT_MIN;
        for (const ScalarGrid *g : grids) {
            const float *row = g->data() + g->index(0, j, k);
            for (int i = 0; i < n.x; ++i) {
                if (std::abs(row[i]) > kActiveThreshold) {
                    lo = std::min(lo, i);
                    hi = std::max(hi, i + 1);
                }
            }
        }
        rows[std::size_t(j) + std::size_t(n.y) * std::size_t(k)] = Int3{lo, hi, 0};
    });
    CellBox smoke{{INT_MAX, INT_MAX, INT_MAX}, {INT_MIN, INT_MIN, INT_MIN}};
    bool any = false;
    for (int k = 0; k < n.z; ++k) {
        for (int j = 0; j < n.y; ++j) {
            const Int3 r = rows[std::size_t(j) + std::size_t(n.y) * std::size_t(k)];
            if (r.x > r.y)
                continue;
            any = true;
            smoke.lo = {std::min(smoke.lo.x, r.x), std::min(smoke.lo.y, j),
                        std::min(smoke.lo.z, k)};
            smoke.hi = {std::max(smoke.hi.x, r.y), std::max(smoke.hi.y, j + 1),
                        std::max(smoke.hi.z, k + 1)};
        }
    }
    if (any) {
        smoke.lo = add(smoke.lo, mBox.lo);
        smoke.hi = add(smoke.hi, mBox.lo);
    } else {
        smoke = CellBox{};
    }
    CellBox want = unite(smoke, mEmitterBox);
    if (want.empty()) {
        // Nothing to simulate: the smallest box, where the last one started.
        want.lo = mBox.lo;
        for (int a = 0; a < 3; ++a)
            want.hi[a] = std::min(mBox.lo[a] + kTile, mDomain.cells[a]);
        return wholePeriodicAxes(want);
    }
    // Margin: a few cells, plus twice what the fastest flow crosses in this step.
    const float reach = mInner->maxVelocity() * dt / mDomain.cellSize;
    const int margin = kMargin + int(std::ceil(std::min(2.f * reach, float(INT_MAX / 4))));
    for (int a = 0; a < 3; ++a) {
        const int cells = mDomain.cells[a];
        if (mDomain.boundary(a, false) == Boundary::Periodic) {
            want.lo[a] = 0;
            want.hi[a] = cells;
            continue;
        }
        const std::int64_t lo = std::int64_t(want.lo[a]) - margin;
        const std::int64_t hi = std::int64_t(want.hi[a]) + margin;
        want.lo[a] = int(std::max<std::int64_t>(0, lo >= 0 ? lo / kTile * kTile : 0));
        want.hi[a] = int(std::min<std::int64_t>(cells, (hi + kTile - 1) / kTile * kTile));
    }
    return want;
}

StepStats AdaptiveDomainSolver::step(float dt, double time)
{
    mStageBox = ScalarGrid();
    const CellBox want = wantedBox(dt);
    // Grow at once; shrink a side only once it is two tiles too far out, and then by all but a
    // tile.
    CellBox next = mBox;
    for (int a = 0; a < 3; ++a) {
        if (want.lo[a] < mBox.lo[a])
            next.lo[a] = want.lo[a];
        else if (want.lo[a] >= mBox.lo[a] + 2 * kTile)
            next.lo[a] = want.lo[a] - kTile;
        if (want.hi[a] > mBox.hi[a])
            next.hi[a] = want.hi[a];
        else if (want.hi[a] <= mBox.hi[a] - 2 * kTile)
            next.hi[a] = std::min(want.hi[a] + kTile, mDomain.cells[a]);
    }
    growAroundSolids(next);
    if (!(next == mBox)) {
        try {
            moveTo(next);
        } catch (const std::bad_alloc &) {
            // No memory for the new box: simulate on in the old one.
        }
    }
    return mInner->step(dt, time);
}

void AdaptiveDomainSolver::growAroundSolids(CellBox &box) const
{
    // An inner face is open; where the cell beyond it is solid and the cell inside is fluid,
    // the dense solve has a wall there. Push such a face out a tile at a time until no fluid
    // cell of the box faces a solid across an open face (or the face reaches the domain's edge).
    if (!mSolids.anySolid())
        return;
    const int dims = mDomain.dimensions();
    for (bool grew = true; grew;) {
        grew = false;
        for (int a = 0; a < dims; ++a) {
            const int b = (a + 1) % 3, e = (a + 2) % 3;
            for (int side = 0; side < 2; ++side) {
                if (side == 0 ? box.lo[a] == 0 : box.hi[a] == mDomain.cells[a])
                    continue;
                const int inside = side == 0 ? box.lo[a] : box.hi[a] - 1;
                const int outside = side == 0 ? box.lo[a] - 1 : box.hi[a];
                bool leaks = false;
                for (int q = box.lo[e]; q < box.hi[e] && !leaks; ++q)
                    for (int p = box.lo[b]; p < box.hi[b] && !leaks; ++p) {
                        Int3 in, out;
                        in[a] = inside;
                        out[a] = outside;
                        in[b] = out[b] = p;
                        in[e] = out[e] = q;
                        leaks = mSolids.isSolid(out.x, out.y, out.z)
                                && !mSolids.isSolid(in.x, in.y, in.z);
                    }
                if (!leaks)
                    continue;
                if (side == 0)
                    box.lo[a] = std::max(0, (box.lo[a] - 1) / kTile * kTile);
                else
                    box.hi[a] = std::min(mDomain.cells[a], (box.hi[a] / kTile + 1) * kTile);
                grew = true;
            }
        }
    }
}

void AdaptiveDomainSolver::moveTo(const CellBox &box)
{
    std::unique_ptr<SmokeSolver> next = makeInner(box);
    std::vector<StateField> from = mInner->stateFields(), to = next->stateFields();
    const Int3 oldCells = mBox.size(), newCells = box.size();
    CellBox overlap;
    for (int a = 0; a < 3; ++a) {
        overlap.lo[a] = std::max(mBox.lo[a], box.lo[a]);
        overlap.hi[a] = std::min(mBox.hi[a], box.hi[a]);
    }
    const Int3 at = sub(overlap.lo, box.lo); // where the overlap starts in the new box
    for (std::size_t f = 0; f < from.size(); ++f) {
        if (!from[f].grid || from[f].grid->count() == 0)
            continue;
        const ScalarGrid &src = *from[f].grid;
        ScalarGrid &dst = *to[f].grid;
        dst.reshape(resized(src.size(), oldCells, newCells), src.offset());
        // The overlap's samples come across; faces come with one more along their axis.
        Int3 count{0, 0, 0};
        if (!overlap.empty()) {
            count = overlap.size();
            for (int a = 0; a < 3; ++a)
                count[a] += src.size()[a] - oldCells[a];
            copyBlock(src, sub(overlap.lo, mBox.lo), dst, at, count);
        }
        // Velocity where the box grows comes from the far field; scalars start at zero there.
        int axis = -1;
        for (int a = 0; a < mDomain.dimensions(); ++a)
            axis = &src == &mInner->mVelocity.component(a) ? a : axis;
        if (axis < 0)
            continue;
        const Vec3 offset = dst.offset();
        forEachRow(dst.size(), [&](int j, int k) {
            const bool rowCopied = j >= at.y && j < at.y + count.y && k >= at.z
                                   && k < at.z + count.z;
            for (int i = 0; i < dst.size().x; ++i) {
                if (rowCopied && i >= at.x && i < at.x + count.x)
                    continue;
                const Int3 g{box.lo.x + i, box.lo.y + j, box.lo.z + k};
                Vec3 p;
                for (int x = 0; x < 3; ++x)
                    p[x] = (float(g[x]) + offset[x]) / float(mFactor[x]);
                dst(i, j, k) = sampleLinear(mFarVelocity.component(axis), p, mFarDomain);
            }
        });
    }
    next->stateRestored(false);
    mInner = std::move(next);
    mBox = box;
}

void AdaptiveDomainSolver::sample(FieldKind kind, ScalarGrid &out) const
{
    const Int3 n = mDomain.cells;
    if (kind == FieldKind::Solid) {
        out.reshape(n, kCellCentre);
        forEachIndex(std::int64_t(out.count()), [&](std::int64_t c) {
            out[std::size_t(c)] = mSolids.isSolid(std::size_t(c)) ? 1.f : 0.f;
        });
        return;
    }
    ScalarGrid inside;
    mInner->sample(kind, inside);
    out.reshape(n, kCellCentre, 0.f);
    copyBlock(inside, {0, 0, 0}, out, mBox.lo, mBox.size());
}

bool AdaptiveDomainSolver::keepScalarStages(bool keep)
{
    mKeepStages = keep;
    return mInner->keepScalarStages(keep);
}

// The inner solver's stages placed in the domain, as sample() places its fields.
void AdaptiveDomainSolver::sampleStage(ScalarStage stage, FieldKind kind, ScalarGrid &out) const
{
    ScalarGrid inside;
    mInner->sampleStage(stage, kind, inside);
    out.reshape(mDomain.cells, kCellCentre, 0.f);
    copyBlock(inside, {0, 0, 0}, out, mBox.lo, mBox.size());
}

// Over the box itself, the inner solver's own samples: no whole-domain grid.
void AdaptiveDomainSolver::sampleIn(FieldKind kind, const CellBox &box, ScalarGrid &out) const
{
    if (box == mBox && kind != FieldKind::Solid)
        mInner->sample(kind, out);
    else
        Solver::sampleIn(kind, box, out);
}

std::size_t AdaptiveDomainSolver::memoryBytes() const
{
    std::size_t bytes = mInner->memoryBytes() + std::size_t(mSolids.size().volume())
                        + mMotion.noSlip.capacity() + mStageBox.bytes();
    for (const ScalarGrid &g : mMotion.velocity)
        bytes += g.bytes();
    bytes += mFarVelocity.u.bytes() + mFarVelocity.v.bytes() + mFarVelocity.w.bytes()
             + mFarPressureField.bytes() + std::size_t(mFarSolids.size().volume())
             + mFarPressure.memoryBytes() + mFarWork.bytes() + mFarExpansion.bytes();
    for (const Emitter &e : mEmitters)
        bytes += e.mask.cells.capacity() * 8;
    for (const ForceField &f : mForceFields)
        bytes += f.region.mask.cells.capacity() * 8;
    return bytes;
}

std::vector<StateField> AdaptiveDomainSolver::stateFields()
{
    // The inner state over the box as it is (a 1024^3 domain's checkpoint holds its box, not
    // whole-domain copies), the solid flags over the whole domain, the box and the far field.
    // Restored grids take the saved sizes (anyShape) and stateRestored() rebuilds the inner
    // solver on the saved box; a dense solver's checkpoint is one whose box is the domain.
    std::vector<StateField> fields = mInner->stateFields();
    for (StateField &s : fields) {
        if (s.flags) {
            s.flags = &mSolids;
            s.size = mDomain.cells;
        } else if (s.grid) {
            s.anyShape = true;
        }
    }
    mStageBox.reshape({6, 1, 1}, kCellCentre);
    for (int a = 0; a < 3; ++a) {
        mStageBox[std::size_t(a)] = float(mBox.lo[a]);
        mStageBox[std::size_t(a + 3)] = float(mBox.hi[a]);
    }
    fields.push_back(
        {.name = "active-box", .grid = &mStageBox, .size = {6, 1, 1}, .optional = true});
    // The far field (optional: a dense solver's checkpoint restores it at rest).
    const Int3 far = mFarDomain.cells;
    const char *farNames[] = {"far-velocity-x", "far-velocity-y", "far-velocity-z"};
    const Vec3 farOffsets[] = {kFaceX, kFaceY, kFaceZ};
    for (int a = 0; a < 3; ++a) // (z is empty in 2D, so it is not in the group there)
        fields.push_back({.name = farNames[a],
                          .grid = &mFarVelocity.component(a),
                          .size = mFarVelocity.component(a).size(),
                          .offset = farOffsets[a],
                          .optional = true,
                          .group = a < mDomain.dimensions() ? 10 : 0});
    fields.push_back({.name = "far-pressure",
                      .grid = &mFarPressureField,
                      .size = far,
                      .optional = true,
                      .group = 10});
    return fields;
}

void AdaptiveDomainSolver::stateRestored(bool)
{
    // The box the checkpoint was taken with; a dense solver's checkpoint restores over the whole
    // domain and the box shrinks from there.
    CellBox box{{0, 0, 0}, mDomain.cells};
    if (mStageBox.count() == 6) {
        for (int a = 0; a < 3; ++a) {
            const float lo = mStageBox[std::size_t(a)], hi = mStageBox[std::size_t(a + 3)];
            if (lo >= 0.f && hi <= float(mDomain.cells[a]) && lo < hi) {
                box.lo[a] = int(lo);
                box.hi[a] = int(hi);
            }
        }
    }
    // The restored grids sit in the old inner solver; the new one over `box` takes them: grids
    // of the box's size as they are, whole-domain ones (a dense checkpoint) cropped to the
    // box. A grid of any other size (a checkpoint whose box and grids disagree) stays zero.
    std::unique_ptr<SmokeSolver> next = makeInner(box);
    std::vector<StateField> from = mInner->stateFields();
    std::vector<StateField> to = next->stateFields();
    for (std::size_t f = 0; f < to.size() && f < from.size(); ++f) {
        if (!to[f].grid || !from[f].grid)
            continue;
        ScalarGrid &src = *from[f].grid;
        if (src.count() == 0) {
            *to[f].grid = ScalarGrid();
        } else if (src.size() == to[f].size) {
            to[f].grid->swap(src);
        } else if (src.size() == resized(to[f].size, box.size(), mDomain.cells)) {
            to[f].grid->reshape(to[f].size, src.offset());
            copyBlock(src, box.lo, *to[f].grid, {0, 0, 0}, to[f].size);
        }
    }
    next->stateRestored(false);
    mInner = std::move(next);
    mBox = box;
    mStageBox = ScalarGrid();
    if (mFarPressureField.count() == 0) { // a dense solver's checkpoint: the far field at rest
        mFarVelocity.reshape(mFarDomain.cells);
        mFarPressureField.reshape(mFarDomain.cells, kCellCentre);
    }
}

void AdaptiveDomainSolver::applyObstacles(const FlagGrid &solids, const ObstacleMotion &motion)
{
    FlagGrid cropped;
    ObstacleMotion local;
    cropObstacles(solids, motion, mBox, cropped, local);
    if (!mInner->setObstacles(cropped, local))
        throw std::bad_alloc();
    mSolids = solids;
    mMotion = motion;
    setFarSolids();
}

void AdaptiveDomainSolver::applyEmitters(std::vector<Emitter> emitters)
{
    std::vector<Emitter> cropped = emitters;
    CellBox bounds;
    for (Emitter &e : cropped) {
        bounds = unite(bounds, e.mask.bounds(mDomain.cells));
        e.mask = cropMask(e.mask, mDomain.cells, mBox);
    }
    if (!mInner->setEmitters(std::move(cropped)))
        throw std::bad_alloc();
    mEmitters = std::move(emitters);
    mEmitterBox = bounds;
}

void AdaptiveDomainSolver::applyForceFields(std::vector<ForceField> fields)
{
    std::vector<ForceField> cropped = fields;
    for (ForceField &f : cropped) {
        if (!f.region.mask.empty())
            f.region.mask = cropMask(f.region.mask, mDomain.cells, mBox);
    }
    if (!mInner->setForceFields(std::move(cropped)))
        throw std::bad_alloc();
    mForceFields = std::move(fields);
}

} // namespace plume::sim
