// SPDX-License-Identifier: Apache-2.0
#include <core/export/vdbsurface.h>

#include <core/surface/levelset.h>

#include <openvdb/points/PointConversion.h>
#include <openvdb/tools/PointIndexGrid.h>

#include <cmath>
#include <string>
#include <vector>

namespace plume::detail {

namespace {

/// A point or vector in the file's axes: Z up writes (x, y, z) at (x, -z, y).
sim::Vec3 toFile(const sim::Vec3 &v, UpAxis up)
{
    return up == UpAxis::Z ? sim::Vec3{v.x, 0.f - v.z, v.y} : v;
}

/// The particles in the file's axes (a rotation: distances, radii and surfaces are kept).
sim::ParticleSet particlesInFile(const sim::ParticleSet &p, UpAxis up)
{
    sim::ParticleSet out;
    out.radius = p.radius;
    out.position.reserve(p.size());
    for (const sim::Vec3 &x : p.position)
        out.position.push_back(toFile(x, up));
    out.velocity.reserve(p.velocity.size());
    for (const sim::Vec3 &v : p.velocity)
        out.velocity.push_back(toFile(v, up));
    return out;
}

/// The density and domain in the file's axes (export/vdbwriter.h: Z-up voxel (i, nz-1-k, j)
/// holds cell (i, j, k); the rotated box's low corner is (x, -(z + nz h), y)).
void densityInFile(const sim::ScalarGrid &density, const sim::Domain &domain, UpAxis up,
                   sim::ScalarGrid &outDensity, sim::Domain &outDomain)
{
    outDomain = domain;
    if (up == UpAxis::Y) {
        outDensity = density;
        return;
    }
    const sim::Int3 c = domain.cells;
    outDomain.cells = {c.x, c.z, c.y};
    outDomain.origin = {domain.origin.x, -(domain.origin.z + float(c.z) * domain.cellSize),
                        domain.origin.y};
    outDensity.reshape(outDomain.cells, sim::kCellCentre);
    for (int k = 0; k < c.z; ++k)
        for (int j = 0; j < c.y; ++j)
            for (int i = 0; i < c.x; ++i)
                outDensity(i, c.z - 1 - k, j) = density(i, j, k);
}

void describe(openvdb::GridBase &grid, const char *name, const VdbFrame &f,
              const VdbWriteOptions &opt)
{
    grid.setName(name);
    grid.setCreator("Plume " + f.plumeVersion);
    grid.setSaveFloatAsHalf(opt.halfFloat);
}

/// OpenVDB points: P (full floats, or 16-bit fixed point within its voxel with halfFloat) and
/// v (world units per second; half floats with halfFloat), voxel size `voxelSize`.
openvdb::points::PointDataGrid::Ptr pointsGrid(const sim::ParticleSet &p, double voxelSize,
                                               bool halfFloat)
{
    namespace pts = openvdb::points;
    std::vector<openvdb::Vec3R> positions;
    positions.reserve(p.size());
    for (const sim::Vec3 &x : p.position)
        positions.emplace_back(x.x, x.y, x.z);
    const pts::PointAttributeVector<openvdb::Vec3R> wrapper(positions);
    const auto xform = openvdb::math::Transform::createLinearTransform(voxelSize);
    const auto index = openvdb::tools::createPointIndexGrid<openvdb::tools::PointIndexGrid>(wrapper,
                                                                                            *xform);
    pts::PointDataGrid::Ptr grid =
        halfFloat
            ? pts::createPointDataGrid<pts::FixedPointCodec<false>, pts::PointDataGrid>(*index,
                                                                                        wrapper,
                                                                                        *xform)
            : pts::createPointDataGrid<pts::NullCodec, pts::PointDataGrid>(*index, wrapper, *xform);
    if (p.velocity.size() == p.size() && !p.empty()) {
        std::vector<openvdb::Vec3s> velocity;
        velocity.reserve(p.size());
        for (const sim::Vec3 &v : p.velocity)
            velocity.emplace_back(v.x, v.y, v.z);
        if (halfFloat)
            pts::appendAttribute<openvdb::Vec3s, pts::TruncateCodec>(grid->tree(), "v");
        else
            pts::appendAttribute<openvdb::Vec3s, pts::NullCodec>(grid->tree(), "v");
        const pts::PointAttributeVector<openvdb::Vec3s> values(velocity);
        pts::populateAttribute<pts::PointDataTree, openvdb::tools::PointIndexTree,
                               pts::PointAttributeVector<openvdb::Vec3s>>(grid->tree(),
                                                                          index->tree(), "v",
                                                                          values);
    }
    return grid;
}

} // namespace

sim::Status appendSurfaceGrids(const VdbFrame &frame, const VdbWriteOptions &options,
                               openvdb::GridCPtrVec &grids)
{
    surface::initializeOpenVdb();
    if (frame.particles) {
        const sim::ParticleSet &in = *frame.particles;
        if (!in.velocity.empty() && in.velocity.size() != in.size())
            return sim::Status::failure("the particles have " + std::to_string(in.size())
                                        + " positions but " + std::to_string(in.velocity.size())
                                        + " velocities");
        if (!in.empty() && !(in.radius > 0.f && std::isfinite(in.radius)))
            return sim::Status::failure("the particle radius must be positive and finite");
        for (std::size_t n = 0; n < in.size(); ++n) {
            const sim::Vec3 &x = in.position[n];
            const sim::Vec3 v = n < in.velocity.size() ? in.velocity[n] : sim::Vec3{};
            if (!std::isfinite(x.x + x.y + x.z) || !std::isfinite(v.x + v.y + v.z))
                return sim::Status::failure("particle " + std::to_string(n)
                                            + " has a non-finite position or velocity");
        }
        const sim::ParticleSet particles = particlesInFile(in, options.up);
        const double voxel = particleVoxelSize(particles, frame.domain);
        auto level = surface::particleLevelSet(particles, voxel, frame.surfaceOptions);
        describe(*level, "surface", frame, options);
        grids.push_back(level);
        auto points = pointsGrid(particles, voxel, options.halfFloat);
        describe(*points, "points", frame, options);
        points->setSaveFloatAsHalf(false); // the codecs say how points are stored
        grids.push_back(points);
        return sim::Status::success();
    }
    if (!frame.levelSurface)
        return sim::Status::success();
    if (!std::isfinite(frame.levelSurfaceIso))
        return sim::Status::failure("the level surface's iso value must be finite");
    sim::ScalarGrid density;
    sim::Domain domain;
    densityInFile(*frame.density, frame.domain, options.up, density, domain);
    auto level = surface::densityLevelSet(density, domain, frame.levelSurfaceIso);
    describe(*level, "surface", frame, options);
    grids.push_back(level);
    return sim::Status::success();
}

} // namespace plume::detail
