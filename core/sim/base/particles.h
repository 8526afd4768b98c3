// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/types.h>

#include <cstddef>
#include <vector>

namespace plume::sim {

/// A particle scheme's particles (the SPH liquid, docs/sph.md) in world units, in the solver's
/// deterministic order. Views draw them, exporters turn them into points and surfaces.
struct ParticleSet
{
    std::vector<Vec3> position; ///< world units; z = 0 in 2D
    std::vector<Vec3> velocity; ///< world units / s
    float radius = 0.f;         ///< particle radius, world units (half the rest spacing)

    std::size_t size() const { return position.size(); }
    bool empty() const { return position.empty(); }
};

} // namespace plume::sim
