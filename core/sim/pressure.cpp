#include "pressure.h"

#include "parallel.h"

#include <algorithm>
#include <array>
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

constexpr std::array<float, 16> makeInverseDiagonal()
{
    std::array<float, 16> t{};
    for (int f = 0; f < 16; ++f)
        t[std::size_t(f)] = (f & kDiagBits) ? 1.f / float(f & kDiagBits) : 0.f;
    return t;
}
// 1 / diag for every flag byte; 0 where the cell has no open face (solid or sealed).
constexpr std::array<float, 16> kInvDiag = makeInverseDiagonal();

/// One level of the hierarchy: cell-centred flags; the coarse levels own their x and b.
struct Level
{
    Int3 n{0, 0, 0};
    std::array<bool, 3> periodic{};
    std::vector<std::uint8_t> flags;
    std::vector<float> x, b;

    std::size_t row(int j, int k) const
    {
        return std::size_t(n.x) * (std::size_t(j) + std::size_t(n.y) * std::size_t(k));
    }
};

/// The centre row of a vector and its four neighbour rows (a zero row outside non-periodic sides).
struct Rows
{
    const float *c, *ym, *yp, *zm, *zp;
};

Rows neighbourRows(const Level &l, const float *v, const float *zero, int j, int k)
{
    Rows r;
    r.c = v + l.row(j, k);
    r.ym = j > 0 ? v + l.row(j - 1, k) : (l.periodic[1] ? v + l.row(l.n.y - 1, k) : zero);
    r.yp = j + 1 < l.n.y ? v + l.row(j + 1, k) : (l.periodic[1] ? v + l.row(0, k) : zero);
    r.zm = k > 0 ? v + l.row(j, k - 1) : (l.periodic[2] ? v + l.row(j, l.n.z - 1) : zero);
    r.zp = k + 1 < l.n.z ? v + l.row(j, k + 1) : (l.periodic[2] ? v + l.row(j, 0) : zero);
    return r;
}

// Sum of the 4 (2D) or 6 (3D) neighbours of cell i away from the row ends.
template<bool k3D>
inline float innerSum(const Rows &r, int i)
{
    float s = r.c[i - 1] + r.c[i + 1] + r.ym[i] + r.yp[i];
    if constexpr (k3D)
        s += r.zm[i] + r.zp[i];
    return s;
}

// The same at any i: outside a non-periodic row end the value is 0 (wall: no coupling; open:
// Dirichlet p = 0).
template<bool k3D>
inline float edgeSum(const Rows &r, int i, int nx, bool px)
{
    const float lo = i > 0 ? r.c[i - 1] : (px ? r.c[nx - 1] : 0.f);
    const float hi = i + 1 < nx ? r.c[i + 1] : (px ? r.c[0] : 0.f);
    float s = lo + hi + r.ym[i] + r.yp[i];
    if constexpr (k3D)
        s += r.zm[i] + r.zp[i];
    return s;
}

// Calls f(i, neighbour sum) for the cells of one colour of a row: i = first, first + 2, ...
template<bool k3D, class F>
inline void forColour(const Rows &r, int nx, bool px, int first, F &&f)
{
    int i = first;
    if (i == 0) {
        f(0, edgeSum<k3D>(r, 0, nx, px));
        i = 2;
    }
    for (; i < nx - 1; i += 2)
        f(i, innerSum<k3D>(r, i));
    if (i == nx - 1)
        f(i, edgeSum<k3D>(r, i, nx, px));
}

// Calls f(i, neighbour sum) for every cell of a row.
template<bool k3D, class F>
inline void forRowCells(const Rows &r, int nx, bool px, F &&f)
{
    f(0, edgeSum<k3D>(r, 0, nx, px));
    for (int i = 1; i < nx - 1; ++i)
        f(i, innerSum<k3D>(r, i));
    if (nx > 1)
        f(nx - 1, edgeSum<k3D>(r, nx - 1, nx, px));
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

// Largest |v| of a row, +inf when a NaN is present (so that no test against it passes).
template<class F>
inline double rowAbsMax(int nx, F &&value)
{
    float m = 0.f;
    bool nan = false;
    for (int i = 0; i < nx; ++i) {
        const float a = std::fabs(value(i));
        m = a > m ? a : m;
        nan |= a != a;
    }
    return nan ? std::numeric_limits<double>::infinity() : double(m);
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

// Fine index of the restriction gather for coarse index I: the fine cells 2I-1 .. 2I+2 with the
// ghost rules that make it the transpose of clamped (wrapped) linear prolongation; -1 = none.
inline int gatherIndex(int i, int n, bool periodic)
{
    if (i < 0)
        return periodic ? n - 1 : 0;
    if (i >= n) {
        if (periodic)
            return i - n;
        return (n % 2 == 0 && i == n) ? n - 1 : -1;
    }
    return i;
}

// Coarse neighbour used by linear prolongation for fine index i (besides i / 2).
inline int prolongPartner(int i, int nc, bool periodic)
{
    const int c = (i & 1) ? i / 2 + 1 : i / 2 - 1;
    if (c < 0)
        return periodic ? nc - 1 : 0;
    if (c >= nc)
        return periodic ? 0 : nc - 1;
    return c;
}

constexpr float kNear = 0.75f; // linear weights of cell-centred prolongation
constexpr float kFar = 0.25f;

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

    void buildFlags(Level &l, const std::vector<std::uint8_t> &fluid);
    void buildHierarchy(const std::vector<std::uint8_t> &fineFluid);

    template<bool k3D> void smoothRedFromZero(Level &l, float *x, const float *b);
    template<bool k3D> void smoothColour(Level &l, float *x, const float *b, int colour);
    template<bool k3D> Dots smoothRedWithDots(Level &l, float *x, const float *b);
    template<bool k3D> void residualIntoRed(Level &l, float *x);
    template<bool k3D> void restrictResidual(const Level &f, const float *x, Level &c);
    template<bool k3D> void prolongAndRestore(Level &f, float *x, const float *b, const Level &c);
    template<bool k3D> Dots vcycle(int level, float *x, const float *b);
    template<bool k3D> Dots precondition(float *z, const float *r, bool multigrid);

    template<bool k3D> double applyOperator(const float *s, float *q);
    template<bool k3D> SolveResult solve(MacGrid &vel, ScalarGrid &pressure, float dt,
                                         const PressureSettings &settings, Workspace &work);
    template<bool k3D> void subtractGradient(MacGrid &vel, const float *x);
};

// Diagonal = open faces: fluid neighbours (periodic faces wrap) plus open domain faces.
void PressureSolver::Impl::buildFlags(Level &l, const std::vector<std::uint8_t> &fluid)
{
    const Int3 n = l.n;
    const int axes = domain.is2D() ? 2 : 3;
    l.flags.assign(std::size_t(n.volume()), 0);
    forEachRow(n, [&](int j, int k) {
        const std::size_t base = l.row(j, k);
        for (int i = 0; i < n.x; ++i) {
            if (!fluid[base + std::size_t(i)])
                continue;
            const int idx[3] = {i, j, k};
            int diag = 0;
            for (int a = 0; a < axes; ++a) {
                for (int side = -1; side <= 1; side += 2) {
                    int nb[3] = {idx[0], idx[1], idx[2]};
                    nb[a] += side;
                    if (nb[a] < 0 || nb[a] >= n[a]) {
                        const Boundary mode = domain.boundary(a, side > 0);
                        if (mode == Boundary::Open) {
                            ++diag;
                            continue;
                        }
                        if (mode == Boundary::Wall)
                            continue;
                        nb[a] = nb[a] < 0 ? n[a] - 1 : 0;
                    }
                    if (fluid[l.row(nb[1], nb[2]) + std::size_t(nb[0])])
                        ++diag;
                }
            }
            l.flags[base + std::size_t(i)] = std::uint8_t(diag | kFluidBit);
        }
    });
}

// Cell-centred levels coarsened by 2 per axis (rounding up); a coarse cell is fluid when any of
// its children is (McAdams, Sifakis and Teran 2010, section 4).
void PressureSolver::Impl::buildHierarchy(const std::vector<std::uint8_t> &fineFluid)
{
    const int axes = domain.is2D() ? 2 : 3;
    levels.clear();
    levels.emplace_back();
    levels[0].n = domain.cells;
    for (int a = 0; a < axes; ++a)
        levels[0].periodic[std::size_t(a)] = domain.boundary(a, false) == Boundary::Periodic;
    buildFlags(levels[0], fineFluid);
    multigridUsable = colouringHolds(levels[0]);

    std::vector<std::uint8_t> fluid = fineFluid;
    while (multigridUsable && int(levels.size()) < kMaxLevels) {
        const Level &f = levels.back();
        const int longest = std::max({f.n.x, f.n.y, f.n.z});
        if (longest <= kCoarsestSide)
            break;
        Level c;
        c.periodic = f.periodic;
        c.n = f.n;
        for (int a = 0; a < axes; ++a)
            c.n[a] = (f.n[a] + 1) / 2;
        if (!colouringHolds(c))
            break;
        std::vector<std::uint8_t> coarseFluid(std::size_t(c.n.volume()), 0);
        forEachRow(c.n, [&](int j, int k) {
            for (int i = 0; i < c.n.x; ++i) {
                std::uint8_t any = 0;
                for (int dk = 0; dk < (axes == 3 ? 2 : 1); ++dk) {
                    for (int dj = 0; dj < 2; ++dj) {
                        for (int di = 0; di < 2; ++di) {
                            const int fi = 2 * i + di, fj = 2 * j + dj;
                            const int fk = axes == 3 ? 2 * k + dk : k;
                            if (fi < f.n.x && fj < f.n.y && fk < f.n.z)
                                any |= fluid[f.row(fj, fk) + std::size_t(fi)];
                        }
                    }
                }
                coarseFluid[c.row(j, k) + std::size_t(i)] = any;
            }
        });
        buildFlags(c, coarseFluid);
        c.x.assign(std::size_t(c.n.volume()), 0.f);
        c.b.assign(std::size_t(c.n.volume()), 0.f);
        levels.push_back(std::move(c));
        fluid.swap(coarseFluid);
    }
}

// Red cells of a zero start: x = b / diag (their neighbours are black and still zero).
template<bool k3D>
void PressureSolver::Impl::smoothRedFromZero(Level &l, float *x, const float *b)
{
    forEachRow(l.n, [&](int j, int k) {
        const std::size_t o = l.row(j, k);
        const std::uint8_t *f = l.flags.data() + o;
        const int red = (j + k) & 1;
        for (int i = 0; i < l.n.x; ++i)
            x[o + std::size_t(i)] = (i & 1) == red ? b[o + std::size_t(i)] * kInvDiag[f[i]] : 0.f;
    });
}

// One Gauss-Seidel half sweep over the cells of one colour: x = (b + sum of neighbours) / diag.
template<bool k3D>
void PressureSolver::Impl::smoothColour(Level &l, float *x, const float *b, int colour)
{
    const bool px = l.periodic[0];
    forEachRow(l.n, [&](int j, int k) {
        const Rows r = neighbourRows(l, x, zeroRow.data(), j, k);
        const std::size_t o = l.row(j, k);
        float *xr = x + o;
        const float *br = b + o;
        const std::uint8_t *f = l.flags.data() + o;
        forColour<k3D>(r, l.n.x, px, (j + k + colour) & 1,
                       [&](int i, float s) { xr[i] = (br[i] + s) * kInvDiag[f[i]]; });
    });
}

// The final red half sweep of the fine level, also returning r.z, sum z and sum r (row order).
template<bool k3D>
PressureSolver::Impl::Dots PressureSolver::Impl::smoothRedWithDots(Level &l, float *x,
                                                                  const float *b)
{
    const bool px = l.periodic[0];
    const std::size_t rows = std::size_t(l.n.y) * std::size_t(l.n.z);
    std::vector<double> sumZ(rows), sumR(rows);
    Dots d;
    d.rz = sumRows(l.n, [&](int j, int k) {
        const Rows r = neighbourRows(l, x, zeroRow.data(), j, k);
        const std::size_t o = l.row(j, k);
        float *xr = x + o;
        const float *br = b + o;
        const std::uint8_t *f = l.flags.data() + o;
        forColour<k3D>(r, l.n.x, px, (j + k) & 1,
                       [&](int i, float s) { xr[i] = (br[i] + s) * kInvDiag[f[i]]; });
        double rz = 0.0, z = 0.0, rs = 0.0;
        for (int i = 0; i < l.n.x; ++i) {
            rz += double(br[i]) * double(xr[i]);
            z += double(xr[i]);
            rs += double(br[i]);
        }
        const std::size_t row = std::size_t(j) + std::size_t(l.n.y) * std::size_t(k);
        sumZ[row] = z;
        sumR[row] = rs;
        return rz;
    });
    for (std::size_t n = 0; n < rows; ++n) {
        d.sumZ += sumZ[n];
        d.sumR += sumR[n];
    }
    return d;
}

// After red-from-zero and a black sweep, black residuals vanish and each red residual equals
// the sum of its (black) neighbours; it is stored in place of x_red = b / diag, which
// prolongAndRestore recomputes. This keeps the fine level within the three workspace grids.
template<bool k3D>
void PressureSolver::Impl::residualIntoRed(Level &l, float *x)
{
    const bool px = l.periodic[0];
    forEachRow(l.n, [&](int j, int k) {
        const Rows r = neighbourRows(l, x, zeroRow.data(), j, k);
        const std::size_t o = l.row(j, k);
        float *xr = x + o;
        const std::uint8_t *f = l.flags.data() + o;
        forColour<k3D>(r, l.n.x, px, (j + k) & 1,
                       [&](int i, float s) { xr[i] = (f[i] & kDiagBits) ? s : 0.f; });
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
    forEachRowScratch(c.n, std::size_t(nx) + 3, [&](int J, int K, float *g) {
        std::fill(g, g + nx + 3, 0.f);
        float *fine = g + 1; // fine[-1 .. nx + 1]
        const float wts[4] = {kFar, kNear, kNear, kFar};
        for (int a = 0; a < 4; ++a) {
            const int j = gatherIndex(2 * J - 1 + a, f.n.y, f.periodic[1]);
            if (j < 0)
                continue;
            for (int b = 0; b < (k3D ? 4 : 1); ++b) {
                const int k = k3D ? gatherIndex(2 * K - 1 + b, f.n.z, f.periodic[2]) : 0;
                if (k < 0)
                    continue;
                const float w = wts[a] * (k3D ? wts[b] : 1.f);
                const float *src = x + f.row(j, k);
                for (int i = (j + k) & 1; i < nx; i += 2)
                    fine[i] += w * src[i];
            }
        }
        fine[-1] = px ? fine[nx - 1] : fine[0];
        fine[nx] = px ? fine[0] : (nx % 2 == 0 ? fine[nx - 1] : 0.f);
        fine[nx + 1] = 0.f;
        float *out = c.b.data() + c.row(J, K);
        const std::uint8_t *cf = c.flags.data() + c.row(J, K);
        for (int I = 0; I < c.n.x; ++I) {
            const float v = kFar * fine[2 * I - 1] + kNear * fine[2 * I] + kNear * fine[2 * I + 1]
                            + kFar * fine[2 * I + 2];
            out[I] = (cf[I] & kDiagBits) ? scale * v : 0.f;
        }
    });
}

// x = (red ? b / diag : x) + P x_coarse, zero outside the active cells (trilinear, cell-centred,
// clamped at walls and open faces, wrapped across periodic ones).
template<bool k3D>
void PressureSolver::Impl::prolongAndRestore(Level &f, float *x, const float *b, const Level &c)
{
    const int ncx = c.n.x;
    const bool px = f.periodic[0];
    forEachRowScratch(f.n, std::size_t(ncx) + 2, [&](int j, int k, float *t) {
        std::fill(t, t + ncx + 2, 0.f);
        float *coarse = t + 1; // coarse[-1 .. ncx]
        const int js[2] = {j / 2, prolongPartner(j, c.n.y, c.periodic[1])};
        const int ks[2] = {k3D ? k / 2 : 0, k3D ? prolongPartner(k, c.n.z, c.periodic[2]) : 0};
        const float wts[2] = {kNear, kFar};
        for (int a = 0; a < 2; ++a) {
            for (int bz = 0; bz < (k3D ? 2 : 1); ++bz) {
                const float w = wts[a] * (k3D ? wts[bz] : 1.f);
                const float *src = c.x.data() + c.row(js[a], ks[bz]);
                for (int I = 0; I < ncx; ++I)
                    coarse[I] += w * src[I];
            }
        }
        coarse[-1] = px ? coarse[ncx - 1] : coarse[0];
        coarse[ncx] = px ? coarse[0] : coarse[ncx - 1];
        const std::size_t o = f.row(j, k);
        float *xr = x + o;
        const float *br = b + o;
        const std::uint8_t *fl = f.flags.data() + o;
        const int red = (j + k) & 1;
        for (int i = 0; i < f.n.x; ++i) {
            const int I = i / 2;
            const float p = kNear * coarse[I] + kFar * coarse[(i & 1) ? I + 1 : I - 1];
            const float base = (i & 1) == red ? br[i] * kInvDiag[fl[i]] : xr[i];
            xr[i] = (fl[i] & kDiagBits) ? base + p : 0.f;
        }
    });
}

// Symmetric V-cycle from a zero guess: pre-smooth red then black, post-smooth black then red, so
// that the preconditioner is symmetric positive definite (McAdams et al. 2010, section 3).
template<bool k3D>
PressureSolver::Impl::Dots PressureSolver::Impl::vcycle(int level, float *x, const float *b)
{
    Level &l = levels[std::size_t(level)];
    smoothRedFromZero<k3D>(l, x, b);
    if (level + 1 == int(levels.size())) {
        for (int s = 0; s < kCoarsestSweeps; ++s) {
            smoothColour<k3D>(l, x, b, kBlack);
            if (level == 0 && s + 1 == kCoarsestSweeps)
                return smoothRedWithDots<k3D>(l, x, b);
            smoothColour<k3D>(l, x, b, kRed);
        }
        return {};
    }
    smoothColour<k3D>(l, x, b, kBlack);
    residualIntoRed<k3D>(l, x);
    Level &c = levels[std::size_t(level) + 1];
    restrictResidual<k3D>(l, x, c);
    vcycle<k3D>(level + 1, c.x.data(), c.b.data());
    prolongAndRestore<k3D>(l, x, b, c);
    smoothColour<k3D>(l, x, b, kBlack);
    if (level == 0)
        return smoothRedWithDots<k3D>(l, x, b);
    smoothColour<k3D>(l, x, b, kRed);
    return {};
}

// z = M^-1 r: the multigrid V-cycle, or the diagonal (Jacobi) preconditioner.
template<bool k3D>
PressureSolver::Impl::Dots PressureSolver::Impl::precondition(float *z, const float *r,
                                                              bool multigrid)
{
    if (multigrid && multigridUsable)
        return vcycle<k3D>(0, z, r);
    const Level &l = levels[0];
    const std::size_t rows = std::size_t(l.n.y) * std::size_t(l.n.z);
    std::vector<double> sumZ(rows), sumR(rows);
    Dots d;
    d.rz = sumRows(l.n, [&](int j, int k) {
        const std::size_t o = l.row(j, k);
        const std::uint8_t *f = l.flags.data() + o;
        double rz = 0.0, zs = 0.0, rs = 0.0;
        for (int i = 0; i < l.n.x; ++i) {
            const float v = r[o + std::size_t(i)] * kInvDiag[f[i]];
            z[o + std::size_t(i)] = v;
            rz += double(r[o + std::size_t(i)]) * double(v);
            zs += double(v);
            rs += double(r[o + std::size_t(i)]);
        }
        const std::size_t row = std::size_t(j) + std::size_t(l.n.y) * std::size_t(k);
        sumZ[row] = zs;
        sumR[row] = rs;
        return rz;
    });
    for (std::size_t n = 0; n < rows; ++n) {
        d.sumZ += sumZ[n];
        d.sumR += sumR[n];
    }
    return d;
}

// q = A s on the fine level; returns s.q (double, row order).
template<bool k3D>
double PressureSolver::Impl::applyOperator(const float *s, float *q)
{
    const Level &l = levels[0];
    const bool px = l.periodic[0];
    return sumRows(l.n, [&](int j, int k) {
        const Rows r = neighbourRows(l, s, zeroRow.data(), j, k);
        const std::size_t o = l.row(j, k);
        float *qr = q + o;
        const std::uint8_t *f = l.flags.data() + o;
        double acc = 0.0;
        forRowCells<k3D>(r, l.n.x, px, [&](int i, float sum) {
            const int d = f[i] & kDiagBits;
            const float v = d ? float(d) * r.c[i] - sum : 0.f;
            qr[i] = v;
            acc += double(r.c[i]) * double(v);
        });
        return acc;
    });
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

// Preconditioned conjugate gradients on A p~ = -D(u) (Saad, "Iterative Methods", alg. 9.1),
// then u -= G p~ and p = p~ h / dt.
template<bool k3D>
SolveResult PressureSolver::Impl::solve(MacGrid &vel, ScalarGrid &pressure, float dt,
                                        const PressureSettings &settings, Workspace &work)
{
    SolveResult result;
    const Level &l = levels[0];
    const Int3 n = l.n;
    const int nx = n.x;
    const std::size_t rows = std::size_t(n.y) * std::size_t(n.z);
    const float toTilde = dt / domain.cellSize;
    const float fromTilde = domain.cellSize / dt;
    const std::uint8_t *flags = l.flags.data();

    work[0].reshape(n, kCellCentre);
    work[1].reshape(n, kCellCentre);
    work[2].reshape(n, kCellCentre);
    float *r = work[0].data();
    float *z = work[1].data(); // also q = A s
    float *s = work[2].data();
    float *x = pressure.data();

    // b = -D(u) on active cells, into r; its sum and largest magnitude.
    std::vector<double> rowMax(rows);
    const double sumB = sumRows(n, [&](int j, int k) {
        const std::size_t o = l.row(j, k);
        double sum = 0.0;
        forDivergenceRow<k3D>(vel, j, k, [&](int i, float d) {
            const float bv = (flags[o + std::size_t(i)] & kDiagBits) ? -d : 0.f;
            r[o + std::size_t(i)] = bv;
            sum += double(bv);
        });
        rowMax[std::size_t(j) + std::size_t(n.y) * std::size_t(k)] =
            rowAbsMax(nx, [&](int i) { return r[o + std::size_t(i)]; });
        return sum;
    });
    double maxB = 0.0;
    for (double m : rowMax)
        maxB = std::max(maxB, m);
    result.initialResidual = maxB;
    if (!std::isfinite(maxB) || !std::isfinite(sumB)) {
        result.residual = std::numeric_limits<double>::infinity();
        return result; // NaN or overflow in the velocity: leave everything as it was
    }
    if (maxB == 0.0) {
        pressure.fill(0.f); // already divergence-free: nothing to subtract
        result.converged = true;
        return result;
    }

    // Warm start p~0 = p dt / h on active cells (non-finite values restart from 0).
    const double sumX0 = sumRows(n, [&](int j, int k) {
        const std::size_t o = l.row(j, k);
        double sum = 0.0;
        for (int i = 0; i < nx; ++i) {
            const float p = x[o + std::size_t(i)] * toTilde;
            const float v = (flags[o + std::size_t(i)] & kDiagBits) && std::isfinite(p) ? p : 0.f;
            x[o + std::size_t(i)] = v;
            sum += double(v);
        }
        return sum;
    });
    const double meanB = singular ? sumB / activeCells : 0.0;
    const double meanX0 = singular ? sumX0 / activeCells : 0.0;

    // r = (b - mean b) - A x0, with max |b - mean b| and max |r|.
    std::vector<double> rowMaxR(rows);
    const bool px = l.periodic[0];
    const float mb = float(meanB);
    maxB = maxRows(n, [&](int j, int k) {
        const Rows xr = neighbourRows(l, x, zeroRow.data(), j, k);
        const std::size_t o = l.row(j, k);
        float *rr = r + o;
        const std::uint8_t *f = flags + o;
        float mB = 0.f, mR = 0.f;
        bool nan = false;
        forRowCells<k3D>(xr, nx, px, [&](int i, float sum) {
            const int d = f[i] & kDiagBits;
            const float bv = d ? rr[i] - mb : 0.f;
            const float rv = d ? bv - (float(d) * xr.c[i] - sum) : 0.f;
            rr[i] = rv;
            mB = std::max(mB, std::fabs(bv));
            mR = std::max(mR, std::fabs(rv));
            nan |= rv != rv;
        });
        rowMaxR[std::size_t(j) + std::size_t(n.y) * std::size_t(k)] =
            nan ? std::numeric_limits<double>::infinity() : double(mR);
        return double(mB);
    });
    double maxR = 0.0;
    for (double m : rowMaxR)
        maxR = std::max(maxR, m);
    if (maxB == 0.0) {
        pressure.fill(0.f); // b was a constant, which the all-Neumann system cannot remove
        result.converged = true;
        return result;
    }
    const double target = settings.tolerance * maxB;
    result.residual = maxR / maxB;

    bool applied = std::isfinite(maxR);
    if (applied && maxR <= target) {
        result.converged = true;
    } else if (applied) {
        const bool mg = settings.multigrid;
        Dots dots = precondition<k3D>(z, r, mg);
        float zMean = singular ? float(dots.sumZ / activeCells) : 0.f;
        double rho = dots.rz - double(zMean) * dots.sumR;
        forEachIndex(std::int64_t(n.volume()), [&](std::int64_t c) {
            s[c] = (flags[c] & kDiagBits) ? z[c] - zMean : 0.f;
        });
        for (int it = 1; it <= settings.maxIterations; ++it) {
            const double sq = applyOperator<k3D>(s, z);
            if (!(sq > 0.0) || !std::isfinite(sq) || !std::isfinite(rho))
                break;
            const float alpha = float(rho / sq);
            maxR = maxRows(n, [&](int j, int k) {
                const std::size_t o = l.row(j, k);
                float *xr = x + o, *rr = r + o;
                const float *sr = s + o, *qr = z + o;
                return rowAbsMax(nx, [&](int i) {
                    xr[i] += alpha * sr[i];
                    rr[i] -= alpha * qr[i];
                    return rr[i];
                });
            });
            result.iterations = it;
            result.residual = maxR / maxB;
            if (maxR <= target) {
                result.converged = true;
                break;
            }
            if (!std::isfinite(maxR) || it == settings.maxIterations)
                break;
            dots = precondition<k3D>(z, r, mg);
            zMean = singular ? float(dots.sumZ / activeCells) : 0.f;
            const double rhoNew = dots.rz - double(zMean) * dots.sumR;
            const float beta = float(rhoNew / rho);
            rho = rhoNew;
            forEachIndex(std::int64_t(n.volume()), [&](std::int64_t c) {
                s[c] = (flags[c] & kDiagBits) ? (z[c] - zMean) + beta * s[c] : 0.f;
            });
        }
    }

    if (applied)
        subtractGradient<k3D>(vel, x);
    // Back to world pressure; in the all-Neumann case keep the warm start's mean level.
    const float mx = float(meanX0);
    forEachIndex(std::int64_t(n.volume()), [&](std::int64_t c) {
        x[c] = (flags[c] & kDiagBits) ? (x[c] - mx) * fromTilde : 0.f;
    });
    return result;
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

    // Singular when no active cell has an open (Dirichlet) domain face.
    const Level &l = d->levels[0];
    const int axes = domain.is2D() ? 2 : 3;
    std::vector<double> open(std::size_t(n.y) * std::size_t(n.z));
    d->activeCells = sumRows(n, [&](int j, int k) {
        const std::uint8_t *f = l.flags.data() + l.row(j, k);
        double active = 0.0, dirichlet = 0.0;
        for (int i = 0; i < n.x; ++i) {
            if (!(f[i] & kDiagBits))
                continue;
            active += 1.0;
            const int idx[3] = {i, j, k};
            for (int a = 0; a < axes; ++a) {
                if (idx[a] == 0 && domain.boundary(a, false) == Boundary::Open)
                    dirichlet += 1.0;
                if (idx[a] == n[a] - 1 && domain.boundary(a, true) == Boundary::Open)
                    dirichlet += 1.0;
            }
        }
        open[std::size_t(j) + std::size_t(n.y) * std::size_t(k)] = dirichlet;
        return active;
    });
    double dirichlet = 0.0;
    for (double o : open)
        dirichlet += o;
    d->singular = dirichlet == 0.0;
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
    for (const Level &l : d->levels)
        total += l.flags.capacity() + (l.x.capacity() + l.b.capacity()) * sizeof(float);
    return total;
}

} // namespace plume::sim
