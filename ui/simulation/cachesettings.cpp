// SPDX-License-Identifier: Apache-2.0
#include <ui/simulation/cachesettings.h>

#include <ui/preferences.h>

#include <unistd.h>

#include <algorithm>

namespace plume {

namespace {

constexpr std::uint64_t kMiB = std::uint64_t(1) << 20;
constexpr std::uint64_t kGiB = std::uint64_t(1) << 30;

std::size_t clampedShare(std::uint64_t total, int divisor, std::uint64_t lo, std::uint64_t hi)
{
    return std::size_t(std::clamp(total / std::uint64_t(divisor), lo, hi));
}

// Preferences in MiB: readable in the settings file, and no overflow in QVariant's int.
const Preference<qint64> kMemoryMiB("cache/memoryMiB", -1);
const Preference<qint64> kDiskMiB("cache/diskMiB", -1);
const Preference<int> kCheckpointInterval("cache/checkpointInterval", -1);
const Preference<qint64> kCheckpointMiB("cache/checkpointMiB", -1);

} // namespace

std::uint64_t physicalMemoryBytes()
{
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long pageSize = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && pageSize > 0 ? std::uint64_t(pages) * std::uint64_t(pageSize) : 0;
}

CacheSettings CacheSettings::defaults()
{
    const std::uint64_t memory = physicalMemoryBytes();
    CacheSettings s;
    s.memoryBytes = clampedShare(memory, 4, 512 * kMiB, 32 * kGiB);
    s.diskBytes = std::size_t(8 * kGiB);
    s.checkpointInterval = 10;
    s.checkpointBytes = clampedShare(memory, 16, 256 * kMiB, 8 * kGiB);
    return s;
}

CacheSettings CacheSettings::load()
{
    CacheSettings s = defaults();
    auto bytes = [](const Preference<qint64> &p, std::size_t fallback) {
        const qint64 mib = p.get();
        return mib < 0 ? fallback : std::size_t(mib) * std::size_t(kMiB);
    };
    s.memoryBytes = bytes(kMemoryMiB, s.memoryBytes);
    s.diskBytes = bytes(kDiskMiB, s.diskBytes);
    s.checkpointBytes = bytes(kCheckpointMiB, s.checkpointBytes);
    if (const int interval = kCheckpointInterval.get(); interval >= 0)
        s.checkpointInterval = interval;
    return s;
}

void CacheSettings::store() const
{
    kMemoryMiB.set(qint64(memoryBytes / kMiB));
    kDiskMiB.set(qint64(diskBytes / kMiB));
    kCheckpointInterval.set(checkpointInterval);
    kCheckpointMiB.set(qint64(checkpointBytes / kMiB));
}

} // namespace plume
