// SPDX-License-Identifier: Apache-2.0
#include "sphbench.h"

#include <core/sim/run/solverfactory.h>
#include <core/sim/sph/sphsolver.h>

#include <oneapi/tbb/global_control.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <vector>

namespace plume::bench {

namespace {

using Clock = std::chrono::steady_clock;

/// A tank of `cells` with a block of liquid filling the cells [0, block) (8 particles a cell).
std::unique_ptr<sim::SphSolver> makeTank(sim::Int3 cells, sim::Int3 block)
{
    sim::Domain d;
    d.cells = cells;
    d.cellSize = 1.f / float(cells.x);
    sim::SimParams p;
    p.scheme = sim::Scheme::Sph;
    auto made = sim::createSolver(d, p);
    if (!made) {
        std::fprintf(stderr, "plume-bench: %s\n", made.error().c_str());
        return nullptr;
    }
    std::unique_ptr<sim::SphSolver> s(static_cast<sim::SphSolver *>(made.take().release()));
    sim::Emitter fill;
    fill.liquid = sim::LiquidMode::Fill;
    for (int k = 0; k < block.z; ++k)
        for (int j = 0; j < block.y; ++j)
            for (int i = 0; i < block.x; ++i)
                fill.mask.add(std::uint32_t((k * cells.y + j) * cells.x + i), 1.f);
    if (!s->setEmitters({fill}))
        return nullptr;
    s->step(1e-6f, 0.0); // the fill
    return s;
}

double medianStepMs(sim::SphSolver &s, int threads, int steps, double &time)
{
    oneapi::tbb::global_control limit(oneapi::tbb::global_control::max_allowed_parallelism,
                                      threads);
    std::vector<double> ms;
    for (int n = 0; n < steps; ++n) {
        const float dt = s.stableStep();
        const auto start = Clock::now();
        s.advance(dt, time);
        ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
        time += dt;
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

} // namespace

int runSphBench(int warmup, int steps)
{
    std::printf("| particles | grid | ms/step 1 thread | ms/step 2 threads | speed-up | "
                "bytes/particle | memory |\n|---|---|---|---|---|---|---|\n");
    struct Size
    {
        sim::Int3 cells, block;
        bool oneThread;
    };
    for (const Size &size :
         {Size{{64, 40, 40}, {25, 25, 20}, true}, Size{{128, 64, 64}, {50, 50, 50}, false}}) {
        std::unique_ptr<sim::SphSolver> s = makeTank(size.cells, size.block);
        if (!s)
            return 1;
        double time = 0.0;
        const bool big = !size.oneThread;
        medianStepMs(*s, 2, big ? 1 : warmup, time);
        const double one = size.oneThread ? medianStepMs(*s, 1, steps, time) : 0.0;
        const double two = medianStepMs(*s, 2, big ? 3 : steps, time);
        const std::size_t n = s->particles()->size();
        const double bytes = double(s->memoryBytes());
        char oneText[32] = "-", ratio[32] = "-";
        if (size.oneThread) {
            std::snprintf(oneText, sizeof oneText, "%.1f", one);
            std::snprintf(ratio, sizeof ratio, "%.2fx", one / two);
        }
        std::printf("| %zu | %d x %d x %d | %s | %.1f | %s | %.0f | %.0f MiB |\n", n, size.cells.x,
                    size.cells.y, size.cells.z, oneText, two, ratio, bytes / double(n),
                    bytes / 1048576.0);
        std::fflush(stdout);
    }
    return 0;
}

} // namespace plume::bench
