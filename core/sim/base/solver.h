// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/domain.h>
#include <core/sim/base/fixedpoint.h>
#include <core/sim/base/grid.h>
#include <core/sim/base/params.h>
#include <core/sim/base/particles.h>
#include <core/sim/base/sources.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace plume::sim {

/// Fields a solver can hand out, always resampled to cell centres of the solver's sample grid
/// (Solver::sampleDomain: the domain's, or upres's finer one).
enum class FieldKind : std::uint8_t {
    Density,
    Temperature,
    DyeRed,
    DyeGreen,
    DyeBlue,
    VelocityX, ///< world units / s, averaged from faces to centres (smoke)
    VelocityY,
    VelocityZ,
    Speed,      ///< |velocity| at the centre
    Pressure,   ///< from the last projection
    Divergence, ///< discrete divergence of the current velocity, 1 / s
    Vorticity,  ///< magnitude of the curl at the centre, 1 / s
    Solid,      ///< 1 in obstacles, 0 elsewhere
    Fuel,       ///< unburnt fuel (0 without combustion)
    Flame,      ///< visible fire: fuel burnt recently, cooling at flameCooling (docs/fire.md)
    // The ocean scheme's surface (docs/ocean.md); 0 in the other schemes.
    Height,        ///< surface height above the mean, world units (out of the 2D plane)
    DisplacementX, ///< choppy horizontal displacement of the surface point, world units
    DisplacementY,
    NormalX, ///< unit normal of the displaced surface: x, y in the plane, z up
    NormalY,
    NormalZ,
    Foam, ///< 0..1: 1 - Jacobian of the horizontal map, clamped; 1 where the surface folds
};

inline constexpr EnumNames<FieldKind, 22> kFieldKindNames{
    {"density",    "temperature", "dye-red",  "dye-green", "dye-blue",       "velocity-x",
     "velocity-y", "velocity-z",  "speed",    "pressure",  "divergence",     "vorticity",
     "solid",      "fuel",        "flame",    "height",    "displacement-x", "displacement-y",
     "normal-x",   "normal-y",    "normal-z", "foam"}};
/// Whether a field is one of the ocean scheme's surface fields.
inline bool isOceanField(FieldKind f) { return f >= FieldKind::Height; }
inline const char *toString(FieldKind f) { return kFieldKindNames.name(f); }

/// What one substep did.
struct StepStats
{
    int pressureIterations = 0;    ///< CG iterations (smoke) or Gauss-Seidel sweeps (stam)
    double pressureResidual = 0.0; ///< relative residual reached (smoke); 0 for stam
    bool pressureConverged = true;
    bool pressureFallback = false; ///< multigrid broke down; the diagonal preconditioner finished
    double fuelBurnt = 0.0;        ///< fuel burnt, summed over cells (smoke with combustion)
};

/// One piece of a solver's state as checkpoints store it (checkpoint.h): a float grid, a
/// fixed-point grid (stored as its int32 bits), the solid flags or a switch, under a stable name.
/// `size` and `offset` are what a restored grid must have; an `optional` grid may also be saved and
/// restored empty (dye before any emitter has dye); optional grids with the same non-zero `group`
/// are all present or all empty. Exactly one of grid, fixedGrid, flags and value is set.
struct StateField
{
    const char *name = "";
    ScalarGrid *grid = nullptr;
    FixedGrid *fixedGrid = nullptr;
    FlagGrid *flags = nullptr;
    bool *value = nullptr;
    Int3 size{0, 0, 0};
    Vec3 offset = kCellCentre;
    bool optional = false;
    int group = 0;
    /// A float grid of {n, 1, 1} samples for any n >= 0 (a particle scheme's arrays, whose
    /// length is the particle count): `size` is not checked on restore.
    bool anyLength = false;
    /// A float grid of any size (the adaptive domain's box, whose size the checkpoint holds):
    /// `size` is not checked on restore, and the solver makes sense of the sizes restored.
    bool anyShape = false;
};

/// A fluid solver over a fixed domain. Every scheme implements it. Inputs (obstacles, emitters,
/// force fields) can change between steps without resetting the state.
class Solver
{
public:
    virtual ~Solver() = default;

    /// The simulated grid: inputs (obstacles, emitters, force regions) are given on its cells.
    virtual const Domain &domain() const = 0;
    /// The grid sample() writes: the domain, or with upres (core/sim/upres) the same box with
    /// `factor` times as many cells per axis. Renderers and exporters read fields on it.
    virtual const Domain &sampleDomain() const { return domain(); }
    virtual const SimParams &params() const = 0;
    /// Changes parameters that need no reallocation (everything but the scheme).
    virtual Status setParams(const SimParams &params) = 0;

    /// Solid cells and how they move (docs/colliders.md). Sizes must equal the domain's cells
    /// and the motion's values be finite. Fluid quantities inside new solids are cleared;
    /// cells the solids leave are filled from their fluid neighbours. Velocities on faces
    /// touching solids take the solids' velocity (zero for solids at rest, and always without
    /// `motion`: then the result is what it was before moving obstacles existed). Handing the
    /// current solids and motion again changes nothing (after a checkpoint restore, every
    /// input is handed over again).
    Status setObstacles(const FlagGrid &solids, const ObstacleMotion &motion = {});
    /// The current solid cells.
    virtual const FlagGrid &solids() const = 0;
    /// Emitters (each checked: finite rates, a mask within the domain).
    Status setEmitters(std::vector<Emitter> emitters);
    /// Force fields (each checked: type, finite parameters, a region mask within the domain).
    Status setForceFields(std::vector<ForceField> fields);

    /// Advances by dt seconds. `time` is the simulation time at the start (turbulence evolves
    /// with it).
    virtual StepStats step(float dt, double time) = 0;

    /// Zero state (no smoke, fluid at rest); inputs are kept.
    virtual void reset() = 0;

    /// Writes a field at cell centres into `out` (reshaped to sampleDomain()'s cells).
    virtual void sample(FieldKind kind, ScalarGrid &out) const = 0;
    /// The cells of sampleDomain() outside which every field sample() gives is zero (the solid
    /// flags aside): all of them unless the solver solves only a part of the domain (the
    /// adaptive domain's box) or upres keeps fine fields only around the smoke.
    virtual CellBox fieldBox() const { return {{0, 0, 0}, sampleDomain().cells}; }
    /// sample() over `box` only (cells of sampleDomain()): `out` is reshaped to box.size() and
    /// out(i, j, k) is the sample at cell box.lo + (i, j, k). `box` must lie in sampleDomain().
    /// Large domains of the adaptive domain export through it without whole-domain grids.
    virtual void sampleIn(FieldKind kind, const CellBox &box, ScalarGrid &out) const;

    /// Largest velocity component magnitude, world units / s (for CFL time steps).
    virtual float maxVelocity() const = 0;

    /// Names the first state field holding NaN or infinity, or returns an empty string.
    virtual std::string firstNonFiniteField() const = 0;

    /// Describes the first state value outside the range of the solver's number type
    /// ("velocity-x out of fixed-point range at cell (3, 4)"), or returns an empty string.
    /// Only fixed-point solvers have such a range; the default finds nothing.
    virtual std::string outOfRangeField() const { return {}; }

    /// Bytes held by the solver's grids and scratch buffers.
    virtual std::size_t memoryBytes() const = 0;

    /// The share of the domain's cells the last step simulated: 1 but for the adaptive domain
    /// (adaptivedomain.h), whose box may be smaller.
    virtual double activeShare() const { return 1.0; }

    /// Whether any emitter injects dye (dye fields exist only then).
    virtual bool hasDye() const = 0;

    /// Whether fuel and flame fields exist: some emitter has emitted fuel (smoke scheme only;
    /// the stam scheme has no combustion).
    virtual bool hasCombustion() const { return false; }

    /// The particles of a particle scheme (sph), or null for grid schemes. Valid until the next
    /// call of a non-const member.
    virtual const ParticleSet *particles() const { return nullptr; }

    /// Where in a step the smoke scheme's scalar fields (density, temperature, dye, fuel,
    /// flame) can be kept: just before it advects them (after the sources and the burning) and
    /// just after (before diffusion and dissipation). Upres (upres/upressolver.h) follows the
    /// step in these parts.
    enum class ScalarStage { BeforeAdvection, AfterAdvection };
    /// Starts (or stops) keeping the scalar fields at both stages of every step. False where
    /// the scheme has no such stages (only the smoke scheme's solvers do).
    virtual bool keepScalarStages(bool keep)
    {
        (void)keep;
        return false;
    }
    /// Field `kind` as it was at `stage` of the last step, written like sample(); valid once a
    /// step ran with keepScalarStages(true). Zero where the step kept nothing.
    virtual void sampleStage(ScalarStage stage, FieldKind kind, ScalarGrid &out) const
    {
        (void)stage;
        sample(kind, out);
    }

protected:
    friend class Checkpoint;
    friend class UpresSolver; // wraps a scheme's solver and checkpoints its state with its own

    /// What every scheme's setParams checks first: the scheme stays the solver's and `next`
    /// is valid. Failure names both schemes or the invalid parameter.
    static Status checkParamsChange(const SimParams &current, const SimParams &next);

    /// Every array and switch that the next step reads before writing: everything a checkpoint
    /// must hold so that simulating on from a restore gives the bytes of never having stopped.
    /// Scratch (workspace, the stam "prev" arrays, which each step overwrites first) and what
    /// the inputs or the solids determine are not listed. Checkpoint reads the fields of a
    /// const solver through this list and writes nothing then.
    virtual std::vector<StateField> stateFields() = 0;
    /// Called after a checkpoint replaced the fields: rebuilds what derives from them (the
    /// operators that depend on the solids, when `solidsChanged`; scratch for optional grids).
    virtual void stateRestored(bool solidsChanged) = 0;

    // The schemes' halves of the setters above, called with inputs that passed validation.
    // They may throw std::bad_alloc (reported as out of memory); they allocate before they
    // replace state, so that the solver keeps its previous inputs then.
    virtual void applyObstacles(const FlagGrid &solids, const ObstacleMotion &motion) = 0;
    virtual void applyEmitters(std::vector<Emitter> emitters) = 0;
    virtual void applyForceFields(std::vector<ForceField> fields) = 0;
};

} // namespace plume::sim
