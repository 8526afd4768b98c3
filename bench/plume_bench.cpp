// plume-bench: milliseconds per step, pressure iterations and residual of the built-in plume
// (a hot plume of density and temperature rising past a round obstacle, no dye) for both
// schemes, 2D and 3D, 1 and 2 threads.
//
//   plume-bench [--warmup 100] [--steps 10] [--only 2d|3d] [--scheme smoke|stam]
//
// Each case runs `warmup` steps first (the plume has then reached the obstacle), then times
// `steps` more and reports the median. Thread counts are compared in the same run.
#include <scene/builtinscene.h>
#include <sim/simulation.h>

#include <oneapi/tbb/global_control.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct Case
{
    int resolution;
    bool threeD;
    plume::sim::Scheme scheme;
};

struct Result
{
    double medianMs = 0;
    int iterations = 0;
    double residual = 0;
    double bytesPerCell = 0;
};

Result runCase(const Case &c, int threads, int warmup, int steps)
{
    oneapi::tbb::global_control limit(oneapi::tbb::global_control::max_allowed_parallelism,
                                      std::size_t(threads));
    plume::BuiltinOptions options;
    options.resolution = c.resolution;
    options.threeD = c.threeD;
    options.scheme = c.scheme;
    options.dye = false; // density and temperature, as in the targets
    plume::SceneSetup scene;
    std::string error;
    plume::makeBuiltinScene("plume", options, scene, &error);
    auto simulation =
        plume::sim::Simulation::create(scene.domain, scene.params, scene.time, &error);
    if (!simulation) {
        std::fprintf(stderr, "plume-bench: %s\n", error.c_str());
        std::exit(1);
    }
    plume::applyScene(scene, *simulation);
    plume::sim::Solver &solver = simulation->solver();
    const float dt = 1.f / (scene.time.frameRate * float(scene.time.substeps));
    double t = 0;
    for (int s = 0; s < warmup; ++s, t += dt)
        solver.step(dt, t);
    std::vector<double> ms;
    Result r;
    for (int s = 0; s < steps; ++s, t += dt) {
        const auto start = std::chrono::steady_clock::now();
        const plume::sim::StepStats stats = solver.step(dt, t);
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now()
                                                                - start)
                         .count());
        r.iterations = stats.pressureIterations;
        r.residual = stats.pressureResidual;
    }
    if (!solver.firstNonFiniteField().empty()) {
        std::fprintf(stderr, "plume-bench: the simulation blew up\n");
        std::exit(1);
    }
    std::sort(ms.begin(), ms.end());
    r.medianMs = ms[ms.size() / 2];
    r.bytesPerCell = double(solver.memoryBytes()) / double(scene.domain.cellCount());
    return r;
}

} // namespace

int main(int argc, char **argv)
{
    int warmup = 100;
    int steps = 10;
    std::string only;
    std::string scheme;
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
        else {
            std::fprintf(stderr, "usage: plume-bench [--warmup N] [--steps N] [--only 2d|3d] "
                                 "[--scheme smoke|stam]\n");
            return 2;
        }
    }
    std::vector<Case> cases;
    for (plume::sim::Scheme s : {plume::sim::Scheme::Smoke, plume::sim::Scheme::Stam}) {
        if (!scheme.empty() && scheme != plume::sim::toString(s))
            continue;
        if (only != "3d") {
            cases.push_back({256, false, s});
            cases.push_back({512, false, s});
        }
        if (only != "2d") {
            cases.push_back({64, true, s});
            cases.push_back({128, true, s});
        }
    }
    std::printf("| scheme | grid | ms/step 1 thread | ms/step 2 threads | speed-up | pressure "
                "iterations | residual | bytes/cell |\n|---|---|---|---|---|---|---|---|\n");
    for (const Case &c : cases) {
        const Result one = runCase(c, 1, warmup, steps);
        const Result two = runCase(c, 2, warmup, steps);
        const std::string grid = c.threeD ? std::to_string(c.resolution) + "^3"
                                          : std::to_string(c.resolution) + "^2";
        std::printf("| %s | %s | %.2f | %.2f | %.2fx | %d | %.2g | %.1f |\n",
                    plume::sim::toString(c.scheme), grid.c_str(), one.medianMs, two.medianMs,
                    one.medianMs / two.medianMs, two.iterations, two.residual, two.bytesPerCell);
        std::fflush(stdout);
    }
    return 0;
}
