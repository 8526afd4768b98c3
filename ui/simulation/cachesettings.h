// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>

namespace plume {

/// Bytes of physical memory (sysconf), or 0 when the system does not say.
std::uint64_t physicalMemoryBytes();

/// The app's cache and checkpoint budgets (Edit > Preferences, kept in QSettings in MiB).
/// Defaults: frames in memory a quarter of physical memory (512 MiB to 32 GiB), 8 GiB of disk
/// cache, a checkpoint every 10 frames with up to a sixteenth of physical memory (256 MiB to
/// 8 GiB) for them.
struct CacheSettings
{
    std::size_t memoryBytes = 0;     ///< frames in memory
    std::size_t diskBytes = 0;       ///< spilled frames on disk (0: no disk cache)
    int checkpointInterval = 10;     ///< frames between checkpoints (0: none)
    std::size_t checkpointBytes = 0; ///< checkpoints in memory

    static CacheSettings defaults();
    /// The stored preferences, defaults for what was never set.
    static CacheSettings load();
    void store() const;

    friend bool operator==(const CacheSettings &, const CacheSettings &) = default;
};

} // namespace plume
