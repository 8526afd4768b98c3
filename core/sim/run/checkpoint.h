// SPDX-License-Identifier: Apache-2.0
#pragma once

// Solver checkpoints (docs/checkpoints.md): a simulation's complete state in a versioned,
// compressed, checksummed binary container that restores it exactly.

#include <core/sim/run/simulation.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace plume::sim {

/// What a restore demands of a checkpoint besides being intact.
enum class CheckpointMatch : std::uint8_t {
    SameScene, ///< the scene hash, scheme and domain match
    SameGrid,  ///< scheme and domain match; the scene may differ (an earlier version of it)
};

/// What a checkpoint says about itself.
struct CheckpointInfo
{
    std::uint32_t version = 0;
    std::uint64_t sceneHash = 0;
    Scheme scheme = Scheme::Smoke;
    Domain domain;
    int frame = 0;                ///< frames simulated when it was taken
    std::int64_t steps = 0;       ///< solver steps taken
    TimeSettings time;            ///< the time settings then (a restore keeps the simulation's)
    std::uint64_t stateBytes = 0; ///< the fields' bytes uncompressed
    struct Field
    {
        std::string name;
        std::uint64_t rawBytes = 0;    ///< uncompressed
        std::uint64_t storedBytes = 0; ///< compressed, as stored
    };
    std::vector<Field> fields; ///< the solver's state fields, in order
};

/// Writes and restores a Simulation's state: frame and step counters and every field its
/// solver lists (Solver::stateFields: velocity, scalars, pressure warm start, solids, optional
/// dye and combustion grids, switches) and the optional liquid-texture offsets
/// (AdvectedCoordinates::stateFields; an older checkpoint without them restores them empty). The
/// container (little-endian):
///   "PLUMECKP", format version (u32), CRC-32 of everything after it (u32), total bytes (u64),
///   scene hash (u64), scheme, domain (cells, cell size, origin, boundaries), frame, steps,
///   time settings, and the fields, each named, with its kind, size and staggering, stored in
///   Blosc chunks (lz4, byte shuffle). The bytes depend only on the state, not on the thread
///   count. Inputs (emitters, force fields) are not stored: the caller hands them over again
///   after a restore, as SceneSimulation does. Nothing here throws.
class Checkpoint
{
public:
    static constexpr std::uint32_t kVersion = 1;

    /// The state of `sim`, tagged with `sceneHash`, into `out` (replaced). Refuses a simulation
    /// that failed (blew up) and reports running out of memory.
    static Status save(const Simulation &sim, std::uint64_t sceneHash,
                       std::vector<std::uint8_t> &out);

    /// Replaces the state of `sim` with a checkpoint's: refused, with `sim` untouched, when the
    /// data is not a checkpoint, from a newer format, truncated or damaged (checksum), for
    /// another scheme or domain, for another scene (with SameScene), or holds fields this
    /// solver does not have or of the wrong size. The message says which and the two values.
    static Status restore(Simulation &sim, std::span<const std::uint8_t> data,
                          std::uint64_t sceneHash, CheckpointMatch match);

    /// Checks a checkpoint (everything but decompressing the fields) and describes it.
    static Status read(std::span<const std::uint8_t> data, CheckpointInfo &info);

private:
    /// The solver's state fields followed by the liquid-texture offsets (advectedcoords.h).
    static std::vector<StateField> allFields(Simulation &sim);
};

} // namespace plume::sim
