// SPDX-License-Identifier: Apache-2.0
#pragma once

// Flow maps (docs/liquid-textures.md): the time-averaged velocity of a 2D simulation as an
// RG texture for shaders that distort any texture along the flow (Vlachos, "Water Flow in
// Portal 2", SIGGRAPH 2010).

#include <core/sim/base/solver.h>
#include <core/sim/base/types.h>

#include <QImage>

#include <string>
#include <vector>

namespace plume {

/// Sums a 2D simulation's cell-centred velocity over frames, in a fixed order (the average does
/// not depend on the thread count).
class FlowMapAccumulator
{
public:
    /// Adds the solver's current velocity (the first call fixes the size). A frame of another
    /// size is refused.
    sim::Status add(const sim::Solver &solver);
    int frames() const { return mFrames; }
    sim::Int3 cells() const { return mCells; }
    /// The mean velocity (world units / s) of cell (i, j) along x (axis 0) or y (axis 1).
    float mean(int axis, int i, int j) const;
    /// The largest speed of the mean velocity; 0 when nothing moves (or no frame was added).
    float maxSpeed() const;

private:
    sim::Int3 mCells{0, 0, 0};
    int mFrames = 0;
    std::vector<double> mSum[2];
    sim::ScalarGrid mScratch;
};

/// The flow map image, one pixel per cell, row 0 at the domain's top (highest y):
/// R = 0.5 + 0.5 vx / vmax, G = 0.5 + 0.5 vy / vmax (+y up), B = |v| / vmax, A = 1, 8 bits,
/// with vmax = maxSpeed() (every pixel 0.5, 0.5, 0 when nothing moves). Null when empty.
QImage flowMapImage(const FlowMapAccumulator &flow);

/// Decodes a flow map pixel channel (0..255) back to velocity: v = (c / 255 * 2 - 1) * vmax.
float decodeFlowMap(int channel, float vmax);

/// What the sidecar records.
struct FlowMapInfo
{
    std::string sceneName;
    int firstFrame = 1; ///< the frames averaged, inclusive
    int lastFrame = 1;
    double cellSize = 1.0; ///< world units per pixel
    std::string plumeVersion;
};

/// Writes <directory>/<baseName>.png and <baseName>.json (vmax, encoding, frames, domain),
/// both complete or neither. `written` gets the paths.
sim::Status writeFlowMap(const FlowMapAccumulator &flow, const FlowMapInfo &info,
                         const std::string &directory, const std::string &baseName,
                         std::vector<std::string> &written);

} // namespace plume
