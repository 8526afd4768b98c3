// SPDX-License-Identifier: Apache-2.0
#pragma once

// How the advection kernels visit their samples: the displacement over the step at a cell
// centre or a face (the velocity there times dt / h), and the sweep that runs a per-sample
// body over every sample of a grid on the cheapest path that gives the exact path's bits
// (obstaclewalk.h). Internal to plume_sim.

#include <core/sim/base/parallel.h>
#include <core/sim/ops/obstaclewalk.h>

#include <algorithm>
#include <type_traits>

namespace plume::sim::detail {

// ---- Velocity at the samples ----------------------------------------------------------------

/// Displacement in cells over the step at the centre of cell (i,j,k): the average of the two
/// faces per axis times dt / h. row(j, k) gives a functor of i for one x-row; obstacles do not
/// change it, so exact() is the same value.
template<bool k3D>
struct CentreDisplacement
{
    const MacGrid &vel;
    float scale;

    struct Row
    {
        const float *u, *v0, *v1, *w0, *w1;
        float half;
        PLUME_INLINE Vec3 operator()(int i) const
        {
            return {half * (u[i] + u[i + 1]), half * (v0[i] + v1[i]),
                    k3D ? half * (w0[i] + w1[i]) : 0.f};
        }

        /// operator() for i in [begin, end), into arrays indexed from begin.
        void fill(int begin, int end, float *dx, float *dy, float *dz) const
        {
            for (int i = begin; i < end; ++i) {
                dx[i - begin] = half * (u[i] + u[i + 1]);
                dy[i - begin] = half * (v0[i] + v1[i]);
                dz[i - begin] = k3D ? half * (w0[i] + w1[i]) : 0.f;
            }
        }
    };

    Row row(int j, int k) const
    {
        const float *w0 = k3D ? vel.w.data() + vel.w.index(0, j, k) : nullptr;
        return {vel.u.data() + vel.u.index(0, j, k),     vel.v.data() + vel.v.index(0, j, k),
                vel.v.data() + vel.v.index(0, j + 1, k), w0,
                k3D ? w0 + vel.w.strideZ() : nullptr,    0.5f * scale};
    }

    Vec3 exact(int i, int j, int k) const { return row(j, k)(i); }
};

/// Displacement in cells at a face of axis kAxis: its own component, and the average of the
/// four nearest faces of each other component. row(j, k) gives the plain form for one x-row;
/// exact() leaves out the faces inside obstacles. The two agree wherever no cell next to the
/// face's own cells is solid.
template<bool k3D, int kAxis>
struct FaceDisplacement
{
    const MacGrid &vel;
    const Setup &setup;
    float scale;

    /// The general form: any face, the domain's ends handled, obstacles when kSolids.
    template<bool kSolids>
    Vec3 general(int i, int j, int k) const
    {
        Vec3 d;
        d[kAxis] = scale * vel.component(kAxis)(i, j, k);
        const int n = setup.domain.cells[kAxis];
        const int idx[3] = {i, j, k};
        // The two cells on either side of the face: wrapped or clamped into the domain.
        int lo = idx[kAxis] - 1;
        int hi = idx[kAxis];
        lo = lo >= 0 ? lo : (setup.periodic[kAxis] ? n - 1 : 0);
        hi = hi < n ? hi : (setup.periodic[kAxis] ? 0 : n - 1);
        for (int b = 0; b < (k3D ? 3 : 2); ++b) {
            if (b == kAxis)
                continue;
            const ScalarGrid &g = vel.component(b);
            float sum = 0.f;
            int count = 0;
            for (int corner = 0; corner < 4; ++corner) {
                int at[3] = {i, j, k};
                at[kAxis] = (corner & 1) ? hi : lo;
                at[b] += corner >> 1;
                if constexpr (kSolids) {
                    if (setup.obstacles.face(b, at[0], at[1], at[2]))
                        continue;
                }
                sum += g(at[0], at[1], at[2]);
                ++count;
            }
            d[b] = count == 4 ? 0.25f * scale * sum
                              : (count > 0 ? scale * sum / float(count) : 0.f);
        }
        return d;
    }

    Vec3 exact(int i, int j, int k) const { return general<true>(i, j, k); }

    /// One x-row: the four neighbours of each other component are four row pointers read at i
    /// (shifted by -1, 0 or +1); the ends of a u-row take the general form.
    struct Row
    {
        const FaceDisplacement &f;
        int j, k;
        const float *own;
        const float *p[2][4];
        float quarter;

        PLUME_INLINE Vec3 operator()(int i) const
        {
            if (kAxis == 0 && (i == 0 || i == f.setup.domain.cells.x))
                return f.template general<false>(i, j, k);
            float s[2];
            for (int m = 0; m < (k3D ? 2 : 1); ++m)
                s[m] = quarter * (p[m][0][i] + p[m][1][i] + p[m][2][i] + p[m][3][i]);
            Vec3 d;
            d[kAxis] = 4.f * quarter * own[i];
            d[kAxis == 0 ? 1 : 0] = s[0];
            if constexpr (k3D)
                d[kAxis == 2 ? 1 : 2] = s[1];
            return d;
        }

        /// operator() for i in [begin, end), into arrays indexed from begin: one loop without
        /// branches over the inner faces, the ends of a u-row apart.
        void fill(int begin, int end, float *dx, float *dy, float *dz) const
        {
            float *out[3] = {dx, dy, dz};
            float *mine = out[kAxis];
            float *first = out[kAxis == 0 ? 1 : 0];
            float *second = out[kAxis == 2 ? 1 : 2];
            const int nx = f.setup.domain.cells.x;
            const int lo = kAxis == 0 ? std::max(begin, 1) : begin;
            const int hi = kAxis == 0 ? std::min(end, nx) : end;
            for (int i = lo; i < hi; ++i) {
                const int m = i - begin;
                mine[m] = 4.f * quarter * own[i];
                first[m] = quarter * (p[0][0][i] + p[0][1][i] + p[0][2][i] + p[0][3][i]);
                second[m] = k3D ? quarter * (p[1][0][i] + p[1][1][i] + p[1][2][i] + p[1][3][i])
                                : 0.f;
            }
            for (int i : {begin, end - 1}) {
                if (kAxis == 0 && (i == 0 || i == nx)) {
                    const Vec3 d = f.template general<false>(i, j, k);
                    dx[i - begin] = d.x;
                    dy[i - begin] = d.y;
                    dz[i - begin] = d.z;
                }
            }
        }
    };

    Row row(int j, int k) const
    {
        Row r{*this, j,
              k,     vel.component(kAxis).data() + vel.component(kAxis).index(0, j, k),
              {},    0.25f * scale};
        const int idx[3] = {0, j, k};
        const int n = setup.domain.cells[kAxis];
        int m = 0;
        for (int b = 0; b < (k3D ? 3 : 2); ++b) {
            if (b == kAxis)
                continue;
            const ScalarGrid &g = vel.component(b);
            for (int corner = 0; corner < 4; ++corner) {
                int at[3] = {idx[0], idx[1], idx[2]};
                int shift = 0;
                // Across the face (along kAxis): cells lo = along - 1 and hi = along.
                if (kAxis == 0) {
                    shift = (corner & 1) ? 0 : -1;
                } else {
                    const int along = idx[kAxis];
                    int lo = along - 1;
                    int hi = along;
                    lo = lo >= 0 ? lo : (setup.periodic[kAxis] ? n - 1 : 0);
                    hi = hi < n ? hi : (setup.periodic[kAxis] ? 0 : n - 1);
                    at[kAxis] = (corner & 1) ? hi : lo;
                }
                // Along b: the two faces of that cell.
                if (b == 0)
                    shift += corner >> 1;
                else
                    at[b] += corner >> 1;
                r.p[m][corner] = g.data() + g.index(0, at[1], at[2]) + shift;
            }
            ++m;
        }
        return r;
    }
};

// ---- Sweeps ---------------------------------------------------------------------------------

/// A run of consecutive samples of one row that all take the plain path: the batch form of
/// visitSamples. Sample m of the run is sample i0 + m of its row, reads source index src + m
/// and writes index dst + m; it sits at (i0 + m + off.x, y, z) and moves by (dx, dy, dz)[m].
struct PlainRun
{
    int i0 = 0;
    int count = 0;
    std::size_t src = 0;
    std::size_t dst = 0;
    Vec3 off;
    float y = 0.f;
    float z = 0.f;
    const float *dx = nullptr;
    const float *dy = nullptr;
    const float *dz = nullptr;
};

/// The batch of a sweep without one: every sample goes through the body.
struct NoBatch
{};

/// Calls body(path, src, position, displacement, dst) for every sample of a grid of `size`
/// and `off` (cell-centred when faceAxis < 0, else the faces of that axis); the body stores
/// its results at index dst of its outputs, and zero(dst) clears the samples inside
/// obstacles. `path` is a PathTag. Without obstacles every sample is plain (traces are not
/// stopped at closed faces then); with them RowClearance picks the path. Rows go in chunks:
/// displacements and plain/other first, in loops without branches, then the samples. With a
/// batch (not NoBatch), runs of plain samples go to batch(PlainRun) instead of the body, which
/// must give the body's bits; the grid must then fit runsFit(). The last face of a periodic
/// axis is computed as the first one, so the two stay byte-equal. Setup::activeLo/Hi and
/// Setup::liveTiles choose the samples computed.
template<bool kSolids, class Disp, class Body, class Zero, class Batch = NoBatch>
void visitSamples(const Setup &c, Int3 size, Vec3 off, int faceAxis, const Disp &disp, Body &&body,
                  Zero &&zero, Batch &&batch = NoBatch{})
{
    constexpr bool kBatch = !std::is_same_v<std::decay_t<Batch>, NoBatch>;
    constexpr int kChunk = kRun;
    const bool alias = faceAxis >= 0 && c.periodic[faceAxis];
    const int last = faceAxis >= 0 ? c.domain.cells[faceAxis] : -1;
    const int aliasI = alias && faceAxis == 0 ? last : -1;
    const std::size_t sy = std::size_t(size.x);
    const std::size_t sz = sy * std::size_t(size.y);
    // Samples off the plain path, kept out of the row loop so that it stays compact.
    const auto other = [&](const RowClearance &room, std::size_t n, Vec3 p, Vec3 d, int i, int j,
                           int k, std::size_t at) PLUME_LAMBDA_COLD {
        if (room.path(i, d) == Path::Exact) {
            if (c.obstacles.sample(faceAxis, i, j, k))
                zero(at);
            else
                body(PathTag<Path::Exact>{}, n, p, disp.exact(i, j, k), at);
            return;
        }
        body(PathTag<Path::Clear>{}, n, p, d, at);
    };
    forEachRow(size, [&](int j, int k) {
        const int sj = alias && faceAxis == 1 && j == last ? 0 : j;
        const int sk = alias && faceAxis == 2 && k == last ? 0 : k;
        const std::size_t row = sy * std::size_t(j) + sz * std::size_t(k);
        const std::size_t srcRow = sy * std::size_t(sj) + sz * std::size_t(sk);
        const auto velocity = disp.row(sj, sk);
        [[maybe_unused]] const RowClearance room = kSolids ? rowClearance(c, faceAxis, sj, sk)
                                                           : RowClearance{};
        float dx[kChunk], dy[kChunk], dz[kChunk];
        [[maybe_unused]] bool isPlain[kChunk];
        // Only the row's active samples are computed (Setup::activeLo); the rest are zero.
        int from = 0, to = size.x;
        if (faceAxis < 0 && c.activeLo) {
            const std::size_t r = std::size_t(j) + std::size_t(size.y) * std::size_t(k);
            from = std::clamp(c.activeLo[r], 0, size.x);
            to = std::clamp(c.activeHi[r], from, size.x);
            for (int i = 0; i < from; ++i)
                zero(row + std::size_t(i));
            for (int i = to; i < size.x; ++i)
                zero(row + std::size_t(i));
        }
        // One sample on its own: the alias face, or a sample off the plain path.
        const auto single = [&](int i, int m) PLUME_LAMBDA_INLINE {
            Vec3 d{dx[m], dy[m], dz[m]};
            int si = i;
            if (i == aliasI) {
                si = 0;
                d = velocity(0);
            }
            const std::size_t n = srcRow + std::size_t(si);
            const Vec3 p{float(si) + off.x, float(sj) + off.y, float(sk) + off.z};
            if constexpr (kSolids) {
                if (!isPlain[m] || i == aliasI) {
                    other(room, n, p, d, si, sj, sk, row + std::size_t(i));
                    return;
                }
            }
            body(PathTag<Path::Plain>{}, n, p, d, row + std::size_t(i));
        };
        const auto samples = [&](int from, int to) {
            for (int begin = from; begin < to; begin += kChunk) {
                const int end = std::min(begin + kChunk, to);
                velocity.fill(begin, end, dx, dy, dz);
                if constexpr (kSolids)
                    room.classify(begin, end, dx, dy, dz, isPlain);
                if constexpr (!kBatch) {
                    for (int i = begin; i < end; ++i)
                        single(i, i - begin);
                } else {
                    const auto plain = [&](int m) {
                        if constexpr (kSolids)
                            return isPlain[m] && begin + m != aliasI;
                        else
                            return begin + m != aliasI;
                    };
                    const int count = end - begin;
                    for (int m = 0; m < count;) {
                        const int first = m;
                        while (m < count && plain(m))
                            ++m;
                        if (m > first) {
                            const int i0 = begin + first;
                            batch(PlainRun{i0, m - first, srcRow + std::size_t(i0),
                                           row + std::size_t(i0), off, float(sj) + off.y,
                                           float(sk) + off.z, dx + first, dy + first, dz + first});
                        }
                        for (; m < count && !plain(m); ++m)
                            single(begin + m, m);
                    }
                }
            }
        };
        if (faceAxis >= 0 && c.liveTiles)
            c.liveTiles.forFaces(size, faceAxis, j, k, samples); // the rest is the caller's
        else
            samples(from, to);
    });
}

/// visitSamples() for one output: stores what body(path, src, position, displacement)
/// returns for every sample of `out`, zero inside obstacles.
template<bool kSolids, class Disp, class Body>
void forEachSample(const Setup &c, ScalarGrid &out, int faceAxis, const Disp &disp, Body &&body)
{
    float *dst = out.data();
    visitSamples<kSolids>(
        c, out.size(), out.offset(), faceAxis, disp,
        [&](auto path, std::size_t n, Vec3 p, Vec3 d, std::size_t at)
            PLUME_LAMBDA_INLINE { dst[at] = body(path, n, p, d); },
        [&](std::size_t at) { dst[at] = 0.f; });
}

/// Calls f(k3D, kSolids) with compile-time flags.
template<class F>
void dispatch(bool is3D, bool solids, F &&f)
{
    if (is3D) {
        if (solids)
            f(std::true_type{}, std::true_type{});
        else
            f(std::true_type{}, std::false_type{});
    } else {
        if (solids)
            f(std::false_type{}, std::true_type{});
        else
            f(std::false_type{}, std::false_type{});
    }
}

/// Whether the MAC grid has the domain's cells and face grids.
inline bool velocityFits(const MacGrid &vel, const Domain &d)
{
    const Int3 n = d.cells;
    return vel.cells() == n && vel.u.size() == faceGridSize(n, 0)
           && vel.v.size() == faceGridSize(n, 1)
           && (d.is2D() || vel.w.size() == faceGridSize(n, 2));
}

} // namespace plume::sim::detail
