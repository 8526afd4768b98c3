// SPDX-License-Identifier: Apache-2.0
// The stam scheme (Stam 2003): the step, the sources and the sampled fields. Its stages are
// stamlinsolve.cpp (lin_solve, diffuse, project), stamboundary.cpp (set_bnd, obstacles) and
// stamadvect.cpp (advect); stamkernels.h is what they share.

#include <core/sim/stam/stamkernels.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <new>
#include <string>
#include <type_traits>
#include <utility>

namespace plume::sim {

namespace detail {

StamLayout::StamLayout(Int3 domainCells)
    : cells(domainCells)
    , is3D(domainCells.z > 1)
{
    padded = {cells.x + 2, cells.y + 2, is3D ? cells.z + 2 : 1};
    sy = padded.x;
    sz = std::ptrdiff_t(padded.x) * padded.y;
    k0 = is3D ? 1 : 0;
    k1 = is3D ? cells.z : 0;
}

} // namespace detail

using namespace detail::stam;
using detail::StamLayout;

template<class T>
BasicStamSolver<T>::BasicStamSolver(const Domain &domain, const SimParams &params)
    : mDomain(domain)
    , mParams(params)
    , mLayout(domain.cells)
{
    const Int3 size = mLayout.padded;
    const Vec3 offset = paddedOffset(mLayout.is3D);
    for (Grid *g : {&mU, &mV, &mU0, &mV0, &mPressure, &mDivergence, &mDensity, &mDensity0,
                    &mTemperature, &mTemperature0})
        g->reshape(size, offset);
    if (mLayout.is3D) {
        mW.reshape(size, offset);
        mW0.reshape(size, offset);
    }
    mSolids.reshape(domain.cells);
}

template<class T>
Status BasicStamSolver<T>::setParams(const SimParams &params)
{
    if (params.stamNumeric != mParams.stamNumeric)
        return Status::failure(
            std::string("the stam numeric type cannot change from ") + toString(mParams.stamNumeric)
            + " to " + toString(params.stamNumeric) + " on a running solver; make a new one");
    if (Status s = checkParamsChange(mParams, params); !s)
        return s;
    mParams = params;
    return Status::success();
}

template<class T>
void BasicStamSolver<T>::applyObstacles(const FlagGrid &solids, const ObstacleMotion &motion)
{
    // Everything that allocates comes first, so that bad_alloc leaves the old inputs.
    FlagGrid copy = solids;
    std::vector<std::uint8_t> flags;
    std::array<Grid, 3> walls;
    std::vector<std::uint8_t> noSlip;
    if (copy.anySolid()) {
        flags = buildFlags(mLayout, mDomain, copy);
        if (!motion.empty())
            buildObstacleWalls(mLayout, mDomain, copy, motion, walls, noSlip);
    }
    detail::UncoveredCells uncovered;
    uncovered.build(mSolids, copy, mDomain);
    mSolids = std::move(copy);
    mFlags = std::move(flags);
    mObstacleVelocity.swap(walls); // walls: the old ones now
    mObstacleNoSlip = std::move(noSlip);
    clearSolids();
    if (!uncovered.empty())
        fillUncovered(uncovered, walls);
}

// Cells a solid left: the velocity it had there, the contents of their fluid neighbours.
template<class T>
void BasicStamSolver<T>::fillUncovered(const detail::UncoveredCells &cells,
                                       const std::array<Grid, 3> &oldWalls)
{
    const StamLayout &L = mLayout;
    const std::size_t nx = std::size_t(L.cells.x), ny = std::size_t(L.cells.y);
    const auto padded = [&](std::uint32_t c) {
        return L.index(int(c % nx) + 1, int((c / nx) % ny) + 1, int(c / (nx * ny)) + L.k0);
    };
    for (Grid *g : {&mDensity, &mTemperature, &mDye[0], &mDye[1], &mDye[2]}) {
        if (g->count() == 0)
            continue;
        cells.fill(g->data(), padded);
        setBoundary(Quantity::Scalar, *g);
    }
    const std::pair<Grid *, Quantity> velocity[3] = {{&mU, Quantity::VelocityX},
                                                     {&mV, Quantity::VelocityY},
                                                     {&mW, Quantity::VelocityZ}};
    for (int a = 0; a < (L.is3D ? 3 : 2); ++a) {
        if (oldWalls[a].count() == 0)
            continue; // the solid was at rest: the cells keep zero velocity
        Grid &x = *velocity[a].first;
        for (std::uint32_t c : cells.cells())
            x[padded(c)] = oldWalls[a][padded(c)];
        setBoundary(velocity[a].second, x);
    }
}

template<class T>
const T *BasicStamSolver<T>::wallsOf(Quantity q) const
{
    const int axis = normalAxisOf(int(q));
    if (axis < 0 || mObstacleVelocity[axis].count() == 0)
        return nullptr;
    return mObstacleVelocity[axis].data();
}

// No-slip solids: a fluid cell beside one takes the average of those solids' velocity
// components tangential to them (each component from the solids across the other axes).
template<class T>
void BasicStamSolver<T>::imposeNoSlip()
{
    if (mObstacleNoSlip.empty() || mFlags.empty())
        return;
    const StamLayout &L = mLayout;
    const int axes = L.is3D ? 3 : 2;
    Grid *velocity[3] = {&mU, &mV, &mW};
    const Index offset[6] = {-1, 1, -L.sy, L.sy, -L.sz, L.sz};
    forEachInteriorRow(L, [&](int j, int k) {
        const Index row = Index(L.index(0, j, k));
        for (Index n = row + 1; n <= row + L.cells.x; ++n) {
            const std::uint8_t f = mFlags[std::size_t(n)];
            if (f == 0 || (f & kSelfSolid))
                continue;
            for (int a = 0; a < axes; ++a) {
                T sum = T(0);
                int count = 0;
                for (int d = 0; d < 2 * axes; ++d) {
                    const Index m = n + offset[d];
                    if (d / 2 != a && (f & (1u << d)) && mObstacleNoSlip[std::size_t(m)]) {
                        sum += mObstacleVelocity[a][std::size_t(m)];
                        ++count;
                    }
                }
                if (count > 0)
                    (*velocity[a])[std::size_t(n)] = sum / T(count);
            }
        }
    });
    setBoundary(Quantity::VelocityX, mU);
    setBoundary(Quantity::VelocityY, mV);
    if (L.is3D)
        setBoundary(Quantity::VelocityZ, mW);
}

template<class T>
void BasicStamSolver<T>::applyEmitters(std::vector<Emitter> emitters)
{
    bool dye = false;
    bool temperature = false;
    for (const Emitter &e : emitters) {
        dye = dye || e.hasDye();
        temperature = temperature || e.temperature != 0.f;
    }
    const StamLayout &L = mLayout;
    const std::size_t nx = std::size_t(L.cells.x), ny = std::size_t(L.cells.y);
    std::vector<std::vector<std::uint32_t>> cells(emitters.size());
    for (std::size_t e = 0; e < emitters.size(); ++e) {
        cells[e].reserve(emitters[e].mask.size());
        for (std::uint32_t c : emitters[e].mask.cells) {
            const int i = int(c % nx), j = int((c / nx) % ny), k = int(c / (nx * ny));
            cells[e].push_back(std::uint32_t(L.index(i + 1, j + 1, k + L.k0)));
        }
    }
    if (dye && !mHasDye) {
        std::array<Grid, 3> d, d0;
        for (int c = 0; c < 3; ++c) {
            d[c].reshape(L.padded, paddedOffset(L.is3D));
            d0[c].reshape(L.padded, paddedOffset(L.is3D));
        }
        mDye.swap(d);
        mDye0.swap(d0);
        mHasDye = true;
    }
    mEmitterCells = std::move(cells);
    mEmitters = std::move(emitters);
    mTemperatureLive = mTemperatureLive || temperature;
}

template<class T>
void BasicStamSolver<T>::applyForceFields(std::vector<ForceField> fields)
{
    ForceEvaluator forces;
    forces.setup(mDomain, std::move(fields));
    mForces = std::move(forces);
}

// The state a checkpoint holds: the padded grids with their ghosts, as the paper's arrays are.
// The "prev" arrays and the divergence are scratch (gatherSources clears the prev arrays that
// the step reads; the temperature's only while temperature is live, and only then is it read).
// The pressure is rewritten by every projection but sampled, so it is kept too.
template<class T>
std::vector<StateField> BasicStamSolver<T>::stateFields()
{
    const Int3 p = mLayout.padded;
    const Vec3 o = paddedOffset(mLayout.is3D);
    const Int3 w = mLayout.is3D ? p : Int3{0, 0, 0};
    // A float grid as `grid`, a Fixed one (its int32 bits) as `fixedGrid`.
    auto grid = [&](const char *name, Grid *g, Int3 size, bool optional = false, int group = 0) {
        StateField f{.name = name, .size = size, .offset = o, .optional = optional, .group = group};
        if constexpr (std::is_same_v<T, Fixed>)
            f.fixedGrid = g;
        else
            f.grid = g;
        return f;
    };
    return {
        {.name = "solids", .flags = &mSolids, .size = mDomain.cells},
        grid("velocity-x", &mU, p),
        grid("velocity-y", &mV, p),
        grid("velocity-z", &mW, w),
        grid("density", &mDensity, p),
        grid("temperature", &mTemperature, p),
        grid("pressure", &mPressure, p),
        grid("dye-red", &mDye[0], p, true, 1),
        grid("dye-green", &mDye[1], p, true, 1),
        grid("dye-blue", &mDye[2], p, true, 1),
        {.name = "temperature-live", .value = &mTemperatureLive},
        // The moving obstacles' velocities: cells a solid leaves take them at the next change.
        grid("obstacle-velocity-x", &mObstacleVelocity[0], p, true, 2),
        grid("obstacle-velocity-y", &mObstacleVelocity[1], p, true, 2),
        grid("obstacle-velocity-z", &mObstacleVelocity[2], w, true),
    };
}

template<class T>
void BasicStamSolver<T>::stateRestored(bool solidsChanged)
{
    mHasDye = mDye[0].count() > 0;
    for (int c = 0; c < 3; ++c) {
        if (mHasDye)
            mDye0[c].reshape(mLayout.padded, paddedOffset(mLayout.is3D));
        else
            Grid().swap(mDye0[c]);
    }
    if (!solidsChanged)
        return;
    mFlags.clear();
    if (mSolids.anySolid())
        mFlags = buildFlags(mLayout, mDomain, mSolids);
}

template<class T>
StepStats BasicStamSolver<T>::step(float dt, double time)
{
    gatherSources(time);
    velocityStep(dt);
    densityStep(dt);
    StepStats stats;
    stats.pressureIterations = 2 * mParams.stamIterations;
    stats.pressureResidual = 0.0;
    stats.pressureConverged = true;
    return stats;
}

template<class T>
void BasicStamSolver<T>::reset()
{
    bool dye = false;
    bool temperature = false;
    for (const Emitter &e : mEmitters) {
        dye = dye || e.hasDye();
        temperature = temperature || e.temperature != 0.f;
    }
    for (Grid *g : {&mU, &mV, &mW, &mU0, &mV0, &mW0, &mPressure, &mDivergence, &mDensity,
                    &mDensity0, &mTemperature, &mTemperature0})
        g->fill(T(0));
    for (int c = 0; c < 3; ++c) {
        if (dye) {
            mDye[c].fill(T(0));
            mDye0[c].fill(T(0));
        } else {
            Grid().swap(mDye[c]);
            Grid().swap(mDye0[c]);
        }
    }
    mHasDye = mHasDye && dye;
    mTemperatureLive = temperature;
}

// The paper's get_from_UI: the "prev" arrays receive this step's sources and forces.
template<class T>
void BasicStamSolver<T>::gatherSources(double time)
{
    Grid *const prev[] = {
        &mU0,      &mV0,      &mW0,     &mDensity0, (mTemperatureLive ? &mTemperature0 : nullptr),
        &mDye0[0], &mDye0[1], &mDye0[2]};
    for (Grid *g : prev) {
        if (!g || g->count() == 0)
            continue;
        T *x = g->data();
        forEachIndex(std::int64_t(g->count()), [&](std::int64_t n) { x[n] = T(0); });
    }
    for (std::size_t e = 0; e < mEmitters.size(); ++e) {
        const Emitter &em = mEmitters[e];
        const std::uint32_t *cells = mEmitterCells[e].data();
        const float *weights = em.mask.weights.data();
        const bool force = em.velocityMode == EmitterVelocity::Force;
        const bool temperature = mTemperatureLive && em.temperature != 0.f;
        const bool dye = mHasDye && em.hasDye();
        forEachIndex(std::int64_t(em.mask.size()), [&](std::int64_t m) {
            const std::size_t p = cells[m];
            const float w = weights[m];
            mDensity0[p] += T(w * em.density);
            if (temperature)
                mTemperature0[p] += T(w * em.temperature);
            if (dye) {
                for (int c = 0; c < 3; ++c)
                    mDye0[c][p] += T(w * em.dye[c]);
            }
            if (force) {
                mU0[p] += T(w * em.velocity.x);
                mV0[p] += T(w * em.velocity.y);
                if (mLayout.is3D)
                    mW0[p] += T(w * em.velocity.z);
            }
        });
    }
    addForceFields(time);
}

// Force fields sampled at cell centres with the current velocity, added to u_prev.
template<class T>
void BasicStamSolver<T>::addForceFields(double time)
{
    if (mForces.empty())
        return;
    const StamLayout &L = mLayout;
    forEachInteriorRow(L, [&](int j, int k) {
        for (int i = 1; i <= L.cells.x; ++i) {
            const std::size_t n = L.index(i, j, k);
            if (!mFlags.empty() && (mFlags[n] & kSelfSolid))
                continue;
            const Vec3 vel{toFloat(mU[n]), toFloat(mV[n]), L.is3D ? toFloat(mW[n]) : 0.f};
            const Vec3 acc = mForces.acceleration(mDomain.cellCentre(i - 1, j - 1, k - L.k0), vel,
                                                  time);
            mU0[n] += T(acc.x);
            mV0[n] += T(acc.y);
            if (L.is3D)
                mW0[n] += T(acc.z);
        }
    });
}

// Inflow emitters blend the velocity towards their target by coverage weight.
template<class T>
void BasicStamSolver<T>::applyInflow()
{
    for (std::size_t e = 0; e < mEmitters.size(); ++e) {
        const Emitter &em = mEmitters[e];
        if (em.velocityMode != EmitterVelocity::Inflow)
            continue;
        const std::uint32_t *cells = mEmitterCells[e].data();
        const float *weights = em.mask.weights.data();
        forEachIndex(std::int64_t(em.mask.size()), [&](std::int64_t m) {
            const std::size_t p = cells[m];
            const float w = weights[m];
            mU[p] = T(1.f - w) * mU[p] + T(w * em.velocity.x);
            mV[p] = T(1.f - w) * mV[p] + T(w * em.velocity.y);
            if (mLayout.is3D)
                mW[p] = T(1.f - w) * mW[p] + T(w * em.velocity.z);
        });
    }
}

namespace {

// The paper's add_source: x += dt * s over the whole padded array.
template<class G>
void addSource(G &x, const G &s, float dt)
{
    auto *xd = x.data();
    const auto *sd = s.data();
    using T = std::remove_pointer_t<decltype(xd)>;
    const T step = T(dt);
    forEachIndex(std::int64_t(x.count()), [&](std::int64_t n) { xd[n] += step * sd[n]; });
}

} // namespace

// The paper's vel_step, with the advect typo of the slides fixed (advect u by u0, v0).
template<class T>
void BasicStamSolver<T>::velocityStep(float dt)
{
    const bool d3 = mLayout.is3D;
    const float visc = mParams.viscosity;
    addSource(mU, mU0, dt);
    addSource(mV, mV0, dt);
    if (d3)
        addSource(mW, mW0, dt);
    applyInflow();
    mU.swap(mU0);
    diffuse(Quantity::VelocityX, mU, mU0, visc, dt);
    mV.swap(mV0);
    diffuse(Quantity::VelocityY, mV, mV0, visc, dt);
    if (d3) {
        mW.swap(mW0);
        diffuse(Quantity::VelocityZ, mW, mW0, visc, dt);
    }
    imposeNoSlip();
    project(mU, mV, mW);
    mU.swap(mU0);
    mV.swap(mV0);
    if (d3)
        mW.swap(mW0);
    const Carried velocity[3] = {{&mU, &mU0, Quantity::VelocityX},
                                 {&mV, &mV0, Quantity::VelocityY},
                                 {&mW, &mW0, Quantity::VelocityZ}};
    advect(velocity, d3 ? 3 : 2, mU0, mV0, mW0, dt);
    imposeNoSlip();
    project(mU, mV, mW);
}

// The paper's dens_step for density, temperature and dye; their advections share one trace.
template<class T>
void BasicStamSolver<T>::densityStep(float dt)
{
    Carried carried[kMaxCarried];
    int count = 0;
    auto carry = [&](Grid &x, Grid &x0) {
        addSource(x, x0, dt);
        x.swap(x0);
        diffuse(Quantity::Scalar, x, x0, mParams.diffusion, dt);
        x.swap(x0);
        carried[count++] = {&x, &x0, Quantity::Scalar};
    };
    carry(mDensity, mDensity0);
    if (mTemperatureLive)
        carry(mTemperature, mTemperature0);
    if (mHasDye) {
        for (int c = 0; c < 3; ++c)
            carry(mDye[c], mDye0[c]);
    }
    advect(carried, count, mU, mV, mW, dt);
}

template<class T>
void BasicStamSolver<T>::copyInterior(const Grid &src, ScalarGrid &out) const
{
    const StamLayout &L = mLayout;
    forEachRow(L.cells, [&](int j, int k) {
        const std::size_t from = L.index(1, j + 1, k + L.k0);
        float *to = &out(0, j, k);
        for (int i = 0; i < L.cells.x; ++i)
            to[i] = toFloat(src[from + std::size_t(i)]);
    });
}

template<class T>
void BasicStamSolver<T>::sample(FieldKind kind, ScalarGrid &out) const
{
    const StamLayout &L = mLayout;
    out.reshape(L.cells, kCellCentre);
    const float g = 0.5f / mDomain.cellSize;
    const std::uint8_t *flags = mFlags.empty() ? nullptr : mFlags.data();
    const Index sy = L.sy, sz = L.sz;
    // Fills out from f(n, flags) at every interior cell (0 in solids).
    auto derive = [&](auto &&f) {
        forEachRow(L.cells, [&](int j, int k) {
            const Index row = Index(L.index(0, j + 1, k + L.k0));
            for (int i = 0; i < L.cells.x; ++i) {
                const Index n = row + i + 1;
                const std::uint8_t fl = flags ? flags[n] : 0;
                out(i, j, k) = (fl & kSelfSolid) ? 0.f : f(n, fl);
            }
        });
    };
    const T *u = mU.data(), *v = mV.data(), *w = mW.data();
    switch (kind) {
    case FieldKind::Density: copyInterior(mDensity, out); return;
    case FieldKind::Temperature: copyInterior(mTemperature, out); return;
    case FieldKind::DyeRed:
    case FieldKind::DyeGreen:
    case FieldKind::DyeBlue:
        if (mHasDye)
            copyInterior(mDye[int(kind) - int(FieldKind::DyeRed)], out);
        return;
    case FieldKind::VelocityX: copyInterior(mU, out); return;
    case FieldKind::VelocityY: copyInterior(mV, out); return;
    case FieldKind::VelocityZ:
        if (L.is3D)
            copyInterior(mW, out);
        return;
    case FieldKind::Pressure:
        copyInterior(mPressure, out);
        if constexpr (std::is_same_v<T, Fixed>) { // it holds p / h (project)
            for (std::size_t n = 0; n < out.count(); ++n)
                out[n] *= mDomain.cellSize;
        }
        return;
    case FieldKind::Speed:
        derive([&](Index n, std::uint8_t) {
            const float un = toFloat(u[n]), vn = toFloat(v[n]);
            const float wz = L.is3D ? toFloat(w[n]) : 0.f;
            return std::sqrt(un * un + vn * vn + wz * wz);
        });
        return;
    case FieldKind::Divergence: {
        const T *wu = wallsOf(Quantity::VelocityX), *wv = wallsOf(Quantity::VelocityY),
                *ww = wallsOf(Quantity::VelocityZ);
        derive([&](Index n, std::uint8_t f) {
            T s = mirroredNormal(u, wu, n, 1, f & 2) - mirroredNormal(u, wu, n, -1, f & 1)
                  + mirroredNormal(v, wv, n, sy, f & 8) - mirroredNormal(v, wv, n, -sy, f & 4);
            if (L.is3D)
                s = s + mirroredNormal(w, ww, n, sz, f & 32)
                    - mirroredNormal(w, ww, n, -sz, f & 16);
            return g * toFloat(s);
        });
        return;
    }
    case FieldKind::Vorticity:
        derive([&](Index n, std::uint8_t f) {
            // d(q)/d(axis) by central differences; tangential mirrors keep the value.
            auto dq = [&](const T *q, int d) {
                const Index off[3] = {1, sy, sz};
                return g
                       * (toFloat(mirrored(q, n, off[d], f & (2u << (2 * d)), false))
                          - toFloat(mirrored(q, n, -off[d], f & (1u << (2 * d)), false)));
            };
            const float cz = dq(v, 0) - dq(u, 1);
            if (!L.is3D)
                return std::fabs(cz);
            const float cx = dq(w, 1) - dq(v, 2);
            const float cy = dq(u, 2) - dq(w, 0);
            return std::sqrt(cx * cx + cy * cy + cz * cz);
        });
        return;
    case FieldKind::Solid:
        forEachRow(L.cells, [&](int j, int k) {
            for (int i = 0; i < L.cells.x; ++i)
                out(i, j, k) = mSolids.isSolid(i, j, k) ? 1.f : 0.f;
        });
        return;
    case FieldKind::Fuel:
    case FieldKind::Flame: return; // no combustion in this scheme: zeros
    case FieldKind::Height:
    case FieldKind::DisplacementX:
    case FieldKind::DisplacementY:
    case FieldKind::NormalX:
    case FieldKind::NormalY:
    case FieldKind::NormalZ:
    case FieldKind::Foam: return; // the ocean scheme's surface: zeros
    }
}

template<class T>
float BasicStamSolver<T>::maxVelocity() const
{
    const StamLayout &L = mLayout;
    const Int3 rows{L.cells.x, L.cells.y, L.is3D ? L.cells.z : 1};
    return float(maxRows(rows, [&](int j, int k) {
        const std::size_t row = L.index(0, j + 1, k + L.k0);
        float m = 0.f;
        for (int i = 1; i <= L.cells.x; ++i) {
            m = std::max(m, std::fabs(toFloat(mU[row + i])));
            m = std::max(m, std::fabs(toFloat(mV[row + i])));
            if (L.is3D)
                m = std::max(m, std::fabs(toFloat(mW[row + i])));
        }
        return double(m);
    }));
}

template<class T>
std::string BasicStamSolver<T>::firstNonFiniteField() const
{
    if constexpr (std::is_same_v<T, Fixed>)
        return {}; // integers hold no NaN; outOfRangeField() reports what left the range
    const std::pair<const Grid *, const char *> fields[] = {
        {&mDensity, "density"},  {&mTemperature, "temperature"},
        {&mDye[0], "dye red"},   {&mDye[1], "dye green"},
        {&mDye[2], "dye blue"},  {&mU, "velocity x"},
        {&mV, "velocity y"},     {&mW, "velocity z"},
        {&mPressure, "pressure"}};
    const StamLayout &L = mLayout;
    const Int3 rows{L.cells.x, L.cells.y, L.is3D ? L.cells.z : 1};
    for (const auto &[grid, name] : fields) {
        if (grid->count() == 0)
            continue;
        const double bad = maxRows(rows, [&](int j, int k) {
            const std::size_t row = L.index(0, j + 1, k + L.k0);
            for (int i = 1; i <= L.cells.x; ++i) {
                if (!std::isfinite(toFloat((*grid)[row + i])))
                    return 1.0;
            }
            return 0.0;
        });
        if (bad != 0.0)
            return name;
    }
    return {};
}

template<class T>
std::string BasicStamSolver<T>::outOfRangeField() const
{
    if constexpr (std::is_same_v<T, float>)
        return {};
    const std::pair<const Grid *, const char *> fields[] = {{&mU, "velocity-x"},
                                                            {&mV, "velocity-y"},
                                                            {&mW, "velocity-z"},
                                                            {&mDensity, "density"},
                                                            {&mTemperature, "temperature"},
                                                            {&mPressure, "pressure"},
                                                            {&mDye[0], "dye-red"},
                                                            {&mDye[1], "dye-green"},
                                                            {&mDye[2], "dye-blue"}};
    const StamLayout &L = mLayout;
    const Int3 rows{L.cells.x, L.cells.y, L.is3D ? L.cells.z : 1};
    for (const auto &[grid, name] : fields) {
        if (grid->count() == 0)
            continue;
        auto bad = [&](int i, int j, int k) {
            return outOfRange((*grid)[L.index(i + 1, j + 1, k + L.k0)]);
        };
        const double any = maxRows(rows, [&](int j, int k) {
            for (int i = 0; i < L.cells.x; ++i) {
                if (bad(i, j, k))
                    return 1.0;
            }
            return 0.0;
        });
        if (any == 0.0)
            continue;
        for (int k = 0; k < rows.z; ++k)
            for (int j = 0; j < rows.y; ++j)
                for (int i = 0; i < rows.x; ++i) {
                    if (!bad(i, j, k))
                        continue;
                    std::string cell = std::to_string(i) + ", " + std::to_string(j);
                    if (L.is3D)
                        cell += ", " + std::to_string(k);
                    return std::string(name) + " out of fixed-point range at cell (" + cell + ")";
                }
    }
    return {};
}

template<class T>
std::size_t BasicStamSolver<T>::memoryBytes() const
{
    std::size_t total = mFlags.capacity() + mSolids.count() + mObstacleNoSlip.capacity();
    for (const Grid &g : mObstacleVelocity)
        total += g.bytes();
    for (const Grid *g : {&mU, &mV, &mW, &mU0, &mV0, &mW0, &mPressure, &mDivergence, &mDensity,
                          &mDensity0, &mTemperature, &mTemperature0, &mDye[0], &mDye[1], &mDye[2],
                          &mDye0[0], &mDye0[1], &mDye0[2]})
        total += g->bytes();
    for (std::size_t e = 0; e < mEmitters.size(); ++e)
        total += mEmitterCells[e].capacity() * sizeof(std::uint32_t)
                 + mEmitters[e].mask.cells.capacity() * sizeof(std::uint32_t)
                 + mEmitters[e].mask.weights.capacity() * sizeof(float);
    return total;
}

template class BasicStamSolver<float>;
template class BasicStamSolver<Fixed>;

} // namespace plume::sim
