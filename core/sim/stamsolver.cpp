// The stam scheme in one translation unit on purpose (past the 800-line guide): like the
// paper's 100 lines of C it is one self-contained solver, and its kernels, templated on
// dimension, obstacles and sweep order, stay private to it.

#include "stamsolver.h"

#include "parallel.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <new>
#include <type_traits>
#include <utility>

namespace plume::sim {

namespace detail {

StamLayout::StamLayout(Int3 domainCells)
    : cells(domainCells)
    , is3D(domainCells.z > 1)
{
    padded = {cells.x + 2, cells.y + 2, is3D ? cells.z + 2 : 1};
    sy = padded.x;
    sz = std::ptrdiff_t(padded.x) * padded.y;
    k0 = is3D ? 1 : 0;
    k1 = is3D ? cells.z : 0;
}

} // namespace detail

namespace {

using detail::StamLayout;
using Index = std::ptrdiff_t;

/// Flag bits of a padded cell: bits 0-5 say that the -x, +x, -y, +y, -z, +z neighbour of a
/// fluid cell is solid; kSelfSolid marks a solid cell (or a ghost copying one).
constexpr std::uint8_t kSelfSolid = 1u << 6;
constexpr int kMaxCarried = 5;

/// Calls f(std::true_type) in 3D and f(std::false_type) in 2D, so kernels drop the z terms at
/// compile time.
template<class F>
void withDimension(bool is3D, F &&f)
{
    if (is3D)
        f(std::true_type{});
    else
        f(std::false_type{});
}

/// Runs body(j, k) over the interior rows of the padded grid (padded indices).
template<class F>
void forEachInteriorRow(const StamLayout &L, F &&body)
{
    const Int3 rows{L.cells.x, L.cells.y, L.is3D ? L.cells.z : 1};
    forEachRow(rows, [&](int j, int k) { body(j + 1, k + L.k0); });
}

Vec3 paddedOffset(bool is3D) { return {-0.5f, -0.5f, is3D ? -0.5f : 0.5f}; }

/// Sum of the face neighbours in the paper's order (-x, +x, -y, +y), then -z, +z.
template<bool D3>
inline float neighbourSum(const float *x, Index n, Index sy, Index sz)
{
    float s = x[n - 1] + x[n + 1] + x[n - sy] + x[n + sy];
    if constexpr (D3)
        s = s + x[n - sz] + x[n + sz];
    return s;
}

/// A neighbour's value, or the mirror image of cell n when that neighbour is solid.
inline float mirrored(const float *x, Index n, Index offset, bool solid, bool negate)
{
    if (!solid)
        return x[n + offset];
    return negate ? -x[n] : x[n];
}

/// One Gauss-Seidel update of lin_solve: x = (x0 + a * sum of neighbours) / c (Stam 2003).
/// The paper's order divides like the published code; red-black multiplies by 1 / c.
struct Relax
{
    float *x;
    const float *x0;
    const std::uint8_t *flags;
    Index sy, sz;
    float a, c;
    float inverseC;
    int normalAxis; ///< axis whose mirror negates (velocity component), -1 for scalars

    template<bool D3, bool P>
    void plain(Index n) const
    {
        const float b = x0[n] + a * neighbourSum<D3>(x, n, sy, sz);
        x[n] = P ? b / c : b * inverseC;
    }

    /// Solid neighbours stand for the cell's mirror image, moved to the diagonal.
    template<bool D3, bool P>
    void masked(Index n) const
    {
        const std::uint8_t f = flags[n];
        if (f == 0)
            return plain<D3, P>(n);
        if (f & kSelfSolid) {
            x[n] = 0.f;
            return;
        }
        const Index offset[6] = {-1, 1, -sy, sy, -sz, sz};
        float sum = 0.f;
        float diagonal = c;
        for (int d = 0; d < (D3 ? 6 : 4); ++d) {
            if (f & (1u << d))
                diagonal += d / 2 == normalAxis ? a : -a;
            else
                sum += x[n + offset[d]];
        }
        x[n] = diagonal > 0.f ? (x0[n] + a * sum) / diagonal : 0.f;
    }

    template<bool D3, bool S, bool P>
    void cell(Index n) const
    {
        if constexpr (S)
            masked<D3, P>(n);
        else
            plain<D3, P>(n);
    }
};

/// The paper's sweep, serial: FOR_EACH_CELL (i outer, j inner) in 2D, Ash's k-j-i in 3D.
template<bool D3, bool S>
void sweepPaper(const StamLayout &L, const Relax &relax)
{
    enableFlushToZero();
    const Relax r = relax;
    if constexpr (!D3) {
        for (int i = 1; i <= L.cells.x; ++i)
            for (int j = 1; j <= L.cells.y; ++j)
                r.cell<D3, S, true>(Index(L.index(i, j, 0)));
    } else {
        for (int k = 1; k <= L.cells.z; ++k)
            for (int j = 1; j <= L.cells.y; ++j) {
                const Index row = Index(L.index(0, j, k));
                for (int i = 1; i <= L.cells.x; ++i)
                    r.cell<D3, S, true>(row + i);
            }
    }
}

/// Red cells ((i + j + k) even) then black ones; each colour reads only the other, so rows run
/// in parallel with the same result as serially.
template<bool D3, bool S>
void sweepRedBlack(const StamLayout &L, const Relax &relax)
{
    for (int colour = 0; colour < 2; ++colour) {
        forEachInteriorRow(L, [&](int j, int k) {
            const Relax r = relax; // a local copy: stores to x cannot alias its factors
            const Index row = Index(L.index(0, j, k));
            for (int i = 1 + ((1 + j + k + colour) & 1); i <= L.cells.x; i += 2)
                r.cell<D3, S, false>(row + i);
        });
    }
}

/// Flags of the padded grid: ghosts take the solidity of the cell they copy; fluid cells get a
/// bit per solid neighbour.
std::vector<std::uint8_t> buildFlags(const StamLayout &L, const Domain &domain,
                                     const FlagGrid &solids)
{
    std::vector<std::uint8_t> self(L.count(), 0);
    const int axes = L.is3D ? 3 : 2;
    forEachRow(L.padded, [&](int j, int k) {
        for (int i = 0; i < L.padded.x; ++i) {
            int c[3] = {i, j, k};
            for (int a = 0; a < axes; ++a) {
                const int n = L.cells[a];
                if (c[a] >= 1 && c[a] <= n)
                    continue;
                const bool periodic = domain.boundary(a, false) == Boundary::Periodic;
                const bool low = c[a] == 0;
                c[a] = periodic ? (low ? n : 1) : (low ? 1 : n);
            }
            const bool solid = solids.isSolid(c[0] - 1, c[1] - 1, c[2] - L.k0);
            self[L.index(i, j, k)] = solid ? kSelfSolid : 0;
        }
    });
    std::vector<std::uint8_t> flags(self);
    const Index offset[6] = {-1, 1, -L.sy, L.sy, -L.sz, L.sz};
    forEachInteriorRow(L, [&](int j, int k) {
        for (int i = 1; i <= L.cells.x; ++i) {
            const Index n = Index(L.index(i, j, k));
            if (self[n])
                continue;
            std::uint8_t bits = 0;
            for (int d = 0; d < 2 * axes; ++d)
                bits |= self[n + offset[d]] ? std::uint8_t(1u << d) : 0;
            flags[n] = bits;
        }
    });
    return flags;
}

int normalAxisOf(int quantity)
{
    // Quantity order: Scalar, VelocityX, VelocityY, VelocityZ, Pressure.
    return quantity >= 1 && quantity <= 3 ? quantity - 1 : -1;
}

/// NaN-safe form of the paper's clamp: if (x < lo) x = lo; if (x > hi) x = hi.
inline float clampPaper(float x, float lo, float hi)
{
    x = x >= lo ? x : lo;
    return x <= hi ? x : hi;
}

/// Wraps a periodic position into [0.5, n + 0.5], the range the interpolation covers.
inline float wrapPeriodic(float x, int n)
{
    const float r = x - 0.5f;
    const float wrapped = r - float(n) * std::floor(r / float(n)) + 0.5f;
    return clampPaper(wrapped, 0.5f, float(n) + 0.5f);
}

/// Advection geometry: backtrace limits per axis and the walk through obstacles.
struct Tracer
{
    const StamLayout &L;
    const std::uint8_t *flags;
    bool periodic[3];
    int walkLimit;

    /// Padded index of cell c, wrapped on periodic axes and kept inside the ghost layer.
    std::size_t wrappedIndex(const int c[3]) const
    {
        int w[3] = {c[0], c[1], c[2]};
        for (int a = 0; a < (L.is3D ? 3 : 2); ++a) {
            const int n = L.cells[a];
            w[a] = periodic[a] ? ((c[a] - 1) % n + n) % n + 1 : std::clamp(c[a], 0, n + 1);
        }
        return L.index(w[0], w[1], w[2]);
    }

    bool solidAt(const int c[3]) const { return (flags[wrappedIndex(c)] & kSelfSolid) != 0; }

    /// Walks the cells crossed by the segment from cell centre c to p (Amanatides and Woo 1987)
    /// and moves p back to just before the first solid cell. Returns the padded index of the
    /// fluid cell where p ends.
    std::size_t walk(const int c[3], float p[3]) const
    {
        const int axes = L.is3D ? 3 : 2;
        float d[3] = {0.f, 0.f, 0.f};
        float tMax[3], tDelta[3];
        int step[3] = {0, 0, 0};
        int cell[3] = {c[0], c[1], c[2]};
        for (int a = 0; a < 3; ++a) {
            tMax[a] = tDelta[a] = std::numeric_limits<float>::infinity();
            if (a >= axes)
                continue;
            d[a] = p[a] - float(c[a]);
            if (!std::isfinite(d[a]))
                return wrappedIndex(c);
            if (d[a] != 0.f) {
                step[a] = d[a] > 0.f ? 1 : -1;
                tDelta[a] = 1.f / std::fabs(d[a]);
                tMax[a] = 0.5f * tDelta[a];
            }
        }
        float tLast = 0.f;
        for (int guard = walkLimit; guard > 0; --guard) {
            int a = tMax[0] <= tMax[1] ? 0 : 1;
            a = tMax[2] < tMax[a] ? 2 : a;
            const float t = tMax[a];
            if (!(t < 1.f))
                return wrappedIndex(cell);
            int next[3] = {cell[0], cell[1], cell[2]};
            next[a] += step[a];
            if (solidAt(next)) {
                tLast = t * (1.f - 1e-4f);
                break;
            }
            cell[a] += step[a];
            tMax[a] += tDelta[a];
            tLast = t;
        }
        for (int a = 0; a < axes; ++a)
            p[a] = float(c[a]) + d[a] * tLast;
        return wrappedIndex(cell);
    }

    /// Interpolation corners along an axis: i0 and i0 + 1, wrapped on periodic axes.
    void corners(int axis, int i0, int &lo, int &hi) const
    {
        const int n = L.cells[axis];
        lo = i0;
        hi = i0 + 1;
        if (periodic[axis]) {
            lo = i0 < 1 ? n : i0;
            hi = i0 >= n ? 1 : i0 + 1;
        }
    }
};

/// Semi-Lagrangian advection of one cell (Stam 2003, advect): backtrace with the paper's
/// clamping and (bi/tri)linear interpolation; with obstacles the trace stops before solids and
/// solid corners drop out of the weights.
template<bool D3, bool S>
void advectCell(const Tracer &tr, int i, int j, int k, float dt0, const float *u,
                const float *v, const float *w, float *const *dst, const float *const *src,
                int count)
{
    const StamLayout &L = tr.L;
    const Index n = Index(L.index(i, j, k));
    if constexpr (S) {
        if (tr.flags[n] & kSelfSolid) {
            for (int f = 0; f < count; ++f)
                dst[f][n] = 0.f;
            return;
        }
    }
    float p[3] = {float(i) - dt0 * u[n], float(j) - dt0 * v[n], 0.f};
    if constexpr (D3)
        p[2] = float(k) - dt0 * w[n];
    const int axes = D3 ? 3 : 2;
    for (int a = 0; a < axes; ++a) {
        if (!tr.periodic[a])
            p[a] = clampPaper(p[a], 0.5f, float(L.cells[a]) + 0.5f);
    }
    std::size_t home = std::size_t(n);
    if constexpr (S) {
        const int c[3] = {i, j, k};
        home = tr.walk(c, p);
    }
    for (int a = 0; a < axes; ++a) {
        if (tr.periodic[a])
            p[a] = wrapPeriodic(p[a], L.cells[a]);
    }
    const int i0 = int(p[0]), j0 = int(p[1]), k0 = D3 ? int(p[2]) : k;
    const float s1 = p[0] - float(i0), s0 = 1.f - s1;
    const float t1 = p[1] - float(j0), t0 = 1.f - t1;
    const float u1 = D3 ? p[2] - float(k0) : 0.f, u0 = 1.f - u1;
    int ia, ib, ja, jb, ka = k, kb = k;
    tr.corners(0, i0, ia, ib);
    tr.corners(1, j0, ja, jb);
    if constexpr (D3)
        tr.corners(2, k0, ka, kb);
    const Index c[8] = {Index(L.index(ia, ja, ka)), Index(L.index(ia, ja, kb)),
                        Index(L.index(ia, jb, ka)), Index(L.index(ia, jb, kb)),
                        Index(L.index(ib, ja, ka)), Index(L.index(ib, ja, kb)),
                        Index(L.index(ib, jb, ka)), Index(L.index(ib, jb, kb))};
    bool anySolid = false;
    if constexpr (S) {
        for (int m = 0; m < (D3 ? 8 : 4); ++m)
            anySolid |= (tr.flags[c[D3 ? m : 2 * m]] & kSelfSolid) != 0;
    }
    if (!anySolid) {
        for (int f = 0; f < count; ++f) {
            const float *d0 = src[f];
            if constexpr (D3) {
                dst[f][n] = s0 * (t0 * (u0 * d0[c[0]] + u1 * d0[c[1]])
                                  + (t1 * (u0 * d0[c[2]] + u1 * d0[c[3]])))
                            + s1 * (t0 * (u0 * d0[c[4]] + u1 * d0[c[5]])
                                    + (t1 * (u0 * d0[c[6]] + u1 * d0[c[7]])));
            } else {
                dst[f][n] = s0 * (t0 * d0[c[0]] + t1 * d0[c[2]])
                            + s1 * (t0 * d0[c[4]] + t1 * d0[c[6]]);
            }
        }
        return;
    }
    // Renormalise the weights onto the fluid corners that the cell holding the end point
    // reaches through fluid faces (walls touching only at corners do not leak).
    const int step = D3 ? 1 : 2; // in 2D the corners are m = 0, 2, 4, 6
    unsigned fluid = 0, reached = 0;
    for (int m = 0; m < 8; m += step) {
        fluid |= (tr.flags[c[m]] & kSelfSolid) ? 0u : 1u << m;
        reached |= std::size_t(c[m]) == home ? 1u << m : 0u;
    }
    reached &= fluid;
    if (reached == 0)
        reached = fluid;
    for (int pass = 0; pass < (D3 ? 3 : 2); ++pass) {
        for (int m = 0; m < 8; m += step) {
            const unsigned near = (1u << (m ^ 4)) | (1u << (m ^ 2)) | (D3 ? 1u << (m ^ 1) : 0u);
            if ((fluid & (1u << m)) && (reached & near))
                reached |= 1u << m;
        }
    }
    float weight[8];
    float total = 0.f;
    for (int m = 0; m < 8; ++m) {
        const bool hiX = m & 4, hiY = m & 2, hiZ = m & 1;
        float wm = (hiX ? s1 : s0) * (hiY ? t1 : t0) * (D3 ? (hiZ ? u1 : u0) : (hiZ ? 0.f : 1.f));
        if (!(reached & (1u << m)))
            wm = 0.f;
        weight[m] = wm;
        total += wm;
    }
    for (int f = 0; f < count; ++f) {
        float sum = 0.f;
        for (int m = 0; m < 8; ++m)
            sum += weight[m] != 0.f ? weight[m] * src[f][c[m]] : 0.f;
        dst[f][n] = total > 0.f ? sum / total : 0.f;
    }
}

} // namespace

StamSolver::StamSolver(const Domain &domain, const SimParams &params)
    : mDomain(domain)
    , mParams(params)
    , mLayout(domain.cells)
{
    const Int3 size = mLayout.padded;
    const Vec3 offset = paddedOffset(mLayout.is3D);
    for (ScalarGrid *g : {&mU, &mV, &mU0, &mV0, &mPressure, &mDivergence, &mDensity, &mDensity0,
                          &mTemperature, &mTemperature0})
        g->reshape(size, offset);
    if (mLayout.is3D) {
        mW.reshape(size, offset);
        mW0.reshape(size, offset);
    }
    mSolids.reshape(domain.cells);
}

Status StamSolver::setParams(const SimParams &params)
{
    if (params.scheme != mParams.scheme)
        return Status::failure(std::string("the scheme cannot change from ")
                               + toString(mParams.scheme) + " to " + toString(params.scheme)
                               + " on a running solver; make a new one");
    if (Status s = params.validate(); !s)
        return s;
    mParams = params;
    return Status::success();
}

void StamSolver::applyObstacles(const FlagGrid &solids)
{
    FlagGrid copy = solids;
    std::vector<std::uint8_t> flags;
    if (copy.anySolid())
        flags = buildFlags(mLayout, mDomain, copy);
    mSolids = std::move(copy);
    mFlags = std::move(flags);
    clearSolids();
}

void StamSolver::applyEmitters(std::vector<Emitter> emitters)
{
    bool dye = false;
    bool temperature = false;
    for (const Emitter &e : emitters) {
        dye = dye || e.hasDye();
        temperature = temperature || e.temperature != 0.f;
    }
    const StamLayout &L = mLayout;
    const std::size_t nx = std::size_t(L.cells.x), ny = std::size_t(L.cells.y);
    std::vector<std::vector<std::uint32_t>> cells(emitters.size());
    for (std::size_t e = 0; e < emitters.size(); ++e) {
        cells[e].reserve(emitters[e].mask.size());
        for (std::uint32_t c : emitters[e].mask.cells) {
            const int i = int(c % nx), j = int((c / nx) % ny), k = int(c / (nx * ny));
            cells[e].push_back(std::uint32_t(L.index(i + 1, j + 1, k + L.k0)));
        }
    }
    if (dye && !mHasDye) {
        std::array<ScalarGrid, 3> d, d0;
        for (int c = 0; c < 3; ++c) {
            d[c].reshape(L.padded, paddedOffset(L.is3D));
            d0[c].reshape(L.padded, paddedOffset(L.is3D));
        }
        mDye.swap(d);
        mDye0.swap(d0);
        mHasDye = true;
    }
    mEmitterCells = std::move(cells);
    mEmitters = std::move(emitters);
    mTemperatureLive = mTemperatureLive || temperature;
}

void StamSolver::applyForceFields(std::vector<ForceField> fields)
{
    ForceEvaluator forces;
    forces.setup(mDomain, std::move(fields));
    mForces = std::move(forces);
}

StepStats StamSolver::step(float dt, double time)
{
    gatherSources(time);
    velocityStep(dt);
    densityStep(dt);
    StepStats stats;
    stats.pressureIterations = 2 * mParams.stamIterations;
    stats.pressureResidual = 0.0;
    stats.pressureConverged = true;
    return stats;
}

void StamSolver::reset()
{
    bool dye = false;
    bool temperature = false;
    for (const Emitter &e : mEmitters) {
        dye = dye || e.hasDye();
        temperature = temperature || e.temperature != 0.f;
    }
    for (ScalarGrid *g : {&mU, &mV, &mW, &mU0, &mV0, &mW0, &mPressure, &mDivergence, &mDensity,
                          &mDensity0, &mTemperature, &mTemperature0})
        g->fill(0.f);
    for (int c = 0; c < 3; ++c) {
        if (dye) {
            mDye[c].fill(0.f);
            mDye0[c].fill(0.f);
        } else {
            ScalarGrid().swap(mDye[c]);
            ScalarGrid().swap(mDye0[c]);
        }
    }
    mHasDye = mHasDye && dye;
    mTemperatureLive = temperature;
}

// The paper's get_from_UI: the "prev" arrays receive this step's sources and forces.
void StamSolver::gatherSources(double time)
{
    ScalarGrid *const prev[] = {&mU0, &mV0, &mW0, &mDensity0,
                                (mTemperatureLive ? &mTemperature0 : nullptr),
                                &mDye0[0], &mDye0[1], &mDye0[2]};
    for (ScalarGrid *g : prev) {
        if (!g || g->count() == 0)
            continue;
        float *x = g->data();
        forEachIndex(std::int64_t(g->count()), [&](std::int64_t n) { x[n] = 0.f; });
    }
    for (std::size_t e = 0; e < mEmitters.size(); ++e) {
        const Emitter &em = mEmitters[e];
        const std::uint32_t *cells = mEmitterCells[e].data();
        const float *weights = em.mask.weights.data();
        const bool force = em.velocityMode == EmitterVelocity::Force;
        const bool temperature = mTemperatureLive && em.temperature != 0.f;
        const bool dye = mHasDye && em.hasDye();
        forEachIndex(std::int64_t(em.mask.size()), [&](std::int64_t m) {
            const std::size_t p = cells[m];
            const float w = weights[m];
            mDensity0[p] += w * em.density;
            if (temperature)
                mTemperature0[p] += w * em.temperature;
            if (dye) {
                for (int c = 0; c < 3; ++c)
                    mDye0[c][p] += w * em.dye[c];
            }
            if (force) {
                mU0[p] += w * em.velocity.x;
                mV0[p] += w * em.velocity.y;
                if (mLayout.is3D)
                    mW0[p] += w * em.velocity.z;
            }
        });
    }
    addForceFields(time);
}

// Force fields sampled at cell centres with the current velocity, added to u_prev.
void StamSolver::addForceFields(double time)
{
    if (mForces.empty())
        return;
    const StamLayout &L = mLayout;
    forEachInteriorRow(L, [&](int j, int k) {
        for (int i = 1; i <= L.cells.x; ++i) {
            const std::size_t n = L.index(i, j, k);
            if (!mFlags.empty() && (mFlags[n] & kSelfSolid))
                continue;
            const Vec3 vel{mU[n], mV[n], L.is3D ? mW[n] : 0.f};
            const Vec3 acc = mForces.acceleration(mDomain.cellCentre(i - 1, j - 1, k - L.k0),
                                                  vel, time);
            mU0[n] += acc.x;
            mV0[n] += acc.y;
            if (L.is3D)
                mW0[n] += acc.z;
        }
    });
}

// Inflow emitters blend the velocity towards their target by coverage weight.
void StamSolver::applyInflow()
{
    for (std::size_t e = 0; e < mEmitters.size(); ++e) {
        const Emitter &em = mEmitters[e];
        if (em.velocityMode != EmitterVelocity::Inflow)
            continue;
        const std::uint32_t *cells = mEmitterCells[e].data();
        const float *weights = em.mask.weights.data();
        forEachIndex(std::int64_t(em.mask.size()), [&](std::int64_t m) {
            const std::size_t p = cells[m];
            const float w = weights[m];
            mU[p] = (1.f - w) * mU[p] + w * em.velocity.x;
            mV[p] = (1.f - w) * mV[p] + w * em.velocity.y;
            if (mLayout.is3D)
                mW[p] = (1.f - w) * mW[p] + w * em.velocity.z;
        });
    }
}

namespace {

// The paper's add_source: x += dt * s over the whole padded array.
void addSource(ScalarGrid &x, const ScalarGrid &s, float dt)
{
    float *xd = x.data();
    const float *sd = s.data();
    forEachIndex(std::int64_t(x.count()), [&](std::int64_t n) { xd[n] += dt * sd[n]; });
}

} // namespace

// The paper's vel_step, with the advect typo of the slides fixed (advect u by u0, v0).
void StamSolver::velocityStep(float dt)
{
    const bool d3 = mLayout.is3D;
    const float visc = mParams.viscosity;
    addSource(mU, mU0, dt);
    addSource(mV, mV0, dt);
    if (d3)
        addSource(mW, mW0, dt);
    applyInflow();
    mU.swap(mU0);
    diffuse(Quantity::VelocityX, mU, mU0, visc, dt);
    mV.swap(mV0);
    diffuse(Quantity::VelocityY, mV, mV0, visc, dt);
    if (d3) {
        mW.swap(mW0);
        diffuse(Quantity::VelocityZ, mW, mW0, visc, dt);
    }
    project(mU, mV, mW);
    mU.swap(mU0);
    mV.swap(mV0);
    if (d3)
        mW.swap(mW0);
    const Carried velocity[3] = {{&mU, &mU0, Quantity::VelocityX},
                                 {&mV, &mV0, Quantity::VelocityY},
                                 {&mW, &mW0, Quantity::VelocityZ}};
    advect(velocity, d3 ? 3 : 2, mU0, mV0, mW0, dt);
    project(mU, mV, mW);
}

// The paper's dens_step for density, temperature and dye; their advections share one trace.
void StamSolver::densityStep(float dt)
{
    Carried carried[kMaxCarried];
    int count = 0;
    auto carry = [&](ScalarGrid &x, ScalarGrid &x0) {
        addSource(x, x0, dt);
        x.swap(x0);
        diffuse(Quantity::Scalar, x, x0, mParams.diffusion, dt);
        x.swap(x0);
        carried[count++] = {&x, &x0, Quantity::Scalar};
    };
    carry(mDensity, mDensity0);
    if (mTemperatureLive)
        carry(mTemperature, mTemperature0);
    if (mHasDye) {
        for (int c = 0; c < 3; ++c)
            carry(mDye[c], mDye0[c]);
    }
    advect(carried, count, mU, mV, mW, dt);
}

// The paper's set_bnd generalised to per-face Wall / Open / Periodic and to 3D.
void StamSolver::setBoundary(Quantity q, ScalarGrid &grid) const
{
    const StamLayout &L = mLayout;
    float *x = grid.data();
    const int normal = normalAxisOf(int(q));
    const bool pressure = q == Quantity::Pressure;
    // ghost(axis, high, inner, opposite): the value of the ghost next to `inner`.
    auto ghost = [&](int axis, bool high, float inner, float opposite) {
        switch (mDomain.boundary(axis, high)) {
        case Boundary::Periodic: return opposite;
        case Boundary::Open: return pressure ? 0.f : inner;
        case Boundary::Wall: break;
        }
        return normal == axis ? -inner : inner;
    };
    const int nx = L.cells.x, ny = L.cells.y, nz = L.cells.z;
    // x and y faces slab by slab (one slab, so no tasks, in 2D), then z faces.
    forEachSlab(L.is3D ? nz : 1, [&](int kr) {
        const int k = kr + L.k0;
        for (int j = 1; j <= ny; ++j) {
            const float first = x[L.index(1, j, k)], last = x[L.index(nx, j, k)];
            x[L.index(0, j, k)] = ghost(0, false, first, last);
            x[L.index(nx + 1, j, k)] = ghost(0, true, last, first);
        }
        for (int i = 1; i <= nx; ++i) {
            const float first = x[L.index(i, 1, k)], last = x[L.index(i, ny, k)];
            x[L.index(i, 0, k)] = ghost(1, false, first, last);
            x[L.index(i, ny + 1, k)] = ghost(1, true, last, first);
        }
    });
    if (L.is3D) {
        forEachRow(Int3{nx, ny, 1}, [&](int jr, int) {
            const int j = jr + 1;
            for (int i = 1; i <= nx; ++i) {
                const float first = x[L.index(i, j, 1)], last = x[L.index(i, j, nz)];
                x[L.index(i, j, 0)] = ghost(2, false, first, last);
                x[L.index(i, j, nz + 1)] = ghost(2, true, last, first);
            }
        });
    }
    // Edges: mean of the two adjacent face ghosts (in 2D these are the paper's corners).
    auto inner = [](int g, int n) { return g == 0 ? 1 : n; };
    for (int k = L.k0; k <= L.k1; ++k)
        for (int I : {0, nx + 1})
            for (int J : {0, ny + 1})
                x[L.index(I, J, k)] = 0.5f * (x[L.index(inner(I, nx), J, k)]
                                              + x[L.index(I, inner(J, ny), k)]);
    if (!L.is3D)
        return;
    for (int J : {0, ny + 1})
        for (int K : {0, nz + 1}) {
            for (int i = 1; i <= nx; ++i)
                x[L.index(i, J, K)] = 0.5f * (x[L.index(i, inner(J, ny), K)]
                                              + x[L.index(i, J, inner(K, nz))]);
        }
    for (int I : {0, nx + 1})
        for (int K : {0, nz + 1}) {
            for (int j = 1; j <= ny; ++j)
                x[L.index(I, j, K)] = 0.5f * (x[L.index(inner(I, nx), j, K)]
                                              + x[L.index(I, j, inner(K, nz))]);
        }
    // Corners: mean of the three adjacent edge ghosts.
    for (int I : {0, nx + 1})
        for (int J : {0, ny + 1})
            for (int K : {0, nz + 1})
                x[L.index(I, J, K)] = (x[L.index(inner(I, nx), J, K)]
                                       + x[L.index(I, inner(J, ny), K)]
                                       + x[L.index(I, J, inner(K, nz))])
                                      / 3.f;
}

// The paper's lin_solve: stamIterations Gauss-Seidel sweeps, set_bnd after each.
void StamSolver::linSolve(Quantity q, ScalarGrid &x, const ScalarGrid &x0, float a, float c) const
{
    const StamLayout &L = mLayout;
    const Relax relax{x.data(), x0.data(), mFlags.data(), L.sy, L.sz, a, c, 1.f / c,
                      normalAxisOf(int(q))};
    const bool paper = mParams.stamSweep == SweepOrder::Paper;
    const bool solids = !mFlags.empty();
    for (int it = 0; it < mParams.stamIterations; ++it) {
        withDimension(L.is3D, [&](auto dim) {
            constexpr bool D3 = decltype(dim)::value;
            if (paper)
                solids ? sweepPaper<D3, true>(L, relax) : sweepPaper<D3, false>(L, relax);
            else
                solids ? sweepRedBlack<D3, true>(L, relax) : sweepRedBlack<D3, false>(L, relax);
        });
        setBoundary(q, x);
    }
}

// The paper's diffuse: implicit, a = dt * diff / h^2 (the paper's dt * diff * N * N).
void StamSolver::diffuse(Quantity q, ScalarGrid &x, const ScalarGrid &x0, float diff,
                         float dt) const
{
    const float h = mDomain.cellSize;
    const float a = dt * diff / (h * h);
    if (a != 0.f) {
        linSolve(q, x, x0, a, 1.f + float(mLayout.is3D ? 6 : 4) * a);
        return;
    }
    // a = 0: every sweep gives x = x0, so copy once.
    float *xd = x.data();
    const float *x0d = x0.data();
    const std::uint8_t *flags = mFlags.empty() ? nullptr : mFlags.data();
    forEachIndex(std::int64_t(x.count()), [&](std::int64_t n) {
        xd[n] = flags && (flags[n] & kSelfSolid) ? 0.f : x0d[n];
    });
    setBoundary(q, x);
}

// The paper's project: central-difference divergence, Poisson solve for p, subtract grad p.
void StamSolver::project(ScalarGrid &u, ScalarGrid &v, ScalarGrid &w)
{
    const StamLayout &L = mLayout;
    const float h = mDomain.cellSize;
    const Index sy = L.sy, sz = L.sz;
    float *pu = u.data(), *pv = v.data(), *pw = w.data();
    float *p = mPressure.data(), *div = mDivergence.data();
    const std::uint8_t *flags = mFlags.empty() ? nullptr : mFlags.data();
    withDimension(L.is3D, [&](auto dim) {
        constexpr bool D3 = decltype(dim)::value;
        forEachInteriorRow(L, [&](int j, int k) {
            const Index row = Index(L.index(0, j, k));
            for (Index n = row + 1; n <= row + L.cells.x; ++n) {
                const std::uint8_t f = flags ? flags[n] : 0;
                float s;
                if (f == 0) {
                    s = pu[n + 1] - pu[n - 1] + pv[n + sy] - pv[n - sy];
                    if constexpr (D3)
                        s = s + pw[n + sz] - pw[n - sz];
                } else if (f & kSelfSolid) {
                    s = 0.f;
                } else {
                    s = mirrored(pu, n, 1, f & 2, true) - mirrored(pu, n, -1, f & 1, true)
                        + mirrored(pv, n, sy, f & 8, true) - mirrored(pv, n, -sy, f & 4, true);
                    if constexpr (D3)
                        s = s + mirrored(pw, n, sz, f & 32, true)
                            - mirrored(pw, n, -sz, f & 16, true);
                }
                div[n] = -0.5f * s * h;
                p[n] = 0.f;
            }
        });
    });
    setBoundary(Quantity::Scalar, mDivergence);
    setBoundary(Quantity::Pressure, mPressure);
    linSolve(Quantity::Pressure, mPressure, mDivergence, 1.f, L.is3D ? 6.f : 4.f);
    const float g = 0.5f / h;
    withDimension(L.is3D, [&](auto dim) {
        constexpr bool D3 = decltype(dim)::value;
        forEachInteriorRow(L, [&](int j, int k) {
            const Index row = Index(L.index(0, j, k));
            for (Index n = row + 1; n <= row + L.cells.x; ++n) {
                const std::uint8_t f = flags ? flags[n] : 0;
                if (f == 0) {
                    pu[n] -= g * (p[n + 1] - p[n - 1]);
                    pv[n] -= g * (p[n + sy] - p[n - sy]);
                    if constexpr (D3)
                        pw[n] -= g * (p[n + sz] - p[n - sz]);
                } else if (f & kSelfSolid) {
                    pu[n] = pv[n] = 0.f;
                    if constexpr (D3)
                        pw[n] = 0.f;
                } else {
                    pu[n] -= g * (mirrored(p, n, 1, f & 2, false)
                                  - mirrored(p, n, -1, f & 1, false));
                    pv[n] -= g * (mirrored(p, n, sy, f & 8, false)
                                  - mirrored(p, n, -sy, f & 4, false));
                    if constexpr (D3)
                        pw[n] -= g * (mirrored(p, n, sz, f & 32, false)
                                      - mirrored(p, n, -sz, f & 16, false));
                }
            }
        });
    });
    setBoundary(Quantity::VelocityX, u);
    setBoundary(Quantity::VelocityY, v);
    if (L.is3D)
        setBoundary(Quantity::VelocityZ, w);
}

// The paper's advect for several fields carried by the same velocity, then set_bnd.
void StamSolver::advect(const Carried *fields, int count, const ScalarGrid &u,
                        const ScalarGrid &v, const ScalarGrid &w, float dt) const
{
    const StamLayout &L = mLayout;
    const float dt0 = dt / mDomain.cellSize;
    float *dst[kMaxCarried];
    const float *src[kMaxCarried];
    for (int f = 0; f < count; ++f) {
        dst[f] = fields[f].dst->data();
        src[f] = fields[f].src->data();
    }
    Tracer tracer{L, mFlags.data(), {}, 2 * (L.cells.x + L.cells.y + L.cells.z) + 8};
    for (int a = 0; a < 3; ++a)
        tracer.periodic[a] = a < (L.is3D ? 3 : 2)
                             && mDomain.boundary(a, false) == Boundary::Periodic;
    const bool solids = !mFlags.empty();
    const float *pu = u.data(), *pv = v.data(), *pw = w.data();
    withDimension(L.is3D, [&](auto dim) {
        constexpr bool D3 = decltype(dim)::value;
        forEachInteriorRow(L, [&](int j, int k) {
            for (int i = 1; i <= L.cells.x; ++i) {
                if (solids)
                    advectCell<D3, true>(tracer, i, j, k, dt0, pu, pv, pw, dst, src, count);
                else
                    advectCell<D3, false>(tracer, i, j, k, dt0, pu, pv, pw, dst, src, count);
            }
        });
    });
    for (int f = 0; f < count; ++f)
        setBoundary(fields[f].q, *fields[f].dst);
}

// Nothing lives in an obstacle: zero the state there and refresh the ghosts.
void StamSolver::clearSolids()
{
    if (mFlags.empty())
        return;
    const std::pair<ScalarGrid *, Quantity> fields[] = {
        {&mDensity, Quantity::Scalar},      {&mTemperature, Quantity::Scalar},
        {&mDye[0], Quantity::Scalar},       {&mDye[1], Quantity::Scalar},
        {&mDye[2], Quantity::Scalar},       {&mU, Quantity::VelocityX},
        {&mV, Quantity::VelocityY},         {&mW, Quantity::VelocityZ},
        {&mPressure, Quantity::Pressure}};
    for (const auto &[grid, q] : fields) {
        if (grid->count() == 0)
            continue;
        float *x = grid->data();
        forEachIndex(std::int64_t(grid->count()), [&](std::int64_t n) {
            if (mFlags[std::size_t(n)] & kSelfSolid)
                x[n] = 0.f;
        });
        setBoundary(q, *grid);
    }
}

void StamSolver::copyInterior(const ScalarGrid &src, ScalarGrid &out) const
{
    const StamLayout &L = mLayout;
    forEachRow(L.cells, [&](int j, int k) {
        const std::size_t from = L.index(1, j + 1, k + L.k0);
        float *to = &out(0, j, k);
        for (int i = 0; i < L.cells.x; ++i)
            to[i] = src[from + std::size_t(i)];
    });
}

void StamSolver::sample(FieldKind kind, ScalarGrid &out) const
{
    const StamLayout &L = mLayout;
    out.reshape(L.cells, kCellCentre);
    const float g = 0.5f / mDomain.cellSize;
    const std::uint8_t *flags = mFlags.empty() ? nullptr : mFlags.data();
    const Index sy = L.sy, sz = L.sz;
    // Fills out from f(n, flags) at every interior cell (0 in solids).
    auto derive = [&](auto &&f) {
        forEachRow(L.cells, [&](int j, int k) {
            const Index row = Index(L.index(0, j + 1, k + L.k0));
            for (int i = 0; i < L.cells.x; ++i) {
                const Index n = row + i + 1;
                const std::uint8_t fl = flags ? flags[n] : 0;
                out(i, j, k) = (fl & kSelfSolid) ? 0.f : f(n, fl);
            }
        });
    };
    const float *u = mU.data(), *v = mV.data(), *w = mW.data();
    switch (kind) {
    case FieldKind::Density: copyInterior(mDensity, out); return;
    case FieldKind::Temperature: copyInterior(mTemperature, out); return;
    case FieldKind::DyeRed:
    case FieldKind::DyeGreen:
    case FieldKind::DyeBlue:
        if (mHasDye)
            copyInterior(mDye[int(kind) - int(FieldKind::DyeRed)], out);
        return;
    case FieldKind::VelocityX: copyInterior(mU, out); return;
    case FieldKind::VelocityY: copyInterior(mV, out); return;
    case FieldKind::VelocityZ:
        if (L.is3D)
            copyInterior(mW, out);
        return;
    case FieldKind::Pressure: copyInterior(mPressure, out); return;
    case FieldKind::Speed:
        derive([&](Index n, std::uint8_t) {
            const float wz = L.is3D ? w[n] : 0.f;
            return std::sqrt(u[n] * u[n] + v[n] * v[n] + wz * wz);
        });
        return;
    case FieldKind::Divergence:
        derive([&](Index n, std::uint8_t f) {
            float s = mirrored(u, n, 1, f & 2, true) - mirrored(u, n, -1, f & 1, true)
                      + mirrored(v, n, sy, f & 8, true) - mirrored(v, n, -sy, f & 4, true);
            if (L.is3D)
                s = s + mirrored(w, n, sz, f & 32, true) - mirrored(w, n, -sz, f & 16, true);
            return g * s;
        });
        return;
    case FieldKind::Vorticity:
        derive([&](Index n, std::uint8_t f) {
            // d(q)/d(axis) by central differences; tangential mirrors keep the value.
            auto dq = [&](const float *q, int d) {
                const Index off[3] = {1, sy, sz};
                return g * (mirrored(q, n, off[d], f & (2u << (2 * d)), false)
                            - mirrored(q, n, -off[d], f & (1u << (2 * d)), false));
            };
            const float cz = dq(v, 0) - dq(u, 1);
            if (!L.is3D)
                return std::fabs(cz);
            const float cx = dq(w, 1) - dq(v, 2);
            const float cy = dq(u, 2) - dq(w, 0);
            return std::sqrt(cx * cx + cy * cy + cz * cz);
        });
        return;
    case FieldKind::Solid:
        forEachRow(L.cells, [&](int j, int k) {
            for (int i = 0; i < L.cells.x; ++i)
                out(i, j, k) = mSolids.isSolid(i, j, k) ? 1.f : 0.f;
        });
        return;
    }
}

float StamSolver::maxVelocity() const
{
    const StamLayout &L = mLayout;
    const Int3 rows{L.cells.x, L.cells.y, L.is3D ? L.cells.z : 1};
    return float(maxRows(rows, [&](int j, int k) {
        const std::size_t row = L.index(0, j + 1, k + L.k0);
        float m = 0.f;
        for (int i = 1; i <= L.cells.x; ++i) {
            m = std::max(m, std::fabs(mU[row + i]));
            m = std::max(m, std::fabs(mV[row + i]));
            if (L.is3D)
                m = std::max(m, std::fabs(mW[row + i]));
        }
        return double(m);
    }));
}

std::string StamSolver::firstNonFiniteField() const
{
    const std::pair<const ScalarGrid *, const char *> fields[] = {
        {&mDensity, "density"},    {&mTemperature, "temperature"}, {&mDye[0], "dye red"},
        {&mDye[1], "dye green"},   {&mDye[2], "dye blue"},         {&mU, "velocity x"},
        {&mV, "velocity y"},       {&mW, "velocity z"},            {&mPressure, "pressure"}};
    const StamLayout &L = mLayout;
    const Int3 rows{L.cells.x, L.cells.y, L.is3D ? L.cells.z : 1};
    for (const auto &[grid, name] : fields) {
        if (grid->count() == 0)
            continue;
        const double bad = maxRows(rows, [&](int j, int k) {
            const std::size_t row = L.index(0, j + 1, k + L.k0);
            for (int i = 1; i <= L.cells.x; ++i) {
                if (!std::isfinite((*grid)[row + i]))
                    return 1.0;
            }
            return 0.0;
        });
        if (bad != 0.0)
            return name;
    }
    return {};
}

std::size_t StamSolver::memoryBytes() const
{
    std::size_t total = mFlags.capacity() + mSolids.count();
    for (const ScalarGrid *g : {&mU, &mV, &mW, &mU0, &mV0, &mW0, &mPressure, &mDivergence,
                                &mDensity, &mDensity0, &mTemperature, &mTemperature0, &mDye[0],
                                &mDye[1], &mDye[2], &mDye0[0], &mDye0[1], &mDye0[2]})
        total += g->bytes();
    for (std::size_t e = 0; e < mEmitters.size(); ++e)
        total += mEmitterCells[e].capacity() * sizeof(std::uint32_t)
                 + mEmitters[e].mask.cells.capacity() * sizeof(std::uint32_t)
                 + mEmitters[e].mask.weights.capacity() * sizeof(float);
    return total;
}

} // namespace plume::sim
