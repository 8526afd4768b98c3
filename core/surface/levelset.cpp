// SPDX-License-Identifier: Apache-2.0
#include <core/surface/levelset.h>

#include <openvdb/tools/Dense.h>
#include <openvdb/tools/LevelSetFilter.h>
#include <openvdb/tools/LevelSetRebuild.h>
#include <openvdb/tools/ParticlesToLevelSet.h>
#include <openvdb/tools/VolumeToMesh.h>

#include <algorithm>
#include <cmath>
#include <mutex>

namespace plume::surface {

namespace {

/// sim::ParticleSet in the form ParticlesToLevelSet reads (positions only: one radius).
class ParticleList
{
public:
    using PosType = openvdb::Vec3R;

    explicit ParticleList(const sim::ParticleSet &p)
        : mParticles(p)
    {}
    std::size_t size() const { return mParticles.size(); }
    void getPos(std::size_t n, openvdb::Vec3R &xyz) const
    {
        const sim::Vec3 &p = mParticles.position[n];
        xyz = openvdb::Vec3R(p.x, p.y, p.z);
    }

private:
    const sim::ParticleSet &mParticles;
};

constexpr float kHalfWidth = 3.f; ///< narrow band, voxels each side

} // namespace

void initializeOpenVdb()
{
    static std::once_flag once;
    std::call_once(once, [] { openvdb::initialize(); });
}

openvdb::FloatGrid::Ptr particleLevelSet(const sim::ParticleSet &particles, double voxelSize,
                                         const ParticleSurfaceOptions &options)
{
    auto grid = openvdb::createLevelSet<openvdb::FloatGrid>(voxelSize, kHalfWidth);
    grid->setName("surface");
    if (particles.empty())
        return grid;
    const double scale = std::max(1.0, double(options.radiusScale));
    const double radius = scale * particles.radius;
    openvdb::tools::ParticlesToLevelSet<openvdb::FloatGrid> raster(*grid);
    raster.setRmin(0.0); // particleVoxelSize keeps spheres at least a voxel wide
    const ParticleList list(particles);
    raster.rasterizeSpheres(list, radius);
    raster.finalize(/*prune=*/true);
    if (options.smoothing > 0 || scale > 1.0) {
        openvdb::tools::LevelSetFilter<openvdb::FloatGrid> filter(*grid);
        for (int n = 0; n < options.smoothing; ++n)
            filter.meanCurvature();
        if (scale > 1.0)
            filter.offset(float((scale - 1.0) * particles.radius));
    }
    return grid;
}

openvdb::FloatGrid::Ptr densityField(const sim::ScalarGrid &density, const sim::Domain &domain,
                                     float iso)
{
    const sim::Int3 n = domain.cells;
    std::vector<float> phi(density.count());
    const float *d = density.data();
    for (std::size_t c = 0; c < phi.size(); ++c)
        phi[c] = iso - d[c];
    // x fastest, as sim grids store cells: OpenVDB's LayoutXYZ.
    const openvdb::CoordBBox box(openvdb::Coord(0), openvdb::Coord(n.x - 1, n.y - 1, n.z - 1));
    openvdb::tools::Dense<float, openvdb::tools::LayoutXYZ> dense(box, phi.data());
    auto grid = openvdb::FloatGrid::create(iso);
    openvdb::tools::copyFromDense(dense, *grid, /*tolerance=*/-1.f); // every cell active
    const double h = domain.cellSize;
    auto xform = openvdb::math::Transform::createLinearTransform(h);
    xform->postTranslate(openvdb::Vec3d(domain.origin.x, domain.origin.y, domain.origin.z)
                         + openvdb::Vec3d(0.5 * h));
    grid->setTransform(xform);
    return grid;
}

openvdb::FloatGrid::Ptr densityLevelSet(const sim::ScalarGrid &density, const sim::Domain &domain,
                                        float iso)
{
    const auto field = densityField(density, domain, iso);
    auto grid = openvdb::tools::levelSetRebuild(*field, 0.f, kHalfWidth, kHalfWidth);
    grid->setName("surface");
    return grid;
}

void meshZeroCrossing(const openvdb::FloatGrid &grid, SurfaceMesh &out)
{
    out = {};
    std::vector<openvdb::Vec3s> points;
    std::vector<openvdb::Vec3I> triangles;
    std::vector<openvdb::Vec4I> quads;
    openvdb::tools::volumeToMesh(grid, points, triangles, quads, 0.0, 0.0);
    out.positions.reserve(points.size());
    for (const openvdb::Vec3s &p : points)
        out.positions.push_back({p.x(), p.y(), p.z()});
    // volumeToMesh winds a level set's polygons clockwise seen from outside (Houdini's
    // convention) and, for other grid classes, inverts that: both become counter-clockwise.
    const bool reverse = grid.getGridClass() == openvdb::GRID_LEVEL_SET;
    auto triangle = [&](std::uint32_t a, std::uint32_t b, std::uint32_t c) {
        out.triangles.push_back(reverse ? std::array{a, c, b} : std::array{a, b, c});
    };
    out.triangles.reserve(triangles.size() + 2 * quads.size());
    for (const openvdb::Vec3I &t : triangles)
        triangle(t[0], t[1], t[2]);
    for (const openvdb::Vec4I &q : quads) {
        triangle(q[0], q[1], q[2]);
        triangle(q[0], q[2], q[3]);
    }
    // Area-weighted vertex normals (the cross product's length is twice the area).
    out.normals.assign(out.positions.size(), sim::Vec3{});
    for (const auto &t : out.triangles) {
        const sim::Vec3 a = out.positions[t[0]], b = out.positions[t[1]], c = out.positions[t[2]];
        const sim::Vec3 n = cross(b - a, c - a);
        for (std::uint32_t v : t)
            out.normals[v] = out.normals[v] + n;
    }
    for (sim::Vec3 &n : out.normals) {
        const float l = length(n);
        n = l > 0.f ? n * (1.f / l) : sim::Vec3{0.f, 1.f, 0.f};
    }
}

} // namespace plume::surface
