// SPDX-License-Identifier: Apache-2.0
// plume-bench --checkpoint: what solver checkpoints cost (docs/checkpoints.md).
#include "checkpointbench.h"

#include <core/bake/baker.h>
#include <core/io/scenehash.h>
#include <core/scene/builtinscene.h>
#include <core/scene/scenesimulation.h>

#include <oneapi/tbb/global_control.h>

#include <QDir>
#include <QTemporaryDir>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double medianOf(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

plume::Scene plumeScene(int resolution, bool dye)
{
    plume::BuiltinOptions options;
    options.resolution = resolution;
    options.threeD = true;
    options.dye = dye;
    auto builtin = plume::makeBuiltinScene("plume", options);
    if (!builtin) {
        std::fprintf(stderr, "plume-bench: %s\n", builtin.error().c_str());
        std::exit(1);
    }
    return builtin.take();
}

void check(const plume::sim::Status &st)
{
    if (!st) {
        std::fprintf(stderr, "plume-bench: %s\n", st.error.c_str());
        std::exit(1);
    }
}

} // namespace

void checkpointCost(int resolution, int frames, int repeats)
{
    oneapi::tbb::global_control limit(oneapi::tbb::global_control::max_allowed_parallelism, 2);
    const plume::Scene scene = plumeScene(resolution, false);
    const std::uint64_t hash = plume::sceneHash(scene);
    plume::SceneSimulation simulation;
    check(simulation.setScene(scene));
    for (int f = 1; f <= frames; ++f)
        check(simulation.advance(f).status);

    QTemporaryDir dir;
    const QString path = dir.filePath("state.plumeckpt");
    std::vector<double> save, write, restore, read;
    std::vector<std::uint8_t> bytes;
    plume::SceneSimulation target;
    check(target.setScene(scene));
    for (int r = 0; r < repeats; ++r) {
        auto start = Clock::now();
        check(simulation.saveCheckpoint(hash, bytes));
        save.push_back(msSince(start));
        start = Clock::now();
        check(target.restoreCheckpoint(bytes, hash));
        restore.push_back(msSince(start));
        start = Clock::now();
        check(simulation.saveCheckpointFile(path, hash));
        write.push_back(msSince(start));
        start = Clock::now();
        check(target.restoreCheckpointFile(path, hash));
        read.push_back(msSince(start));
    }
    plume::sim::CheckpointInfo info;
    check(plume::sim::Checkpoint::read(bytes, info));
    const double cells = double(simulation.solver().domain().cellCount());
    std::printf("| %d^3 smoke plume, frame %d | %.0f | %.0f | %.0f | %.0f | %.1f MiB | %.2f |\n",
                resolution, frames, medianOf(save), medianOf(write), medianOf(restore),
                medianOf(read), double(bytes.size()) / 1048576.0, double(bytes.size()) / cells);
    std::printf("\nfield | raw MiB | stored MiB | stored bytes/cell\n---|---|---|---\n");
    for (const auto &f : info.fields)
        std::printf("%s | %.1f | %.2f | %.3f\n", f.name.c_str(), double(f.rawBytes) / 1048576.0,
                    double(f.storedBytes) / 1048576.0, double(f.storedBytes) / cells);
    std::fflush(stdout);
}

void bakeSlowdown(int resolution, int frames, int runs)
{
    oneapi::tbb::global_control limit(oneapi::tbb::global_control::max_allowed_parallelism, 2);
    plume::Scene scene = plumeScene(resolution, false);
    scene.simulation.frameEnd = scene.simulation.frameStart + frames - 1;
    QTemporaryDir dir;
    std::vector<double> plain, checkpointed, ratio;
    for (int r = 0; r < runs; ++r) {
        double ms[2] = {0, 0};
        for (int every : {0, 10}) {
            plume::BakeSettings settings;
            settings.outputDirectory = dir.filePath("out").toStdString();
            settings.baseName = "plume";
            settings.firstFrame = scene.simulation.frameStart;
            settings.lastFrame = scene.simulation.frameEnd;
            settings.checkpointEvery = every;
            const auto start = Clock::now();
            const plume::BakeResult result = plume::bakeScene(scene, settings);
            check(result.status);
            ms[every ? 1 : 0] = msSince(start);
        }
        plain.push_back(ms[0]);
        checkpointed.push_back(ms[1]);
        ratio.push_back(ms[1] / ms[0]);
    }
    std::printf("| %d^3 smoke plume, %d frames, VDB | %.0f | %.0f | %.3f (%d pairs) |\n",
                resolution, frames, medianOf(plain) / frames, medianOf(checkpointed) / frames,
                medianOf(ratio), runs);
    std::fflush(stdout);
}
