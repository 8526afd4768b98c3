// SPDX-License-Identifier: Apache-2.0
#include <core/bake/bakefields.h>

#include <core/sim/base/parallel.h>
#include <core/sim/upres/upressolver.h>
#include <core/surface/surface.h>

#include <cmath>
#include <utility>

namespace plume {

namespace {

bool is2DLookOf(const BakePlan &plan, const sim::Domain &domain, Look2D look)
{
    return domain.is2D() && plan.settings.render.look2D == look;
}

/// The VDB files' fields of a frame, their way: VdbSink's grids, as the files keep them.
void sampleAsWritten(const sim::Solver &solver, bool velocity, bool fuel,
                     const VdbWriteOptions &options, VdbFields &out)
{
    out.domain = solver.sampleDomain();
    solver.sample(sim::FieldKind::Density, out.density);
    solver.sample(sim::FieldKind::Temperature, out.temperature);
    if (solver.hasCombustion()) {
        solver.sample(sim::FieldKind::Flame, out.flame);
        if (fuel)
            solver.sample(sim::FieldKind::Fuel, out.fuel);
    }
    if (velocity) {
        solver.sample(sim::FieldKind::VelocityX, out.velocityX);
        solver.sample(sim::FieldKind::VelocityY, out.velocityY);
        if (!out.domain.is2D())
            solver.sample(sim::FieldKind::VelocityZ, out.velocityZ);
    }
    if (solver.hasDye()) {
        solver.sample(sim::FieldKind::DyeRed, out.dyeRed);
        solver.sample(sim::FieldKind::DyeGreen, out.dyeGreen);
        solver.sample(sim::FieldKind::DyeBlue, out.dyeBlue);
    }
    keepAsWritten(out, options);
}

/// Whether the look needs the velocity: motion vectors, or the surface look's foam.
bool needsVelocity(const BakePlan &plan, bool is2D)
{
    const RenderSettings &r = plan.settings.render;
    return plan.passes.motion || (surfaceLook(r, is2D) && r.foamSpeed > 0.f);
}

/// FrameFields from the fields as the files hold them (moved out of `in`).
void toFrameFields(VdbFields &&in, const BakePlan &plan, float ambientTemperature, FrameFields &out)
{
    const RenderSettings &r = plan.settings.render;
    const bool is2D = in.domain.is2D();
    out.domain = in.domain;
    out.density = std::move(in.density);
    out.temperature = std::move(in.temperature);
    if (out.temperature.count() == 0)
        out.temperature.reshape(out.domain.cells, sim::kCellCentre);
    if (is2DLookOf(plan, in.domain, Look2D::Field)) {
        switch (r.field) {
        case sim::FieldKind::Density: out.field = out.density; break;
        case sim::FieldKind::Temperature: out.field = out.temperature; break;
        case sim::FieldKind::Flame: out.field = in.flame; break;
        case sim::FieldKind::Fuel: out.field = in.fuel; break;
        default: out.field = sim::ScalarGrid(); break;
        }
        if (out.field.count() == 0) // no combustion: no flame, no fuel
            out.field.reshape(out.domain.cells, sim::kCellCentre);
    } else {
        out.field = sim::ScalarGrid();
    }
    float *t = out.temperature.data();
    sim::forEachIndex(std::int64_t(out.temperature.count()),
                      [&](std::int64_t n) { t[n] -= ambientTemperature; });
    out.flame = r.flameIntensity > 0.f ? std::move(in.flame) : sim::ScalarGrid();
    out.dyeRed = std::move(in.dyeRed);
    out.dyeGreen = std::move(in.dyeGreen);
    out.dyeBlue = std::move(in.dyeBlue);
    out.surface = sim::ScalarGrid();
    out.speed = sim::ScalarGrid();
    if (surfaceLook(r, is2D)) {
        densitySurfaceField(out.density, r.surfaceIso, out.surface);
        if (r.foamSpeed > 0.f && in.hasVelocity()) {
            out.speed.reshape(out.domain.cells, sim::kCellCentre);
            const float *x = in.velocityX.data(), *y = in.velocityY.data();
            const float *z = is2D ? nullptr : in.velocityZ.data();
            float *s = out.speed.data();
            sim::forEachIndex(std::int64_t(out.speed.count()), [&](std::int64_t n) {
                const float vz = z ? z[n] : 0.f;
                s[n] = std::sqrt(x[n] * x[n] + y[n] * y[n] + vz * vz);
            });
        }
    }
    if (plan.passes.motion && in.hasVelocity()) {
        out.velocityX = std::move(in.velocityX);
        out.velocityY = std::move(in.velocityY);
        out.velocityZ = is2D ? sim::ScalarGrid() : std::move(in.velocityZ);
    } else {
        out.velocityX = out.velocityY = out.velocityZ = sim::ScalarGrid();
    }
}

VdbWriteOptions writeOptions(const BakePlan &plan)
{
    VdbWriteOptions o;
    o.up = plan.settings.openvdb.up;
    o.halfFloat = plan.settings.openvdb.halfFloat;
    o.velocityMask = plan.settings.openvdb.velocityMask;
    return o;
}

} // namespace

void simulatedFrameFields(const sim::Solver &solver, const BakePlan &plan, float ambientTemperature,
                          FrameFields &out)
{
    const bool is2D = solver.sampleDomain().is2D();
    if (solver.particles()) {
        sampleFrameFields(solver, plan.settings.render, plan.passes.motion, ambientTemperature,
                          out);
        return;
    }
    const RenderSettings &r = plan.settings.render;
    const bool fieldLook = is2D && r.look2D == Look2D::Field;
    VdbFields fields;
    sampleAsWritten(solver, needsVelocity(plan, is2D), fieldLook && r.field == sim::FieldKind::Fuel,
                    writeOptions(plan), fields);
    sim::ScalarGrid other; // a field look of a field the files do not hold: the solver's own
    if (fieldLook && !cachedField(r.field))
        solver.sample(r.field, other);
    toFrameFields(std::move(fields), plan, ambientTemperature, out);
    if (other.count() != 0)
        out.field = std::move(other);
}

sim::Status cachedFrameFields(const std::filesystem::path &file, const sim::Domain &domain,
                              const BakePlan &plan, float ambientTemperature, FrameFields &out)
{
    VdbFields fields;
    if (sim::Status st = readVdbFrame(file, domain, fields); !st)
        return st;
    const RenderSettings &r = plan.settings.render;
    if (domain.is2D() && r.look2D == Look2D::Field && !cachedField(r.field))
        return sim::Status::failure(file.string() + ": the field look's field '"
                                    + sim::toString(r.field)
                                    + "' is not in VDB files (they hold density, temperature, "
                                      "flame and fuel)");
    toFrameFields(std::move(fields), plan, ambientTemperature, out);
    return sim::Status::success();
}

bool cachedField(sim::FieldKind field)
{
    return field == sim::FieldKind::Density || field == sim::FieldKind::Temperature
           || field == sim::FieldKind::Flame || field == sim::FieldKind::Fuel;
}

sim::Domain sampledDomain(const Scene &scene)
{
    const sim::Domain domain = makeDomain(scene.domain);
    const sim::SimParams &params = scene.simulation.params;
    return sim::usesUpres(params) ? sim::UpresSolver::fineDomainOf(domain, params.upres.factor)
                                  : domain;
}

} // namespace plume
