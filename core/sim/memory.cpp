#include "memory.h"

#include "activebox.h"

#include <algorithm>

#include <cstdio>
#include <fstream>
#include <sstream>

#if defined(__linux__)
#include <sys/resource.h>
#endif

namespace plume::sim {

namespace {

/// The smoke scheme: faces (3 floats), density, temperature, pressure, 4 workspace grids, 3
/// dye and 3 combustion grids: 16 floats; the pressure hierarchy about 2.3 bytes, solids,
/// clearance and ignite flags 3 bytes.
constexpr std::uint64_t kSmokeBytesPerCell = 16 * 4 + 6;

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
    const std::uint64_t far = std::uint64_t(ActiveBoxSolver::farDomainOf(domain).cellCount());
    // Whole domain: the solver's solid flags and the scene's (rasterize.h), 2 bytes a cell.
    // Far field: faces (3 floats), pressure, expansion, 4 workspace grids, the pressure
    // hierarchy and flags: about 40 bytes a coarse cell. Box: the smoke scheme's grids.
    const std::uint64_t box = std::uint64_t(std::max<std::int64_t>(boxCells, 0));
    return std::uint64_t(domain.cellCount()) * 2 + far * 40 + box * kSmokeBytesPerCell;
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

Status checkMemory(const Domain &domain, const SimParams &params)
{
    const Scheme scheme = params.scheme;
    const bool adaptive = usesAdaptiveDomain(params);
    const std::uint64_t need = adaptive ? adaptiveMemoryBytes(domain, 0)
                                        : solverMemoryBytes(domain, scheme);
    const AvailableMemory have = availableMemory();
    if (have.bytes == 0 || need <= have.bytes)
        return Status::success();
    const Int3 c = domain.cells;
    return Status::failure("domain: " + std::to_string(c.x) + " x " + std::to_string(c.y) + " x "
                           + std::to_string(c.z) + " cells need about " + formatBytes(need)
                           + " for the " + toString(scheme) + " scheme"
                           + (adaptive ? "'s adaptive domain before its box" : "") + "; only "
                           + formatBytes(have.bytes) + " is available (" + have.limitedBy + ")");
}

} // namespace plume::sim
