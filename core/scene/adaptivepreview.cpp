// SPDX-License-Identifier: Apache-2.0
#include <core/scene/adaptivepreview.h>

#include <core/scene/scenesimulation.h>

#include <core/sim/run/memoryestimate.h>
#include <core/sim/smoke/adaptivedomain.h>

#include <algorithm>
#include <cmath>

namespace plume {

sim::Status previewAdaptive(const Scene &scene, AdaptivePreview &out, int resolution)
{
    if (!sim::usesAdaptiveDomain(scene.simulation.params))
        return sim::Status::failure("the scene does not use the adaptive domain");
    Scene small = scene;
    small.domain.resolution = std::clamp(resolution, 8, scene.domain.resolution);
    SceneSimulation simulation;
    if (sim::Status st = simulation.setScene(small); !st)
        return st;
    const sim::Domain fine = makeDomain(scene.domain);
    const sim::Domain &coarse = simulation.solver().domain();
    // The box's padding past the smoke: the margin and, on average, half a tile of snapping.
    const float pad = float(sim::AdaptiveDomainSolver::kMargin)
                      + 0.5f * sim::AdaptiveDomainSolver::kTile;
    const float padCoarse = pad * coarse.cellSize;
    const float padFine = pad * fine.cellSize;
    out = {};
    out.resolution = small.domain.resolution;
    std::int64_t peakCells = 0;
    const int last = int(
        std::min<std::int64_t>(scene.simulation.frameEnd, std::int64_t(scene.simulation.frameStart)
                                                              + AdaptivePreview::kMaxFrames - 1));
    for (int f = scene.simulation.frameStart; f <= last; ++f) {
        const sim::FrameStats stats = simulation.advance(f);
        if (!stats.status)
            return stats.status;
        ++out.frames;
        const sim::CellBox b = simulation.solver().fieldBox();
        sim::CellBox box{{0, 0, 0}, {1, 1, 1}};
        for (int a = 0; a < fine.dimensions(); ++a) {
            float lo = coarse.origin[a] + float(b.lo[a]) * coarse.cellSize;
            float hi = coarse.origin[a] + float(b.hi[a]) * coarse.cellSize;
            if (b.lo[a] > 0)
                lo += padCoarse - padFine;
            if (b.hi[a] < coarse.cells[a])
                hi -= padCoarse - padFine;
            const float n = float(fine.cells[a]);
            box.lo[a] = int(std::clamp(std::floor((lo - fine.origin[a]) / fine.cellSize), 0.f, n));
            box.hi[a] = int(
                std::clamp(std::ceil((hi - fine.origin[a]) / fine.cellSize), float(box.lo[a]), n));
        }
        if (box.volume() > peakCells) {
            peakCells = box.volume();
            out.peakFrame = f;
        }
    }
    out.peakShare = double(peakCells) / double(fine.cellCount());
    out.solverBytes = sim::adaptiveMemoryBytes(fine, peakCells);
    out.bytes = out.solverBytes
                + std::uint64_t(peakCells) * AdaptivePreview::kExportedFields * sizeof(float);
    return sim::Status::success();
}

} // namespace plume
