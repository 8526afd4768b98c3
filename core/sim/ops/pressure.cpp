// SPDX-License-Identifier: Apache-2.0
#include <core/sim/ops/pressure.h>

#include <core/sim/base/assert.h>

#include <core/sim/numerics/multigrid.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace plume::sim {

namespace {

// Calls f(i, D) with D = face-flux difference (u[i+1]-u[i]) + (v[j+1]-v[j]) + (w[k+1]-w[k]).
template<bool k3D, class F>
inline void forDivergenceRow(const MacGrid &vel, int j, int k, F &&f)
{
    const int nx = vel.cells().x;
    const float *u = vel.u.data() + vel.u.index(0, j, k);
    const float *v0 = vel.v.data() + vel.v.index(0, j, k);
    const float *v1 = vel.v.data() + vel.v.index(0, j + 1, k);
    if constexpr (k3D) {
        const float *w0 = vel.w.data() + vel.w.index(0, j, k);
        const float *w1 = vel.w.data() + vel.w.index(0, j, k + 1);
        for (int i = 0; i < nx; ++i)
            f(i, (u[i + 1] - u[i]) + (v1[i] - v0[i]) + (w1[i] - w0[i]));
    } else {
        for (int i = 0; i < nx; ++i)
            f(i, (u[i + 1] - u[i]) + (v1[i] - v0[i]));
    }
}

// The vector updates below take their scalars by value and their rows as restrict pointers:
// captured by reference, a scalar is reloaded after every store (a float store might alias it)
// and the loop stays scalar.

// r -= alpha q over a row.
inline void subtractScaled(float *__restrict r, const float *__restrict q, float alpha, int n)
{
    for (int i = 0; i < n; ++i)
        r[i] -= alpha * q[i];
}

// x += alpha s over a row.
inline void addScaledRow(float *__restrict x, const float *__restrict s, float alpha, int n)
{
    for (int i = 0; i < n; ++i)
        x[i] += alpha * s[i];
}

// x += alpha s, then s = (z - zm) + beta s on active cells (0 elsewhere); kSIsZ: z is s.
template<bool kSIsZ>
inline void directionRow(float *__restrict x, float *__restrict s, const float *__restrict z,
                         const std::uint8_t *__restrict f, float alpha, float beta, float zm, int n)
{
    for (int i = 0; i < n; ++i) {
        const float si = s[i];
        const float zi = kSIsZ ? si : z[i];
        x[i] += alpha * si;
        s[i] = keepIf((f[i] & kDiagBits) != 0, (zi - zm) + beta * si);
    }
}

} // namespace

/// The pressure solve's state: the operator's multigrid hierarchy and regions, plus what the
/// projection needs.
struct PressureSolver::Impl : Multigrid
{
    bool ready = false;
    std::vector<std::uint8_t> fluidRow;

    template<bool k3D>
    double applyOperator(const float *s, float *q);
    double updateResidual(float *r, float *zq, float alpha, bool diagonal, Dots &dots);
    void updateDirection(float *x, float *s, const float *z, float alpha, float beta, float zm);
    void addScaled(float *x, const float *s, float alpha);
    template<bool k3D>
    struct Cg;
    double maxAbs(const float *v) const;
    template<bool k3D>
    double loadDivergence(const MacGrid &vel, float *r, const float *target);
    template<bool k3D>
    double residualPass(float *r, float *z, const float *x, float meanB, bool mg, Dots &dots,
                        double &maxR);
    template<bool k3D>
    SolveResult solve(MacGrid &vel, ScalarGrid &pressure, float dt,
                      const PressureSettings &settings, Workspace &work, const float *target);
    template<bool k3D>
    void subtractGradient(MacGrid &vel, const float *x);
};

// q = A s on the fine level; returns s.q (double, row order).
template<bool k3D>
double PressureSolver::Impl::applyOperator(const float *s, float *q)
{
    const Level &l = levels[0];
    const bool px = l.periodic[0];
    return sumRows(l.n, [&](int j, int k) {
        const std::size_t o = l.row(j, k);
        const float *sr = s + o;
        float *qr = q + o;
        const std::uint8_t *f = l.flags.data() + o;
        forCells<k3D, 1>(sr, neighbourRows(l, s, zeroRow.data(), j, k), l.n.x, px, 0,
                         [&](int i, float sum) {
            const std::uint32_t d = f[i] & kDiagBits;
            qr[i] = keepIf(d != 0, float(d) * sr[i] - sum);
        });
        return rowDot(sr, qr, l.n.x);
    });
}

// r -= alpha q, then the preconditioner's start in q's buffer (startRow). Returns max |r| (+inf
// on NaN); for the diagonal preconditioner also fills its dots.
double PressureSolver::Impl::updateResidual(float *r, float *zq, float alpha, bool diagonal,
                                            Dots &dots)
{
    const Level &l = levels[0];
    const int nx = l.n.x;
    std::vector<double> partial(diagonal ? 3 * std::size_t(l.n.y) * l.n.z : 0);
    const double maxR = maxRows(l.n, [&](int j, int k) {
        const std::size_t o = l.row(j, k);
        float *rr = r + o, *zr = zq + o;
        subtractScaled(rr, zr, alpha, nx);
        startRow(rr, zr, l.flags.data() + o, nx, std::uint32_t(j + k) & 1u, diagonal);
        if (diagonal)
            rowDots(rr, zr, nx, &partial[3 * l.rowIndex(j, k)]);
        return rowAbsMax(rr, nx);
    });
    dots = sumDots(partial);
    return maxR;
}

// x += alpha s (the previous step, deferred to share this pass), then s = (z - mean z) + beta s.
void PressureSolver::Impl::updateDirection(float *x, float *s, const float *z, float alpha,
                                           float beta, float zm)
{
    const Level &l = levels[0];
    const int nx = l.n.x;
    forEachRow(l.n, [&](int j, int k) {
        const std::size_t o = l.row(j, k);
        if (z == s)
            directionRow<true>(x + o, s + o, nullptr, l.flags.data() + o, alpha, beta, zm, nx);
        else
            directionRow<false>(x + o, s + o, z + o, l.flags.data() + o, alpha, beta, zm, nx);
    });
}

// x += alpha s (the last step).
void PressureSolver::Impl::addScaled(float *x, const float *s, float alpha)
{
    const Level &l = levels[0];
    forEachRow(l.n, [&](int j, int k) {
        const std::size_t o = l.row(j, k);
        addScaledRow(x + o, s + o, alpha, l.n.x);
    });
}

// u -= p~_hi - p~_lo on every open face (the discrete pressure gradient, Bridson ch. 5).
template<bool k3D>
void PressureSolver::Impl::subtractGradient(MacGrid &vel, const float *x)
{
    const Level &l = levels[0];
    const Int3 n = l.n;
    const std::uint8_t *flags = l.flags.data();
    // x-faces: neighbours within a row.
    const Boundary xlo = domain.boundary(0, false), xhi = domain.boundary(0, true);
    forEachRow(vel.u.size(), [&](int j, int k) {
        float *u = vel.u.data() + vel.u.index(0, j, k);
        const std::uint8_t *f = flags + l.row(j, k);
        const float *p = x + l.row(j, k);
        for (int i = 1; i < n.x; ++i)
            u[i] = (f[i - 1] & f[i] & kFluidBit) ? u[i] - (p[i] - p[i - 1]) : u[i];
        if (xlo == Boundary::Periodic) {
            if (f[n.x - 1] & f[0] & kFluidBit) {
                u[0] -= p[0] - p[n.x - 1];
                u[n.x] = u[0];
            }
        } else {
            if (xlo == Boundary::Open && (f[0] & kFluidBit))
                u[0] -= p[0] - 0.f;
            if (xhi == Boundary::Open && (f[n.x - 1] & kFluidBit))
                u[n.x] -= 0.f - p[n.x - 1];
        }
    });
    // y- and z-faces: between whole rows.
    auto betweenRows = [&](int axis) {
        ScalarGrid &c = vel.component(axis);
        const Boundary lo = domain.boundary(axis, false), hi = domain.boundary(axis, true);
        const int last = n[axis];
        forEachRow(c.size(), [&](int j, int k) {
            const int along = axis == 1 ? j : k;
            auto cellRow = [&](int a) { return axis == 1 ? l.row(a, k) : l.row(j, a); };
            const std::uint8_t *fl, *fh;
            const float *pl, *ph;
            if (along == 0 || along == last) {
                const Boundary mode = along == 0 ? lo : hi;
                if (mode == Boundary::Wall)
                    return;
                if (mode == Boundary::Periodic) {
                    fl = flags + cellRow(last - 1);
                    pl = x + cellRow(last - 1);
                    fh = flags + cellRow(0);
                    ph = x + cellRow(0);
                } else if (along == 0) {
                    fl = fluidRow.data();
                    pl = zeroRow.data();
                    fh = flags + cellRow(0);
                    ph = x + cellRow(0);
                } else {
                    fl = flags + cellRow(last - 1);
                    pl = x + cellRow(last - 1);
                    fh = fluidRow.data();
                    ph = zeroRow.data();
                }
            } else {
                fl = flags + cellRow(along - 1);
                pl = x + cellRow(along - 1);
                fh = flags + cellRow(along);
                ph = x + cellRow(along);
            }
            float *v = c.data() + c.index(0, j, k);
            for (int i = 0; i < n.x; ++i)
                v[i] = (fl[i] & fh[i] & kFluidBit) ? v[i] - (ph[i] - pl[i]) : v[i];
        });
    };
    betweenRows(1);
    if constexpr (k3D)
        betweenRows(2);
}

// b = -D(u) on active cells, into r, made compatible in every pocket. Returns sum b.
template<bool k3D>
double PressureSolver::Impl::loadDivergence(const MacGrid &vel, float *r, const float *target)
{
    const Level &l = levels[0];
    const float h = domain.cellSize;
    const double sumB = sumRows(l.n, [&](int j, int k) {
        float *rr = r + l.row(j, k);
        const float *tr = target ? target + l.row(j, k) : nullptr;
        const std::uint8_t *f = l.flags.data() + l.row(j, k);
        forDivergenceRow<k3D>(vel, j, k, [&](int i, float dv) {
            rr[i] = keepIf((f[i] & kDiagBits) != 0, tr ? tr[i] * h - dv : -dv);
        });
        return rowDot(rr, nullptr, l.n.x);
    });
    if (std::isfinite(sumB))
        removePocketMeans(r, nullptr);
    return sumB;
}

// r = (b - meanB) - A x with b in r; then the preconditioner's start in z (startRow) and, for
// the diagonal preconditioner, its dots. Returns max |b - meanB|; max |r| into maxR.
template<bool k3D>
double PressureSolver::Impl::residualPass(float *r, float *z, const float *x, float meanB, bool mg,
                                          Dots &dots, double &maxR)
{
    const Level &l = levels[0];
    const int nx = l.n.x;
    const bool px = l.periodic[0];
    std::vector<double> rowMaxR(std::size_t(l.n.y) * l.n.z), partial(mg ? 0 : 3 * rowMaxR.size());
    const double maxB = maxRows(l.n, [&](int j, int k) {
        const std::size_t o = l.row(j, k);
        float *rr = r + o;
        const float *xr = x + o;
        const std::uint8_t *f = l.flags.data() + o;
        for (int i = 0; i < nx; ++i)
            rr[i] = keepIf((f[i] & kDiagBits) != 0, rr[i] - meanB);
        const double rowB = rowAbsMax(rr, nx);
        forCells<k3D, 1>(xr, neighbourRows(l, x, zeroRow.data(), j, k), nx, px, 0,
                         [&](int i, float sum) {
            const std::uint32_t d = f[i] & kDiagBits;
            rr[i] = keepIf(d != 0, rr[i] - (float(d) * xr[i] - sum));
        });
        rowMaxR[l.rowIndex(j, k)] = rowAbsMax(rr, nx);
        startRow(rr, z + o, f, nx, std::uint32_t(j + k) & 1u, !mg);
        if (!mg)
            rowDots(rr, z + o, nx, &partial[3 * l.rowIndex(j, k)]);
        return rowB;
    });
    dots = sumDots(partial);
    maxR = *std::max_element(rowMaxR.begin(), rowMaxR.end());
    return maxB;
}

// The pressure's conjugate-gradient passes (conjugateGradient's operator object): fused row
// passes over the fine level, search directions kept free of the null space (the all-cells mean
// when singular, each pocket's mean), and x += alpha s deferred into the direction update.
template<bool k3D>
struct PressureSolver::Impl::Cg
{
    Impl &m;
    float *x, *r, *z, *s;
    bool mg;
    Dots dots; // from residualPass or updateResidual when diagonal
    float zm = 0.f;

    double precondition()
    {
        if (mg)
            dots = m.vcycle<k3D>(0, z, r);
        zm = m.singular ? float(dots.sumZ / m.activeCells) : 0.f;
        return dots.rz - double(zm) * dots.sumR - m.removePocketMeans(z, r);
    }
    void startDirection()
    {
        std::swap(s, z); // s = z - mean z: take z's buffer; the old s becomes q and z
        if (m.singular)
            m.updateDirection(x, s, s, 0.f, 0.f, zm);
    }
    double applyToDirection() { return m.applyOperator<k3D>(s, z); }
    double updateResidual(float alpha) { return m.updateResidual(r, z, alpha, !mg, dots); }
    void updateDirection(float alpha, float beta) { m.updateDirection(x, s, z, alpha, beta, zm); }
    void finish(float alpha) { m.addScaled(x, s, alpha); }
};

// Solves A p~ = -D(u), then u -= G p~ and p = p~ h / dt. The multigrid-preconditioned run is
// watched; if it breaks down, the solve starts again from its last iterate with the diagonal
// preconditioner, which is safe for every layout, and reports the fallback.
template<bool k3D>
SolveResult PressureSolver::Impl::solve(MacGrid &vel, ScalarGrid &pressure, float dt,
                                        const PressureSettings &settings, Workspace &work,
                                        const float *divergenceTarget)
{
    SolveResult result;
    const Level &l = levels[0];
    const Int3 n = l.n;
    const int nx = n.x;
    const std::uint8_t *flags = l.flags.data();
    for (int g = 0; g < 3; ++g)
        work[g].reshapeForOverwrite(n, kCellCentre); // all is written before it is read
    float *r = work[0].data();
    float *z = work[1].data(); // also q = A s
    float *s = work[2].data();
    float *x = pressure.data();

    // A NaN or infinity in the divergence leaves everything as it was.
    const double sumB = loadDivergence<k3D>(vel, r, divergenceTarget);
    if (!std::isfinite(sumB)) {
        result.residual = std::numeric_limits<double>::infinity();
        return result;
    }

    // Warm start p~0 = p dt / h on active cells (non-finite values restart from 0), free of the
    // pockets' arbitrary levels.
    const float toTilde = dt / domain.cellSize;
    const double sumX0 = sumRows(n, [&](int j, int k) {
        float *xr = x + l.row(j, k);
        const std::uint8_t *f = flags + l.row(j, k);
        for (int i = 0; i < nx; ++i) {
            const float p = xr[i] * toTilde;
            xr[i] = (f[i] & kDiagBits) && std::isfinite(p) ? p : 0.f;
        }
        return rowDot(xr, nullptr, nx);
    });
    removePocketMeans(x, nullptr);
    // All-Neumann: make b compatible (zero mean) and keep the warm start's mean level.
    const float meanB = singular ? float(sumB / activeCells) : 0.f;
    const float meanX0 = singular ? float(sumX0 / activeCells) : 0.f;

    // The diagonal preconditioner stands in for multigrid when the layout admits no red-black
    // colouring or the watched multigrid run breaks down (or any run meets a NaN); it then gets
    // kDiagonalBudget times the iterations (each costs about a quarter of a multigrid one).
    constexpr int kDiagonalBudget = 4;
    bool mg = settings.multigrid && multigridUsable;
    result.fallback = settings.multigrid && !multigridUsable;
    Dots dots;
    double maxR = 0.0;
    const double maxB = residualPass<k3D>(r, z, x, meanB, mg, dots, maxR);
    result.initialResidual = maxB;
    if (maxB == 0.0) {
        pressure.fill(0.f); // nothing to remove (or only a constant the walls cannot remove)
        result.converged = true;
        return result;
    }
    const double target = settings.tolerance * maxB;
    const int budget = settings.maxIterations * (result.fallback ? kDiagonalBudget : 1);
    CgOutcome outcome = maxR <= target ? CgOutcome::Converged : CgOutcome::Budget;
    if (outcome != CgOutcome::Converged && std::isfinite(maxR) && budget > 0) {
        Cg<k3D> cg{*this, x, r, z, s, mg, dots};
        outcome = conjugateGradient(cg, maxR, target, budget, mg, result.iterations);
        if (outcome == CgOutcome::Breakdown) {
            result.fallback = true;
            if (!(maxAbs(x) < std::numeric_limits<double>::infinity()))
                std::fill(x, x + n.volume(), 0.f);
            loadDivergence<k3D>(vel, r, divergenceTarget);
            residualPass<k3D>(r, z, x, meanB, false, dots, maxR);
            Cg<k3D> diagonal{*this, x, r, z, s, false, dots};
            outcome = maxR <= target ? CgOutcome::Converged
                                     : conjugateGradient(diagonal, maxR, target,
                                                         kDiagonalBudget * settings.maxIterations,
                                                         false, result.iterations);
        }
    }
    result.residual = maxR / maxB;
    result.converged = outcome == CgOutcome::Converged;

    // The projection never writes a non-finite value: an iterate that overflowed is dropped.
    const bool applied = std::isfinite(maxR) && maxAbs(x) < std::numeric_limits<double>::infinity();
    if (applied)
        subtractGradient<k3D>(vel, x);
    else
        std::fill(x, x + n.volume(), 0.f);
    result.converged = result.converged && applied;
    const float fromTilde = domain.cellSize / dt;
    forEachRow(n, [&](int j, int k) {
        float *xr = x + l.row(j, k);
        const std::uint8_t *f = flags + l.row(j, k);
        for (int i = 0; i < nx; ++i)
            xr[i] = keepIf((f[i] & kDiagBits) != 0, (xr[i] - meanX0) * fromTilde);
    });
    return result;
}

// Largest |v| over the fine level (+inf on NaN).
double PressureSolver::Impl::maxAbs(const float *v) const
{
    const Level &l = levels[0];
    return maxRows(l.n, [&](int j, int k) { return rowAbsMax(v + l.row(j, k), l.n.x); });
}

PressureSolver::PressureSolver()
    : d(std::make_unique<Impl>())
{}

PressureSolver::~PressureSolver() = default;

void PressureSolver::setup(const Domain &domain, const FlagGrid &solids)
{
    d->ready = false;
    d->levels.clear();
    if (domain.cells.x < 1 || domain.cells.y < 1 || domain.cells.z < 1)
        return;
    const Int3 n = domain.cells;
    const bool useSolids = solids.size() == n;
    std::vector<std::uint8_t> fluid(std::size_t(n.volume()), 1);
    if (useSolids) {
        const std::uint8_t *sf = solids.data();
        forEachIndex(n.volume(), [&](std::int64_t c) { fluid[std::size_t(c)] = sf[c] ? 0 : 1; });
    }
    d->build(domain, fluid);
    d->fluidRow.assign(std::size_t(n.x), kFluidBit);
    d->ready = true;
}

SolveResult PressureSolver::project(MacGrid &vel, ScalarGrid &pressure, float dt,
                                    const PressureSettings &settings, Workspace &work,
                                    const ScalarGrid *divergence)
{
    SolveResult result;
    const Int3 n = d->domain.cells;
    const bool shapesMatch = vel.cells() == n && vel.u.size() == faceGridSize(n, 0)
                             && vel.v.size() == faceGridSize(n, 1)
                             && (d->domain.is2D() || vel.w.size() == faceGridSize(n, 2));
    const bool targetMatches = !divergence || divergence->size() == n;
    if (!d->ready || !shapesMatch || !targetMatches || !(dt > 0.f) || !std::isfinite(dt)) {
        result.residual = std::numeric_limits<double>::infinity();
        return result;
    }
    if (pressure.size() != n)
        pressure.reshape(n, kCellCentre, 0.f);
    if (d->activeCells == 0.0) {
        pressure.fill(0.f);
        result.converged = true;
        return result;
    }
    const float *target = divergence ? divergence->data() : nullptr;
    return d->domain.is2D() ? d->solve<false>(vel, pressure, dt, settings, work, target)
                            : d->solve<true>(vel, pressure, dt, settings, work, target);
}

void PressureSolver::precondition(const ScalarGrid &r, ScalarGrid &z)
{
    const Int3 n = d->domain.cells;
    z.reshape(n, kCellCentre, 0.f);
    PLUME_ASSERT_OR_RETURN(r.size() == n, "multigrid: the residual does not match the domain");
    if (!d->ready || !d->multigridUsable)
        return;
    const Level &l = d->levels[0];
    forEachRow(n, [&](int j, int k) {
        const std::size_t o = l.row(j, k);
        startRow(r.data() + o, z.data() + o, l.flags.data() + o, n.x, std::uint32_t(j + k) & 1u,
                 0u);
    });
    if (d->domain.is2D())
        d->vcycle<false>(0, z.data(), r.data());
    else
        d->vcycle<true>(0, z.data(), r.data());
}

int PressureSolver::pockets() const { return int(d->pockets.count()); }

void PressureSolver::divergence(const MacGrid &vel, const FlagGrid &solids, const Domain &domain,
                                ScalarGrid &out)
{
    const Int3 n = domain.cells;
    if (out.size() != n)
        out.reshape(n, kCellCentre, 0.f);
    PLUME_ASSERT_OR_RETURN(vel.cells() == n, "divergence: the velocity does not match the domain");
    const std::uint8_t *sf = solids.size() == n ? solids.data() : nullptr;
    const float invH = 1.f / domain.cellSize;
    forEachRow(n, [&](int j, int k) {
        float *o = out.data() + out.index(0, j, k);
        const std::uint8_t *f = sf ? sf + solids.index(0, j, k) : nullptr;
        auto store = [&](int i, float dv) { o[i] = (f && f[i]) ? 0.f : dv * invH; };
        if (domain.is2D())
            forDivergenceRow<false>(vel, j, k, store);
        else
            forDivergenceRow<true>(vel, j, k, store);
    });
}

std::size_t PressureSolver::memoryBytes() const
{
    return d->memoryBytes() + d->fluidRow.capacity();
}

} // namespace plume::sim
