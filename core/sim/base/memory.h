// SPDX-License-Identifier: Apache-2.0
#pragma once

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

/// "1.5 GiB", "320 MiB": bytes for messages.
std::string formatBytes(std::uint64_t bytes);

} // namespace plume::sim
