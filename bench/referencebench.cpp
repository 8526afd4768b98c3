// SPDX-License-Identifier: Apache-2.0
// plume-bench --reference: Plume's smoke scheme beside the published codes it is measured
// against (issue 14; docs/performance.md), in one process so both see the same machine:
// - 2D 512^2: Stam's "Real-Time Fluid Dynamics for Games" solver as published (one thread,
//   20 Gauss-Seidel sweeps per diffuse and project), reference/stam_reference.cpp;
// - 3D 128^3: Mike Ash's FluidCube port (one thread, his 4 sweeps), reference/
//   stam_reference3d.cpp.
// Plume runs the built-in plume (smoke scheme, converged pressure, two threads) through
// SceneSimulation, one solver step per frame. Steps alternate, reference then Plume, and the
// table gives both medians and the median of the per-pair ratios.
#include "referencebench.h"

#include <reference/stam_reference.h>

#include <core/scene/builtinscene.h>
#include <core/scene/scenesimulation.h>

#include <oneapi/tbb/global_control.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

namespace plume::bench {

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double medianOf(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

/// The published solver's state on an N^2 or N^3 grid (padded with ghost cells) and the demo's
/// step: clear the source arrays, add a rising, dense source at the bottom centre (the demo's
/// mouse input, held), vel_step then dens_step with dt = 0.1, no viscosity or diffusion.
class ReferenceSolver
{
public:
    ReferenceSolver(int n, bool threeD)
        : mN(n)
        , mThreeD(threeD)
    {
        const std::size_t side = std::size_t(n) + 2;
        const std::size_t size = threeD ? side * side * side : side * side;
        for (std::vector<float> *a : {&mU, &mV, &mW, &mU0, &mV0, &mW0, &mDens, &mDens0})
            a->assign(size, 0.f);
    }

    void step()
    {
        const int n = mN;
        const std::size_t side = std::size_t(n) + 2;
        for (std::vector<float> *a : {&mU0, &mV0, &mW0, &mDens0})
            std::fill(a->begin(), a->end(), 0.f);
        const int r = std::max(1, n / 16);
        const int depth = mThreeD ? n : 1;
        for (int k = 1; k <= depth; ++k) {
            for (int j = 1; j <= std::max(1, n / 10); ++j) {
                for (int i = 1; i <= n; ++i) {
                    const int di = i - n / 2, dk = mThreeD ? k - n / 2 : 0;
                    if (di * di + dk * dk > r * r)
                        continue;
                    const std::size_t at = std::size_t(i)
                                           + side
                                                 * (std::size_t(j)
                                                    + (mThreeD ? side * std::size_t(k) : 0));
                    mV0[at] = 5.f;
                    mDens0[at] = 100.f;
                }
            }
        }
        const float dt = 0.1f;
        if (mThreeD) {
            stamref::vel_step3(n, mU.data(), mV.data(), mW.data(), mU0.data(), mV0.data(),
                               mW0.data(), 0.f, dt, stamref::kAshSweeps);
            stamref::dens_step3(n, mDens.data(), mDens0.data(), mU.data(), mV.data(), mW.data(),
                                0.f, dt, stamref::kAshSweeps);
        } else {
            stamref::vel_step(n, mU.data(), mV.data(), mU0.data(), mV0.data(), 0.f, dt);
            stamref::dens_step(n, mDens.data(), mDens0.data(), mU.data(), mV.data(), 0.f, dt);
        }
    }

private:
    int mN;
    bool mThreeD;
    std::vector<float> mU, mV, mW, mU0, mV0, mW0, mDens, mDens0;
};

std::unique_ptr<SceneSimulation> plumeSimulation(int resolution, bool threeD)
{
    BuiltinOptions options;
    options.resolution = resolution;
    options.threeD = threeD;
    options.scheme = sim::Scheme::Smoke;
    options.dye = false;
    Scene scene = makeBuiltinScene("plume", options).take(); // valid options
    sim::TimeSettings &time = scene.simulation.time;
    time.frameRate *= float(time.substeps);
    time.substeps = 1;
    auto simulation = std::make_unique<SceneSimulation>();
    if (sim::Status st = simulation->setScene(scene); !st) {
        std::fprintf(stderr, "plume-bench: %s\n", st.error.c_str());
        std::exit(1);
    }
    return simulation;
}

struct Comparison
{
    const char *grid;
    const char *reference;
    int resolution;
    bool threeD;
    double target; ///< Plume's time at most this fraction of the reference's
};

void compare(const Comparison &c, int warmup, int steps)
{
    ReferenceSolver reference(c.resolution, c.threeD);
    std::unique_ptr<SceneSimulation> plume = plumeSimulation(c.resolution, c.threeD);
    int frame = 0;
    sim::FrameStats last;
    auto stepPlume = [&] {
        last = plume->advance(++frame);
        if (!last.status) {
            std::fprintf(stderr, "plume-bench: %s\n", last.status.error.c_str());
            std::exit(1);
        }
        return last.milliseconds;
    };
    auto stepReference = [&] {
        // The published codes are single-threaded C: no pool thread runs beside them.
        oneapi::tbb::global_control one(oneapi::tbb::global_control::max_allowed_parallelism, 1);
        const Clock::time_point start = Clock::now();
        reference.step();
        return msSince(start);
    };
    for (int s = 0; s < warmup; ++s) {
        stepReference();
        stepPlume();
    }
    std::vector<double> ref, ours, ratio;
    int worstIterations = 0;
    double worstResidual = 0;
    for (int s = 0; s < steps; ++s) {
        ref.push_back(stepReference());
        ours.push_back(stepPlume());
        ratio.push_back(ours.back() / ref.back());
        worstIterations = std::max(worstIterations, last.pressureIterations);
        worstResidual = std::max(worstResidual, double(last.pressureResidual));
    }
    const double r = medianOf(ratio);
    std::printf("| %s | %s | %.2f | %.2f | %.3f (speed-up %.2f) | <= %.3f: %s | %d | %.2g |\n",
                c.grid, c.reference, medianOf(ref), medianOf(ours), r, 1.0 / r, c.target,
                r <= c.target ? "met" : "missed", worstIterations, worstResidual);
    std::fflush(stdout);
}

} // namespace

int runReferenceBench(int warmup, int steps, const std::string &only)
{
    oneapi::tbb::global_control two(oneapi::tbb::global_control::max_allowed_parallelism, 2);
    std::printf(
        "| grid | reference (1 thread) | reference ms/step | Plume smoke ms/step (2 threads) "
        "| median ratio Plume/reference | target | Plume pressure iterations (max) | "
        "residual (max) |\n|---|---|---|---|---|---|---|---|\n");
    const Comparison cases[] = {
        {"512^2", "Stam 2003, 20 sweeps", 512, false, 1.0 / 12.0},
        {"128^3", "Ash 2006, 4 sweeps", 128, true, 0.5},
    };
    for (const Comparison &c : cases) {
        if (only != (c.threeD ? "2d" : "3d"))
            compare(c, c.threeD ? std::min(warmup, 40) : warmup, steps);
    }
    return 0;
}

} // namespace plume::bench
