// SPDX-License-Identifier: Apache-2.0
#pragma once

// Control masks evaluated on the grid (docs/look.md): once per step, each distinct mask the
// step's shaping controls use becomes a cell-centred weight grid that the force fields and the
// vorticity confinement read. The value type is base/controlmask.h.

#include <core/sim/base/controlmask.h>
#include <core/sim/base/domain.h>
#include <core/sim/base/grid.h>

#include <cstddef>
#include <span>
#include <vector>

namespace plume::sim {

/// The fields a mask may read, borrowed from the scheme for one step; all on the domain's
/// cells. A null or empty grid reads as 0 everywhere (flame and fuel before anything burns).
/// Speed and vorticity need both the velocity and the solids.
struct ControlFields
{
    const ScalarGrid *density = nullptr;
    const ScalarGrid *temperature = nullptr;
    float ambientTemperature = 0.f; ///< masks read the temperature above this
    const ScalarGrid *flame = nullptr;
    const ScalarGrid *fuel = nullptr;
    const MacGrid *velocity = nullptr;
    const FlagGrid *solids = nullptr;
};

/// Writes mask.weight(value) at every cell centre into `out`, reshaped to the domain's cells:
/// value is the control field at the cell (temperature: above ambient; speed: |u| of the
/// centre-averaged faces, world units / s; vorticity: vorticityMagnitude, 1 / s). Field None gives
/// 1 everywhere. Parallel over rows, each row written by one task: the same bytes for any thread
/// count.
void evaluateControlMask(const ControlMask &mask, const ControlFields &fields, const Domain &domain,
                         ScalarGrid &out);

/// The weight grids of one step's masks: evaluate() fills one grid per distinct active mask
/// (equal masks share it), find() hands them to the stages. The grids are kept between steps,
/// so a step allocates nothing once the set of masks is stable.
class ControlWeights
{
public:
    /// Evaluates every distinct active mask of `masks` (null entries and None are skipped) on
    /// the fields as they are now; forgets the last step's.
    void evaluate(std::span<const ControlMask *const> masks, const ControlFields &fields,
                  const Domain &domain);
    /// The weights of `mask` from the last evaluate(); null when the mask is inactive (None)
    /// or was not evaluated.
    const ScalarGrid *find(const ControlMask &mask) const;
    std::size_t bytes() const;

private:
    std::vector<ControlMask> mMasks; ///< this step's, one per grid in use
    std::vector<ScalarGrid> mGrids;  ///< at least as many as mMasks (the rest kept allocated)
};

} // namespace plume::sim
