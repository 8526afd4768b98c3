// SPDX-License-Identifier: Apache-2.0
#include <core/sim/ops/diffusion.h>

#include <core/sim/base/parallel.h>
#include <core/sim/numerics/conjugategradient.h>
#include <core/sim/ops/boundaryconditions.h>

#include <algorithm>
#include <cmath>

namespace plume::sim {

namespace {
/// Relative tolerance and limit of the solves: the matrix is diagonally dominant, so a
/// diagonal preconditioner converges in a few iterations.
constexpr double kDiffusionTolerance = 1e-5;
constexpr int kDiffusionMaxIterations = 100;
} // namespace

// Implicit diffusion: (I - dt k L) q = q0 with a Jacobi-preconditioned conjugate gradient.
// Neighbours across walls, open faces and solids contribute no flux (zero normal gradient);
// for a velocity component, closed faces are fixed and act as Dirichlet neighbours: at zero, or
// with `closedFacesMove` at the value they hold (a moving obstacle's velocity), which then
// joins the right-hand side: (I - dt k L) q = q0 + a * (fixed neighbours). Samples marked in
// `held` are fixed at their values too.
SolveResult diffuseImplicit(ScalarGrid &q, float coefficient, float dt, const FlagGrid &solids,
                            const Domain &domain, Workspace &work, bool closedFacesMove,
                            const std::uint8_t *held)
{
    SolveResult result;
    const Int3 s = q.size();
    const float a = dt * coefficient / (domain.cellSize * domain.cellSize);
    const Vec3 o = q.offset();
    const int faceAxis = o.x == 0.f ? 0 : (o.y == 0.f ? 1 : (o.z == 0.f ? 2 : -1));
    const int axes = (domain.is2D() ? 2 : 3);

    // Per sample: fixed (closed face) or unknown; neighbours per axis with wrap on periodic.
    auto fixedAt = [&](int i, int j, int k) {
        if (held && held[q.index(i, j, k)])
            return true;
        if (faceAxis >= 0)
            return faceIsClosed(solids, domain, faceAxis, i, j, k);
        return solids.isSolid(i, j, k);
    };
    auto neighbour = [&](int axis, int idx[3], int dir, int out[3]) {
        out[0] = idx[0];
        out[1] = idx[1];
        out[2] = idx[2];
        out[axis] += dir;
        if (out[axis] >= 0 && out[axis] < s[axis])
            return true;
        if (domain.boundary(axis, dir > 0) != Boundary::Periodic)
            return false;
        // The face grid of a periodic axis repeats its first face at the end.
        const int period = axis == faceAxis ? s[axis] - 1 : s[axis];
        out[axis] = (out[axis] + period) % period;
        return true;
    };
    // y = A x over unknown samples; fixed samples hold 0 in every vector.
    auto applyA = [&](const ScalarGrid &x, ScalarGrid &y) {
        forEachRow(s, [&](int j, int k) {
            for (int i = 0; i < s.x; ++i) {
                if (fixedAt(i, j, k)) {
                    y(i, j, k) = 0.f;
                    continue;
                }
                int idx[3] = {i, j, k};
                float diag = 1.f;
                float off = 0.f;
                for (int axis = 0; axis < axes; ++axis) {
                    for (int dir = -1; dir <= 1; dir += 2) {
                        int nb[3];
                        if (!neighbour(axis, idx, dir, nb))
                            continue;
                        if (fixedAt(nb[0], nb[1], nb[2])) {
                            if (faceAxis >= 0)
                                diag += a; // Dirichlet: the closed face holds zero
                            continue;
                        }
                        diag += a;
                        off += x(nb[0], nb[1], nb[2]);
                    }
                }
                y(i, j, k) = diag * x(i, j, k) - a * off;
            }
        });
    };
    auto diagonal = [&](int i, int j, int k) {
        int idx[3] = {i, j, k};
        float diag = 1.f;
        for (int axis = 0; axis < axes; ++axis) {
            for (int dir = -1; dir <= 1; dir += 2) {
                int nb[3];
                if (!neighbour(axis, idx, dir, nb))
                    continue;
                if (!fixedAt(nb[0], nb[1], nb[2]) || faceAxis >= 0)
                    diag += a;
            }
        }
        return diag;
    };
    auto dotRows = [&](const ScalarGrid &x, const ScalarGrid &y) {
        return sumRows(s, [&](int j, int k) {
            double sum = 0.0;
            const std::size_t base = x.index(0, j, k);
            for (int i = 0; i < s.x; ++i)
                sum += double(x[base + i]) * y[base + i];
            return sum;
        });
    };
    auto maxAbs = [&](const ScalarGrid &x) {
        return maxRows(s, [&](int j, int k) {
            double m = 0.0;
            const std::size_t base = x.index(0, j, k);
            for (int i = 0; i < s.x; ++i)
                m = std::max(m, double(std::fabs(x[base + i])));
            return m;
        });
    };

    ScalarGrid &r = work[0];
    ScalarGrid &z = work[1];
    ScalarGrid &p = work[2];
    ScalarGrid &ap = work[3];
    for (ScalarGrid *g : {&r, &z, &p, &ap})
        g->reshape(s, q.offset());

    // a * (the values of the fixed neighbours of an unknown sample): moving closed faces.
    auto fixedValues = [&](int i, int j, int k) {
        int idx[3] = {i, j, k};
        float sum = 0.f;
        for (int axis = 0; axis < axes; ++axis) {
            for (int dir = -1; dir <= 1; dir += 2) {
                int nb[3];
                if (neighbour(axis, idx, dir, nb) && fixedAt(nb[0], nb[1], nb[2]))
                    sum += q(nb[0], nb[1], nb[2]);
            }
        }
        return a * sum;
    };
    const bool movingFaces = (closedFacesMove && faceAxis >= 0) || held;

    // r = b - A q0 (start from x = q0), restricted to unknowns; b = q0 (+ the moving faces).
    applyA(q, ap);
    forEachRow(s, [&](int j, int k) {
        for (int i = 0; i < s.x; ++i) {
            if (fixedAt(i, j, k))
                r(i, j, k) = 0.f;
            else if (movingFaces)
                r(i, j, k) = (q(i, j, k) + fixedValues(i, j, k)) - ap(i, j, k);
            else
                r(i, j, k) = q(i, j, k) - ap(i, j, k);
        }
    });
    const double bNorm = maxAbs(q);
    result.initialResidual = bNorm;
    if (bNorm == 0.0) {
        result.converged = true;
        return result;
    }
    // The conjugate-gradient passes (conjugateGradient's operator object); x += alpha p goes
    // with the residual update.
    struct Ops
    {
        decltype(applyA) &apply;
        decltype(dotRows) &dot;
        decltype(maxAbs) &absMax;
        decltype(fixedAt) &fixed;
        decltype(diagonal) &diag;
        Int3 s;
        ScalarGrid &q, &r, &z, &p, &ap;

        double precondition()
        {
            forEachRow(s, [&](int j, int k) {
                for (int i = 0; i < s.x; ++i)
                    z(i, j, k) = fixed(i, j, k) ? 0.f : r(i, j, k) / diag(i, j, k);
            });
            return dot(r, z);
        }
        void startDirection() { std::copy(z.data(), z.data() + z.count(), p.data()); }
        double applyToDirection()
        {
            apply(p, ap);
            return dot(p, ap);
        }
        double updateResidual(float alpha)
        {
            forEachRow(s, [&](int j, int k) {
                for (int i = 0; i < s.x; ++i) {
                    q(i, j, k) += alpha * p(i, j, k);
                    r(i, j, k) -= alpha * ap(i, j, k);
                }
            });
            return absMax(r);
        }
        void updateDirection(float, float beta)
        {
            forEachRow(s, [&](int j, int k) {
                for (int i = 0; i < s.x; ++i)
                    p(i, j, k) = z(i, j, k) + beta * p(i, j, k);
            });
        }
        void finish(float) {}
    } ops{applyA, dotRows, maxAbs, fixedAt, diagonal, s, q, r, z, p, ap};

    double maxR = maxAbs(r);
    const double target = kDiffusionTolerance * bNorm;
    const CgOutcome outcome = maxR <= target
                                  ? CgOutcome::Converged
                                  : conjugateGradient(ops, maxR, target, kDiffusionMaxIterations,
                                                      false, result.iterations);
    result.converged = outcome == CgOutcome::Converged;
    result.residual = maxR / bNorm;
    return result;
}

} // namespace plume::sim
