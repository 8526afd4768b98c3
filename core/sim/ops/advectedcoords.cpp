// SPDX-License-Identifier: Apache-2.0
#include <core/sim/ops/advectedcoords.h>

#include <core/sim/base/parallel.h>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace plume::sim {

double texturePhase(int set, int frame, int period)
{
    if (period <= 0)
        return 0.0;
    const int shifted = frame + (set == 0 ? 0 : period / 2);
    const int within = ((shifted % period) + period) % period;
    return double(within) / double(period);
}

float textureWeight0(int frame, int period, TextureBlend blend)
{
    const double phase = texturePhase(0, frame, period);
    if (blend == TextureBlend::Smooth) {
        const double s = std::sin(std::numbers::pi * phase);
        return float(s * s);
    }
    return float(1.0 - std::abs(1.0 - 2.0 * phase));
}

namespace {

/// One axis of a lookup at continuous sample index s (cell centre i sits at s = i): the two
/// neighbouring samples and the fraction between them, wrapped or clamped to [0, n).
struct Axis
{
    int i0 = 0, i1 = 0;
    float t = 0.f;
};

Axis axisAt(float s, int n, bool periodic)
{
    Axis a;
    if (!periodic) {
        s = std::clamp(s, 0.f, float(n - 1));
        a.i0 = std::min(int(std::floor(s)), n - 1);
        a.i1 = std::min(a.i0 + 1, n - 1);
        a.t = s - float(a.i0);
        return a;
    }
    const float f = std::floor(s);
    a.t = s - f;
    a.i0 = ((int(f) % n) + n) % n;
    a.i1 = a.i0 + 1 == n ? 0 : a.i0 + 1;
    return a;
}

/// a + t (b - a): exactly a when a == b, so a uniform field stays exactly uniform.
inline float lerp(float a, float b, float t) { return a + t * (b - a); }

} // namespace

Status AdvectedCoordinates::configure(const Domain &domain, int period)
{
    if (period == 0) {
        mPeriod = 0;
        for (int g = 0; g < 4; ++g) {
            mOffset[g] = ScalarGrid();
            mScratch[g] = ScalarGrid();
        }
        return Status::success();
    }
    if (!kTexturePeriod.contains(period) || period % 2 != 0)
        return Status::failure("the liquid texture's period is " + formatNumber(period)
                               + "; expected an even " + kTexturePeriod.describe("frame count"));
    if (!domain.is2D())
        return Status::failure("a liquid texture needs a 2D domain (this one is "
                               + std::to_string(domain.cells.z) + " cells deep)");
    const bool sameGrid = enabled() && mDomain.cells == domain.cells
                          && mDomain.boundaries == domain.boundaries
                          && mDomain.cellSize == domain.cellSize;
    mDomain = domain;
    mPeriod = period;
    if (!sameGrid)
        reset();
    return Status::success();
}

void AdvectedCoordinates::reset()
{
    if (!enabled())
        return;
    for (ScalarGrid &g : mOffset)
        g.reshape(mDomain.cells, kCellCentre, 0.f);
}

void AdvectedCoordinates::advect(const ScalarGrid &vx, const ScalarGrid &vy, float dt)
{
    if (!enabled())
        return;
    const Int3 n = mDomain.cells;
    const bool periodicX = mDomain.boundary(0, false) == Boundary::Periodic;
    const bool periodicY = mDomain.boundary(1, false) == Boundary::Periodic;
    const float toCells = dt / mDomain.cellSize;
    for (ScalarGrid &g : mScratch)
        g.reshape(n, kCellCentre);
    forEachRow(Int3{n.x, n.y, 1}, [&](int j, int) {
        for (int i = 0; i < n.x; ++i) {
            // Cell centre (i, j) came from cell coordinates (i, j) - u dt (in sample indices).
            const float dx = vx(i, j, 0) * toCells;
            const float dy = vy(i, j, 0) * toCells;
            const Axis ax = axisAt(float(i) - dx, n.x, periodicX);
            const Axis ay = axisAt(float(j) - dy, n.y, periodicY);
            for (int g = 0; g < 4; ++g) {
                const ScalarGrid &o = mOffset[g];
                const float below = lerp(o(ax.i0, ay.i0, 0), o(ax.i1, ay.i0, 0), ax.t);
                const float above = lerp(o(ax.i0, ay.i1, 0), o(ax.i1, ay.i1, 0), ax.t);
                mScratch[g](i, j, 0) = lerp(below, above, ay.t) - (g % 2 == 0 ? dx : dy);
            }
        }
    });
    for (int g = 0; g < 4; ++g)
        mOffset[g].swap(mScratch[g]);
}

void AdvectedCoordinates::frameFinished(int frame)
{
    if (!enabled())
        return;
    for (int set = 0; set < 2; ++set) {
        if (texturePhase(set, frame, mPeriod) == 0.0) {
            mOffset[2 * set].fill(0.f);
            mOffset[2 * set + 1].fill(0.f);
        }
    }
}

std::vector<StateField> AdvectedCoordinates::stateFields(Int3 n)
{
    // The size is the domain's even when the stage is off, so that a checkpoint with offsets
    // restores into a simulation whose texture was switched off since (stateRestored drops
    // them); a stage that is off saves its grids empty.
    constexpr const char *names[4] = {"texture-offset-0x", "texture-offset-0y", "texture-offset-1x",
                                      "texture-offset-1y"};
    std::vector<StateField> fields;
    for (int g = 0; g < 4; ++g)
        fields.push_back(
            {.name = names[g], .grid = &mOffset[g], .size = n, .optional = true, .group = 100});
    return fields;
}

void AdvectedCoordinates::stateRestored()
{
    if (!enabled()) {
        for (ScalarGrid &g : mOffset)
            g = ScalarGrid();
        return;
    }
    if (mOffset[0].count() == 0)
        reset();
}

} // namespace plume::sim
