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
/// the detail. The fine fields follow the simulated flow on their own grid, with sub-grid
/// turbulence after wavelet turbulence (Kim, Thuerey, James and Gross 2008), and take every
/// change the solver makes to its fields other than moving them:
///
/// 1. the wrapped solver steps (velocity, sources, burning, forces, projection, its fields),
///    keeping its fields just before and just after it advects them;
/// 2. each fine field takes what the sources and the burning changed in that step (before the
///    advection) per cell: a loss as a factor, a gain added, both interpolated;
/// 3. two sets of noise coordinates follow the solver's velocity; each set starts afresh every
///    `lifetime` seconds, half a lifetime apart, and fades in and out (a triangle weight), so
///    the noise moves with the smoke without being stretched out of shape;
/// 4. the turbulence's amplitude at each cell comes from the kinetic energy's finest resolved
///    band (the energy minus its [1 2 1] blur; sqrt(2 |e_high|)), times 2^(-5/6) per octave
///    below the grid (Kolmogorov's spectrum, as in Kim et al.), times `strength`;
/// 5. each fine cell traces back along the interpolated velocity plus the curl noise
///    (NoiseTile) at its coordinates and takes each fine field there; MacCormack's correction
///    with its limiter (Selle et al. 2008) keeps the fine fronts a few fine cells wide;
/// 6. each fine field takes the solver's changes after the advection (diffusion, dissipation,
///    cooling) as in 2;
/// 7. the fine fields' large scales are pulled back towards the solver's, slowly
///    (kMatchSeconds), and kept within the solver's range: the per-cell difference, blurred
///    over three cells, so that sharper fronts are left as they are.
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
    /// How slowly match() pulls the fine fields' large scales back to the solver's: the time
    /// over which a difference falls to 1 / e. Slow, so that the fronts the fine grid keeps
    /// sharp are not blurred back to the solver's (docs/upres.md, "Spectra").
    static constexpr float kMatchSeconds = 3.f;
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
    /// The solver's fields now (temperature relative to ambient) into `out`.
    void sampleFields(ScalarGrid (&out)[kFields]) const;
    /// Field f at `stage` of the solver's last step (temperature relative to ambient).
    void sampleStage(int f, ScalarStage stage, ScalarGrid &out) const;
    void relativeToAmbient(ScalarGrid &temperature) const;
    /// mBox and mActive: the box around the cells holding smoke and, within it, the cells as
    /// near to them as the margin and the step's travel (see the class comment).
    void findSmoke(float dt);
    void advectCoordinates(float dt, double time);
    void computeAmplitude();
    /// Traces each fine cell of the box back and takes every fine field there (mAdvected).
    void traceFine(float dt, double time);
    /// Fine field f takes the solver's change of the field from `before` to `after` (cells of
    /// the solver): what it lost as a factor, what it gained added (step 2 of the class
    /// comment).
    void follow(int f, const ScalarGrid &before, const ScalarGrid &after);
    /// MacCormack's correction of the trace of field f (mAdvected[f]) into mFields[f].
    void correctTrace(int f);
    /// Pulls fine field f towards the solver's field at the large scales (step 5).
    void match(int f);
    /// `g` (cells of the solver) blurred by [1 2 1] / 4 along each axis within the box,
    /// `passes` times.
    void blur(ScalarGrid &g, int passes);
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
    ScalarGrid mStart[kFields];    ///< the solver's fields before the step
    ScalarGrid mStage;             ///< one field at a stage of the solver's step
    ScalarGrid mAmplitudeScratch;  ///< per-cell factors and blurs
    ScalarGrid mMove[3];           ///< each fine cell's move in the step, fine cells, over the box
    ScalarGrid mCorrected;         ///< one fine field after MacCormack's correction, over the box
    float mDt = 0.f;               ///< this step's
    /// Per fine x of the box (the same for every row): its coarse cell, and the coarse samples
    /// and fraction a coarse cell-centred grid is interpolated between at its centre.
    struct FineColumn
    {
        int cell = 0;
        int i0 = 0, i1 = 0;
        float f = 0.f;
        /// A line of coarse samples along x (one fine row's) interpolated at this column.
        float at(const float *line) const { return line[i0] + f * (line[i1] - line[i0]); }
    };
    std::vector<FineColumn> mColumns;
    /// 1 for cells near smoke (findSmoke): only their fine cells are traced and matched,
    /// the others' fine values are 0.
    std::vector<std::uint8_t> mActive;
};

} // namespace plume::sim
