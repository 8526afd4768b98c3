// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/grid.h>
#include <core/sim/base/params.h>

#include <cstdint>
#include <vector>

namespace plume::sim {

/// The grids one combustion step reads and writes (cell-centred, the domain's cells).
struct CombustionFields
{
    ScalarGrid &fuel;
    ScalarGrid &temperature;
    ScalarGrid &density; ///< receives the soot
    ScalarGrid &flame;
};

/// One combustion step (docs/fire.md). A fluid cell burns when it holds fuel and its
/// temperature is at least `ambient + c.ignitionTemperature`, or when `ignite` marks it (the
/// cells of emitters that emit burning fuel; may be empty). A burning cell burns the fraction
/// 1 - exp(-burnRate dt) of its fuel, exact for any dt; of the amount b burnt:
///   fuel -= b, temperature += heatRelease b, density += smokePerFuel b, flame += b,
/// and, when `expansion` is given, expansion(cell) = c.expansion b / dt (1 / s: the divergence
/// the projection gives the velocity there; 0 where nothing burns). Returns the total burnt
/// (sum over cells, in row order, so it does not depend on the thread count).
double burn(const CombustionFields &q, const std::vector<std::uint8_t> &ignite,
            const FlagGrid &solids, const CombustionSettings &c, float ambient, float dt,
            ScalarGrid *expansion);

} // namespace plume::sim
