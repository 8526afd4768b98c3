// SPDX-License-Identifier: Apache-2.0
#include <core/surface/surface.h>

#include <core/surface/levelset.h>

#include <core/sim/base/parallel.h>

#include <openvdb/tools/Interpolation.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <new>
#include <string>

namespace plume {

namespace {

using sim::Status;

Status checkParticles(const sim::ParticleSet &p)
{
    if (p.velocity.size() != p.position.size() && !p.velocity.empty())
        return Status::failure("particles: " + std::to_string(p.position.size()) + " positions but "
                               + std::to_string(p.velocity.size()) + " velocities");
    if (p.empty())
        return Status::success();
    if (!(p.radius > 0.f) || !std::isfinite(p.radius))
        return Status::failure("particles: the radius must be positive and finite");
    for (std::size_t n = 0; n < p.size(); ++n) {
        const sim::Vec3 &x = p.position[n];
        if (!std::isfinite(x.x) || !std::isfinite(x.y) || !std::isfinite(x.z))
            return Status::failure("particles: particle " + std::to_string(n)
                                   + " has a non-finite position");
    }
    return Status::success();
}

Status checkDensity(const sim::ScalarGrid &density, const sim::Domain &domain, float iso)
{
    if (Status s = domain.validate(std::numeric_limits<std::int64_t>::max()); !s)
        return s;
    if (density.size() != domain.cells)
        return Status::failure("level surface: the density grid does not match the domain");
    if (!std::isfinite(iso))
        return Status::failure("level surface: the iso value must be finite");
    return Status::success();
}

} // namespace

double particleVoxelSize(const sim::ParticleSet &particles, const sim::Domain &domain)
{
    const double cell = domain.cellSize;
    return particles.radius > 0.f ? std::min(cell, double(particles.radius)) : cell;
}

Status particleSurfaceMesh(const sim::ParticleSet &particles, const sim::Domain &domain,
                           SurfaceMesh &out, const ParticleSurfaceOptions &options)
{
    out = {};
    if (Status s = checkParticles(particles); !s)
        return s;
    return surface::guarded("liquid surface", [&] {
        surface::initializeOpenVdb();
        const auto grid = surface::particleLevelSet(particles, particleVoxelSize(particles, domain),
                                                    options);
        surface::meshZeroCrossing(*grid, out);
        return Status::success();
    });
}

Status densitySurfaceMesh(const sim::ScalarGrid &density, const sim::Domain &domain, float iso,
                          SurfaceMesh &out)
{
    out = {};
    if (Status s = checkDensity(density, domain, iso); !s)
        return s;
    return surface::guarded("level surface", [&] {
        surface::initializeOpenVdb();
        surface::meshZeroCrossing(*surface::densityField(density, domain, iso), out);
        return Status::success();
    });
}

Status particleSurfaceField(const sim::ParticleSet &particles, const sim::Domain &domain,
                            sim::ScalarGrid &out, const ParticleSurfaceOptions &options)
{
    if (Status s = checkParticles(particles); !s)
        return s;
    return surface::guarded("liquid surface", [&] {
        surface::initializeOpenVdb();
        const auto grid = surface::particleLevelSet(particles, particleVoxelSize(particles, domain),
                                                    options);
        out.reshape(domain.cells, sim::kCellCentre, grid->background());
        const openvdb::math::Transform &xform = grid->transform();
        // 2D particles lie in the plane z = 0 (sim/base/particles.h).
        sim::forEachRow(domain.cells, [&](int j, int k) {
            openvdb::FloatGrid::ConstAccessor acc = grid->getConstAccessor();
            for (int i = 0; i < domain.cells.x; ++i) {
                const sim::Vec3 c = domain.cellCentre(i, j, k);
                const openvdb::Vec3d world(c.x, c.y, domain.is2D() ? 0.0 : double(c.z));
                out(i, j, k) = openvdb::tools::BoxSampler::sample(acc, xform.worldToIndex(world));
            }
        });
        return Status::success();
    });
}

void densitySurfaceField(const sim::ScalarGrid &density, float iso, sim::ScalarGrid &out)
{
    out.reshape(density.size(), density.offset(), 0.f);
    const float *d = density.data();
    float *phi = out.data();
    sim::forEachIndex(std::int64_t(density.count()), [&](std::int64_t n) { phi[n] = iso - d[n]; });
}

double meshVolume(const SurfaceMesh &mesh)
{
    double volume = 0.0;
    for (const auto &t : mesh.triangles) {
        const sim::Vec3 &a = mesh.positions[t[0]], &b = mesh.positions[t[1]],
                        &c = mesh.positions[t[2]];
        // a . (b x c) in double: far from the origin the float products cancel.
        volume += double(a.x) * (double(b.y) * c.z - double(b.z) * c.y)
                  + double(a.y) * (double(b.z) * c.x - double(b.x) * c.z)
                  + double(a.z) * (double(b.x) * c.y - double(b.y) * c.x);
    }
    return volume / 6.0;
}

} // namespace plume
