// SPDX-License-Identifier: Apache-2.0
#include <core/sim/run/memoryestimate.h>

#include <core/sim/numerics/noisetile.h>
#include <core/sim/smoke/adaptivedomain.h>

#include <algorithm>
#include <string>

namespace plume::sim {

namespace {

/// The smoke scheme: faces (3 floats), density, temperature, pressure, 4 workspace grids, 3
/// dye and 3 combustion grids: 16 floats; the pressure hierarchy about 2.3 bytes, solids,
/// clearance and ignite flags 3 bytes.
constexpr std::uint64_t kSmokeBytesPerCell = 16 * 4 + 6;

} // namespace

std::uint64_t solverMemoryBytes(const Domain &domain, Scheme scheme)
{
    const Int3 c = domain.cells;
    if (scheme == Scheme::Stam) {
        // Padded grids: velocity and its prev (6), pressure, divergence, density, temperature
        // and their prevs (6), six dye grids: 18 floats, plus solids and neighbour flags.
        const std::uint64_t padded = std::uint64_t(c.x + 2) * std::uint64_t(c.y + 2)
                                     * std::uint64_t(domain.is2D() ? 1 : c.z + 2);
        return padded * (18 * 4 + 2);
    }
    if (scheme == Scheme::Ocean) {
        // Spectrum (two complex floats and a double), four packed complex spectra, seven
        // output fields and the solid flags.
        return std::uint64_t(domain.cellCount()) * (16 + 8 + 32 + 28 + 1);
    }
    if (scheme == Scheme::Sph) {
        // Solid flags, the escape map and the neighbour grid's cell starts: 9 bytes a cell. The
        // particles (SphSolver::kBytesPerParticle each) depend on the emitters, not the domain:
        // plume-cli info estimates them (docs/sph.md).
        return std::uint64_t(domain.cellCount()) * 9;
    }
    return std::uint64_t(domain.cellCount()) * kSmokeBytesPerCell;
}

std::uint64_t adaptiveMemoryBytes(const Domain &domain, std::int64_t boxCells)
{
    const std::uint64_t far = std::uint64_t(AdaptiveDomainSolver::farDomainOf(domain).cellCount());
    // Whole domain: the solver's solid flags and the scene's (rasterize.h), 2 bytes a cell.
    // Far field: faces (3 floats), pressure, expansion, 4 workspace grids, the pressure
    // hierarchy and flags: about 40 bytes a coarse cell. Box: the smoke scheme's grids.
    const std::uint64_t box = std::uint64_t(std::max<std::int64_t>(boxCells, 0));
    return std::uint64_t(domain.cellCount()) * 2 + far * 40 + box * kSmokeBytesPerCell;
}

std::uint64_t upresMemoryBytes(const Domain &domain, int factor)
{
    if (factor <= 1)
        return 0;
    const std::uint64_t cells = std::uint64_t(domain.cellCount());
    const std::uint64_t fine = cells * std::uint64_t(factor) * std::uint64_t(factor)
                               * std::uint64_t(domain.is2D() ? 1 : factor);
    // The noise tile: NoiseTile::kSize^3 vectors (a square of 2D vectors in 2D).
    const std::uint64_t side = NoiseTile::kSize;
    const std::uint64_t tile = domain.is2D() ? side * side * 2 * 4 : side * side * side * 4 * 4;
    // Fine: 7 fields, 7 traced, each cell's move (3) and one corrected field. Cells of the
    // simulation: the coordinate sets, velocity, amplitude and scratch (21), the fields before
    // the step and one stage (8), and the smoke solver's two kept stages of 7 fields (14).
    return fine * (7 + 7 + 3 + 1) * 4 + cells * (21 + 8 + 14) * 4 + tile;
}

Status checkMemory(const Domain &domain, const SimParams &params)
{
    const Scheme scheme = params.scheme;
    const bool adaptive = usesAdaptiveDomain(params);
    const bool upres = usesUpres(params);
    const std::uint64_t need = (adaptive ? adaptiveMemoryBytes(domain, 0)
                                         : solverMemoryBytes(domain, scheme))
                               + (upres ? upresMemoryBytes(domain, params.upres.factor) : 0);
    const AvailableMemory have = availableMemory();
    if (have.bytes == 0 || need <= have.bytes)
        return Status::success();
    const Int3 c = domain.cells;
    return Status::failure(
        "domain: " + std::to_string(c.x) + " x " + std::to_string(c.y) + " x " + std::to_string(c.z)
        + " cells need about " + formatBytes(need) + " for the " + toString(scheme) + " scheme"
        + (adaptive ? "'s adaptive domain before its box" : "")
        + (upres ? " with " + std::to_string(params.upres.factor) + "x upres" : "") + "; only "
        + formatBytes(have.bytes) + " is available (" + have.limitedBy + ")");
}

} // namespace plume::sim
