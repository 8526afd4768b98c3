#include "pressure.h"

#include "parallel.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace plume::sim {

namespace {

// Per-cell flag byte: the number of open faces (the diagonal of A) and whether the cell is fluid.
constexpr std::uint8_t kDiagBits = 7;
constexpr std::uint8_t kFluidBit = 8;

// Red cells have (i + j + k) even.
constexpr int kRed = 0;
constexpr int kBlack = 1;

constexpr int kCoarsestSide = 4;    // coarsen while some side is longer than this
constexpr int kMaxLevels = 16;
constexpr int kCoarsestSweeps = 16; // black-red sweep pairs that stand in for a coarsest solve

constexpr float kNear = 0.75f; // weights of linear cell-centred prolongation
constexpr float kFar = 0.25f;

/// Transfer weights that must ignore some taps: for each listed cell, its taps (cells of the
/// other level) and weights, in compressed rows (cell n owns taps[start[n]] .. taps[start[n+1]]).
struct TransferFix
{
    std::vector<std::uint32_t> cells, start, taps;
    std::vector<float> weights;
};

/// One level of the hierarchy: cell-centred flags; the coarse levels own their x and b.
///
/// Regions: cells are coupled only within one connected fluid region of the fine grid. A coarse
/// cell whose active children belong to different regions is left out (inactive), and where two
/// active coarse neighbours belong to different regions, `faces` holds per cell the bits of the
/// neighbours it is coupled to (x-, x+, y-, y+, z-, z+; empty when every neighbour pair is
/// coupled). The transfers from and to the level above skip taps across regions: those cells
/// are recomputed from `prolongFix` (fine red cells of the level above) and `restrictFix`
/// (cells of this level) after the fast separable pass.
struct Level
{
    Int3 n{0, 0, 0};
    std::array<bool, 3> periodic{};
    std::array<float, 6> ghostSign{1.f, 1.f, 1.f, 1.f, 1.f, 1.f}; // -1 on open faces
    std::vector<std::uint8_t> flags;
    std::vector<std::uint8_t> faces;
    TransferFix prolongFix, restrictFix;
    std::vector<float> x, b;

    std::size_t row(int j, int k) const
    {
        return std::size_t(n.x) * (std::size_t(j) + std::size_t(n.y) * std::size_t(k));
    }
    std::size_t rowIndex(int j, int k) const { return std::size_t(j) + std::size_t(n.y) * k; }
};

/// The four neighbour rows of a row (a zero row outside non-periodic sides: a wall couples
/// nothing and an open face has p = 0 outside).
struct Rows
{
    const float *ym, *yp, *zm, *zp;
};

Rows neighbourRows(const Level &l, const float *v, const float *zero, int j, int k)
{
    Rows r;
    r.ym = j > 0 ? v + l.row(j - 1, k) : (l.periodic[1] ? v + l.row(l.n.y - 1, k) : zero);
    r.yp = j + 1 < l.n.y ? v + l.row(j + 1, k) : (l.periodic[1] ? v + l.row(0, k) : zero);
    r.zm = k > 0 ? v + l.row(j, k - 1) : (l.periodic[2] ? v + l.row(j, l.n.z - 1) : zero);
    r.zp = k + 1 < l.n.z ? v + l.row(j, k + 1) : (l.periodic[2] ? v + l.row(j, 0) : zero);
    return r;
}

// v where keep, else +0: a bitwise select, which vectorizes where a float compare would not.
inline float keepIf(std::uint32_t keep, float v)
{
    return std::bit_cast<float>(std::bit_cast<std::uint32_t>(v) & (0u - keep));
}

// v / diag; a cell without open faces divides by 1 (callers mask it).
inline float overDiag(float v, std::uint32_t d)
{
    return v / float(d | std::uint32_t(d == 0));
}

// Calls cell(i, sum of the neighbours of i) for i = first, first + kStep, ... < nx. The centre
// row `c` must be the pointer that `cell` writes through, so that the compiler sees the
// red-black independence and vectorizes the interior loop.
template<bool k3D, int kStep, class Cell>
inline void forCells(const float *c, const Rows &r, int nx, bool px, int first, Cell &&cell)
{
    auto edge = [&](int i) {
        const float lo = i > 0 ? c[i - 1] : (px ? c[nx - 1] : 0.f);
        const float hi = i + 1 < nx ? c[i + 1] : (px ? c[0] : 0.f);
        float s = lo + hi + r.ym[i] + r.yp[i];
        if constexpr (k3D)
            s += r.zm[i] + r.zp[i];
        cell(i, s);
    };
    int i = first;
    if (i == 0) {
        edge(0);
        i = kStep;
    }
    for (; i < nx - 1; i += kStep) {
        float s = c[i - 1] + c[i + 1] + r.ym[i] + r.yp[i];
        if constexpr (k3D)
            s += r.zm[i] + r.zp[i];
        cell(i, s);
    }
    if (i == nx - 1)
        edge(i);
}

/// forEachRow with a scratch buffer of `len` floats per chunk of rows (no row reads what an
/// earlier row left in it, so results do not depend on the chunking).
template<class F>
void forEachRowScratch(Int3 size, std::size_t len, F &&body)
{
    const std::int64_t ny = size.y;
    detail::forRowChunks(std::int64_t(size.y) * size.z, [&](std::int64_t b, std::int64_t e) {
        std::vector<float> scratch(len);
        for (std::int64_t r = b; r < e; ++r)
            body(int(r % ny), int(r / ny), scratch.data());
    });
}

// Largest |v[i]| of a row; +inf when a NaN is present. Non-negative floats order like their
// bit patterns (NaN above inf), so the maximum is taken on integers.
inline double rowAbsMax(const float *v, int n)
{
    std::uint32_t m = 0;
    for (int i = 0; i < n; ++i)
        m = std::max(m, std::bit_cast<std::uint32_t>(v[i]) & 0x7fffffffu);
    return m > 0x7f800000u ? std::numeric_limits<double>::infinity()
                           : double(std::bit_cast<float>(m));
}

// Sum of a[i] * b[i] (b == nullptr: of a[i]) in double, over four fixed lanes.
inline double rowDot(const float *a, const float *b, int n)
{
    double lane[4] = {0.0, 0.0, 0.0, 0.0};
    int i = 0;
    for (; i + 4 <= n; i += 4)
        for (int q = 0; q < 4; ++q)
            lane[q] += double(a[i + q]) * (b ? double(b[i + q]) : 1.0);
    for (; i < n; ++i)
        lane[0] += double(a[i]) * (b ? double(b[i]) : 1.0);
    return (lane[0] + lane[1]) + (lane[2] + lane[3]);
}

// The preconditioner's start in z: r / diag on red cells (on every cell when `every`), else 0.
inline void startRow(const float *r, float *z, const std::uint8_t *f, int nx, std::uint32_t p0,
                     std::uint32_t every)
{
    for (int i = 0; i < nx; ++i) {
        const std::uint32_t d = f[i] & kDiagBits;
        const std::uint32_t red = ((std::uint32_t(i) ^ p0) & 1u) ^ 1u;
        z[i] = keepIf((red | every) & std::uint32_t(d != 0), overDiag(r[i], d));
    }
}

// r.z, sum z and sum r of a row, into out[0..2].
inline void rowDots(const float *r, const float *z, int nx, double *out)
{
    out[0] = rowDot(r, z, nx);
    out[1] = rowDot(z, nullptr, nx);
    out[2] = rowDot(r, nullptr, nx);
}

// Calls f(i, D) with D = face-flux difference (u[i+1]-u[i]) + (v[j+1]-v[j]) + (w[k+1]-w[k]).
template<bool k3D, class F>
inline void forDivergenceRow(const MacGrid &vel, int j, int k, F &&f)
{
    const int nx = vel.cells().x;
    const float *u = vel.u.data() + vel.u.index(0, j, k);
    const float *v0 = vel.v.data() + vel.v.index(0, j, k);
    const float *v1 = vel.v.data() + vel.v.index(0, j + 1, k);
    if constexpr (k3D) {
        const float *w0 = vel.w.data() + vel.w.index(0, j, k);
        const float *w1 = vel.w.data() + vel.w.index(0, j, k + 1);
        for (int i = 0; i < nx; ++i)
            f(i, (u[i + 1] - u[i]) + (v1[i] - v0[i]) + (w1[i] - w0[i]));
    } else {
        for (int i = 0; i < nx; ++i)
            f(i, (u[i + 1] - u[i]) + (v1[i] - v0[i]));
    }
}

// Periodic axes must have an even size on every level so that red-black is a true colouring.
bool colouringHolds(const Level &l)
{
    for (int a = 0; a < 3; ++a) {
        if (l.periodic[std::size_t(a)] && l.n[a] % 2 != 0)
            return false;
    }
    return true;
}

/// One tap of the 1D transfer operators: an index (-1 = none) and the sign of its weight.
struct Tap
{
    int index;
    float sign;
};

// Fine tap i of the restriction gather for a coarse cell (fine cells 2I-1 .. 2I+2), with the
// ghost rules that make it the exact transpose of prolongTap: wrap across periodic sides,
// reflect at the others (sign +1 at walls, -1 at open faces where p = 0 outside).
inline Tap gatherTap(int i, int n, bool periodic, float loSign, float hiSign)
{
    if (i < 0)
        return periodic ? Tap{n - 1, 1.f} : Tap{0, loSign};
    if (i >= n) {
        if (periodic)
            return {i - n, 1.f};
        return (n % 2 == 0 && i == n) ? Tap{n - 1, hiSign} : Tap{-1, 0.f};
    }
    return {i, 1.f};
}

// Coarse partner of fine cell i in linear prolongation (besides i / 2, weight 3/4 against 1/4).
inline Tap prolongTap(int i, int nc, bool periodic, float loSign, float hiSign)
{
    const int c = (i & 1) ? i / 2 + 1 : i / 2 - 1;
    if (c < 0)
        return periodic ? Tap{nc - 1, 1.f} : Tap{0, loSign};
    if (c >= nc)
        return periodic ? Tap{0, 1.f} : Tap{nc - 1, hiSign};
    return {c, 1.f};
}

} // namespace

struct PressureSolver::Impl
{
    Domain domain;
    bool ready = false;
    bool singular = false;         // no Dirichlet face: A has constants in its null space
    bool multigridUsable = false;  // the fine level admits a red-black colouring
    double activeCells = 0.0;      // cells with at least one open face
    std::vector<Level> levels;     // levels[0] is the fine grid (its vectors live outside)
    std::vector<float> zeroRow;
    std::vector<std::uint8_t> fluidRow;

    struct Dots
    {
        double rz = 0.0, sumZ = 0.0, sumR = 0.0;
    };
    // Adds per-row (r.z, sum z, sum r) triples in row order.
    static Dots sumDots(const std::vector<double> &partial)
    {
        Dots d;
        for (std::size_t n = 0; n + 2 < partial.size(); n += 3) {
            d.rz += partial[n];
            d.sumZ += partial[n + 1];
            d.sumR += partial[n + 2];
        }
        return d;
    }

    /// Cells of the pockets (fluid regions with no open face), in compressed rows.
    struct Pockets
    {
        std::vector<std::uint32_t> cells, start{0};
        std::size_t count() const { return start.size() - 1; }
    } pockets;

    std::int64_t neighbour(const Level &l, int i, int j, int k, int axis, int side,
                           Boundary *boundary) const;
    double buildFlags(Level &l, const std::vector<std::int32_t> &label);
    int labelRegions(const Level &l, std::vector<std::int32_t> &label);
    int prolongTaps(const Level &f, const Level &c, int i, int j, int k, std::uint32_t *taps,
                    float *weights) const;
    void buildTransferFix(const Level &f, const std::vector<std::int32_t> &fineLabel, Level &c,
                          const std::vector<std::int32_t> &coarseLabel);
    void buildHierarchy(const std::vector<std::uint8_t> &fineFluid);

    template<bool k3D, bool kResidual = false>
    void sweep(Level &l, float *x, const float *b, int colour,
               std::vector<double> *partial = nullptr);
    template<bool k3D> void restrictResidual(const Level &f, const float *x, Level &c);
    template<bool k3D> void prolongIntoRed(Level &f, float *x, const float *b, const Level &c);
    template<bool k3D> Dots vcycle(int level, float *x, const float *b);

    template<bool k3D> double applyOperator(const float *s, float *q);
    double updateResidual(float *r, float *zq, float alpha, bool diagonal, Dots &dots);
    void updateDirection(float *x, float *s, const float *z, float alpha, float beta, float zm);
    void addScaled(float *x, const float *s, float alpha);
    enum class Outcome { Converged, Budget, Breakdown };
    double removePocketMeans(float *v, const float *r);
    double maxAbs(const float *v) const;
    template<bool k3D> double loadDivergence(const MacGrid &vel, float *r);
    template<bool k3D> double residualPass(float *r, float *z, const float *x, float meanB, bool mg,
                                           Dots &dots, double &maxR);
    template<bool k3D> Outcome iterate(float *x, float *r, float *z, float *s, bool mg, Dots dots,
                                       double &maxR, double target, int budget, bool watch,
                                       int &iterations);
    template<bool k3D> SolveResult solve(MacGrid &vel, ScalarGrid &pressure, float dt,
                                         const PressureSettings &settings, Workspace &work);
    template<bool k3D> void subtractGradient(MacGrid &vel, const float *x);
};

// Index of the neighbour of cell (i, j, k) across face `side` (0: low, 1: high) of `axis`, or
// -1 outside a side that does not wrap; `boundary` gets that side's mode when outside.
std::int64_t PressureSolver::Impl::neighbour(const Level &l, int i, int j, int k, int axis,
                                             int side, Boundary *boundary) const
{
    const int along = axis == 0 ? i : (axis == 1 ? j : k);
    const int next = along + (side ? 1 : -1);
    const std::int64_t cell = std::int64_t(l.row(j, k)) + i;
    const std::int64_t stride = axis == 0 ? 1 : (axis == 1 ? l.n.x : std::int64_t(l.n.x) * l.n.y);
    if (next >= 0 && next < l.n[axis])
        return cell + (side ? stride : -stride);
    const Boundary mode = domain.boundary(axis, side == 1);
    if (boundary)
        *boundary = mode;
    if (mode != Boundary::Periodic)
        return -1;
    return cell + (side ? -stride : stride) * (l.n[axis] - 1);
}

// Diagonal = open faces: neighbours of the same region (periodic faces wrap) plus open domain
// faces; cells with label < 0 are not fluid. Where active neighbours of different regions meet,
// builds `faces`. Returns the number of open domain faces of fluid cells.
double PressureSolver::Impl::buildFlags(Level &l, const std::vector<std::int32_t> &label)
{
    const Int3 n = l.n;
    const int axes = domain.is2D() ? 2 : 3;
    l.flags.assign(std::size_t(n.volume()), 0);
    std::vector<std::uint8_t> faces(std::size_t(n.volume()), 0);
    std::vector<std::uint8_t> rowMixed(std::size_t(n.y) * std::size_t(n.z), 0);
    const std::int32_t *lab = label.data();
    // A neighbour row (nullptr outside a side that does not wrap) and that side's mode.
    auto rowAt = [&](int j, int k, int axis, int side, Boundary &mode) -> const std::int32_t * {
        int idx[3] = {0, j, k};
        idx[axis] += side ? 1 : -1;
        if (idx[axis] < 0 || idx[axis] >= n[axis]) {
            mode = domain.boundary(axis, side == 1);
            if (mode != Boundary::Periodic)
                return nullptr;
            idx[axis] = idx[axis] < 0 ? n[axis] - 1 : 0;
        }
        return lab + l.row(idx[1], idx[2]);
    };
    const Boundary xlo = domain.boundary(0, false), xhi = domain.boundary(0, true);
    const double dirichlet = sumRows(n, [&](int j, int k) {
        const std::size_t base = l.row(j, k);
        const std::int32_t *row = lab + base;
        const std::int32_t *nb[4];
        Boundary mode[4] = {Boundary::Wall, Boundary::Wall, Boundary::Wall, Boundary::Wall};
        for (int a = 1; a < 3; ++a) {
            for (int side = 0; side < 2; ++side) {
                const int q = 2 * (a - 1) + side;
                nb[q] = a < axes ? rowAt(j, k, a, side, mode[q]) : nullptr;
            }
        }
        double open = 0.0;
        bool mixed = false;
        for (int i = 0; i < n.x; ++i) {
            const std::int32_t own = row[i];
            if (own < 0)
                continue;
            int diag = 0;
            std::uint8_t bits = 0;
            auto face = [&](const std::int32_t *other, Boundary m, int bit) {
                if (!other) {
                    diag += m == Boundary::Open;
                    open += m == Boundary::Open ? 1.0 : 0.0;
                } else if (*other == own) {
                    ++diag;
                    bits |= std::uint8_t(1u << bit);
                } else if (*other >= 0) {
                    mixed = true;
                }
            };
            face(i > 0 ? row + i - 1 : (xlo == Boundary::Periodic ? row + n.x - 1 : nullptr), xlo,
                 0);
            face(i + 1 < n.x ? row + i + 1 : (xhi == Boundary::Periodic ? row : nullptr), xhi, 1);
            for (int q = 0; q < 2 * (axes - 1); ++q)
                face(nb[q] ? nb[q] + i : nullptr, mode[q], q + 2);
            l.flags[base + std::size_t(i)] = std::uint8_t(diag | kFluidBit);
            faces[base + std::size_t(i)] = bits;
        }
        rowMixed[l.rowIndex(j, k)] = mixed;
        return open;
    });
    l.faces.clear();
    if (std::find(rowMixed.begin(), rowMixed.end(), 1) != rowMixed.end())
        l.faces.swap(faces);
    return dirichlet;
}

// Connected regions of active fine cells: two-pass labelling with union-find over the low
// neighbours (and the wrap of periodic axes), numbered in the order of their first cell, so the
// numbering is the same on every run. Fills `label` (-1 for inactive cells) and the pockets: the
// regions with no open domain face, whose pressure is defined only up to a constant.
int PressureSolver::Impl::labelRegions(const Level &l, std::vector<std::int32_t> &label)
{
    const Int3 n = l.n;
    const int axes = domain.is2D() ? 2 : 3;
    const std::int64_t count = n.volume();
    std::vector<std::int32_t> parent(std::size_t(count), -1);
    auto find = [&](std::int32_t c) {
        while (parent[std::size_t(c)] != c) {
            parent[std::size_t(c)] = parent[std::size_t(parent[std::size_t(c)])];
            c = parent[std::size_t(c)];
        }
        return c;
    };
    auto unite = [&](std::int32_t a, std::int32_t b) {
        a = find(a);
        b = find(b);
        if (a != b)
            parent[std::size_t(std::max(a, b))] = std::min(a, b);
    };
    auto active = [&](std::int64_t c) { return (l.flags[std::size_t(c)] & kDiagBits) != 0; };
    std::vector<std::uint8_t> open(std::size_t(count), 0);
    for (int k = 0; k < n.z; ++k) {
        for (int j = 0; j < n.y; ++j) {
            const std::int64_t base = std::int64_t(l.row(j, k));
            const bool edgeRow = j == 0 || j == n.y - 1 || k == 0 || k == n.z - 1;
            for (int i = 0; i < n.x; ++i) {
                const std::int64_t c = base + i;
                if (!active(c))
                    continue;
                // Join the run on the left; unite with the cells below only where their sets
                // may differ (most neighbours already share the parent).
                parent[std::size_t(c)] =
                    i > 0 && active(c - 1) ? find(std::int32_t(c - 1)) : std::int32_t(c);
                const std::int64_t below[2] = {j > 0 ? c - n.x : -1,
                                               k > 0 ? c - std::int64_t(n.x) * n.y : -1};
                for (int b = 0; b < axes - 1; ++b) {
                    if (below[b] >= 0 && active(below[b])
                        && parent[std::size_t(below[b])] != parent[std::size_t(c)])
                        unite(std::int32_t(c), std::int32_t(below[b]));
                }
                if (!edgeRow && i > 0 && i < n.x - 1)
                    continue;
                for (int a = 0; a < axes; ++a) {
                    for (int side = 0; side < 2; ++side) {
                        Boundary mode = Boundary::Wall;
                        const std::int64_t nb = neighbour(l, i, j, k, a, side, &mode);
                        if (nb < 0)
                            open[std::size_t(c)] |= mode == Boundary::Open;
                        else if (nb < c && parent[std::size_t(nb)] >= 0)
                            unite(std::int32_t(c), std::int32_t(nb)); // across a periodic wrap
                    }
                }
            }
        }
    }
    label.assign(std::size_t(count), -1);
    std::vector<std::int32_t> regionOf(std::size_t(count), -1); // root -> region
    std::vector<std::uint8_t> regionOpen;
    int regions = 0;
    for (std::int64_t c = 0; c < count; ++c) {
        if (parent[std::size_t(c)] < 0)
            continue;
        const std::int32_t root = find(std::int32_t(c));
        if (regionOf[std::size_t(root)] < 0) {
            regionOf[std::size_t(root)] = regions++;
            regionOpen.push_back(0);
        }
        const std::int32_t r = regionOf[std::size_t(root)];
        label[std::size_t(c)] = r;
        regionOpen[std::size_t(r)] |= open[std::size_t(c)];
    }
    // Pockets in compressed rows, cells in index order.
    pockets.start.assign(1, 0);
    pockets.cells.clear();
    std::vector<std::uint32_t> sizes(std::size_t(regions), 0);
    for (std::int64_t c = 0; c < count; ++c) {
        if (label[std::size_t(c)] >= 0 && !regionOpen[std::size_t(label[std::size_t(c)])])
            ++sizes[std::size_t(label[std::size_t(c)])];
    }
    std::vector<std::int32_t> pocketOf(std::size_t(regions), -1);
    for (int r = 0; r < regions; ++r) {
        if (regionOpen[std::size_t(r)])
            continue;
        pocketOf[std::size_t(r)] = std::int32_t(pockets.start.size() - 1);
        pockets.start.push_back(pockets.start.back() + sizes[std::size_t(r)]);
    }
    pockets.cells.resize(pockets.start.back());
    std::vector<std::uint32_t> fill(pockets.start.begin(), pockets.start.end() - 1);
    for (std::int64_t c = 0; c < count; ++c) {
        const std::int32_t r = label[std::size_t(c)];
        if (r >= 0 && pocketOf[std::size_t(r)] >= 0)
            pockets.cells[fill[std::size_t(pocketOf[std::size_t(r)])]++] = std::uint32_t(c);
    }
    return regions;
}

// The (up to eight) coarse taps of linear prolongation into fine cell (i, j, k), as in
// prolongIntoRed, with their weights (ghost signs included).
int PressureSolver::Impl::prolongTaps(const Level &f, const Level &c, int i, int j, int k,
                                      std::uint32_t *taps, float *weights) const
{
    const bool k3D = !domain.is2D();
    const float *sg = f.ghostSign.data();
    Tap tx[2] = {{i / 2, kNear}, prolongTap(i, c.n.x, c.periodic[0], sg[0], sg[1])};
    Tap ty[2] = {{j / 2, kNear}, prolongTap(j, c.n.y, c.periodic[1], sg[2], sg[3])};
    Tap tz[2] = {{k3D ? k / 2 : 0, k3D ? kNear : 1.f},
                 k3D ? prolongTap(k, c.n.z, c.periodic[2], sg[4], sg[5]) : Tap{-1, 0.f}};
    tx[1].sign *= kFar;
    ty[1].sign *= kFar;
    tz[1].sign *= kFar;
    int count = 0;
    for (const Tap &z : tz) {
        for (const Tap &y : ty) {
            for (const Tap &x : tx) {
                if (z.index < 0)
                    continue;
                taps[count] = std::uint32_t(c.row(y.index, z.index) + std::size_t(x.index));
                weights[count++] = x.sign * y.sign * z.sign;
            }
        }
    }
    return count;
}

// Finds the fine red cells and coarse cells whose transfer taps reach across regions and lists
// their taps within the region (see Level).
void PressureSolver::Impl::buildTransferFix(const Level &f, const std::vector<std::int32_t> &fineLabel,
                                            Level &c, const std::vector<std::int32_t> &coarseLabel)
{
    struct Entry
    {
        std::uint32_t coarse, fine;
        float weight;
    };
    std::vector<std::uint8_t> coarseMark(std::size_t(c.n.volume()), 0);
    std::vector<Entry> gathered;
    c.prolongFix = {};
    c.restrictFix = {};
    c.prolongFix.start.push_back(0);
    std::uint32_t taps[8];
    float weights[8];
    for (int pass = 0; pass < 2; ++pass) {
        for (int k = 0; k < f.n.z; ++k) {
            for (int j = 0; j < f.n.y; ++j) {
                for (int i = (j + k) & 1; i < f.n.x; i += 2) { // red cells
                    const std::size_t cell = f.row(j, k) + std::size_t(i);
                    const std::int32_t own = fineLabel[cell];
                    if (own < 0)
                        continue;
                    const int count = prolongTaps(f, c, i, j, k, taps, weights);
                    bool conflict = false;
                    for (int t = 0; t < count; ++t) {
                        const std::int32_t other = coarseLabel[taps[t]];
                        if (pass == 0 && other >= 0 && other != own) {
                            conflict = true;
                            coarseMark[taps[t]] = 1;
                        }
                        if (pass == 1 && other == own && coarseMark[taps[t]])
                            gathered.push_back({taps[t], std::uint32_t(cell), weights[t]});
                    }
                    if (!conflict)
                        continue;
                    c.prolongFix.cells.push_back(std::uint32_t(cell));
                    for (int t = 0; t < count; ++t) {
                        if (coarseLabel[taps[t]] == own) {
                            c.prolongFix.taps.push_back(taps[t]);
                            c.prolongFix.weights.push_back(weights[t]);
                        }
                    }
                    c.prolongFix.start.push_back(std::uint32_t(c.prolongFix.taps.size()));
                }
            }
        }
        if (c.prolongFix.cells.empty())
            return;
    }
    std::stable_sort(gathered.begin(), gathered.end(),
                     [](const Entry &a, const Entry &b) { return a.coarse < b.coarse; });
    c.restrictFix.start.push_back(0);
    for (std::uint32_t cell = 0; cell < coarseMark.size(); ++cell) {
        if (coarseMark[cell])
            c.restrictFix.cells.push_back(cell);
    }
    std::size_t g = 0;
    for (std::uint32_t cell : c.restrictFix.cells) {
        for (; g < gathered.size() && gathered[g].coarse == cell; ++g) {
            c.restrictFix.taps.push_back(gathered[g].fine);
            c.restrictFix.weights.push_back(gathered[g].weight);
        }
        c.restrictFix.start.push_back(std::uint32_t(c.restrictFix.taps.size()));
    }
}

// Cell-centred levels coarsened by 2 per axis (rounding up). A coarse cell is fluid when its
// active children belong to one region (McAdams, Sifakis and Teran 2010, section 4, with the
// regions kept apart), and it takes that region.
void PressureSolver::Impl::buildHierarchy(const std::vector<std::uint8_t> &fineFluid)
{
    const int axes = domain.is2D() ? 2 : 3;
    levels.clear();
    levels.emplace_back();
    levels[0].n = domain.cells;
    for (int a = 0; a < axes; ++a) {
        levels[0].periodic[std::size_t(a)] = domain.boundary(a, false) == Boundary::Periodic;
        for (int side = 0; side < 2; ++side) {
            const bool open = domain.boundary(a, side == 1) == Boundary::Open;
            levels[0].ghostSign[std::size_t(2 * a + side)] = open ? -1.f : 1.f;
        }
    }
    std::vector<std::int32_t> label(fineFluid.size());
    for (std::size_t c = 0; c < label.size(); ++c)
        label[c] = fineFluid[c] ? 0 : -1;
    const double dirichlet = buildFlags(levels[0], label);
    const int regions = labelRegions(levels[0], label);
    // One region without an open face: the fused all-cells mean removal serves it.
    singular = dirichlet == 0.0 && regions == 1;
    if (singular)
        pockets = {};
    multigridUsable = colouringHolds(levels[0]);

    while (multigridUsable && int(levels.size()) < kMaxLevels) {
        const Level &f = levels.back();
        const int longest = std::max({f.n.x, f.n.y, f.n.z});
        if (longest <= kCoarsestSide)
            break;
        Level c;
        c.periodic = f.periodic;
        c.ghostSign = f.ghostSign;
        c.n = f.n;
        for (int a = 0; a < axes; ++a)
            c.n[a] = (f.n[a] + 1) / 2;
        if (!colouringHolds(c))
            break;
        std::vector<std::int32_t> coarseLabel(std::size_t(c.n.volume()), -1);
        forEachRow(c.n, [&](int j, int k) {
            for (int i = 0; i < c.n.x; ++i) {
                std::int32_t one = -1;
                bool mixed = false;
                for (int dk = 0; dk < (axes == 3 ? 2 : 1); ++dk) {
                    for (int dj = 0; dj < 2; ++dj) {
                        for (int di = 0; di < 2; ++di) {
                            const int fi = 2 * i + di, fj = 2 * j + dj;
                            const int fk = axes == 3 ? 2 * k + dk : k;
                            if (fi >= f.n.x || fj >= f.n.y || fk >= f.n.z)
                                continue;
                            const std::int32_t l = label[f.row(fj, fk) + std::size_t(fi)];
                            mixed = mixed || (l >= 0 && one >= 0 && l != one);
                            one = l >= 0 ? l : one;
                        }
                    }
                }
                coarseLabel[c.row(j, k) + std::size_t(i)] = mixed ? -1 : one;
            }
        });
        buildFlags(c, coarseLabel);
        for (std::size_t cell = 0; cell < coarseLabel.size(); ++cell) {
            if (!(c.flags[cell] & kDiagBits))
                coarseLabel[cell] = -1;
        }
        if (regions > 1)
            buildTransferFix(f, label, c, coarseLabel);
        c.x.assign(std::size_t(c.n.volume()), 0.f);
        c.b.assign(std::size_t(c.n.volume()), 0.f);
        levels.push_back(std::move(c));
        label.swap(coarseLabel);
    }
}

// Gauss-Seidel over the cells of one colour: x = (b + sum of neighbours) / diag. With
// kResidual, red cells get b - A x instead, for a start of red = b / diag followed by one black
// sweep: black residuals then vanish and red ones reduce to the sum of the (black) neighbours.
// Storing them in place of x_red (which prolongIntoRed recomputes) keeps the fine level within
// the three workspace grids. With `partial`, also the row's r.z, sum z and sum r.
template<bool k3D, bool kResidual>
void PressureSolver::Impl::sweep(Level &l, float *x, const float *b, int colour,
                                 std::vector<double> *partial)
{
    const bool px = l.periodic[0];
    const int nx = l.n.x;
    forEachRow(l.n, [&](int j, int k) {
        const std::size_t o = l.row(j, k);
        float *xr = x + o;
        const float *br = b + o;
        const std::uint8_t *f = l.flags.data() + o;
        const Rows rows = neighbourRows(l, x, zeroRow.data(), j, k);
        auto update = [&](int i, float s) {
            const std::uint32_t d = f[i] & kDiagBits;
            xr[i] = keepIf(d != 0, kResidual ? s : overDiag(br[i] + s, d));
        };
        if (l.faces.empty()) {
            forCells<k3D, 2>(xr, rows, nx, px, (j + k + colour) & 1, update);
        } else {
            // Neighbours of another region are not coupled: sum only those `faces` names.
            const std::uint8_t *fb = l.faces.data() + o;
            for (int i = (j + k + colour) & 1; i < nx; i += 2) {
                const std::uint32_t m = fb[i];
                float s = keepIf(m & 1u, i > 0 ? xr[i - 1] : xr[nx - 1])
                          + keepIf((m >> 1) & 1u, i + 1 < nx ? xr[i + 1] : xr[0])
                          + keepIf((m >> 2) & 1u, rows.ym[i]) + keepIf((m >> 3) & 1u, rows.yp[i]);
                if constexpr (k3D)
                    s += keepIf((m >> 4) & 1u, rows.zm[i]) + keepIf((m >> 5) & 1u, rows.zp[i]);
                update(i, s);
            }
        }
        if (partial)
            rowDots(br, xr, nx, &(*partial)[3 * l.rowIndex(j, k)]);
    });
}

// Coarse rhs = 4 / 2^dim * P^T (red residuals): the transpose of linear prolongation, scaled
// for the rediscretised coarse operator (h doubles, so A_2h ~ 4 A_h).
template<bool k3D>
void PressureSolver::Impl::restrictResidual(const Level &f, const float *x, Level &c)
{
    const float scale = k3D ? 0.5f : 1.f;
    const int nx = f.n.x;
    const bool px = f.periodic[0];
    // Rows whose red cells sit at even i accumulate whole into `ev`, the others into `od`; only
    // red entries are read back, so both accumulations run contiguously.
    forEachRowScratch(c.n, 2 * (std::size_t(nx) + 3), [&](int J, int K, float *g) {
        std::fill(g, g + 2 * (nx + 3), 0.f);
        float *ev = g + 1, *od = g + nx + 4; // each indexed -1 .. nx + 1
        const float wts[4] = {kFar, kNear, kNear, kFar};
        const float *sg = f.ghostSign.data();
        for (int a = 0; a < 4; ++a) {
            const Tap ty = gatherTap(2 * J - 1 + a, f.n.y, f.periodic[1], sg[2], sg[3]);
            for (int bz = 0; bz < (k3D ? 4 : 1) && ty.index >= 0; ++bz) {
                const Tap tz = k3D ? gatherTap(2 * K - 1 + bz, f.n.z, f.periodic[2], sg[4], sg[5])
                                   : Tap{0, 1.f};
                if (tz.index < 0)
                    continue;
                const float w = wts[a] * ty.sign * (k3D ? wts[bz] * tz.sign : 1.f);
                const float *src = x + f.row(ty.index, tz.index);
                float *acc = ((ty.index + tz.index) & 1) ? od : ev;
                for (int i = 0; i < nx; ++i)
                    acc[i] += w * src[i];
            }
        }
        auto fineAt = [&](int i) { return (i & 1) ? od[i] : ev[i]; };
        const float lo = px ? fineAt(nx - 1) : sg[0] * fineAt(0);
        const float hi = px ? fineAt(0) : (nx % 2 == 0 ? sg[1] * fineAt(nx - 1) : 0.f);
        od[-1] = lo;
        ((nx & 1) ? od : ev)[nx] = hi;
        ((nx & 1) ? ev : od)[nx + 1] = 0.f;
        float *out = c.b.data() + c.row(J, K);
        const std::uint8_t *cf = c.flags.data() + c.row(J, K);
        for (int I = 0; I < c.n.x; ++I) {
            const float v = kFar * od[2 * I - 1] + kNear * ev[2 * I] + kNear * od[2 * I + 1]
                            + kFar * ev[2 * I + 2];
            out[I] = keepIf((cf[I] & kDiagBits) != 0, scale * v);
        }
    });
    const TransferFix &fix = c.restrictFix;
    forEachIndex(std::int64_t(fix.cells.size()), [&](std::int64_t n) {
        float v = 0.f;
        for (std::uint32_t t = fix.start[std::size_t(n)]; t < fix.start[std::size_t(n) + 1]; ++t)
            v += fix.weights[t] * x[fix.taps[t]];
        c.b[fix.cells[std::size_t(n)]] = scale * v;
    });
}

// Red cells: x = b / diag + P x_coarse (trilinear, cell-centred; across a wall the ghost is the
// edge value, across an open face its negative since p = 0 on the face, across a periodic side
// the wrapped value), zero where inactive. Black cells are left alone: the
// black sweep that follows overwrites them.
template<bool k3D>
void PressureSolver::Impl::prolongIntoRed(Level &f, float *x, const float *b, const Level &c)
{
    const int ncx = c.n.x;
    const bool px = f.periodic[0];
    forEachRowScratch(f.n, std::size_t(ncx) + 2, [&](int j, int k, float *t) {
        std::fill(t, t + ncx + 2, 0.f);
        float *coarse = t + 1; // coarse[-1 .. ncx]
        const float *sg = f.ghostSign.data();
        const Tap py = prolongTap(j, c.n.y, c.periodic[1], sg[2], sg[3]);
        const Tap pz = k3D ? prolongTap(k, c.n.z, c.periodic[2], sg[4], sg[5]) : Tap{0, 0.f};
        const int js[2] = {j / 2, py.index};
        const int ks[2] = {k3D ? k / 2 : 0, pz.index};
        const float wy[2] = {kNear, kFar * py.sign};
        const float wz[2] = {kNear, kFar * pz.sign};
        for (int a = 0; a < 2; ++a) {
            for (int bz = 0; bz < (k3D ? 2 : 1); ++bz) {
                const float w = wy[a] * (k3D ? wz[bz] : 1.f);
                const float *src = c.x.data() + c.row(js[a], ks[bz]);
                for (int I = 0; I < ncx; ++I)
                    coarse[I] += w * src[I];
            }
        }
        coarse[-1] = px ? coarse[ncx - 1] : sg[0] * coarse[0];
        coarse[ncx] = px ? coarse[0] : sg[1] * coarse[ncx - 1];
        const std::size_t o = f.row(j, k);
        float *xr = x + o;
        const float *br = b + o;
        const std::uint8_t *fl = f.flags.data() + o;
        const int p0 = (j + k) & 1; // red cells are i = 2m + p0, between coarse m and m -+ 1
        const float *partner = coarse + (p0 ? 1 : -1);
        const int count = (f.n.x - p0 + 1) / 2;
        for (int m = 0; m < count; ++m) {
            const int i = 2 * m + p0;
            const std::uint32_t d = fl[i] & kDiagBits;
            xr[i] = keepIf(d != 0, overDiag(br[i], d) + (kNear * coarse[m] + kFar * partner[m]));
        }
    });
    const TransferFix &fix = c.prolongFix;
    forEachIndex(std::int64_t(fix.cells.size()), [&](std::int64_t n) {
        const std::uint32_t cell = fix.cells[std::size_t(n)];
        float v = 0.f;
        for (std::uint32_t t = fix.start[std::size_t(n)]; t < fix.start[std::size_t(n) + 1]; ++t)
            v += fix.weights[t] * c.x[fix.taps[t]];
        x[cell] = overDiag(b[cell], f.flags[cell] & kDiagBits) + v;
    });
}

// Symmetric V-cycle from a zero guess: pre-smooth red then black, post-smooth black then red, so
// that the preconditioner is symmetric positive definite (McAdams et al. 2010, section 3). On
// the fine level the red start x = b / diag was written by startRow in the residual pass.
template<bool k3D>
PressureSolver::Impl::Dots PressureSolver::Impl::vcycle(int level, float *x, const float *b)
{
    Level &l = levels[std::size_t(level)];
    std::vector<double> partial(level == 0 ? 3 * std::size_t(l.n.y) * l.n.z : 0);
    std::vector<double> *dots = level == 0 ? &partial : nullptr;
    if (level > 0) {
        forEachRow(l.n, [&](int j, int k) {
            const std::size_t o = l.row(j, k);
            startRow(b + o, x + o, l.flags.data() + o, l.n.x, std::uint32_t(j + k) & 1u, 0u);
        });
    }
    if (level + 1 == int(levels.size())) {
        for (int s = 0; s < kCoarsestSweeps; ++s) {
            sweep<k3D>(l, x, b, kBlack);
            sweep<k3D>(l, x, b, kRed, s + 1 == kCoarsestSweeps ? dots : nullptr);
        }
        return sumDots(partial);
    }
    sweep<k3D>(l, x, b, kBlack);
    sweep<k3D, true>(l, x, b, kRed);
    Level &c = levels[std::size_t(level) + 1];
    restrictResidual<k3D>(l, x, c);
    vcycle<k3D>(level + 1, c.x.data(), c.b.data());
    prolongIntoRed<k3D>(l, x, b, c);
    sweep<k3D>(l, x, b, kBlack);
    sweep<k3D>(l, x, b, kRed, dots);
    return sumDots(partial);
}

// q = A s on the fine level; returns s.q (double, row order).
template<bool k3D>
double PressureSolver::Impl::applyOperator(const float *s, float *q)
{
    const Level &l = levels[0];
    const bool px = l.periodic[0];
    return sumRows(l.n, [&](int j, int k) {
        const std::size_t o = l.row(j, k);
        const float *sr = s + o;
        float *qr = q + o;
        const std::uint8_t *f = l.flags.data() + o;
        forCells<k3D, 1>(sr, neighbourRows(l, s, zeroRow.data(), j, k), l.n.x, px, 0,
                         [&](int i, float sum) {
                             const std::uint32_t d = f[i] & kDiagBits;
                             qr[i] = keepIf(d != 0, float(d) * sr[i] - sum);
                         });
        return rowDot(sr, qr, l.n.x);
    });
}

// r -= alpha q, then the preconditioner's start in q's buffer (startRow). Returns max |r| (+inf
// on NaN); for the diagonal preconditioner also fills its dots.
double PressureSolver::Impl::updateResidual(float *r, float *zq, float alpha, bool diagonal,
                                            Dots &dots)
{
    const Level &l = levels[0];
    const int nx = l.n.x;
    std::vector<double> partial(diagonal ? 3 * std::size_t(l.n.y) * l.n.z : 0);
    const double maxR = maxRows(l.n, [&](int j, int k) {
        const std::size_t o = l.row(j, k);
        float *rr = r + o, *zr = zq + o;
        for (int i = 0; i < nx; ++i)
            rr[i] -= alpha * zr[i];
        startRow(rr, zr, l.flags.data() + o, nx, std::uint32_t(j + k) & 1u, diagonal);
        if (diagonal)
            rowDots(rr, zr, nx, &partial[3 * l.rowIndex(j, k)]);
        return rowAbsMax(rr, nx);
    });
    dots = sumDots(partial);
    return maxR;
}

// x += alpha s (the previous step, deferred to share this pass), then s = (z - mean z) + beta s.
void PressureSolver::Impl::updateDirection(float *x, float *s, const float *z, float alpha,
                                           float beta, float zm)
{
    const Level &l = levels[0];
    forEachRow(l.n, [&](int j, int k) {
        const std::size_t o = l.row(j, k);
        float *xr = x + o, *sr = s + o;
        const float *zr = z + o;
        const std::uint8_t *f = l.flags.data() + o;
        for (int i = 0; i < l.n.x; ++i) {
            xr[i] += alpha * sr[i];
            sr[i] = keepIf((f[i] & kDiagBits) != 0, (zr[i] - zm) + beta * sr[i]);
        }
    });
}

// x += alpha s (the last step).
void PressureSolver::Impl::addScaled(float *x, const float *s, float alpha)
{
    forEachIndex(levels[0].n.volume(), [&](std::int64_t c) { x[c] += alpha * s[c]; });
}

// u -= p~_hi - p~_lo on every open face (the discrete pressure gradient, Bridson ch. 5).
template<bool k3D>
void PressureSolver::Impl::subtractGradient(MacGrid &vel, const float *x)
{
    const Level &l = levels[0];
    const Int3 n = l.n;
    const std::uint8_t *flags = l.flags.data();
    // x-faces: neighbours within a row.
    const Boundary xlo = domain.boundary(0, false), xhi = domain.boundary(0, true);
    forEachRow(vel.u.size(), [&](int j, int k) {
        float *u = vel.u.data() + vel.u.index(0, j, k);
        const std::uint8_t *f = flags + l.row(j, k);
        const float *p = x + l.row(j, k);
        for (int i = 1; i < n.x; ++i)
            u[i] = (f[i - 1] & f[i] & kFluidBit) ? u[i] - (p[i] - p[i - 1]) : u[i];
        if (xlo == Boundary::Periodic) {
            if (f[n.x - 1] & f[0] & kFluidBit) {
                u[0] -= p[0] - p[n.x - 1];
                u[n.x] = u[0];
            }
        } else {
            if (xlo == Boundary::Open && (f[0] & kFluidBit))
                u[0] -= p[0] - 0.f;
            if (xhi == Boundary::Open && (f[n.x - 1] & kFluidBit))
                u[n.x] -= 0.f - p[n.x - 1];
        }
    });
    // y- and z-faces: between whole rows.
    auto betweenRows = [&](int axis) {
        ScalarGrid &c = vel.component(axis);
        const Boundary lo = domain.boundary(axis, false), hi = domain.boundary(axis, true);
        const int last = n[axis];
        forEachRow(c.size(), [&](int j, int k) {
            const int along = axis == 1 ? j : k;
            auto cellRow = [&](int a) { return axis == 1 ? l.row(a, k) : l.row(j, a); };
            const std::uint8_t *fl, *fh;
            const float *pl, *ph;
            if (along == 0 || along == last) {
                const Boundary mode = along == 0 ? lo : hi;
                if (mode == Boundary::Wall)
                    return;
                if (mode == Boundary::Periodic) {
                    fl = flags + cellRow(last - 1);
                    pl = x + cellRow(last - 1);
                    fh = flags + cellRow(0);
                    ph = x + cellRow(0);
                } else if (along == 0) {
                    fl = fluidRow.data();
                    pl = zeroRow.data();
                    fh = flags + cellRow(0);
                    ph = x + cellRow(0);
                } else {
                    fl = flags + cellRow(last - 1);
                    pl = x + cellRow(last - 1);
                    fh = fluidRow.data();
                    ph = zeroRow.data();
                }
            } else {
                fl = flags + cellRow(along - 1);
                pl = x + cellRow(along - 1);
                fh = flags + cellRow(along);
                ph = x + cellRow(along);
            }
            float *v = c.data() + c.index(0, j, k);
            for (int i = 0; i < n.x; ++i)
                v[i] = (fl[i] & fh[i] & kFluidBit) ? v[i] - (ph[i] - pl[i]) : v[i];
        });
    };
    betweenRows(1);
    if constexpr (k3D)
        betweenRows(2);
}

// Per pocket: v -= mean of v over the pocket. With `r`, returns sum over pockets of
// mean(v) * sum(r) (what r.v loses by it); the sums run in cell order on one thread.
double PressureSolver::Impl::removePocketMeans(float *v, const float *r)
{
    double lost = 0.0;
    for (std::size_t p = 0; p < pockets.count(); ++p) {
        const std::uint32_t *c = pockets.cells.data() + pockets.start[p];
        const std::size_t count = pockets.start[p + 1] - pockets.start[p];
        double sumV = 0.0, sumR = 0.0;
        for (std::size_t n = 0; n < count; ++n) {
            sumV += double(v[c[n]]);
            sumR += r ? double(r[c[n]]) : 0.0;
        }
        const float mean = float(sumV / double(count));
        for (std::size_t n = 0; n < count; ++n)
            v[c[n]] -= mean;
        lost += double(mean) * sumR;
    }
    return lost;
}

// b = -D(u) on active cells, into r, made compatible in every pocket. Returns sum b.
template<bool k3D>
double PressureSolver::Impl::loadDivergence(const MacGrid &vel, float *r)
{
    const Level &l = levels[0];
    const double sumB = sumRows(l.n, [&](int j, int k) {
        float *rr = r + l.row(j, k);
        const std::uint8_t *f = l.flags.data() + l.row(j, k);
        forDivergenceRow<k3D>(vel, j, k, [&](int i, float dv) {
            rr[i] = keepIf((f[i] & kDiagBits) != 0, -dv);
        });
        return rowDot(rr, nullptr, l.n.x);
    });
    if (std::isfinite(sumB))
        removePocketMeans(r, nullptr);
    return sumB;
}

// r = (b - meanB) - A x with b in r; then the preconditioner's start in z (startRow) and, for
// the diagonal preconditioner, its dots. Returns max |b - meanB|; max |r| into maxR.
template<bool k3D>
double PressureSolver::Impl::residualPass(float *r, float *z, const float *x, float meanB,
                                          bool mg, Dots &dots, double &maxR)
{
    const Level &l = levels[0];
    const int nx = l.n.x;
    const bool px = l.periodic[0];
    std::vector<double> rowMaxR(std::size_t(l.n.y) * l.n.z), partial(mg ? 0 : 3 * rowMaxR.size());
    const double maxB = maxRows(l.n, [&](int j, int k) {
        const std::size_t o = l.row(j, k);
        float *rr = r + o;
        const float *xr = x + o;
        const std::uint8_t *f = l.flags.data() + o;
        for (int i = 0; i < nx; ++i)
            rr[i] = keepIf((f[i] & kDiagBits) != 0, rr[i] - meanB);
        const double rowB = rowAbsMax(rr, nx);
        forCells<k3D, 1>(xr, neighbourRows(l, x, zeroRow.data(), j, k), nx, px, 0,
                         [&](int i, float sum) {
                             const std::uint32_t d = f[i] & kDiagBits;
                             rr[i] = keepIf(d != 0, rr[i] - (float(d) * xr[i] - sum));
                         });
        rowMaxR[l.rowIndex(j, k)] = rowAbsMax(rr, nx);
        startRow(rr, z + o, f, nx, std::uint32_t(j + k) & 1u, !mg);
        if (!mg)
            rowDots(rr, z + o, nx, &partial[3 * l.rowIndex(j, k)]);
        return rowB;
    });
    dots = sumDots(partial);
    maxR = *std::max_element(rowMaxR.begin(), rowMaxR.end());
    return maxB;
}

// Preconditioned conjugate gradients (Saad, "Iterative Methods for Sparse Linear Systems",
// alg. 9.1) from x, with r = b - A x and z's start as residualPass left them. Search directions
// are kept free of the null space (the all-cells mean when singular, each pocket's mean). With
// `watch`, stops with Breakdown when r.z is not positive, the residual becomes non-finite, grows
// kGrowth-fold over the best so far, or stalls: the best does not halve in kStall iterations.
template<bool k3D>
PressureSolver::Impl::Outcome PressureSolver::Impl::iterate(float *x, float *r, float *z, float *s,
                                                            bool mg, Dots dots, double &maxR,
                                                            double target, int budget, bool watch,
                                                            int &iterations)
{
    constexpr double kGrowth = 100.0;
    constexpr int kStall = 30;
    if (mg)
        dots = vcycle<k3D>(0, z, r);
    float zm = singular ? float(dots.sumZ / activeCells) : 0.f;
    double rho = dots.rz - double(zm) * dots.sumR - removePocketMeans(z, r);
    std::swap(s, z); // s = z - mean z: take z's buffer; the old s becomes q and z
    if (singular)
        updateDirection(x, s, s, 0.f, 0.f, zm);
    double best = maxR, bestBefore = maxR; // bestBefore: the best kStall iterations ago
    for (int it = 1; it <= budget; ++it) {
        if (!(rho > 0.0) || !std::isfinite(rho))
            return Outcome::Breakdown;
        const double sq = applyOperator<k3D>(s, z);
        if (!(sq > 0.0) || !std::isfinite(sq))
            return Outcome::Breakdown;
        const float alpha = float(rho / sq);
        maxR = updateResidual(r, z, alpha, !mg, dots);
        ++iterations;
        if (!std::isfinite(maxR))
            return Outcome::Breakdown; // x keeps its last finite state
        best = std::min(best, maxR);
        if (watch && maxR > kGrowth * best)
            return Outcome::Breakdown;
        if (it % kStall == 0) {
            if (watch && best > 0.5 * bestBefore)
                return Outcome::Breakdown;
            bestBefore = best;
        }
        if (maxR <= target || it == budget) {
            addScaled(x, s, alpha);
            return maxR <= target ? Outcome::Converged : Outcome::Budget;
        }
        if (mg)
            dots = vcycle<k3D>(0, z, r);
        zm = singular ? float(dots.sumZ / activeCells) : 0.f;
        const double rhoNew = dots.rz - double(zm) * dots.sumR - removePocketMeans(z, r);
        const float beta = float(rhoNew / rho);
        rho = rhoNew;
        updateDirection(x, s, z, alpha, beta, zm);
    }
    return Outcome::Budget;
}

// Solves A p~ = -D(u), then u -= G p~ and p = p~ h / dt. The multigrid-preconditioned run is
// watched; if it breaks down, the solve starts again from its last iterate with the diagonal
// preconditioner, which is safe for every layout, and reports the fallback.
template<bool k3D>
SolveResult PressureSolver::Impl::solve(MacGrid &vel, ScalarGrid &pressure, float dt,
                                        const PressureSettings &settings, Workspace &work)
{
    SolveResult result;
    const Level &l = levels[0];
    const Int3 n = l.n;
    const int nx = n.x;
    const std::uint8_t *flags = l.flags.data();
    for (int g = 0; g < 3; ++g) {
        if (work[g].size() != n || !(work[g].offset() == kCellCentre))
            work[g].reshape(n, kCellCentre); // no fill needed otherwise: all is written first
    }
    float *r = work[0].data();
    float *z = work[1].data(); // also q = A s
    float *s = work[2].data();
    float *x = pressure.data();

    // A NaN or infinity in the divergence leaves everything as it was.
    const double sumB = loadDivergence<k3D>(vel, r);
    if (!std::isfinite(sumB)) {
        result.residual = std::numeric_limits<double>::infinity();
        return result;
    }

    // Warm start p~0 = p dt / h on active cells (non-finite values restart from 0), free of the
    // pockets' arbitrary levels.
    const float toTilde = dt / domain.cellSize;
    const double sumX0 = sumRows(n, [&](int j, int k) {
        float *xr = x + l.row(j, k);
        const std::uint8_t *f = flags + l.row(j, k);
        for (int i = 0; i < nx; ++i) {
            const float p = xr[i] * toTilde;
            xr[i] = (f[i] & kDiagBits) && std::isfinite(p) ? p : 0.f;
        }
        return rowDot(xr, nullptr, nx);
    });
    removePocketMeans(x, nullptr);
    // All-Neumann: make b compatible (zero mean) and keep the warm start's mean level.
    const float meanB = singular ? float(sumB / activeCells) : 0.f;
    const float meanX0 = singular ? float(sumX0 / activeCells) : 0.f;

    // The diagonal preconditioner stands in for multigrid when the layout admits no red-black
    // colouring or the watched multigrid run breaks down (or any run meets a NaN); it then gets
    // kDiagonalBudget times the iterations (each costs about a quarter of a multigrid one).
    constexpr int kDiagonalBudget = 4;
    bool mg = settings.multigrid && multigridUsable;
    result.fallback = settings.multigrid && !multigridUsable;
    Dots dots;
    double maxR = 0.0;
    const double maxB = residualPass<k3D>(r, z, x, meanB, mg, dots, maxR);
    result.initialResidual = maxB;
    if (maxB == 0.0) {
        pressure.fill(0.f); // nothing to remove (or only a constant the walls cannot remove)
        result.converged = true;
        return result;
    }
    const double target = settings.tolerance * maxB;
    const int budget = settings.maxIterations * (result.fallback ? kDiagonalBudget : 1);
    Outcome outcome = maxR <= target ? Outcome::Converged : Outcome::Budget;
    if (outcome != Outcome::Converged && std::isfinite(maxR) && budget > 0) {
        outcome = iterate<k3D>(x, r, z, s, mg, dots, maxR, target, budget, mg, result.iterations);
        if (outcome == Outcome::Breakdown) {
            result.fallback = true;
            if (!(maxAbs(x) < std::numeric_limits<double>::infinity()))
                std::fill(x, x + n.volume(), 0.f);
            loadDivergence<k3D>(vel, r);
            residualPass<k3D>(r, z, x, meanB, false, dots, maxR);
            outcome = maxR <= target
                          ? Outcome::Converged
                          : iterate<k3D>(x, r, z, s, false, dots, maxR, target,
                                         kDiagonalBudget * settings.maxIterations, false,
                                         result.iterations);
        }
    }
    result.residual = maxR / maxB;
    result.converged = outcome == Outcome::Converged;

    // The projection never writes a non-finite value: an iterate that overflowed is dropped.
    const bool applied = std::isfinite(maxR) && maxAbs(x) < std::numeric_limits<double>::infinity();
    if (applied)
        subtractGradient<k3D>(vel, x);
    else
        std::fill(x, x + n.volume(), 0.f);
    result.converged = result.converged && applied;
    const float fromTilde = domain.cellSize / dt;
    forEachRow(n, [&](int j, int k) {
        float *xr = x + l.row(j, k);
        const std::uint8_t *f = flags + l.row(j, k);
        for (int i = 0; i < nx; ++i)
            xr[i] = keepIf((f[i] & kDiagBits) != 0, (xr[i] - meanX0) * fromTilde);
    });
    return result;
}

// Largest |v| over the fine level (+inf on NaN).
double PressureSolver::Impl::maxAbs(const float *v) const
{
    const Level &l = levels[0];
    return maxRows(l.n, [&](int j, int k) { return rowAbsMax(v + l.row(j, k), l.n.x); });
}

PressureSolver::PressureSolver()
    : d(std::make_unique<Impl>())
{
}

PressureSolver::~PressureSolver() = default;

void PressureSolver::setup(const Domain &domain, const FlagGrid &solids)
{
    d->domain = domain;
    d->ready = false;
    d->levels.clear();
    if (domain.cells.x < 1 || domain.cells.y < 1 || domain.cells.z < 1)
        return;
    const Int3 n = domain.cells;
    const bool useSolids = solids.size() == n;
    std::vector<std::uint8_t> fluid(std::size_t(n.volume()), 1);
    if (useSolids) {
        const std::uint8_t *sf = solids.data();
        forEachIndex(n.volume(), [&](std::int64_t c) { fluid[std::size_t(c)] = sf[c] ? 0 : 1; });
    }
    d->buildHierarchy(fluid);

    const Level &l = d->levels[0];
    d->activeCells = sumRows(n, [&](int j, int k) {
        const std::uint8_t *f = l.flags.data() + l.row(j, k);
        double active = 0.0;
        for (int i = 0; i < n.x; ++i)
            active += (f[i] & kDiagBits) ? 1.0 : 0.0;
        return active;
    });
    d->zeroRow.assign(std::size_t(n.x), 0.f);
    d->fluidRow.assign(std::size_t(n.x), kFluidBit);
    d->ready = true;
}

SolveResult PressureSolver::project(MacGrid &vel, ScalarGrid &pressure, float dt,
                                    const PressureSettings &settings, Workspace &work)
{
    SolveResult result;
    const Int3 n = d->domain.cells;
    const bool shapesMatch = vel.cells() == n && vel.u.size() == faceGridSize(n, 0)
                             && vel.v.size() == faceGridSize(n, 1)
                             && (d->domain.is2D() || vel.w.size() == faceGridSize(n, 2));
    if (!d->ready || !shapesMatch || !(dt > 0.f) || !std::isfinite(dt)) {
        result.residual = std::numeric_limits<double>::infinity();
        return result;
    }
    if (pressure.size() != n)
        pressure.reshape(n, kCellCentre, 0.f);
    if (d->activeCells == 0.0) {
        pressure.fill(0.f);
        result.converged = true;
        return result;
    }
    return d->domain.is2D() ? d->solve<false>(vel, pressure, dt, settings, work)
                            : d->solve<true>(vel, pressure, dt, settings, work);
}

void PressureSolver::precondition(const ScalarGrid &r, ScalarGrid &z)
{
    const Int3 n = d->domain.cells;
    z.reshape(n, kCellCentre, 0.f);
    if (!d->ready || !d->multigridUsable || r.size() != n)
        return;
    const Level &l = d->levels[0];
    forEachRow(n, [&](int j, int k) {
        const std::size_t o = l.row(j, k);
        startRow(r.data() + o, z.data() + o, l.flags.data() + o, n.x, std::uint32_t(j + k) & 1u,
                 0u);
    });
    if (d->domain.is2D())
        d->vcycle<false>(0, z.data(), r.data());
    else
        d->vcycle<true>(0, z.data(), r.data());
}

int PressureSolver::pockets() const
{
    return int(d->pockets.count());
}

void PressureSolver::divergence(const MacGrid &vel, const FlagGrid &solids, const Domain &domain,
                                ScalarGrid &out)
{
    const Int3 n = domain.cells;
    if (out.size() != n)
        out.reshape(n, kCellCentre, 0.f);
    if (vel.cells() != n)
        return;
    const std::uint8_t *sf = solids.size() == n ? solids.data() : nullptr;
    const float invH = 1.f / domain.cellSize;
    forEachRow(n, [&](int j, int k) {
        float *o = out.data() + out.index(0, j, k);
        const std::uint8_t *f = sf ? sf + solids.index(0, j, k) : nullptr;
        auto store = [&](int i, float dv) { o[i] = (f && f[i]) ? 0.f : dv * invH; };
        if (domain.is2D())
            forDivergenceRow<false>(vel, j, k, store);
        else
            forDivergenceRow<true>(vel, j, k, store);
    });
}

std::size_t PressureSolver::memoryBytes() const
{
    std::size_t total = d->zeroRow.capacity() * sizeof(float) + d->fluidRow.capacity();
    total += (d->pockets.cells.capacity() + d->pockets.start.capacity()) * sizeof(std::uint32_t);
    for (const Level &l : d->levels) {
        total += l.flags.capacity() + l.faces.capacity()
                 + (l.x.capacity() + l.b.capacity()) * sizeof(float);
        for (const TransferFix *fix : {&l.prolongFix, &l.restrictFix})
            total += (fix->cells.capacity() + fix->start.capacity() + fix->taps.capacity()
                      + fix->weights.capacity()) * 4;
    }
    return total;
}

} // namespace plume::sim
