#include "baker.h"

#include <export/flipbook.h>
#include <export/frameimage.h>
#include <export/vdbwriter.h>
#include <render/renderer.h>
#include <scene/scenesimulation.h>
#include <sim/simulation.h>

#include <chrono>
#include <climits>
#include <cstdio>
#include <system_error>

namespace plume {

namespace {

std::string frameNumber(int frame)
{
    char number[16];
    std::snprintf(number, sizeof number, "%04d", frame);
    return number;
}

std::filesystem::path framePath(const BakeSettings &s, int frame)
{
    return s.outputDirectory / (s.baseName + "." + frameNumber(frame) + ".vdb");
}

/// Frames an output writes: first, first + step, ... up to last.
struct Span
{
    bool on = false;
    int first = 0, last = -1, step = 1;
    bool has(int f) const { return on && f >= first && f <= last && (f - first) % step == 0; }
};

/// An output's own range when set, else the bake's, checked against the scene's.
sim::Status resolveSpan(const Scene &scene, const BakeSettings &b, bool on, int first, int last,
                        int step, const char *what, Span &out)
{
    out.on = on;
    out.first = first == kBakeRange ? b.firstFrame : first;
    out.last = last == kBakeRange ? b.lastFrame : last;
    out.step = std::max(step, 1);
    if (!on)
        return sim::Status::success();
    if (sim::Status st = checkFrameRange(scene, out.first, out.last); !st)
        return sim::Status::failure(std::string(what) + ": " + st.error);
    return sim::Status::success();
}

/// Writes one frame of the image sequence (and its emission image) atomically.
sim::Status writeSequenceFrame(const RenderedFrame &frame, const ImageSequenceSettings &s,
                               const std::filesystem::path &dir, const std::string &base,
                               int number, std::vector<std::filesystem::path> &files)
{
    if (s.bitDepth != 8 && s.bitDepth != 16)
        return sim::Status::failure("images: bit depth must be 8 or 16");
    std::vector<QString> paths;
    std::vector<QByteArray> contents;
    const std::filesystem::path color = dir / (base + "." + frameNumber(number) + ".png");
    paths.push_back(QString::fromStdString(color.string()));
    contents.push_back(pngBytes(colorImage(frame, s.alpha, s.emission, s.bitDepth)));
    if (s.emission == EmissionOutput::Separate) {
        const auto path = dir / (base + "_emission." + frameNumber(number) + ".png");
        paths.push_back(QString::fromStdString(path.string()));
        contents.push_back(pngBytes(emissionImage(frame, s.bitDepth)));
    }
    if (sim::Status st = writeFilesAtomically(paths, contents); !st)
        return st;
    for (const QString &p : paths)
        files.push_back(p.toStdString());
    return sim::Status::success();
}

/// Samples the exported fields and writes one file.
sim::Status writeFrame(const sim::Solver &solver, const BakeSettings &settings, int frame,
                       const std::filesystem::path &path)
{
    sim::ScalarGrid density, temperature, vx, vy, vz, red, green, blue, flame, fuel;
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
    if (solver.hasCombustion()) {
        solver.sample(sim::FieldKind::Flame, flame);
        solver.sample(sim::FieldKind::Fuel, fuel);
        out.flame = &flame;
        out.fuel = &fuel;
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
    const FlipbookSettings &fs = settings.flipbook;
    const ImageSequenceSettings &is = settings.images;
    Span vdb, flip, images;
    std::vector<int> flipFrames;
    for (sim::Status st :
         {resolveSpan(scene, settings, settings.vdb, settings.firstFrame, settings.lastFrame, 1,
                      "vdb", vdb),
          resolveSpan(scene, settings, fs.enabled, fs.first, fs.last, 1, "flipbook", flip),
          resolveSpan(scene, settings, is.enabled, is.first, is.last, is.step, "images", images)}) {
        if (!st)
            return fail(st.error);
    }
    if (!vdb.on && !flip.on && !images.on)
        return fail("nothing to bake: no VDB, flipbook or image output is enabled");
    if (flip.on) {
        if (sim::Status st = selectFlipbookFrames(fs, flip.first, flip.last, flipFrames, flip.step);
            !st)
            return fail(st.error);
        flip.last = flipFrames.back();
    }
    if (flip.on || images.on) {
        if (sim::Status st = checkRenderSettings(settings.render); !st)
            return fail(st.error);
    }
    int lo = INT_MAX, hi = INT_MIN;
    for (const Span &span : {vdb, flip, images}) {
        if (span.on) {
            lo = std::min(lo, span.first);
            hi = std::max(hi, span.last);
        }
    }
    std::error_code ec;
    std::filesystem::create_directories(settings.outputDirectory, ec);
    if (ec)
        return fail("cannot create output folder '" + settings.outputDirectory.string()
                    + "': " + ec.message());

    SceneSimulation simulation;
    if (sim::Status st = simulation.setScene(scene); !st)
        return fail(st.error);
    const SceneSetup &setup = simulation.setup();

    const float frameRate = setup.time.frameRate;
    const bool motion = flip.on && fs.motionVectors;
    std::vector<RenderedFrame> rendered;
    FrameFields fields;
    const int total = hi - lo + 1;
    for (int frame = scene.simulation.frameStart; frame <= hi; ++frame) {
        if (observer && observer->cancelRequested()) {
            result.cancelled = true;
            return fail("cancelled before frame " + std::to_string(frame));
        }
        const auto start = std::chrono::steady_clock::now();
        const sim::FrameStats stats = simulation.advance(frame);
        if (!stats.status)
            return fail(stats.status.error);
        if (const std::string note = sim::pressureTrouble(stats); observer && !note.empty())
            observer->pressureTrouble(frame, note);
        if (frame < lo)
            continue;
        const sim::Solver &solver = simulation.solver();
        if (vdb.has(frame)) {
            const std::filesystem::path path = framePath(settings, frame);
            if (sim::Status st = writeFrame(solver, settings, frame, path); !st)
                return fail(st.error);
            result.files.push_back(path);
        }
        if (flip.has(frame) || images.has(frame)) {
            sampleFrameFields(solver, settings.render, motion, setup.params.ambientTemperature,
                              fields);
            // Motion vectors are per flipbook frame: the step's worth of simulation frames.
            RenderedFrame image = renderFrame(fields, settings.render, motion,
                                              frameRate / float(flip.step));
            if (images.has(frame)) {
                const std::string base = is.fileName.empty() ? settings.baseName : is.fileName;
                if (sim::Status st = writeSequenceFrame(image, is, settings.outputDirectory, base,
                                                        frame, result.files);
                    !st)
                    return fail(st.error);
            }
            if (flip.has(frame))
                rendered.push_back(std::move(image));
        }
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now()
                                                                    - start)
                              .count();
        if (observer)
            observer->frameWritten(frame, frame - lo + 1, total, ms);
    }
    if (flip.on) {
        if (observer && observer->cancelRequested()) {
            result.cancelled = true;
            return fail("cancelled before writing the flipbook");
        }
        const FlipbookInfo info{settings.baseName, flip.first, flip.step, frameRate,
                                settings.plumeVersion};
        const std::string base = fs.fileName.empty() ? settings.baseName + "_flipbook"
                                                     : fs.fileName;
        std::vector<std::string> written;
        if (sim::Status st = writeFlipbook(std::move(rendered), fs, info,
                                           settings.outputDirectory.string(), base, written);
            !st)
            return fail(st.error);
        for (const std::string &w : written)
            result.files.push_back(w);
    }
    return result;
}

} // namespace plume
