// SPDX-License-Identifier: Apache-2.0
// plume-cli: the Plume core without a GUI. Exit codes: 0 success, 1 failure while running,
// 2 bad usage or invalid input (a refused --resume too), 3 the grid does not fit in memory.
#include <core/bake/baker.h>
#include <core/bake/oceanbake.h>
#include <core/io/scenereader.h>
#include <core/scene/adaptivepreview.h>
#include <core/scene/builtinscene.h>
#include <core/scene/rasterize.h>
#include <core/scene/scenesimulation.h>
#include <core/settings/exportsettings.h>
#include <core/sim/run/memoryestimate.h>
#include <core/sim/run/simulation.h>
#include <core/sim/sph/sphsolver.h>

#include <oneapi/tbb/global_control.h>

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <memory>
#include <optional>
#include <vector>

#include <unistd.h>

namespace {

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;
constexpr int kExitMemory = 3;
/// Checkpoints of a bake, in frames: resuming repeats at most this many frames less one, plus
/// the one that was cut short; the cost is measured in docs/performance.md.
constexpr int kDefaultCheckpointEvery = 5;

int usageError(const QString &message)
{
    std::fprintf(stderr, "plume-cli: %s\n", qPrintable(message));
    std::fprintf(stderr, "Try 'plume-cli --help'.\n");
    return kExitUsage;
}

bool parsePositiveInt(const QString &text, int &out)
{
    bool ok = false;
    const int v = text.toInt(&ok);
    if (!ok || v < 1)
        return false;
    out = v;
    return true;
}

/// Reads `text` as a number within `p` (the table that the scene reader checks too).
template<class T>
bool parseParam(const QString &text, const plume::sim::Param &p, T &out)
{
    bool ok = false;
    const double v = text.trimmed().toDouble(&ok);
    if (!ok || !p.contains(v))
        return false;
    out = T(v);
    return true;
}

/// Reads `text` as one of an enum's names.
template<class E, std::size_t N>
bool parseName(const QString &text, const plume::sim::EnumNames<E, N> &names, E &out)
{
    return names.parse(text.toStdString(), out);
}

// plume-cli simulate: runs a built-in scene headless and prints per-frame timings.
int simulate(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Runs a built-in scene without a window and prints, per frame, the wall time, the time "
        "per solver step, the pressure iterations and the final relative residual.");
    parser.addHelpOption();
    parser.addPositionalArgument("simulate", "The command.");
    const QCommandLineOption sceneOpt(
        "scene", "Built-in scene: plume, or ocean (a 2D ocean patch; --3d and --scheme ignored).",
        "name", "plume");
    const QCommandLineOption resOpt("resolution", "Cells along each axis.", "N", "128");
    const QCommandLineOption threeDOpt("3d", "Simulate in 3D (default 2D).");
    const QCommandLineOption schemeOpt("scheme", "Solver scheme of the plume scene: smoke or stam.",
                                       "name", "smoke");
    const QCommandLineOption numericOpt(
        "numeric", "Numbers of the stam scheme: float or fixed (Q12.20 fixed point).", "type",
        "float");
    const QCommandLineOption adaptiveOpt(
        "adaptive", "Smoke scheme: solve only in a box around the smoke (docs/adaptive.md).");
    const QCommandLineOption framesOpt("frames", "Frames to simulate.", "N", "48");
    const QCommandLineOption threadsOpt("threads", "Worker threads (default: all cores).", "N");
    const QCommandLineOption quietOpt("quiet", "Print only the summary.");
    parser.addOptions({sceneOpt, resOpt, threeDOpt, schemeOpt, numericOpt, adaptiveOpt, framesOpt,
                       threadsOpt, quietOpt});
    if (!parser.parse(arguments))
        return usageError(parser.errorText());
    if (parser.isSet("help")) {
        std::fputs(qPrintable(parser.helpText()), stdout);
        return kExitOk;
    }

    plume::BuiltinOptions options;
    if (!parsePositiveInt(parser.value(resOpt), options.resolution))
        return usageError("--resolution must be a positive integer, got '" + parser.value(resOpt)
                          + "'");
    options.threeD = parser.isSet(threeDOpt);
    if (!parseName(parser.value(schemeOpt), plume::sim::kSchemeNames, options.scheme))
        return usageError("--scheme must be "
                          + QString::fromStdString(plume::sim::kSchemeNames.expected()) + ", got '"
                          + parser.value(schemeOpt) + "'");
    plume::sim::StamNumeric numeric = plume::sim::StamNumeric::Float;
    if (!parseName(parser.value(numericOpt), plume::sim::kStamNumericNames, numeric))
        return usageError("--numeric must be "
                          + QString::fromStdString(plume::sim::kStamNumericNames.expected())
                          + ", got '" + parser.value(numericOpt) + "'");
    if (numeric != plume::sim::StamNumeric::Float && options.scheme != plume::sim::Scheme::Stam)
        return usageError("--numeric " + parser.value(numericOpt) + " needs --scheme stam");
    if (parser.isSet(adaptiveOpt) && options.scheme != plume::sim::Scheme::Smoke)
        return usageError("--adaptive needs --scheme smoke");
    int frames = 0;
    if (!parsePositiveInt(parser.value(framesOpt), frames))
        return usageError("--frames must be a positive integer, got '" + parser.value(framesOpt)
                          + "'");
    std::optional<oneapi::tbb::global_control> threadLimit;
    if (parser.isSet(threadsOpt)) {
        int threads = 0;
        if (!parsePositiveInt(parser.value(threadsOpt), threads))
            return usageError("--threads must be a positive integer, got '"
                              + parser.value(threadsOpt) + "'");
        threadLimit.emplace(oneapi::tbb::global_control::max_allowed_parallelism,
                            std::size_t(threads));
    }

    plume::Scene scene;
    std::string error;
    if (!plume::makeBuiltinScene(parser.value(sceneOpt).toStdString(), options, scene, &error))
        return usageError(QString::fromStdString(error));
    scene.simulation.params.stamNumeric = numeric;
    scene.simulation.params.adaptiveDomain = parser.isSet(adaptiveOpt);
    // The frame loop of the baker and the app: scene frames 1, 2, ... (the inputs are handed
    // over before the memory line, so it counts the grids they need, such as dye).
    plume::SceneSimulation simulation;
    plume::sim::Status st = simulation.setScene(scene);
    if (st)
        st = simulation.applyInputs(1);
    if (!st)
        return usageError(QString::fromStdString(st.error));

    const bool quiet = parser.isSet(quietOpt);
    const plume::sim::Solver &solver = simulation.solver();
    const plume::sim::Int3 c = solver.domain().cells;
    const bool fixed = solver.params().scheme == plume::sim::Scheme::Stam
                       && solver.params().stamNumeric == plume::sim::StamNumeric::Fixed;
    std::printf("scene %s, %s scheme%s, %d x %d x %d cells, %.1f MiB (%.1f bytes/cell)\n",
                scene.name.c_str(), plume::sim::toString(solver.params().scheme),
                fixed ? " (fixed point)" : "", c.x, c.y, c.z, solver.memoryBytes() / 1048576.0,
                double(solver.memoryBytes()) / double(solver.domain().cellCount()));
    if (!quiet)
        std::printf("%6s %8s %10s %10s %10s %12s\n", "frame", "substeps", "ms/frame", "ms/step",
                    "pressure", "residual");
    std::vector<double> stepMs;
    for (int f = 1; f <= frames; ++f) {
        const plume::sim::FrameStats stats = simulation.advance(f);
        if (!stats.status) {
            std::fprintf(stderr, "plume-cli: %s\n", stats.status.error.c_str());
            return kExitFailure;
        }
        const double perStep = stats.milliseconds / std::max(1, stats.substeps);
        stepMs.push_back(perStep);
        if (!quiet) {
            const std::string note = plume::sim::pressureTrouble(stats);
            std::printf("%6d %8d %10.2f %10.2f %10d %12.3g%s%s%s", stats.frame, stats.substeps,
                        stats.milliseconds, perStep, stats.pressureIterations,
                        stats.pressureResidual, note.empty() ? "" : " (", note.c_str(),
                        note.empty() ? "" : ")");
            if (const plume::sim::ParticleSet *particles = solver.particles())
                std::printf(" %zu particles", particles->size());
            std::printf("\n");
        }
        std::fflush(stdout);
    }
    std::sort(stepMs.begin(), stepMs.end());
    std::printf("median %.2f ms per step over %d frames\n", stepMs[stepMs.size() / 2], frames);
    return kExitOk;
}

/// Parses the options common to the scene commands; returns an exit code when done already.
std::optional<int> parseCommand(QCommandLineParser &parser, const QStringList &arguments,
                                const QString &command, const QString &description)
{
    parser.setApplicationDescription(description);
    parser.addHelpOption();
    parser.addPositionalArgument(command, "The command.");
    parser.addPositionalArgument("scene", "The scene file (.plume).");
    if (!parser.parse(arguments))
        return usageError(parser.errorText());
    if (parser.isSet("help")) {
        std::fputs(qPrintable(parser.helpText()), stdout);
        return kExitOk;
    }
    if (parser.positionalArguments().size() != 2)
        return usageError(command + " takes exactly one scene file");
    return std::nullopt;
}

/// Reads a scene, printing warnings; prints the error and returns nullopt when it is refused.
std::optional<plume::Scene> loadScene(const QString &path, bool quiet)
{
    plume::SceneReadResult r = plume::readSceneFile(path);
    if (!r.ok) {
        std::fprintf(stderr, "plume-cli: %s\n", r.error.c_str());
        return std::nullopt;
    }
    if (!quiet) {
        for (const std::string &w : r.warnings)
            std::fprintf(stderr, "plume-cli: warning: %s\n", w.c_str());
    }
    if (plume::sim::Status st = plume::checkScene(r.scene); !st) {
        std::fprintf(stderr, "plume-cli: %s: %s\n", qPrintable(path), st.error.c_str());
        return std::nullopt;
    }
    return std::move(r.scene);
}

// plume-cli validate SCENE: reads and checks a scene; exit 0 when valid, 2 when not.
int validate(const QStringList &arguments)
{
    QCommandLineParser parser;
    const QCommandLineOption quietOpt("quiet", "Print nothing on success, and no warnings.");
    parser.addOption(quietOpt);
    if (auto done = parseCommand(parser, arguments, "validate",
                                 "Reads a scene file and checks every value, shape and "
                                 "referenced image. Exit code 0: valid; 2: refused."))
        return *done;
    const QString path = parser.positionalArguments()[1];
    std::optional<plume::Scene> scene = loadScene(path, parser.isSet(quietOpt));
    if (!scene)
        return kExitUsage;
    if (!parser.isSet(quietOpt))
        std::printf("%s: valid\n", qPrintable(path));
    return kExitOk;
}

// plume-cli info SCENE: what a scene holds and what it will cost.
/// The sph scheme's particles: what the fill emitters make at their start and the hoses pour
/// per second, each from its coverage at its first active frame (docs/sph.md).
void printParticleEstimate(const plume::Scene &scene, const plume::sim::Domain &domain)
{
    const plume::SimulationSettings &s = scene.simulation;
    const plume::sim::SphSettings &l = s.params.sph;
    const float spacing = l.spacing * domain.cellSize;
    double filled = 0.0, perSecond = 0.0;
    for (const plume::Item &item : scene.items) {
        if (item.kind != plume::ItemKind::Emitter || !item.enabled
            || item.emitter.liquid == plume::sim::LiquidMode::None)
            continue;
        plume::Scene alone = scene;
        alone.items = {item};
        const double frame = std::max(item.activeStart, double(s.frameStart));
        plume::SceneSetup setup;
        if (!plume::rasterizeScene(alone, frame, setup) || setup.emitters.empty())
            continue;
        const double sites = double(
            plume::sim::sphLatticeSites(domain, spacing, setup.emitters.front().mask).size());
        if (item.emitter.liquid == plume::sim::LiquidMode::Fill)
            filled += sites;
        else
            perSecond += sites * item.emitter.rate.at(frame);
    }
    const double seconds = double(s.frameEnd - s.frameStart + 1) / s.time.frameRate;
    const double most = std::min(double(l.maxParticles), filled + perSecond * seconds);
    std::printf("particles:  %.0f filled, %.0f poured per second: up to %.0f by frame %d "
                "(spacing %g, %s; at most %d)\n",
                filled, perSecond, most, s.frameEnd, spacing,
                plume::sim::formatBytes(
                    std::uint64_t(most * plume::sim::SphSolver::kBytesPerParticle))
                    .c_str(),
                l.maxParticles);
}

int info(const QStringList &arguments)
{
    QCommandLineParser parser;
    if (auto done = parseCommand(parser, arguments, "info",
                                 "Prints a scene's dimension, domain, cells, time settings, "
                                 "items and a memory estimate (for the adaptive domain, from a "
                                 "preview at 64 cells over the scene's frames)."))
        return *done;
    const QString path = parser.positionalArguments()[1];
    std::optional<plume::Scene> scene = loadScene(path, false);
    if (!scene)
        return kExitUsage;
    const plume::DomainSettings &d = scene->domain;
    const plume::sim::Domain domain = plume::makeDomain(d);
    const plume::SimulationSettings &s = scene->simulation;
    std::printf("scene:      %s\n", scene->name.c_str());
    std::printf("dimension:  %s\n", plume::toString(d.dimension));
    std::printf("domain:     %g x %g x %g world units at (%g, %g, %g)\n", d.size.x, d.size.y,
                d.dimension == plume::Dimension::TwoD ? 0.0 : double(d.size.z), d.origin.x,
                d.origin.y, d.origin.z);
    std::printf("cells:      %d x %d x %d = %lld (cell size %g)\n", domain.cells.x, domain.cells.y,
                domain.cells.z, static_cast<long long>(domain.cellCount()), domain.cellSize);
    std::printf("boundaries: x %s/%s, y %s/%s, z %s/%s\n",
                plume::sim::toString(domain.boundaries[0]),
                plume::sim::toString(domain.boundaries[1]),
                plume::sim::toString(domain.boundaries[2]),
                plume::sim::toString(domain.boundaries[3]),
                plume::sim::toString(domain.boundaries[4]),
                plume::sim::toString(domain.boundaries[5]));
    std::printf("scheme:     %s\n", plume::sim::toString(s.params.scheme));
    if (s.params.scheme == plume::sim::Scheme::Ocean) {
        const plume::sim::OceanSettings &o = s.params.ocean;
        const plume::sim::Vec3 patch = domain.extent();
        std::printf("ocean:      %g x %g m patch, wind %g m/s towards %g degrees, amplitude %g, "
                    "small waves %g m, choppiness %g, seed %u, gravity %g m/s^2\n",
                    patch.x, patch.y, o.windSpeed, o.windDirection, o.amplitude, o.smallWaves,
                    o.choppiness, o.seed, o.gravity);
        const double frames = double(o.loopPeriod) * s.time.frameRate;
        std::printf("loop:       every %g s = %g frames%s\n", o.loopPeriod, frames,
                    frames == std::floor(frames) ? ""
                                                 : " (not a whole number: the loop falls "
                                                   "between frames)");
    }
    std::printf("frames:     %d to %d at %g fps, ", s.frameStart, s.frameEnd, s.time.frameRate);
    if (s.time.cfl > 0.f)
        std::printf("substeps from CFL %g (at most %d)\n", s.time.cfl, s.time.maxSubsteps);
    else
        std::printf("%d substep%s per frame\n", s.time.substeps, s.time.substeps == 1 ? "" : "s");
    const plume::sim::AvailableMemory available = plume::sim::availableMemory();
    const std::string have = available.bytes > 0 ? plume::sim::formatBytes(available.bytes)
                                                 : "unknown";
    const std::string dense = plume::sim::formatBytes(
        plume::sim::solverMemoryBytes(domain, s.params.scheme));
    if (plume::sim::usesAdaptiveDomain(s.params)) {
        // The box's size depends on where the smoke goes: a coarse preview finds out.
        plume::AdaptivePreview preview;
        if (const plume::sim::Status st = plume::previewAdaptive(*scene, preview); !st) {
            std::fprintf(stderr, "plume-cli: %s: the adaptive preview failed: %s\n",
                         qPrintable(path), st.error.c_str());
            return kExitFailure;
        }
        // Like for like: the dense solver's grids and a bake's samples over the whole domain.
        const std::string whole = plume::sim::formatBytes(
            plume::sim::solverMemoryBytes(domain, s.params.scheme)
            + std::uint64_t(domain.cellCount()) * plume::AdaptivePreview::kExportedFields
                  * sizeof(float));
        std::printf("memory:     about %s to bake with the adaptive domain (%s available); the "
                    "whole domain in the box would need %s\n",
                    plume::sim::formatBytes(preview.bytes).c_str(), have.c_str(), whole.c_str());
        const int frames = s.frameEnd - s.frameStart + 1;
        std::printf("adaptive:   on: the solve follows the smoke in a box (docs/adaptive.md); a "
                    "preview at %d cells over %s%d frames puts its peak at %.1f %% of the domain "
                    "(frame %d)%s\n",
                    preview.resolution, preview.frames < frames ? "the first " : "", preview.frames,
                    100.0 * preview.peakShare, preview.peakFrame,
                    preview.frames < frames ? "; the box may grow after them" : "");
    } else {
        std::printf("memory:     about %s for the %s scheme (%s available)\n", dense.c_str(),
                    plume::sim::toString(s.params.scheme), have.c_str());
    }
    if (s.params.scheme == plume::sim::Scheme::Sph)
        printParticleEstimate(*scene, domain);
    std::printf("items:      %zu\n", scene->items.size());
    for (const plume::Item &item : scene->items) {
        std::printf("  %-8s %-10s %s%s\n", plume::toString(item.kind),
                    plume::toString(item.shape.type), item.name.c_str(),
                    item.enabled ? "" : " (disabled)");
    }
    return kExitOk;
}

std::atomic<bool> gInterrupted{false};

extern "C" void onInterrupt(int) { gInterrupted = true; }

/// The bake's progress line on stderr: frame, percent, time per frame and ETA.
class ProgressLine : public plume::BakeObserver
{
public:
    explicit ProgressLine(bool show)
        : mShow(show)
    {}

    void frameWritten(int frame, int done, int total, double milliseconds) override
    {
        mTotalMs += milliseconds;
        if (!mShow)
            return;
        const double perFrame = mTotalMs / done / 1000.0;
        const int eta = int(perFrame * (total - done) + 0.5);
        std::fprintf(stderr, "\rframe %d  %d/%d  %3d%%  %.2f s/frame  ETA %d:%02d", frame, done,
                     total, int(100.0 * done / total), perFrame, eta / 60, eta % 60);
        if (mBoxShare >= 0.0) // the adaptive domain: how much of the domain the solve covers
            std::fprintf(stderr, "  box %.1f %%", 100.0 * mBoxShare);
        std::fputs("   ", stderr);
        if (done == total)
            std::fputc('\n', stderr);
        std::fflush(stderr);
    }

    void adaptiveBox(int, double share) override { mBoxShare = share; }

    void pressureTrouble(int frame, const std::string &note) override
    {
        std::fprintf(stderr, "%sframe %d: pressure solve: %s\n", mShow ? "\n" : "", frame,
                     note.c_str());
    }

    bool cancelRequested() override { return gInterrupted.load(); }

    double totalMs() const { return mTotalMs; }

private:
    bool mShow;
    double mTotalMs = 0.0;
    double mBoxShare = -1.0; ///< the adaptive box's share of the domain; < 0 without one
};

/// Parses "A:B" (inclusive) or "A".
bool parseFrames(const QString &text, int &first, int &last)
{
    const QStringList parts = text.split(':');
    if (parts.size() > 2)
        return false;
    bool ok1 = false, ok2 = true;
    first = parts[0].toInt(&ok1);
    last = parts.size() == 2 ? parts[1].toInt(&ok2) : first;
    return ok1 && ok2;
}

/// Parses "AxB" (e.g. 8x8 or 256x256) into two integers within their ranges.
bool parsePair(const QString &text, const plume::sim::Param &pa, int &a,
               const plume::sim::Param &pb, int &b)
{
    const QStringList parts = text.toLower().split('x');
    return parts.size() == 2 && parseParam(parts[0], pa, a) && parseParam(parts[1], pb, b);
}

/// The export options of bake; each one overrides the scene's preset.
struct ExportOptions
{
    QCommandLineOption flipbook{"flipbook",
                                "Write a flipbook atlas of ROWSxCOLUMNS frames, its motion-vector "
                                "atlas and a JSON sidecar (docs/flipbook.md).",
                                "RxC"};
    QCommandLineOption images{"images", "Write an image sequence: one PNG per frame."};
    QCommandLineOption size{"size", "Frame size in pixels.", "WxH"};
    QCommandLineOption step{"step", "Frames between flipbook tiles and images (flipbook 0: fit).",
                            "N"};
    QCommandLineOption padding{"padding", "Flipbook gutter pixels per frame side.", "N"};
    QCommandLineOption alpha{"alpha", "straight or premultiplied.", "mode"};
    QCommandLineOption depth{"depth", "Bits per PNG channel: 8 or 16.", "bits"};
    QCommandLineOption emission{"emission", "none, combined or separate.", "mode"};
    QCommandLineOption noMotion{"no-motion", "No motion-vector atlas."};
    QCommandLineOption motionRange{"motion-range",
                                   "Pixels per frame at motion RG 0 or 1 (default: largest).",
                                   "px"};
    QCommandLineOption loop{"loop", "Crossfade N frames into the start for a seamless loop.", "N"};
    QCommandLineOption camera{"camera", "3D camera yaw and pitch in degrees (0,0 = front).",
                              "yaw,pitch"};
    QCommandLineOption perspective{"perspective",
                                   "3D perspective camera with this vertical "
                                   "field of view (default orthographic).",
                                   "degrees"};
    QCommandLineOption look{"look",
                            "Look: dye, field or texture (2D; texture is the scene's liquid "
                            "texture, docs/liquid-textures.md), volume (3D smoke, the default) or "
                            "surface (2D and 3D: the lit liquid surface, or for grid smoke the "
                            "level surface at --level-surface ISO; docs/surfaces.md).",
                            "name"};
    QCommandLineOption field{"field", "2D field for --look field (density, speed, ...).", "name"};
    // Passes (docs/flipbook.md), for the flipbook and the images alike.
    QCommandLineOption lighting{"lighting",
                                "standard, or six-way: also the two six-way lightmap textures "
                                "(Unity's Six Way layout).",
                                "mode"};
    QCommandLineOption normals{"normals", "Also a normal map (see --normal-convention)."};
    QCommandLineOption normalConvention{"normal-convention",
                                        "opengl (green up, default) or directx (green down).",
                                        "name"};
    QCommandLineOption depthMap{"depth-map", "Also a depth map (3D only)."};
    QCommandLineOption alphaMap{"alpha-map", "Also the alpha alone, one channel."};
    QCommandLineOption format{"format", "png (default) or exr (OpenEXR, linear, HDR; see --exr).",
                              "name"};
    QCommandLineOption exr{"exr", "EXR channels: half (default) or float.", "precision"};
    QCommandLineOption pack{"pack",
                            "Packing preset: separate, unity-six-way, unreal-subuv, godot or "
                            "custom (see --pack-channels).",
                            "preset"};
    QCommandLineOption packChannels{"pack-channels",
                                    "custom packing: four channel names R,G,B,A, e.g. "
                                    "normal.x,normal.y,depth,alpha (docs/flipbook.md).",
                                    "r,g,b,a"};

    QList<QCommandLineOption> all() const
    {
        return {flipbook,    images,   size,     step,        padding, alpha,
                depth,       emission, noMotion, motionRange, loop,    camera,
                perspective, look,     field,    lighting,    normals, normalConvention,
                depthMap,    alphaMap, format,   exr,         pack,    packChannels};
    }
};

/// Applies the pass options to both presets; returns an error message or empty.
QString applyPassOptions(const QCommandLineParser &p, const ExportOptions &o,
                         plume::ExportPresets &e)
{
    plume::PassSettings &f = e.flipbook.passes;
    auto bad = [&p](const QCommandLineOption &opt, const std::string &expected) {
        return "--" + opt.names()[0] + " must be " + QString::fromStdString(expected) + ", got '"
               + p.value(opt) + "'";
    };
    if (p.isSet(o.lighting) && !parseName(p.value(o.lighting), plume::kLightingNames, f.lighting))
        return bad(o.lighting, plume::kLightingNames.expected());
    if (p.isSet(o.normals))
        f.normals = true;
    if (p.isSet(o.normalConvention)
        && !parseName(p.value(o.normalConvention), plume::kNormalConventionNames,
                      f.normalConvention))
        return bad(o.normalConvention, plume::kNormalConventionNames.expected());
    if (p.isSet(o.depthMap))
        f.depth = true;
    if (p.isSet(o.alphaMap))
        f.alpha = true;
    if (p.isSet(o.format) && !parseName(p.value(o.format), plume::kImageFormatNames, f.format))
        return bad(o.format, plume::kImageFormatNames.expected());
    if (p.isSet(o.exr) && !parseName(p.value(o.exr), plume::kExrPrecisionNames, f.exrPrecision))
        return bad(o.exr, plume::kExrPrecisionNames.expected());
    if (p.isSet(o.pack) && !parseName(p.value(o.pack), plume::kPackPresetNames, f.pack))
        return bad(o.pack, plume::kPackPresetNames.expected());
    if (p.isSet(o.packChannels)) {
        const QStringList names = p.value(o.packChannels).split(',');
        if (names.size() != 4)
            return bad(o.packChannels, "four channel names separated by commas");
        for (int c = 0; c < 4; ++c) {
            if (!parseName(names[c].trimmed(), plume::kPassChannelNames,
                           f.packChannels[std::size_t(c)]))
                return bad(o.packChannels,
                           "four of " + std::string(plume::kPassChannelNames.expected()));
        }
        f.pack = plume::PackPreset::Custom;
    }
    // The options set both presets; what a scene preset had and no option names stays.
    plume::PassSettings &im = e.images.passes;
    auto copy = [&](const QCommandLineOption &opt, auto member) {
        if (p.isSet(opt))
            im.*member = f.*member;
    };
    copy(o.lighting, &plume::PassSettings::lighting);
    copy(o.normals, &plume::PassSettings::normals);
    copy(o.normalConvention, &plume::PassSettings::normalConvention);
    copy(o.depthMap, &plume::PassSettings::depth);
    copy(o.alphaMap, &plume::PassSettings::alpha);
    copy(o.format, &plume::PassSettings::format);
    copy(o.exr, &plume::PassSettings::exrPrecision);
    copy(o.pack, &plume::PassSettings::pack);
    copy(o.packChannels, &plume::PassSettings::pack);
    copy(o.packChannels, &plume::PassSettings::packChannels);
    return {};
}

/// Applies the export options to the scene's presets; returns an error message or empty.
QString applyExportOptions(const QCommandLineParser &p, const ExportOptions &o,
                           plume::ExportPresets &e)
{
    namespace fp = plume::flipbookParams;
    namespace rp = plume::renderParams;
    plume::FlipbookSettings &f = e.flipbook;
    plume::ImageSequenceSettings &im = e.images;
    plume::RenderSettings &r = e.render;
    auto bad = [&p](const QCommandLineOption &opt, const std::string &expected) {
        return "--" + opt.names()[0] + " must be " + QString::fromStdString(expected) + ", got '"
               + p.value(opt) + "'";
    };
    if (p.isSet(o.flipbook)) {
        if (!parsePair(p.value(o.flipbook), fp::rows, f.rows, fp::columns, f.columns))
            return bad(o.flipbook, "ROWSxCOLUMNS, each " + fp::rows.describe());
        f.enabled = true;
    }
    if (p.isSet(o.images))
        im.enabled = true;
    if (p.isSet(o.size) && !parsePair(p.value(o.size), rp::width, r.width, rp::height, r.height))
        return bad(o.size, "WIDTHxHEIGHT, each " + rp::width.describe());
    if (p.isSet(o.step)) {
        // One step for both: the flipbook's 0 (fit the tiles) is 1 for images.
        if (!parseParam(p.value(o.step), fp::step, f.step))
            return bad(o.step, fp::step.describe());
        im.step = std::max(f.step, int(plume::imageParams::step.min));
    }
    if (p.isSet(o.padding) && !parseParam(p.value(o.padding), fp::padding, f.padding))
        return bad(o.padding, fp::padding.describe());
    if (p.isSet(o.alpha)) {
        if (!parseName(p.value(o.alpha), plume::kAlphaModeNames, f.alpha))
            return bad(o.alpha, plume::kAlphaModeNames.expected());
        im.alpha = f.alpha;
    }
    if (p.isSet(o.depth)) {
        bool ok = false;
        const int bits = p.value(o.depth).toInt(&ok);
        if (!ok || !plume::validBitDepth(bits))
            return bad(o.depth, "8 or 16");
        f.bitDepth = im.bitDepth = bits;
    }
    if (p.isSet(o.emission)) {
        if (!parseName(p.value(o.emission), plume::kEmissionOutputNames, f.emission))
            return bad(o.emission, plume::kEmissionOutputNames.expected());
        im.emission = f.emission;
    }
    if (p.isSet(o.noMotion))
        f.motionVectors = false;
    if (p.isSet(o.motionRange)
        && !parseParam(p.value(o.motionRange), fp::motionRange, f.motionRange))
        return bad(o.motionRange, fp::motionRange.describe() + " (0: the largest motion)");
    if (p.isSet(o.loop) && !parseParam(p.value(o.loop), fp::loopFrames, f.loopFrames))
        return bad(o.loop, fp::loopFrames.describe());
    if (p.isSet(o.camera)) {
        const QStringList parts = p.value(o.camera).split(',');
        if (parts.size() != 2 || !parseParam(parts[0], rp::yaw, r.yaw)
            || !parseParam(parts[1], rp::pitch, r.pitch))
            return bad(o.camera, "YAW,PITCH with pitch " + rp::pitch.describe());
    }
    if (p.isSet(o.perspective)) {
        r.projection = plume::Projection::Perspective;
        if (!parseParam(p.value(o.perspective), rp::fov, r.fov))
            return bad(o.perspective, rp::fov.describe("angle"));
    }
    if (p.isSet(o.look)) {
        // surface is both a 2D and a 3D look; volume is the 3D default.
        const QString look = p.value(o.look);
        if (look == "volume") {
            r.look3D = plume::Look3D::Volume;
        } else if (!parseName(look, plume::kLook2DNames, r.look2D)) {
            return bad(o.look, plume::kLook2DNames.expected() + " (or volume in 3D)");
        } else if (r.look2D == plume::Look2D::Surface) {
            r.look3D = plume::Look3D::Surface;
        }
    }
    if (p.isSet(o.field)) {
        if (!parseName(p.value(o.field), plume::sim::kFieldKindNames, r.field))
            return bad(o.field, plume::sim::kFieldKindNames.expected());
        r.look2D = plume::Look2D::Field;
    }
    if (const QString error = applyPassOptions(p, o, e); !error.isEmpty())
        return error;
    if (plume::sim::Status st = plume::checkRenderSettings(r); !st)
        return QString::fromStdString(st.error);
    return {};
}

/// The OpenVDB options of bake (docs/using-exports.md).
struct VdbOptions
{
    QCommandLineOption up{"up",
                          "OpenVDB up axis: y (as simulated; Houdini, Maya, Unity) or z (rotated "
                          "for Blender and Unreal).",
                          "y|z"};
    QCommandLineOption half{"half", "Store the OpenVDB grids as 16-bit half floats."};
    QCommandLineOption velocityMask{"velocity-mask",
                                    "Where OpenVDB vel is stored: density (inside the smoke) or "
                                    "speed (wherever the air moves).",
                                    "mode"};

    QCommandLineOption levelSurface{
        "level-surface",
        "Grid smoke: also write `surface`, the level set where density = ISO (a level surface), "
        "into each VDB file; ISO is also --mesh's iso value (default 0.5). Liquid (particle) "
        "scenes always write their surface and points (docs/surfaces.md).",
        "ISO"};
    QCommandLineOption mesh{"mesh",
                            "Write DIR/<scene>.<frame>.obj: the liquid's surface, or for grid "
                            "smoke the density's level surface at --level-surface ISO (default "
                            "0.5); world units, axes as --up; add --vdb for the VDB files too "
                            "(docs/surfaces.md)."};

    QList<QCommandLineOption> all() const { return {up, half, velocityMask, levelSurface, mesh}; }
};

/// Applies the OpenVDB options to the scene's preset; returns an error message or empty.
QString applyVdbOptions(const QCommandLineParser &p, const VdbOptions &o, plume::VdbSettings &v)
{
    if (p.isSet(o.up) && !parseName(p.value(o.up), plume::kUpAxisNames, v.up))
        return "--up must be " + QString::fromStdString(plume::kUpAxisNames.expected()) + ", got '"
               + p.value(o.up) + "'";
    if (p.isSet(o.half))
        v.halfFloat = true;
    if (p.isSet(o.velocityMask)
        && !parseName(p.value(o.velocityMask), plume::kVelocityMaskNames, v.velocityMask))
        return "--velocity-mask must be "
               + QString::fromStdString(plume::kVelocityMaskNames.expected()) + ", got '"
               + p.value(o.velocityMask) + "'";
    return {};
}

/// Applies --level-surface and --mesh to the bake; returns an error message or empty.
QString applySurfaceOptions(const QCommandLineParser &p, const VdbOptions &o,
                            plume::BakeSettings &settings)
{
    if (p.isSet(o.levelSurface)) {
        bool ok = false;
        const double iso = p.value(o.levelSurface).toDouble(&ok);
        if (!ok || !std::isfinite(iso))
            return "--level-surface must be a number (the density's iso value), got '"
                   + p.value(o.levelSurface) + "'";
        settings.levelSurface = true;
        settings.levelSurfaceIso = float(iso);
        settings.render.surfaceIso = float(iso);
    } else {
        settings.levelSurfaceIso = settings.render.surfaceIso; // the scene's preset
    }
    settings.mesh = p.isSet(o.mesh);
    return {};
}

// plume-cli bake of an ocean scene: the maps (oceanbake.h) instead of VDB files or renders.
int bakeOcean(const QCommandLineParser &parser, const plume::Scene &scene, const QString &path,
              bool quiet, const QCommandLineOption &framesOpt, const QCommandLineOption &outOpt,
              const QCommandLineOption &mapsOpt, const QCommandLineOption &flipbookOpt,
              const QCommandLineOption &formatOpt, const QCommandLineOption &exrOpt,
              const std::vector<QCommandLineOption> &refused)
{
    for (const QCommandLineOption &o : refused) {
        if (parser.isSet(o))
            return usageError("--" + o.names().front()
                              + " does not apply to an ocean scene: it writes maps "
                                "(--ocean-maps, --ocean-flipbook)");
    }
    plume::OceanBakeSettings settings;
    if (parser.isSet(formatOpt)
        && !parseName(parser.value(formatOpt), plume::kImageFormatNames, settings.format))
        return usageError("--format must be "
                          + QString::fromStdString(plume::kImageFormatNames.expected()) + ", got '"
                          + parser.value(formatOpt) + "'");
    if (parser.isSet(exrOpt)
        && !parseName(parser.value(exrOpt), plume::kExrPrecisionNames, settings.exrPrecision))
        return usageError("--exr must be "
                          + QString::fromStdString(plume::kExrPrecisionNames.expected()) + ", got '"
                          + parser.value(exrOpt) + "'");
    settings.outputDirectory = parser.value(outOpt).toStdString();
    settings.baseName = QFileInfo(path).completeBaseName().toStdString();
    settings.plumeVersion = PLUME_VERSION;
    settings.firstFrame = scene.simulation.frameStart;
    settings.lastFrame = scene.simulation.frameEnd;
    if (parser.isSet(framesOpt)
        && !parseFrames(parser.value(framesOpt), settings.firstFrame, settings.lastFrame))
        return usageError("--frames must be A:B or A, got '" + parser.value(framesOpt) + "'");
    if (plume::sim::Status st = plume::checkFrameRange(scene, settings.firstFrame,
                                                       settings.lastFrame);
        !st)
        return usageError("--frames: " + QString::fromStdString(st.error));
    if (parser.isSet(mapsOpt)) {
        settings.maps.clear();
        for (const QString &name : parser.value(mapsOpt).split(',')) {
            plume::OceanMap map{};
            if (!parseName(name.trimmed(), plume::kOceanMapNames, map))
                return usageError("--ocean-maps: expected "
                                  + QString::fromStdString(plume::kOceanMapNames.expected())
                                  + ", got '" + name + "'");
            if (std::find(settings.maps.begin(), settings.maps.end(), map) == settings.maps.end())
                settings.maps.push_back(map);
        }
    }
    if (parser.isSet(flipbookOpt)) {
        bool ok = false;
        settings.columns = parser.value(flipbookOpt).toInt(&ok);
        if (!ok || settings.columns < 0 || settings.columns > 256)
            return usageError("--ocean-flipbook: expected columns from 0 to 256, got '"
                              + parser.value(flipbookOpt) + "'");
        settings.flipbook = true;
    }
    std::signal(SIGINT, onInterrupt);
    std::signal(SIGTERM, onInterrupt);
    ProgressLine progress(!quiet && isatty(STDERR_FILENO));
    const plume::BakeResult result = plume::bakeOceanMaps(scene, settings, &progress);
    if (!result.status) {
        std::fprintf(stderr, "\nplume-cli: %s: %s\n", qPrintable(path),
                     result.status.error.c_str());
        return kExitFailure;
    }
    if (!quiet)
        std::printf("wrote %zu file%s to %s in %.1f s\n", result.files.size(),
                    result.files.size() == 1 ? "" : "s", settings.outputDirectory.c_str(),
                    progress.totalMs() / 1000.0);
    return kExitOk;
}

// plume-cli bake SCENE -o DIR: simulates and writes one OpenVDB file per frame.
int bake(const QStringList &arguments)
{
    QCommandLineParser parser;
    const QCommandLineOption outOpt({"o", "output"}, "Output folder (created when missing).",
                                    "dir");
    const QCommandLineOption framesOpt("frames",
                                       "Frames to write, inclusive (default: the scene's range).",
                                       "A:B");
    const QCommandLineOption threadsOpt("threads", "Worker threads (default: all cores).", "N");
    const QCommandLineOption vdbOpt("vdb", "Write OpenVDB files (the default output when no "
                                           "flipbook or images are asked for or preset).");
    const VdbOptions vdbOpts;
    const ExportOptions exportOpts;
    const QCommandLineOption flowMapOpt(
        "flow-map", "2D: also write DIR/<scene>_flowmap.png and .json, the velocity averaged over "
                    "the frames as RG = 0.5 + 0.5 v / vmax, B = speed / vmax "
                    "(docs/liquid-textures.md). Not with --resume.");
    const QCommandLineOption quietOpt("quiet", "Print nothing but errors.");
    const QCommandLineOption progressOpt("progress",
                                         "Show the progress line even when stderr is not a "
                                         "terminal.");
    const QCommandLineOption resumeOpt(
        "resume", "Continue an interrupted bake into the same folder from its last checkpoint; "
                  "the scene and options must be the same (docs/checkpoints.md).");
    const QCommandLineOption checkpointOpt(
        "checkpoint-every",
        "Checkpoint the simulation every N frames so that --resume can continue (0: no resume "
        "record; default "
            + QString::number(kDefaultCheckpointEvery) + ").",
        "N", QString::number(kDefaultCheckpointEvery));
    const QCommandLineOption oceanMapsOpt(
        "ocean-maps",
        "Ocean scenes: the maps to write, comma-separated: height, normal, foam (default all).",
        "list");
    const QCommandLineOption oceanFlipbookOpt(
        "ocean-flipbook",
        "Ocean scenes: one atlas per map with C columns (0: square) instead of "
        "an image per frame.",
        "C");
    parser.addOptions({outOpt, framesOpt, threadsOpt, vdbOpt, flowMapOpt, quietOpt, progressOpt,
                       resumeOpt, checkpointOpt});
    parser.addOptions(vdbOpts.all());
    parser.addOptions(exportOpts.all());
    parser.addOptions({oceanMapsOpt, oceanFlipbookOpt});
    if (auto done = parseCommand(
            parser, arguments, "bake",
            "Simulates a scene and writes DIR/<scene>.<frame>.vdb for each frame, with grids "
            "density, temperature, vel, (with dye) Cd and (with fuel) flame and fuel, (liquid "
            "scenes) the level set surface and the points grid points, Y-up "
            "(--up z for Blender and Unreal, docs/using-exports.md); with "
            "--flipbook or --images (or the scene's export presets) a flipbook atlas "
            "<scene>_flipbook.png with motion vectors and a JSON sidecar, or <scene>.<frame>.png "
            "images; --lighting six-way, --normals, --depth-map and --alpha-map add passes, "
            "--pack packs them for an engine and --format exr writes OpenEXR "
            "(docs/flipbook.md, docs/using-exports.md). Each file appears complete or not at all. "
            "While it runs, DIR/.plume-bake "
            "holds a resume record: after a crash, a kill or a full disk, the same command with "
            "--resume continues, and the folder ends byte-identical to an uninterrupted bake. "
            "Exit codes: 0 done; 1 failed or interrupted while running (finished frames stay, "
            "resumable); 2 bad usage or scene, or --resume refused (nothing to resume, or the "
            "scene or options differ); 3 the grid does not fit in memory. Scenes of the ocean "
            "scheme write 16-bit PNG (or with --format exr, OpenEXR) maps instead: "
            "<scene>_height.<frame>.png, _normal and _foam "
            "(--ocean-maps), or atlases (--ocean-flipbook), and <scene>_ocean.json with the "
            "height range; they tile and, over one loop period, loop (docs/ocean.md)."))
        return *done;
    if (!parser.isSet(outOpt))
        return usageError("bake needs an output folder: -o DIR");
    std::optional<oneapi::tbb::global_control> threadLimit;
    if (parser.isSet(threadsOpt)) {
        int threads = 0;
        if (!parsePositiveInt(parser.value(threadsOpt), threads))
            return usageError("--threads must be a positive integer, got '"
                              + parser.value(threadsOpt) + "'");
        threadLimit.emplace(oneapi::tbb::global_control::max_allowed_parallelism,
                            std::size_t(threads));
    }
    bool everyOk = false;
    const int checkpointEvery = parser.value(checkpointOpt).toInt(&everyOk);
    if (!everyOk || checkpointEvery < 0)
        return usageError("--checkpoint-every must be 0 or a positive integer, got '"
                          + parser.value(checkpointOpt) + "'");
    const bool quiet = parser.isSet(quietOpt);
    const QString path = parser.positionalArguments()[1];
    std::optional<plume::Scene> scene = loadScene(path, quiet);
    if (!scene)
        return kExitUsage;

    if (scene->simulation.params.scheme == plume::sim::Scheme::Ocean)
        return bakeOcean(parser, *scene, path, quiet, framesOpt, outOpt, oceanMapsOpt,
                         oceanFlipbookOpt, exportOpts.format, exportOpts.exr,
                         {vdbOpt, resumeOpt, exportOpts.flipbook, exportOpts.images, flowMapOpt,
                          vdbOpts.up, vdbOpts.half, vdbOpts.velocityMask, vdbOpts.levelSurface,
                          vdbOpts.mesh, exportOpts.lighting, exportOpts.normals,
                          exportOpts.depthMap, exportOpts.alphaMap, exportOpts.pack});
    if (parser.isSet(oceanMapsOpt) || parser.isSet(oceanFlipbookOpt))
        return usageError("--ocean-maps and --ocean-flipbook are for scenes of the ocean scheme; "
                          "this one is "
                          + QString(plume::sim::toString(scene->simulation.params.scheme)));

    plume::BakeSettings settings;
    settings.outputDirectory = parser.value(outOpt).toStdString();
    settings.baseName = QFileInfo(path).completeBaseName().toStdString();
    settings.plumeVersion = PLUME_VERSION;
    settings.checkpointEvery = checkpointEvery;
    settings.resume = parser.isSet(resumeOpt);
    settings.firstFrame = scene->simulation.frameStart;
    settings.lastFrame = scene->simulation.frameEnd;
    if (parser.isSet(framesOpt)
        && !parseFrames(parser.value(framesOpt), settings.firstFrame, settings.lastFrame))
        return usageError("--frames must be A:B or A, got '" + parser.value(framesOpt) + "'");
    plume::ExportPresets presets = scene->exports;
    if (parser.isSet(framesOpt)) {
        presets.flipbook.first = presets.flipbook.last = plume::kBakeRange;
        presets.images.first = presets.images.last = plume::kBakeRange;
    }
    if (const QString error = applyExportOptions(parser, exportOpts, presets); !error.isEmpty())
        return usageError(error);
    if (const QString error = applyVdbOptions(parser, vdbOpts, presets.openvdb); !error.isEmpty())
        return usageError(error);
    settings.render = presets.render;
    settings.flipbook = presets.flipbook;
    settings.images = presets.images;
    settings.openvdb = presets.openvdb;
    settings.flowMap = parser.isSet(flowMapOpt);
    if (const QString error = applySurfaceOptions(parser, vdbOpts, settings); !error.isEmpty())
        return usageError(error);
    settings.vdb = parser.isSet(vdbOpt)
                   || (!presets.flipbook.enabled && !presets.images.enabled && !settings.flowMap
                       && !settings.mesh);
    if (plume::sim::Status st = plume::checkFrameRange(*scene, settings.firstFrame,
                                                       settings.lastFrame);
        !st)
        return usageError("--frames: " + QString::fromStdString(st.error));

    std::signal(SIGINT, onInterrupt);
    std::signal(SIGTERM, onInterrupt);
    ProgressLine progress(!quiet && (parser.isSet(progressOpt) || isatty(STDERR_FILENO)));
    const plume::BakeResult result = plume::bakeScene(*scene, settings, &progress);
    if (!result.status) {
        std::fprintf(stderr, "\nplume-cli: %s: %s%s\n", qPrintable(path),
                     result.cancelled ? "interrupted; the files written so far are complete"
                                      : result.status.error.c_str(),
                     result.resumable
                         ? "\nplume-cli: the same command with --resume continues the bake"
                         : "");
        return result.refused || result.invalid ? kExitUsage
                                                : (result.outOfMemory ? kExitMemory : kExitFailure);
    }
    if (settings.resume && !quiet)
        std::printf("resumed after frame %d\n", result.resumedAfter);
    if (!quiet)
        std::printf("wrote %zu file%s to %s in %.1f s\n", result.files.size(),
                    result.files.size() == 1 ? "" : "s", settings.outputDirectory.c_str(),
                    progress.totalMs() / 1000.0);
    return kExitOk;
}

void printHelp()
{
    std::puts("Usage: plume-cli <command> [options]\n"
              "\n"
              "Commands:\n"
              "  validate   check a scene file\n"
              "  info       describe a scene: domain, cells, items, memory\n"
              "  bake       simulate a scene and write OpenVDB files, flipbooks or images\n"
              "  simulate   run a built-in scene headless and print per-frame timings\n"
              "\n"
              "'plume-cli <command> --help' describes a command's options.\n"
              "Exit codes: 0 success, 1 failure while running, 2 bad usage or invalid input\n"
              "(bake: also a refused --resume), 3 the grid does not fit in memory.");
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName("plume-cli");
    QCoreApplication::setApplicationVersion(PLUME_VERSION);
    const QStringList args = QCoreApplication::arguments();
    if (args.size() < 2 || args[1] == "--help" || args[1] == "-h" || args[1] == "help") {
        printHelp();
        return args.size() < 2 ? kExitUsage : kExitOk;
    }
    if (args[1] == "--version") {
        std::printf("plume-cli %s\n", PLUME_VERSION);
        return kExitOk;
    }
    if (args[1] == "simulate")
        return simulate(args);
    if (args[1] == "validate")
        return validate(args);
    if (args[1] == "info")
        return info(args);
    if (args[1] == "bake")
        return bake(args);
    return usageError("unknown command '" + args[1] + "'");
}
