// SPDX-License-Identifier: Apache-2.0
#include <core/bake/baker.h>

#include <core/bake/bakerecord.h>

#include <core/export/flipbook.h>
#include <core/export/flowmap.h>
#include <core/export/frameimage.h>
#include <core/export/vdbwriter.h>
#include <core/render/liquidtexture.h>
#include <core/render/renderer.h>
#include <core/scene/rasterize.h>
#include <core/scene/scenesimulation.h>
#include <core/scene/texturelook.h>
#include <core/sim/run/memoryestimate.h>
#include <core/sim/run/simulation.h>

#include <chrono>
#include <climits>
#include <cmath>
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

std::filesystem::path framePath(const BakeSettings &s, int frame, const char *extension = ".vdb")
{
    return s.outputDirectory / (s.baseName + "." + frameNumber(frame) + extension);
}

/// Frames an output writes: first, first + step, ... up to last.
struct Span
{
    bool on = false;
    int first = 0, last = -1, step = 1;
    bool has(int f) const { return on && f >= first && f <= last && (f - first) % step == 0; }
};

/// The image sequence's files of a frame: <base><suffix>.<frame>.<ext> per texture (colour,
/// emission when separate, the passes').
std::vector<std::filesystem::path> sequencePaths(const ImageSequenceSettings &s,
                                                 const std::filesystem::path &dir,
                                                 const std::string &base, int number)
{
    std::vector<std::filesystem::path> paths;
    for (const PassTexture &t : passTextures(textureOptions(s)))
        paths.push_back(
            dir / (base + t.suffix + "." + frameNumber(number) + fileExtension(s.passes.format)));
    return paths;
}

std::filesystem::path checkpointPath(const std::filesystem::path &resumeDir)
{
    return resumeDir / "checkpoint.plumeckpt";
}

std::filesystem::path keptFramePath(const std::filesystem::path &resumeDir, int frame)
{
    return resumeDir / ("flipbook." + frameNumber(frame) + ".frame");
}

/// Where a resumed bake stands: the simulation restored, the flipbook frames before it loaded.
struct ResumePoint
{
    int start = 0; ///< the first frame to simulate
    std::vector<RenderedFrame> flipbook;
};

/// Checks an interrupted bake's record against this one, restores its checkpoint and loads
/// what it wrote before it; every refusal says why and what to do.
sim::Status prepareResume(const BakeSettings &settings, const BakeRecord &record, const Span &vdb,
                          const Span &mesh, const Span &flip, const Span &images, int frameStart,
                          SceneSimulation &simulation, ResumePoint &out)
{
    const std::filesystem::path dir = settings.outputDirectory / kResumeFolder;
    const std::string again = "; bake again without --resume to start over";
    std::error_code ec;
    if (!std::filesystem::exists(dir / "bake.json", ec))
        return sim::Status::failure("'" + settings.outputDirectory.string()
                                    + "' holds no interrupted bake to resume (no " + kResumeFolder
                                    + "/bake.json)");
    BakeRecord was;
    if (sim::Status st = readBakeRecord(dir, was); !st)
        return sim::Status::failure(st.error + again);
    if (const std::string diff = bakeRecordDifference(was, record); !diff.empty())
        return sim::Status::failure("cannot resume: " + diff + again);
    const std::filesystem::path checkpoint = checkpointPath(dir);
    if (std::filesystem::exists(checkpoint, ec)) {
        if (sim::Status st = simulation.restoreCheckpointFile(
                QString::fromStdString(checkpoint.string()), record.sceneHash);
            !st)
            return sim::Status::failure(st.error + again);
    }
    out.start = frameStart + simulation.simulation().frame();
    const std::string base = settings.images.fileName.empty() ? settings.baseName
                                                              : settings.images.fileName;
    for (int f = frameStart; f < out.start; ++f) {
        std::vector<std::filesystem::path> files;
        if (vdb.has(f))
            files.push_back(framePath(settings, f));
        if (mesh.has(f))
            files.push_back(framePath(settings, f, ".obj"));
        if (images.has(f)) {
            for (const auto &p : sequencePaths(settings.images, settings.outputDirectory, base, f))
                files.push_back(p);
        }
        for (const auto &p : files) {
            if (!std::filesystem::exists(p, ec))
                return sim::Status::failure(
                    p.string() + ", written before the interruption, is missing" + again);
        }
        if (flip.has(f)) {
            RenderedFrame frame;
            if (sim::Status st = loadRenderedFrame(keptFramePath(dir, f), frame); !st)
                return sim::Status::failure(st.error + again);
            out.flipbook.push_back(std::move(frame));
        }
    }
    return sim::Status::success();
}

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
    for (const std::filesystem::path &p : sequencePaths(s, dir, base, number))
        paths.push_back(QString::fromStdString(p.string()));
    std::vector<QByteArray> contents;
    const bool png = s.passes.format == ImageFormat::Png;
    EncodeContext ctx{s.alpha, s.emission, s.passes.format};
    ctx.motion = false;
    for (const PassTexture &t : passTextures(textureOptions(s))) {
        // PNG colour and emission: the writers that predate passes (same bytes).
        if (png && t.kind == TextureKind::Color) {
            contents.push_back(pngBytes(colorImage(frame, s.alpha, s.emission, s.bitDepth)));
        } else if (png && t.kind == TextureKind::Emission) {
            contents.push_back(pngBytes(emissionImage(frame, s.bitDepth)));
        } else {
            QByteArray bytes;
            if (sim::Status st = encodeTexture(textureImage(frame, t, ctx), s.passes, s.bitDepth,
                                               bytes);
                !st)
                return sim::Status::failure("images " + paths[contents.size()].toStdString() + ": "
                                            + st.error);
            contents.push_back(std::move(bytes));
        }
    }
    if (sim::Status st = writeFilesAtomically(paths, contents); !st)
        return st;
    for (const QString &p : paths)
        files.push_back(p.toStdString());
    return sim::Status::success();
}

/// Samples the exported fields and writes one file. Only the cells outside which the fields
/// are zero are sampled (Solver::fieldBox: the adaptive domain's box), so a large adaptive
/// domain needs no whole-domain grids; the level surface needs the whole density.
sim::Status writeFrame(const sim::Solver &solver, const BakeSettings &settings, int frame,
                       const std::filesystem::path &path)
{
    const sim::Int3 n = solver.domain().cells;
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
    out.domain = solver.domain();
    out.frame = frame;
    out.sceneName = settings.baseName;
    out.plumeVersion = settings.plumeVersion;
    out.density = &density;
    out.temperature = &temperature;
    out.velocityX = &vx;
    out.velocityY = &vy;
    if (!solver.domain().is2D()) {
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
    VdbWriteOptions options;
    options.up = settings.openvdb.up;
    options.halfFloat = settings.openvdb.halfFloat;
    options.velocityMask = settings.openvdb.velocityMask;
    return writeVdbFrame(path, out, options);
}

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
        if (sim::Status st = densitySurfaceMesh(density, solver.domain(), settings.levelSurfaceIso,
                                                mesh);
            !st)
            return st;
        what = "density level surface at " + sim::formatNumber(settings.levelSurfaceIso);
    }
    return writeObj(path, mesh, settings.openvdb.up == UpAxis::Z,
                    "Plume " + settings.plumeVersion + ", scene " + settings.baseName + ", frame "
                        + std::to_string(frame) + ": " + what);
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
    // The scene or the settings cannot be baked as asked; found before anything is written.
    auto reject = [&](std::string message) {
        result.invalid = true;
        return fail(std::move(message));
    };
    const FlipbookSettings &fs = settings.flipbook;
    const ImageSequenceSettings &is = settings.images;
    Span vdb, mesh, flip, images, flow;
    std::vector<int> flipFrames;
    for (sim::Status st :
         {resolveSpan(scene, settings, settings.vdb, settings.firstFrame, settings.lastFrame, 1,
                      "vdb", vdb),
          resolveSpan(scene, settings, settings.mesh, settings.firstFrame, settings.lastFrame, 1,
                      "mesh", mesh),
          resolveSpan(scene, settings, settings.flowMap, settings.firstFrame, settings.lastFrame, 1,
                      "flow map", flow),
          resolveSpan(scene, settings, fs.enabled, fs.first, fs.last, 1, "flipbook", flip),
          resolveSpan(scene, settings, is.enabled, is.first, is.last, is.step, "images", images)}) {
        if (!st)
            return reject(st.error);
    }
    if (!vdb.on && !mesh.on && !flip.on && !images.on && !flow.on)
        return reject(
            "nothing to bake: no VDB, mesh, flipbook, image or flow map output is enabled");
    if (mesh.on && scene.simulation.params.scheme == sim::Scheme::Ocean)
        return reject("an ocean scene has no volume to mesh; bake its height, normal and foam maps "
                      "instead (plume-cli bake, docs/ocean.md)");
    if ((settings.mesh || settings.levelSurface) && !std::isfinite(settings.levelSurfaceIso))
        return reject("level surface: the iso value must be finite");
    if (vdb.on && scene.simulation.params.scheme == sim::Scheme::Ocean)
        return reject("an ocean scene has no volume to write as OpenVDB; bake its height, normal "
                      "and foam maps instead (plume-cli bake, docs/ocean.md), or a flipbook or "
                      "images of a field such as height");
    if (flow.on && scene.domain.dimension != Dimension::TwoD)
        return reject("flow map: a flow map needs a 2D scene");
    // Past 512^3 cells (the adaptive domain's) only the VDB files sample the box alone; the
    // other outputs would sample whole-domain grids of several GiB each.
    if (const sim::Int3 n = domainCells(scene.domain); n.volume() > kMaxCells) {
        const char *what = mesh.on                           ? "meshes"
                           : flip.on                         ? "a flipbook"
                           : images.on                       ? "images"
                           : flow.on                         ? "a flow map"
                           : settings.levelSurface && vdb.on ? "a level surface"
                                                             : nullptr;
        if (what)
            return reject(std::string(what) + " of a domain above 512^3 cells (this one has "
                          + std::to_string(n.x) + " x " + std::to_string(n.y) + " x "
                          + std::to_string(n.z)
                          + ") would need whole-domain grids; bake its VDB files, or lower the "
                            "resolution for "
                          + what);
    }
    if (flow.on && settings.resume)
        return reject("flow map: a bake with a flow map cannot resume (the running average is not "
                      "in the resume record); bake again without resuming");
    if (flip.on) {
        if (sim::Status st = selectFlipbookFrames(fs, flip.first, flip.last, flipFrames, flip.step);
            !st)
            return reject(st.error);
        flip.last = flipFrames.back();
    }
    // The passes both outputs need, rendered once per frame.
    PassRequest request;
    if (flip.on || images.on) {
        if (sim::Status st = checkRenderSettings(settings.render); !st)
            return reject(st.error);
        const bool is2D = scene.domain.dimension == Dimension::TwoD;
        // Images last, so a flipbook's depth threshold wins when both have depth.
        for (auto [on, options, what] : {std::tuple{images.on, textureOptions(is), "images: "},
                                         std::tuple{flip.on, textureOptions(fs), "flipbook: "}}) {
            if (!on)
                continue;
            const std::vector<PassTexture> textures = passTextures(options);
            if (sim::Status st = checkPasses(textures, is2D); !st)
                return reject(std::string(what).append(st.error));
            const PassRequest r = passRequest(textures, options.passes);
            request.motion = request.motion || (r.motion && options.motionVectors);
            request.sixWay = request.sixWay || r.sixWay;
            request.normals = request.normals || r.normals;
            if (r.depth) {
                request.depth = true;
                request.depthThreshold = r.depthThreshold;
            }
        }
        if (request.sixWay && surfaceLook(settings.render, is2D))
            return fail("six-way lighting is for smoke volumes; the surface look is lit by the "
                        "render settings' light (choose standard lighting)");
    }
    // The "texture" look draws the scene's liquid texture instead of the 2D renderer's look.
    const bool textureLook = (flip.on || images.on) && settings.render.look2D == Look2D::Texture
                             && scene.domain.dimension == Dimension::TwoD;
    LiquidTextureLook texture;
    if (textureLook) {
        if (!scene.simulation.liquidTexture.enabled())
            return reject("the render look is \"texture\", but the scene has no liquid texture "
                          "(simulation.liquidTexture)");
        std::string error;
        if (!loadLiquidTextureLook(scene.simulation.liquidTexture, scene.directory, texture,
                                   &error))
            return reject(error);
    }
    FlowMapAccumulator flowSum;
    int lo = INT_MAX, hi = INT_MIN;
    for (const Span &span : {vdb, mesh, flip, images, flow}) {
        if (span.on) {
            lo = std::min(lo, span.first);
            hi = std::max(hi, span.last);
        }
    }
    if (settings.checkpointEvery < 0)
        return reject("checkpoint interval must be 0 (none) or more frames, got "
                      + std::to_string(settings.checkpointEvery));
    // A grid that will not fit is refused before anything is allocated or written.
    if (sim::Status st = checkScene(scene); !st)
        return reject(st.error);
    if (sim::Status st = sim::checkMemory(makeDomain(scene.domain), scene.simulation.params); !st) {
        result.outOfMemory = true;
        return fail(st.error);
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

    // The resume record: continue from it, or start a new one (a stale one goes).
    const std::filesystem::path resumeDir = settings.outputDirectory / kResumeFolder;
    const BakeRecord record = makeBakeRecord(scene, settings);
    const int frameStart = scene.simulation.frameStart;
    ResumePoint resume{frameStart, {}};
    if (settings.resume) {
        if (sim::Status st = prepareResume(settings, record, vdb, mesh, flip, images, frameStart,
                                           simulation, resume);
            !st) {
            result.refused = true;
            return fail(st.error);
        }
        result.resumedAfter = resume.start - 1;
    } else if (std::filesystem::remove_all(resumeDir, ec); ec) {
        return fail("cannot remove the old resume record '" + resumeDir.string()
                    + "': " + ec.message());
    }
    const bool keepRecord = settings.checkpointEvery > 0;
    if (keepRecord && !settings.resume) {
        std::filesystem::create_directories(resumeDir, ec);
        if (ec)
            return fail("cannot create '" + resumeDir.string() + "': " + ec.message());
        if (sim::Status st = writeBakeRecord(resumeDir, record); !st)
            return fail(st.error);
    }

    // Interrupted or failed to write: the record lets a resumed bake continue.
    auto stop = [&](std::string message) {
        result.resumable = keepRecord || settings.resume;
        return fail(std::move(message));
    };
    const float frameRate = setup.time.frameRate;
    const bool motion = request.motion; // the flipbook's motion vectors
    std::vector<RenderedFrame> rendered = std::move(resume.flipbook);
    FrameFields fields;
    const int total = hi - lo + 1;
    for (int frame = resume.start; frame <= hi; ++frame) {
        if (observer && observer->cancelRequested()) {
            result.cancelled = true;
            return stop("cancelled before frame " + std::to_string(frame));
        }
        const auto start = std::chrono::steady_clock::now();
        const sim::FrameStats stats = simulation.advance(frame);
        if (!stats.status)
            return fail(stats.status.error);
        if (const std::string note = sim::pressureTrouble(stats); observer && !note.empty())
            observer->pressureTrouble(frame, note);
        if (frame >= lo) {
            const sim::Solver &solver = simulation.solver();
            if (vdb.has(frame)) {
                const std::filesystem::path path = framePath(settings, frame);
                if (sim::Status st = writeFrame(solver, settings, frame, path); !st)
                    return stop(st.error);
                result.files.push_back(path);
            }
            if (mesh.has(frame)) {
                const std::filesystem::path path = framePath(settings, frame, ".obj");
                if (sim::Status st = writeMeshFrame(solver, settings, frame, path); !st)
                    return stop(st.error);
                result.files.push_back(path);
            }
            if (flow.has(frame)) {
                if (sim::Status st = flowSum.add(solver); !st)
                    return fail(st.error);
            }
            if (flip.has(frame) || images.has(frame)) {
                RenderedFrame image;
                if (textureLook) {
                    const sim::Simulation &s = simulation.simulation();
                    image = liquidTextureFrame(textureOffsets(s.textureCoordinates()),
                                               solver.domain().boundaries, s.frame(), texture,
                                               settings.render.width, settings.render.height);
                } else {
                    sampleFrameFields(solver, settings.render, motion,
                                      setup.params.ambientTemperature, fields);
                    // Motion vectors are per flipbook frame: the step's worth of simulation
                    // frames.
                    image = renderFrame(fields, settings.render, request,
                                        frameRate / float(flip.step));
                }
                if (images.has(frame)) {
                    const std::string base = is.fileName.empty() ? settings.baseName : is.fileName;
                    if (sim::Status st = writeSequenceFrame(image, is, settings.outputDirectory,
                                                            base, frame, result.files);
                        !st)
                        return stop(st.error);
                }
                if (flip.has(frame)) {
                    // Kept on disk until the atlas is written, for a resumed bake.
                    if (keepRecord) {
                        if (sim::Status st = saveRenderedFrame(keptFramePath(resumeDir, frame),
                                                               image);
                            !st)
                            return stop(st.error);
                    }
                    rendered.push_back(std::move(image));
                }
            }
        }
        // The frame's files are complete: a checkpoint now lets a resumed bake skip it.
        if (keepRecord && frame < hi && (frame - frameStart + 1) % settings.checkpointEvery == 0) {
            const QString path = QString::fromStdString(checkpointPath(resumeDir).string());
            if (sim::Status st = simulation.saveCheckpointFile(path, record.sceneHash); !st)
                return stop(st.error);
        }
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now()
                                                                    - start)
                              .count();
        if (observer && frame >= lo) {
            if (sim::usesAdaptiveDomain(simulation.solver().params()))
                observer->adaptiveBox(frame, simulation.solver().activeShare());
            observer->frameWritten(frame, frame - lo + 1, total, ms);
        }
    }
    if (flip.on) {
        if (observer && observer->cancelRequested()) {
            result.cancelled = true;
            return stop("cancelled before writing the flipbook");
        }
        const FlipbookInfo info{settings.baseName, flip.first, flip.step, frameRate,
                                settings.plumeVersion};
        const std::string base = fs.fileName.empty() ? settings.baseName + "_flipbook"
                                                     : fs.fileName;
        std::vector<std::string> written;
        if (sim::Status st = writeFlipbook(std::move(rendered), fs, info,
                                           settings.outputDirectory.string(), base, written);
            !st)
            return stop(st.error);
        for (const std::string &w : written)
            result.files.push_back(w);
    }
    if (flow.on) {
        const FlowMapInfo info{settings.baseName, flow.first, flow.last,
                               double(setup.domain.cellSize), settings.plumeVersion};
        std::vector<std::string> written;
        if (sim::Status st = writeFlowMap(flowSum, info, settings.outputDirectory.string(),
                                          settings.baseName + "_flowmap", written);
            !st)
            return stop(st.error);
        for (const std::string &w : written)
            result.files.push_back(w);
    }
    if (std::filesystem::remove_all(resumeDir, ec); ec)
        return fail("the bake is complete, but its resume record '" + resumeDir.string()
                    + "' cannot be removed: " + ec.message());
    return result;
}

} // namespace plume
