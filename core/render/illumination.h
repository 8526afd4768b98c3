// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/render/rendersettings.h>

#include <core/sim/base/grid.h>
#include <core/sim/base/types.h>

#include <array>

namespace plume {

/// The light a frame's smoke receives, found once per frame at the cells (docs/render.md) and
/// sampled by every ray-march sample of the CPU renderer and of the volume view's shader:
/// - `sun`: the directional light's transmittance (lightvolume.h) at the density's cells;
/// - `skyUp`, `skyDown`: how much of the sky above and of the ground below a cell sees through
///   the smoke (the transmittance straight up and straight down, softened to stand for a
///   hemisphere: extinction times kSkySoftness);
/// - `emission`: light from emission (fire, hot gas) reaching a cell, per unit albedo, per
///   colour channel, through the smoke between (emissionLight below).
/// The sky and emission grids are coarse: one cell per `coarseFactor`^3 density cells, at most
/// kCoarseCells along an axis; a fine cell-coordinate point p sits at p / coarseFactor in them.
/// Empty grids are parts that are off (no light, no ambient, no emission).
struct Illumination
{
    sim::ScalarGrid sun;
    int coarseFactor = 1;
    sim::ScalarGrid skyUp, skyDown;
    std::array<sim::ScalarGrid, 3> emission;

    bool hasSun() const { return sun.count() != 0; }
    bool hasSky() const { return skyUp.count() != 0; }
    bool hasEmission() const { return emission[0].count() != 0; }
};

/// Longest axis of the coarse grids.
inline constexpr int kCoarseCells = 32;

/// The sky's extinction scale: a hemisphere of paths is lit as a path straight up through
/// this share of the smoke.
inline constexpr float kSkySoftness = 0.5f;

/// What a frame's illumination is computed from (grids of the density's size; absent or empty
/// grids are left out: no solids, no temperature, no flame).
struct IlluminationInput
{
    const sim::ScalarGrid &density;
    const sim::FlagGrid *solids = nullptr;
    const sim::ScalarGrid *temperature = nullptr; ///< above ambient
    const sim::ScalarGrid *flame = nullptr;
};

/// The illumination of a frame under `settings` (cellSize in world units): the sun when
/// lightIntensity > 0, the sky when ambient > 0, emission light when emissionScattering > 0
/// and something glows. The result does not depend on the thread count.
Illumination computeIllumination(const IlluminationInput &in, const RenderSettings &settings,
                                 float cellSize);

/// Fine cells per coarse cell for a grid of `cells`.
int coarseFactor(sim::Int3 cells);

/// Box average of `grid` over blocks of factor^3 cells (a partial block at the far faces
/// averages the cells it has).
sim::ScalarGrid boxDownsample(const sim::ScalarGrid &grid, int factor);

/// Light from an emitting medium reaching each cell, per unit albedo: the mean over directions
/// of the emitted radiance integrated along the ray, attenuated by the smoke,
/// S(x) = 1/(4 pi) integral j(y) exp(-tau(x, y)) / |x - y|^2 dy, where j is the emitted
/// radiance per world unit and tau the optical depth (densityScale * density along the way).
/// 1 / (4 pi r^2) is a sum of Gaussians of widths doubling from a cell's (sqrt(pi / 2) times
/// the integral over the width of the unit Gaussian), so S is that sum over a Gaussian pyramid
/// of j, each width's light attenuated by the pyramid's density at that width over the
/// distance it travels (docs/render.md): exact in a uniform medium, the inverse square law for
/// a small source in clear air. The domain's surroundings are empty. `emitted` holds j's three
/// channels, `density` the density, both on the same grid of `cellSize` world units.
std::array<sim::ScalarGrid, 3> emissionLight(const std::array<sim::ScalarGrid, 3> &emitted,
                                             const sim::ScalarGrid &density, float densityScale,
                                             float cellSize);

} // namespace plume
