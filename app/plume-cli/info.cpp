// SPDX-License-Identifier: Apache-2.0
#include <app/plume-cli/commands.h>

#include <app/plume-cli/common.h>

#include <core/scene/adaptivepreview.h>
#include <core/scene/rasterize.h>
#include <core/sim/run/memoryestimate.h>
#include <core/sim/sph/sphsolver.h>
#include <core/sim/upres/upressolver.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

namespace plume::cli {

namespace {

/// The sph scheme's particles: what the fill emitters make at their start and the hoses pour
/// per second, each from its coverage at its first active frame (docs/sph.md).
void printParticleEstimate(const plume::Scene &scene, const plume::sim::Domain &domain)
{
    const plume::SimulationSettings &s = scene.simulation;
    const plume::sim::SphSettings &l = s.params.sph;
    const float spacing = l.spacing * domain.cellSize;
    double filled = 0.0, perSecond = 0.0;
    for (const plume::Item &item : scene.items) {
        if (item.kind != plume::ItemKind::Emitter || !item.enabled
            || item.emitter.liquid == plume::sim::LiquidMode::None)
            continue;
        plume::Scene alone = scene;
        alone.items = {item};
        const double frame = std::max(item.activeStart, double(s.frameStart));
        plume::SceneSetup setup;
        if (!plume::rasterizeScene(alone, frame, setup) || setup.emitters.empty())
            continue;
        const double sites = double(
            plume::sim::sphLatticeSites(domain, spacing, setup.emitters.front().mask).size());
        if (item.emitter.liquid == plume::sim::LiquidMode::Fill)
            filled += sites;
        else
            perSecond += sites * item.emitter.rate.at(frame);
    }
    const double seconds = double(s.frameEnd - s.frameStart + 1) / s.time.frameRate;
    const double most = std::min(double(l.maxParticles), filled + perSecond * seconds);
    std::printf("particles:  %.0f filled, %.0f poured per second: up to %.0f by frame %d "
                "(spacing %g, %s; at most %d)\n",
                filled, perSecond, most, s.frameEnd, spacing,
                plume::sim::formatBytes(
                    std::uint64_t(most * plume::sim::SphSolver::kBytesPerParticle))
                    .c_str(),
                l.maxParticles);
}

/// "temperature 0.1..1" (and the ramp's keys when it is not the identity), or "none".
std::string describeMask(const plume::sim::ControlMask &m)
{
    if (!m.active())
        return "none";
    char text[96];
    std::snprintf(text, sizeof text, "%s %g..%g", plume::sim::toString(m.field), double(m.from),
                  double(m.to));
    std::string out = text;
    if (m.ramp != plume::sim::Ramp{}) {
        out += ", ramp";
        for (const plume::sim::RampKey &k : m.ramp.keys) {
            std::snprintf(text, sizeof text, " (%g, %g)", double(k.position), double(k.value));
            out += text;
        }
    }
    return out;
}

/// The shaping controls (docs/look.md) of an item: an emitter's noise, a disturbance's blocks
/// and refreshes, a shredding field, and any field's mask. Nothing for the others, so their lines
/// stay as they were.
void printShaping(const plume::Item &item, float cellSize)
{
    if (item.kind == plume::ItemKind::Emitter && item.emitter.noise.isSet()) {
        const plume::EmitterNoiseSettings &n = item.emitter.noise;
        std::printf("           noise: size %g units (%.1f cells), amplitude %g%s, speed %g "
                    "periods/s, seed %u\n",
                    double(n.size), double(n.size / cellSize), double(n.amplitude.value),
                    n.amplitude.isAnimated() ? " (keyed)" : "", double(n.speed), unsigned(n.seed));
        return;
    }
    if (item.kind != plume::ItemKind::ForceField)
        return;
    const plume::ForceSettings &f = item.force;
    if (f.type == plume::sim::ForceType::Disturbance)
        std::printf("           disturbance: blocks of %g units, %g refreshes/s, strength %g "
                    "units/s^2%s, mask %s\n",
                    double(f.scale), double(f.timeScale), double(f.strength.value),
                    f.strength.isAnimated() ? " (keyed)" : "", describeMask(f.mask).c_str());
    else if (f.type == plume::sim::ForceType::Shredding)
        std::printf("           shredding: strength %g units/s^2%s, edge %g units, mask %s\n",
                    double(f.strength.value), f.strength.isAnimated() ? " (keyed)" : "",
                    double(f.scale), describeMask(f.mask).c_str());
    else if (f.mask.active())
        std::printf("           %s, mask %s\n", plume::sim::toString(f.type),
                    describeMask(f.mask).c_str());
}

} // namespace

int info(const QStringList &arguments)
{
    QCommandLineParser parser;
    if (auto done = parseCommand(parser, arguments, "info",
                                 "Prints a scene's dimension, domain, cells, time settings, "
                                 "items and a memory estimate (for the adaptive domain, from a "
                                 "preview at 64 cells over the scene's frames)."))
        return *done;
    const QString path = parser.positionalArguments()[1];
    std::optional<plume::Scene> scene = loadScene(path, false);
    if (!scene)
        return kExitUsage;
    const plume::DomainSettings &d = scene->domain;
    const plume::sim::Domain domain = plume::makeDomain(d);
    const plume::SimulationSettings &s = scene->simulation;
    std::printf("scene:      %s\n", scene->name.c_str());
    std::printf("dimension:  %s\n", plume::toString(d.dimension));
    std::printf("domain:     %g x %g x %g world units at (%g, %g, %g)\n", d.size.x, d.size.y,
                d.dimension == plume::Dimension::TwoD ? 0.0 : double(d.size.z), d.origin.x,
                d.origin.y, d.origin.z);
    std::printf("cells:      %d x %d x %d = %lld (cell size %g)\n", domain.cells.x, domain.cells.y,
                domain.cells.z, static_cast<long long>(domain.cellCount()), domain.cellSize);
    if (d.preview != plume::PreviewResolution::Full) {
        // The window's alone (docs/preview.md): bakes, this one too, use the cells above.
        const plume::sim::Int3 shown = plume::domainCells(plume::previewDomain(d));
        std::printf(
            "preview:    %s: the window simulates %d x %d x %d; bakes use the cells above\n",
            plume::toString(d.preview), shown.x, shown.y, shown.z);
    }
    std::printf("boundaries: x %s/%s, y %s/%s, z %s/%s\n",
                plume::sim::toString(domain.boundaries[0]),
                plume::sim::toString(domain.boundaries[1]),
                plume::sim::toString(domain.boundaries[2]),
                plume::sim::toString(domain.boundaries[3]),
                plume::sim::toString(domain.boundaries[4]),
                plume::sim::toString(domain.boundaries[5]));
    std::printf("scheme:     %s\n", plume::sim::toString(s.params.scheme));
    if (s.params.scheme == plume::sim::Scheme::Ocean) {
        const plume::sim::OceanSettings &o = s.params.ocean;
        const plume::sim::Vec3 patch = domain.extent();
        std::printf("ocean:      %g x %g m patch, wind %g m/s towards %g degrees, amplitude %g, "
                    "small waves %g m, choppiness %g, seed %u, gravity %g m/s^2\n",
                    patch.x, patch.y, o.windSpeed, o.windDirection, o.amplitude, o.smallWaves,
                    o.choppiness, o.seed, o.gravity);
        const double frames = double(o.loopPeriod) * s.time.frameRate;
        std::printf("loop:       every %g s = %g frames%s\n", o.loopPeriod, frames,
                    frames == std::floor(frames) ? ""
                                                 : " (not a whole number: the loop falls "
                                                   "between frames)");
    }
    std::printf("frames:     %d to %d at %g fps, ", s.frameStart, s.frameEnd, s.time.frameRate);
    if (s.time.cfl > 0.f)
        std::printf("substeps from CFL %g (at most %d)\n", s.time.cfl, s.time.maxSubsteps);
    else
        std::printf("%d substep%s per frame\n", s.time.substeps, s.time.substeps == 1 ? "" : "s");
    const plume::sim::AvailableMemory available = plume::sim::availableMemory();
    const std::string have = available.bytes > 0 ? plume::sim::formatBytes(available.bytes)
                                                 : "unknown";
    const std::string dense = plume::sim::formatBytes(
        plume::sim::solverMemoryBytes(domain, s.params.scheme));
    if (plume::sim::usesAdaptiveDomain(s.params)) {
        // The box's size depends on where the smoke goes: a coarse preview finds out.
        plume::AdaptivePreview preview;
        if (const plume::sim::Status st = plume::previewAdaptive(*scene, preview); !st) {
            std::fprintf(stderr, "plume-cli: %s: the adaptive preview failed: %s\n",
                         qPrintable(path), st.error.c_str());
            return kExitFailure;
        }
        // Like for like: the dense solver's grids and a bake's samples over the whole domain.
        const std::string whole = plume::sim::formatBytes(
            plume::sim::solverMemoryBytes(domain, s.params.scheme)
            + std::uint64_t(domain.cellCount()) * plume::AdaptivePreview::kExportedFields
                  * sizeof(float));
        std::printf("memory:     about %s to bake with the adaptive domain (%s available); the "
                    "whole domain in the box would need %s\n",
                    plume::sim::formatBytes(preview.bytes).c_str(), have.c_str(), whole.c_str());
        const int frames = s.frameEnd - s.frameStart + 1;
        std::printf("adaptive:   on: the solve follows the smoke in a box (docs/adaptive.md); a "
                    "preview at %d cells over %s%d frames puts its peak at %.1f %% of the domain "
                    "(frame %d)%s\n",
                    preview.resolution, preview.frames < frames ? "the first " : "", preview.frames,
                    100.0 * preview.peakShare, preview.peakFrame,
                    preview.frames < frames ? "; the box may grow after them" : "");
    } else {
        std::printf("memory:     about %s for the %s scheme (%s available)\n", dense.c_str(),
                    plume::sim::toString(s.params.scheme), have.c_str());
    }
    if (s.params.scheme == plume::sim::Scheme::Sph)
        printParticleEstimate(*scene, domain);
    if (plume::sim::usesUpres(s.params)) {
        const plume::sim::UpresSettings &u = s.params.upres;
        const plume::sim::Domain fine = plume::sim::UpresSolver::fineDomainOf(domain, u.factor);
        // A bake also samples the exported fields at the fine resolution.
        const std::uint64_t bytes = plume::sim::upresMemoryBytes(domain, u.factor)
                                    + std::uint64_t(fine.cellCount())
                                          * plume::AdaptivePreview::kExportedFields * sizeof(float);
        std::printf("upres:      %dx: %d x %d x %d fine cells of %g units, about %s more to bake; "
                    "turbulence strength %g, noise %g units, lifetime %g s (docs/upres.md)\n",
                    u.factor, fine.cells.x, fine.cells.y, fine.cells.z, double(fine.cellSize),
                    plume::sim::formatBytes(bytes).c_str(), double(u.strength),
                    double(u.noiseWavelength(domain.cellSize)), double(u.lifetime));
    }
    const plume::sim::SimParams &p = s.params;
    if (p.vorticity > 0.f && (p.vorticityLength > 0.f || p.vorticityMask.active()))
        std::printf("confinement: epsilon %g over %g units (%s), mask %s\n", double(p.vorticity),
                    double(p.vorticityLength > 0.f ? p.vorticityLength : domain.cellSize),
                    p.vorticityLength > 0.f ? "vorticityLength" : "the cell size",
                    describeMask(p.vorticityMask).c_str());
    std::printf("items:      %zu\n", scene->items.size());
    for (const plume::Item &item : scene->items) {
        std::printf("  %-8s %-10s %s%s\n", plume::toString(item.kind),
                    plume::toString(item.shape.type), item.name.c_str(),
                    item.enabled ? "" : " (disabled)");
        printShaping(item, domain.cellSize);
    }
    return kExitOk;
}

} // namespace plume::cli
