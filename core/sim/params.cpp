#include "params.h"

#include <cmath>

namespace plume::sim {

namespace {

Status checkFinite(const char *name, float v)
{
    if (!std::isfinite(v))
        return Status::failure(std::string("parameter ") + name + " is not a finite number");
    return Status::success();
}

Status checkNonNegative(const char *name, float v)
{
    if (Status s = checkFinite(name, v); !s)
        return s;
    if (v < 0.f)
        return Status::failure(std::string("parameter ") + name + " is " + std::to_string(v)
                               + "; it must not be negative");
    return Status::success();
}

} // namespace

const char *toString(Scheme s)
{
    switch (s) {
    case Scheme::Stam: return "stam";
    case Scheme::Smoke: return "smoke";
    }
    return "unknown";
}

const char *toString(AdvectionOrder a)
{
    switch (a) {
    case AdvectionOrder::SemiLagrangian: return "linear";
    case AdvectionOrder::MacCormack: return "maccormack";
    case AdvectionOrder::Bfecc: return "bfecc";
    }
    return "unknown";
}

const char *toString(SweepOrder o)
{
    switch (o) {
    case SweepOrder::Paper: return "paper";
    case SweepOrder::RedBlack: return "red-black";
    }
    return "unknown";
}

bool schemeFromString(const std::string &s, Scheme &out)
{
    return enumFromString(s, out, {Scheme::Stam, Scheme::Smoke});
}

bool advectionOrderFromString(const std::string &s, AdvectionOrder &out)
{
    return enumFromString(s, out,
                      {AdvectionOrder::SemiLagrangian, AdvectionOrder::MacCormack,
                       AdvectionOrder::Bfecc});
}

bool sweepOrderFromString(const std::string &s, SweepOrder &out)
{
    return enumFromString(s, out, {SweepOrder::Paper, SweepOrder::RedBlack});
}

Status SimParams::validate() const
{
    const std::pair<const char *, float> nonNegative[] = {
        {"viscosity", viscosity},
        {"diffusion", diffusion},
        {"densityDissipation", densityDissipation},
        {"temperatureDissipation", temperatureDissipation},
        {"velocityDissipation", velocityDissipation},
        {"vorticity", vorticity},
    };
    for (const auto &[name, v] : nonNegative) {
        if (Status s = checkNonNegative(name, v); !s)
            return s;
    }
    const std::pair<const char *, float> finite[] = {
        {"up.x", up.x},
        {"up.y", up.y},
        {"up.z", up.z},
        {"ambientTemperature", ambientTemperature},
        {"buoyancyDensity", buoyancyDensity},
        {"buoyancyTemperature", buoyancyTemperature},
    };
    for (const auto &[name, v] : finite) {
        if (Status s = checkFinite(name, v); !s)
            return s;
    }
    if (up.x == 0.f && up.y == 0.f && up.z == 0.f)
        return Status::failure("parameter up is the zero vector; it needs a direction");
    if (!std::isfinite(pressure.tolerance) || pressure.tolerance <= 0.0 || pressure.tolerance >= 1.0)
        return Status::failure("parameter pressure.tolerance is " + std::to_string(pressure.tolerance)
                               + "; it must lie in (0, 1)");
    if (pressure.maxIterations < 1 || pressure.maxIterations > 100000)
        return Status::failure("parameter pressure.maxIterations is "
                               + std::to_string(pressure.maxIterations)
                               + "; it must lie in [1, 100000]");
    if (stamIterations < 1 || stamIterations > 100000)
        return Status::failure("parameter stamIterations is " + std::to_string(stamIterations)
                               + "; it must lie in [1, 100000]");
    return Status::success();
}

} // namespace plume::sim
