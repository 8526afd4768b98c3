// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/domain.h>
#include <core/sim/base/grid.h>
#include <core/sim/base/params.h>
#include <core/sim/base/sources.h>
#include <core/sim/base/workspace.h>
#include <core/sim/numerics/curlnoise.h>
#include <core/sim/ops/controlmask.h>

#include <vector>

namespace plume::sim {

/// Evaluates a set of force fields at points (face centres or cell centres).
///
/// - Region weights: Everywhere is 1; Sphere and Box are 1 inside and fall to 0 with a
///   smoothstep over `falloff` world units outside (per axis, multiplied, for boxes); falloff 0
///   is a hard edge. In 2D both ignore z (a disc, a rectangle). A mask replaces the shape.
/// - Vortex and Radial have a solid-body core of one cell size h: the unit direction is scaled
///   by min(1, distance / h), so both are zero on the axis/centre and never exceed |strength|.
/// - applyToMac() computes turbulence as the discrete curl of the noise potential sampled on
///   cell edges (2D: corners), so inside full-weight regions it adds no discrete divergence;
///   it matches acceleration() to second order in h / scale.
/// - Disturbance (docs/look.md): a random unit direction per block of `scale` world units (at
///   least one cell) and per refresh (`timeScale` refreshes per second), hashed from the seed,
///   the block and the refresh (numerics/blocknoise.h), blended between block centres with a
///   smoothstep so that block edges leave no seams. applyToMac() applies each step the
///   directions averaged over the step's time span, so the velocity a refresh gives does not
///   depend on where the steps fall; acceleration() takes the refresh at `time`.
/// - A field's control mask (ControlMask): applyToMac() multiplies its acceleration at each face
///   by the mean weight of the face's two cells, read from the grid the ControlWeights hold;
///   without that grid (acceleration(), or no weights given) the mask is not applied. A field
///   without a mask runs exactly the code it always did.
/// - Fields with limited regions only visit the faces inside their region's bounding box.
/// All methods are const after setup() and safe to call from several threads at once.
class ForceEvaluator
{
public:
    /// Keeps the fields and turns mask regions into dense coverage for fast lookup.
    void setup(const Domain &domain, std::vector<ForceField> fields);
    bool empty() const { return mFields.empty(); }
    const std::vector<ForceField> &fields() const { return mFields; }

    /// Weight of field `n`'s region at a world position: 1 inside, smooth falloff outside.
    float regionWeight(std::size_t n, Vec3 world) const;

    /// Acceleration (world units / s^2) at a world position where the fluid moves with
    /// `velocity`, summed over all fields, at simulation time `time`.
    Vec3 acceleration(Vec3 world, Vec3 velocity, double time) const;

    /// Adds dt * acceleration to every open face of the MAC grid (closed faces are skipped),
    /// for the step [time, time + dt]. Drag uses each face's own velocity component. `weights`
    /// holds this step's control-mask grids (null: masks are not applied).
    void applyToMac(MacGrid &vel, const FlagGrid &solids, float dt, double time,
                    const ControlWeights *weights = nullptr) const;

private:
    /// What setup() derives from a field once, so that the per-face loops stay cheap.
    struct Prepared
    {
        Vec3 unit;           ///< normalised direction (Directional) or axis (Vortex; z in 2D)
        Int3 lo, hi;         ///< box of grid nodes (cell coordinates) outside which weight is 0
        bool active = false; ///< false when the field cannot change anything
    };
    /// Rows [j0, j0 + kBlockRows) and slabs [k0, k0 + kBlockSlabs) of the largest face grid.
    struct Block
    {
        int j0 = 0, k0 = 0, rows = 1, slabs = 1;
    };
    struct BlockScratch;
    struct BlockLattice;
    /// What one field needs during one applyToMac().
    struct FieldStep
    {
        double time = 0.0;
        const BlockLattice *lattice = nullptr; ///< Disturbance: this step's block kicks
        const ScalarGrid *mask = nullptr;      ///< the control mask's weights, or null
    };

    /// Face index range of field `n` on the face grid of `axis`, limited to `block`: [lo, hi].
    bool faceRange(std::size_t n, int axis, const Block &block, Int3 &lo, Int3 &hi) const;
    /// Adds field `n`'s weighted acceleration at the faces of `block` to the block's sums.
    void accumulateField(std::size_t n, const MacGrid &vel, const Block &block,
                         const FieldStep &step, BlockScratch &s) const;
    /// Turbulence on the MAC grid: the discrete curl of an edge-sampled curl-noise potential.
    void accumulateTurbulence(std::size_t n, const Block &block, const FieldStep &step,
                              BlockScratch &s) const;
    /// Disturbance field `n`'s block directions over its region's box, averaged over the
    /// refreshes of [time, time + dt].
    void buildLattice(std::size_t n, float dt, double time, BlockLattice &out) const;

    Domain mDomain;
    std::vector<ForceField> mFields;
    std::vector<ScalarGrid> mMasks; ///< dense coverage per field; empty grid when shape-based
    std::vector<Prepared> mPrepared;
};

/// Buoyancy (Fedkiw, Stam and Jensen 2001, eq. 8): f = (-alpha * density
/// + beta * (temperature - ambient)) * up, sampled at faces from the two adjacent cells.
/// The end faces of an axis see their one cell (both cells across the seam when periodic);
/// closed faces are left untouched; dt * f is added along each face's axis.
void addBuoyancy(MacGrid &vel, const ScalarGrid &density, const ScalarGrid &temperature,
                 const SimParams &params, const FlagGrid &solids, const Domain &domain, float dt);

/// The vorticity confinement's settings for one step.
struct Confinement
{
    float epsilon = 0.f;              ///< dimensionless strength
    float length = 0.f;               ///< L, world units; 0: the cell size h (the paper's)
    const ScalarGrid *mask = nullptr; ///< cell-centred weights (a control mask), or null
    /// Per tile of 8^3 cells (x fastest, as sparse/activetiles.h numbers them), whether it is
    /// live; null: all. The force acts only in cells of live tiles (the sparse smoke scheme's
    /// active tiles: forces run on them only), and the curl is found only where that needs it.
    const std::uint8_t *liveTiles = nullptr;
};

/// Vorticity confinement (Fedkiw, Stam and Jensen 2001, eq. 9-11): f = epsilon * L * (N x omega)
/// with N = grad|omega| / |grad|omega|| and L the confinement's length (the cell size h in the
/// paper, eq. 11), computed at cell centres, times the mask's weight there when there is one,
/// and averaged to the open faces (dt * f is added).
/// Uses the four workspace grids.
void addVorticityConfinement(MacGrid &vel, const Confinement &confinement, const FlagGrid &solids,
                             const Domain &domain, float dt, Workspace &work);
/// The paper's confinement: L = h, no mask.
inline void addVorticityConfinement(MacGrid &vel, float epsilon, const FlagGrid &solids,
                                    const Domain &domain, float dt, Workspace &work)
{
    addVorticityConfinement(vel, Confinement{.epsilon = epsilon}, solids, domain, dt, work);
}

/// One shredding force field's settings for one step (docs/look.md).
struct Shredding
{
    float strength = 0.f; ///< world units/s^2; > 0 stretches, < 0 squashes
    /// World units over which a temperature change of 1 makes a full-strength edge: the push
    /// fades with the gradient below 1 / edge, so that flat regions, whose gradient direction
    /// is noise, are left alone.
    float edge = 0.25f;
    const ScalarGrid *mask = nullptr; ///< cell-centred control-mask weights, or null
    /// The field's region (ForceEvaluator::regionWeight of field `field`), or null: everywhere.
    const ForceEvaluator *region = nullptr;
    std::size_t field = 0;
};

/// Shredding (Houdini Pyro's, as docs/look.md states it): at each fluid cell centre, with N the
/// direction of grad T (central differences, one-sided at walls and solids), u the
/// centre-averaged velocity and G = min(1, |grad T| edge),
///     a = strength * mask * region * G * (u . N) / |u| * N,
/// limited so that dt |a| <= |u . N| (a step at most doubles, or for a negative strength
/// removes, the velocity along the gradient; still gas gets no push); averaged to the open
/// faces (dt * a is added). Uses the four workspace grids.
void addShredding(MacGrid &vel, const ScalarGrid &temperature, const Shredding &shredding,
                  const FlagGrid &solids, const Domain &domain, float dt, Workspace &work);

/// Magnitude of the curl of `vel` at cell centres (1/s), central differences of the
/// centre-averaged velocity (one-sided next to walls, open ends and solids, wrapped on periodic
/// axes); zero in solid cells. `out` is reshaped to the domain's cells.
void vorticityMagnitude(const MacGrid &vel, const FlagGrid &solids, const Domain &domain,
                        ScalarGrid &out);

} // namespace plume::sim
