// SPDX-License-Identifier: Apache-2.0
// The stam scheme's advect (Stam 2003): backtraces with the paper's clamping, stopped at
// obstacles by the shared voxel walk (voxelwalk.h), and (bi/tri)linear interpolation that
// leaves solid corners out.
#include <core/sim/numerics/voxelwalk.h>

#include <core/sim/base/assert.h>
#include <core/sim/stam/stamkernels.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

namespace plume::sim {

using namespace detail::stam;
using detail::StamLayout;

namespace {

/// NaN-safe form of the paper's clamp: if (x < lo) x = lo; if (x > hi) x = hi.
template<class T>
inline T clampPaper(T x, T lo, T hi)
{
    x = x >= lo ? x : lo;
    return x <= hi ? x : hi;
}

inline float floorOf(float x) { return std::floor(x); }
inline Fixed floorOf(Fixed x) { return Fixed(x.floorToInt()); }
inline int truncToInt(float x) { return int(x); }
inline int truncToInt(Fixed x) { return x.truncToInt(); }

/// Wraps a periodic position into [0.5, n + 0.5], the range the interpolation covers.
template<class T>
inline T wrapPeriodic(T x, int n)
{
    const T r = x - T(0.5f);
    const T wrapped = r - T(n) * floorOf(r / T(n)) + T(0.5f);
    return clampPaper(wrapped, T(0.5f), T(n) + T(0.5f));
}

/// Advection geometry: backtrace limits per axis and the walk through obstacles.
struct Tracer
{
    const StamLayout &L;
    const std::uint8_t *flags;
    bool periodic[3];
    int walkLimit;

    /// Padded index of cell c, wrapped on periodic axes and kept inside the ghost layer.
    std::size_t wrappedIndex(const int c[3]) const
    {
        int w[3] = {c[0], c[1], c[2]};
        for (int a = 0; a < (L.is3D ? 3 : 2); ++a) {
            const int n = L.cells[a];
            w[a] = periodic[a] ? ((c[a] - 1) % n + n) % n + 1 : std::clamp(c[a], 0, n + 1);
        }
        return L.index(w[0], w[1], w[2]);
    }

    bool solidAt(const int c[3]) const { return (flags[wrappedIndex(c)] & kSelfSolid) != 0; }

    /// The shared walk's policy (voxelwalk.h): padded cells, wrapped on periodic axes and
    /// kept inside the ghost layer on the others (a ghost is as solid as the cell it copies),
    /// no closed faces (the paper's clamp keeps the trace inside), a fixed step budget.
    /// T, the number type, only makes the walk one instantiation per number type.
    template<class T>
    struct Cells
    {
        const Tracer &tr;
        bool enter(int a, int &c) const
        {
            const int n = tr.L.cells[a];
            c = tr.periodic[a] ? ((c - 1) % n + n) % n + 1 : std::clamp(c, 0, n + 1);
            return true;
        }
        bool solid(const int c[3]) const { return tr.solidAt(c); }
        int budget(const float *) const { return tr.walkLimit; }
    };

    /// Walks the cells crossed by the segment from cell centre c to p (Amanatides and Woo 1987)
    /// and moves p back to just before the first solid cell. Returns the padded index of the
    /// fluid cell where p ends. The walk measures in float (voxelwalk.h) for either number
    /// type T; a Fixed position is converted there and back. (The walk and walkFromCentre are
    /// instantiated per number type, so that each has one caller and is inlined into the
    /// float advection as it was before the fixed-point variant; measured: 2D stam steps took
    /// 14 % longer when the float and Fixed advections shared one out-of-line walk.)
    template<bool D3, class T>
    std::size_t walk(const int c[3], T p[3]) const
    {
        const int axes = D3 ? 3 : 2;
        float d[3] = {0.f, 0.f, 0.f};
        for (int a = 0; a < axes; ++a)
            d[a] = toFloat(p[a]) - float(c[a]);
        detail::VoxelWalk w;
        const detail::WalkResult r = detail::walkFromCentre<D3>(Cells<T>{*this}, c, d, w);
        float tLast = r.t;
        switch (r.end) {
        case detail::WalkEnd::Clear: return wrappedIndex(w.cell);
        case detail::WalkEnd::NonFinite:
        case detail::WalkEnd::Stuck: return wrappedIndex(c);
        case detail::WalkEnd::Solid: tLast = r.t * (1.f - 1e-4f); break;
        case detail::WalkEnd::Face:
        case detail::WalkEnd::Budget: break;
        }
        for (int a = 0; a < axes; ++a)
            p[a] = T(float(c[a]) + d[a] * tLast);
        return wrappedIndex(w.cell);
    }

    /// Interpolation corners along an axis: i0 and i0 + 1, wrapped on periodic axes.
    void corners(int axis, int i0, int &lo, int &hi) const
    {
        const int n = L.cells[axis];
        lo = i0;
        hi = i0 + 1;
        if (periodic[axis]) {
            lo = i0 < 1 ? n : i0;
            hi = i0 >= n ? 1 : i0 + 1;
        }
    }
};

/// Semi-Lagrangian advection of one cell (Stam 2003, advect): backtrace with the paper's
/// clamping and (bi/tri)linear interpolation; with obstacles the trace stops before solids and
/// solid corners drop out of the weights.
template<bool D3, bool S, class T>
void advectCell(const Tracer &tr, int i, int j, int k, T dt0, const T *u, const T *v, const T *w,
                T *const *dst, const T *const *src, int count)
{
    const StamLayout &L = tr.L;
    const Index n = Index(L.index(i, j, k));
    if constexpr (S) {
        if (tr.flags[n] & kSelfSolid) {
            for (int f = 0; f < count; ++f)
                dst[f][n] = T(0);
            return;
        }
    }
    T p[3] = {T(i) - dt0 * u[n], T(j) - dt0 * v[n], T(0)};
    if constexpr (D3)
        p[2] = T(k) - dt0 * w[n];
    const int axes = D3 ? 3 : 2;
    if constexpr (std::is_same_v<T, Fixed>) {
        // An out-of-range velocity makes everything it carries out of range (the clamp below
        // would otherwise turn it into a position, as it does with a NaN in float).
        for (int a = 0; a < axes; ++a) {
            if (p[a].outOfRange()) {
                for (int f = 0; f < count; ++f)
                    dst[f][n] = Fixed::outOfRangeValue();
                return;
            }
        }
    }
    for (int a = 0; a < axes; ++a) {
        if (!tr.periodic[a])
            p[a] = clampPaper(p[a], T(0.5f), T(L.cells[a]) + T(0.5f));
    }
    std::size_t home = std::size_t(n);
    if constexpr (S) {
        const int c[3] = {i, j, k};
        home = tr.template walk<D3>(c, p);
    }
    for (int a = 0; a < axes; ++a) {
        if (tr.periodic[a])
            p[a] = wrapPeriodic(p[a], L.cells[a]);
    }
    const int i0 = truncToInt(p[0]), j0 = truncToInt(p[1]), k0 = D3 ? truncToInt(p[2]) : k;
    const T s1 = p[0] - T(i0), s0 = T(1) - s1;
    const T t1 = p[1] - T(j0), t0 = T(1) - t1;
    const T u1 = D3 ? p[2] - T(k0) : T(0), u0 = T(1) - u1;
    int ia, ib, ja, jb, ka = k, kb = k;
    tr.corners(0, i0, ia, ib);
    tr.corners(1, j0, ja, jb);
    if constexpr (D3)
        tr.corners(2, k0, ka, kb);
    const Index c[8] = {Index(L.index(ia, ja, ka)), Index(L.index(ia, ja, kb)),
                        Index(L.index(ia, jb, ka)), Index(L.index(ia, jb, kb)),
                        Index(L.index(ib, ja, ka)), Index(L.index(ib, ja, kb)),
                        Index(L.index(ib, jb, ka)), Index(L.index(ib, jb, kb))};
    bool anySolid = false;
    if constexpr (S) {
        for (int m = 0; m < (D3 ? 8 : 4); ++m)
            anySolid |= (tr.flags[c[D3 ? m : 2 * m]] & kSelfSolid) != 0;
    }
    if (!anySolid) {
        for (int f = 0; f < count; ++f) {
            const T *d0 = src[f];
            if constexpr (D3) {
                dst[f][n] = s0
                                * (t0 * (u0 * d0[c[0]] + u1 * d0[c[1]])
                                   + (t1 * (u0 * d0[c[2]] + u1 * d0[c[3]])))
                            + s1
                                  * (t0 * (u0 * d0[c[4]] + u1 * d0[c[5]])
                                     + (t1 * (u0 * d0[c[6]] + u1 * d0[c[7]])));
            } else {
                dst[f][n] = s0 * (t0 * d0[c[0]] + t1 * d0[c[2]])
                            + s1 * (t0 * d0[c[4]] + t1 * d0[c[6]]);
            }
        }
        return;
    }
    // Renormalise the weights onto the fluid corners that the cell holding the end point
    // reaches through fluid faces (walls touching only at corners do not leak).
    const int step = D3 ? 1 : 2; // in 2D the corners are m = 0, 2, 4, 6
    unsigned fluid = 0, reached = 0;
    for (int m = 0; m < 8; m += step) {
        fluid |= (tr.flags[c[m]] & kSelfSolid) ? 0u : 1u << m;
        reached |= std::size_t(c[m]) == home ? 1u << m : 0u;
    }
    reached &= fluid;
    if (reached == 0)
        reached = fluid;
    for (int pass = 0; pass < (D3 ? 3 : 2); ++pass) {
        for (int m = 0; m < 8; m += step) {
            const unsigned near = (1u << (m ^ 4)) | (1u << (m ^ 2)) | (D3 ? 1u << (m ^ 1) : 0u);
            if ((fluid & (1u << m)) && (reached & near))
                reached |= 1u << m;
        }
    }
    T weight[8];
    T total = T(0);
    for (int m = 0; m < 8; ++m) {
        const bool hiX = m & 4, hiY = m & 2, hiZ = m & 1;
        T wm = (hiX ? s1 : s0) * (hiY ? t1 : t0) * (D3 ? (hiZ ? u1 : u0) : (hiZ ? T(0) : T(1)));
        if (!(reached & (1u << m)))
            wm = T(0);
        weight[m] = wm;
        total += wm;
    }
    for (int f = 0; f < count; ++f) {
        T sum = T(0);
        for (int m = 0; m < 8; ++m)
            sum += weight[m] != T(0) ? weight[m] * src[f][c[m]] : T(0);
        dst[f][n] = total > T(0) ? sum / total : T(0);
    }
}

} // namespace

// The paper's advect for several fields carried by the same velocity, then set_bnd.
template<class T>
void BasicStamSolver<T>::advect(const Carried *fields, int count, const Grid &u, const Grid &v,
                                const Grid &w, float dt) const
{
    const StamLayout &L = mLayout;
    PLUME_ASSERT(count <= kMaxCarried, "stam advect: more fields than one pass carries");
    PLUME_ASSERT(u.size() == L.padded && v.size() == L.padded && (!L.is3D || w.size() == L.padded),
                 "stam advect: the velocity is not the padded layout's");
    const T dt0 = T(dt / mDomain.cellSize);
    T *dst[kMaxCarried];
    const T *src[kMaxCarried];
    for (int f = 0; f < count; ++f) {
        PLUME_ASSERT(fields[f].dst->size() == L.padded && fields[f].src->size() == L.padded,
                     "stam advect: a carried field is not the padded layout's");
        dst[f] = fields[f].dst->data();
        src[f] = fields[f].src->data();
    }
    Tracer tracer{L, mFlags.data(), {}, 2 * (L.cells.x + L.cells.y + L.cells.z) + 8};
    for (int a = 0; a < 3; ++a)
        tracer.periodic[a] = a < (L.is3D ? 3 : 2)
                             && mDomain.boundary(a, false) == Boundary::Periodic;
    const bool solids = !mFlags.empty();
    const T *pu = u.data(), *pv = v.data(), *pw = w.data();
    withDimension(L.is3D, [&](auto dim) {
        constexpr bool D3 = decltype(dim)::value;
        forEachInteriorRow(L, [&](int j, int k) {
            for (int i = 1; i <= L.cells.x; ++i) {
                if (solids)
                    advectCell<D3, true>(tracer, i, j, k, dt0, pu, pv, pw, dst, src, count);
                else
                    advectCell<D3, false>(tracer, i, j, k, dt0, pu, pv, pw, dst, src, count);
            }
        });
    });
    for (int f = 0; f < count; ++f)
        setBoundary(fields[f].q, *fields[f].dst);
}

template void StamSolver::advect(const Carried *, int, const Grid &, const Grid &, const Grid &,
                                 float) const;
template void FixedStamSolver::advect(const Carried *, int, const Grid &, const Grid &,
                                      const Grid &, float) const;

} // namespace plume::sim
