// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/solver.h>
#include <core/sim/numerics/noisetile.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace plume::sim {

/// Upres (docs/upres.md): a smoke solver's density, temperature, dye, fuel and flame on a grid
/// `factor` times finer per axis, so that artists simulate at 64-96 cells and bake 2-4 times
/// the detail. After wavelet turbulence (Kim, Thuerey, James and Gross 2008), with the fine
/// fields tied to the simulation's:
///
/// 1. the wrapped solver steps (velocity, sources, burning, forces, projection, its fields);
/// 2. two sets of noise coordinates follow its velocity; each set starts afresh every
///    `lifetime` seconds, half a lifetime apart, and fades in and out (a triangle weight), so
///    the noise moves with the smoke without being stretched out of shape;
/// 3. the turbulence's amplitude at each cell comes from the kinetic energy's finest resolved
///    band (the energy minus its [1 2 1] blur; sqrt(2 |e_high|)), times 2^(-5/6) per octave
///    below the grid (Kolmogorov's spectrum, as in Kim et al.), times `strength`;
/// 4. each fine cell traces back along the interpolated velocity plus the curl noise
///    (NoiseTile) at its coordinates, one octave per halving of the cell size, and takes each
///    field's fine value there (trilinear);
/// 5. each field is then matched to the simulation's: the difference between the solver's
///    field and the fine field averaged over each cell is interpolated back and added, and the
///    result is kept within the solver's range. The fine fields so hold the same smoke per cell
///    as the simulation (its sources, burning and dissipation) with sub-cell detail on top.
///
/// Work and the fine fields' non-zero values stay near the smoke: in a box around the cells
/// where any field is above kActiveThreshold, grown by kMargin cells and the step's travel, and
/// within it in the cells that close to such a cell along each axis; the fine fields are zero
/// elsewhere. Results are identical across thread counts; checkpoints hold the
/// wrapped solver's state, the fine fields and the noise coordinates.
class UpresSolver final : public Solver
{
public:
    static constexpr float kActiveThreshold = 1e-4f;
    static constexpr int kMargin = 2;
    static constexpr int kFields = 7; ///< density, temperature, dye r g b, fuel, flame

    /// Wraps `inner` (a smoke scheme solver over the coarse domain). `params` must be valid
    /// with upres active. May throw std::bad_alloc.
    UpresSolver(std::unique_ptr<Solver> inner, const SimParams &params);

    /// The fine grid over `domain`: `factor` times the cells per axis (not along z in 2D).
    static Domain fineDomainOf(const Domain &domain, int factor);

    const Domain &domain() const override { return mInner->domain(); }
    const Domain &sampleDomain() const override { return mFine; }
    const SimParams &params() const override { return mParams; }
    Status setParams(const SimParams &params) override;
    StepStats step(float dt, double time) override;
    void reset() override;
    void sample(FieldKind kind, ScalarGrid &out) const override;
    CellBox fieldBox() const override;
    void sampleIn(FieldKind kind, const CellBox &box, ScalarGrid &out) const override;
    float maxVelocity() const override { return mInner->maxVelocity(); }
    std::string firstNonFiniteField() const override;
    std::size_t memoryBytes() const override;
    double activeShare() const override { return mInner->activeShare(); }
    bool hasDye() const override { return mInner->hasDye(); }
    bool hasCombustion() const override { return mInner->hasCombustion(); }
    const FlagGrid &solids() const override { return mInner->solids(); }

    const Solver &inner() const { return *mInner; }
    /// The coarse cells the last step worked in (empty before the first step).
    const CellBox &box() const { return mBox; }
    /// Fine cells per cell along each axis (1 along z in 2D).
    Int3 factor() const { return mFactor; }

private:
    std::vector<StateField> stateFields() override;
    void stateRestored(bool solidsChanged) override;
    void applyObstacles(const FlagGrid &solids, const ObstacleMotion &motion) override;
    void applyEmitters(std::vector<Emitter> emitters) override;
    void applyForceFields(std::vector<ForceField> fields) override;

    /// Whether fine field f exists (dye and combustion only once the solver has them).
    bool present(int f) const;
    /// Allocates the fine dye and combustion fields once the solver has them.
    void ensureFields();
    /// The solver's fields (relative to ambient for temperature) and velocity at its cells.
    void sampleCoarse();
    /// mBox and mActive: the box around the cells holding smoke and, within it, the cells as
    /// near to them as the margin and the step's travel (see the class comment).
    void findSmoke(float dt);
    void advectCoordinates(float dt, double time);
    void computeAmplitude();
    /// Traces each fine cell of the box back and takes every fine field there (mAdvected).
    void traceFine(float dt, double time);
    /// Matches traced field f to the solver's (step 5 of the class comment) into mFields[f].
    void match(int f);
    /// Zeroes fine field f in the cells of mPrevBox outside mBox.
    void clearLeftCells(int f);
    /// mColumns for this step's box.
    void findColumns();

    std::unique_ptr<Solver> mInner;
    SimParams mParams;
    Domain mFine;
    Int3 mFactor{1, 1, 1};
    NoiseTile mTile;

    /// The fine fields (temperature relative to ambient), zero outside mBox.
    ScalarGrid mFields[kFields];
    /// Two sets of noise coordinates: their displacement from the cell centre, cells, per axis.
    ScalarGrid mCoords[2][3];

    CellBox mBox;     ///< this step's coarse cells
    CellBox mPrevBox; ///< the last step's (the whole domain after a restore)

    // Scratch, rewritten every step.
    ScalarGrid mCoarse[kFields];
    ScalarGrid mVelocity[3];       ///< the solver's cell-centre velocity, world units / s
    ScalarGrid mAmplitude;         ///< turbulence amplitude per cell, world units / s
    ScalarGrid mCoordsNext[2 * 3]; ///< both coordinate sets being advected
    ScalarGrid mAdvected[kFields]; ///< each fine field traced back, over the box
    ScalarGrid mDifference;        ///< solver's field minus the fine one's cell mean
    /// Per fine x of the box (the same for every row): its coarse cell, and the coarse samples
    /// and fraction a coarse cell-centred grid is interpolated between at its centre.
    struct FineColumn
    {
        int cell = 0;
        int i0 = 0, i1 = 0;
        float f = 0.f;
    };
    std::vector<FineColumn> mColumns;
    /// 1 for cells near smoke (findSmoke): only their fine cells are traced and matched,
    /// the others' fine values are 0.
    std::vector<std::uint8_t> mActive;
};

} // namespace plume::sim
