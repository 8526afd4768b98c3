// SPDX-License-Identifier: Apache-2.0
#include "ensemblebench.h"

#include <core/io/scenereader.h>
#include <core/scene/builtinscene.h>
#include <core/scene/scenesimulation.h>
#include <core/sim/run/plumeintegrals.h>
#include <core/sim/smoke/adaptivedomain.h>
#include <core/sim/smoke/smokesolver.h>
#include <core/sim/smoke/tiledsmoke.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace plume::bench {

namespace {

using sim::Integral;

/// The parameters the members perturb, in the order the members take them.
enum class Knob { Confinement, Buoyancy, EmitterDensity, EmitterTemperature };
constexpr int kKnobs = 4;

/// The first enabled emitter of a scene, or null.
Item *firstEmitter(Scene &scene)
{
    for (Item &item : scene.items) {
        if (item.enabled && item.kind == ItemKind::Emitter)
            return &item;
    }
    return nullptr;
}

/// Scales one parameter of `scene` by `factor`; returns its name ("confinement x 1.001"), or
/// an empty string when the scene has nothing to scale (no emitter).
std::string perturb(Scene &scene, Knob knob, double factor)
{
    char by[32];
    std::snprintf(by, sizeof by, " x %.6g", factor);
    sim::SimParams &p = scene.simulation.params;
    Item *emitter = firstEmitter(scene);
    switch (knob) {
    case Knob::Confinement:
        p.vorticity = float(p.vorticity * factor);
        return std::string("confinement") + by + (p.vorticity == 0.f ? " (0: no change)" : "");
    case Knob::Buoyancy:
        p.buoyancyTemperature = float(p.buoyancyTemperature * factor);
        return std::string("buoyancy") + by;
    case Knob::EmitterDensity:
        if (!emitter)
            return {};
        emitter->emitter.density = float(emitter->emitter.density * factor);
        return "'" + emitter->name + "' density rate" + by;
    case Knob::EmitterTemperature:
        if (!emitter)
            return {};
        emitter->emitter.temperature = float(emitter->emitter.temperature * factor);
        return "'" + emitter->name + "' temperature rate" + by;
    }
    return {};
}

/// One run's integrals per frame (frame n at index n - 1).
struct Run
{
    std::string name;
    std::vector<sim::PlumeIntegrals> frames;
    std::vector<double> boxShare;       ///< the adaptive run: its box's share of the domain
    std::vector<double> kineticInBoxes; ///< the dense run: its kinetic energy in those boxes
    double seconds = 0;
    sim::Domain domain; ///< the grid the integrals were taken on
};

/// The frame's integrals of a smoke solver, dense or adaptive; `box` is set to the cells it
/// simulated. The adaptive domain's kinetic energy is its box's: the far field's coarse flow
/// outside it is not counted (the solver does not hand it out).
sim::Status integralsOf(const sim::Solver &solver, sim::ScalarGrid &density,
                        sim::PlumeIntegrals &out, sim::CellBox &box)
{
    const sim::Domain &domain = solver.domain();
    solver.sample(sim::FieldKind::Density, density);
    out = sim::densityIntegrals(domain, density);
    if (const auto *dense = dynamic_cast<const sim::SmokeSolver *>(&solver)) {
        out.kineticEnergy = sim::kineticEnergy(dense->velocity(), domain.cellSize);
        box = {{0, 0, 0}, domain.cells};
    } else if (const auto *tiled = dynamic_cast<const sim::TiledSmokeSolver *>(&solver)) {
        // Active tiles: the velocity over the whole room (the far field interpolated).
        out.kineticEnergy = sim::kineticEnergy(tiled->inner().velocity(), domain.cellSize);
        box = {{0, 0, 0}, domain.cells};
    } else if (const auto *boxed = dynamic_cast<const sim::AdaptiveDomainSolver *>(&solver)) {
        out.kineticEnergy = sim::kineticEnergy(boxed->inner().velocity(), domain.cellSize);
        box = boxed->box();
    } else {
        return sim::Status::failure("the ensemble needs the smoke scheme, without upres");
    }
    return {};
}

/// Simulates `scene` over `frames` frames into `run`. With `boxes` (the adaptive run's, per
/// frame), also the kinetic energy inside them.
sim::Status simulate(const Scene &scene, int frames, Run &run,
                     const std::vector<sim::CellBox> *boxes, std::vector<sim::CellBox> *boxesOut)
{
    const auto start = std::chrono::steady_clock::now();
    SceneSimulation simulation;
    if (sim::Status st = simulation.setScene(scene); !st)
        return st;
    sim::ScalarGrid density;
    for (int n = 1; n <= frames; ++n) {
        const sim::FrameStats stats = simulation.advance(scene.simulation.frameStart + n - 1);
        if (!stats.status)
            return stats.status;
        sim::PlumeIntegrals p;
        sim::CellBox box;
        if (sim::Status st = integralsOf(simulation.solver(), density, p, box); !st)
            return st;
        const sim::Domain &domain = simulation.solver().domain();
        run.domain = domain;
        run.boxShare.push_back(double(box.volume()) / double(domain.cellCount()));
        if (boxesOut)
            boxesOut->push_back(box);
        if (boxes) {
            const auto *dense = dynamic_cast<const sim::SmokeSolver *>(&simulation.solver());
            run.kineticInBoxes.push_back(dense ? sim::kineticEnergy(dense->velocity(),
                                                                    domain.cellSize,
                                                                    (*boxes)[std::size_t(n - 1)])
                                               : 0.0);
        }
        run.frames.push_back(std::move(p));
        std::fprintf(stderr, "\r%s: frame %d/%d", run.name.c_str(), n, frames);
        std::fflush(stderr);
    }
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::fprintf(stderr, "\r%s: %d frames in %.0f s\n", run.name.c_str(), frames, run.seconds);
    return {};
}

/// A value as the tables print it: lengths to 1e-4 world units, amounts to 5 digits.
std::string format(Integral integral, double v)
{
    char s[32];
    switch (integral) {
    case Integral::TotalSmoke:
    case Integral::KineticEnergy: std::snprintf(s, sizeof s, "%.5g", v); break;
    default: std::snprintf(s, sizeof s, "%.4f", v); break;
    }
    return s;
}

/// The ensemble's range of an integral, in the unit of the spread table: per cent of the mean
/// for amounts, cells for lengths, the largest leave-one-out L1 (per cent) for the profile.
double spreadOf(const sim::IntegralCheck &c, Integral integral, float cellSize)
{
    switch (integral) {
    case Integral::TotalSmoke:
    case Integral::KineticEnergy: {
        const double mean = 0.5 * (c.min + c.max);
        return mean != 0 ? 100 * (c.max - c.min) / std::abs(mean) : 0.0;
    }
    case Integral::Profile: return 100 * c.max;
    default: return (c.max - c.min) / cellSize;
    }
}

/// How far a check's value lies outside the members' range, in ranges (0 inside it).
double excess(const sim::IntegralCheck &c, Integral integral)
{
    if (integral == Integral::Profile)
        return c.max > 0 ? std::max(0.0, c.value - c.max) / c.max : 0.0;
    const double range = c.max - c.min;
    const double out = std::max({0.0, c.min - c.value, c.value - c.max});
    return range > 0 ? out / range : (out > 0 ? INFINITY : 0.0);
}

/// The scene: a file (at `resolution` cells on its long axis when > 0) or the built-in plume.
bool loadScene(const std::string &sceneFile, int resolution, Scene &scene)
{
    if (sceneFile.empty()) {
        BuiltinOptions options;
        options.resolution = resolution > 0 ? resolution : 128;
        options.threeD = true;
        auto builtin = makeBuiltinScene("plume", options);
        if (!builtin) {
            std::fprintf(stderr, "plume-bench: %s\n", builtin.error().c_str());
            return false;
        }
        scene = builtin.take();
        return true;
    }
    const SceneReadResult read = readSceneFile(QString::fromStdString(sceneFile));
    if (!read.ok) {
        std::fprintf(stderr, "plume-bench: %s\n", read.error.c_str());
        return false;
    }
    scene = read.scene;
    if (resolution > 0)
        scene.domain.resolution = resolution;
    return true;
}

} // namespace

int runEnsembleBench(const std::string &sceneFile, int resolution, int frames, int members,
                     double eps, bool tiles)
{
    Scene scene;
    if (!loadScene(sceneFile, resolution, scene))
        return 1;
    members = std::clamp(members, 2, 2 * kKnobs);
    if (scene.simulation.params.upres.factor > 1) {
        std::printf("upres off: the integrals are taken on the simulation grid\n");
        scene.simulation.params.upres.factor = 1;
    }
    const sim::EnsembleTolerance tolerance;

    // The runs, in the order they are simulated: adaptive, dense, perturbed members.
    std::vector<Run> runs(std::size_t(members) + 2);
    std::vector<Scene> scenes(runs.size(), scene);
    runs[0].name = tiles ? "active tiles" : "adaptive";
    scenes[0].simulation.params.adaptiveDomain = !tiles;
    scenes[0].simulation.params.activeTiles = tiles;
    runs[1].name = "dense";
    for (int m = 0; m < members; ++m) {
        Scene &s = scenes[std::size_t(m) + 2];
        const double factor = m < kKnobs ? 1 + eps : 1 - eps;
        const std::string name = perturb(s, Knob(m % kKnobs), factor);
        if (name.empty()) {
            std::fprintf(stderr, "plume-bench: the scene has no emitter to perturb\n");
            return 1;
        }
        runs[std::size_t(m) + 2].name = "dense, " + name;
    }
    for (std::size_t r = 1; r < scenes.size(); ++r)
        scenes[r].simulation.params.adaptiveDomain = false;

    std::vector<sim::CellBox> boxes;
    for (std::size_t r = 0; r < runs.size(); ++r) {
        const sim::Status st = simulate(scenes[r], frames, runs[r], r == 1 ? &boxes : nullptr,
                                        r == 0 ? &boxes : nullptr);
        if (!st) {
            std::fprintf(stderr, "\nplume-bench: %s: %s\n", runs[r].name.c_str(), st.error.c_str());
            return 1;
        }
    }

    const sim::Domain domain = runs[1].domain;
    const float h = domain.cellSize;

    const std::string what = sceneFile.empty() ? "built-in 3D plume" : sceneFile;
    std::printf("%s, %d x %d x %d cells, %d frames; ensemble: the dense solve and %d perturbed "
                "copies (eps %g)\n\n",
                what.c_str(), domain.cells.x, domain.cells.y, domain.cells.z, frames, members, eps);
    for (const Run &run : runs)
        std::printf("- %s: %.0f s\n", run.name.c_str(), run.seconds);
    std::printf("\nEach cell: the %s run's value [the ensemble's min, max]; '!' outside "
                "[min - %g R - floor, max + %g R + floor], R = max - min, floor %g of the "
                "scale. Profile L1: its L1 distance to the ensemble's mean "
                "profile [the members' leave-one-out distances], bound %g x max + %g. Frames "
                "%d-%d are judged. %s\n\n",
                runs[0].name.c_str(), tolerance.rangeMargin, tolerance.rangeMargin,
                tolerance.relativeFloor, 1 + tolerance.rangeMargin, tolerance.relativeFloor,
                tolerance.firstFrame, tolerance.lastFrame,
                tiles ? "Its kinetic energy is over the whole room (the far field interpolated)."
                      : "Its kinetic energy is its box's: the far field's coarse flow is not "
                        "handed out.");

    const std::vector<std::vector<sim::PlumeIntegrals>> ensemble = [&] {
        std::vector<std::vector<sim::PlumeIntegrals>> e;
        for (std::size_t r = 1; r < runs.size(); ++r)
            e.push_back(runs[r].frames);
        return e;
    }();
    std::printf("| frame | box |");
    for (int i = 0; i < sim::kIntegralCount; ++i)
        std::printf(" %s |", sim::toString(Integral(i)));
    std::printf(" outside |\n|---|---|");
    for (int i = 0; i <= sim::kIntegralCount; ++i)
        std::printf("---|");
    std::printf("\n");
    std::vector<sim::FrameCheck> checks;
    std::vector<sim::PlumeIntegrals> now(ensemble.size());
    for (int f = 1; f <= frames; ++f) {
        for (std::size_t r = 0; r < ensemble.size(); ++r)
            now[r] = ensemble[r][std::size_t(f - 1)];
        sim::FrameCheck c = sim::checkFrame(domain, now, runs[0].frames[std::size_t(f - 1)],
                                            tolerance);
        c.frame = f;
        checks.push_back(c);
        const bool judged = f >= tolerance.firstFrame && f <= tolerance.lastFrame;
        std::printf("| %d | %.1f %% |", f, 100 * runs[0].boxShare[std::size_t(f - 1)]);
        std::string outside;
        for (int i = 0; i < sim::kIntegralCount; ++i) {
            const Integral integral = Integral(i);
            const sim::IntegralCheck &k = c[integral];
            std::printf(" %s [%s, %s]%s |", format(integral, k.value).c_str(),
                        format(integral, k.min).c_str(), format(integral, k.max).c_str(),
                        k.inside ? "" : "!");
            if (!k.inside)
                outside += (outside.empty() ? "" : ", ") + std::string(sim::toString(integral));
        }
        std::printf(" %s |\n", !judged ? "(not judged)" : outside.empty() ? "-" : outside.c_str());
    }

    // The verdict over the judged frames, per integral.
    const sim::EnsembleVerdict verdict = sim::compareWithEnsemble(domain, ensemble, runs[0].frames,
                                                                  tolerance);
    std::printf("\n| integral | frames outside | first outside | largest excess (ranges) |\n"
                "|---|---|---|---|\n");
    for (int i = 0; i < sim::kIntegralCount; ++i) {
        const Integral integral = Integral(i);
        int count = 0, first = 0;
        double worst = 0;
        for (const sim::FrameCheck &c : verdict.frames) {
            if (!c[integral].inside) {
                ++count;
                first = first ? first : c.frame;
            }
            worst = std::max(worst, excess(c[integral], integral));
        }
        std::printf("| %s | %d of %zu | %s | %.3g |\n", sim::toString(integral), count,
                    verdict.frames.size(), first ? std::to_string(first).c_str() : "-", worst);
    }
    if (verdict.frames.empty())
        std::printf("\nverdict: no frame in %d-%d was simulated\n", tolerance.firstFrame,
                    tolerance.lastFrame);
    else
        std::printf("\nverdict: the %s run %s (%d of %zu checks outside, frames %d-%d)\n",
                    runs[0].name.c_str(), verdict.inside() ? "PASSES" : "FAILS", verdict.outside,
                    verdict.frames.size() * sim::kIntegralCount, verdict.frames.front().frame,
                    verdict.frames.back().frame);

    // Each ensemble run against the others: how often the metric fails a dense run.
    std::printf("\nEach dense run against the other %zu:\n\n| run | checks outside | "
                "integrals |\n|---|---|---|\n",
                ensemble.size() - 1);
    for (std::size_t e = 0; e < ensemble.size(); ++e) {
        std::vector<std::vector<sim::PlumeIntegrals>> others;
        for (std::size_t o = 0; o < ensemble.size(); ++o) {
            if (o != e)
                others.push_back(ensemble[o]);
        }
        const sim::EnsembleVerdict v = sim::compareWithEnsemble(domain, others, ensemble[e],
                                                                tolerance);
        std::string which;
        for (int i = 0; i < sim::kIntegralCount; ++i) {
            int count = 0;
            for (const sim::FrameCheck &c : v.frames)
                count += c[Integral(i)].inside ? 0 : 1;
            if (count > 0)
                which += (which.empty() ? "" : ", ") + std::string(sim::toString(Integral(i)))
                         + " (" + std::to_string(count) + ")";
        }
        std::printf("| %s | %d | %s |\n", runs[e + 1].name.c_str(), v.outside,
                    which.empty() ? "-" : which.c_str());
    }

    // The spread: each integral's ensemble range.
    std::printf("\nThe ensemble's spread (max - min: per cent of the mean for amounts, cells "
                "for lengths; profile: the largest leave-one-out L1, per cent), and the dense "
                "solve's kinetic energy inside the adaptive box:\n\n| frame |");
    for (int i = 0; i < sim::kIntegralCount; ++i)
        std::printf(" %s |", sim::toString(Integral(i)));
    std::printf(" dense KE in box |\n|---|");
    for (int i = 0; i <= sim::kIntegralCount; ++i)
        std::printf("---|");
    std::printf("\n");
    for (const sim::FrameCheck &c : checks) {
        std::printf("| %d |", c.frame);
        for (int i = 0; i < sim::kIntegralCount; ++i)
            std::printf(" %.3g |", spreadOf(c[Integral(i)], Integral(i), h));
        const double ke = runs[1].frames[std::size_t(c.frame - 1)].kineticEnergy;
        const double inBox = runs[1].kineticInBoxes[std::size_t(c.frame - 1)];
        std::printf(" %.1f %% |\n", ke > 0 ? 100 * inBox / ke : 0.0);
    }
    return 0;
}

} // namespace plume::bench
