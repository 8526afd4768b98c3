// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/fixedpoint.h>
#include <core/sim/base/solver.h>
#include <core/sim/ops/forces.h>
#include <core/sim/ops/obstaclemotion.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace plume::sim {

namespace detail {

/// Index layout of a padded stam grid: the domain's cells plus one ghost layer on every side
/// ((nx+2)(ny+2)(nz+2) samples in 3D; (nx+2)(ny+2) in 2D, which has no z ghosts). Padded index
/// (i, j, k) with i in [1, nx], j in [1, ny], k in [k0, k1] is domain cell (i-1, j-1, k-k0).
struct StamLayout
{
    Int3 cells;            ///< interior cells (the domain's)
    Int3 padded;           ///< samples per axis: cells + 2 (z stays 1 in 2D)
    std::ptrdiff_t sy = 0; ///< flat step to the +y neighbour
    std::ptrdiff_t sz = 0; ///< flat step to the +z neighbour
    int k0 = 0;            ///< first interior z index (1 in 3D, 0 in 2D)
    int k1 = 0;            ///< last interior z index (nz in 3D, 0 in 2D)
    bool is3D = false;

    explicit StamLayout(Int3 domainCells = {1, 1, 1});
    std::size_t index(int i, int j, int k) const
    {
        return std::size_t(i)
               + std::size_t(padded.x) * (std::size_t(j) + std::size_t(padded.y) * k);
    }
    std::size_t count() const { return std::size_t(padded.volume()); }
};

} // namespace detail

/// The grid a stam solver stores its numbers in: ScalarGrid for float, FixedGrid for Fixed.
template<class T>
using StamGrid = std::conditional_t<std::is_same_v<T, float>, ScalarGrid, FixedGrid>;

/// The `stam` reference scheme: Jos Stam, "Real-Time Fluid Dynamics for Games" (GDC 2003),
/// followed step for step, in 2D and 3D.
///
/// Grid: collocated. Density, temperature, dye and all three velocity components are sampled at
/// cell centres of a grid padded with one ghost layer (detail::StamLayout), as in the paper's
/// figure 2. Velocity is in world units / s. The paper's h = 1/N becomes domain.cellSize, so
/// dt0 = dt / h (advection, in cells) and a = dt * diff / h^2 (diffusion); both equal the
/// paper's formulas when h = 1/N.
///
/// One step is the paper's prototype loop: gather the sources (emitters, force fields) into the
/// "prev" arrays, vel_step (add_source, diffuse, project, advect, project), then dens_step
/// (add_source, diffuse, advect) for density, temperature and the three dye channels.
/// diffuse and project run `params.stamIterations` Gauss-Seidel sweeps (lin_solve) in
/// `params.stamSweep` order: Paper (serial, the published loop order; 3D follows Mike Ash's
/// k-j-i order) or RedBlack (parallel, deterministic). set_bnd follows every update.
///
/// Domain faces: Wall is the paper's set_bnd (the velocity component normal to the face is
/// negated, everything else copied). Periodic ghosts copy the opposite interior cells and
/// advect wraps positions instead of clamping. Open copies every quantity (zero gradient) and
/// holds the projection's p at zero (Dirichlet). In 3D an edge ghost is the average of its two
/// adjacent face ghosts and a corner ghost the average of its three adjacent edge ghosts
/// (Ash's port leaves edges unset and weighs corners by 0.33); in 2D the corners are the
/// paper's. Only advect reads edges and corners, and it wraps indices on periodic axes instead.
///
/// Obstacles: better than the paper's two-cell rule. In lin_solve, project and advect a solid
/// neighbour of a fluid cell stands for the fluid cell's mirror image (scalars, pressure and
/// tangential velocity: the cell's own value; the velocity component normal to that face: its
/// negation), so each side of a one-cell wall sees only itself. lin_solve moves the mirror
/// term onto the diagonal (the exact Gauss-Seidel update of the mirrored equation). Backtraces
/// walk the crossed cells and stop before entering a solid one; interpolation renormalises its
/// weights onto the fluid corners that the end point's cell reaches through fluid faces, so a
/// staircase wall whose cells touch only at corners holds too. Solid cells hold zero
/// everything.
///
/// Moving obstacles (docs/colliders.md): the mirror image of a velocity component across the
/// face normal to it becomes 2 U - u (U: the solid's velocity), so that face moves at U in
/// lin_solve and in project's divergence; a no-slip solid mirrors its tangential components
/// the same way in lin_solve, and fluid cells beside it take its tangential velocity before
/// each projection. Cells a solid leaves get its velocity and their neighbours' contents.
///
/// The paper has no buoyancy, vorticity confinement, dissipation or higher-order advection:
/// those parameters are ignored by this scheme. Emitters: Force adds weight * velocity to the
/// paper's u_prev (an acceleration); Inflow then blends the velocity towards its target by
/// weight. Force fields add their acceleration at cell centres to u_prev.
///
/// T is the number type of the grids and of every kernel: float (StamSolver) or Q12.20 Fixed
/// (FixedStamSolver, params.stamNumeric "fixed"; docs/fixed-point.md). The per-step constants
/// (dt, dt / h, dt diff / h^2, 0.5 / h) and the inputs (emitters, forces, obstacle velocities)
/// are converted to T once where they enter; the obstacle walk of advect measures its segment
/// in float. A Fixed value that leaves its range is reported by outOfRangeField().
template<class T>
class BasicStamSolver final : public Solver
{
public:
    using Grid = StamGrid<T>;

    /// Allocates the grids. Inputs must be valid; may throw std::bad_alloc.
    BasicStamSolver(const Domain &domain, const SimParams &params);

    const Domain &domain() const override { return mDomain; }
    const SimParams &params() const override { return mParams; }
    Status setParams(const SimParams &params) override;

    /// StepStats.pressureIterations counts the Gauss-Seidel sweeps of both projections.
    StepStats step(float dt, double time) override;
    void reset() override;

    /// Pressure is the paper's p (a velocity potential, world units^2 / s; the physical
    /// pressure over density is p / dt). Divergence is the paper's central difference, 1 / s.
    void sample(FieldKind kind, ScalarGrid &out) const override;
    float maxVelocity() const override;
    std::string firstNonFiniteField() const override;
    /// Fixed: "velocity-x out of fixed-point range at cell (i, j[, k])" for the first such
    /// value (fields in stateFields' order, cells x fastest); float: always empty.
    std::string outOfRangeField() const override;
    std::size_t memoryBytes() const override;
    /// True while dye fields exist: from the first emitter with dye until a reset without one.
    bool hasDye() const override { return mHasDye; }
    const FlagGrid &solids() const override { return mSolids; }

private:
    std::vector<StateField> stateFields() override;
    void stateRestored(bool solidsChanged) override;
    void applyObstacles(const FlagGrid &solids, const ObstacleMotion &motion) override;
    void applyEmitters(std::vector<Emitter> emitters) override;
    void applyForceFields(std::vector<ForceField> fields) override;
    /// How set_bnd treats a field (the paper's b, plus pressure for open faces).
    enum class Quantity : std::uint8_t { Scalar, VelocityX, VelocityY, VelocityZ, Pressure };

    void gatherSources(double time);
    void velocityStep(float dt);
    void densityStep(float dt);
    void applyInflow();
    void addForceFields(double time);

    void setBoundary(Quantity q, Grid &x) const;
    void linSolve(Quantity q, Grid &x, const Grid &x0, float a, float c) const;
    void diffuse(Quantity q, Grid &x, const Grid &x0, float diff, float dt) const;
    void project(Grid &u, Grid &v, Grid &w);
    struct Carried
    {
        Grid *dst;
        const Grid *src;
        Quantity q;
    };
    void advect(const Carried *fields, int count, const Grid &u, const Grid &v, const Grid &w,
                float dt) const;

    void clearSolids();
    void fillUncovered(const detail::UncoveredCells &cells, const std::array<Grid, 3> &oldWalls);
    void imposeNoSlip();
    /// Padded velocity of the solids for a quantity's component, or null (at rest, a scalar).
    const T *wallsOf(Quantity q) const;
    void copyInterior(const Grid &src, ScalarGrid &out) const;

    Domain mDomain;
    SimParams mParams;
    detail::StamLayout mLayout;

    Grid mU, mV, mW;          ///< velocity (w empty in 2D)
    Grid mU0, mV0, mW0;       ///< the paper's u_prev: forces, then scratch
    Grid mPressure;           ///< p of the last projection
    Grid mDivergence;         ///< projection scratch (the paper's div)
    Grid mDensity, mDensity0; ///< density and its source / scratch array
    Grid mTemperature, mTemperature0;
    std::array<Grid, 3> mDye, mDye0; ///< empty until an emitter has dye

    FlagGrid mSolids;                 ///< the domain's obstacle cells
    std::vector<std::uint8_t> mFlags; ///< padded: solid self / neighbour bits; empty: no solids
    /// Padded velocity components of the moving solids (zero in fluid cells); empty while every
    /// solid is at rest (docs/colliders.md).
    std::array<Grid, 3> mObstacleVelocity;
    std::vector<std::uint8_t> mObstacleNoSlip; ///< padded: 1 in no-slip solids; empty: none

    std::vector<Emitter> mEmitters;
    std::vector<std::vector<std::uint32_t>> mEmitterCells; ///< padded indices per emitter
    ForceEvaluator mForces;

    bool mHasDye = false;
    bool mTemperatureLive = false; ///< false while temperature is zero everywhere
};

using StamSolver = BasicStamSolver<float>;
using FixedStamSolver = BasicStamSolver<Fixed>;
extern template class BasicStamSolver<float>;
extern template class BasicStamSolver<Fixed>;

} // namespace plume::sim
