// SPDX-License-Identifier: Apache-2.0
#pragma once

// The multigrid hierarchy of the pressure Poisson operator (McAdams, Sifakis and Teran 2010):
// per-level cell flags, the fluid regions and their pockets, and the symmetric red-black V-cycle
// used as the conjugate-gradient preconditioner (pressure.cpp); its row sums are rowkernels.h.
// Internal to plume_sim.

#include <core/sim/base/domain.h>
#include <core/sim/base/grid.h>
#include <core/sim/base/parallel.h>
#include <core/sim/numerics/rowkernels.h>

#include <array>
#include <bit>
#include <cstdint>
#include <limits>
#include <vector>

namespace plume::sim {

// Per-cell flag byte: the number of open faces (the diagonal of A) and whether the cell is fluid.
constexpr std::uint8_t kDiagBits = 7;
constexpr std::uint8_t kFluidBit = 8;

// Red cells have (i + j + k) even.
constexpr int kRed = 0;
constexpr int kBlack = 1;

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

    /// The cells next to obstacles, which get extra smoothing (McAdams, Sifakis and Teran
    /// 2010, section 4: boundary smoothing), per colour. The black list also holds every black
    /// neighbour of a red band cell.
    struct Band
    {
        std::vector<std::uint32_t> cells;
        /// Per cell: bit 2 axis + side when that neighbour is coupled and a stride away (not
        /// across a domain side); kWraps when a coupled neighbour lies across a periodic side.
        std::vector<std::uint8_t> links;
        static constexpr std::uint8_t kWraps = 64;
    };
    std::array<Band, 2> band;
    std::vector<float> bandSaved; ///< the red band's values across the residual pass

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

inline Rows neighbourRows(const Level &l, const float *v, const float *zero, int j, int k)
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
inline float overDiag(float v, std::uint32_t d) { return v / float(d | std::uint32_t(d == 0)); }

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

// r.z, sum z and sum r of a row, into out[0..2]; the sums only when `sums` (they serve the
// all-cells mean removal of a singular system, and are 0 otherwise).
inline void rowDots(const float *r, const float *z, int nx, double *out, bool sums = true)
{
    out[0] = rowDot(r, z, nx);
    out[1] = sums ? rowDot(z, nullptr, nx) : 0.0;
    out[2] = sums ? rowDot(r, nullptr, nx) : 0.0;
}

/// r.z, sum z and sum r of a preconditioned residual (the sums serve the null-space removal).
struct Dots
{
    double rz = 0.0, sumZ = 0.0, sumR = 0.0;
};
// Adds per-row (r.z, sum z, sum r) triples in row order.
inline Dots sumDots(const std::vector<double> &partial)
{
    Dots d;
    for (std::size_t n = 0; n + 2 < partial.size(); n += 3) {
        d.rz += partial[n];
        d.sumZ += partial[n + 1];
        d.sumR += partial[n + 2];
    }
    return d;
}

/// The operator's levels and regions for one domain and solid layout.
struct Multigrid
{
    Domain domain;
    bool singular = false;        // one region and no open face: constants are A's null space
    bool multigridUsable = false; // every level admits a red-black colouring
    double activeCells = 0.0;     // cells with at least one open face
    std::vector<Level> levels;    // levels[0] is the fine grid (its vectors live outside)
    std::vector<float> zeroRow;

    /// Cells of the pockets (fluid regions with no open face), in compressed rows.
    struct Pockets
    {
        std::vector<std::uint32_t> cells, start{0};
        std::size_t count() const { return start.size() - 1; }
    } pockets;

    /// Builds every level for `domain` from the fine cells' fluid flags (1 = fluid).
    void build(const Domain &d, const std::vector<std::uint8_t> &fineFluid);

    /// Symmetric V-cycle from zero on `level`: x = M^-1 b. On level 0 the red start x = b / diag
    /// must be in x already (startRow); returns the fine level's dots (empty on coarse levels).
    template<bool k3D>
    Dots vcycle(int level, float *x, const float *b);

    /// Per pocket: v -= mean of v over the pocket. With `r`, returns the sum over pockets of
    /// mean(v) * sum(r) (what r.v loses by it).
    double removePocketMeans(float *v, const float *r) const;

    std::size_t memoryBytes() const;

private:
    std::int64_t neighbour(const Level &l, int i, int j, int k, int axis, int side,
                           Boundary *boundary) const;
    double buildFlags(Level &l, const std::vector<std::int32_t> &label);
    int labelRegions(const Level &l, std::vector<std::int32_t> &label);
    int prolongTaps(const Level &f, const Level &c, int i, int j, int k, std::uint32_t *taps,
                    float *weights) const;
    void buildBand(Level &l, const std::vector<std::int32_t> &label) const;
    template<bool k3D>
    void bandSweep(Level &l, float *x, const float *b, int colour) const;
    void bandSave(Level &l, const float *x) const;
    void bandResidual(Level &l, float *x, const float *b) const;
    void bandRestore(Level &l, float *x, const float *b) const;
    void buildTransferFix(const Level &f, const std::vector<std::int32_t> &fineLabel, Level &c,
                          const std::vector<std::int32_t> &coarseLabel);

    template<bool k3D, bool kResidual = false>
    void sweep(Level &l, float *x, const float *b, int colour,
               std::vector<double> *partial = nullptr);
    template<bool k3D>
    void restrictResidual(const Level &f, const float *x, Level &c);
    template<bool k3D>
    void prolongIntoRed(Level &f, float *x, const float *b, const Level &c);
};

} // namespace plume::sim
