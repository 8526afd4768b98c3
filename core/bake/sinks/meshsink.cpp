// SPDX-License-Identifier: Apache-2.0
#include <core/bake/sinks/meshsink.h>

#include <core/surface/surface.h>

namespace plume {

namespace {

/// Writes the frame's level surface as an OBJ file: the liquid's from its particles, else the
/// density's at the iso value.
sim::Status writeMeshFrame(const sim::Solver &solver, const BakeSettings &settings, int frame,
                           const std::filesystem::path &path)
{
    SurfaceMesh mesh;
    std::string what;
    if (const sim::ParticleSet *particles = solver.particles()) {
        if (sim::Status st = particleSurfaceMesh(*particles, solver.domain(), mesh); !st)
            return st;
        what = "liquid surface";
    } else {
        sim::ScalarGrid density;
        solver.sample(sim::FieldKind::Density, density);
        if (sim::Status st = densitySurfaceMesh(density, solver.sampleDomain(),
                                                settings.levelSurfaceIso, mesh);
            !st)
            return st;
        what = "density level surface at " + sim::formatNumber(settings.levelSurfaceIso);
    }
    return writeObj(path, mesh, settings.openvdb.up == UpAxis::Z,
                    "Plume " + settings.plumeVersion + ", scene " + settings.baseName + ", frame "
                        + std::to_string(frame) + ": " + what);
}

} // namespace

sim::Status MeshSink::frame(const BakeFrame &frame, std::vector<std::filesystem::path> &files)
{
    if (!mPlan.mesh.has(frame.number))
        return sim::Status::success();
    const std::filesystem::path path = framePath(mPlan.settings, frame.number, ".obj");
    if (sim::Status st = writeMeshFrame(*frame.solver, mPlan.settings, frame.number, path); !st)
        return st;
    files.push_back(path);
    return sim::Status::success();
}

} // namespace plume
