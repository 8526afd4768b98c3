// SPDX-License-Identifier: Apache-2.0
// ForceEvaluator: the scene's force fields (directional, vortex, radial, turbulence, drag,
// disturbance) in their regions and control masks, added at the open faces. The noise of the
// turbulence fields is in curlnoise.{h,cpp}, the disturbance's blocks in blocknoise.h; buoyancy
// and vorticity confinement are buoyancy.cpp and vorticity.cpp.
#include <core/sim/ops/forces.h>

#include <core/sim/base/assert.h>

#include <core/sim/numerics/blocknoise.h>
#include <core/sim/numerics/curlnoise.h>
#include <core/sim/ops/faceloops.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <utility>

namespace plume::sim {

using namespace detail;

namespace {

/// Weight at `outside` world units beyond a shape: 1 - smoothstep over `falloff`.
inline float falloffWeight(float outside, float falloff)
{
    if (outside <= 0.f)
        return 1.f;
    if (falloff <= 0.f || outside >= falloff)
        return 0.f;
    const float t = outside / falloff;
    return 1.f - t * t * (3.f - 2.f * t);
}

inline float clampf(float x, float lo, float hi) { return x < lo ? lo : (x > hi ? hi : x); }

/// Trilinear interpolation of a cell-centred grid at cell coordinates (clamped at the ends).
inline float sampleCentred(const ScalarGrid &g, float cx, float cy, float cz)
{
    const Int3 n = g.size();
    const float c[3] = {cx, cy, cz};
    int i0[3], i1[3];
    float f[3];
    for (int a = 0; a < 3; ++a) {
        const float x = clampf(c[a] - 0.5f, 0.f, float(n[a] - 1));
        i0[a] = std::min(int(x), std::max(n[a] - 2, 0));
        i1[a] = std::min(i0[a] + 1, n[a] - 1);
        f[a] = x - float(i0[a]);
    }
    auto lerp = [](float p, float q, float t) { return p + t * (q - p); };
    auto row = [&](int j, int k) { return lerp(g(i0[0], j, k), g(i1[0], j, k), f[0]); };
    return lerp(lerp(row(i0[1], i0[2]), row(i1[1], i0[2]), f[1]),
                lerp(row(i0[1], i1[2]), row(i1[1], i1[2]), f[1]), f[2]);
}

/// Region weight at a world position (x, y, z); `mask` is the densified mask or empty.
inline float weightAt(const Region &r, const ScalarGrid &mask, const Domain &d, float x, float y,
                      float z)
{
    const float inv = 1.f / d.cellSize;
    if (mask.count() > 0)
        return sampleCentred(mask, (x - d.origin.x) * inv, (y - d.origin.y) * inv,
                             (z - d.origin.z) * inv);
    const float dx = x - r.centre.x, dy = y - r.centre.y, dz = d.is2D() ? 0.f : z - r.centre.z;
    switch (r.shape) {
    case RegionShape::Everywhere: return 1.f;
    case RegionShape::Sphere:
        return falloffWeight(std::sqrt(dx * dx + dy * dy + dz * dz) - r.radius, r.falloff);
    case RegionShape::Box:
        return falloffWeight(std::fabs(dx) - r.halfSize.x, r.falloff)
               * falloffWeight(std::fabs(dy) - r.halfSize.y, r.falloff)
               * (d.is2D() ? 1.f : falloffWeight(std::fabs(dz) - r.halfSize.z, r.falloff));
    }
    return 0.f;
}

/// A cell-centred weight grid at a face of `axis`: the mean of the face's two cells (faceCells:
/// wrapped on periodic axes, the one cell at the other ends).
inline float faceWeight(const ScalarGrid &w, const Domain &d, int axis, int i, int j, int k)
{
    int c[3] = {i, j, k};
    int lo = 0, hi = 0;
    faceCells(c[axis], d.cells[axis], d.boundary(axis, false) == Boundary::Periodic, lo, hi);
    c[axis] = lo;
    const float a = w(c[0], c[1], c[2]);
    c[axis] = hi;
    return 0.5f * (a + w(c[0], c[1], c[2]));
}

/// Blends node(a, b, c) (a float or a Vec3) between the block centres around world point
/// (x, y, z): block n is centred at (n + 1/2) / invScale; the weights are blockFade's.
template<class Node>
inline auto blendBlocks(float x, float y, float z, float invScale, bool is2D, Node &&node)
{
    const float q[3] = {x * invScale - 0.5f, y * invScale - 0.5f, z * invScale - 0.5f};
    int i[3];
    float t[3];
    for (int a = 0; a < 3; ++a) {
        const float fl = std::floor(q[a]);
        i[a] = int(fl);
        t[a] = blockFade(q[a] - fl);
    }
    auto lerp = [](auto p, auto r, float s) { return p + (r - p) * s; };
    auto plane = [&](int c) {
        return lerp(lerp(node(i[0], i[1], c), node(i[0] + 1, i[1], c), t[0]),
                    lerp(node(i[0], i[1] + 1, c), node(i[0] + 1, i[1] + 1, c), t[0]), t[1]);
    };
    if (is2D)
        return plane(0);
    return lerp(plane(i[2]), plane(i[2] + 1), t[2]);
}

/// The refreshes of a disturbance that [time, time + dt] spans and the share of the span each
/// takes (refresh r covers [r, r + 1) / rate). At most kMaxRefreshes (equal shares beyond
/// that: averages of so many random directions are near zero anyway). Rate 0: refresh 0.
constexpr int kMaxRefreshes = 64;
int refreshesOf(double time, float dt, float rate, std::int64_t *index, float *share)
{
    const double t0 = time * double(rate), t1 = (time + double(dt)) * double(rate);
    const double first = std::floor(t0);
    index[0] = std::int64_t(first);
    share[0] = 1.f;
    if (!(t1 > t0) || std::floor(t1) == first)
        return 1;
    int count = 0;
    for (double r = first; r < t1 && count < kMaxRefreshes; r += 1.0) {
        index[count] = std::int64_t(r);
        share[count] = float((std::fmin(t1, r + 1.0) - std::fmax(t0, r)) / (t1 - t0));
        ++count;
    }
    if (count == kMaxRefreshes && first + double(kMaxRefreshes) < t1) {
        for (int c = 0; c < count; ++c)
            share[c] = 1.f / float(count);
    }
    return count;
}

} // namespace

// ---------------------------------------------------------------------------------------------
// ForceEvaluator

/// A disturbance's block kicks for one step: one vector per block centre over the field's
/// box, the blocks' unit directions averaged over the step's refreshes.
struct ForceEvaluator::BlockLattice
{
    Int3 lo{0, 0, 0};    ///< first block index per axis
    Int3 count{0, 0, 0}; ///< blocks per axis
    float invScale = 0.f;
    bool is2D = false;
    std::vector<Vec3> kick;

    /// Component `axis` of the blended kick at a world point.
    float at(int axis, float x, float y, float z) const
    {
        return blendBlocks(x, y, z, invScale, is2D, [&](int a, int b, int c) {
            a = std::clamp(a - lo.x, 0, count.x - 1);
            b = std::clamp(b - lo.y, 0, count.y - 1);
            c = is2D ? 0 : std::clamp(c - lo.z, 0, count.z - 1);
            return kick[std::size_t(a) + std::size_t(count.x) * (b + std::size_t(count.y) * c)]
                       [axis];
        });
    }
};

/// Per-block sums of acceleration on the faces of each axis, and the potential of a turbulence
/// field on the block's edges. Rows have nx + 1 entries for every axis.
struct ForceEvaluator::BlockScratch
{
    static constexpr int kBlockRows = 8;
    static constexpr int kBlockSlabs = 4;

    int rowLength = 0;
    std::array<std::vector<float>, 3> acc;
    std::array<std::vector<std::uint8_t>, 3> touched; ///< rows that received any force
    std::array<std::vector<float>, 3> psi;            ///< potential on x-, y- and z-edges

    explicit BlockScratch(int nx)
        : rowLength(nx + 1)
    {}

    std::size_t row(const Block &b, int j, int k) const
    {
        return std::size_t((k - b.k0) * kBlockRows + (j - b.j0));
    }
    float *accRow(int axis, const Block &b, int j, int k)
    {
        std::vector<float> &a = acc[std::size_t(axis)];
        if (a.empty()) {
            a.assign(std::size_t(rowLength) * kBlockRows * kBlockSlabs, 0.f);
            touched[std::size_t(axis)].assign(std::size_t(kBlockRows) * kBlockSlabs, 0);
        }
        touched[std::size_t(axis)][row(b, j, k)] = 1;
        return a.data() + row(b, j, k) * std::size_t(rowLength);
    }
    /// Edge rows have one more entry in y and z than face rows: (rows + 1) x (slabs + 1).
    float *edgeRow(int which, const Block &b, int j, int k)
    {
        std::vector<float> &p = psi[std::size_t(which)];
        if (p.empty())
            p.assign(std::size_t(rowLength) * (kBlockRows + 1) * (kBlockSlabs + 1), 0.f);
        const std::size_t r = std::size_t((k - b.k0) * (kBlockRows + 1) + (j - b.j0));
        return p.data() + r * std::size_t(rowLength);
    }
};

void ForceEvaluator::setup(const Domain &domain, std::vector<ForceField> fields)
{
    mDomain = domain;
    mFields = std::move(fields);
    mMasks.assign(mFields.size(), ScalarGrid{});
    mPrepared.assign(mFields.size(), Prepared{});
    const Int3 n = domain.cells;
    const std::size_t cellCount = std::size_t(domain.cellCount());
    const bool is2D = domain.is2D();
    for (std::size_t f = 0; f < mFields.size(); ++f) {
        const ForceField &field = mFields[f];
        Prepared &p = mPrepared[f];
        p.unit = is2D && field.type == ForceType::Vortex ? Vec3{0.f, 0.f, 1.f}
                                                         : normalizedOrZero(field.direction);
        p.lo = Int3{0, 0, 0};
        p.hi = n;
        const bool noisy = field.type == ForceType::Turbulence
                           || field.type == ForceType::Disturbance;
        // Shredding reads the temperature, which the evaluator does not see: the smoke scheme
        // applies it (addShredding), and here it adds nothing.
        p.active = field.strength != 0.f && std::isfinite(field.strength)
                   && !(noisy && !(field.scale > 0.f)) && field.type != ForceType::Shredding;
        const Region &r = field.region;
        Vec3 lo{}, hi{};
        if (!r.mask.empty()) {
            ScalarGrid &m = mMasks[f];
            m.reshape(n, kCellCentre, 0.f);
            Int3 cmin{INT_MAX, INT_MAX, INT_MAX}, cmax{-1, -1, -1};
            for (std::size_t e = 0; e < r.mask.size() && e < r.mask.weights.size(); ++e) {
                const std::uint32_t c = r.mask.cells[e];
                const float weight = clampf(r.mask.weights[e], 0.f, 1.f);
                if (c >= cellCount || !(weight > 0.f))
                    continue;
                m[c] = weight;
                const Int3 ijk{int(c % std::uint32_t(n.x)), int(c / std::uint32_t(n.x) % n.y),
                               int(c / (std::uint32_t(n.x) * std::uint32_t(n.y)))};
                for (int a = 0; a < 3; ++a) {
                    cmin[a] = std::min(cmin[a], ijk[a]);
                    cmax[a] = std::max(cmax[a], ijk[a]);
                }
            }
            // Interpolation between centres reaches one cell beyond the outermost centres.
            lo = Vec3{float(cmin.x) - 1.f, float(cmin.y) - 1.f, float(cmin.z) - 1.f};
            hi = Vec3{float(cmax.x) + 2.f, float(cmax.y) + 2.f, float(cmax.z) + 2.f};
            p.active = p.active && cmax.x >= 0;
        } else if (r.shape == RegionShape::Everywhere) {
            continue;
        } else {
            const float reach = r.falloff + (r.shape == RegionShape::Sphere ? r.radius : 0.f);
            const Vec3 half = r.shape == RegionShape::Box ? r.halfSize : Vec3{};
            lo = domain.toCell(r.centre - half - Vec3{reach, reach, reach});
            hi = domain.toCell(r.centre + half + Vec3{reach, reach, reach});
        }
        // One node of margin against rounding; 2D ignores z. Infinite reach clamps to the grid.
        for (int a = 0; a < (is2D ? 2 : 3); ++a) {
            const float l = std::fmax(0.f, std::floor(lo[a]) - 1.f);
            const float h = std::fmin(float(n[a]), std::ceil(hi[a]) + 1.f);
            p.lo[a] = int(std::fmin(l, float(n[a])));
            p.hi[a] = int(std::fmax(h, 0.f));
            p.active = p.active && p.lo[a] <= p.hi[a];
        }
    }
}

float ForceEvaluator::regionWeight(std::size_t n, Vec3 world) const
{
    if (n >= mFields.size())
        return 0.f;
    return weightAt(mFields[n].region, mMasks[n], mDomain, world.x, world.y, world.z);
}

namespace {

/// Vortex and radial pulls have no singularity: within one cell size `h` of the axis or centre
/// the unit direction is scaled by distance / h, a solid-body core that is zero at the axis.
Vec3 swirl(Vec3 axis, Vec3 r, float h)
{
    const Vec3 perp = r - axis * dot(r, axis);
    const float len = length(perp);
    return cross(axis, perp) * (1.f / (len > h ? len : h));
}

Vec3 pull(Vec3 towards, float h)
{
    const float len = length(towards);
    return towards * (1.f / (len > h ? len : h));
}

} // namespace

Vec3 ForceEvaluator::acceleration(Vec3 world, Vec3 velocity, double time) const
{
    Vec3 sum;
    const float h = mDomain.cellSize;
    for (std::size_t n = 0; n < mFields.size(); ++n) {
        const ForceField &f = mFields[n];
        if (!mPrepared[n].active)
            continue;
        const float weight = regionWeight(n, world);
        if (weight == 0.f)
            continue;
        Vec3 a;
        switch (f.type) {
        case ForceType::Directional: a = mPrepared[n].unit * f.strength; break;
        case ForceType::Vortex:
            a = swirl(mPrepared[n].unit, world - f.centre, h) * f.strength;
            break;
        case ForceType::Radial: {
            Vec3 d = f.centre - world;
            if (mDomain.is2D())
                d.z = 0.f;
            a = pull(d, h) * f.strength;
            break;
        }
        case ForceType::Turbulence:
            a = curlNoiseAt(world * (1.f / f.scale), latticeTime(time * f.timeScale), f.seed,
                            mDomain.is2D())
                * f.strength;
            break;
        case ForceType::Drag: a = velocity * -f.strength; break;
        case ForceType::Disturbance: {
            const std::int64_t refresh = std::int64_t(std::floor(time * double(f.timeScale)));
            const bool is2D = mDomain.is2D();
            a = blendBlocks(world.x, world.y, world.z, 1.f / std::fmax(f.scale, mDomain.cellSize),
                            is2D,
                            [&](int i, int j,
                                int k) { return blockDirection(f.seed, i, j, k, refresh, is2D); })
                * f.strength;
            break;
        }
        case ForceType::Shredding: break; // needs the temperature (addShredding)
        }
        sum = sum + a * weight;
    }
    return sum;
}

bool ForceEvaluator::faceRange(std::size_t n, int axis, const Block &block, Int3 &lo,
                               Int3 &hi) const
{
    const Prepared &p = mPrepared[n];
    const Int3 size = faceGridSize(mDomain.cells, axis);
    const int blockLo[3] = {0, block.j0, block.k0};
    const int blockHi[3] = {INT_MAX, block.j0 + block.rows - 1, block.k0 + block.slabs - 1};
    for (int a = 0; a < 3; ++a) {
        // Faces of `axis` sit on nodes along it and between nodes across it.
        const int last = a == axis ? p.hi[a] : p.hi[a] - 1;
        lo[a] = std::max({p.lo[a], blockLo[a], 0});
        hi[a] = std::min({last, blockHi[a], size[a] - 1});
        if (mDomain.is2D() && a == 2) {
            lo[a] = 0;
            hi[a] = 0;
        }
        if (lo[a] > hi[a])
            return false;
    }
    return true;
}

void ForceEvaluator::accumulateField(std::size_t n, const MacGrid &vel, const Block &block,
                                     const FieldStep &step, BlockScratch &s) const
{
    const ForceField &f = mFields[n];
    if (f.type == ForceType::Turbulence) {
        accumulateTurbulence(n, block, step, s);
        return;
    }
    const ScalarGrid *mask = step.mask;
    const Vec3 unit = mPrepared[n].unit;
    const bool everywhere = mMasks[n].count() == 0 && f.region.shape == RegionShape::Everywhere;
    const bool is2D = mDomain.is2D();
    const float h = mDomain.cellSize;
    const Vec3 o = mDomain.origin;
    const Vec3 c = f.centre;
    for (int axis = 0; axis < mDomain.dimensions(); ++axis) {
        Int3 lo, hi;
        if (!faceRange(n, axis, block, lo, hi))
            continue;
        const ScalarGrid &comp = vel.component(axis);
        const Vec3 off = comp.offset();
        // One loop per field type (instantiated from the generic lambda) keeps the inner loop
        // free of dispatch; accel(x, y, z, face velocity) is the acceleration along `axis`.
        auto rows = [&](auto &&accel) {
            for (int k = lo.z; k <= hi.z; ++k) {
                const float z = o.z + (float(k) + off.z) * h;
                for (int j = lo.y; j <= hi.y; ++j) {
                    const float y = o.y + (float(j) + off.y) * h;
                    float *acc = s.accRow(axis, block, j, k);
                    const float *u = comp.data() + comp.index(0, j, k);
                    if (mask) {
                        for (int i = lo.x; i <= hi.x; ++i) {
                            // Where the mask is 0 (most of the room, for a mask on the smoke)
                            // the field adds nothing: it is not evaluated there.
                            const float m = faceWeight(*mask, mDomain, axis, i, j, k);
                            if (m == 0.f)
                                continue;
                            const float x = o.x + (float(i) + off.x) * h;
                            const float w = (everywhere
                                                 ? 1.f
                                                 : weightAt(f.region, mMasks[n], mDomain, x, y, z))
                                            * m;
                            acc[i] += w * (f.strength * accel(x, y, z, u[i]));
                        }
                        continue;
                    }
                    if (everywhere) {
                        for (int i = lo.x; i <= hi.x; ++i) {
                            const float x = o.x + (float(i) + off.x) * h;
                            acc[i] += f.strength * accel(x, y, z, u[i]);
                        }
                        continue;
                    }
                    for (int i = lo.x; i <= hi.x; ++i) {
                        const float x = o.x + (float(i) + off.x) * h;
                        const float w = weightAt(f.region, mMasks[n], mDomain, x, y, z);
                        acc[i] += w * (f.strength * accel(x, y, z, u[i]));
                    }
                }
            }
        };
        switch (f.type) {
        case ForceType::Directional: {
            const float d = unit[axis];
            rows([d](float, float, float, float) { return d; });
            break;
        }
        case ForceType::Vortex: // unit swirl cross(axis, r_perp) / max(|r_perp|, h)
            rows([&, axis](float x, float y, float z, float) {
                const float rx = x - c.x, ry = y - c.y, rz = z - c.z;
                const float along = rx * unit.x + ry * unit.y + rz * unit.z;
                const float px = rx - unit.x * along, py = ry - unit.y * along,
                            pz = rz - unit.z * along;
                const float t = axis == 0 ? unit.y * pz - unit.z * py
                                          : (axis == 1 ? unit.z * px - unit.x * pz
                                                       : unit.x * py - unit.y * px);
                const float len = std::sqrt(px * px + py * py + pz * pz);
                return t / (len > h ? len : h);
            });
            break;
        case ForceType::Radial: // unit pull (centre - p) / max(|centre - p|, h)
            rows([&, axis](float x, float y, float z, float) {
                const float dx = c.x - x, dy = c.y - y, dz = is2D ? 0.f : c.z - z;
                const float len = std::sqrt(dx * dx + dy * dy + dz * dz);
                return (axis == 0 ? dx : (axis == 1 ? dy : dz)) / (len > h ? len : h);
            });
            break;
        case ForceType::Drag: rows([](float, float, float, float u) { return -u; }); break;
        case ForceType::Turbulence: break;
        case ForceType::Shredding: break; // never active here
        case ForceType::Disturbance:
            if (step.lattice && !step.lattice->kick.empty())
                rows([&, axis](float x, float y, float z, float) {
                    return step.lattice->at(axis, x, y, z);
                });
            break;
        }
    }
}

void ForceEvaluator::accumulateTurbulence(std::size_t n, const Block &block, const FieldStep &step,
                                          BlockScratch &s) const
{
    const double time = step.time;
    // Edge-sampled vector potential; its discrete curl on the faces is exactly discretely
    // divergence-free (Stokes on every cell face), so the force adds no divergence of its own.
    const ForceField &f = mFields[n];
    const Prepared &p = mPrepared[n];
    const Int3 nc = mDomain.cells;
    const bool is2D = mDomain.is2D();
    const float h = mDomain.cellSize;
    const float invScale = 1.f / f.scale;
    const Lattice1 lw = latticeTime(time * double(f.timeScale));
    const std::uint32_t seeds[3] = {channelSeed(f.seed, 0), channelSeed(f.seed, 1),
                                    channelSeed(f.seed, 2)};
    const Vec3 o = mDomain.origin;
    const float gain = noiseGain(is2D);
    auto coord = [&](float origin, float cell) { return lattice((origin + cell * h) * invScale); };

    // Nodes of the field's box within this block: j in [j0, j1], levels k in [k0, k1].
    const int j0 = std::max(block.j0, p.lo.y), j1 = std::min({block.j0 + block.rows, p.hi.y, nc.y});
    const int k0 = is2D ? 0 : std::max(block.k0, p.lo.z);
    const int k1 = is2D ? 0 : std::min({block.k0 + block.slabs, p.hi.z, nc.z});
    const int i0 = p.lo.x, i1 = p.hi.x;
    if (j0 > j1 || k0 > k1)
        return;
    const Lattice1 flat; // 2D: the potential lives in the plane z = 0 of noise space
    for (int k = k0; k <= k1; ++k) {
        for (int j = j0; j <= j1; ++j) {
            // psi_z on z-edges (i, j, k + 1/2), the cell corners in 2D.
            if (is2D || k < k1)
                noiseRow(s.edgeRow(2, block, j, k), i0, i1, RowX{o.x, 0.f, h, invScale},
                         coord(o.y, float(j)), is2D ? flat : coord(o.z, float(k) + 0.5f), lw,
                         seeds[2], gain);
            if (is2D)
                continue;
            // psi_x on x-edges (i + 1/2, j, k) and psi_y on y-edges (i, j + 1/2, k).
            if (i0 < nc.x)
                noiseRow(s.edgeRow(0, block, j, k), i0, std::min(i1, nc.x - 1),
                         RowX{o.x, 0.5f, h, invScale}, coord(o.y, float(j)), coord(o.z, float(k)),
                         lw, seeds[0], gain);
            if (j < nc.y)
                noiseRow(s.edgeRow(1, block, j, k), i0, i1, RowX{o.x, 0.f, h, invScale},
                         coord(o.y, float(j) + 0.5f), coord(o.z, float(k)), lw, seeds[1], gain);
        }
    }

    // curl_a = (a1[i + sa] - a0[i]) - (b1[i + sb] - b0[i]); in 2D the psi_x and psi_y terms
    // vanish by pointing both ends of the difference at the same row.
    const bool everywhere = mMasks[n].count() == 0 && f.region.shape == RegionShape::Everywhere;
    const float factor = f.strength * f.scale / h; // curl in noise units = scale * world curl
    for (int axis = 0; axis < mDomain.dimensions(); ++axis) {
        Int3 lo, hi;
        if (!faceRange(n, axis, block, lo, hi))
            continue;
        const Vec3 offset = axis == 0 ? kFaceX : (axis == 1 ? kFaceY : kFaceZ);
        for (int k = lo.z; k <= hi.z; ++k) {
            for (int j = lo.y; j <= hi.y; ++j) {
                const float *a0, *a1, *b0, *b1;
                int sa = 0, sb = 0;
                if (axis == 0) { // d psi_z / dy - d psi_y / dz
                    a0 = s.edgeRow(2, block, j, k);
                    a1 = s.edgeRow(2, block, j + 1, k);
                    b0 = is2D ? a0 : s.edgeRow(1, block, j, k);
                    b1 = is2D ? a0 : s.edgeRow(1, block, j, k + 1);
                } else if (axis == 1) { // d psi_x / dz - d psi_z / dx
                    b0 = b1 = s.edgeRow(2, block, j, k);
                    sb = 1;
                    a0 = is2D ? b0 : s.edgeRow(0, block, j, k);
                    a1 = is2D ? b0 : s.edgeRow(0, block, j, k + 1);
                } else { // d psi_y / dx - d psi_x / dy
                    a0 = a1 = s.edgeRow(1, block, j, k);
                    sa = 1;
                    b0 = s.edgeRow(0, block, j, k);
                    b1 = s.edgeRow(0, block, j + 1, k);
                }
                float *acc = s.accRow(axis, block, j, k);
                const float y = o.y + (float(j) + offset.y) * h;
                const float z = o.z + (float(k) + offset.z) * h;
                if (step.mask) {
                    for (int i = lo.x; i <= hi.x; ++i) {
                        const float region = everywhere
                                                 ? 1.f
                                                 : weightAt(f.region, mMasks[n], mDomain,
                                                            o.x + (float(i) + offset.x) * h, y, z);
                        const float weight = region
                                             * faceWeight(*step.mask, mDomain, axis, i, j, k);
                        acc[i] += weight * (factor * ((a1[i + sa] - a0[i]) - (b1[i + sb] - b0[i])));
                    }
                    continue;
                }
                if (everywhere) {
                    for (int i = lo.x; i <= hi.x; ++i)
                        acc[i] += factor * ((a1[i + sa] - a0[i]) - (b1[i + sb] - b0[i]));
                    continue;
                }
                for (int i = lo.x; i <= hi.x; ++i) {
                    const float weight = weightAt(f.region, mMasks[n], mDomain,
                                                  o.x + (float(i) + offset.x) * h, y, z);
                    acc[i] += weight * (factor * ((a1[i + sa] - a0[i]) - (b1[i + sb] - b0[i])));
                }
            }
        }
    }
}

void ForceEvaluator::buildLattice(std::size_t n, float dt, double time, BlockLattice &out) const
{
    const ForceField &f = mFields[n];
    const Prepared &p = mPrepared[n];
    const bool is2D = mDomain.is2D();
    const float h = mDomain.cellSize;
    out.is2D = is2D;
    out.invScale = 1.f / std::fmax(f.scale, h); // blocks of at least one cell
    // Blocks whose centres surround the box's faces: those below and above each end.
    for (int a = 0; a < 3; ++a) {
        if (is2D && a == 2) {
            out.lo[a] = 0;
            out.count[a] = 1;
            continue;
        }
        const float lo = mDomain.origin[a] + float(p.lo[a]) * h;
        const float hi = mDomain.origin[a] + float(p.hi[a]) * h;
        out.lo[a] = int(std::floor(lo * out.invScale - 0.5f));
        out.count[a] = int(std::floor(hi * out.invScale - 0.5f)) + 2 - out.lo[a];
    }
    std::int64_t index[kMaxRefreshes];
    float share[kMaxRefreshes];
    const int refreshes = refreshesOf(time, dt, f.timeScale, index, share);
    out.kick.resize(std::size_t(out.count.volume()));
    const Int3 lo = out.lo, count = out.count;
    forEachIndex(std::int64_t(out.kick.size()), [&](std::int64_t c) {
        const int a = int(c % count.x), b = int(c / count.x % count.y),
                  d = int(c / (std::int64_t(count.x) * count.y));
        Vec3 sum;
        for (int r = 0; r < refreshes; ++r)
            sum = sum
                  + blockDirection(f.seed, lo.x + a, lo.y + b, lo.z + d, index[r], is2D) * share[r];
        out.kick[std::size_t(c)] = sum;
    });
}

void ForceEvaluator::applyToMac(MacGrid &vel, const FlagGrid &solids, float dt, double time,
                                const ControlWeights *weights) const
{
    const Int3 n = mDomain.cells;
    if (mFields.empty() || dt == 0.f)
        return;
    PLUME_ASSERT_OR_RETURN(vel.cells() == n && solids.size() == n,
                           "force fields: the velocity or the solids do not match the domain");
    if (std::none_of(mPrepared.begin(), mPrepared.end(),
                     [](const Prepared &p) { return p.active; }))
        return;
    const bool is2D = mDomain.is2D();
    constexpr int kRows = BlockScratch::kBlockRows;
    const int slabsPerBlock = is2D ? 1 : BlockScratch::kBlockSlabs;
    const int faceRows = n.y + 1, faceSlabs = is2D ? 1 : n.z + 1;
    const int blocksY = (faceRows + kRows - 1) / kRows;
    const int blocksZ = (faceSlabs + slabsPerBlock - 1) / slabsPerBlock;
    const FaceClosure closure{solids, mDomain, solids.anySolid()};
    // Per field: this step's disturbance blocks and control-mask weights.
    std::vector<BlockLattice> lattices(mFields.size());
    std::vector<FieldStep> steps(mFields.size());
    for (std::size_t f = 0; f < mFields.size(); ++f) {
        steps[f].time = time;
        if (!mPrepared[f].active)
            continue;
        if (mFields[f].type == ForceType::Disturbance) {
            buildLattice(f, dt, time, lattices[f]);
            steps[f].lattice = &lattices[f];
        }
        if (weights)
            steps[f].mask = weights->find(mFields[f].mask);
        if (steps[f].mask && steps[f].mask->size() != n)
            steps[f].mask = nullptr;
    }
    forEachSlab(blocksY * blocksZ, [&](int b) {
        Block block;
        block.j0 = (b % blocksY) * kRows;
        block.k0 = (b / blocksY) * slabsPerBlock;
        block.rows = std::min(kRows, faceRows - block.j0);
        block.slabs = std::min(slabsPerBlock, faceSlabs - block.k0);
        BlockScratch scratch(n.x);
        for (std::size_t f = 0; f < mFields.size(); ++f) {
            if (mPrepared[f].active)
                accumulateField(f, vel, block, steps[f], scratch);
        }
        for (int axis = 0; axis < mDomain.dimensions(); ++axis) {
            if (scratch.acc[std::size_t(axis)].empty())
                continue;
            ScalarGrid &comp = vel.component(axis);
            const Int3 s = comp.size();
            for (int k = block.k0; k < std::min(block.k0 + block.slabs, s.z); ++k) {
                for (int j = block.j0; j < std::min(block.j0 + block.rows, s.y); ++j) {
                    const std::size_t r = scratch.row(block, j, k);
                    if (!scratch.touched[std::size_t(axis)][r])
                        continue;
                    const float *acc = scratch.acc[std::size_t(axis)].data()
                                       + r * std::size_t(scratch.rowLength);
                    float *out = &comp(0, j, k);
                    forOpenFacesInRow(axis, j, k, s.x, closure,
                                      [&](int i, auto) { out[i] += dt * acc[i]; });
                }
            }
        }
    });
}

} // namespace plume::sim
