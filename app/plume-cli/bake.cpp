// SPDX-License-Identifier: Apache-2.0
#include <app/plume-cli/commands.h>

#include <app/plume-cli/bakeoptions.h>
#include <app/plume-cli/common.h>

#include <core/bake/bakeplan.h>
#include <core/bake/baker.h>
#include <core/sim/base/parallel.h>

#include <cstdio>
#include <optional>

#include <unistd.h>

namespace plume::cli {

namespace {

/// Prints why the bake stopped (or was refused) and returns its exit code.
int reportFailure(const QString &path, const BakeResult &result)
{
    std::fprintf(stderr, "\nplume-cli: %s: %s%s\n", qPrintable(path),
                 isCancelled(result.outcome) ? "interrupted; the files written so far are complete"
                                             : result.status.error.c_str(),
                 isResumable(result.outcome)
                     ? "\nplume-cli: the same command with --resume continues the bake"
                     : "");
    return exitCode(result.outcome);
}

} // namespace

int bake(const QStringList &arguments)
{
    QCommandLineParser parser;
    const BakeOptions options;
    options.addTo(parser);
    if (auto done = parseCommand(
            parser, arguments, "bake",
            "Simulates a scene and writes DIR/<scene>.<frame>.vdb for each frame, with grids "
            "density, temperature, vel, (with dye) Cd and (with fuel) flame and fuel, (liquid "
            "scenes) the level set surface and the points grid points, Y-up "
            "(--up z for Blender and Unreal, docs/using-exports.md); with "
            "--flipbook or --images (or the scene's export presets) a flipbook atlas "
            "<scene>_flipbook.png with motion vectors and a JSON sidecar, or <scene>.<frame>.png "
            "images. --flipbook or --images on the command line replaces the scene's flipbook "
            "and image presets (--images of a scene that presets a flipbook writes the images "
            "alone); --vdb, --mesh, --flow-map, --vector-field and --volume-texture add to the "
            "presets. "
            "--vector-field vf|fga "
            "writes the velocity for Unity's or Unreal's particles (docs/vector-fields.md); "
            "--volume-texture writes a field as slice atlases for engines' volume textures "
            "(docs/volume-textures.md). "
            "--lighting six-way, "
            "--normals, --depth-map and --alpha-map "
            "add passes, "
            "--pack packs them for an engine and --format exr writes OpenEXR "
            "(docs/flipbook.md, docs/using-exports.md). Each file appears complete or not at all. "
            "While it runs, DIR/.plume-bake "
            "holds a resume record: after a crash, a kill or a full disk, the same command with "
            "--resume continues, and the folder ends byte-identical to an uninterrupted bake. "
            "--cache-only writes the VDB files alone; --from-cache DIR then renders the "
            "flipbook, images and meshes from them without simulating, the same bytes as a bake "
            "that simulates, whole or in --chunk parts (docs/farm.md). "
            "Exit codes: 0 done; 1 failed or interrupted while running (finished frames stay, "
            "resumable); 2 bad usage or scene, or --resume refused (nothing to resume, or the "
            "scene or options differ); 3 the grid does not fit in memory. Scenes of the ocean "
            "scheme write 16-bit PNG (or with --format exr, OpenEXR) maps instead: "
            "<scene>_height.<frame>.png, _normal and _foam "
            "(--ocean-maps), or atlases (--ocean-flipbook), and <scene>_ocean.json with the "
            "height range; they tile and, over one loop period, loop (docs/ocean.md)."))
        return *done;
    if (!parser.isSet(options.output))
        return usageError("bake needs an output folder: -o DIR");
    std::optional<sim::ThreadLimit> threadLimit;
    if (parser.isSet(options.threads)) {
        int threads = 0;
        if (!parsePositiveInt(parser.value(options.threads), threads))
            return usageError("--threads must be a positive integer, got '"
                              + parser.value(options.threads) + "'");
        threadLimit.emplace(threads);
    }
    const bool quiet = parser.isSet(options.quiet);
    const QString path = parser.positionalArguments()[1];
    std::optional<Scene> scene = loadScene(path, quiet);
    if (!scene)
        return kExitUsage;
    if (parser.isSet(options.upres)) {
        int factor = 0;
        const sim::Param &range = sim::upresParams::factor;
        if (!parsePositiveInt(parser.value(options.upres), factor) || !range.contains(factor))
            return usageError("--upres must be " + QString::fromStdString(range.describe())
                              + ", got '" + parser.value(options.upres) + "'");
        if (factor > 1 && scene->simulation.params.scheme != sim::Scheme::Smoke)
            return usageError(QString("--upres refines the smoke scheme's fields; this scene's "
                                      "scheme is ")
                              + sim::toString(scene->simulation.params.scheme));
        scene->simulation.params.upres.factor = factor;
    }
    BakeSettings settings;
    if (const QString error = bakeSettingsFromOptions(parser, options, *scene, path, settings);
        !error.isEmpty())
        return usageError(error);
    const PlannedBake planned = planBake(*scene, settings);
    if (planned.setting == "frames")
        return usageError("--frames: " + QString::fromStdString(planned.message));
    if (!planned.ok())
        return reportFailure(path, BakeResult::stopped(planned.outcome, planned.message));

    catchInterrupts();
    ProgressLine progress(!quiet && (parser.isSet(options.progress) || isatty(STDERR_FILENO)),
                          quiet);
    const BakeResult result = runBake(*scene, planned.plan, &progress);
    if (!result.status)
        return reportFailure(path, result);
    if (settings.resume && !quiet)
        std::printf("resumed after frame %d\n", result.resumedAfter);
    if (!quiet)
        std::printf("wrote %zu file%s to %s in %.1f s\n", result.files.size(),
                    result.files.size() == 1 ? "" : "s", settings.outputDirectory.c_str(),
                    progress.totalMs() / 1000.0);
    return kExitOk;
}

} // namespace plume::cli
