// SPDX-License-Identifier: Apache-2.0
#include <core/scene/scene.h>

#include <algorithm>
#include <cmath>

namespace plume {

float domainCellSize(const DomainSettings &d)
{
    float longest = std::max(d.size.x, d.size.y);
    if (d.dimension == Dimension::ThreeD)
        longest = std::max(longest, d.size.z);
    return longest / float(std::max(1, d.resolution));
}

DomainSettings previewDomain(const DomainSettings &d)
{
    DomainSettings out = d;
    out.preview = PreviewResolution::Full;
    const int divisor = previewDivisor(d.preview);
    if (divisor > 1)
        out.resolution = std::max(int(domainParams::resolution.min),
                                  int(std::lround(double(d.resolution) / divisor)));
    return out;
}

sim::Int3 domainCells(const DomainSettings &d)
{
    const float h = domainCellSize(d);
    auto along = [&](float extent) { return std::max(1, int(std::lround(extent / h))); };
    return {along(d.size.x), along(d.size.y),
            d.dimension == Dimension::ThreeD ? along(d.size.z) : 1};
}

sim::Domain makeDomain(const DomainSettings &d)
{
    sim::Domain domain;
    domain.cells = domainCells(d);
    domain.cellSize = domainCellSize(d);
    domain.origin = d.origin;
    domain.boundaries = d.boundaries;
    return domain;
}

std::int64_t estimateMemoryBytes(const DomainSettings &d)
{
    return domainCells(d).volume() * kBytesPerCellEstimate;
}

bool operator==(const Scene &a, const Scene &b)
{
    return a.name == b.name && a.domain == b.domain && a.simulation == b.simulation
           && a.items == b.items && a.exports == b.exports && a.extra == b.extra;
}

const Item *Scene::findItem(const std::string &itemName) const
{
    for (const Item &item : items) {
        if (item.name == itemName)
            return &item;
    }
    return nullptr;
}

std::uint32_t itemSeed(std::uint32_t sceneSeed, const std::string &itemName)
{
    // FNV-1a over the name, then mixed with the scene seed.
    std::uint32_t h = 2166136261u;
    for (unsigned char c : itemName) {
        h ^= c;
        h *= 16777619u;
    }
    return h ^ (sceneSeed * 2654435761u);
}

std::uint32_t emitterNoiseSeed(std::uint32_t sceneSeed, std::uint32_t noiseSeed)
{
    return (noiseSeed * 2246822519u + 0x165667B1u) ^ (sceneSeed * 2654435761u);
}

} // namespace plume
