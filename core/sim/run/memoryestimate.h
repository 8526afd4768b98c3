// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a solver of each scheme holds for a domain, and the check that refuses a grid that will
// not fit. Here, above the schemes, because the adaptive domain's estimate needs its far field.

#include <core/sim/base/domain.h>
#include <core/sim/base/memory.h>
#include <core/sim/base/params.h>

#include <cstdint>

namespace plume::sim {

/// Bytes a solver of this scheme holds for `domain` at most: state, scratch, pressure
/// hierarchy, and dye and combustion grids as if every emitter had them.
std::uint64_t solverMemoryBytes(const Domain &domain, Scheme scheme);

/// Bytes the adaptive domain (adaptivedomain.h) holds with a box of `boxCells` cells: the smoke
/// scheme's grids over the box (solverMemoryBytes of a box domain), and over the whole domain
/// the solid flags and the far field, a grid AdaptiveDomainSolver::kCoarsen times coarser per axis.
std::uint64_t adaptiveMemoryBytes(const Domain &domain, std::int64_t boxCells);

/// Bytes upres (upressolver.h) adds at `factor` times the resolution per axis, with the box
/// around the smoke as large as the domain: seven fine fields (as if every emitter had dye and
/// fuel) and a traced copy of each; per cell of the domain, six noise coordinates and fifteen
/// scratch grids; and the noise tile. 0 when `factor` <= 1.
std::uint64_t upresMemoryBytes(const Domain &domain, int factor);

/// Refuses a grid that will not fit: "domain: 512 x 512 x 512 cells need about 8.5 GiB for the
/// smoke scheme; only 3.1 GiB is available (available memory)". The adaptive domain needs its
/// whole-domain part to fit (its box grows later, as far as memory allows); upres needs its
/// fine grids to fit (upresMemoryBytes).
Status checkMemory(const Domain &domain, const SimParams &params);

} // namespace plume::sim
