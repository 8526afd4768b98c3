// SPDX-License-Identifier: Apache-2.0
#include "upresbench.h"

#include <core/io/scenereader.h>
#include <core/scene/builtinscene.h>
#include <core/scene/scenesimulation.h>
#include <core/sim/upres/upressolver.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <vector>

namespace plume::bench {

namespace {

double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

} // namespace

int runUpresBench(const std::string &sceneFile, int resolution, int warmup, int frames,
                  int maxFactor)
{
    Scene scene;
    if (sceneFile.empty()) {
        BuiltinOptions options;
        options.resolution = resolution;
        options.threeD = true;
        auto builtin = makeBuiltinScene("plume", options);
        if (!builtin) {
            std::fprintf(stderr, "plume-bench: %s\n", builtin.error().c_str());
            return 1;
        }
        scene = builtin.take();
    } else {
        const SceneReadResult r = readSceneFile(QString::fromStdString(sceneFile));
        if (!r.ok) {
            std::fprintf(stderr, "plume-bench: %s\n", r.error.c_str());
            return 1;
        }
        scene = r.scene;
        scene.domain.resolution = resolution;
    }
    const int factors = std::clamp(maxFactor, 2, 4);
    std::vector<std::unique_ptr<SceneSimulation>> runs;
    for (int f = 1; f <= factors; ++f) {
        Scene s = scene;
        s.simulation.params.upres.factor = f;
        runs.push_back(std::make_unique<SceneSimulation>());
        if (const sim::Status st = runs.back()->setScene(s); !st) {
            std::fprintf(stderr, "plume-bench: upres %d: %s\n", f, st.error.c_str());
            return 1;
        }
    }
    std::vector<std::vector<double>> msPerStep(runs.size()), ratio(runs.size());
    std::vector<double> boxShare(runs.size(), 0.0);
    const int first = scene.simulation.frameStart;
    for (int frame = first; frame < first + warmup + frames; ++frame) {
        std::vector<double> ms(runs.size());
        for (std::size_t r = 0; r < runs.size(); ++r) {
            const auto start = std::chrono::steady_clock::now();
            const sim::FrameStats stats = runs[r]->advance(frame);
            const double took = std::chrono::duration<double, std::milli>(
                                    std::chrono::steady_clock::now() - start)
                                    .count();
            if (!stats.status) {
                std::fprintf(stderr, "plume-bench: %s\n", stats.status.error.c_str());
                return 1;
            }
            ms[r] = took / std::max(1, stats.substeps);
            if (const auto *u = dynamic_cast<const sim::UpresSolver *>(&runs[r]->solver()))
                boxShare[r] = double(u->box().volume()) / double(u->domain().cellCount());
        }
        if (frame < first + warmup)
            continue;
        for (std::size_t r = 0; r < runs.size(); ++r) {
            msPerStep[r].push_back(ms[r]);
            ratio[r].push_back(ms[r] / ms[0]);
        }
    }
    const sim::Domain &d = runs[0]->solver().domain();
    std::printf("upres bench: %s, %d x %d x %d cells, frames %d to %d timed (after %d untimed)\n",
                sceneFile.empty() ? "built-in 3D plume" : sceneFile.c_str(), d.cells.x, d.cells.y,
                d.cells.z, first + warmup, first + warmup + frames - 1, warmup);
    std::printf("| upres | fine cells | ms/step (median) | ratio to base (median of frames) | "
                "box share (last frame) | solver MiB |\n|---|---|---|---|---|---|\n");
    for (std::size_t r = 0; r < runs.size(); ++r) {
        const sim::Domain &f = runs[r]->solver().sampleDomain();
        std::printf("| %s | %d x %d x %d | %.1f | %.2f | %.2f | %.0f |\n",
                    r == 0 ? "off" : (std::to_string(r + 1) + "x").c_str(), f.cells.x, f.cells.y,
                    f.cells.z, median(msPerStep[r]), median(ratio[r]), r == 0 ? 1.0 : boxShare[r],
                    double(runs[r]->solver().memoryBytes()) / (1024.0 * 1024.0));
    }
    return 0;
}

} // namespace plume::bench
