// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/solver.h>
#include <core/sim/base/workspace.h>
#include <core/sim/ops/advection.h>
#include <core/sim/ops/forces.h>
#include <core/sim/ops/obstaclemotion.h>
#include <core/sim/ops/pressure.h>

#include <functional>
#include <vector>

namespace plume::sim {

/// The production scheme: staggered MAC velocity, semi-Lagrangian advection with optional
/// MacCormack/BFECC correction, optional accounting (mass-conserving) density advection,
/// implicit viscosity and diffusion, dissipation, buoyancy and vorticity confinement
/// (Fedkiw, Stam and Jensen 2001), and a multigrid-preconditioned CG pressure projection.
///
/// Combustion (docs/fire.md): once an emitter emits fuel, fuel and flame fields follow the flow
/// and burn to heat, soot, flame and expanding gas.
///
/// Moving obstacles (docs/colliders.md): faces touching a solid take its normal velocity (and
/// open faces beside a no-slip solid its tangential one) wherever boundaries are enforced, so
/// the projection sees the moving walls; cells a solid leaves are filled from their neighbours.
///
/// State: velocity (faces), density, temperature, optional RGB dye, optional fuel and flame,
/// and pressure (centres).
/// Stages borrow the shared Workspace grids, which keeps the state under 64 bytes per cell.
class SmokeSolver final : public Solver
{
public:
    /// Inputs must be valid (createSolver checks them). May throw std::bad_alloc.
    SmokeSolver(const Domain &domain, const SimParams &params);

    const Domain &domain() const override { return mDomain; }
    const SimParams &params() const override { return mParams; }
    Status setParams(const SimParams &params) override;
    StepStats step(float dt, double time) override;
    void reset() override;
    void sample(FieldKind kind, ScalarGrid &out) const override;
    float maxVelocity() const override;
    std::string firstNonFiniteField() const override;
    std::size_t memoryBytes() const override;
    bool hasDye() const override { return mDye[0].count() > 0; }
    bool hasCombustion() const override { return mFuel.count() > 0; }
    bool keepScalarStages(bool keep) override;
    void sampleStage(ScalarStage stage, FieldKind kind, ScalarGrid &out) const override;

    const MacGrid &velocity() const { return mVelocity; }
    const ScalarGrid &density() const { return mDensity; }
    const ScalarGrid &temperature() const { return mTemperature; }
    const FlagGrid &solids() const override { return mSolids; }
    /// The divergence (1 / s) the last step's projection gave each cell: burning gas expanding.
    /// Empty without combustion.
    const ScalarGrid &expansion() const { return mExpansion; }

private:
    friend class AdaptiveDomainSolver; // runs one over a box of the domain (adaptivedomain.h)
    friend class TiledSmokeSolver;     // projects its velocity over active tiles (tiledsmoke.h)

    std::vector<StateField> stateFields() override;
    void stateRestored(bool solidsChanged) override;
    void applyObstacles(const FlagGrid &solids, const ObstacleMotion &motion) override;
    void applyEmitters(std::vector<Emitter> emitters) override;
    void applyForceFields(std::vector<ForceField> fields) override;
    void enforceBoundaries();
    void advectVelocity(float dt);
    /// The stages that follow the active tiles take these flags (mLiveTiles).
    void setLiveTiles(const std::uint8_t *flags)
    {
        mLiveTiles = flags;
        mAdvector.setLiveTiles(flags);
    }
    void addSources(float dt, double time);
    double burnFuel(float dt);
    void addForces(float dt, double time);
    void evaluateControlMasks();
    void applyInflow();
    void diffuseVelocity(float dt);
    void beforeProjection(float dt);
    StepStats project(float dt, bool expanding);
    void admitAmbientAir(float dt);
    void advectScalars(float dt);
    /// Copies the scalar fields into mStages[stage] when they are kept.
    void keepStage(ScalarStage stage);
    void diffuseScalars(float dt);
    void dissipate(float dt);

    void ensureDye();
    void ensureCombustion();

    Domain mDomain;
    SimParams mParams;
    FlagGrid mSolids;
    /// Faces the moving solids drive and their velocities (empty while every solid is at rest):
    /// the moving-obstacle state, built by setObstacles from the solids and their motion.
    detail::DrivenFaces mDrivenFaces;
    std::vector<Emitter> mEmitters;
    /// This step's noise factor per emitter and mask cell (scratch; empty: no noise).
    std::vector<std::vector<float>> mEmitterFactors;
    ForceEvaluator mForces;
    /// This step's control-mask weights (scratch, rebuilt every step; none without masks).
    ControlWeights mControlWeights;
    Advector mAdvector;
    PressureSolver mPressure;
    Workspace mWork;

    MacGrid mVelocity;
    ScalarGrid mDensity;
    ScalarGrid mTemperature;
    ScalarGrid mDye[3];
    ScalarGrid mFuel; ///< combustion only, like the three below
    ScalarGrid mFlame;
    ScalarGrid mExpansion;             ///< divergence source of the last step, 1 / s
    std::vector<std::uint8_t> mIgnite; ///< cells where emitted fuel burns whatever the heat
    ScalarGrid mPressureField;
    /// The scalar fields at both stages of the last step (keepScalarStages), in the order of
    /// keptField(); empty when not kept.
    bool mKeepStages = false;
    ScalarGrid mStages[2][7];
    /// Called with dt just before the projection (the adaptive domain's far field); empty
    /// otherwise.
    std::function<void(float)> mBeforeProjection;
    /// Called with dt and whether gas burnt in place of the dense projection (the active tiles'
    /// composite solve); empty otherwise.
    std::function<StepStats(float, bool)> mProjection;
    /// The active tiles' flags (per 8^3 tile, ops/livetiles.h; null: the whole domain): the
    /// velocity moves and the vorticity confinement acts on them only. Set by setLiveTiles.
    const std::uint8_t *mLiveTiles = nullptr;
};

} // namespace plume::sim
