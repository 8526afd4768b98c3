// SPDX-License-Identifier: Apache-2.0
#include <app/plume-cli/commands.h>

#include <app/plume-cli/common.h>

#include <core/scene/builtinscene.h>
#include <core/scene/scenesimulation.h>
#include <core/sim/base/parallel.h>
#include <core/sim/run/simulation.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <vector>

namespace plume::cli {

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
    std::optional<sim::ThreadLimit> threadLimit;
    if (parser.isSet(threadsOpt)) {
        int threads = 0;
        if (!parsePositiveInt(parser.value(threadsOpt), threads))
            return usageError("--threads must be a positive integer, got '"
                              + parser.value(threadsOpt) + "'");
        threadLimit.emplace(threads);
    }

    auto made = plume::makeBuiltinScene(parser.value(sceneOpt).toStdString(), options);
    if (!made)
        return usageError(QString::fromStdString(made.error()));
    plume::Scene scene = made.take();
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
        if (!quiet && !stats.smokeAtSides.empty())
            std::fprintf(stderr, "warning: frame %d: %s\n", stats.frame,
                         stats.smokeAtSides.c_str());
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

} // namespace plume::cli
