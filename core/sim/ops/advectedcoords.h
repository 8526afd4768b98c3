// SPDX-License-Identifier: Apache-2.0
#pragma once

// Texture coordinates carried by the flow, for liquid textures (docs/liquid-textures.md).

#include <core/sim/base/domain.h>
#include <core/sim/base/grid.h>
#include <core/sim/base/param.h>
#include <core/sim/base/solver.h>

#include <vector>

namespace plume::sim {

/// How the two coordinate sets are cross-faded (docs/liquid-textures.md).
enum class TextureBlend : std::uint8_t {
    Linear, ///< triangle weights 1 - |1 - 2 phase| (Vlachos 2010)
    Smooth, ///< sin^2(pi phase): the same zeros, no kink at the fade's ends
};
inline constexpr EnumNames<TextureBlend, 2> kTextureBlendNames{{"linear", "smooth"}};
inline const char *toString(TextureBlend b) { return kTextureBlendNames.name(b); }

/// The reset period, in frames: even, so that the second set resets exactly half a period
/// after the first.
inline constexpr Param kTexturePeriod{.key = "period", .min = 2, .max = 100000, .integer = true};

/// Where in its period coordinate set `set` (0 or 1) is after `frame` frames: in [0, 1), 0 on
/// the frame it was reset. Set 0 resets at frames 0, T, 2T, ...; set 1 at T/2, 3T/2, ...
double texturePhase(int set, int frame, int period);

/// The weight of set 0 after `frame` frames; set 1 has 1 minus it. A set's weight is 0 on the
/// frame it resets, so the reset never shows.
float textureWeight0(int frame, int period, TextureBlend blend);

/// Two sets of 2D texture coordinates on the domain's cells, advected by the fluid's velocity
/// (Stam, "Real-Time Fluid Dynamics for Games", GDC 2003) and reset in turn, half a period apart
/// (the two-phase flow-map scheme of Vlachos, "Water Flow in Portal 2", SIGGRAPH 2010).
///
/// Each set is stored as an offset from the identity, in cells: the coordinate of cell centre x
/// is x + offset(x). Semi-Lagrangian transport of the coordinates, c'(x) = c(x - u dt), is then
/// offset'(x) = offset(x - u dt) - u dt: a uniform flow keeps the offset uniform, with no jump
/// where a periodic domain wraps. Backtraced positions wrap across periodic boundaries and are
/// clamped to the domain at the others. Every cell is computed from the previous state alone,
/// so the result does not depend on the thread count.
class AdvectedCoordinates
{
public:
    /// Switches the stage on for a 2D domain (period > 0: kTexturePeriod) or off (period 0).
    /// Turning it on (or changing the domain) starts both sets at the identity; changing only
    /// the period keeps the offsets. Refuses a 3D domain or a bad period, and changes nothing.
    Status configure(const Domain &domain, int period);

    bool enabled() const { return mPeriod > 0; }
    int period() const { return mPeriod; }

    /// Both sets back to the identity.
    void reset();

    /// One step of `dt` seconds in the cell-centred velocity (vx, vy), world units / s.
    void advect(const ScalarGrid &vx, const ScalarGrid &vy, float dt);

    /// Called when frame `frame` (frames simulated) is done: resets the set whose period starts.
    void frameFinished(int frame);

    /// Offset of set `set` (0, 1) along `axis` (0: x, 1: y), in cells; empty when disabled.
    const ScalarGrid &offset(int set, int axis) const { return mOffset[2 * set + axis]; }

    /// The four offset grids as checkpoint fields for a domain of `cells` (optional: empty
    /// when the stage is off).
    std::vector<StateField> stateFields(Int3 cells);
    /// After a checkpoint replaced the grids: empty grids of an enabled stage become the
    /// identity; grids restored into a disabled stage are dropped.
    void stateRestored();

private:
    Domain mDomain;
    int mPeriod = 0;
    ScalarGrid mOffset[4];  ///< set 0 x, set 0 y, set 1 x, set 1 y
    ScalarGrid mScratch[4]; ///< the next offsets
};

} // namespace plume::sim
