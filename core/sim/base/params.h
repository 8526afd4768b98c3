// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/controlmask.h>
#include <core/sim/base/types.h>

#include <cstdint>
#include <string>

namespace plume::sim {

/// The solver families. Stored in files as "stam", "smoke", "ocean" and "sph".
enum class Scheme : std::uint8_t {
    Stam,  ///< the reference: Stam's GDC 2003 solver, collocated grid, Gauss-Seidel
    Smoke, ///< production: MAC grid, MacCormack advection, MGPCG pressure, buoyancy
    Ocean, ///< FFT ocean waves (Tessendorf): a periodic 2D heightfield, a function of time
    Sph,   ///< liquid particles: Mueller, Charypar and Gross 2003 SPH (docs/sph.md)
};

/// Advection order for the smoke scheme. Stored as "linear", "maccormack", "bfecc", "cubic"
/// (docs/advection.md).
enum class AdvectionOrder : std::uint8_t {
    SemiLagrangian, ///< first order backtrace (Stam 1999)
    MacCormack,     ///< second order forward/backward correction, limited (Selle et al. 2008)
    Bfecc,          ///< back-and-forth error compensation, limited (Kim et al. 2005)
    MonotoneCubic,  ///< one backtrace, monotone cubic interpolation (Fritsch and Carlson 1980)
};

/// Gauss-Seidel sweep order for the stam scheme.
enum class SweepOrder : std::uint8_t {
    Paper,    ///< the paper's lexicographic order, serial: matches the published C code
    RedBlack, ///< red cells then black cells, parallel and deterministic
};

/// Number type of the stam scheme's grids and arithmetic (docs/fixed-point.md).
enum class StamNumeric : std::uint8_t {
    Float, ///< 32-bit IEEE float, as the paper's code
    Fixed, ///< Q12.20 fixed point with 64-bit intermediates (Stam 2003: devices without floats)
};

inline constexpr EnumNames<Scheme, 4> kSchemeNames{{"stam", "smoke", "ocean", "sph"}};
inline constexpr EnumNames<AdvectionOrder, 4> kAdvectionOrderNames{
    {"linear", "maccormack", "bfecc", "cubic"}};
inline constexpr EnumNames<SweepOrder, 2> kSweepOrderNames{{"paper", "red-black"}};
inline constexpr EnumNames<StamNumeric, 2> kStamNumericNames{{"float", "fixed"}};
inline const char *toString(Scheme s) { return kSchemeNames.name(s); }
inline const char *toString(AdvectionOrder a) { return kAdvectionOrderNames.name(a); }
inline const char *toString(SweepOrder o) { return kSweepOrderNames.name(o); }
inline const char *toString(StamNumeric n) { return kStamNumericNames.name(n); }

/// Keys and ranges of the numbers in SimParams and PressureSettings (param.h); the defaults
/// are their member initialisers. `up` gives the range of each component.
namespace simParams {
inline constexpr Param viscosity{.key = "viscosity", .min = 0, .softMax = 100, .decimals = 5};
inline constexpr Param diffusion{.key = "diffusion", .min = 0, .softMax = 100, .decimals = 5};
inline constexpr Param densityDissipation{.key = "densityDissipation", .min = 0, .softMax = 100};
inline constexpr Param temperatureDissipation{.key = "temperatureDissipation",
                                              .min = 0,
                                              .softMax = 100};
inline constexpr Param velocityDissipation{.key = "velocityDissipation", .min = 0, .softMax = 100};
inline constexpr Param up{.key = "up", .softMin = -1, .softMax = 1};
inline constexpr Param ambientTemperature{.key = "ambientTemperature"};
inline constexpr Param buoyancyDensity{.key = "buoyancyDensity"};
inline constexpr Param buoyancyTemperature{.key = "buoyancyTemperature"};
inline constexpr Param vorticity{.key = "vorticity", .min = 0, .softMax = 100};
/// World units; 0: the cell size (the paper's confinement, which weakens as cells shrink).
inline constexpr Param vorticityLength{
    .key = "vorticityLength", .min = 0, .max = 1e4, .softMax = 10, .decimals = 4};
inline constexpr Param stamIterations{.key = "stamIterations",
                                      .min = 1,
                                      .max = 100000,
                                      .integer = true};
/// In the "pressure" object.
inline constexpr Param pressureTolerance{
    .key = "tolerance", .min = 0, .max = 1, .openMin = true, .openMax = true, .decimals = 8};
inline constexpr Param pressureMaxIterations{.key = "maxIterations",
                                             .min = 1,
                                             .max = 100000,
                                             .integer = true};
} // namespace simParams

/// Keys and ranges of CombustionSettings, in the "combustion" object (docs/fire.md).
namespace combustionParams {
inline constexpr Param ignitionTemperature{.key = "ignitionTemperature", .softMax = 20};
inline constexpr Param burnRate{.key = "burnRate", .min = 0, .softMax = 100};
inline constexpr Param heatRelease{.key = "heatRelease", .min = 0, .softMax = 20};
inline constexpr Param smokePerFuel{.key = "smokePerFuel", .min = 0, .softMax = 10};
inline constexpr Param flameCooling{.key = "flameCooling", .min = 0, .softMax = 100};
inline constexpr Param expansion{.key = "expansion", .min = 0, .softMax = 10};
} // namespace combustionParams

/// How fuel burns (smoke scheme; docs/fire.md has the equations). Temperatures are in the
/// simulation's units, above ambient; amounts of fuel in the units of density.
struct CombustionSettings
{
    float ignitionTemperature = 1.f; ///< fuel at least this hot (above ambient) burns
    float burnRate = 3.f;       ///< 1 / s: a burning cell burns 1 - exp(-burnRate dt) of its fuel
    float heatRelease = 2.5f;   ///< temperature added per unit of fuel burnt
    float smokePerFuel = 0.35f; ///< soot density made per unit of fuel burnt
    float flameCooling = 10.f;  ///< 1 / s: exponential decay rate of the flame field
    float expansion = 0.4f;     ///< gas volume made per unit of fuel burnt (divergence source)

    friend bool operator==(const CombustionSettings &, const CombustionSettings &) = default;
};

/// Keys and ranges of UpresSettings, in the "upres" object (docs/upres.md).
namespace upresParams {
inline constexpr Param factor{.key = "factor", .min = 1, .max = 4, .integer = true};
inline constexpr Param strength{.key = "strength", .min = 0, .max = 100, .softMax = 10};
inline constexpr Param size{.key = "size", .min = 0, .max = 1e4, .softMax = 10, .decimals = 4};
inline constexpr Param lifetime{.key = "lifetime", .min = 0.05, .max = 100, .decimals = 3};
} // namespace upresParams

/// Upres (smoke scheme; core/sim/upres, docs/upres.md): density, temperature, dye, fuel and
/// flame on a grid `factor` times finer per axis, carried by the simulation's velocity plus
/// synthesised sub-grid turbulence (wavelet turbulence, Kim et al. 2008) and kept equal to the
/// simulation's fields at the simulation's resolution.
struct UpresSettings
{
    int factor = 1;        ///< fine cells per cell along each axis; 1: no upres
    float strength = 4.f;  ///< scales the sub-grid turbulence (0: the fields only interpolated)
    float size = 0.f;      ///< world units: wavelength of the largest noise octave; 0: 4 cells
    float lifetime = 0.5f; ///< s: how long the noise follows the flow before it fades for new

    bool active() const { return factor > 1; }
    /// The largest noise octave's wavelength in world units for cells of `cellSize`: `size`,
    /// or four cells, where the noise curls the fine fronts (at two it roughens them).
    float noiseWavelength(float cellSize) const { return size > 0.f ? size : 4.f * cellSize; }
    friend bool operator==(const UpresSettings &, const UpresSettings &) = default;
};

/// Keys and ranges of OceanSettings, in the "ocean" object (docs/ocean.md).
namespace oceanParams {
inline constexpr Param windSpeed{.key = "windSpeed", .min = 0, .max = 100, .openMin = true};
inline constexpr Param windDirection{.key = "windDirection", .min = -360, .max = 360};
inline constexpr Param amplitude{.key = "amplitude", .min = 0, .softMax = 1, .decimals = 6};
inline constexpr Param smallWaves{.key = "smallWaves", .min = 0, .softMax = 10, .decimals = 4};
inline constexpr Param choppiness{.key = "choppiness", .min = 0, .softMax = 10};
inline constexpr Param loopPeriod{
    .key = "loopPeriod", .min = 0, .max = 10000, .openMin = true, .decimals = 2};
inline constexpr Param seed{.key = "seed", .min = 0, .max = 4294967295.0, .integer = true};
inline constexpr Param gravity{.key = "gravity", .min = 0, .openMin = true, .softMax = 100};
} // namespace oceanParams

/// The ocean scheme's wave spectrum and animation (docs/ocean.md has the equations). The patch
/// is the domain: its x and y extent in metres (world units).
struct OceanSettings
{
    float windSpeed = 10.f;    ///< V, m/s: the largest waves are about V^2 / g long
    float windDirection = 0.f; ///< degrees from +x towards +y that the wind blows to
    float amplitude = 0.002f;  ///< Phillips constant A: height variance about A pi L^2 / 2
    float smallWaves = 0.f;    ///< l, m: waves much shorter than l are damped (exp(-k^2 l^2))
    float choppiness = 1.f;    ///< lambda: horizontal displacement scale (0: no chop)
    float loopPeriod = 20.f;   ///< T, s: frequencies are multiples of 2 pi / T, so it loops
    std::uint32_t seed = 1;    ///< the random phases and amplitudes
    float gravity = 9.81f;     ///< g, m/s^2 (deep water: omega = sqrt(g k))

    friend bool operator==(const OceanSettings &, const OceanSettings &) = default;
};

/// Keys and ranges of SphSettings, in the "sph" object (docs/sph.md).
namespace sphParams {
inline constexpr Param restDensity{.key = "restDensity", .min = 0, .openMin = true, .softMax = 1e5};
inline constexpr Param soundSpeed{.key = "soundSpeed", .min = 0, .openMin = true, .softMax = 1000};
inline constexpr Param viscosity{.key = "viscosity", .min = 0, .softMax = 10, .decimals = 6};
inline constexpr Param artificialViscosity{.key = "artificialViscosity",
                                           .min = 0,
                                           .softMax = 1,
                                           .decimals = 4};
inline constexpr Param surfaceTension{.key = "surfaceTension",
                                      .min = 0,
                                      .softMax = 100,
                                      .decimals = 4};
inline constexpr Param spacing{.key = "spacing", .min = 0.1, .max = 4, .decimals = 3};
inline constexpr Param smoothing{.key = "smoothing", .min = 1, .max = 4, .decimals = 3};
inline constexpr Param maxParticles{.key = "maxParticles",
                                    .min = 1,
                                    .max = 100000000,
                                    .integer = true};
inline constexpr Param courant{.key = "courant", .min = 0, .max = 1, .openMin = true};
inline constexpr Param gravity{.key = "gravity", .min = 0, .softMax = 100};
} // namespace sphParams

/// The sph scheme's liquid (docs/sph.md has the equations). Lengths in world units, times in s.
struct SphSettings
{
    float restDensity = 1000.f; ///< rho0, mass per unit volume (kg/m^3 for water in metres)
    /// c, world units / s: the stiffness of the Tait equation p = rho0 c^2 / 7 ((rho/rho0)^7 - 1).
    /// Density varies by about (v / c)^2: ten times the fastest flow keeps it near 1 %.
    float soundSpeed = 25.f;
    float viscosity = 0.f; ///< nu, kinematic, world units^2 / s (Mueller's viscosity term)
    /// alpha: the viscosity term uses nu + alpha h c, which keeps the stiff liquid stable (and
    /// scales with the resolution); 0.03 matches the dam break of Martin and Moyce in 2D.
    float artificialViscosity = 0.03f;
    float surfaceTension = 0.f; ///< sigma (colour-field force; 0 = off)
    float spacing = 0.5f;       ///< rest particle spacing in cells (0.5: 2 per cell and axis)
    float smoothing = 2.f;      ///< kernel radius h in particle spacings
    int maxParticles = 2000000; ///< emitters stop adding particles beyond this
    float courant = 0.4f;       ///< time-step safety: dt <= courant * h / (c + max speed)
    float gravity = 9.81f;      ///< world units / s^2, along -up

    friend bool operator==(const SphSettings &, const SphSettings &) = default;
};

/// Tolerance and limit of the pressure solve.
struct PressureSettings
{
    double tolerance = 1e-5; ///< relative residual: max|r| <= tolerance * max|b|
    /// Conjugate-gradient iterations at most. When the diagonal preconditioner stands in for
    /// multigrid (a layout without red-black colouring, or a multigrid run that diverged or
    /// stalled), it gets 4 times as many on top, each about a quarter of the cost.
    int maxIterations = 200;
    bool multigrid = true; ///< multigrid preconditioner (else diagonal)

    friend bool operator==(const PressureSettings &, const PressureSettings &) = default;
};

/// Every parameter of a simulation. Units are world units and seconds.
struct SimParams
{
    Scheme scheme = Scheme::Smoke;

    float viscosity = 0.f;              ///< kinematic viscosity, units^2 / s (implicit)
    float diffusion = 0.f;              ///< density, temperature and dye diffusion, units^2 / s
    float densityDissipation = 0.f;     ///< exponential decay rate of density, 1 / s
    float temperatureDissipation = 0.f; ///< exponential decay rate of temperature, 1 / s
    float velocityDissipation = 0.f;    ///< exponential decay rate of velocity, 1 / s

    Vec3 up{0.f, 1.f, 0.f};          ///< buoyancy pushes along this (normalised on use)
    float ambientTemperature = 0.f;  ///< temperature with no buoyancy
    float buoyancyDensity = 0.f;     ///< alpha: sinking acceleration per unit density
    float buoyancyTemperature = 1.f; ///< beta: rising acceleration per unit temperature
    float vorticity = 0.f;           ///< vorticity confinement epsilon (dimensionless)
    /// The length L of the confinement f = epsilon L (N x omega), world units: a confinement
    /// that keeps its meaning when the resolution changes. 0: L is the cell size h (Fedkiw,
    /// Stam and Jensen 2001, eq. 11), as scenes without the key always had.
    float vorticityLength = 0.f;
    /// Where the confinement acts (smoke scheme): f is multiplied by the weight at each cell.
    ControlMask vorticityMask;

    AdvectionOrder advection = AdvectionOrder::MacCormack; ///< density, temperature, dye
    /// The velocity's self-advection. Second-order corrections of the velocity keep grid-scale
    /// velocity noise that the projection cannot remove, and it shows as grain in the smoke
    /// (docs/advection.md); new scenes use linear here. Files without the key take `advection`.
    AdvectionOrder velocityAdvection = AdvectionOrder::MacCormack;
    bool accountingDensity = false; ///< Mick West's mass-conserving advection for density
    /// Smoke scheme: solve only in a box around the smoke (adaptivedomain.h, docs/adaptive.md).
    /// Fixed on a running solver, like the scheme.
    bool adaptiveDomain = false;
    /// Smoke scheme: active tiles (tiledsmoke.h, docs/adaptive.md), in development: scene files
    /// do not set it yet; plume-bench --sparse measures it. Ignored where the domain does not
    /// split into whole tiles, and under the adaptive domain. Fixed on a running solver.
    bool activeTiles = false;
    PressureSettings pressure;
    CombustionSettings combustion; ///< used where emitters emit fuel
    OceanSettings ocean;           ///< the ocean scheme's waves
    SphSettings sph;               ///< the sph scheme's liquid
    /// Smoke scheme: the fine fields (upressolver.h). Fixed on a running solver, like the scheme.
    UpresSettings upres;

    // stam scheme
    int stamIterations = 20; ///< Gauss-Seidel sweeps in diffuse and project
    SweepOrder stamSweep = SweepOrder::RedBlack;
    /// Float or Q12.20 fixed point; the smoke scheme ignores it. Fixed on a running solver
    /// for its lifetime (a change needs a new solver, as the scheme does).
    StamNumeric stamNumeric = StamNumeric::Float;

    /// Refuses NaN, negative rates, unknown combinations. Names the parameter.
    Status validate() const;

    friend bool operator==(const SimParams &, const SimParams &) = default;
};

/// Whether these parameters solve in the adaptive domain's box (the smoke scheme's setting;
/// other schemes ignore it).
inline bool usesAdaptiveDomain(const SimParams &params)
{
    return params.scheme == Scheme::Smoke && params.adaptiveDomain;
}

/// Whether these parameters add upres fields (the smoke scheme's setting; other schemes
/// ignore it).
inline bool usesUpres(const SimParams &params)
{
    return params.scheme == Scheme::Smoke && params.upres.active();
}

/// The most cells a domain may have for these parameters: Domain::kAdaptiveMaxCells for the
/// adaptive domain, else Domain::kDefaultMaxCells.
std::int64_t maxCells(const SimParams &params);

} // namespace plume::sim
