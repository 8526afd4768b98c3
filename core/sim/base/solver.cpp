// SPDX-License-Identifier: Apache-2.0
#include <core/sim/base/solver.h>

#include <new>
#include <string>

namespace plume::sim {

Status Solver::checkParamsChange(const SimParams &current, const SimParams &next)
{
    if (next.scheme != current.scheme)
        return Status::failure(std::string("the scheme cannot change from ")
                               + toString(current.scheme) + " to " + toString(next.scheme)
                               + " on a running solver; make a new one");
    if (usesUpres(next) != usesUpres(current)
        || (usesUpres(next) && next.upres.factor != current.upres.factor))
        return Status::failure("upres.factor cannot change from "
                               + std::to_string(usesUpres(current) ? current.upres.factor : 1)
                               + " to " + std::to_string(usesUpres(next) ? next.upres.factor : 1)
                               + " on a running solver; make a new one");
    return next.validate();
}

void Solver::sampleIn(FieldKind kind, const CellBox &box, ScalarGrid &out) const
{
    ScalarGrid whole;
    sample(kind, whole);
    out.reshape(box.size(), kCellCentre);
    copyBlock(whole, box.lo, out, {0, 0, 0}, box.size());
}

Status Solver::setObstacles(const FlagGrid &solids, const ObstacleMotion &motion)
{
    const Int3 want = domain().cells, got = solids.size();
    if (got != want)
        return Status::failure("obstacle grid has " + std::to_string(got.x) + " x "
                               + std::to_string(got.y) + " x " + std::to_string(got.z)
                               + " cells; the domain has " + std::to_string(want.x) + " x "
                               + std::to_string(want.y) + " x " + std::to_string(want.z));
    if (Status s = validate(motion, want); !s)
        return s;
    try {
        applyObstacles(solids, motion);
    } catch (const std::bad_alloc &) {
        return Status::failure("out of memory for the obstacle grid");
    }
    return Status::success();
}

Status Solver::setEmitters(std::vector<Emitter> emitters)
{
    const std::size_t cells = std::size_t(domain().cellCount());
    for (std::size_t n = 0; n < emitters.size(); ++n) {
        if (Status s = validate(emitters[n], cells); !s)
            return Status::failure("emitter " + std::to_string(n) + ": " + s.error);
    }
    try {
        applyEmitters(std::move(emitters));
    } catch (const std::bad_alloc &) {
        return Status::failure("out of memory for the emitters");
    }
    return Status::success();
}

Status Solver::setForceFields(std::vector<ForceField> fields)
{
    const std::size_t cells = std::size_t(domain().cellCount());
    for (std::size_t n = 0; n < fields.size(); ++n) {
        if (Status s = validate(fields[n]); !s)
            return Status::failure("force field " + std::to_string(n) + ": " + s.error);
        if (Status s = fields[n].region.mask.validate(cells); !s)
            return Status::failure("force field " + std::to_string(n) + ": region " + s.error);
    }
    try {
        applyForceFields(std::move(fields));
    } catch (const std::bad_alloc &) {
        return Status::failure("out of memory for the force fields");
    }
    return Status::success();
}

} // namespace plume::sim
