// SPDX-License-Identifier: Apache-2.0
#include <core/bake/sinks/vdbsink.h>

#include <core/bake/bakefields.h>

#include <core/export/vdbwriter.h>

namespace plume {

/// Samples the exported fields and writes one file. Only the cells outside which the fields
/// are zero are sampled (Solver::fieldBox: the adaptive domain's box), so a large adaptive
/// domain needs no whole-domain grids; the level surface needs the whole density.
sim::Status writeSolverFrame(const sim::Solver &solver, const BakeSettings &settings, int frame,
                             const std::filesystem::path &path)
{
    const sim::Int3 n = solver.sampleDomain().cells;
    sim::CellBox box = solver.fieldBox();
    if (settings.levelSurface || box == sim::CellBox{{0, 0, 0}, n})
        box = {};
    else if (box.empty()) // nothing anywhere: one zero cell stands for the domain
        box = {{0, 0, 0}, {1, 1, 1}};
    auto sample = [&](sim::FieldKind kind, sim::ScalarGrid &out) {
        if (box.empty())
            solver.sample(kind, out);
        else
            solver.sampleIn(kind, box, out);
    };
    sim::ScalarGrid density, temperature, vx, vy, vz, red, green, blue, flame, fuel;
    sample(sim::FieldKind::Density, density);
    sample(sim::FieldKind::Temperature, temperature);
    sample(sim::FieldKind::VelocityX, vx);
    sample(sim::FieldKind::VelocityY, vy);
    VdbFrame out;
    out.fieldBox = box;
    out.domain = solver.sampleDomain();
    out.frame = frame;
    out.sceneName = settings.baseName;
    out.plumeVersion = settings.plumeVersion;
    out.density = &density;
    out.temperature = &temperature;
    out.velocityX = &vx;
    out.velocityY = &vy;
    if (!solver.sampleDomain().is2D()) {
        sample(sim::FieldKind::VelocityZ, vz);
        out.velocityZ = &vz;
    }
    if (solver.hasCombustion()) {
        sample(sim::FieldKind::Flame, flame);
        sample(sim::FieldKind::Fuel, fuel);
        out.flame = &flame;
        out.fuel = &fuel;
    }
    if (solver.hasDye()) {
        sample(sim::FieldKind::DyeRed, red);
        sample(sim::FieldKind::DyeGreen, green);
        sample(sim::FieldKind::DyeBlue, blue);
        out.dyeRed = &red;
        out.dyeGreen = &green;
        out.dyeBlue = &blue;
    }
    out.particles = solver.particles();
    out.levelSurface = settings.levelSurface;
    out.levelSurfaceIso = settings.levelSurfaceIso;
    return writeVdbFrame(path, out, vdbWriteOptions(settings.openvdb));
}

sim::Status VdbSink::frame(const BakeFrame &frame, std::vector<std::filesystem::path> &files)
{
    if (!mPlan.vdb.has(frame.number))
        return sim::Status::success();
    const std::filesystem::path path = framePath(mPlan.settings, frame.number);
    if (sim::Status st = writeSolverFrame(*frame.solver, mPlan.settings, frame.number, path); !st)
        return st;
    files.push_back(path);
    return sim::Status::success();
}

} // namespace plume
