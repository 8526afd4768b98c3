// SPDX-License-Identifier: Apache-2.0
#pragma once

// Control masks (docs/look.md): where a shaping control acts, read from a simulated field. The
// value type lives here, beside the force fields and settings that hold it; its evaluation into
// a weight grid is ops/controlmask.h.

#include <core/sim/base/param.h>
#include <core/sim/base/types.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace plume::sim {

/// The field a control mask reads, at cell centres. Stored as "none", "density",
/// "temperature", "flame", "fuel", "speed" and "vorticity" (append only).
enum class ControlField : std::uint8_t {
    None,        ///< no mask: weight 1 everywhere
    Density,     ///< smoke density
    Temperature, ///< temperature above ambient (the simulation's units)
    Flame,       ///< the visible flame (0 before anything burns)
    Fuel,        ///< unburnt fuel (0 before any emitter emits fuel)
    Speed,       ///< |u| at cell centres, world units / s
    Vorticity,   ///< |curl u| at cell centres, 1 / s (vorticityMagnitude, ops/forces.h)
};

inline constexpr EnumNames<ControlField, 7> kControlFieldNames{
    {"none", "density", "temperature", "flame", "fuel", "speed", "vorticity"}};
inline const char *toString(ControlField f) { return kControlFieldNames.name(f); }

/// One key of a ramp: the curve's value at a position of the remapped field.
struct RampKey
{
    float position = 0.f; ///< in [0, 1]
    float value = 0.f;    ///< in [0, 1]

    friend bool operator==(const RampKey &, const RampKey &) = default;
};

/// A piecewise-linear curve over [0, 1] through its keys (sorted by strictly increasing
/// position); before the first key the first value holds, after the last the last. The default
/// is the identity, keys (0, 0) and (1, 1).
struct Ramp
{
    static constexpr std::size_t kMaxKeys = 16;

    std::vector<RampKey> keys{{0.f, 0.f}, {1.f, 1.f}};

    /// The curve at t. With no keys (never valid) it is t.
    float at(float t) const;

    friend bool operator==(const Ramp &, const Ramp &) = default;
};

/// Where a control acts: weight = ramp(clamp((value - from) / (to - from), 0, 1)) with `value`
/// the control field at the cell. `from` > `to` inverts the remap (weight falls as the value
/// rises). Field None: weight 1 everywhere, whatever the other members say.
struct ControlMask
{
    ControlField field = ControlField::None;
    float from = 0.f; ///< the field's value that remaps to 0, in the field's units
    float to = 1.f;   ///< the field's value that remaps to 1; differs from `from`
    Ramp ramp;

    bool active() const { return field != ControlField::None; }
    /// The weight of one value of the field (NaN counts as `from`).
    float weight(float value) const;

    friend bool operator==(const ControlMask &, const ControlMask &) = default;
};

/// Keys and ranges of a control mask's numbers, in its "mask" object (docs/scene-format.md).
namespace controlMaskParams {
inline constexpr Param from{.key = "from", .softMin = -1e4, .softMax = 1e4, .decimals = 4};
inline constexpr Param to{.key = "to", .softMin = -1e4, .softMax = 1e4, .decimals = 4};
/// A ramp key is [position, value]; both in [0, 1].
inline constexpr Param rampPosition{.key = "position", .min = 0, .max = 1, .decimals = 4};
inline constexpr Param rampValue{.key = "value", .min = 0, .max = 1, .decimals = 4};
} // namespace controlMaskParams

/// Checks a mask: a known field, finite `from` and `to` that differ, 1 to Ramp::kMaxKeys ramp
/// keys with positions and values in [0, 1] and strictly increasing positions. The message
/// names the value ("mask: ramp key 2: position 0.3 is not above the previous key's 0.5").
Status validate(const ControlMask &m);

} // namespace plume::sim
