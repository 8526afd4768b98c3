// SPDX-License-Identifier: Apache-2.0
#pragma once
// Integrals of a smoke plume that a chaotic flow keeps comparable long after pointwise
// agreement is lost (issue 36, docs/adaptive.md "The dense solve's own spread"), and the test
// of a candidate run against an ensemble of slightly perturbed dense runs.

#include <core/sim/base/domain.h>
#include <core/sim/base/grid.h>

#include <array>
#include <span>
#include <vector>

namespace plume::sim {

/// Integrals of one frame. y is up (the scenes' default). Cells weigh their volume h^3 (in 2D
/// too: the domain is one cell deep). Positions are world units.
struct PlumeIntegrals
{
    /// Sum of density x cell volume.
    double totalSmoke = 0;
    /// The height of the plume's front, world y: the slab totals S_j (density summed over the
    /// row of cells j, times the cell volume) are taken at the row centres y_j, linearly
    /// interpolated between them, and the front is the highest y where that line falls to
    /// kFrontFraction of the largest S_j. That is y_j + h (S_j - t) / (S_j - S_{j+1}) for the
    /// highest row j with S_j > t = kFrontFraction max S, with S above the top row taken as 0,
    /// at most the domain's top. The domain's bottom (origin.y) when there is no smoke.
    double frontHeight = 0;
    /// Density-weighted mean position of the cell centres; the domain's centre without smoke.
    std::array<double, 3> centroid{0, 0, 0};
    /// Horizontal spread: sqrt of the mean of the density-weighted variances of x and z about
    /// the centroid (in 2D, of x alone); 0 without smoke.
    double spread = 0;
    /// 0.5 sum |u|^2 x cell volume, the face velocities averaged to the cell centres (as
    /// MacGrid::atCentre does), density 1.
    double kineticEnergy = 0;
    /// Slab totals S_j per row of cells j (bottom to top) divided by totalSmoke: sums to 1 (all
    /// zero without smoke).
    std::vector<double> profile;
};

/// The front's threshold: a slab counts as reached while it holds more than this fraction of
/// the fullest slab's smoke.
inline constexpr double kFrontFraction = 1e-3;

/// Every integral but the kinetic energy, from cell-centred `density` over `domain`'s cells.
/// Sums are ordered (rows, then slabs bottom to top): the same bits for any thread count.
PlumeIntegrals densityIntegrals(const Domain &domain, const ScalarGrid &density);

/// 0.5 sum |u|^2 h^3 over the cells of `cells` (a box within velocity.cells(); by default all of
/// them), u the face velocities averaged to the cell centres; h the cell size. A solver that
/// simulates only a box (the adaptive domain's inner solver) passes its own velocity whole.
/// Ordered like densityIntegrals.
double kineticEnergy(const MacGrid &velocity, float cellSize, const CellBox &cells);
double kineticEnergy(const MacGrid &velocity, float cellSize);

/// densityIntegrals() and kineticEnergy() over the whole domain; `velocity` over its cells.
PlumeIntegrals plumeIntegrals(const Domain &domain, const ScalarGrid &density,
                              const MacGrid &velocity);

/// The quantities compared, in table order. Profile is compared as an L1 distance (see
/// EnsembleTolerance).
enum class Integral : int {
    TotalSmoke,
    FrontHeight,
    CentroidX,
    CentroidY,
    CentroidZ,
    Spread,
    KineticEnergy,
    Profile,
};
inline constexpr int kIntegralCount = 8;
/// Short names for tables: "total smoke", "front", "centroid x", ..., "profile L1".
const char *toString(Integral integral);
/// The scalar value of an integral (not Profile, whose value is a distance: 0 is returned).
double integralValue(const PlumeIntegrals &integrals, Integral integral);

/// How far outside an ensemble's range a candidate may lie.
///
/// A scalar integral's interval is [min - m R - floor, max + m R + floor], R = max - min over
/// the members, m = rangeMargin. A candidate drawn from the same distribution as the members
/// falls outside [min, max] often (1 in 5 with 9 Gaussian members); widened by one range on
/// each side, 1 in 300 (a Monte Carlo estimate for 9 members, 1 in 33 for 5). The floor,
/// relativeFloor times a scale, keeps a range that vanishes (an integral the perturbations
/// hardly move) from asking for identical bits: the scale is |mean| of the members for the
/// total smoke and the kinetic energy, the domain's extent along the axis for the front height
/// and the centroid, and the mean of the x and z extents (x alone in 2D) for the spread.
///
/// The vertical profile is compared as a whole: the candidate's L1 distance to the members'
/// mean profile, d_c, must be at most (1 + m) max_i d_i + relativeFloor, where d_i is member
/// i's L1 distance to the mean of the other members (leave-one-out, so a member is not
/// compared with a mean that holds itself). L1 distances of normalised profiles lie in [0, 2].
struct EnsembleTolerance
{
    double rangeMargin = 1.0;
    double relativeFloor = 1e-3;
    int firstFrame = 24; ///< frames compared, inclusive (frame 1 is the first simulated)
    int lastFrame = 96;
};

/// One integral of one frame against the ensemble.
struct IntegralCheck
{
    double min = 0, max = 0;  ///< the members' range (Profile: of their distances d_i)
    double low = 0, high = 0; ///< the widened interval (Profile: low 0)
    double value = 0;         ///< the candidate's value (Profile: d_c)
    bool inside = true;
};

/// Every integral of one frame.
struct FrameCheck
{
    int frame = 0;
    std::array<IntegralCheck, kIntegralCount> checks{};
    bool inside() const;
    const IntegralCheck &operator[](Integral i) const { return checks[std::size_t(i)]; }
};

/// One frame: `members` (at least 2) against `candidate`.
FrameCheck checkFrame(const Domain &domain, std::span<const PlumeIntegrals> members,
                      const PlumeIntegrals &candidate, const EnsembleTolerance &tolerance = {});

/// Runs compared frame by frame: runs[r][f] holds run r's integrals at frame f + 1.
struct EnsembleVerdict
{
    std::vector<FrameCheck> frames; ///< the frames of the tolerance's window the runs reach
    int outside = 0;                ///< checks outside their interval, over all frames
    bool inside() const { return outside == 0 && !frames.empty(); }
};

/// The candidate against the members for every frame in [firstFrame, lastFrame] that all of
/// them reach. Needs at least 2 members; with fewer, no frame is compared (inside() false).
EnsembleVerdict compareWithEnsemble(const Domain &domain,
                                    const std::vector<std::vector<PlumeIntegrals>> &members,
                                    const std::vector<PlumeIntegrals> &candidate,
                                    const EnsembleTolerance &tolerance = {});

} // namespace plume::sim
