// SPDX-License-Identifier: Apache-2.0
// createSolver: the one place that knows the schemes' classes.
#include <core/sim/ocean/oceansolver.h>
#include <core/sim/run/memoryestimate.h>
#include <core/sim/run/solverfactory.h>
#include <core/sim/smoke/adaptivedomain.h>
#include <core/sim/smoke/smokesolver.h>
#include <core/sim/smoke/tiledsmoke.h>
#include <core/sim/sph/sphsolver.h>
#include <core/sim/stam/stamsolver.h>
#include <core/sim/upres/upressolver.h>

#include <new>
#include <string>

namespace plume::sim {

Result<std::unique_ptr<Solver>> createSolver(const Domain &domain, const SimParams &params)
{
    auto fail = [](std::string message) { return Status::failure(std::move(message)); };
    if (Status s = domain.validate(maxCells(params)); !s)
        return fail(s.error);
    if (Status s = params.validate(); !s)
        return fail(s.error);
    if (params.scheme == Scheme::Ocean) {
        if (Status s = OceanSolver::checkDomain(domain); !s)
            return fail(s.error);
    }
    if (params.scheme == Scheme::Sph) {
        if (Status s = SphSolver::checkDomain(domain, params); !s)
            return fail(s.error);
    }
    if (usesUpres(params)) {
        const Domain fine = UpresSolver::fineDomainOf(domain, params.upres.factor);
        if (fine.cellCount() > Domain::kDefaultMaxCells)
            return fail("upres.factor " + std::to_string(params.upres.factor) + " makes "
                        + std::to_string(fine.cells.x) + " x " + std::to_string(fine.cells.y)
                        + " x " + std::to_string(fine.cells.z) + " fine cells; at most "
                        + std::to_string(Domain::kDefaultMaxCells)
                        + " (512^3) are allowed: lower the factor or the resolution");
    }
    if (Status s = checkMemory(domain, params); !s)
        return fail(s.error);
    if (params.scheme == Scheme::Stam && params.stamNumeric == StamNumeric::Fixed) {
        // Backtraced positions are in cells, up to cells + 1, and must stay representable.
        const int limit = int(Fixed::kMax) - 1;
        if (domain.cells.x > limit || domain.cells.y > limit || domain.cells.z > limit)
            return fail("the fixed-point stam scheme takes at most " + std::to_string(limit)
                        + " cells per axis (positions in cells must stay below "
                        + std::to_string(int(Fixed::kMax) + 1) + "); the domain has "
                        + std::to_string(domain.cells.x) + " x " + std::to_string(domain.cells.y)
                        + " x " + std::to_string(domain.cells.z));
    }
    try {
        if (params.scheme == Scheme::Stam && params.stamNumeric == StamNumeric::Fixed)
            return std::make_unique<FixedStamSolver>(domain, params);
        if (params.scheme == Scheme::Stam)
            return std::make_unique<StamSolver>(domain, params);
        if (params.scheme == Scheme::Ocean)
            return std::make_unique<OceanSolver>(domain, params);
        if (params.scheme == Scheme::Sph)
            return std::make_unique<SphSolver>(domain, params);
        std::unique_ptr<Solver> smoke;
        if (params.adaptiveDomain)
            smoke = std::make_unique<AdaptiveDomainSolver>(domain, params);
        else if (params.activeTiles && TiledSmokeSolver::supports(domain))
            smoke = std::make_unique<TiledSmokeSolver>(domain, params);
        else
            smoke = std::make_unique<SmokeSolver>(domain, params);
        if (usesUpres(params))
            return std::make_unique<UpresSolver>(std::move(smoke), params);
        return {std::move(smoke)};
    } catch (const std::bad_alloc &) {
        return fail("out of memory allocating the grids for " + std::to_string(domain.cellCount())
                    + " cells");
    }
}

} // namespace plume::sim
