// SPDX-License-Identifier: Apache-2.0
#include "streamlinebench.h"

#include <core/render/streamlines.h>
#include <core/scene/builtinscene.h>
#include <core/scene/scenesimulation.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <vector>

namespace plume::bench {

int runStreamlineBench(int frames, int repeats)
{
    std::printf("| grid | d_sep cells | step cells | lines | points | wall ms | CPU ms |\n"
                "|---|---|---|---|---|---|---|\n");
    for (int resolution : {128, 256, 512}) {
        BuiltinOptions options;
        options.resolution = resolution;
        Scene scene;
        auto builtin = makeBuiltinScene("plume", options);
        if (!builtin) {
            std::fprintf(stderr, "plume-bench: %s\n", builtin.error().c_str());
            return 1;
        }
        scene = builtin.take();
        SceneSimulation simulation;
        if (sim::Status st = simulation.setScene(scene); !st) {
            std::fprintf(stderr, "plume-bench: %s\n", st.error.c_str());
            return 1;
        }
        for (int f = 1; f <= frames; ++f)
            if (const sim::FrameStats s = simulation.advance(f); !s.status) {
                std::fprintf(stderr, "plume-bench: %s\n", s.status.error.c_str());
                return 1;
            }
        sim::ScalarGrid u, v, solid;
        simulation.solver().sample(sim::FieldKind::VelocityX, u);
        simulation.solver().sample(sim::FieldKind::VelocityY, v);
        simulation.solver().sample(sim::FieldKind::Solid, solid);
        const sim::Domain domain = makeDomain(scene.domain);
        sim::FlagGrid solids(domain.cells);
        for (int j = 0; j < domain.cells.y; ++j)
            for (int i = 0; i < domain.cells.x; ++i)
                solids.setSolid(i, j, 0, solid(i, j, 0) > 0.5f);
        const StreamlineOptions o = viewStreamlineOptions(domain.cells);
        std::vector<double> ms, cpu;
        std::size_t lines = 0, points = 0;
        for (int r = 0; r < repeats; ++r) {
            const std::clock_t cpuStart = std::clock();
            const auto start = std::chrono::steady_clock::now();
            const std::vector<Streamline> result = computeStreamlines(u, v, &solids, domain, o);
            ms.push_back(
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                    .count());
            cpu.push_back(1000.0 * double(std::clock() - cpuStart) / CLOCKS_PER_SEC);
            lines = result.size();
            points = 0;
            for (const Streamline &l : result)
                points += l.points.size();
        }
        std::sort(ms.begin(), ms.end());
        std::sort(cpu.begin(), cpu.end());
        std::printf("| %d^2 | %.1f | %.2f | %zu | %zu | %.2f | %.2f |\n", resolution, o.separation,
                    o.step, lines, points, ms[ms.size() / 2], cpu[cpu.size() / 2]);
        std::fflush(stdout);
    }
    return 0;
}

} // namespace plume::bench
