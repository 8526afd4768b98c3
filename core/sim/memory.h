#pragma once

#include "domain.h"
#include "params.h"

#include <cstdint>
#include <string>

namespace plume::sim {

/// Memory this process can still take, in bytes, and what limits it.
struct AvailableMemory
{
    std::uint64_t bytes = 0; ///< 0 when nothing could be read (then nothing is refused)
    std::string limitedBy; ///< "available memory", "the cgroup limit" or "the address-space limit"
};

/// The least of /proc/meminfo's MemAvailable, the cgroup's memory limit minus its usage
/// (cgroup v2 memory.max, or v1 memory.limit_in_bytes) and RLIMIT_AS minus this process's
/// address space. Linux only; elsewhere bytes is 0.
AvailableMemory availableMemory();

/// Bytes a solver of this scheme holds for `domain` at most: state, scratch, pressure
/// hierarchy, and dye and combustion grids as if every emitter had them.
std::uint64_t solverMemoryBytes(const Domain &domain, Scheme scheme);

/// Bytes the adaptive domain (activebox.h) holds with a box of `boxCells` cells: the smoke
/// scheme's grids over the box (solverMemoryBytes of a box domain), and over the whole domain
/// the solid flags and the far field, a grid ActiveBoxSolver::kCoarsen times coarser per axis.
std::uint64_t adaptiveMemoryBytes(const Domain &domain, std::int64_t boxCells);

/// "1.5 GiB", "320 MiB": bytes for messages.
std::string formatBytes(std::uint64_t bytes);

/// Refuses a grid that will not fit: "domain: 512 x 512 x 512 cells need about 8.5 GiB for the
/// smoke scheme; only 3.1 GiB is available (available memory)". The adaptive domain needs its
/// whole-domain part to fit (its box grows later, as far as memory allows).
Status checkMemory(const Domain &domain, const SimParams &params);

} // namespace plume::sim
