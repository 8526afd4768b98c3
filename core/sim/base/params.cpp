// SPDX-License-Identifier: Apache-2.0
#include <core/sim/base/params.h>

#include <core/sim/base/domain.h>

namespace plume::sim {

namespace {

/// "parameter <name> is <v>; expected <range>" when `v` lies outside `p`.
Status check(const Param &p, double v, const std::string &name = {})
{
    if (p.contains(v))
        return Status::success();
    return Status::failure("parameter " + (name.empty() ? std::string(p.key) : name) + " is "
                           + formatNumber(v) + "; expected " + p.describe());
}

} // namespace

std::int64_t maxCells(const SimParams &params)
{
    return usesAdaptiveDomain(params) ? Domain::kAdaptiveMaxCells : Domain::kDefaultMaxCells;
}

Status SimParams::validate() const
{
    const std::pair<const Param &, float> scalars[] = {
        {simParams::viscosity, viscosity},
        {simParams::diffusion, diffusion},
        {simParams::densityDissipation, densityDissipation},
        {simParams::temperatureDissipation, temperatureDissipation},
        {simParams::velocityDissipation, velocityDissipation},
        {simParams::vorticity, vorticity},
        {simParams::vorticityLength, vorticityLength},
        {simParams::ambientTemperature, ambientTemperature},
        {simParams::buoyancyDensity, buoyancyDensity},
        {simParams::buoyancyTemperature, buoyancyTemperature},
    };
    for (const auto &[param, v] : scalars) {
        if (Status s = check(param, v); !s)
            return s;
    }
    for (int c = 0; c < 3; ++c) {
        if (Status s = check(simParams::up, up[c], std::string("up.") + "xyz"[c]); !s)
            return s;
    }
    if (up.x == 0.f && up.y == 0.f && up.z == 0.f)
        return Status::failure("parameter up is the zero vector; it needs a direction");
    if (Status s = sim::validate(vorticityMask); !s)
        return Status::failure("parameter vorticityMask" + s.error.substr(4)); // "mask: ..."
    if (Status s = check(simParams::pressureTolerance, pressure.tolerance, "pressure.tolerance");
        !s)
        return s;
    if (Status s = check(simParams::pressureMaxIterations, pressure.maxIterations,
                         "pressure.maxIterations");
        !s)
        return s;
    const std::pair<const Param &, float> burning[] = {
        {combustionParams::ignitionTemperature, combustion.ignitionTemperature},
        {combustionParams::burnRate, combustion.burnRate},
        {combustionParams::heatRelease, combustion.heatRelease},
        {combustionParams::smokePerFuel, combustion.smokePerFuel},
        {combustionParams::flameCooling, combustion.flameCooling},
        {combustionParams::expansion, combustion.expansion},
    };
    for (const auto &[param, v] : burning) {
        if (Status s = check(param, v, std::string("combustion.") + param.key); !s)
            return s;
    }
    const std::pair<const Param &, double> waves[] = {
        {oceanParams::windSpeed, ocean.windSpeed},
        {oceanParams::windDirection, ocean.windDirection},
        {oceanParams::amplitude, ocean.amplitude},
        {oceanParams::smallWaves, ocean.smallWaves},
        {oceanParams::choppiness, ocean.choppiness},
        {oceanParams::loopPeriod, ocean.loopPeriod},
        {oceanParams::seed, double(ocean.seed)},
        {oceanParams::gravity, ocean.gravity},
    };
    for (const auto &[param, v] : waves) {
        if (Status s = check(param, v, std::string("ocean.") + param.key); !s)
            return s;
    }
    const std::pair<const Param &, double> liquid[] = {
        {sphParams::restDensity, sph.restDensity},
        {sphParams::soundSpeed, sph.soundSpeed},
        {sphParams::viscosity, sph.viscosity},
        {sphParams::artificialViscosity, sph.artificialViscosity},
        {sphParams::surfaceTension, sph.surfaceTension},
        {sphParams::spacing, sph.spacing},
        {sphParams::smoothing, sph.smoothing},
        {sphParams::maxParticles, sph.maxParticles},
        {sphParams::courant, sph.courant},
        {sphParams::gravity, sph.gravity},
    };
    for (const auto &[param, v] : liquid) {
        if (Status s = check(param, v, std::string("sph.") + param.key); !s)
            return s;
    }
    const std::pair<const Param &, double> fine[] = {
        {upresParams::factor, upres.factor},
        {upresParams::strength, upres.strength},
        {upresParams::size, upres.size},
        {upresParams::lifetime, upres.lifetime},
    };
    for (const auto &[param, v] : fine) {
        if (Status s = check(param, v, std::string("upres.") + param.key); !s)
            return s;
    }
    return check(simParams::stamIterations, stamIterations);
}

} // namespace plume::sim
