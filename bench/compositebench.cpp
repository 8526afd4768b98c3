// SPDX-License-Identifier: Apache-2.0
#include "compositebench.h"

#include <core/scene/builtinscene.h>
#include <core/scene/scenesimulation.h>
#include <core/sim/base/workspace.h>
#include <core/sim/ops/pressure.h>
#include <core/sim/smoke/smokesolver.h>
#include <core/sim/sparse/activetiles.h>
#include <core/sim/sparse/compositepressure.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

namespace plume::bench {

namespace {

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

template<class F>
double millis(F &&f)
{
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

int runCompositeBench(int resolution, int frames, int every, int repeats)
{
    BuiltinOptions options;
    options.resolution = resolution;
    options.threeD = true;
    Scene scene;
    auto builtin = makeBuiltinScene("plume", options);
    if (!builtin) {
        std::fprintf(stderr, "plume-bench: %s\n", builtin.error().c_str());
        return 1;
    }
    scene = builtin.take();
    scene.simulation.params.adaptiveDomain = false;
    SceneSimulation sim;
    if (const sim::Status st = sim.setScene(scene); !st) {
        std::fprintf(stderr, "plume-bench: %s\n", st.error.c_str());
        return 1;
    }
    const auto *smoke = dynamic_cast<const sim::SmokeSolver *>(&sim.solver());
    const sim::Domain domain = sim.solver().domain();
    if (!smoke || !sim::CompositeGrid::fits(domain)) {
        std::fprintf(stderr,
                     "plume-bench: the plume at %d^3 is not a smoke scene in whole "
                     "tiles\n",
                     resolution);
        return 1;
    }
    const sim::SimParams params = sim.solver().params();
    const float dt = 1.f / 24.f;
    const float h = domain.cellSize;
    sim::PressureSolver dense;
    dense.setup(domain, smoke->solids());
    sim::Workspace work;

    std::printf("built-in 3D plume, %d^3 cells: pressure solves, dense against composite\n\n",
                resolution);
    std::printf("| frame | smoke fills | active tiles | composite cells | dense it | composite "
                "it | dense ms | composite ms | ratio | L2 over active |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
    const sim::TileGrid tiles = sim::TileGrid::of(domain);
    sim::ActiveTiles active;
    active.reset(tiles);
    for (int f = 1; f <= frames; ++f) {
        sim.advance(f);
        if (f % every != 0)
            continue;
        // The velocity a projection sees: this frame's, plus a step of buoyancy.
        sim::MacGrid kicked = smoke->velocity();
        const sim::ScalarGrid &temp = smoke->temperature();
        const sim::ScalarGrid &dens = smoke->density();
        const sim::Int3 n = domain.cells;
        for (int k = 0; k < n.z; ++k)
            for (int j = 1; j < n.y; ++j)
                for (int i = 0; i < n.x; ++i) {
                    const float t = 0.5f * (temp(i, j, k) + temp(i, j - 1, k))
                                    - params.ambientTemperature;
                    const float d = 0.5f * (dens(i, j, k) + dens(i, j - 1, k));
                    kicked.v(i, j,
                             k) += dt
                                   * (params.buoyancyTemperature * t - params.buoyancyDensity * d);
                }
        std::size_t smoky = 0;
        for (std::size_t c = 0; c < dens.count(); ++c)
            smoky += dens[c] > 1e-3f || std::fabs(temp[c] - params.ambientTemperature) > 1e-3f;
        // Active tiles: the smoke, padded by a tile plus the step's reach.
        const sim::ScalarGrid *fields[] = {&dens};
        const int reach = int(std::ceil(smoke->maxVelocity() * dt / h));
        active.update(sim::seedBoxes(tiles, fields, 1e-3f), sim::TileGrid::kTile + reach, {}, 0);
        std::vector<std::uint8_t> flags(tiles.count(), 0);
        for (std::uint32_t t : active.list())
            flags[t] = 1;
        sim::CompositePressure composite;
        composite.setup(domain, sim::CompositeGrid::levelsAround(domain, flags), smoke->solids());

        std::vector<double> denseMs, compositeMs;
        sim::MacGrid denseOut;
        sim::CompositeFaces faces;
        sim::SolveResult rd, rc;
        const sim::PressureSettings settings = params.pressure;
        for (int r = 0; r < repeats; ++r) {
            sim::MacGrid v = kicked;
            sim::ScalarGrid p;
            denseMs.push_back(millis([&] { rd = dense.project(v, p, dt, settings, work); }));
            denseOut = v;
            sim::CompositeFaces cf;
            cf.fromMac(composite.grid(), kicked);
            std::vector<float> cp;
            compositeMs.push_back(millis([&] { rc = composite.project(cf, cp, dt, settings); }));
            faces = cf;
        }
        sim::MacGrid back;
        faces.toMac(composite.grid(), back);
        double diff = 0, norm = 0;
        for (std::uint32_t t : active.list()) {
            const sim::CellBox box = tiles.cellsOf(t);
            for (int a = 0; a < 3; ++a)
                for (int k = box.lo.z; k < box.hi.z; ++k)
                    for (int j = box.lo.y; j < box.hi.y; ++j)
                        for (int i = box.lo.x; i < box.hi.x; ++i) {
                            const double e = back.component(a)(i, j, k)
                                             - denseOut.component(a)(i, j, k);
                            diff += e * e;
                            norm += double(denseOut.component(a)(i, j, k))
                                    * denseOut.component(a)(i, j, k);
                        }
        }
        const double dm = median(denseMs), cm = median(compositeMs);
        std::printf(
            "| %d | %.1f %% | %.1f %% | %.1f %% | %d | %d | %.1f | %.1f | %.2f | %.3f %% |\n", f,
            100.0 * double(smoky) / double(domain.cellCount()), 100.0 * active.share(),
            100.0 * double(composite.grid().cellCount()) / double(domain.cellCount()),
            rd.iterations, rc.iterations, dm, cm, cm / dm,
            norm > 0 ? 100.0 * std::sqrt(diff / norm) : 0.0);
        std::fflush(stdout);
    }
    return 0;
}

} // namespace plume::bench
