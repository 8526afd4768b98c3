// SPDX-License-Identifier: Apache-2.0
// plume-bench: milliseconds per step, pressure iterations and residual of the built-in plume
// (a hot plume of density and temperature rising past a round obstacle, no dye) for both
// schemes, 2D and 3D, 1 and 2 threads.
//
//   plume-bench [--warmup 100] [--steps 10] [--only 2d|3d] [--scheme smoke|stam] [--fire]
//   plume-bench --scene FILE [--warmup 100] [--steps 10]   (a scene file's frames, its
//               substeps included, at 1 and 2 threads: e.g. the app's 3D example's cost)
//   plume-bench --mesh [--steps N]   (models: meshbench.cpp)
//   plume-bench --surface [--repeats N]   (level surfaces: surfacebench.cpp)
//   plume-bench --reference [--warmup N] [--steps N] [--only 2d|3d]
//               (against the published codes: referencebench.cpp)
//   plume-bench --checkpoint [--resolution 128] [--frames 60] [--repeats 6]
//               [--bake-resolution 64] [--pairs 4]
//   plume-bench --sph [--warmup N] [--steps N]   (the liquid: sphbench.cpp)
//   plume-bench --streamlines [--frames 60] [--repeats 6]   (streamlinebench.h)
//   plume-bench --render [--resolution 128] [--frames 60] [--repeats 6]   (renderbench.h)
//   plume-bench --adaptive [--resolution 128] [--frames 60] [--fill 0.15] [--perturb EPS]
//               (adaptivebench.h)
//   plume-bench --sparse [--resolution 128] [--frames 60] [--fill 0.15] [--perturb EPS]
//               [--vorticity-share S] [--lifetime N]   (the same, with active tiles:
//               adaptivebench.h)
//   plume-bench --composite [--resolution 128] [--frames 64] [--every 8] [--repeats 3]
//               (the sparse scheme's pressure solve against the dense one: compositebench.h)
//   plume-bench --ensemble [--resolution 128] [--frames 96] [--members 8] [--eps 1e-3]
//               [--scene FILE] [--tiles]   (the dense solve's own spread, and the adaptive
//               box's run, or with --tiles the active tiles', against
//               it: ensemblebench.h; a scene file keeps its resolution unless --resolution)
//   plume-bench --upres 4 [--scene FILE] [--resolution 96] [--warmup 24] [--frames 12]
//               (the step cost of each upres factor against the base step: upresbench.h)
//
// --fire measures instead what combustion costs (docs/fire.md): for each smoke grid, the plume
// and the same plume whose source also emits burning fuel (3 per second, default combustion
// settings) step alternately in one process with 2 threads, so that both see the same load on
// a shared machine; it prints the median step times and the median of the per-step ratios.
//
// Each case runs `warmup` steps first (the plume has then reached the obstacle), then times
// `steps` more and reports the median. Thread counts are compared in the same run, step by
// step: a 1-thread and a 2-thread copy of the case step alternately, and the speed-up is the
// median of the per-step ratios. The scenes
// run through SceneSimulation, the frame loop of the baker and the app, one step per frame;
// a step's time includes the frame loop's blow-up check after it.
//
// --checkpoint measures solver checkpoints instead (checkpointbench.h): save and restore times
// and bytes per cell of the 3D plume after --frames frames, and a bake's slowdown with
// checkpoints every 10 frames (docs/checkpoints.md).
#include "adaptivebench.h"
#include "checkpointbench.h"
#include "compositebench.h"
#include "ensemblebench.h"
#include "meshbench.h"
#include "referencebench.h"
#include "renderbench.h"
#include "sphbench.h"
#include "streamlinebench.h"
#include "surfacebench.h"
#include "upresbench.h"

#include <core/io/scenereader.h>
#include <core/scene/builtinscene.h>
#include <core/scene/scenesimulation.h>

#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/task_arena.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

struct Case
{
    int resolution;
    bool threeD;
    plume::sim::Scheme scheme;
    bool fire = false; ///< the source also emits burning fuel
    std::string scene; ///< a scene file to run instead of the built-in plume (--scene)
};

struct Result
{
    double medianMs = 0;
    int iterations = 0;
    double residual = 0;
    double bytesPerCell = 0;
};

/// A scene file as it is (its frame rate and substeps), through SceneSimulation.
std::unique_ptr<plume::SceneSimulation> makeSceneSimulation(const std::string &path)
{
    const plume::SceneReadResult read = plume::readSceneFile(QString::fromStdString(path));
    if (!read.ok) {
        std::fprintf(stderr, "plume-bench: %s\n", read.error.c_str());
        std::exit(2);
    }
    auto simulation = std::make_unique<plume::SceneSimulation>();
    if (plume::sim::Status st = simulation->setScene(read.scene); !st) {
        std::fprintf(stderr, "plume-bench: %s: %s\n", path.c_str(), st.error.c_str());
        std::exit(1);
    }
    return simulation;
}

/// The built-in plume of a case, one solver step per frame, through SceneSimulation (or the
/// case's scene file).
std::unique_ptr<plume::SceneSimulation> makeSimulation(const Case &c)
{
    if (!c.scene.empty())
        return makeSceneSimulation(c.scene);
    plume::BuiltinOptions options;
    options.resolution = c.resolution;
    options.threeD = c.threeD;
    options.scheme = c.scheme;
    options.dye = false; // density and temperature, as in the targets
    plume::Scene scene = plume::makeBuiltinScene("plume", options).take(); // valid options
    for (plume::Item &item : scene.items) {
        if (c.fire && item.kind == plume::ItemKind::Emitter)
            item.emitter.fuel = 3.f;
    }
    plume::sim::TimeSettings &time = scene.simulation.time;
    time.frameRate *= float(time.substeps);
    time.substeps = 1;
    auto simulation = std::make_unique<plume::SceneSimulation>();
    if (plume::sim::Status st = simulation->setScene(scene); !st) {
        std::fprintf(stderr, "plume-bench: %s\n", st.error.c_str());
        std::exit(1);
    }
    return simulation;
}

/// One frame (= one step); exits on a failure.
plume::sim::FrameStats stepOnce(plume::SceneSimulation &simulation, int &frame)
{
    const plume::sim::FrameStats stats = simulation.advance(++frame);
    if (!stats.status) {
        std::fprintf(stderr, "plume-bench: %s\n", stats.status.error.c_str());
        std::exit(1);
    }
    return stats;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

/// Smoke and smoke with fire stepped alternately (2 threads): both medians and the median ratio.
void compareFire(Case c, int warmup, int steps)
{
    oneapi::tbb::global_control limit(oneapi::tbb::global_control::max_allowed_parallelism, 2);
    c.fire = false;
    auto smoke = makeSimulation(c);
    c.fire = true;
    auto fire = makeSimulation(c);
    int a = 0, b = 0;
    for (int s = 0; s < warmup; ++s) {
        stepOnce(*smoke, a);
        stepOnce(*fire, b);
    }
    std::vector<double> ta, tb, ratio;
    for (int s = 0; s < steps; ++s) {
        ta.push_back(stepOnce(*smoke, a).milliseconds);
        tb.push_back(stepOnce(*fire, b).milliseconds);
        ratio.push_back(tb.back() / ta.back());
    }
    const std::string grid = std::to_string(c.resolution) + (c.threeD ? "^3" : "^2");
    std::printf("| %s | %.1f | %.1f | %.3f (%d steps) | %.1f |\n", grid.c_str(), median(ta),
                median(tb), median(ratio), steps,
                double(fire->solver().memoryBytes()) / double(fire->solver().domain().cellCount()));
    std::fflush(stdout);
}

/// Runs the frame loop the baker and the app use (SceneSimulation). The scene's frame rate is
/// multiplied by its substeps and one substep is taken per frame: each frame is then one solver
/// step of the same length (1/48 s), so its time, iterations and residual are one step's.
/// Two copies of the case step alternately, one in an arena of 1 thread and one in an arena of 2:
/// both do the same work (the bytes do not depend on the threads) under the same load of a
/// shared machine, and the speed-up is the median of the per-step ratios.
struct Pair
{
    Result byThreads[2]; ///< 1 thread, 2 threads
    double speedUp = 0;
};

Pair runPair(const Case &c, int warmup, int steps)
{
    oneapi::tbb::task_arena arenas[2] = {oneapi::tbb::task_arena(1), oneapi::tbb::task_arena(2)};
    std::unique_ptr<plume::SceneSimulation> simulations[2] = {makeSimulation(c), makeSimulation(c)};
    int frames[2] = {0, 0};
    auto step = [&](int t) {
        plume::sim::FrameStats stats;
        arenas[t].execute([&] { stats = stepOnce(*simulations[t], frames[t]); });
        return stats;
    };
    for (int s = 0; s < warmup; ++s) {
        step(0);
        step(1);
    }
    std::vector<double> ms[2], ratio;
    Pair p;
    for (int s = 0; s < steps; ++s) {
        for (int t = 0; t < 2; ++t) {
            const plume::sim::FrameStats stats = step(t);
            ms[t].push_back(stats.milliseconds);
            Result &r = p.byThreads[t];
            r.iterations = stats.pressureIterations;
            r.residual = stats.pressureResidual;
        }
        ratio.push_back(ms[0].back() / ms[1].back());
    }
    for (int t = 0; t < 2; ++t) {
        Result &r = p.byThreads[t];
        r.medianMs = median(ms[t]);
        const plume::sim::Solver &solver = simulations[t]->solver();
        r.bytesPerCell = double(solver.memoryBytes()) / double(solver.domain().cellCount());
    }
    p.speedUp = median(ratio);
    return p;
}

} // namespace

int main(int argc, char **argv)
{
    int warmup = 100;
    int steps = 10;
    std::string only;
    std::string scheme;
    std::string sceneFile;
    bool fire = false;
    bool mesh = false;
    bool surface = false;
    bool checkpoint = false;
    bool reference = false;
    bool sph = false;
    bool streamlines = false;
    bool render = false;
    bool adaptive = false;
    bool composite = false;
    bool sparse = false;
    int every = 8;
    bool ensemble = false;
    bool tiles = false;
    int members = 8;
    double eps = 1e-3;
    bool resolutionSet = false, framesSet = false;
    int upres = 0;
    double fill = 0.15;
    double perturb = 0.0;
    double vorticityShare = -1.0;
    int lifetime = -1;
    int resolution = 128, frames = 60, repeats = 6, bakeResolution = 64, pairs = 4;
    for (int a = 1; a < argc; ++a) {
        auto next = [&](const char *name) {
            if (a + 1 >= argc) {
                std::fprintf(stderr, "plume-bench: %s needs a value\n", name);
                std::exit(2);
            }
            return std::string(argv[++a]);
        };
        if (!std::strcmp(argv[a], "--warmup"))
            warmup = std::stoi(next("--warmup"));
        else if (!std::strcmp(argv[a], "--steps"))
            steps = std::max(1, std::stoi(next("--steps")));
        else if (!std::strcmp(argv[a], "--only"))
            only = next("--only");
        else if (!std::strcmp(argv[a], "--scheme"))
            scheme = next("--scheme");
        else if (!std::strcmp(argv[a], "--scene"))
            sceneFile = next("--scene");
        else if (!std::strcmp(argv[a], "--fire"))
            fire = true;
        else if (!std::strcmp(argv[a], "--mesh"))
            mesh = true;
        else if (!std::strcmp(argv[a], "--surface"))
            surface = true;
        else if (!std::strcmp(argv[a], "--checkpoint"))
            checkpoint = true;
        else if (!std::strcmp(argv[a], "--sph"))
            sph = true;
        else if (!std::strcmp(argv[a], "--render"))
            render = true;
        else if (!std::strcmp(argv[a], "--streamlines"))
            streamlines = true;
        else if (!std::strcmp(argv[a], "--upres"))
            upres = std::max(2, std::stoi(next("--upres")));
        else if (!std::strcmp(argv[a], "--adaptive"))
            adaptive = true;
        else if (!std::strcmp(argv[a], "--sparse"))
            sparse = true;
        else if (!std::strcmp(argv[a], "--composite"))
            composite = true;
        else if (!std::strcmp(argv[a], "--every"))
            every = std::max(1, std::stoi(next("--every")));
        else if (!std::strcmp(argv[a], "--ensemble"))
            ensemble = true;
        else if (!std::strcmp(argv[a], "--tiles"))
            tiles = true;
        else if (!std::strcmp(argv[a], "--members"))
            members = std::stoi(next("--members"));
        else if (!std::strcmp(argv[a], "--eps"))
            eps = std::stod(next("--eps"));
        else if (!std::strcmp(argv[a], "--fill"))
            fill = std::stod(next("--fill"));
        else if (!std::strcmp(argv[a], "--perturb"))
            perturb = std::stod(next("--perturb"));
        else if (!std::strcmp(argv[a], "--vorticity-share"))
            vorticityShare = std::stod(next("--vorticity-share"));
        else if (!std::strcmp(argv[a], "--lifetime"))
            lifetime = std::stoi(next("--lifetime"));
        else if (!std::strcmp(argv[a], "--reference"))
            reference = true;
        else if (!std::strcmp(argv[a], "--resolution")) {
            resolution = std::max(8, std::stoi(next("--resolution")));
            resolutionSet = true;
        } else if (!std::strcmp(argv[a], "--frames")) {
            frames = std::max(1, std::stoi(next("--frames")));
            framesSet = true;
        } else if (!std::strcmp(argv[a], "--repeats"))
            repeats = std::max(1, std::stoi(next("--repeats")));
        else if (!std::strcmp(argv[a], "--bake-resolution"))
            bakeResolution = std::max(8, std::stoi(next("--bake-resolution")));
        else if (!std::strcmp(argv[a], "--pairs"))
            pairs = std::max(1, std::stoi(next("--pairs")));
        else {
            std::fprintf(stderr, "usage: plume-bench [--warmup N] [--steps N] [--only 2d|3d] "
                                 "[--scheme smoke|stam] [--fire]\n"
                                 "       plume-bench --scene FILE [--warmup N] [--steps N]\n"
                                 "       plume-bench --mesh [--steps N]\n"
                                 "       plume-bench --surface [--repeats N]\n"
                                 "       plume-bench --reference [--warmup N] [--steps N] "
                                 "[--only 2d|3d]\n"
                                 "       plume-bench --checkpoint [--resolution N] [--frames N] "
                                 "[--repeats N] [--bake-resolution N] [--pairs N]\n"
                                 "       plume-bench --sph [--warmup N] [--steps N]\n"
                                 "       plume-bench --streamlines [--frames N] [--repeats N]\n"
                                 "       plume-bench --render [--resolution N] [--frames N] "
                                 "[--repeats N]\n"
                                 "       plume-bench --adaptive [--resolution N] [--frames N] "
                                 "[--fill F] [--perturb EPS]\n"
                                 "       plume-bench --sparse [--resolution N] [--frames N] "
                                 "[--fill F] [--perturb EPS] [--vorticity-share S] "
                                 "[--lifetime N]\n"
                                 "       plume-bench --composite [--resolution N] [--frames N] "
                                 "[--every N] [--repeats N]\n"
                                 "       plume-bench --ensemble [--resolution N] [--frames N] "
                                 "[--members 2-8] [--eps EPS] [--scene FILE] [--tiles]\n"
                                 "       plume-bench --upres MAXFACTOR [--scene FILE] "
                                 "[--resolution N] [--warmup N] [--frames N]\n");
            return 2;
        }
    }
    if (sparse)
        return plume::bench::runAdaptiveBench(resolution, frames, fill, perturb, true,
                                              vorticityShare, lifetime);
    if (composite)
        return plume::bench::runCompositeBench(resolution, frames, every, repeats);
    if (ensemble)
        return plume::bench::runEnsembleBench(sceneFile,
                                              resolutionSet || sceneFile.empty() ? resolution : 0,
                                              framesSet ? frames : 96, members, eps, tiles);
    if (adaptive)
        return plume::bench::runAdaptiveBench(resolution, frames, fill, perturb);
    if (upres > 0)
        return plume::bench::runUpresBench(sceneFile, resolution, warmup, frames, upres);
    if (sph)
        return plume::bench::runSphBench(warmup, std::max(steps, 9));
    if (streamlines)
        return plume::bench::runStreamlineBench(frames, repeats);
    if (render)
        return plume::bench::runRenderBench(resolution, frames, repeats);
    if (mesh)
        return plume::bench::runMeshBench(std::max(steps, 5));
    if (surface)
        return plume::bench::runSurfaceBench(repeats);
    if (reference)
        return plume::bench::runReferenceBench(warmup, std::max(steps, 9), only);
    if (checkpoint) {
        std::printf("| checkpoint | save ms | save to file ms | restore ms | restore from file "
                    "ms | size | bytes/cell |\n|---|---|---|---|---|---|---|\n");
        checkpointCost(resolution, frames, repeats);
        std::printf("\n| bake | ms/frame, no checkpoints | ms/frame, checkpoint every 10 | "
                    "median ratio |\n|---|---|---|---|\n");
        bakeSlowdown(bakeResolution, 31, pairs);
        return 0;
    }
    if (!sceneFile.empty()) {
        Case c{0, false, plume::sim::Scheme::Smoke};
        c.scene = sceneFile;
        const Pair pair = runPair(c, warmup, steps);
        const Result &one = pair.byThreads[0], &two = pair.byThreads[1];
        std::printf("| scene | ms/frame 1 thread | ms/frame 2 threads | speed-up | pressure "
                    "iterations/frame | residual | bytes/cell |\n|---|---|---|---|---|---|---|\n"
                    "| %s | %.2f | %.2f | %.2fx | %d | %.2g | %.1f |\n",
                    sceneFile.c_str(), one.medianMs, two.medianMs, pair.speedUp, two.iterations,
                    two.residual, two.bytesPerCell);
        return 0;
    }
    std::vector<Case> cases;
    for (plume::sim::Scheme s : {plume::sim::Scheme::Smoke, plume::sim::Scheme::Stam}) {
        if (!scheme.empty() && scheme != plume::sim::toString(s))
            continue;
        if (fire && s != plume::sim::Scheme::Smoke)
            continue; // combustion is the smoke scheme's
        for (auto [resolution, threeD] :
             {std::pair{256, false}, {512, false}, {64, true}, {128, true}}) {
            if (only != (threeD ? "2d" : "3d"))
                cases.push_back({resolution, threeD, s});
        }
    }
    if (fire) {
        std::printf("| grid | smoke ms/step | smoke+fire ms/step | median ratio | fire bytes/cell "
                    "|\n|---|---|---|---|---|\n");
        for (const Case &c : cases)
            compareFire(c, warmup, std::max(steps, 15));
        return 0;
    }
    std::printf("| scheme | grid | ms/step 1 thread | ms/step 2 threads | speed-up | pressure "
                "iterations | residual | bytes/cell |\n|---|---|---|---|---|---|---|---|\n");
    for (const Case &c : cases) {
        const Pair pair = runPair(c, warmup, steps);
        const Result &one = pair.byThreads[0], &two = pair.byThreads[1];
        const std::string grid = c.threeD ? std::to_string(c.resolution) + "^3"
                                          : std::to_string(c.resolution) + "^2";
        const std::string scheme = plume::sim::toString(c.scheme);
        std::printf("| %s | %s | %.2f | %.2f | %.2fx | %d | %.2g | %.1f |\n", scheme.c_str(),
                    grid.c_str(), one.medianMs, two.medianMs, pair.speedUp, two.iterations,
                    two.residual, two.bytesPerCell);
        std::fflush(stdout);
    }
    return 0;
}
