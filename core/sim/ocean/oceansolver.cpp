// SPDX-License-Identifier: Apache-2.0
#include <core/sim/ocean/oceansolver.h>

#include <cmath>
#include <cstring>

namespace plume::sim {

namespace {

constexpr Int3 kTimeSize{2, 1, 1};

OceanSpectrum spectrumOf(const Domain &d, const OceanSettings &s)
{
    const Vec3 extent = d.extent();
    return OceanSpectrum::phillipsWaves(d.cells.x, d.cells.y, extent.x, extent.y, s);
}

} // namespace

Status OceanSolver::checkDomain(const Domain &d)
{
    if (!d.is2D())
        return Status::failure("the ocean scheme needs a 2D domain (cells.z = 1); this one has "
                               + std::to_string(d.cells.z) + " cells in z");
    for (int axis = 0; axis < 2; ++axis) {
        if (d.boundary(axis, false) != Boundary::Periodic
            || d.boundary(axis, true) != Boundary::Periodic)
            return Status::failure(std::string("the ocean scheme tiles: the domain's ") + "xy"[axis]
                                   + " faces must be periodic");
    }
    return Status::success();
}

OceanSolver::OceanSolver(const Domain &domain, const SimParams &params)
    : mDomain(domain)
    , mParams(params)
    , mSolids(domain.cells)
    , mSpectrum(spectrumOf(domain, params.ocean))
    , mSynthesis(std::make_unique<OceanSynthesis>(domain.cells.x, domain.cells.y))
    , mTime(kTimeSize, kCellCentre)
{
    setTime(0.0);
    evaluate();
}

Status OceanSolver::setParams(const SimParams &params)
{
    if (Status s = checkParamsChange(mParams, params); !s)
        return s;
    if (params.ocean != mParams.ocean) {
        try {
            mSpectrum = spectrumOf(mDomain, params.ocean);
        } catch (const std::bad_alloc &) {
            return Status::failure("out of memory for the ocean spectrum");
        }
        mParams = params;
        evaluate();
        return Status::success();
    }
    mParams = params;
    return Status::success();
}

double OceanSolver::time() const
{
    double t = 0.0;
    std::memcpy(&t, mTime.data(), sizeof t);
    return t;
}

void OceanSolver::setTime(double t) { std::memcpy(mTime.data(), &t, sizeof t); }

void OceanSolver::evaluate()
{
    mSynthesis->evaluate(mSpectrum, time(), mParams.ocean.choppiness, mFields);
}

StepStats OceanSolver::step(float dt, double time)
{
    setTime(time + double(dt));
    evaluate();
    return {};
}

void OceanSolver::reset()
{
    setTime(0.0);
    evaluate();
}

void OceanSolver::sample(FieldKind kind, ScalarGrid &out) const
{
    const ScalarGrid *source = nullptr;
    switch (kind) {
    case FieldKind::Height: source = &mFields.height; break;
    case FieldKind::DisplacementX: source = &mFields.displacementX; break;
    case FieldKind::DisplacementY: source = &mFields.displacementY; break;
    case FieldKind::NormalX: source = &mFields.normalX; break;
    case FieldKind::NormalY: source = &mFields.normalY; break;
    case FieldKind::NormalZ: source = &mFields.normalZ; break;
    case FieldKind::Foam: source = &mFields.foam; break;
    default: break; // the fluid fields: no fluid moves
    }
    out.reshape(mDomain.cells, kCellCentre, 0.f);
    if (source)
        std::copy(source->data(), source->data() + source->count(), out.data());
}

std::string OceanSolver::firstNonFiniteField() const
{
    const std::pair<const char *, const ScalarGrid *> fields[] = {
        {"height", &mFields.height},
        {"displacement-x", &mFields.displacementX},
        {"displacement-y", &mFields.displacementY},
        {"foam", &mFields.foam},
    };
    for (const auto &[name, grid] : fields) {
        for (std::size_t n = 0; n < grid->count(); ++n) {
            if (!std::isfinite((*grid)[n]))
                return name;
        }
    }
    return {};
}

std::size_t OceanSolver::memoryBytes() const
{
    const std::size_t spectrum = mSpectrum.h0.capacity() * 2 * sizeof(std::complex<float>)
                                 + mSpectrum.multiple.capacity() * sizeof(double);
    return spectrum + mSynthesis->memoryBytes() + mSolids.count() + 7 * mFields.height.bytes()
           + mTime.bytes();
}

std::vector<StateField> OceanSolver::stateFields()
{
    StateField t;
    t.name = "time";
    t.grid = &mTime;
    t.size = kTimeSize;
    return {t};
}

void OceanSolver::stateRestored(bool) { evaluate(); }

} // namespace plume::sim
