// Solver::create: the one place that knows the schemes' classes.
#include "memory.h"
#include "oceansolver.h"
#include "smokesolver.h"
#include "solver.h"
#include "stamsolver.h"

#include <new>

namespace plume::sim {

std::unique_ptr<Solver> Solver::create(const Domain &domain, const SimParams &params,
                                       std::string *error)
{
    auto fail = [&](std::string message) -> std::unique_ptr<Solver> {
        if (error)
            *error = std::move(message);
        return nullptr;
    };
    if (Status s = domain.validate(); !s)
        return fail(s.error);
    if (Status s = params.validate(); !s)
        return fail(s.error);
    if (params.scheme == Scheme::Ocean) {
        if (Status s = OceanSolver::checkDomain(domain); !s)
            return fail(s.error);
    }
    if (Status s = checkMemory(domain, params.scheme); !s)
        return fail(s.error);
    try {
        if (params.scheme == Scheme::Stam)
            return std::make_unique<StamSolver>(domain, params);
        if (params.scheme == Scheme::Ocean)
            return std::make_unique<OceanSolver>(domain, params);
        return std::make_unique<SmokeSolver>(domain, params);
    } catch (const std::bad_alloc &) {
        return fail("out of memory allocating the grids for " + std::to_string(domain.cellCount())
                    + " cells");
    }
}

} // namespace plume::sim
