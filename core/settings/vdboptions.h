// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/param.h>

#include <cstdint>

// The choices of the OpenVDB export (export/vdbwriter.h writes them, settings/exportsettings.h
// keeps them in the scene's preset). Free of Qt: the writer's header must not pull in Qt's
// `emit`, which breaks oneTBB headers included after it.

namespace plume {

/// The up axis of the written grids. Plume's world is Y-up; Z-up files are rotated by +90
/// degrees about x (docs/using-exports.md). Stored as "y" and "z".
enum class UpAxis : std::uint8_t {
    Y, ///< as simulated: Houdini, Maya, Unity
    Z, ///< world (x, y, z) written at (x, -z, y): Blender, Unreal
};

/// Where the `vel` grid has active voxels. Stored as "density" and "speed".
enum class VelocityMask : std::uint8_t {
    Density, ///< where density is active (renderers only need motion inside the smoke)
    Speed,   ///< where any velocity component is non-negligible (full field, larger files)
};

inline constexpr sim::EnumNames<UpAxis, 2> kUpAxisNames{{"y", "z"}};
inline constexpr sim::EnumNames<VelocityMask, 2> kVelocityMaskNames{{"density", "speed"}};
inline const char *toString(UpAxis v) { return kUpAxisNames.name(v); }
inline const char *toString(VelocityMask v) { return kVelocityMaskNames.name(v); }

/// The largest finite half float (IEEE 754 binary16): values beyond it cannot be stored in a
/// half-float grid.
inline constexpr float kHalfMax = 65504.f;

} // namespace plume
