// SPDX-License-Identifier: Apache-2.0
#include <core/bake/sinks/meshsink.h>

#include <core/surface/surface.h>

namespace plume {

namespace {

/// Writes the frame's level surface as an OBJ file: the liquid's from its particles, else the
/// density's at the iso value.
/// The density's comes from the frame's fields as the VDB files hold them, so that a bake from
/// a cache writes the same meshes.
sim::Status writeMeshFrame(const BakeFrame &frame, const BakeSettings &settings,
                           const std::filesystem::path &path)
{
    SurfaceMesh mesh;
    std::string what;
    const sim::ParticleSet *particles = frame.solver ? frame.solver->particles() : nullptr;
    if (particles) {
        if (sim::Status st = particleSurfaceMesh(*particles, frame.solver->domain(), mesh); !st)
            return st;
        what = "liquid surface";
    } else {
        if (!frame.fields)
            return sim::Status::failure("mesh: frame " + std::to_string(frame.number)
                                        + " has no density to mesh");
        if (sim::Status st = densitySurfaceMesh(frame.fields->density, frame.fields->domain,
                                                settings.levelSurfaceIso, mesh);
            !st)
            return st;
        what = "density level surface at " + sim::formatNumber(settings.levelSurfaceIso);
    }
    return writeObj(path, mesh, settings.openvdb.up == UpAxis::Z,
                    "Plume " + settings.plumeVersion + ", scene " + settings.baseName + ", frame "
                        + std::to_string(frame.number) + ": " + what);
}

} // namespace

sim::Status MeshSink::frame(const BakeFrame &frame, std::vector<std::filesystem::path> &files)
{
    if (!mPlan.mesh.has(frame.number))
        return sim::Status::success();
    const std::filesystem::path path = framePath(mPlan.settings, frame.number, ".obj");
    if (sim::Status st = writeMeshFrame(frame, mPlan.settings, path); !st)
        return st;
    files.push_back(path);
    return sim::Status::success();
}

} // namespace plume
