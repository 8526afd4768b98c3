#include "baker.h"

#include <export/vdbwriter.h>
#include <scene/rasterize.h>
#include <sim/simulation.h>

#include <chrono>
#include <cstdio>
#include <system_error>

namespace plume {

namespace {

std::filesystem::path framePath(const BakeSettings &s, int frame)
{
    char number[16];
    std::snprintf(number, sizeof number, "%04d", frame);
    return s.outputDirectory / (s.baseName + "." + number + ".vdb");
}

/// Hands the inputs that changed to the solver.
sim::Status applyChanges(const SceneSetup &setup, InputChanges changes, sim::Solver &solver)
{
    if (changes.solids) {
        if (sim::Status st = solver.setObstacles(setup.solids); !st)
            return st;
    }
    if (changes.emitters) {
        if (sim::Status st = solver.setEmitters(setup.emitters); !st)
            return st;
    }
    if (changes.forces)
        return solver.setForceFields(setup.forces);
    return sim::Status::success();
}

/// Samples the exported fields and writes one file.
sim::Status writeFrame(const sim::Solver &solver, const BakeSettings &settings, int frame,
                       const std::filesystem::path &path)
{
    sim::ScalarGrid density, temperature, vx, vy, vz, red, green, blue;
    solver.sample(sim::FieldKind::Density, density);
    solver.sample(sim::FieldKind::Temperature, temperature);
    solver.sample(sim::FieldKind::VelocityX, vx);
    solver.sample(sim::FieldKind::VelocityY, vy);
    VdbFrame out;
    out.domain = solver.domain();
    out.frame = frame;
    out.sceneName = settings.baseName;
    out.plumeVersion = settings.plumeVersion;
    out.density = &density;
    out.temperature = &temperature;
    out.velocityX = &vx;
    out.velocityY = &vy;
    if (!solver.domain().is2D()) {
        solver.sample(sim::FieldKind::VelocityZ, vz);
        out.velocityZ = &vz;
    }
    if (solver.hasDye()) {
        solver.sample(sim::FieldKind::DyeRed, red);
        solver.sample(sim::FieldKind::DyeGreen, green);
        solver.sample(sim::FieldKind::DyeBlue, blue);
        out.dyeRed = &red;
        out.dyeGreen = &green;
        out.dyeBlue = &blue;
    }
    return writeVdbFrame(path, out);
}

} // namespace

sim::Status checkFrameRange(const Scene &scene, int first, int last)
{
    const int lo = scene.simulation.frameStart;
    const int hi = scene.simulation.frameEnd;
    if (first > last)
        return sim::Status::failure("frame range " + std::to_string(first) + ":"
                                    + std::to_string(last) + " is empty (first > last)");
    if (first < lo || last > hi)
        return sim::Status::failure("frame range " + std::to_string(first) + ":"
                                    + std::to_string(last) + " lies outside the scene's frames "
                                    + std::to_string(lo) + ":" + std::to_string(hi));
    return sim::Status::success();
}

BakeResult bakeScene(const Scene &scene, const BakeSettings &settings, BakeObserver *observer)
{
    BakeResult result;
    auto fail = [&](std::string message) {
        result.status = sim::Status::failure(std::move(message));
        return result;
    };
    if (sim::Status st = checkFrameRange(scene, settings.firstFrame, settings.lastFrame); !st)
        return fail(st.error);
    std::error_code ec;
    std::filesystem::create_directories(settings.outputDirectory, ec);
    if (ec)
        return fail("cannot create output folder '" + settings.outputDirectory.string()
                    + "': " + ec.message());

    SceneRasterizer rasterizer;
    if (sim::Status st = rasterizer.setScene(scene); !st)
        return fail(st.error);
    const SceneSetup &setup = rasterizer.setup();
    std::string error;
    auto simulation = sim::Simulation::create(setup.domain, setup.params, setup.time, &error);
    if (!simulation)
        return fail(error);

    const int total = settings.lastFrame - settings.firstFrame + 1;
    for (int frame = scene.simulation.frameStart; frame <= settings.lastFrame; ++frame) {
        if (observer && observer->cancelRequested()) {
            result.cancelled = true;
            return fail("cancelled before frame " + std::to_string(frame));
        }
        const auto start = std::chrono::steady_clock::now();
        const InputChanges changes = rasterizer.update(frame);
        if (sim::Status st = applyChanges(setup, changes, simulation->solver()); !st)
            return fail("frame " + std::to_string(frame) + ": " + st.error);
        const sim::FrameStats stats = simulation->advanceFrame();
        if (!stats.status)
            return fail("frame " + std::to_string(frame) + ": " + stats.status.error);
        if (frame < settings.firstFrame)
            continue;
        const std::filesystem::path path = framePath(settings, frame);
        if (sim::Status st = writeFrame(simulation->solver(), settings, frame, path); !st)
            return fail(st.error);
        result.files.push_back(path);
        const double ms = std::chrono::duration<double, std::milli>(
                              std::chrono::steady_clock::now() - start)
                              .count();
        if (observer)
            observer->frameWritten(frame, frame - settings.firstFrame + 1, total, ms);
    }
    return result;
}

} // namespace plume
