// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/domain.h>
#include <core/sim/base/grid.h>

#include <cstdint>
#include <string>

namespace plume::sim {

/// Smoke that reaches an open side of the domain leaves it there: what the viewer sees is cut
/// flat by the box. A SideWatch looks at each frame's density and says when it first comes
/// within kSideCells cells of an open side at more than kSideShare of the peak density seen so
/// far (walls hold the smoke, as a room's do, and periodic sides wrap it: neither cuts).
class SideWatch
{
public:
    static constexpr int kSideCells = 2;       ///< how near a side counts, in domain cells
    static constexpr float kSideShare = 0.01f; ///< of the peak density seen so far

    /// The faces of `domain` that are open. `density` is sampled on a grid of any resolution
    /// over the same box (upres's finer one too): the band scales with it.
    explicit SideWatch(const Domain &domain);

    /// Looks at one frame's cell-centred density. Returns the sides reached for the first time
    /// (bit 1 << Face), each at most once over the watch's life.
    std::uint8_t observe(const ScalarGrid &density);

    /// The share of the peak density found by the last observe() within the band of each face.
    float lastShare(Face f) const { return mShare[int(f)]; }
    /// Every open side has been reached and said: later frames cannot add anything.
    bool done() const { return mReached == mOpen; }
    void reset();

    /// "smoke reached the open side xmax (3 %) of the domain at that share of its peak density:
    /// it is cut off there; enlarge the domain or move the source away" for the sides in
    /// `sides` (bits 1 << Face, as observe() returns them), with the shares of the last
    /// observe(); "" for none.
    std::string note(std::uint8_t sides) const;

private:
    std::uint8_t mOpen = 0;
    Int3 mCells{};
    std::uint8_t mReached = 0;
    float mPeak = 0.f;
    float mShare[6] = {};
};

} // namespace plume::sim
