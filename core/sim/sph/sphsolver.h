// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/solver.h>
#include <core/sim/ops/forces.h>
#include <core/sim/sph/sphgrid.h>
#include <core/sim/sph/sphkernels.h>

#include <vector>

namespace plume::sim {

/// The lattice sites of rest spacing `spacing` (world units) that liquid emitters fill in a
/// mask: the lattice is fixed to the domain (site a at origin + (a + 1/2) spacing per axis) and
/// a site belongs to the mask when its cell is covered at least half. In mask order.
std::vector<Vec3> sphLatticeSites(const Domain &domain, float spacing, const SparseMask &mask);

/// The `sph` scheme: a liquid of particles, Smoothed Particle Hydrodynamics after Mueller,
/// Charypar and Gross (SCA 2003) with a Tait equation of state (docs/sph.md). Each step:
///   density (poly6), pressure (Tait, clamped at 0), accelerations (spiky pressure gradient,
///   viscosity Laplacian, optional colour-field surface tension, gravity along -up, force
///   fields), symplectic Euler, collisions with solid cells and the domain's faces (walls stop
///   the particle, open faces remove it, periodic faces wrap it), then a stable counting sort
///   by neighbour cell.
/// step(dt) takes as many equal internal steps as the time-step bound needs (courant h /
/// (c + max speed), and h^2 / (8 nu) for viscosity). Every sum runs over neighbours in the sorted
/// order, one particle per task: the same bytes with any thread count.
///
/// Liquid comes from emitters with `liquid` set (Emitter::liquid): Fill adds particles on the
/// lattice of spacing `spacing * cellSize` inside the mask at the next step; Emit adds them
/// continuously and gives the particles in its mask its inflow velocity. Emitters without
/// `liquid` are ignored.
class SphSolver final : public Solver
{
public:
    /// May throw std::bad_alloc. The domain must pass checkDomain.
    SphSolver(const Domain &domain, const SimParams &params);

    /// Why the liquid cannot run on `domain` with `params` (a periodic axis too short for the
    /// kernel), or success.
    static Status checkDomain(const Domain &domain, const SimParams &params);

    const Domain &domain() const override { return mDomain; }
    const SimParams &params() const override { return mParams; }
    /// Everything but the particle spacing and kernel radius may change on a running solver.
    Status setParams(const SimParams &params) override;

    StepStats step(float dt, double time) override;
    void reset() override;
    void sample(FieldKind kind, ScalarGrid &out) const override;
    float maxVelocity() const override;
    std::string firstNonFiniteField() const override;
    std::size_t memoryBytes() const override;
    bool hasDye() const override { return false; }
    const FlagGrid &solids() const override { return mSolids; }
    const ParticleSet *particles() const override { return &mParticles; }

    /// Adds particles (tests and tools): the next step sorts them in.
    void addParticles(const std::vector<Vec3> &positions, const std::vector<Vec3> &velocities);
    /// One internal step of `dt` (no subdivision): what step() repeats.
    void advance(float dt, double time);
    /// The largest stable internal step now.
    float stableStep() const;
    /// The kinematic viscosity the viscosity term uses: nu + alpha h c.
    float effectiveViscosity() const;

    float spacing() const { return mSpacing; }
    float particleMass() const { return mMass; }
    const std::vector<float> &densities() const { return mDensity; }
    const SphKernels &kernels() const { return mKernels; }
    /// Bytes each particle needs in memory (its arrays and the sort's scratch).
    /// (position, velocity, acceleration, sort scratch; density, pressure, cell key, order;
    /// removal flag)
    static constexpr std::size_t kBytesPerParticle = 4 * sizeof(Vec3) + 4 * 4 + 1;

private:
    std::vector<StateField> stateFields() override;
    void stateRestored(bool solidsChanged) override;
    void applyObstacles(const FlagGrid &solids, const ObstacleMotion &motion) override;
    void applyEmitters(std::vector<Emitter> emitters) override;
    void applyForceFields(std::vector<ForceField> fields) override;

    // sphsolver.cpp: the physics.
    void sortByCell();
    void computeDensityPressure();
    void computeAccelerations(double time);
    void integrate(float dt);
    // sphboundary.cpp: where particles come from and what stops them.
    void fill();
    void emit(float dt);
    void applyInflow(float dt);
    void collide();
    void buildEscapes();
    bool occupied(Vec3 p) const;
    /// Adds a particle at lattice site `site` unless its cell is solid or a particle is near.
    void addAtSite(Vec3 site, Vec3 velocity);
    void removeMarked();
    std::vector<Vec3> latticeSites(const SparseMask &mask) const;

    /// What an Emit emitter has done: the particles owed, and the next lattice site to use.
    struct EmitState
    {
        float owed = 0.f;
        float cursor = 0.f; ///< an index, kept as a float for checkpoints (exact below 2^24)
    };

    Domain mDomain;
    SimParams mParams;
    int mDims = 3;
    float mSpacing = 0.f; ///< rest particle spacing, world units
    float mMass = 0.f;    ///< particle mass: rest density in the interior of the lattice
    SphKernels mKernels;
    SphGrid mGrid;

    ParticleSet mParticles;
    std::vector<float> mDensity;
    std::vector<float> mPressure;
    std::vector<Vec3> mAccel;
    std::vector<std::uint8_t> mRemove; ///< particles leaving through open faces (scratch)
    std::vector<Vec3> mScratch;        ///< permutations

    FlagGrid mSolids;
    ObstacleMotion mMotion;
    std::vector<std::int32_t> mEscape;     ///< per solid cell: the nearest fluid cell, or -1
    std::vector<Emitter> mEmitters;        ///< those with liquid set
    std::vector<std::vector<Vec3>> mSites; ///< per emitter: its lattice sites
    std::vector<EmitState> mEmitState;     ///< per Emit emitter, in order (fills need none)
    bool mFillPending = false;
    ForceEvaluator mForces;

    /// Checkpoint mirrors of the particle arrays and the emitters' state (stateFields fills
    /// them, stateRestored reads and frees them).
    ScalarGrid mSavedPositions, mSavedVelocities, mSavedEmission;
};

} // namespace plume::sim
