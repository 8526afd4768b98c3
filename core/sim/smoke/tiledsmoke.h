// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/smoke/smokesolver.h>
#include <core/sim/sparse/activetiles.h>
#include <core/sim/sparse/compositepressure.h>

#include <memory>
#include <vector>

namespace plume::sim {

/// The smoke scheme over active tiles (docs/adaptive.md, issue 36), first stage: the tiles
/// follow the smoke, and the projection is one composite solve over the whole room (fine cells
/// in the active tiles, coarser cells elsewhere: CompositePressure). The velocity's advection
/// runs on the active tiles only (Advector::setLiveTiles: the far field keeps the projection's
/// velocity), the scalars' follows the smoke (Advector's active spans), and the other stages
/// still run over the whole domain on dense grids. It is not offered in scenes yet: the cost
/// targets of issue 36 cannot be met with its tile criterion (docs/adaptive.md).
///
/// Before each step the tiles holding smoke (density, temperature, dye, fuel or flame above
/// kThreshold) or vorticity (above kVorticityShare of the largest), padded by one tile plus the
/// distance the fastest flow moves in the step, the emitters' tiles and the moving obstacles' tiles
/// are active, and stay so for kLifetime steps. Outside the active tiles the velocity is the
/// composite solve's coarse far field, interpolated onto the fine faces; the pressure over the fine
/// cells is the composite cells' (and the next solve's warm start). Results do not depend on the
/// thread count; checkpoints hold the tiles' state, so a resumed run gives the same bytes.
class TiledSmokeSolver final : public Solver
{
public:
    static constexpr float kThreshold = 1e-3f;
    static constexpr int kLifetime = 8;
    /// Vorticity above this share of the largest also makes its tiles active. Built-in 3D plume
    /// at 128^3, density L1 against the dense solve at frame 24 (plume-bench --sparse): 3.5 %
    /// with smoke alone as the seed (tiles 18 % of the room), 0.18 % with this share (23 %),
    /// 0.10 % with 0.002 (27 %). The flow the smoke stirs up must be solved finely too.
    static constexpr double kVorticityShare = 0.01;

    /// Whether `domain` splits into whole tiles (CompositeGrid::fits): the condition.
    static bool supports(const Domain &domain) { return CompositeGrid::fits(domain); }

    /// Inputs must be valid and supports(domain). May throw std::bad_alloc.
    TiledSmokeSolver(const Domain &domain, const SimParams &params);

    const Domain &domain() const override { return mInner.domain(); }
    const SimParams &params() const override { return mInner.params(); }
    Status setParams(const SimParams &params) override;
    StepStats step(float dt, double time) override;
    void reset() override;
    void sample(FieldKind kind, ScalarGrid &out) const override { mInner.sample(kind, out); }
    float maxVelocity() const override { return mInner.maxVelocity(); }
    std::string firstNonFiniteField() const override { return mInner.firstNonFiniteField(); }
    std::size_t memoryBytes() const override;
    double activeShare() const override { return mTiles.share(); }
    bool hasDye() const override { return mInner.hasDye(); }
    bool hasCombustion() const override { return mInner.hasCombustion(); }
    bool keepScalarStages(bool keep) override { return mInner.keepScalarStages(keep); }
    void sampleStage(ScalarStage stage, FieldKind kind, ScalarGrid &out) const override
    {
        mInner.sampleStage(stage, kind, out);
    }
    const FlagGrid &solids() const override { return mInner.solids(); }

    /// The tiles of the last step.
    const ActiveTiles &tiles() const { return mTiles; }
    /// The share of the largest vorticity above which the flow makes its tiles active
    /// (kVorticityShare unless set; 0: smoke alone). For experiments (plume-bench --sparse
    /// --vorticity-share); a share outside [0, 1] is ignored.
    void setVorticityShare(double share)
    {
        if (share >= 0.0 && share <= 1.0)
            mVorticityShare = share;
    }
    double vorticityShare() const { return mVorticityShare; }
    /// The steps a tile stays active after it was last needed (kLifetime unless set). For
    /// experiments (plume-bench --sparse --lifetime); a lifetime outside [0, 65535] is ignored.
    void setLifetime(int steps)
    {
        if (steps >= 0 && steps <= 65535)
            mLifetime = steps;
    }
    int lifetime() const { return mLifetime; }
    /// The dense solver the stages run on.
    const SmokeSolver &inner() const { return mInner; }

private:
    std::vector<StateField> stateFields() override;
    void stateRestored(bool solidsChanged) override;
    void applyObstacles(const FlagGrid &solids, const ObstacleMotion &motion) override;
    void applyEmitters(std::vector<Emitter> emitters) override;
    void applyForceFields(std::vector<ForceField> fields) override;

    /// Marks this step's tiles from the state and the inputs.
    void updateTiles(float dt);
    /// Adds the tiles' seeds of the stirred flow (vorticity above mVorticityShare of the largest).
    void addStirredFlow(std::vector<CellBox> &seeds);
    /// Zeroes the scalars outside the active tiles (values below the threshold).
    void clearInactive();
    /// The composite projection, in place of the inner solver's dense one.
    StepStats project(float dt, bool expanding);

    SmokeSolver mInner;
    TileGrid mGrid;
    ActiveTiles mTiles;
    std::vector<CellBox> mEmitterBoxes;  ///< bounds of each emitter's cells: always active
    std::vector<CellBox> mObstacleBoxes; ///< the tiles of moving solids: always active
    CompositePressure mComposite;
    std::vector<std::uint8_t> mLayout; ///< the levels mComposite was set up with
    bool mSolidsChanged = true;
    CompositeFaces mFaces;
    std::vector<float> mTarget; ///< scratch: burning gas's expansion per composite cell
    ScalarGrid mVorticity;      ///< scratch: |curl u| for the tiles' seeds
    double mVorticityShare = kVorticityShare;
    int mLifetime = kLifetime;
    /// Checkpoints: the tiles' flags and timers (the pressure is the inner solver's).
    ScalarGrid mStageTiles;
};

} // namespace plume::sim
