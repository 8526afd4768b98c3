// SPDX-License-Identifier: Apache-2.0
// Control masks on the grid: the control field at cell centres, remapped and ramped.
#include <core/sim/ops/controlmask.h>

#include <core/sim/base/parallel.h>
#include <core/sim/ops/forces.h>

#include <algorithm>
#include <cmath>

namespace plume::sim {

namespace {

/// A field that is missing or not on the domain's cells reads as 0.
const ScalarGrid *usable(const ScalarGrid *g, Int3 cells)
{
    return g && g->count() > 0 && g->size() == cells ? g : nullptr;
}

} // namespace

void evaluateControlMask(const ControlMask &mask, const ControlFields &fields, const Domain &domain,
                         ScalarGrid &out)
{
    const Int3 n = domain.cells;
    if (!mask.active()) {
        out.reshape(n, kCellCentre, 1.f);
        return;
    }
    const bool hasVelocity = fields.velocity && fields.solids && fields.velocity->cells() == n
                             && fields.solids->size() == n;
    // Vorticity is computed into `out` first and remapped in place.
    const ScalarGrid *source = nullptr;
    switch (mask.field) {
    case ControlField::None: break;
    case ControlField::Density: source = usable(fields.density, n); break;
    case ControlField::Temperature: source = usable(fields.temperature, n); break;
    case ControlField::Flame: source = usable(fields.flame, n); break;
    case ControlField::Fuel: source = usable(fields.fuel, n); break;
    case ControlField::Speed: break;
    case ControlField::Vorticity:
        if (hasVelocity) {
            vorticityMagnitude(*fields.velocity, *fields.solids, domain, out);
            source = &out;
        }
        break;
    }
    if (mask.field != ControlField::Vorticity || !source)
        out.reshapeForOverwrite(n, kCellCentre); // every cell is written below
    const bool speed = mask.field == ControlField::Speed && hasVelocity;
    const bool is3D = !domain.is2D();
    const float none = mask.weight(0.f);
    forEachRow(n, [&](int j, int k) {
        float *row = out.data() + out.index(0, j, k);
        if (speed) {
            // Centre velocity: each component the mean of its two faces.
            const MacGrid &vel = *fields.velocity;
            const float *u = vel.u.data() + vel.u.index(0, j, k);
            const float *v = vel.v.data() + vel.v.index(0, j, k);
            const float *w = is3D ? vel.w.data() + vel.w.index(0, j, k) : nullptr;
            const std::size_t strideY = vel.v.strideY();
            const std::size_t strideZ = is3D ? vel.w.strideZ() : 0;
            for (int i = 0; i < n.x; ++i) {
                const float cx = 0.5f * (u[i] + u[i + 1]);
                const float cy = 0.5f * (v[i] + v[i + strideY]);
                const float cz = w ? 0.5f * (w[i] + w[i + strideZ]) : 0.f;
                row[i] = mask.weight(std::sqrt(cx * cx + cy * cy + cz * cz));
            }
            return;
        }
        if (!source) {
            std::fill(row, row + n.x, none);
            return;
        }
        const float *value = source->data() + source->index(0, j, k);
        if (mask.field == ControlField::Temperature) {
            for (int i = 0; i < n.x; ++i)
                row[i] = mask.weight(value[i] - fields.ambientTemperature);
            return;
        }
        for (int i = 0; i < n.x; ++i)
            row[i] = mask.weight(value[i]);
    });
}

void ControlWeights::evaluate(std::span<const ControlMask *const> masks,
                              const ControlFields &fields, const Domain &domain)
{
    mMasks.clear();
    for (const ControlMask *m : masks) {
        if (!m || !m->active() || find(*m))
            continue;
        if (mGrids.size() <= mMasks.size())
            mGrids.emplace_back();
        evaluateControlMask(*m, fields, domain, mGrids[mMasks.size()]);
        mMasks.push_back(*m);
    }
}

const ScalarGrid *ControlWeights::find(const ControlMask &mask) const
{
    if (!mask.active())
        return nullptr;
    for (std::size_t n = 0; n < mMasks.size(); ++n) {
        if (mMasks[n] == mask)
            return &mGrids[n];
    }
    return nullptr;
}

std::size_t ControlWeights::bytes() const
{
    std::size_t total = 0;
    for (const ScalarGrid &g : mGrids)
        total += g.bytes();
    return total;
}

} // namespace plume::sim
