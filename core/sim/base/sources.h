// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/controlmask.h>
#include <core/sim/base/grid.h>
#include <core/sim/base/types.h>

#include <cstdint>
#include <string>
#include <vector>

namespace plume::sim {

/// What an emitter does to the velocity inside its mask.
enum class EmitterVelocity : std::uint8_t {
    None,   ///< no velocity change
    Force,  ///< adds `velocity` as an acceleration (world units / s^2), weighted by coverage
    Inflow, ///< sets the velocity to `velocity` (world units / s), blended by coverage
};

/// What an emitter does in the sph scheme (docs/sph.md); the grid schemes ignore it.
enum class LiquidMode : std::uint8_t {
    None, ///< no liquid (the sph scheme ignores the emitter)
    Fill, ///< fills the mask with particles once, when the emitter becomes active
    Emit, ///< a hose: adds particles in the mask continuously, `liquidRate` times its volume/s
};

/// Animated noise that modulates an emitter's rates (a puffy, flickering source; docs/look.md):
/// every rate and the velocity are multiplied by max(0, 1 + amplitude * n(x, t)), with n a
/// smooth gradient noise in [-1, 1] of feature size `size` at the cell centre x, evolving
/// `speed` noise periods per second of simulation time (numerics/sourcenoise.h).
struct EmitterNoise
{
    float size = 0.1f;      ///< feature size, world units (> 0)
    float amplitude = 0.f;  ///< 0..1, a fraction of the rate; 0: no noise
    float speed = 1.f;      ///< noise periods per second (>= 0; 0: frozen)
    std::uint32_t seed = 0; ///< noise seed

    bool active() const { return amplitude > 0.f; }
    friend bool operator==(const EmitterNoise &, const EmitterNoise &) = default;
};

/// Injects quantities inside a mask at a rate. Rates are per second and scale with the cell's
/// coverage weight: density += weight * density * dt.
struct Emitter
{
    SparseMask mask;         ///< cells of the domain grid and their coverage
    float density = 0.f;     ///< density per second
    float temperature = 0.f; ///< temperature (above ambient) per second
    Vec3 dye{0.f, 0.f, 0.f}; ///< RGB dye per second (linear colour times amount)
    float fuel = 0.f;        ///< fuel per second (smoke scheme; docs/fire.md)
    bool ignite = true;      ///< its cells burn whatever their temperature (a torch lights itself)
    EmitterVelocity velocityMode = EmitterVelocity::None;
    Vec3 velocity{0.f, 0.f, 0.f};         ///< acceleration (Force) or target velocity (Inflow)
    LiquidMode liquid = LiquidMode::None; ///< sph scheme: fill or emit particles
    float liquidRate = 0.f; ///< Emit: the mask's volume of liquid added per second (>= 0)
    /// Modulates density, temperature, dye, fuel and velocity (the smoke scheme; the others
    /// ignore it). Inactive by default.
    EmitterNoise noise;

    bool hasDye() const { return dye.x != 0.f || dye.y != 0.f || dye.z != 0.f; }
    bool hasFuel() const { return fuel != 0.f; }
};

/// The kinds of force field.
enum class ForceType : std::uint8_t {
    Directional, ///< constant acceleration along `direction` (wind, gravity)
    Vortex,      ///< swirl about the axis through `centre` along `direction`
    Radial,      ///< towards (strength > 0) or away from (strength < 0) `centre`
    Turbulence,  ///< divergence-free curl noise of feature size `scale`, evolving with time
    Drag,        ///< acceleration -strength * velocity
    /// Random kicks on blocks of `scale` world units, a new direction per block `timeScale`
    /// times a second, blended smoothly between block centres (docs/look.md)
    Disturbance,
    /// Stretches and tears flame: amplifies the velocity along the temperature gradient where
    /// the gradient is steep (an edge of `scale` world units per unit of temperature), by up
    /// to `strength` world units/s^2 (docs/look.md). Needs the temperature: the smoke scheme
    /// applies it (ops addShredding), the others ignore it.
    Shredding,
};

inline constexpr EnumNames<EmitterVelocity, 3> kEmitterVelocityNames{{"none", "force", "inflow"}};
inline constexpr EnumNames<LiquidMode, 3> kLiquidModeNames{{"none", "fill", "emit"}};
inline const char *toString(LiquidMode m) { return kLiquidModeNames.name(m); }
inline constexpr EnumNames<ForceType, 7> kForceTypeNames{
    {"directional", "vortex", "radial", "turbulence", "drag", "disturbance", "shredding"}};
inline const char *toString(EmitterVelocity v) { return kEmitterVelocityNames.name(v); }
inline const char *toString(ForceType t) { return kForceTypeNames.name(t); }

/// Where a force field acts, with a soft edge.
enum class RegionShape : std::uint8_t {
    Everywhere, ///< the whole domain, weight 1
    Sphere,     ///< within `radius` of `centre` (a disc in 2D)
    Box,        ///< within `halfSize` of `centre` on every axis
};

/// Weight 1 inside the shape, falling smoothly (smoothstep) to 0 over `falloff` world units
/// outside it. A non-empty `mask` (cell coverage on the domain grid, e.g. a rasterised painted
/// stroke) replaces the shape: the weight is then the mask trilinearly interpolated between
/// cell centres.
struct Region
{
    RegionShape shape = RegionShape::Everywhere;
    Vec3 centre{0.f, 0.f, 0.f};
    float radius = 0.f;
    Vec3 halfSize{0.f, 0.f, 0.f};
    float falloff = 0.f;
    SparseMask mask;
};

/// A force field evaluated per sample point. All vectors are in world units.
struct ForceField
{
    ForceType type = ForceType::Directional;
    float strength = 0.f;          ///< acceleration scale, world units / s^2 (drag: 1 / s)
    Vec3 direction{0.f, 1.f, 0.f}; ///< Directional: push direction; Vortex: axis (normalised
                                   ///< on use; in 2D the swirl is about z whatever this says)
    Vec3 centre{0.f, 0.f, 0.f};    ///< Vortex, Radial: the centre
    float scale = 0.25f;    ///< Turbulence: feature size; Disturbance: block size; Shredding:
                            ///< the edge length (world units) of a full-strength gradient
    float timeScale = 1.f;  ///< Turbulence: noise periods per second; Disturbance: refreshes / s
    std::uint32_t seed = 0; ///< Turbulence, Disturbance: noise seed
    Region region;          ///< where it acts
    /// Where it acts, read from a simulated field (the smoke scheme; other schemes ignore it):
    /// the acceleration is multiplied by the mask's weight at each face. None: weight 1.
    ControlMask mask;
};

/// Motion of the solid cells: each solid cell's velocity (world units / s) at its centre,
/// and whether fluid sticks to it. Empty grids mean every solid is at rest (docs/colliders.md).
/// The scene rasterizer fills it from the finite difference of each obstacle item's animated
/// transform over the substep; values in fluid cells are ignored.
struct ObstacleMotion
{
    ScalarGrid velocity[3];           ///< cell centred, the domain's cells, or empty (zero)
    std::vector<std::uint8_t> noSlip; ///< per cell (1: also the tangential velocity), or empty

    bool empty() const
    {
        return velocity[0].count() == 0 && velocity[1].count() == 0 && velocity[2].count() == 0
               && noSlip.empty();
    }
};

/// Checks every number of an emitter/force field: finite, in range. Names the value.
Status validate(const Emitter &e, std::size_t cellCount);
Status validate(const ForceField &f);
/// Checks an obstacle motion against the domain's cells: each velocity grid empty or of the
/// domain's size with finite values, noSlip empty or one byte per cell. Names the first bad
/// component and cell.
Status validate(const ObstacleMotion &m, Int3 cells);

} // namespace plume::sim
