// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/ops/pressure.h>
#include <core/sim/smoke/smokesolver.h>

#include <memory>
#include <vector>

namespace plume::sim {

/// Cost that follows the smoke (docs/adaptive.md): the smoke scheme solved only inside a box
/// around the smoke, which grows and shrinks with it.
///
/// Before each step the box is set to the cells holding smoke (density, temperature, dye, fuel
/// or flame above kActiveThreshold) and the emitters' cells, with a margin of kMargin cells plus
/// twice the distance the fastest flow covers in the step, snapped outwards to tiles of kTile
/// cells. It grows at once and shrinks only by whole tiles once it is a tile too large, so it
/// does not flicker. Inside, an ordinary SmokeSolver runs on the sub-domain; its faces that lie
/// inside the domain are open, the others keep the domain's boundaries.
///
/// The far field: the whole domain on a grid kCoarsen times coarser keeps the flow the smoke
/// drives through the room. Just before the box's projection, the box's velocity is averaged
/// onto it, it is projected, and its pressure just outside each open face of the box becomes
/// that face's boundary pressure (instead of zero, which would let the smoke rise as if the
/// box stood in open air). Where the box grows, velocity starts from the far field's; density
/// and the other scalars start at zero. When the box changes, the state is copied across where
/// the boxes overlap.
///
/// Samples and solids are over the whole domain, so callers need not know the box exists;
/// exports may ask for the box alone (fieldBox, sampleIn), and checkpoints hold the box's
/// grids, the box and the far field. Results are identical across thread counts.
class AdaptiveDomainSolver final : public Solver
{
public:
    static constexpr int kTile = 8;
    static constexpr int kMargin = 4;
    static constexpr float kActiveThreshold = 1e-3f;
    static constexpr int kCoarsen = 4;

    /// Inputs must be valid (createSolver checks them). May throw std::bad_alloc.
    AdaptiveDomainSolver(const Domain &domain, const SimParams &params);

    const Domain &domain() const override { return mDomain; }
    const SimParams &params() const override { return mParams; }
    Status setParams(const SimParams &params) override;
    StepStats step(float dt, double time) override;
    void reset() override;
    void sample(FieldKind kind, ScalarGrid &out) const override;
    CellBox fieldBox() const override { return mBox; }
    void sampleIn(FieldKind kind, const CellBox &box, ScalarGrid &out) const override;
    float maxVelocity() const override { return mInner->maxVelocity(); }
    std::string firstNonFiniteField() const override { return mInner->firstNonFiniteField(); }
    std::size_t memoryBytes() const override;
    double activeShare() const override
    {
        return double(mBox.volume()) / double(mDomain.cellCount());
    }
    bool hasDye() const override { return mInner->hasDye(); }
    bool hasCombustion() const override { return mInner->hasCombustion(); }
    bool keepScalarStages(bool keep) override;
    void sampleStage(ScalarStage stage, FieldKind kind, ScalarGrid &out) const override;
    const FlagGrid &solids() const override { return mSolids; }

    /// Fine cells per far-field cell along each axis: kCoarsen, or 1 on a domain with an axis
    /// under 4 kCoarsen cells (and along z in 2D).
    static Int3 farFactor(const Domain &domain);
    /// The far field's grid over `domain` (its last cells may reach past the domain's edge).
    static Domain farDomainOf(const Domain &domain);

    /// The cells simulated in the last step (before the first: the emitters' box).
    const CellBox &box() const { return mBox; }
    /// The sub-domain solver over box().
    const SmokeSolver &inner() const { return *mInner; }

private:
    std::vector<StateField> stateFields() override;
    void stateRestored(bool solidsChanged) override;
    void applyObstacles(const FlagGrid &solids, const ObstacleMotion &motion) override;
    void applyEmitters(std::vector<Emitter> emitters) override;
    void applyForceFields(std::vector<ForceField> fields) override;

    /// The box the state and inputs ask for now (see the class comment).
    CellBox wantedBox(float dt) const;
    /// `box` made to span every periodic axis whole (a box cannot wrap around).
    CellBox wholePeriodicAxes(CellBox box) const;
    /// Grows `box` until none of its open faces has a solid beyond a fluid cell.
    void growAroundSolids(CellBox &box) const;
    /// Moves the solver onto `box`, carrying the state over where the boxes overlap.
    void moveTo(const CellBox &box);
    /// A solver over `box` with the inputs handed over (at rest, empty).
    std::unique_ptr<SmokeSolver> makeInner(const CellBox &box);
    /// Just before the inner projection: projects the far field and gives the box's open
    /// faces its pressure (see the class comment).
    void projectFarField(float dt);
    /// The far field's pressure at `p` (coarse cell coordinates), interpolated from fluid cells.
    float farPressureAt(Vec3 p) const;
    /// Coarse solids from the domain's: a coarse cell is solid when most of its cells are or a
    /// whole slice of it across an axis is (a plate one cell thin still stops the far field).
    void setFarSolids();

    Domain mDomain;
    SimParams mParams;
    CellBox mBox;
    CellBox mEmitterBox; ///< bounds of the emitters' cells (empty without emitters)
    std::unique_ptr<SmokeSolver> mInner;
    bool mKeepStages = false; ///< handed to every inner solver (keepScalarStages)

    // The inputs over the whole domain, cropped to the box for the inner solver.
    FlagGrid mSolids;
    ObstacleMotion mMotion;
    std::vector<Emitter> mEmitters;
    std::vector<ForceField> mForceFields;

    /// The far field: the whole domain, kCoarsen times coarser per axis (1 below 16 cells on
    /// an axis, and always 1 along z in 2D), at rest but for the flow the box drives through it.
    /// mFactor: fine cells per coarse cell along each axis.
    Int3 mFactor{1, 1, 1};
    Domain mFarDomain;
    FlagGrid mFarSolids;
    PressureSolver mFarPressure;
    MacGrid mFarVelocity;
    ScalarGrid mFarPressureField;
    Workspace mFarWork;
    ScalarGrid mFarExpansion; ///< scratch: the box's burning-gas expansion, averaged

    /// Checkpoints: the box, filled by stateFields() and read back by stateRestored() (the
    /// inner solver's grids hold the rest); emptied by the next step.
    ScalarGrid mStageBox;
};

} // namespace plume::sim
