// SPDX-License-Identifier: Apache-2.0
#include <core/render/marchbounds.h>

#include <core/sim/base/parallel.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace plume {

namespace {

/// A threshold lowered by a relative and an absolute margin: a convex mix of values at most
/// this one stays at most the threshold itself after float rounding.
float withMargin(float threshold) { return threshold - (std::abs(threshold) * 1e-4f + 1e-9f); }

} // namespace

MarchBounds marchBounds(const MarchInputs &in)
{
    MarchBounds b;
    const sim::Int3 n = in.density.size();
    const std::size_t cells = in.density.count();
    if (cells == 0)
        return b;
    const float *density = in.density.data();
    const float *temp = in.temperature && in.temperature->count() == cells ? in.temperature->data()
                                                                           : nullptr;
    const float *flame = in.flame && in.flame->count() == cells ? in.flame->data() : nullptr;
    const std::uint8_t *solid = in.solids && in.solids->count() == cells ? in.solids->data()
                                                                         : nullptr;
    const float densityFloor = withMargin(kMarchDensityFloor);
    const float hot = withMargin(in.hotAbove);
    // Per row: the first and last cell that shows something (first > last: none).
    const std::size_t rows = std::size_t(n.y) * std::size_t(n.z);
    std::vector<int> firstOf(rows, n.x), lastOf(rows, -1);
    sim::forEachRow(n, [&](int j, int k) {
        const std::size_t row = std::size_t(j) + std::size_t(n.y) * std::size_t(k);
        const std::size_t o = row * std::size_t(n.x);
        auto shows = [&](int i) {
            const std::size_t c = o + std::size_t(i);
            return density[c] > densityFloor || (temp && temp[c] > hot) || (flame && flame[c] > 0.f)
                   || (solid && solid[c] != 0);
        };
        int i = 0;
        while (i < n.x && !shows(i))
            ++i;
        if (i == n.x)
            return;
        firstOf[row] = i;
        int l = n.x - 1;
        while (!shows(l))
            --l;
        lastOf[row] = l;
    });
    sim::Int3 lo{n.x, n.y, n.z}, hi{-1, -1, -1};
    for (int k = 0; k < n.z; ++k) {
        for (int j = 0; j < n.y; ++j) {
            const std::size_t row = std::size_t(j) + std::size_t(n.y) * std::size_t(k);
            if (lastOf[row] < 0)
                continue;
            lo = {std::min(lo.x, firstOf[row]), std::min(lo.y, j), std::min(lo.z, k)};
            hi = {std::max(hi.x, lastOf[row]), std::max(hi.y, j), std::max(hi.z, k)};
        }
    }
    if (hi.x < 0)
        return b;
    // A sample at cell coordinate x reads cells floor(x - 1/2) and the one above it, so it
    // reads cell i only when i - 1/2 < x < i + 3/2.
    b.lo = {float(lo.x) - 0.5f, float(lo.y) - 0.5f, float(lo.z) - 0.5f};
    b.hi = {float(hi.x) + 1.5f, float(hi.y) + 1.5f, float(hi.z) + 1.5f};
    b.empty = false;
    return b;
}

bool marchRange(const MarchBounds &b, const sim::Vec3 &o, const sim::Vec3 &d, float t0, float dt,
                int steps, int &first, int &last)
{
    if (b.empty || steps <= 0 || !(dt > 0.f))
        return false;
    float ta = -1e30f, tb = 1e30f;
    for (int a = 0; a < 3; ++a) {
        if (std::abs(d[a]) < 1e-12f) {
            if (o[a] < b.lo[a] || o[a] > b.hi[a])
                return false;
            continue;
        }
        float u = (b.lo[a] - o[a]) / d[a], v = (b.hi[a] - o[a]) / d[a];
        if (u > v)
            std::swap(u, v);
        ta = std::max(ta, u);
        tb = std::min(tb, v);
    }
    if (!(tb >= ta))
        return false;
    // Sample k sits at t0 + (k + 1/2) dt: the first one at or after ta, the last at or
    // before tb, each widened by one.
    const double kFirst = std::floor((double(ta) - t0) / dt - 0.5) - 1.0;
    const double kLast = std::ceil((double(tb) - t0) / dt - 0.5) + 1.0;
    if (kLast < 0.0 || kFirst > double(steps - 1))
        return false;
    first = int(std::max(kFirst, 0.0));
    last = int(std::min(kLast, double(steps - 1)));
    return first <= last;
}

} // namespace plume
