// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/scene/scene.h>

#include <core/sim/base/types.h>

#include <cstdint>

namespace plume {

/// What the adaptive domain (docs/adaptive.md) will need for a scene, from a preview: the scene
/// simulated at a coarse resolution over its frame range with the adaptive domain, its box
/// followed frame by frame and carried over to the scene's resolution (the preview's margins
/// taken off, the scene's put on).
struct AdaptivePreview
{
    int resolution = 0;            ///< the preview's, cells along the longest axis
    int frames = 0;                ///< frames simulated
    double peakShare = 0.0;        ///< the largest share of the domain the box is expected to take
    int peakFrame = 0;             ///< the frame where it does
    std::uint64_t bytes = 0;       ///< a bake's memory with that box (kExportedFields samples)
    std::uint64_t solverBytes = 0; ///< sim::adaptiveMemoryBytes with that box

    /// The bake samples density, temperature and three velocity components over the box.
    static constexpr int kExportedFields = 5;
    /// At most this many frames are previewed (a few seconds), the first of the scene's range.
    static constexpr int kMaxFrames = 480;
};

/// Runs the preview of an adaptive smoke scene at `resolution` cells along the longest axis
/// (the scene's own when smaller), over the first AdaptivePreview::kMaxFrames frames of its
/// range at most. Refused for other scenes; a failed frame is named.
sim::Status previewAdaptive(const Scene &scene, AdaptivePreview &out, int resolution = 64);

} // namespace plume
