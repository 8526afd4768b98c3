// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/grid.h>
#include <core/sim/base/types.h>

namespace plume {

/// What a ray-march sample can show: density above kMarchDensityFloor, gas hotter than
/// `hotAbove` (when `temperature` is given), flame above 0 (when `flame` is given) and solid
/// cells (when `solids` is given).
struct MarchInputs
{
    const sim::ScalarGrid &density;
    const sim::ScalarGrid *temperature = nullptr;
    float hotAbove = 0.f;
    const sim::ScalarGrid *flame = nullptr;
    const sim::FlagGrid *solids = nullptr;
};

/// The ray march's density floor: a sample whose trilinear density is at most this adds
/// nothing (the CPU renderer and the volume view's shader both skip it).
constexpr float kMarchDensityFloor = 1e-6f;

/// The box, in cell coordinates (cell i spans [i, i + 1]), outside which every trilinear
/// sample of the inputs is empty: its eight corners are cells that show nothing. A march may
/// skip the samples outside it and composite the same bits (empty-space skipping). `empty`
/// when no cell shows anything. The cell tests keep a margin below each threshold, so a
/// sample whose rounding lifts a mix of sub-threshold corners just above it is still inside.
struct MarchBounds
{
    sim::Vec3 lo{0.f, 0.f, 0.f};
    sim::Vec3 hi{0.f, 0.f, 0.f};
    bool empty = true;
};

MarchBounds marchBounds(const MarchInputs &in);

/// The sample range [first, last] (inclusive, clamped to [0, steps - 1]) of a march whose
/// sample k lies at t0 + (k + 1/2) dt along o + t d, that can fall inside `b` (cell
/// coordinates, like o and d). One sample of slack either side covers rounding. False when no
/// sample can.
bool marchRange(const MarchBounds &b, const sim::Vec3 &o, const sim::Vec3 &d, float t0, float dt,
                int steps, int &first, int &last);

} // namespace plume
