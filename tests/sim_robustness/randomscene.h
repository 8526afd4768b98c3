// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/scene/scene.h>

#include <cstdint>

namespace plume::testing {

/// Scenes like the ones a minute of free painting makes: many obstacles of every shape
/// (scattered discs, boxes, capsules, strokes that wander and close into rings), emitters of
/// every velocity mode (some sealed inside a ring of obstacles), force fields of every type, and
/// random boundaries (closed boxes included). The same seed gives the same scene on every
/// machine: the generator uses its own integer arithmetic, not <random>'s distributions.
Scene randomScene(std::uint32_t seed, bool threeD);

} // namespace plume::testing
