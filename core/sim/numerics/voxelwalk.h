// SPDX-License-Identifier: Apache-2.0
#pragma once

// The one walk through solid cells: Amanatides & Woo (1987), "A Fast Voxel Traversal
// Algorithm". Both schemes stop their backtraces with it: the smoke scheme's traces
// (obstaclewalk.h, Obstacles::clip) and the stam scheme's (stamadvect.cpp). What differs
// between them is a policy, not a second walk: how cells are numbered and wrapped, what a
// closed face does, and how many steps a walk may take. Each caller turns the crossing time
// it gets back into a position its own way, so both keep their published bits.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace plume::sim::detail {

/// Why a walk stopped.
enum class WalkEnd : std::uint8_t {
    Clear,     ///< the path ends (t >= 1) without meeting a solid cell or a closed face
    Solid,     ///< the next cell, entered at t, is solid; `cell` is the last fluid one
    Face,      ///< the path leaves the domain through a closed face at t
    Budget,    ///< the step budget ran out; t is the last crossing taken
    NonFinite, ///< the start or the path is not finite: nothing was walked
    Stuck,     ///< the start cell is solid and the path does not leave it at t = 0
};

/// Where a walk stopped: t is a fraction of the path (the walk's `cell` is the last cell
/// entered).
struct WalkResult
{
    WalkEnd end = WalkEnd::Clear;
    float t = 0.f;
};

/// The traversal state: the current cell, the step per axis, the time of the next crossing
/// of each axis and the time between two crossings (in fractions of the path). The walks
/// update it in place: copying it right after its scalar stores would stall on
/// store-to-load forwarding, a third of the stam scheme's advection time.
struct VoxelWalk
{
    int cell[3] = {0, 0, 0};
    int step[3] = {0, 0, 0};
    float tMax[3] = {std::numeric_limits<float>::infinity(), std::numeric_limits<float>::infinity(),
                     std::numeric_limits<float>::infinity()};
    float tDelta[3] = {std::numeric_limits<float>::infinity(),
                       std::numeric_limits<float>::infinity(),
                       std::numeric_limits<float>::infinity()};
};

/// Runs a prepared walk along the path d. `Cells` is the policy:
/// - `bool enter(int axis, int &next) const`: the cell index `next` along `axis` is about to be
///   entered: wrap or clamp it, or return false when it lies beyond a closed face;
/// - `bool solid(const int cell[3]) const`;
/// - `int budget(const float d[3]) const`: the most crossings to take.
/// With `startSolid`, the walk may leave its start cell only by a crossing at t = 0.
template<bool k3D, class Cells>
WalkResult runWalk(const Cells &cells, VoxelWalk &w, const float d[3], bool startSolid)
{
    WalkResult r;
    r.end = WalkEnd::Budget;
    float t = 0.f;
    for (int left = cells.budget(d); left > 0; --left) {
        int a = w.tMax[1] < w.tMax[0] ? 1 : 0;
        if (k3D && w.tMax[2] < w.tMax[a])
            a = 2;
        const float next = w.tMax[a];
        if (startSolid && next > 0.f) {
            r.end = WalkEnd::Stuck;
            break;
        }
        startSolid = false;
        if (!(next < 1.f)) {
            r.end = WalkEnd::Clear;
            return r;
        }
        int to = w.cell[a] + w.step[a];
        if (!cells.enter(a, to)) {
            r.end = WalkEnd::Face;
            r.t = next;
            break;
        }
        int probe[3] = {w.cell[0], w.cell[1], w.cell[2]};
        probe[a] = to;
        if (cells.solid(probe)) {
            r.end = WalkEnd::Solid;
            r.t = next;
            break;
        }
        w.cell[a] = to;
        w.tMax[a] += w.tDelta[a];
        t = next;
        r.t = t;
    }
    return r;
}

/// Walks the path d from any point `from` (cell coordinates: cell i spans [i, i + 1)), in `w`
/// (default-constructed).
/// `Cells` adds to runWalk's policy `int clampStart(int axis, int floorOfFrom) const` (the start
/// cell whose faces give the first crossing), `int wrapStart(int axis, int cell) const` (the
/// cell index the walk keeps) and `bool startsSolid(const int cell[3]) const`.
template<bool k3D, class Cells>
WalkResult walkFromPoint(const Cells &cells, const float from[3], const float d[3], VoxelWalk &w)
{
    WalkResult r;
    float longest = 0.f;
    for (int a = 0; a < (k3D ? 3 : 2); ++a) {
        if (!std::isfinite(d[a]) || !std::isfinite(from[a])) {
            r.end = WalkEnd::NonFinite;
            return r;
        }
        const float s = from[a];
        int ci = int(s);
        ci -= float(ci) > s ? 1 : 0; // floor
        ci = cells.clampStart(a, ci);
        const float base = float(ci);
        w.cell[a] = cells.wrapStart(a, ci);
        const float ad = std::fabs(d[a]);
        if (ad > 0.f) {
            w.step[a] = d[a] > 0.f ? 1 : -1;
            w.tMax[a] = (d[a] > 0.f ? base + 1.f - s : base - s) / d[a];
            w.tDelta[a] = 1.f / ad;
        }
        longest = std::max(longest, ad);
    }
    if (longest == 0.f) {
        r.end = WalkEnd::Clear;
        return r;
    }
    return runWalk<k3D>(cells, w, d, cells.startsSolid(w.cell));
}

/// Walks the path d from the centre of cell c (the crossing times are then half a step).
template<bool k3D, class Cells>
WalkResult walkFromCentre(const Cells &cells, const int c[3], const float d[3], VoxelWalk &w)
{
    WalkResult r;
    w.cell[0] = c[0];
    w.cell[1] = c[1];
    w.cell[2] = c[2];
    for (int a = 0; a < (k3D ? 3 : 2); ++a) {
        if (!std::isfinite(d[a])) {
            r.end = WalkEnd::NonFinite;
            return r;
        }
        if (d[a] != 0.f) {
            w.step[a] = d[a] > 0.f ? 1 : -1;
            w.tDelta[a] = 1.f / std::fabs(d[a]);
            w.tMax[a] = 0.5f * w.tDelta[a];
        }
    }
    return runWalk<k3D>(cells, w, d, false);
}

} // namespace plume::sim::detail
