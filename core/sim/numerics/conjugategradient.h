// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <algorithm>
#include <cmath>

namespace plume::sim {

/// Result of an iterative solve. Solvers neither print nor throw.
struct SolveResult
{
    bool converged = false;
    int iterations = 0;
    double residual = 0.0;        ///< final max|r| / max|b| (0 when b == 0)
    double initialResidual = 0.0; ///< max|b| before the first iteration
    bool fallback = false;        ///< pressure: multigrid broke down, finished diagonal
};

/// How a conjugate-gradient run ended.
enum class CgOutcome { Converged, Budget, Breakdown };

/// Preconditioned conjugate gradients (Saad, "Iterative Methods for Sparse Linear Systems",
/// alg. 9.1) from the state the caller prepared: r = b - A x, with max|r| in `maxR`. The
/// operator object does the vector work, so that each solver can fuse its passes:
///
///     double precondition();                    z = M^-1 r; returns r.z
///     void startDirection();                    s = z
///     double applyToDirection();                q = A s; returns s.q
///     double updateResidual(float alpha);       r -= alpha q; returns max|r| (+inf on NaN)
///     void updateDirection(float alpha, float beta); s = z + beta s
///     void finish(float alpha);
///
/// x += alpha s belongs to each step; the object applies it in updateResidual, updateDirection
/// or finish, whichever pass it fuses best with (finish ends the last step). Stops when
/// max|r| <= target (Converged) or after `budget` iterations (Budget); Breakdown when r.z or
/// s.q is not positive or not finite, or max|r| is not finite (x keeps its last finite state).
/// With `watch` also when max|r| grows kGrowth-fold over its best, or stalls: its best does not
/// halve in kStall iterations. `iterations` is incremented per iteration.
template<class Ops>
CgOutcome conjugateGradient(Ops &ops, double &maxR, double target, int budget, bool watch,
                            int &iterations)
{
    constexpr double kGrowth = 100.0;
    constexpr int kStall = 30;
    double rho = ops.precondition();
    ops.startDirection();
    double best = maxR, bestBefore = maxR; // bestBefore: the best kStall iterations ago
    for (int it = 1; it <= budget; ++it) {
        if (!(rho > 0.0) || !std::isfinite(rho))
            return CgOutcome::Breakdown;
        const double sq = ops.applyToDirection();
        if (!(sq > 0.0) || !std::isfinite(sq))
            return CgOutcome::Breakdown;
        const float alpha = float(rho / sq);
        maxR = ops.updateResidual(alpha);
        ++iterations;
        if (!std::isfinite(maxR))
            return CgOutcome::Breakdown;
        best = std::min(best, maxR);
        if (watch && maxR > kGrowth * best)
            return CgOutcome::Breakdown;
        if (it % kStall == 0) {
            if (watch && best > 0.5 * bestBefore)
                return CgOutcome::Breakdown;
            bestBefore = best;
        }
        if (maxR <= target || it == budget) {
            ops.finish(alpha);
            return maxR <= target ? CgOutcome::Converged : CgOutcome::Budget;
        }
        const double rhoNew = ops.precondition();
        const float beta = float(rhoNew / rho);
        rho = rhoNew;
        ops.updateDirection(alpha, beta);
    }
    return CgOutcome::Budget;
}

} // namespace plume::sim
