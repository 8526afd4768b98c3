// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/solver.h>
#include <core/sim/ocean/oceansurface.h>

#include <memory>

namespace plume::sim {

/// The `ocean` scheme: deep-water waves of Tessendorf's "Simulating Ocean Water" over a
/// periodic 2D patch (the domain; docs/ocean.md). A Phillips spectrum (params.ocean) gives
/// random initial amplitudes; the surface at time t is their inverse FFT with each mode turned
/// by its frequency, quantised so that the surface repeats after ocean.loopPeriod. The state is
/// a pure function of the time: step() evaluates the surface at time + dt.
///
/// Fields: Height, DisplacementX/Y, NormalX/Y/Z and Foam; the fluid fields sample as 0. The
/// ocean has no velocity to advect: maxVelocity() is 0, so a CFL setting takes one substep.
/// Obstacles, emitters and force fields do not act on the waves; the scene reader refuses
/// scenes that have them (solids() stays all fluid).
class OceanSolver final : public Solver
{
public:
    /// The domain must be 2D and periodic in x and y (checkDomain). May throw std::bad_alloc.
    OceanSolver(const Domain &domain, const SimParams &params);

    /// Why an ocean cannot run on `domain`, or success.
    static Status checkDomain(const Domain &domain);

    const Domain &domain() const override { return mDomain; }
    const SimParams &params() const override { return mParams; }
    /// New ocean settings make a new spectrum; the surface is re-evaluated at the same time.
    Status setParams(const SimParams &params) override;

    StepStats step(float dt, double time) override;
    void reset() override;
    void sample(FieldKind kind, ScalarGrid &out) const override;
    float maxVelocity() const override { return 0.f; }
    std::string firstNonFiniteField() const override;
    std::size_t memoryBytes() const override;
    bool hasDye() const override { return false; }
    const FlagGrid &solids() const override { return mSolids; }

    /// The time of the surface, s.
    double time() const;
    const OceanFields &fields() const { return mFields; }
    const OceanSpectrum &spectrum() const { return mSpectrum; }

private:
    std::vector<StateField> stateFields() override;
    void stateRestored(bool solidsChanged) override;
    void applyObstacles(const FlagGrid &, const ObstacleMotion &) override {}
    void applyEmitters(std::vector<Emitter>) override {}
    void applyForceFields(std::vector<ForceField>) override {}

    void setTime(double t);
    void evaluate();

    Domain mDomain;
    SimParams mParams;
    FlagGrid mSolids;
    OceanSpectrum mSpectrum;
    std::unique_ptr<OceanSynthesis> mSynthesis;
    OceanFields mFields;
    /// The time as the bits of a double in two floats, so that checkpoints restore it exactly.
    ScalarGrid mTime;
};

} // namespace plume::sim
