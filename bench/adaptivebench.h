// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace plume::bench {

/// plume-bench --adaptive: the built-in 3D plume at `resolution`^3, dense and adaptive
/// (docs/adaptive.md) advanced frame by frame side by side in one run. Prints per frame the
/// share of cells holding smoke, the adaptive box's share of the domain, each solver's ms per
/// step and their ratio, and the L1 distance of the densities relative to the dense total;
/// then, at the first frame whose smoke fills at least `fill` of the domain, the median
/// ratio over the five frames around it and the L1 there. With `perturb` > 0 a third solve, dense
/// with the vorticity confinement scaled by 1 + perturb, gives each frame a second L1 against
/// the dense solve: how far two dense solves that differ by almost nothing drift apart, the
/// floor for any other method's L1 once the flow amplifies small differences. Returns the exit
/// code. With `tiles` (plume-bench --sparse) the second solve uses active tiles
/// (tiledsmoke.h) instead of the adaptive box; `vorticityShare` in [0, 1] replaces the tiles'
/// TiledSmokeSolver::kVorticityShare (0: smoke alone makes tiles active), negative keeps it;
/// `lifetime` >= 0 replaces TiledSmokeSolver::kLifetime. With tiles, each row also gives the
/// share of the domain in the 8^3 tiles that hold the dense solve's smoke (no padding): the
/// least any scheme on such tiles can work on.
int runAdaptiveBench(int resolution, int frames, double fill, double perturb = 0.0,
                     bool tiles = false, double vorticityShare = -1.0, int lifetime = -1);

} // namespace plume::bench
