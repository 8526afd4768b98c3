// plume-cli: the Plume core without a GUI. Exit codes: 0 success, 1 failure while running,
// 2 bad usage or invalid input.
#include <bake/baker.h>
#include <io/scenereader.h>
#include <scene/builtinscene.h>
#include <scene/rasterize.h>
#include <sim/simulation.h>

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>

#include <oneapi/tbb/global_control.h>

#include <algorithm>
#include <atomic>
#include <chrono>
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

// plume-cli simulate: runs a built-in scene headless and prints per-frame timings.
int simulate(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Runs a built-in scene without a window and prints, per frame, the wall time, the time "
        "per solver step, the pressure iterations and the final relative residual.");
    parser.addHelpOption();
    parser.addPositionalArgument("simulate", "The command.");
    const QCommandLineOption sceneOpt("scene", "Built-in scene (plume).", "name", "plume");
    const QCommandLineOption resOpt("resolution", "Cells along each axis.", "N", "128");
    const QCommandLineOption threeDOpt("3d", "Simulate in 3D (default 2D).");
    const QCommandLineOption schemeOpt("scheme", "Solver scheme: smoke or stam.", "name", "smoke");
    const QCommandLineOption framesOpt("frames", "Frames to simulate.", "N", "48");
    const QCommandLineOption threadsOpt("threads", "Worker threads (default: all cores).", "N");
    const QCommandLineOption quietOpt("quiet", "Print only the summary.");
    parser.addOptions({sceneOpt, resOpt, threeDOpt, schemeOpt, framesOpt, threadsOpt, quietOpt});
    if (!parser.parse(arguments))
        return usageError(parser.errorText());
    if (parser.isSet("help")) {
        std::fputs(qPrintable(parser.helpText()), stdout);
        return kExitOk;
    }

    plume::BuiltinOptions options;
    if (!parsePositiveInt(parser.value(resOpt), options.resolution))
        return usageError("--resolution must be a positive integer, got '"
                          + parser.value(resOpt) + "'");
    options.threeD = parser.isSet(threeDOpt);
    if (!plume::sim::schemeFromString(parser.value(schemeOpt).toStdString(), options.scheme))
        return usageError("--scheme must be 'smoke' or 'stam', got '" + parser.value(schemeOpt)
                          + "'");
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

    plume::SceneSetup scene;
    std::string error;
    if (!plume::makeBuiltinScene(parser.value(sceneOpt).toStdString(), options, scene, &error))
        return usageError(QString::fromStdString(error));
    std::unique_ptr<plume::sim::Simulation> simulation =
        plume::sim::Simulation::create(scene.domain, scene.params, scene.time, &error);
    if (!simulation)
        return usageError(QString::fromStdString(error));
    if (plume::sim::Status st = plume::applyScene(scene, *simulation); !st)
        return usageError(QString::fromStdString(st.error));

    const bool quiet = parser.isSet(quietOpt);
    const plume::sim::Int3 c = scene.domain.cells;
    std::printf("scene %s, %s scheme, %d x %d x %d cells, %.1f MiB (%.1f bytes/cell)\n",
                scene.name.c_str(), plume::sim::toString(scene.params.scheme), c.x, c.y, c.z,
                simulation->solver().memoryBytes() / 1048576.0,
                double(simulation->solver().memoryBytes()) / double(scene.domain.cellCount()));
    if (!quiet)
        std::printf("%6s %8s %10s %10s %10s %12s\n", "frame", "substeps", "ms/frame", "ms/step",
                    "pressure", "residual");
    std::vector<double> stepMs;
    for (int f = 0; f < frames; ++f) {
        const plume::sim::FrameStats stats = simulation->advanceFrame();
        if (!stats.status) {
            std::fprintf(stderr, "plume-cli: %s\n", stats.status.error.c_str());
            return kExitFailure;
        }
        const double perStep = stats.milliseconds / std::max(1, stats.substeps);
        stepMs.push_back(perStep);
        if (!quiet)
            std::printf("%6d %8d %10.2f %10.2f %10d %12.3g%s\n", stats.frame, stats.substeps,
                        stats.milliseconds, perStep, stats.pressureIterations,
                        stats.pressureResidual, stats.pressureConverged ? "" : " (not converged)");
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
int info(const QStringList &arguments)
{
    QCommandLineParser parser;
    if (auto done = parseCommand(parser, arguments, "info",
                                 "Prints a scene's dimension, domain, cells, time settings, "
                                 "items and a memory estimate."))
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
                d.dimension == plume::Dimension::TwoD ? 0.0 : double(d.size.z), d.origin.x, d.origin.y, d.origin.z);
    std::printf("cells:      %d x %d x %d = %lld (cell size %g)\n", domain.cells.x,
                domain.cells.y, domain.cells.z, static_cast<long long>(domain.cellCount()),
                domain.cellSize);
    std::printf("boundaries: x %s/%s, y %s/%s, z %s/%s\n",
                plume::sim::toString(domain.boundaries[0]), plume::sim::toString(domain.boundaries[1]),
                plume::sim::toString(domain.boundaries[2]), plume::sim::toString(domain.boundaries[3]),
                plume::sim::toString(domain.boundaries[4]), plume::sim::toString(domain.boundaries[5]));
    std::printf("scheme:     %s\n", plume::sim::toString(s.params.scheme));
    std::printf("frames:     %d to %d at %g fps, ", s.frameStart, s.frameEnd, s.time.frameRate);
    if (s.time.cfl > 0.f)
        std::printf("substeps from CFL %g (at most %d)\n", s.time.cfl, s.time.maxSubsteps);
    else
        std::printf("%d substep%s per frame\n", s.time.substeps, s.time.substeps == 1 ? "" : "s");
    std::printf("memory:     about %.1f MiB\n",
                double(plume::estimateMemoryBytes(d)) / (1024.0 * 1024.0));
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
    {
    }

    void frameWritten(int frame, int done, int total, double milliseconds) override
    {
        mTotalMs += milliseconds;
        if (!mShow)
            return;
        const double perFrame = mTotalMs / done / 1000.0;
        const int eta = int(perFrame * (total - done) + 0.5);
        std::fprintf(stderr, "\rframe %d  %d/%d  %3d%%  %.2f s/frame  ETA %d:%02d   ", frame,
                     done, total, int(100.0 * done / total), perFrame, eta / 60, eta % 60);
        if (done == total)
            std::fputc('\n', stderr);
        std::fflush(stderr);
    }

    bool cancelRequested() override { return gInterrupted.load(); }

    double totalMs() const { return mTotalMs; }

private:
    bool mShow;
    double mTotalMs = 0.0;
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
    const QCommandLineOption vdbOpt("vdb", "Write OpenVDB files (the default output).");
    const QCommandLineOption quietOpt("quiet", "Print nothing but errors.");
    const QCommandLineOption progressOpt("progress",
                                         "Show the progress line even when stderr is not a "
                                         "terminal.");
    parser.addOptions({outOpt, framesOpt, threadsOpt, vdbOpt, quietOpt, progressOpt});
    if (auto done = parseCommand(parser, arguments, "bake",
                                 "Simulates a scene and writes DIR/<scene>.<frame>.vdb for each "
                                 "frame, with grids density, temperature, vel and (with dye) Cd. "
                                 "Each file appears complete or not at all. Exit codes: 0 done; "
                                 "1 failed or interrupted while running; 2 bad usage or scene."))
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
    const bool quiet = parser.isSet(quietOpt);
    const QString path = parser.positionalArguments()[1];
    std::optional<plume::Scene> scene = loadScene(path, quiet);
    if (!scene)
        return kExitUsage;

    plume::BakeSettings settings;
    settings.outputDirectory = parser.value(outOpt).toStdString();
    settings.baseName = QFileInfo(path).completeBaseName().toStdString();
    settings.plumeVersion = PLUME_VERSION;
    settings.firstFrame = scene->simulation.frameStart;
    settings.lastFrame = scene->simulation.frameEnd;
    if (parser.isSet(framesOpt)
        && !parseFrames(parser.value(framesOpt), settings.firstFrame, settings.lastFrame))
        return usageError("--frames must be A:B or A, got '" + parser.value(framesOpt) + "'");
    if (plume::sim::Status st =
            plume::checkFrameRange(*scene, settings.firstFrame, settings.lastFrame);
        !st)
        return usageError("--frames: " + QString::fromStdString(st.error));

    std::signal(SIGINT, onInterrupt);
    std::signal(SIGTERM, onInterrupt);
    ProgressLine progress(!quiet && (parser.isSet(progressOpt) || isatty(STDERR_FILENO)));
    const plume::BakeResult result = plume::bakeScene(*scene, settings, &progress);
    if (!result.status) {
        std::fprintf(stderr, "\nplume-cli: %s: %s\n", qPrintable(path),
                     result.cancelled ? "interrupted; the files written so far are complete"
                                      : result.status.error.c_str());
        return kExitFailure;
    }
    if (!quiet)
        std::printf("wrote %zu frame%s to %s in %.1f s\n", result.files.size(),
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
              "  bake       simulate a scene and write OpenVDB files per frame\n"
              "  simulate   run a built-in scene headless and print per-frame timings\n"
              "\n"
              "'plume-cli <command> --help' describes a command's options.\n"
              "Exit codes: 0 success, 1 failure while running, 2 bad usage or invalid input.");
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
