// SPDX-License-Identifier: Apache-2.0
#include <core/sim/run/simulation.h>
#include <core/sim/run/solverfactory.h>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace plume::sim {

std::string pressureTrouble(const FrameStats &stats)
{
    std::string note;
    if (stats.pressureFallbacks > 0) {
        note.append("multigrid fell back to diagonal in ");
        note.append(std::to_string(stats.pressureFallbacks));
        note.append(" of ");
        note.append(std::to_string(stats.substeps));
        note.append(" substeps");
    }
    if (!stats.pressureConverged)
        note.append(note.empty() ? "not converged" : "; not converged");
    return note;
}

Status TimeSettings::validate() const
{
    const std::pair<const Param &, double> values[] = {
        {timeParams::frameRate, frameRate},
        {timeParams::substeps, substeps},
        {timeParams::cfl, cfl},
        {timeParams::maxSubsteps, maxSubsteps},
    };
    for (const auto &[param, v] : values) {
        if (!param.contains(v))
            return Status::failure(std::string(param.key) + " is " + formatNumber(v) + "; expected "
                                   + param.describe());
    }
    return Status::success();
}

Result<std::unique_ptr<Simulation>> Simulation::create(const Domain &domain,
                                                       const SimParams &params,
                                                       const TimeSettings &time)
{
    if (Status s = time.validate(); !s)
        return s;
    Result<std::unique_ptr<Solver>> solver = createSolver(domain, params);
    if (!solver)
        return solver.status();
    std::unique_ptr<Simulation> sim(new Simulation);
    sim->mSolver = solver.take();
    sim->mTime = time;
    if (params.scheme == Scheme::Smoke || params.scheme == Scheme::Stam)
        sim->mSides.emplace(domain);
    return sim;
}

Status Simulation::setTimeSettings(const TimeSettings &time)
{
    if (Status s = time.validate(); !s)
        return s;
    mTime = time;
    return Status::success();
}

FrameStats Simulation::advanceFrame()
{
    FrameStats stats;
    if (!mFailure.empty()) {
        stats.status = Status::failure(mFailure + " (reset to continue)");
        stats.frame = mFrame;
        return stats;
    }
    const auto start = std::chrono::steady_clock::now();
    const float frameDt = 1.f / mTime.frameRate;
    int substeps = mTime.substeps;
    if (mTime.cfl > 0.f) {
        // Courant number: a step moves no sample more than cfl cells.
        const float maxCells = mSolver->maxVelocity() * frameDt / mSolver->domain().cellSize;
        substeps = std::clamp(int(std::ceil(maxCells / mTime.cfl)), 1, mTime.maxSubsteps);
    }
    const float dt = frameDt / float(substeps);
    for (int s = 0; s < substeps; ++s) {
        const double t = time() + double(s) * double(dt);
        if (mStepHook) {
            if (Status st = mStepHook(s, substeps); !st) {
                stats.status = st;
                stats.frame = mFrame;
                stats.substeps = s;
                return stats;
            }
        }
        const StepStats step = mSolver->step(dt, t);
        ++mSteps;
        stats.pressureIterations += step.pressureIterations;
        stats.pressureResidual = std::max(stats.pressureResidual, step.pressureResidual);
        stats.pressureConverged = stats.pressureConverged && step.pressureConverged;
        stats.pressureFallbacks += step.pressureFallback ? 1 : 0;
        std::string bad = mSolver->firstNonFiniteField();
        if (!bad.empty())
            bad = "field '" + bad + "' holds NaN or infinite values";
        else
            bad = mSolver->outOfRangeField();
        if (bad.empty() && mCoords.enabled()) {
            mSolver->sample(FieldKind::VelocityX, mVelocity[0]);
            mSolver->sample(FieldKind::VelocityY, mVelocity[1]);
            mCoords.advect(mVelocity[0], mVelocity[1], dt);
        }
        if (!bad.empty()) {
            mFailure = "simulation blew up at frame " + std::to_string(mFrame + 1) + ", substep "
                       + std::to_string(s + 1) + " of " + std::to_string(substeps) + " (step "
                       + std::to_string(mSteps) + "): " + bad;
            stats.status = Status::failure(mFailure);
            stats.frame = mFrame;
            stats.substeps = s + 1;
            return stats;
        }
    }
    ++mFrame;
    mCoords.frameFinished(mFrame);
    if (mSides && !mSides->done()) {
        mSolver->sample(FieldKind::Density, mDensity);
        stats.smokeAtSides = mSides->note(mSides->observe(mDensity));
    }
    stats.frame = mFrame;
    stats.substeps = substeps;
    stats.milliseconds =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return stats;
}

void Simulation::reset()
{
    mSolver->reset();
    mCoords.reset();
    if (mSides)
        mSides->reset();
    mFrame = 0;
    mSteps = 0;
    mFailure.clear();
}

} // namespace plume::sim
