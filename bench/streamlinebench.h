#pragma once

namespace plume::bench {

/// plume-bench --streamlines: milliseconds to place and trace the view's streamlines
/// (render/streamlines.h, viewStreamlineOptions) in the built-in 2D plume after `frames`
/// frames, at 128^2, 256^2 and 512^2 (medians of `repeats` runs; serial, as the view runs
/// them). Returns the exit code.
int runStreamlineBench(int frames, int repeats);

} // namespace plume::bench
