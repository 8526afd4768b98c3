// SPDX-License-Identifier: Apache-2.0
// The multigrid hierarchy (McAdams, Sifakis and Teran 2010) and its V-cycle. Over 800 lines on
// purpose: the hierarchy's construction and the cycle's transfers share the tap rules
// (gatherTap, prolongTap) that make restriction the exact transpose of prolongation, which the
// preconditioner's symmetry (and so CG's convergence) depends on; one file keeps that pairing in
// view and lets the hot loops inline them.
#include <core/sim/numerics/multigrid.h>

#include <algorithm>
#include <cmath>
#include <optional>

namespace plume::sim {

namespace {

constexpr int kCoarsestSide = 4; // coarsen while some side is longer than this
constexpr int kMaxLevels = 16;
constexpr int kCoarsestSweeps = 16; // black-red sweep pairs that stand in for a coarsest solve
constexpr int kBandSweeps = 2;      // red-black sweep pairs over the band before and after a level

constexpr float kNear = 0.75f; // weights of linear cell-centred prolongation
constexpr float kFar = 0.25f;

/// forEachRow with a scratch buffer of `len` floats per chunk of rows (no row reads what an
/// earlier row left in it, so results do not depend on the chunking).
template<class F>
void forEachRowScratch(Int3 size, std::size_t len, F &&body)
{
    const std::int64_t ny = size.y;
    std::optional<SerialScope> serial; // coarse levels stay on this thread (forEachRowLight)
    if (tooSmallForTasks(size))
        serial.emplace();
    detail::forRowChunks(std::int64_t(size.y) * size.z, [&](std::int64_t b, std::int64_t e) {
        std::vector<float> scratch(len);
        for (std::int64_t r = b; r < e; ++r)
            body(int(r % ny), int(r / ny), scratch.data());
    });
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

// Index of the neighbour of cell (i, j, k) across face `side` (0: low, 1: high) of `axis`, or
// -1 outside a side that does not wrap; `boundary` gets that side's mode when outside.
std::int64_t Multigrid::neighbour(const Level &l, int i, int j, int k, int axis, int side,
                                  Boundary *boundary) const
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
double Multigrid::buildFlags(Level &l, const std::vector<std::int32_t> &label)
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
int Multigrid::labelRegions(const Level &l, std::vector<std::int32_t> &label)
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
                parent[std::size_t(c)] = i > 0 && active(c - 1) ? find(std::int32_t(c - 1))
                                                                : std::int32_t(c);
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
int Multigrid::prolongTaps(const Level &f, const Level &c, int i, int j, int k, std::uint32_t *taps,
                           float *weights) const
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
void Multigrid::buildTransferFix(const Level &f, const std::vector<std::int32_t> &fineLabel,
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

// The band: active cells with a solid cell of the level beside them (not a domain wall: flat
// walls coarsen exactly), widened by one cell along each axis. Rows run in parallel; each pass
// writes its own cells' flags and reads only what an earlier pass wrote.
void Multigrid::buildBand(Level &l, const std::vector<std::int32_t> &label) const
{
    const Int3 n = l.n;
    const int axes = domain.is2D() ? 2 : 3;
    auto active = [&](std::int64_t c) { return (l.flags[std::size_t(c)] & kDiagBits) != 0; };
    // f(slot, neighbour index or -1) for the 2 * axes neighbours of (i, j, k).
    auto forNeighbours = [&](int i, int j, int k, auto &&f) {
        for (int a = 0; a < axes; ++a)
            for (int side = 0; side < 2; ++side)
                f(2 * a + side, neighbour(l, i, j, k, a, side, nullptr));
    };
    // out[c] = cellFlag(i, j, k) on active cells, 0 elsewhere.
    auto pass = [&](std::vector<std::uint8_t> &out, auto &&cellFlag) {
        out.assign(std::size_t(n.volume()), 0);
        forEachRow(n, [&](int j, int k) {
            const std::size_t row = l.row(j, k);
            for (int i = 0; i < n.x; ++i) {
                if (active(std::int64_t(row) + i))
                    out[row + std::size_t(i)] = cellFlag(i, j, k);
            }
        });
    };
    auto anyNeighbour = [&](int i, int j, int k, auto &&test) {
        bool any = false;
        forNeighbours(i, j, k, [&](int, std::int64_t q) { any = any || (q >= 0 && test(q)); });
        return std::uint8_t(any);
    };
    std::vector<std::uint8_t> near, in;
    pass(near, [&](int i, int j, int k) {
        return anyNeighbour(i, j, k, [&](std::int64_t q) {
            return label[std::size_t(q)] < 0 && !active(q);
        });
    });
    pass(in, [&](int i, int j, int k) {
        return std::uint8_t(near[l.row(j, k) + std::size_t(i)]
                            | anyNeighbour(i, j, k, [&](std::int64_t q) { return near[q] != 0; }));
    });
    // Black cells beside a red band cell join the black list (`near` is reused for them): after
    // the band's last black sweep every black cell then has a zero residual again, which the
    // residual pass counts on.
    std::vector<std::uint8_t> &join = near;
    pass(join, [&](int i, int j, int k) {
        return std::uint8_t(((i + j + k) & 1) == kBlack
                            && anyNeighbour(i, j, k, [&](std::int64_t q) { return in[q] != 0; }));
    });
    for (Level::Band &b : l.band) {
        b.cells.clear();
        b.links.clear();
    }
    for (int k = 0; k < n.z; ++k) {
        for (int j = 0; j < n.y; ++j) {
            const std::size_t row = l.row(j, k);
            for (int i = 0; i < n.x; ++i) {
                const int colour = (i + j + k) & 1;
                if (!in[row + std::size_t(i)] && !join[row + std::size_t(i)])
                    continue;
                Level::Band &band = l.band[std::size_t(colour)];
                band.cells.push_back(std::uint32_t(row + std::size_t(i)));
                const std::uint32_t coupled = l.faces.empty() ? 0x3fu : l.faces[row + i];
                const int at[3] = {i, j, k};
                std::uint8_t links = 0;
                forNeighbours(i, j, k, [&](int slot, std::int64_t q) {
                    if (q < 0 || !((coupled >> slot) & 1u))
                        return;
                    const int a = slot / 2, side = slot % 2;
                    const bool wraps = side ? at[a] == n[a] - 1 : at[a] == 0;
                    links |= wraps ? Level::Band::kWraps : std::uint8_t(1u << slot);
                });
                band.links.push_back(links);
            }
        }
    }
    for (Level::Band &b : l.band) {
        b.cells.shrink_to_fit();
        b.links.shrink_to_fit();
    }
    l.bandSaved.assign(l.band[kRed].cells.size(), 0.f);
}

// Gauss-Seidel over the band cells of one colour, which do not touch each other (a band of
// under 4096 cells stays on this thread).
template<bool k3D>
void Multigrid::bandSweep(Level &l, float *x, const float *b, int colour) const
{
    const Level::Band &band = l.band[std::size_t(colour)];
    const std::uint32_t nx = std::uint32_t(l.n.x), ny = std::uint32_t(l.n.y);
    const std::int64_t stride[6] = {
        -1, 1, -std::int64_t(nx), std::int64_t(nx), -std::int64_t(nx) * ny, std::int64_t(nx) * ny};
    forEachIndex(std::int64_t(band.cells.size()), [&](std::int64_t m) {
        const std::uint32_t c = band.cells[std::size_t(m)];
        const std::uint8_t links = band.links[std::size_t(m)];
        float s = 0.f;
        if (!(links & Level::Band::kWraps)) {
            for (int slot = 0; slot < (k3D ? 6 : 4); ++slot)
                s += (links >> slot) & 1u ? x[std::int64_t(c) + stride[slot]] : 0.f;
        } else {
            // Beside a periodic side: the neighbours as the level finds them, in the same order.
            const std::uint32_t coupled = l.faces.empty() ? 0x3fu : l.faces[c];
            const int i = int(c % nx), j = int(c / nx % ny), k = int(c / nx / ny);
            for (int slot = 0; slot < (k3D ? 6 : 4); ++slot) {
                const std::int64_t q = neighbour(l, i, j, k, slot / 2, slot % 2, nullptr);
                s += q >= 0 && ((coupled >> slot) & 1u) ? x[q] : 0.f;
            }
        }
        x[c] = overDiag(b[c] + s, l.flags[c] & kDiagBits);
    });
}

// The red band's smoothed values, before the residual pass overwrites them.
void Multigrid::bandSave(Level &l, const float *x) const
{
    const std::vector<std::uint32_t> &cells = l.band[kRed].cells;
    for (std::size_t m = 0; m < cells.size(); ++m)
        l.bandSaved[m] = x[cells[m]];
}

// The residual pass stored the sum of the neighbours at red cells, which is b - A x where
// x = b / diag; at the red band cells x is the saved value instead.
void Multigrid::bandResidual(Level &l, float *x, const float *b) const
{
    const std::vector<std::uint32_t> &cells = l.band[kRed].cells;
    for (std::size_t m = 0; m < cells.size(); ++m) {
        const std::uint32_t c = cells[m];
        x[c] = (b[c] - float(l.flags[c] & kDiagBits) * l.bandSaved[m]) + x[c];
    }
}

// prolongIntoRed gave red cells b / diag + the correction; the red band cells started from
// their saved values instead.
void Multigrid::bandRestore(Level &l, float *x, const float *b) const
{
    const std::vector<std::uint32_t> &cells = l.band[kRed].cells;
    for (std::size_t m = 0; m < cells.size(); ++m) {
        const std::uint32_t c = cells[m];
        x[c] = l.bandSaved[m] + (x[c] - overDiag(b[c], l.flags[c] & kDiagBits));
    }
}

// Cell-centred levels coarsened by 2 per axis (rounding up). A coarse cell is fluid when its
// active children belong to one region (McAdams, Sifakis and Teran 2010, section 4, with the
// regions kept apart), and it takes that region.
void Multigrid::build(const Domain &d, const std::vector<std::uint8_t> &fineFluid)
{
    domain = d;
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
    buildBand(levels[0], label);
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
        buildBand(c, coarseLabel);
        if (regions > 1)
            buildTransferFix(f, label, c, coarseLabel);
        c.x.assign(std::size_t(c.n.volume()), 0.f);
        c.b.assign(std::size_t(c.n.volume()), 0.f);
        levels.push_back(std::move(c));
        label.swap(coarseLabel);
    }
    const Level &fine = levels[0];
    activeCells = sumRows(fine.n, [&](int j, int k) {
        const std::uint8_t *f = fine.flags.data() + fine.row(j, k);
        double active = 0.0;
        for (int i = 0; i < fine.n.x; ++i)
            active += (f[i] & kDiagBits) ? 1.0 : 0.0;
        return active;
    });
    zeroRow.assign(std::size_t(fine.n.x), 0.f);
}

// Gauss-Seidel over the cells of one colour: x = (b + sum of neighbours) / diag. With
// kResidual, red cells get b - A x instead, for a start of red = b / diag followed by one black
// sweep: black residuals then vanish and red ones reduce to the sum of the (black) neighbours.
// Storing them in place of x_red (which prolongIntoRed recomputes) keeps the fine level within
// the three workspace grids. With `partial`, also the row's r.z, sum z and sum r.
template<bool k3D, bool kResidual>
void Multigrid::sweep(Level &l, float *x, const float *b, int colour, std::vector<double> *partial)
{
    const bool px = l.periodic[0];
    const int nx = l.n.x;
    forEachRowLight(l.n, [&](int j, int k) {
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
            rowDots(br, xr, nx, &(*partial)[3 * l.rowIndex(j, k)], singular);
    });
}

// Coarse rhs = 4 / 2^dim * P^T (red residuals): the transpose of linear prolongation, scaled
// for the rediscretised coarse operator (h doubles, so A_2h ~ 4 A_h).
template<bool k3D>
void Multigrid::restrictResidual(const Level &f, const float *x, Level &c)
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
void Multigrid::prolongIntoRed(Level &f, float *x, const float *b, const Level &c)
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
Dots Multigrid::vcycle(int level, float *x, const float *b)
{
    Level &l = levels[std::size_t(level)];
    std::vector<double> partial(level == 0 ? 3 * std::size_t(l.n.y) * l.n.z : 0);
    std::vector<double> *dots = level == 0 ? &partial : nullptr;
    if (level > 0) {
        forEachRowLight(l.n, [&](int j, int k) {
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
    for (int s = 0; s < kBandSweeps; ++s) {
        bandSweep<k3D>(l, x, b, kRed);
        bandSweep<k3D>(l, x, b, kBlack);
    }
    bandSave(l, x);
    sweep<k3D, true>(l, x, b, kRed);
    bandResidual(l, x, b);
    Level &c = levels[std::size_t(level) + 1];
    restrictResidual<k3D>(l, x, c);
    vcycle<k3D>(level + 1, c.x.data(), c.b.data());
    prolongIntoRed<k3D>(l, x, b, c);
    bandRestore(l, x, b);
    for (int s = 0; s < kBandSweeps; ++s) {
        bandSweep<k3D>(l, x, b, kBlack);
        bandSweep<k3D>(l, x, b, kRed);
    }
    sweep<k3D>(l, x, b, kBlack);
    sweep<k3D>(l, x, b, kRed, dots);
    return sumDots(partial);
}
// Per pocket: v -= mean of v over the pocket. With `r`, returns sum over pockets of
// mean(v) * sum(r) (what r.v loses by it); the sums run in cell order on one thread.
double Multigrid::removePocketMeans(float *v, const float *r) const
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

std::size_t Multigrid::memoryBytes() const
{
    std::size_t total = zeroRow.capacity() * sizeof(float);
    total += (pockets.cells.capacity() + pockets.start.capacity()) * sizeof(std::uint32_t);
    for (const Level &l : levels) {
        for (const Level::Band &b : l.band)
            total += b.cells.capacity() * sizeof(std::uint32_t) + b.links.capacity();
        total += l.bandSaved.capacity() * sizeof(float);
        total += l.flags.capacity() + l.faces.capacity()
                 + (l.x.capacity() + l.b.capacity()) * sizeof(float);
        for (const TransferFix *fix : {&l.prolongFix, &l.restrictFix})
            total += (fix->cells.capacity() + fix->start.capacity() + fix->taps.capacity()
                      + fix->weights.capacity())
                     * 4;
    }
    return total;
}

template Dots Multigrid::vcycle<false>(int, float *, const float *);
template Dots Multigrid::vcycle<true>(int, float *, const float *);

} // namespace plume::sim
