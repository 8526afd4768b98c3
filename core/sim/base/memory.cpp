// SPDX-License-Identifier: Apache-2.0
#include <core/sim/base/memory.h>

#include <algorithm>

#include <cstdio>
#include <fstream>
#include <sstream>

#if defined(__linux__)
#include <sys/resource.h>
#endif

namespace plume::sim {

namespace {

/// The first number of a file ("max" and unreadable files give 0).
std::uint64_t readNumber(const char *path)
{
    std::ifstream in(path);
    std::uint64_t v = 0;
    return (in >> v) ? v : 0;
}

/// A "Key: N kB" line of a /proc file, in bytes; 0 when absent.
std::uint64_t procKilobytes(const char *path, const std::string &key)
{
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
        if (line.compare(0, key.size() + 1, key + ":") != 0)
            continue;
        std::istringstream fields(line.substr(key.size() + 1));
        std::uint64_t kb = 0;
        fields >> kb;
        return kb * 1024;
    }
    return 0;
}

/// Limit minus usage of this process's memory cgroup; 0 when there is no limit.
std::uint64_t cgroupRoom()
{
    std::ifstream in("/proc/self/cgroup");
    std::string line, v2, v1;
    while (std::getline(in, line)) {
        const auto colon = line.find(':');
        const auto second = line.find(':', colon + 1);
        if (colon == std::string::npos || second == std::string::npos)
            continue;
        const std::string controllers = line.substr(colon + 1, second - colon - 1);
        const std::string path = line.substr(second + 1);
        if (line.compare(0, 2, "0:") == 0 && controllers.empty())
            v2 = path;
        else if (controllers == "memory")
            v1 = path;
    }
    auto room = [](const std::string &limitFile, const std::string &usageFile) -> std::uint64_t {
        const std::uint64_t limit = readNumber(limitFile.c_str());
        // Unlimited reads as "max" (v2) or a number near 2^63 (v1).
        if (limit == 0 || limit >= (std::uint64_t(1) << 60))
            return 0;
        const std::uint64_t used = readNumber(usageFile.c_str());
        return limit > used ? limit - used : 1;
    };
    if (!v1.empty()) {
        // In a container the process's own group is usually mounted as the root.
        for (const std::string &dir : {"/sys/fs/cgroup/memory" + (v1 == "/" ? std::string() : v1),
                                       std::string("/sys/fs/cgroup/memory")}) {
            if (const std::uint64_t r = room(dir + "/memory.limit_in_bytes",
                                             dir + "/memory.usage_in_bytes"))
                return r;
        }
    }
    if (!v2.empty()) {
        const std::string dir = "/sys/fs/cgroup" + (v2 == "/" ? std::string() : v2);
        return room(dir + "/memory.max", dir + "/memory.current");
    }
    return 0;
}

/// RLIMIT_AS minus the address space in use; 0 when unlimited.
std::uint64_t addressSpaceRoom()
{
#if defined(__linux__)
    rlimit limit{};
    if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
        return 0;
    const std::uint64_t used = procKilobytes("/proc/self/status", "VmSize");
    return limit.rlim_cur > used ? limit.rlim_cur - used : 1;
#else
    return 0;
#endif
}

} // namespace

AvailableMemory availableMemory()
{
    AvailableMemory m;
    auto consider = [&](std::uint64_t bytes, const char *what) {
        if (bytes > 0 && (m.bytes == 0 || bytes < m.bytes)) {
            m.bytes = bytes;
            m.limitedBy = what;
        }
    };
    consider(procKilobytes("/proc/meminfo", "MemAvailable"), "available memory");
    consider(cgroupRoom(), "the cgroup limit");
    consider(addressSpaceRoom(), "the address-space limit");
    return m;
}

std::string formatBytes(std::uint64_t bytes)
{
    char text[32];
    const double mib = double(bytes) / (1024.0 * 1024.0);
    if (mib >= 1024.0)
        std::snprintf(text, sizeof text, "%.1f GiB", mib / 1024.0);
    else
        std::snprintf(text, sizeof text, "%.0f MiB", mib);
    return text;
}

} // namespace plume::sim
