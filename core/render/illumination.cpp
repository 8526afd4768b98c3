// SPDX-License-Identifier: Apache-2.0
#include <core/render/illumination.h>

#include <core/render/camera.h>
#include <core/render/lightvolume.h>
#include <core/render/renderer.h>

#include <core/sim/base/parallel.h>

#include <algorithm>
#include <cmath>

namespace plume {

using sim::Int3;
using sim::ScalarGrid;
using sim::Vec3;

namespace {

/// Levels of the emission light's pyramid beyond the base grid (Gaussians up to about
/// 0.65 * 2^kLevels cells wide).
constexpr int kLevels = 7;

/// sqrt(pi / 2): 1 / (4 pi r^2) is sqrt(pi / 2) times the integral over sigma of the unit 3D
/// Gaussian of width sigma, and its Gaussians' light travels sqrt(pi / 2) sigma on average
/// (docs/render.md).
constexpr float kRootHalfPi = 1.2533141f;

/// integral over [0, length] of exp(-kappa s) ds: the length, shortened by the attenuation.
float attenuatedLength(float kappa, float length)
{
    const float k = kappa * length;
    return k < 1e-4f ? length * (1.f - 0.5f * k) : (1.f - std::exp(-k)) / kappa;
}

/// boxDownsample's body: the mean of each block's cells, over the cells it has.
ScalarGrid downsample(const ScalarGrid &grid, int factor)
{
    const Int3 n = grid.size();
    const Int3 m{(n.x + factor - 1) / factor, (n.y + factor - 1) / factor,
                 (n.z + factor - 1) / factor};
    ScalarGrid out(m, grid.offset(), 0.f);
    sim::forEachRow(m, [&](int j, int k) {
        for (int i = 0; i < m.x; ++i) {
            double sum = 0.0;
            int count = 0;
            for (int z = k * factor; z < std::min((k + 1) * factor, n.z); ++z)
                for (int y = j * factor; y < std::min((j + 1) * factor, n.y); ++y)
                    for (int x = i * factor; x < std::min((i + 1) * factor, n.x); ++x) {
                        sum += double(grid(x, y, z));
                        ++count;
                    }
            out(i, j, k) = count > 0 ? float(sum / double(count)) : 0.f;
        }
    });
    return out;
}

/// One Gaussian pyramid step along `axis`: half as many cells, each the [1 3 3 1] / 8 filter
/// of the four fine cells around its centre, cells outside the grid counted as 0 (no emission,
/// no smoke around the domain).
ScalarGrid reduceAxis(const ScalarGrid &g, int axis)
{
    const Int3 n = g.size();
    Int3 m = n;
    m[axis] = (n[axis] + 1) / 2;
    ScalarGrid out(m, g.offset(), 0.f);
    constexpr float w[4] = {0.125f, 0.375f, 0.375f, 0.125f};
    sim::forEachRow(m, [&](int j, int k) {
        for (int i = 0; i < m.x; ++i) {
            int c[3] = {i, j, k};
            const int centre = c[axis];
            float sum = 0.f;
            for (int t = 0; t < 4; ++t) {
                const int f = 2 * centre - 1 + t;
                if (f < 0 || f >= n[axis])
                    continue;
                c[axis] = f;
                sum += w[t] * g(c[0], c[1], c[2]);
            }
            out(i, j, k) = sum;
        }
    });
    return out;
}

ScalarGrid reduce(const ScalarGrid &g) { return reduceAxis(reduceAxis(reduceAxis(g, 0), 1), 2); }

/// Trilinear value at a cell-coordinate point with a ring of zero cells around the grid.
float sampleZeroOutside(const ScalarGrid &g, const Vec3 &p)
{
    const Int3 n = g.size();
    int i0[3];
    float f[3];
    for (int a = 0; a < 3; ++a) {
        const float q = p[a] - 0.5f;
        i0[a] = int(std::floor(q));
        f[a] = q - float(i0[a]);
    }
    float sum = 0.f;
    for (int c = 0; c < 8; ++c) {
        const int x = i0[0] + (c & 1), y = i0[1] + ((c >> 1) & 1), z = i0[2] + ((c >> 2) & 1);
        if (x < 0 || y < 0 || z < 0 || x >= n.x || y >= n.y || z >= n.z)
            continue;
        const float w = (c & 1 ? f[0] : 1.f - f[0]) * (c & 2 ? f[1] : 1.f - f[1])
                        * (c & 4 ? f[2] : 1.f - f[2]);
        sum += w * g(x, y, z);
    }
    return sum;
}

} // namespace

int coarseFactor(Int3 cells)
{
    const int longest = std::max({cells.x, cells.y, cells.z, 1});
    return (longest + kCoarseCells - 1) / kCoarseCells;
}

ScalarGrid boxDownsample(const ScalarGrid &grid, int factor)
{
    return factor <= 1 ? grid : downsample(grid, factor);
}

std::array<ScalarGrid, 3> emissionLight(const std::array<ScalarGrid, 3> &emitted,
                                        const ScalarGrid &density, float densityScale,
                                        float cellSize)
{
    // 1 / (4 pi r^2) = sqrt(pi / 2) * integral over sigma of G_sigma(r), G the unit 3D
    // Gaussian, so S = sqrt(pi / 2) * integral over sigma of (G_sigma * j), each width's light
    // attenuated over sqrt(pi / 2) sigma by the smoke of that neighbourhood, (G_sigma * rho).
    // The pyramid's level l holds j and rho blurred to width sigma_l (in cells: [1 3 3 1]
    // steps add 0.75 of a level's cell squared, sampling it trilinearly about a sixth):
    // sigma_l^2 = (4^l - 1) / 4 + 4^l / 6. The integral over sigma runs in bins around each
    // sigma_l (edges at the geometric means), below the first from the cell itself, and past
    // the last as the far field's sigma^-3 tail.
    constexpr int kChannels = 4; // j's three channels, then the density
    std::vector<std::array<ScalarGrid, kChannels>> levels(1);
    for (int c = 0; c < 3; ++c)
        levels[0][std::size_t(c)] = emitted[std::size_t(c)];
    levels[0][3] = density;
    for (int l = 1; l <= kLevels; ++l) {
        const Int3 m = levels.back()[0].size();
        if (m.x <= 1 && m.y <= 1 && m.z <= 1)
            break;
        std::array<ScalarGrid, kChannels> next;
        for (int c = 0; c < kChannels; ++c)
            next[std::size_t(c)] = reduce(levels.back()[std::size_t(c)]);
        levels.push_back(std::move(next));
    }
    const int depth = int(levels.size());
    std::vector<float> sigma(std::size_t(depth), 0.f), edge(std::size_t(depth) + 1, 0.f);
    for (int l = 1; l < depth; ++l) {
        const float s4 = float(1 << (2 * l));
        sigma[std::size_t(l)] = cellSize * std::sqrt((s4 - 1.f) * 0.25f + s4 / 6.f);
    }
    if (depth > 1) {
        edge[1] = sigma[1] / std::sqrt(2.f);
        for (int l = 2; l < depth; ++l)
            edge[std::size_t(l)] = std::sqrt(sigma[std::size_t(l - 1)] * sigma[std::size_t(l)]);
        edge[std::size_t(depth)] = sigma[std::size_t(depth - 1)] * std::sqrt(2.f);
    } else {
        edge[1] = 0.5f * cellSize;
    }
    const Int3 n = density.size();
    std::array<ScalarGrid, 3> out;
    for (auto &g : out)
        g = ScalarGrid(n, density.offset(), 0.f);
    sim::forEachRow(n, [&](int j, int k) {
        for (int i = 0; i < n.x; ++i) {
            const Vec3 p{float(i) + 0.5f, float(j) + 0.5f, float(k) + 0.5f};
            // Below the first bin: the cell's own emission and smoke.
            float kappa = kRootHalfPi * densityScale * std::max(levels[0][3](i, j, k), 0.f);
            float along = attenuatedLength(kappa, edge[1]);
            float light[3];
            for (int c = 0; c < 3; ++c)
                light[c] = std::max(levels[0][std::size_t(c)](i, j, k), 0.f) * along;
            float tau = kappa * edge[1];
            float last[3] = {0.f, 0.f, 0.f};
            for (int l = 1; l < depth && tau < 16.f; ++l) {
                const auto &level = levels[std::size_t(l)];
                const Vec3 q = p * (1.f / float(1 << l));
                const float width = edge[std::size_t(l + 1)] - edge[std::size_t(l)];
                kappa = kRootHalfPi * densityScale * std::max(sampleZeroOutside(level[3], q), 0.f);
                const float weight = std::exp(-tau) * attenuatedLength(kappa, width);
                for (int c = 0; c < 3; ++c) {
                    last[c] = std::max(sampleZeroOutside(level[std::size_t(c)], q), 0.f);
                    light[c] += last[c] * weight;
                }
                tau += kappa * width;
                if (l == depth - 1) { // the tail beyond: (G * j) falls as sigma^-3
                    const float tail = std::exp(-tau) * 0.5f * edge[std::size_t(depth)];
                    for (int c = 0; c < 3; ++c)
                        light[c] += last[c] * tail;
                }
            }
            for (int c = 0; c < 3; ++c)
                out[std::size_t(c)](i, j, k) = kRootHalfPi * light[c];
        }
    });
    return out;
}

Illumination computeIllumination(const IlluminationInput &in, const RenderSettings &s,
                                 float cellSize)
{
    Illumination out;
    const ScalarGrid &density = in.density;
    if (density.count() == 0)
        return out;
    if (s.lightIntensity > 0.f)
        out.sun = lightTransmittance(density, in.solids, s.lightDirection, s.densityScale,
                                     cellSize);
    const bool sky = s.ambient > 0.f && (s.skyColor != Vec3{} || s.groundColor != Vec3{});
    const bool hot = in.temperature && in.temperature->count() == density.count();
    const bool fire = in.flame && in.flame->count() == density.count() && s.flameIntensity > 0.f;
    const bool emit = s.emissionScattering > 0.f && hot && (s.emissionIntensity > 0.f || fire);
    if (!sky && !emit)
        return out;
    const int f = coarseFactor(density.size());
    out.coarseFactor = f;
    const ScalarGrid coarse = boxDownsample(density, f);
    const float coarseCell = cellSize * float(f);
    if (sky) {
        out.skyUp = lightTransmittance(coarse, nullptr, Vec3{0.f, 1.f, 0.f},
                                       s.densityScale * kSkySoftness, coarseCell);
        out.skyDown = lightTransmittance(coarse, nullptr, Vec3{0.f, -1.f, 0.f},
                                         s.densityScale * kSkySoftness, coarseCell);
    }
    if (emit) {
        // j: what the ray march's emission adds per world unit (volumemarch.cpp).
        const float rate = kEmissionRate * s.densityScale;
        std::array<ScalarGrid, 3> j;
        for (auto &g : j)
            g = ScalarGrid(density.size(), density.offset(), 0.f);
        std::vector<char> rowAny(std::size_t(density.size().y) * density.size().z, 0);
        sim::forEachRow(density.size(), [&](int y, int z) {
            bool row = false;
            for (int x = 0; x < density.size().x; ++x) {
                const Vec3 e = emissionColor(s, (*in.temperature)(x, y, z),
                                             fire ? (*in.flame)(x, y, z) : 0.f);
                j[0](x, y, z) = rate * e.x;
                j[1](x, y, z) = rate * e.y;
                j[2](x, y, z) = rate * e.z;
                row = row || e.x > 0.f || e.y > 0.f || e.z > 0.f;
            }
            rowAny[std::size_t(z) * density.size().y + std::size_t(y)] = row;
        });
        if (std::find(rowAny.begin(), rowAny.end(), 1) != rowAny.end()) { // something glows
            for (auto &g : j)
                g = boxDownsample(g, f);
            out.emission = emissionLight(j, coarse, s.densityScale, coarseCell);
        }
    }
    return out;
}

} // namespace plume
