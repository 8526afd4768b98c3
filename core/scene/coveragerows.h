// SPDX-License-Identifier: Apache-2.0
#pragma once

// Internal to core/scene: the row-parallel loop that shape and mesh coverage share.

#include <core/sim/base/domain.h>
#include <core/sim/base/grid.h>
#include <core/sim/base/parallel.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace plume::detail {

using sim::Vec3;

/// Cell range [first, last) along an axis covering world [lo, hi]; empty when a bound is NaN
/// (a shape whose position overflowed the float range).
inline void cellRange(const sim::Domain &d, int axis, float lo, float hi, int &first, int &last)
{
    const float o = d.origin[axis];
    const float f = std::floor((lo - o) / d.cellSize);
    const float l = std::ceil((hi - o) / d.cellSize);
    const float n = float(d.cells[axis]);
    if (std::isnan(f) || std::isnan(l)) {
        first = last = 0;
        return;
    }
    first = int(std::clamp(f, 0.f, n));
    last = int(std::clamp(l, 0.f, n));
}

/// Per-row sparse results of a coverage pass, joined in row order.
struct RowCoverage
{
    std::vector<std::vector<std::uint32_t>> cells;
    std::vector<std::vector<float>> weights;

    sim::SparseMask join() const
    {
        sim::SparseMask m;
        std::size_t total = 0;
        for (const auto &r : cells)
            total += r.size();
        m.cells.reserve(total);
        m.weights.reserve(total);
        for (std::size_t r = 0; r < cells.size(); ++r) {
            m.cells.insert(m.cells.end(), cells[r].begin(), cells[r].end());
            m.weights.insert(m.weights.end(), weights[r].begin(), weights[r].end());
        }
        return m;
    }
};

/// Runs rowBody(j, k, i0, i1, row) over the cells of the box [lo, hi] (world), where `row`
/// holds the row's weights for i in [i0, i1); keeps the positive ones.
template<class F>
sim::SparseMask coverBox(const sim::Domain &d, Vec3 lo, Vec3 hi, F &&rowBody)
{
    int i0, i1, j0, j1, k0, k1;
    cellRange(d, 0, lo.x, hi.x, i0, i1);
    cellRange(d, 1, lo.y, hi.y, j0, j1);
    if (d.is2D()) {
        k0 = 0;
        k1 = 1;
    } else {
        cellRange(d, 2, lo.z, hi.z, k0, k1);
    }
    if (i0 >= i1 || j0 >= j1 || k0 >= k1)
        return {};
    const sim::Int3 box{i1 - i0, j1 - j0, k1 - k0};
    RowCoverage rows;
    rows.cells.resize(std::size_t(box.y) * box.z);
    rows.weights.resize(rows.cells.size());
    sim::forEachRow(box, [&](int jb, int kb) {
        const int j = j0 + jb;
        const int k = k0 + kb;
        std::vector<float> row(std::size_t(box.x), 0.f);
        rowBody(j, k, i0, i1, row);
        const std::size_t r = std::size_t(jb) + std::size_t(box.y) * kb;
        const std::size_t base = std::size_t(d.cells.x) * (j + std::size_t(d.cells.y) * k);
        for (int ib = 0; ib < box.x; ++ib) {
            if (row[ib] > 0.f) {
                rows.cells[r].push_back(std::uint32_t(base + i0 + ib));
                rows.weights[r].push_back(std::min(row[ib], 1.f));
            }
        }
    });
    return rows.join();
}

} // namespace plume::detail
