// plume-cli: the Plume core without a GUI. Exit codes: 0 success, 1 failure while running,
// 2 bad usage or invalid input.
#include <scene/builtinscene.h>
#include <sim/simulation.h>

#include <QCommandLineParser>
#include <QCoreApplication>

#include <oneapi/tbb/global_control.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <vector>

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

void printHelp()
{
    std::puts("Usage: plume-cli <command> [options]\n"
              "\n"
              "Commands:\n"
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
    return usageError("unknown command '" + args[1] + "'");
}
