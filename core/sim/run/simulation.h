// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/result.h>
#include <core/sim/base/solver.h>
#include <core/sim/ops/advectedcoords.h>
#include <core/sim/run/sidewatch.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace plume::sim {

/// Keys and ranges of TimeSettings' numbers (param.h); the defaults are its initialisers.
namespace timeParams {
inline constexpr Param frameRate{
    .key = "frameRate", .min = 0, .max = 10000, .openMin = true, .decimals = 2};
inline constexpr Param substeps{.key = "substeps", .min = 1, .max = 1000, .integer = true};
inline constexpr Param cfl{.key = "cfl", .min = 0, .softMax = 100, .decimals = 2};
inline constexpr Param maxSubsteps{.key = "maxSubsteps", .min = 1, .max = 1000, .integer = true};
} // namespace timeParams

/// How frames are split into solver steps.
struct TimeSettings
{
    float frameRate = 24.f; ///< frames per second
    int substeps = 1;       ///< steps per frame when cfl == 0
    float cfl = 0.f;        ///< > 0: choose substeps so that no cell moves more than cfl cells
    int maxSubsteps = 16;   ///< upper bound on CFL-chosen substeps

    Status validate() const;

    friend bool operator==(const TimeSettings &, const TimeSettings &) = default;
};

/// What a frame did, or why it stopped.
struct FrameStats
{
    Status status; ///< failure: blow-up (names step and field) or bad input
    int frame = 0; ///< the frame just finished (1 after the first frame)
    int substeps = 0;
    int pressureIterations = 0;    ///< summed over the substeps
    double pressureResidual = 0.0; ///< largest over the substeps
    bool pressureConverged = true;
    int pressureFallbacks = 0; ///< substeps whose multigrid preconditioner broke down
    double milliseconds = 0.0; ///< wall time of the frame
    /// Smoke and stam schemes: SideWatch::note of the open sides the smoke reached for the first
    /// time in this frame; "" when none did.
    std::string smokeAtSides;
};

/// What went wrong in a frame's pressure solves, for status lines: "" when every solve met its
/// tolerance with the multigrid preconditioner; else e.g. "multigrid fell back to diagonal in 1
/// of 2 substeps; not converged".
std::string pressureTrouble(const FrameStats &stats);

/// A solver advanced frame by frame: fixed frame rate, substeps (fixed or from a CFL number),
/// and blow-up detection after every step.
class Simulation
{
public:
    /// The simulation, or why the inputs make none.
    static Result<std::unique_ptr<Simulation>> create(const Domain &domain, const SimParams &params,
                                                      const TimeSettings &time);

    Solver &solver() { return *mSolver; }
    const Solver &solver() const { return *mSolver; }
    const TimeSettings &timeSettings() const { return mTime; }
    Status setTimeSettings(const TimeSettings &time);

    /// Called before each substep of a frame with its index and the frame's substep count (to
    /// move inputs within a frame, such as moving obstacles). A failure stops the frame.
    using StepHook = std::function<Status(int substep, int substeps)>;
    void setStepHook(StepHook hook) { mStepHook = std::move(hook); }

    /// Liquid-texture coordinates (advectedcoords.h): period 0 switches them off, an even
    /// period >= 2 carries two coordinate sets with the flow after every substep. A 3D domain
    /// or a bad period is refused.
    Status setTexturePeriod(int period) { return mCoords.configure(mSolver->domain(), period); }
    const AdvectedCoordinates &textureCoordinates() const { return mCoords; }

    /// Runs one frame. After a failure the simulation refuses further frames until reset().
    FrameStats advanceFrame();

    void reset();
    int frame() const { return mFrame; }
    double time() const { return mTime.frameRate > 0.f ? mFrame / double(mTime.frameRate) : 0.0; }
    std::int64_t stepsTaken() const { return mSteps; }

private:
    friend class Checkpoint; // checkpoint.h: saves and restores the counters with the state

    Simulation() = default;

    std::unique_ptr<Solver> mSolver;
    TimeSettings mTime;
    int mFrame = 0;
    std::int64_t mSteps = 0;
    std::string mFailure;
    StepHook mStepHook;
    AdvectedCoordinates mCoords;
    ScalarGrid mVelocity[2];         ///< cell-centred velocity for the coordinates (scratch)
    std::optional<SideWatch> mSides; ///< smoke and stam schemes: smoke at the open sides
    ScalarGrid mDensity;             ///< the frame's density for mSides (scratch)
};

} // namespace plume::sim
