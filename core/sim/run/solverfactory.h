// SPDX-License-Identifier: Apache-2.0
#pragma once
// The scheme factory: the one place that knows every scheme's class (solverfactory.cpp).

#include <core/sim/base/solver.h>

#include <memory>
#include <string>

namespace plume::sim {

/// Makes the solver for `params.scheme`. Returns null and sets `error` when the domain or a
/// parameter is invalid, or when memory for the grids cannot be had. Never throws.
std::unique_ptr<Solver> createSolver(const Domain &domain, const SimParams &params,
                                     std::string *error);

} // namespace plume::sim
