// SPDX-License-Identifier: Apache-2.0
#include <core/sim/run/sidewatch.h>

#include <algorithm>
#include <cmath>

namespace plume::sim {

SideWatch::SideWatch(const Domain &domain)
    : mCells(domain.cells)
{
    for (int f = 0; f < 6; ++f) {
        const int axis = f / 2;
        const bool flat = axis == 2 && domain.cells.z <= 1; // 2D: no z sides
        if (!flat && domain.boundaries[f] == Boundary::Open)
            mOpen |= std::uint8_t(1u << f);
    }
}

void SideWatch::reset()
{
    mReached = 0;
    mPeak = 0.f;
    std::fill(std::begin(mShare), std::end(mShare), 0.f);
}

std::uint8_t SideWatch::observe(const ScalarGrid &density)
{
    const Int3 n = density.size();
    if (mOpen == 0 || density.count() == 0)
        return 0;
    float peak = 0.f;
    for (std::size_t q = 0; q < density.count(); ++q) {
        const float d = density.data()[q];
        if (std::isfinite(d))
            peak = std::max(peak, d);
    }
    mPeak = std::max(mPeak, peak);
    std::fill(std::begin(mShare), std::end(mShare), 0.f);
    if (!(mPeak > 0.f))
        return 0;
    // The band: kSideCells domain cells, in the sampled grid's cells (upres samples finer).
    const int cells[3] = {n.x, n.y, n.z};
    const int coarse[3] = {mCells.x, mCells.y, mCells.z};
    int band[3];
    for (int a = 0; a < 3; ++a)
        band[a] = std::clamp(kSideCells * std::max(1, cells[a] / std::max(1, coarse[a])), 1,
                             cells[a]);
    float side[6] = {};
    for (int k = 0; k < n.z; ++k) {
        for (int j = 0; j < n.y; ++j) {
            const float *row = density.data() + density.index(0, j, k);
            const bool nearY[2] = {j < band[1], j >= n.y - band[1]};
            const bool nearZ[2] = {k < band[2], k >= n.z - band[2]};
            float rowMax = 0.f;
            if (nearY[0] || nearY[1] || nearZ[0] || nearZ[1])
                for (int i = 0; i < n.x; ++i)
                    rowMax = std::max(rowMax, std::isfinite(row[i]) ? row[i] : 0.f);
            for (int h = 0; h < 2; ++h) {
                if (nearY[h])
                    side[2 + h] = std::max(side[2 + h], rowMax);
                if (nearZ[h])
                    side[4 + h] = std::max(side[4 + h], rowMax);
            }
            for (int i = 0; i < band[0]; ++i) {
                const float lo = row[i], hi = row[n.x - 1 - i];
                side[0] = std::max(side[0], std::isfinite(lo) ? lo : 0.f);
                side[1] = std::max(side[1], std::isfinite(hi) ? hi : 0.f);
            }
        }
    }
    std::uint8_t fresh = 0;
    for (int f = 0; f < 6; ++f) {
        if (!(mOpen & (1u << f)))
            continue;
        mShare[f] = side[f] / mPeak;
        if (mShare[f] > kSideShare && !(mReached & (1u << f)))
            fresh |= std::uint8_t(1u << f);
    }
    mReached |= fresh;
    return fresh;
}

std::string SideWatch::note(std::uint8_t sides) const
{
    std::string list;
    int count = 0;
    for (int f = 0; f < 6; ++f) {
        if (!(sides & (1u << f)))
            continue;
        if (count++)
            list += ", ";
        list += faceName(f);
        list += " (" + std::to_string(std::max(1, int(std::lround(100.f * mShare[f])))) + " %)";
    }
    if (count == 0)
        return {};
    return std::string("smoke reached the open ") + (count > 1 ? "sides " : "side ") + list
           + " of the domain at that share of its peak density: it is cut off there; enlarge "
             "the domain or move the source away";
}

} // namespace plume::sim
