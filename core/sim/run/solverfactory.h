// SPDX-License-Identifier: Apache-2.0
#pragma once
// The scheme factory: the one place that knows every scheme's class (solverfactory.cpp).

#include <core/sim/base/result.h>
#include <core/sim/base/solver.h>

#include <memory>
#include <string>

namespace plume::sim {

/// Makes the solver for `params.scheme`, or says why not: the domain or a parameter is
/// invalid, or memory for the grids cannot be had. Never throws.
Result<std::unique_ptr<Solver>> createSolver(const Domain &domain, const SimParams &params);

} // namespace plume::sim
