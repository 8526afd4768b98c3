// SPDX-License-Identifier: Apache-2.0
#include <core/sim/ops/obstaclemotion.h>

#include <core/sim/base/parallel.h>

#include <algorithm>

namespace plume::sim::detail {

namespace {

/// The cell one step from `c` along `axis` (dir -1 or +1): wrapped on periodic axes; false
/// past a non-periodic end.
bool stepCell(Int3 &c, int axis, int dir, const Domain &domain)
{
    if (dir == 0)
        return true;
    const int n = domain.cells[axis];
    int v = c[axis] + dir;
    if (v < 0 || v >= n) {
        if (domain.boundary(axis, dir > 0) != Boundary::Periodic)
            return false;
        v = v < 0 ? n - 1 : 0;
    }
    c[axis] = v;
    return true;
}

std::size_t flat(Int3 c, Int3 n)
{
    return std::size_t(c.x) + std::size_t(n.x) * (std::size_t(c.y) + std::size_t(n.y) * c.z);
}

/// Per x-row (j, k) of cells: whether a solid lies in rows j-1..j+1, k-1..k+1 (wrapped on
/// periodic axes). Every cell a face of row (j, k) reads, on any axis (its two cells and their
/// tangential neighbours), lies there, with j and k clamped to the last row for end faces.
std::vector<std::uint8_t> rowsNearSolids(const FlagGrid &solids, const Domain &domain)
{
    const Int3 n = domain.cells;
    std::vector<std::uint8_t> has(std::size_t(n.y) * n.z, 0);
    forEachRow(n, [&](int j, int k) {
        const std::uint8_t *row = solids.data() + solids.index(0, j, k);
        has[std::size_t(j) + std::size_t(n.y) * k] = std::find(row, row + n.x, std::uint8_t(1))
                                                             != row + n.x
                                                         ? 1
                                                         : 0;
    });
    std::vector<std::uint8_t> near(has.size(), 0);
    const int reachZ = domain.is2D() ? 0 : 1;
    forEachRow(Int3{1, n.y, n.z}, [&](int j, int k) {
        std::uint8_t any = 0;
        for (int dk = -reachZ; dk <= reachZ; ++dk)
            for (int dj = -1; dj <= 1; ++dj) {
                Int3 c{0, j, k};
                if (stepCell(c, 1, dj, domain) && stepCell(c, 2, dk, domain))
                    any |= has[std::size_t(c.y) + std::size_t(n.y) * c.z];
            }
        near[std::size_t(j) + std::size_t(n.y) * k] = any;
    });
    return near;
}

} // namespace

void UncoveredCells::build(const FlagGrid &before, const FlagGrid &after, const Domain &domain)
{
    mCells.clear();
    mFirst.clear();
    mSources.clear();
    const Int3 n = domain.cells;
    if (before.size() != n || after.size() != n || !before.anySolid())
        return;
    const std::uint8_t *was = before.data();
    const std::uint8_t *now = after.data();
    std::vector<std::uint32_t> pending;
    for (std::size_t c = 0; c < before.count(); ++c) {
        if (was[c] && !now[c])
            pending.push_back(std::uint32_t(c));
    }
    if (pending.empty())
        return;
    // 0: solid now, 1: fluid with known contents, 2: uncovered and not filled yet.
    enum : std::uint8_t { kSolid = 0, kKnown = 1, kPending = 2 };
    std::vector<std::uint8_t> state(before.count());
    for (std::size_t c = 0; c < state.size(); ++c)
        state[c] = now[c] ? kSolid : kKnown;
    for (std::uint32_t c : pending)
        state[c] = kPending;
    const int axes = domain.dimensions();
    mFirst.push_back(0);
    std::vector<std::uint32_t> layer, rest;
    while (!pending.empty()) {
        layer.clear();
        rest.clear();
        for (std::uint32_t c : pending) {
            const std::size_t first = mSources.size();
            for (int axis = 0; axis < axes; ++axis) {
                for (int dir = -1; dir <= 1; dir += 2) {
                    Int3 nb = cellOf(c, n);
                    if (!stepCell(nb, axis, dir, domain))
                        continue;
                    const std::size_t m = flat(nb, n);
                    if (state[m] == kKnown)
                        mSources.push_back(std::uint32_t(m));
                }
            }
            if (mSources.size() == first) {
                rest.push_back(c);
                continue;
            }
            mCells.push_back(c);
            mFirst.push_back(std::uint32_t(mSources.size()));
            layer.push_back(c);
        }
        if (layer.empty())
            break;
        for (std::uint32_t c : layer)
            state[c] = kKnown; // readable by the next layer only
        pending.swap(rest);
    }
    // Cells that no fluid reaches (a pocket sealed by solids): zero.
    for (std::uint32_t c : pending) {
        mCells.push_back(c);
        mFirst.push_back(std::uint32_t(mSources.size()));
    }
}

void DrivenFaces::build(const FlagGrid &solids, const Domain &domain, const ObstacleMotion &motion)
{
    const Int3 n = domain.cells;
    const int axes = domain.dimensions();
    for (int axis = 0; axis < 3; ++axis) {
        mIndex[axis].clear();
        mValue[axis].clear();
        mNoSlip[axis].clear();
    }
    if (motion.empty() || solids.size() != n || !solids.anySolid())
        return;
    const bool noSlip = !motion.noSlip.empty();
    const std::vector<std::uint8_t> near = rowsNearSolids(solids, domain);
    for (int axis = 0; axis < axes; ++axis) {
        const Int3 s = faceGridSize(n, axis);
        const Boundary lo = domain.boundary(axis, false), hi = domain.boundary(axis, true);
        // Per row, then joined in row order: the lists do not depend on the thread count.
        std::vector<std::vector<std::uint32_t>> rowIndex(std::size_t(s.y) * s.z);
        std::vector<std::vector<float>> rowValue(rowIndex.size());
        std::vector<std::uint8_t> sticky(noSlip ? std::size_t(s.volume()) : 0, 0);
        forEachRow(s, [&](int j, int k) {
            const std::size_t row = std::size_t(j) + std::size_t(s.y) * k;
            if (!near[std::size_t(std::min(j, n.y - 1)) + std::size_t(n.y) * std::min(k, n.z - 1)])
                return; // no solid within reach of this row's faces
            for (int i = 0; i < s.x; ++i) {
                const Int3 face{i, j, k};
                const int along = face[axis];
                // The face's two cells; a cell past a non-periodic end does not exist.
                Int3 cells[2] = {face, face};
                bool exists[2] = {true, true};
                cells[0][axis] = along - 1;
                if (along == 0 || along == n[axis]) {
                    const Boundary b = along == 0 ? lo : hi;
                    if (b == Boundary::Wall)
                        continue; // walls stay closed and at rest
                    if (b == Boundary::Periodic) {
                        cells[0][axis] = n[axis] - 1;
                        cells[1][axis] = 0;
                    } else {
                        exists[along == 0 ? 0 : 1] = false;
                    }
                }
                float sum = 0.f;
                int touching = 0; // solid cells on the face's two sides
                for (int side = 0; side < 2; ++side) {
                    const std::size_t c = flat(cells[side], n);
                    if (exists[side] && solids.isSolid(c)) {
                        sum += obstacleVelocity(motion, axis, c);
                        ++touching;
                    }
                }
                float value = touching == 2 ? 0.5f * sum : sum;
                if (touching == 0) {
                    // No-slip: an open face whose cells touch a sticky solid across another axis.
                    int count = 0;
                    for (int side = 0; noSlip && side < 2; ++side) {
                        for (int t = 0; exists[side] && t < axes; ++t) {
                            for (int dir = -1; t != axis && dir <= 1; dir += 2) {
                                Int3 nb = cells[side];
                                if (!stepCell(nb, t, dir, domain))
                                    continue;
                                const std::size_t m = flat(nb, n);
                                if (solids.isSolid(m) && motion.noSlip[m]) {
                                    sum += obstacleVelocity(motion, axis, m);
                                    ++count;
                                }
                            }
                        }
                    }
                    if (count == 0)
                        continue;
                    value = sum / float(count);
                }
                const std::size_t index = i + std::size_t(s.x) * (j + std::size_t(s.y) * k);
                if (touching == 0)
                    sticky[index] = 1;
                rowIndex[row].push_back(std::uint32_t(index));
                rowValue[row].push_back(value);
            }
        });
        for (std::size_t r = 0; r < rowIndex.size(); ++r) {
            mIndex[axis].insert(mIndex[axis].end(), rowIndex[r].begin(), rowIndex[r].end());
            mValue[axis].insert(mValue[axis].end(), rowValue[r].begin(), rowValue[r].end());
        }
        if (std::find(sticky.begin(), sticky.end(), std::uint8_t(1)) != sticky.end())
            mNoSlip[axis] = std::move(sticky);
    }
}

void DrivenFaces::apply(MacGrid &vel) const
{
    for (int axis = 0; axis < 3; ++axis) {
        if (mIndex[axis].empty())
            continue;
        float *c = vel.component(axis).data();
        const std::uint32_t *index = mIndex[axis].data();
        const float *value = mValue[axis].data();
        forEachIndex(std::int64_t(mIndex[axis].size()),
                     [&](std::int64_t m) { c[index[m]] = value[m]; });
    }
}

std::size_t DrivenFaces::memoryBytes() const
{
    std::size_t total = 0;
    for (int axis = 0; axis < 3; ++axis)
        total += mIndex[axis].capacity() * sizeof(std::uint32_t)
                 + mValue[axis].capacity() * sizeof(float) + mNoSlip[axis].capacity();
    return total;
}

} // namespace plume::sim::detail
