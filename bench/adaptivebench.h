#pragma once

namespace plume::bench {

/// plume-bench --adaptive: the built-in 3D plume at `resolution`^3, dense and adaptive
/// (docs/adaptive.md) advanced frame by frame side by side in one run. Prints per frame the
/// share of cells holding smoke, the adaptive box's share of the domain, each solver's ms per
/// step and their ratio, and the L1 distance of the densities relative to the dense total;
/// then, at the first frame whose smoke fills at least `fill` of the domain, the median
/// ratio over the five frames around it and the L1 there. Returns the exit code.
int runAdaptiveBench(int resolution, int frames, double fill);

} // namespace plume::bench
