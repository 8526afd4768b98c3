// SPDX-License-Identifier: Apache-2.0
#include <core/sim/base/sources.h>

#include <cmath>

namespace plume::sim {

namespace {

bool finite(Vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

Status validate(const Region &r)
{
    if (!finite(r.centre))
        return Status::failure("region centre is not finite");
    if (!std::isfinite(r.radius) || r.radius < 0.f)
        return Status::failure("region radius " + std::to_string(r.radius)
                               + " must be a finite number >= 0");
    if (!finite(r.halfSize) || r.halfSize.x < 0.f || r.halfSize.y < 0.f || r.halfSize.z < 0.f)
        return Status::failure("region half size must be finite and >= 0 on every axis");
    if (!std::isfinite(r.falloff) || r.falloff < 0.f)
        return Status::failure("region falloff " + std::to_string(r.falloff)
                               + " must be a finite number >= 0");
    return Status::success();
}

} // namespace

Status validate(const Emitter &e, std::size_t cellCount)
{
    if (Status s = e.mask.validate(cellCount); !s)
        return Status::failure("emitter " + s.error);
    if (!std::isfinite(e.density) || !std::isfinite(e.temperature) || !finite(e.dye)
        || !std::isfinite(e.fuel))
        return Status::failure("emitter rates must be finite numbers");
    if (e.fuel < 0.f)
        return Status::failure("emitter fuel rate " + std::to_string(e.fuel)
                               + " must not be negative");
    if (e.density < 0.f)
        return Status::failure("emitter density rate " + std::to_string(e.density)
                               + " must not be negative");
    if (e.dye.x < 0.f || e.dye.y < 0.f || e.dye.z < 0.f)
        return Status::failure("emitter dye colour components must not be negative");
    if (!finite(e.velocity))
        return Status::failure("emitter velocity is not finite");
    if (!std::isfinite(e.liquidRate) || e.liquidRate < 0.f)
        return Status::failure("emitter liquid rate " + std::to_string(e.liquidRate)
                               + " must be a finite number >= 0");
    if (!std::isfinite(e.noise.size) || e.noise.size <= 0.f)
        return Status::failure("emitter noise size " + std::to_string(e.noise.size)
                               + " must be a positive finite number");
    if (!(e.noise.amplitude >= 0.f && e.noise.amplitude <= 1.f))
        return Status::failure("emitter noise amplitude " + std::to_string(e.noise.amplitude)
                               + " must be in [0, 1]");
    if (!std::isfinite(e.noise.speed) || e.noise.speed < 0.f)
        return Status::failure("emitter noise speed " + std::to_string(e.noise.speed)
                               + " must be a finite number >= 0");
    return Status::success();
}

Status validate(const ForceField &f)
{
    if (!std::isfinite(f.strength))
        return Status::failure(std::string(toString(f.type)) + " force: strength is not finite");
    if (!finite(f.direction) || !finite(f.centre))
        return Status::failure(std::string(toString(f.type))
                               + " force: direction and centre must be finite");
    if ((f.type == ForceType::Directional || f.type == ForceType::Vortex)
        && length(f.direction) == 0.f)
        return Status::failure(std::string(toString(f.type))
                               + " force: direction is the zero vector");
    if (f.type == ForceType::Turbulence || f.type == ForceType::Disturbance
        || f.type == ForceType::Shredding) {
        const std::string name = toString(f.type);
        if (!std::isfinite(f.scale) || f.scale <= 0.f)
            return Status::failure(name + " force: scale " + std::to_string(f.scale)
                                   + " must be a positive finite number");
        if (!std::isfinite(f.timeScale) || f.timeScale < 0.f)
            return Status::failure(name + " force: time scale must be finite and >= 0");
    }
    if (f.type == ForceType::Drag && f.strength < 0.f)
        return Status::failure("drag force: strength " + std::to_string(f.strength)
                               + " must not be negative");
    if (Status s = validate(f.region); !s)
        return Status::failure(std::string(toString(f.type)) + " force: " + s.error);
    if (Status s = validate(f.mask); !s)
        return Status::failure(std::string(toString(f.type)) + " force: " + s.error);
    return Status::success();
}

Status validate(const ObstacleMotion &m, Int3 cells)
{
    static const char *axisNames[3] = {"x", "y", "z"};
    for (int a = 0; a < 3; ++a) {
        const ScalarGrid &g = m.velocity[a];
        if (g.count() == 0)
            continue;
        const Int3 s = g.size();
        if (s != cells)
            return Status::failure("obstacle velocity " + std::string(axisNames[a]) + " has "
                                   + std::to_string(s.x) + " x " + std::to_string(s.y) + " x "
                                   + std::to_string(s.z) + " cells; the domain has "
                                   + std::to_string(cells.x) + " x " + std::to_string(cells.y)
                                   + " x " + std::to_string(cells.z));
        for (std::size_t n = 0; n < g.count(); ++n) {
            if (std::isfinite(g[n]))
                continue;
            const std::size_t i = n % std::size_t(s.x), j = (n / std::size_t(s.x)) % s.y,
                              k = n / (std::size_t(s.x) * s.y);
            return Status::failure("obstacle velocity " + std::string(axisNames[a]) + " at cell ("
                                   + std::to_string(i) + ", " + std::to_string(j) + ", "
                                   + std::to_string(k) + ") is not finite");
        }
    }
    if (!m.noSlip.empty() && m.noSlip.size() != std::size_t(cells.volume()))
        return Status::failure("obstacle no-slip flags have " + std::to_string(m.noSlip.size())
                               + " entries; the domain has " + std::to_string(cells.volume())
                               + " cells");
    return Status::success();
}

} // namespace plume::sim
