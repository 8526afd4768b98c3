// SPDX-License-Identifier: Apache-2.0
// plume-bench --surface: level surface costs (docs/surfaces.md, docs/performance.md).
#include "surfacebench.h"

#include <core/export/vdbwriter.h>
#include <core/surface/surface.h>

#include <oneapi/tbb/global_control.h>

#include <QTemporaryDir>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace plume::bench {

namespace {

using Clock = std::chrono::steady_clock;

double medianOf(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

/// A ball of particles on a jittered lattice of spacing 2r (about `count` of them) in the
/// middle of the unit cube.
sim::ParticleSet particleBall(std::size_t count, float r)
{
    const float spacing = 2.f * r;
    const float radius = std::cbrt(float(count) * spacing * spacing * spacing * 3.f
                                   / (4.f * 3.14159265f));
    sim::ParticleSet p;
    p.radius = r;
    const int n = int(radius / spacing) + 1;
    std::uint32_t state = 1u;
    auto jitter = [&] {
        state = state * 1664525u + 1013904223u;
        return (float(state >> 8) / float(1u << 24) - 0.5f) * 0.4f * r;
    };
    for (int k = -n; k <= n; ++k)
        for (int j = -n; j <= n; ++j)
            for (int i = -n; i <= n; ++i) {
                const sim::Vec3 o{i * spacing, j * spacing, k * spacing};
                if (length(o) > radius)
                    continue;
                p.position.push_back(sim::Vec3{0.5f, 0.5f, 0.5f} + o
                                     + sim::Vec3{jitter(), jitter(), jitter()});
                p.velocity.push_back(sim::Vec3{o.z, 0.f, -o.x});
            }
    return p;
}

sim::Domain unitDomain(int n)
{
    sim::Domain d;
    d.cells = {n, n, n};
    d.cellSize = 1.f / float(n);
    return d;
}

/// A smoke-like density: a lumpy ball (cone profile with a ripple), 0 outside.
sim::ScalarGrid lumpyDensity(const sim::Domain &d)
{
    sim::ScalarGrid g(d.cells, sim::kCellCentre);
    for (int k = 0; k < d.cells.z; ++k)
        for (int j = 0; j < d.cells.y; ++j)
            for (int i = 0; i < d.cells.x; ++i) {
                const sim::Vec3 x = d.cellCentre(i, j, k) - sim::Vec3{0.5f, 0.5f, 0.5f};
                const float ripple = 0.1f * std::sin(20.f * x.x) * std::sin(17.f * x.y)
                                     * std::sin(23.f * x.z);
                g(i, j, k) = std::max(0.f, 1.f - length(x) / 0.4f + ripple);
            }
    return g;
}

} // namespace

int runSurfaceBench(int repeats)
{
    const sim::ParticleSet particles = particleBall(100000, 0.004f);
    const sim::Domain d128 = unitDomain(128), d64 = unitDomain(64);
    const sim::ScalarGrid density128 = lumpyDensity(d128), density64 = lumpyDensity(d64);
    const sim::ScalarGrid empty128(d128.cells, sim::kCellCentre, 0.f);
    QTemporaryDir dir;
    std::size_t triangles[4] = {};
    struct Task
    {
        std::string name;
        std::function<bool()> run;
    };
    const std::vector<Task> tasks =
        {
            {"100k particles -> mesh",
             [&] {
        SurfaceMesh m;
        const bool ok = particleSurfaceMesh(particles, d128, m).ok();
        triangles[0] = m.triangles.size();
        return ok;
             }},
            {"100k particles -> 128^3 dense field (surface look)",
             [&] {
        sim::ScalarGrid phi;
        return particleSurfaceField(particles, d128, phi).ok();
             }},
                            {"100k particles -> VDB frame (surface + points, 128^3 empty density)",
                             [&] {
        VdbFrame f;
        f.domain = d128;
        f.density = &empty128;
        f.particles = &particles;
        return writeVdbFrame(dir.filePath("p.vdb").toStdString(), f).ok();
                             }},
        {"128^3 density -> mesh (iso 0.5)",
         [&] {
        SurfaceMesh m;
        const bool ok = densitySurfaceMesh(density128, d128, 0.5f, m).ok();
        triangles[1] = m.triangles.size();
        return ok;
         }},
        {"128^3 density -> VDB frame with --level-surface",
         [&] {
        VdbFrame f;
        f.domain = d128;
        f.density = &density128;
        f.levelSurface = true;
        return writeVdbFrame(dir.filePath("d.vdb").toStdString(), f).ok();
         }},
        {"64^3 density -> mesh (the volume view)",
         [&] {
        SurfaceMesh m;
        const bool ok = densitySurfaceMesh(density64, d64, 0.5f, m).ok();
        triangles[2] = m.triangles.size();
        return ok;
         }},
        };
    std::printf("%zu particles (radius 0.004, voxel 0.004); densities: a rippled ball\n\n",
                particles.size());
    std::printf("| task | 1 thread ms | 2 threads ms |\n|---|---|---|\n");
    for (const Task &t : tasks) {
        std::vector<double> ms[2];
        for (int r = 0; r < repeats; ++r) {
            for (int threads = 1; threads <= 2; ++threads) {
                oneapi::tbb::global_control limit(
                    oneapi::tbb::global_control::max_allowed_parallelism, std::size_t(threads));
                const auto start = Clock::now();
                if (!t.run()) {
                    std::fprintf(stderr, "plume-bench: %s failed\n", t.name.c_str());
                    return 1;
                }
                ms[threads - 1].push_back(
                    std::chrono::duration<double, std::milli>(Clock::now() - start).count());
            }
        }
        std::printf("| %s | %.1f | %.1f |\n", t.name.c_str(), medianOf(ms[0]), medianOf(ms[1]));
    }
    std::printf("\ntriangles: particles %zu, 128^3 density %zu, 64^3 density %zu\n", triangles[0],
                triangles[1], triangles[2]);
    return 0;
}

} // namespace plume::bench
