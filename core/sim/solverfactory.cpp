// Solver::create: the one place that knows the schemes' classes.
#include "smokesolver.h"
#include "solver.h"
#include "stamsolver.h"

#include <new>

#if defined(__unix__)
#include <unistd.h>
#endif

namespace plume::sim {

namespace {

/// Bytes of physical memory, or 0 when unknown.
std::uint64_t physicalMemory()
{
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long pageSize = sysconf(_SC_PAGESIZE);
    if (pages > 0 && pageSize > 0)
        return std::uint64_t(pages) * std::uint64_t(pageSize);
#endif
    return 0;
}

/// Upper bound of the bytes per cell a scheme holds (dye included).
std::uint64_t bytesPerCell(Scheme s) { return s == Scheme::Smoke ? 64 : 96; }

} // namespace

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
    const std::uint64_t need = std::uint64_t(domain.cellCount()) * bytesPerCell(params.scheme);
    const std::uint64_t have = physicalMemory();
    if (have > 0 && need > have / 10 * 8)
        return fail("domain: " + std::to_string(domain.cellCount()) + " cells need about "
                    + std::to_string(need >> 20) + " MiB, more than this machine's "
                    + std::to_string(have >> 20) + " MiB of memory allows");
    try {
        if (params.scheme == Scheme::Stam)
            return std::make_unique<StamSolver>(domain, params);
        return std::make_unique<SmokeSolver>(domain, params);
    } catch (const std::bad_alloc &) {
        return fail("out of memory allocating the grids for " + std::to_string(domain.cellCount())
                    + " cells");
    }
}

} // namespace plume::sim
