// SPDX-License-Identifier: Apache-2.0
#include "adaptivebench.h"

#include <core/scene/builtinscene.h>
#include <core/scene/scenesimulation.h>
#include <core/sim/smoke/adaptivedomain.h>
#include <core/sim/smoke/tiledsmoke.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace plume::bench {

namespace {

struct Row
{
    double fill = 0, smokeTiles = 0, box = 0, denseMs = 0, adaptiveMs = 0, l1 = 0, perturbedL1 = 0;
};

/// L1 distance of b from a, relative to a's total; with `smoky`, the cells of a holding smoke.
double relativeL1(const sim::ScalarGrid &a, const sim::ScalarGrid &b, std::size_t *smoky = nullptr)
{
    double diff = 0, total = 0;
    std::size_t count = 0;
    for (std::size_t n = 0; n < a.count(); ++n) {
        diff += std::abs(double(a[n]) - double(b[n]));
        total += std::abs(double(a[n]));
        count += a[n] > sim::AdaptiveDomainSolver::kActiveThreshold ? 1 : 0;
    }
    if (smoky)
        *smoky = count;
    return total > 0 ? diff / total : 0;
}

} // namespace

int runAdaptiveBench(int resolution, int frames, double fill, double perturb, bool tiles,
                     double vorticityShare, int lifetime)
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
    SceneSimulation dense, adaptive, perturbed;
    scene.simulation.params.adaptiveDomain = false;
    sim::Status st = dense.setScene(scene);
    if (st && perturb > 0) {
        Scene nudged = scene;
        nudged.simulation.params.vorticity *= float(1.0 + perturb);
        st = perturbed.setScene(nudged);
    }
    scene.simulation.params.adaptiveDomain = !tiles;
    scene.simulation.params.activeTiles = tiles;
    if (st)
        st = adaptive.setScene(scene);
    if (!st) {
        std::fprintf(stderr, "plume-bench: %s\n", st.error.c_str());
        return 1;
    }
    const bool made = tiles ? dynamic_cast<const sim::TiledSmokeSolver *>(&adaptive.solver())
                                  != nullptr
                            : dynamic_cast<const sim::AdaptiveDomainSolver *>(&adaptive.solver())
                                  != nullptr;
    if (!builtin) {
        std::fprintf(stderr, "plume-bench: the %s setting made no such solver\n",
                     tiles ? "active-tiles" : "adaptive");
        return 1;
    }
    scene = builtin.take();
    if (auto *t = dynamic_cast<sim::TiledSmokeSolver *>(&adaptive.simulation().solver())) {
        if (vorticityShare >= 0.0) {
            t->setVorticityShare(vorticityShare);
            std::printf("tiles: vorticity above %g of the largest\n", t->vorticityShare());
        }
        if (lifetime >= 0) {
            t->setLifetime(lifetime);
            std::printf("tiles: a lifetime of %d steps\n", t->lifetime());
        }
    }
    const char *what = tiles ? "active tiles" : "adaptive";
    const double cells = double(dense.solver().domain().cellCount());
    std::printf("built-in 3D plume, %d^3 cells, dense and %s side by side\n\n", resolution, what);
    if (perturb > 0)
        std::printf("L1 dense': a dense solve with the vorticity confinement x (1 + %g)\n\n",
                    perturb);
    std::printf("| frame | smoke fills |%s %s | dense ms/step | %s ms/step | ratio | L1 |%s\n"
                "|---|---|---|---|---|---|---|%s%s\n",
                tiles ? " smoke's tiles |" : "", tiles ? "tiles" : "box", what,
                perturb > 0 ? " L1 dense' |" : "", tiles ? "---|" : "", perturb > 0 ? "---|" : "");
    const sim::TileGrid tileGrid = sim::TileGrid::of(dense.solver().domain());
    std::vector<Row> rows;
    sim::ScalarGrid a, b;
    for (int f = 1; f <= frames; ++f) {
        const sim::FrameStats sd = dense.advance(f);
        const sim::FrameStats sa = adaptive.advance(f);
        if (!sd.status || !sa.status) {
            std::fprintf(stderr, "plume-bench: %s\n",
                         (!sd.status ? sd.status : sa.status).error.c_str());
            return 1;
        }
        dense.solver().sample(sim::FieldKind::Density, a);
        adaptive.solver().sample(sim::FieldKind::Density, b);
        std::size_t smoky = 0;
        Row r;
        r.l1 = relativeL1(a, b, &smoky);
        if (perturb > 0) {
            const sim::FrameStats sp = perturbed.advance(f);
            if (!sp.status) {
                std::fprintf(stderr, "plume-bench: %s\n", sp.status.error.c_str());
                return 1;
            }
            perturbed.solver().sample(sim::FieldKind::Density, b);
            r.perturbedL1 = relativeL1(a, b);
        }
        r.fill = double(smoky) / cells;
        if (tiles) { // the tiles that hold smoke, unpadded
            const sim::ScalarGrid *smoke[] = {&a};
            const std::vector<sim::CellBox> seeds =
                sim::seedBoxes(tileGrid, smoke, sim::AdaptiveDomainSolver::kActiveThreshold);
            double inTiles = 0;
            for (std::size_t t = 0; t < seeds.size(); ++t)
                if (!seeds[t].empty())
                    inTiles += double(tileGrid.cellsOf(t).volume());
            r.smokeTiles = inTiles / cells;
        }
        r.box = adaptive.solver().activeShare();
        r.denseMs = sd.milliseconds / std::max(1, sd.substeps);
        r.adaptiveMs = sa.milliseconds / std::max(1, sa.substeps);
        rows.push_back(r);
        std::printf("| %d | %.1f %% |", f, 100 * r.fill);
        if (tiles)
            std::printf(" %.1f %% |", 100 * r.smokeTiles);
        std::printf(" %.1f %% | %.1f | %.1f | %.2f | %.3f %% |", 100 * r.box, r.denseMs,
                    r.adaptiveMs, r.adaptiveMs / r.denseMs, 100 * r.l1);
        if (perturb > 0)
            std::printf(" %.3f %% |", 100 * r.perturbedL1);
        std::printf("\n");
        std::fflush(stdout);
    }
    std::vector<double> all;
    for (const Row &r : rows)
        all.push_back(r.adaptiveMs / r.denseMs);
    std::sort(all.begin(), all.end());
    std::printf("\nmedian ratio over %d frames: %.2f\n", frames, all[all.size() / 2]);
    const auto at = std::find_if(rows.begin(), rows.end(),
                                 [&](const Row &r) { return r.fill >= fill; });
    if (at == rows.end()) {
        std::printf("the smoke never fills %.0f %% of the domain in %d frames\n", 100 * fill,
                    frames);
        return 0;
    }
    const std::ptrdiff_t f = at - rows.begin();
    std::vector<double> around;
    for (std::ptrdiff_t g = std::max<std::ptrdiff_t>(0, f - 2);
         g <= std::min<std::ptrdiff_t>(std::ptrdiff_t(rows.size()) - 1, f + 2); ++g)
        around.push_back(rows[std::size_t(g)].adaptiveMs / rows[std::size_t(g)].denseMs);
    std::sort(around.begin(), around.end());
    std::printf("smoke fills %.1f %% at frame %td: median ratio %.2f over frames %td-%td, %s "
                "%.1f %%, L1 %.3f %%",
                100 * at->fill, f + 1, around[around.size() / 2],
                std::max<std::ptrdiff_t>(1, f - 1),
                std::min<std::ptrdiff_t>(std::ptrdiff_t(rows.size()), f + 3),
                tiles ? "tiles" : "box", 100 * at->box, 100 * at->l1);
    if (perturb > 0)
        std::printf(" (perturbed dense solve: %.3f %%)", 100 * at->perturbedL1);
    std::printf("\n");
    return 0;
}

} // namespace plume::bench
