// SPDX-License-Identifier: Apache-2.0
#include "surfacefixtures.h"

#include <cmath>
#include <cstdio>
#include <fstream>

namespace plume::test {

double particleVolumeRadius(const sim::ParticleSet &particles)
{
    const double side = 2.0 * particles.radius;
    const double volume = double(particles.size()) * side * side * side;
    return std::cbrt(volume * 3.0 / (4.0 * 3.14159265358979323846));
}

sim::Domain unitDomain(int n)
{
    sim::Domain d;
    d.cells = {n, n, n};
    d.cellSize = 1.f / float(n);
    return d;
}

sim::ParticleSet particleBall(sim::Vec3 centre, float ballRadius, float radius)
{
    sim::ParticleSet p;
    p.radius = radius;
    const float spacing = 2.f * radius;
    const int n = int(std::ceil(ballRadius / spacing)) + 1;
    std::uint32_t state = 12345u;
    auto jitter = [&] {
        state = state * 1664525u + 1013904223u; // Numerical Recipes LCG
        return (float(state >> 8) / float(1u << 24) - 0.5f) * 0.4f * radius;
    };
    for (int k = -n; k <= n; ++k)
        for (int j = -n; j <= n; ++j)
            for (int i = -n; i <= n; ++i) {
                const sim::Vec3 offset{i * spacing, j * spacing, k * spacing};
                if (length(offset) > ballRadius - radius)
                    continue;
                const sim::Vec3 x = centre + offset + sim::Vec3{jitter(), jitter(), jitter()};
                p.position.push_back(x);
                p.velocity.push_back(sim::Vec3{2.f * offset.z, 0.f, -2.f * offset.x});
            }
    return p;
}

sim::ScalarGrid coneDensity(const sim::Domain &domain, sim::Vec3 centre, float radius)
{
    sim::ScalarGrid g(domain.cells, sim::kCellCentre);
    for (int k = 0; k < domain.cells.z; ++k)
        for (int j = 0; j < domain.cells.y; ++j)
            for (int i = 0; i < domain.cells.x; ++i)
                g(i, j, k) = std::max(0.f,
                                      1.f - length(domain.cellCentre(i, j, k) - centre) / radius);
    return g;
}

ObjCounts readObj(const std::filesystem::path &path)
{
    ObjCounts c;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("v ", 0) == 0) {
            if (c.vertices++ == 0)
                std::sscanf(line.c_str(), "v %f %f %f", &c.firstVertex.x, &c.firstVertex.y,
                            &c.firstVertex.z);
        } else if (line.rfind("vn ", 0) == 0) {
            ++c.normals;
        } else if (line.rfind("f ", 0) == 0) {
            if (c.faces++ == 0)
                std::sscanf(line.c_str(), "f %u//%*u %u//%*u %u//%*u", &c.firstFace[0],
                            &c.firstFace[1], &c.firstFace[2]);
        }
    }
    return c;
}

} // namespace plume::test
