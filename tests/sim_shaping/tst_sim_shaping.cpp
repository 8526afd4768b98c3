// SPDX-License-Identifier: Apache-2.0
// The shaping controls of docs/look.md at the solver level: control masks (ramps, the remap,
// each control field evaluated on a hand-made grid, the same bytes for any thread count), the
// disturbance force field (blocks in world units, smooth, independent of threads and of where
// the steps fall), masked force fields, vorticity confinement in world units with a mask, and
// noisy sources (smooth noise in [-1, 1], the exact factor in the injected amounts, velocity
// modulated, independent of threads and of where the substeps fall), and shredding (the exact
// push on a linear temperature ramp, its limit, mask and region, smooth, thread-independent).

#include <core/sim/base/controlmask.h>
#include <core/sim/base/domain.h>
#include <core/sim/base/grid.h>
#include <core/sim/base/parallel.h>
#include <core/sim/numerics/sourcenoise.h>
#include <core/sim/ops/controlmask.h>
#include <core/sim/ops/forces.h>
#include <core/sim/smoke/smokesolver.h>

#include <oneapi/tbb/task_arena.h>

#include <QtTest>

#include <cmath>
#include <functional>
#include <random>

using namespace plume::sim;

Q_DECLARE_METATYPE(plume::sim::ControlMask)

namespace {

Domain makeDomain(Int3 cells, Boundary b = Boundary::Wall)
{
    Domain d;
    d.cells = cells;
    d.cellSize = 1.f / float(cells.x);
    d.origin = Vec3{0.f, 0.f, 0.f};
    d.boundaries = allBoundaries(b);
    return d;
}

ControlMask mask(ControlField field, float from, float to, std::vector<RampKey> keys = {})
{
    ControlMask m;
    m.field = field;
    m.from = from;
    m.to = to;
    if (!keys.empty())
        m.ramp.keys = std::move(keys);
    return m;
}

void fillRandom(ScalarGrid &g, std::uint32_t seed, float lo, float hi)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(lo, hi);
    for (std::size_t n = 0; n < g.count(); ++n)
        g[n] = dist(rng);
}

void fillRandom(MacGrid &vel, std::uint32_t seed)
{
    for (int a = 0; a < 3; ++a)
        fillRandom(vel.component(a), seed + std::uint32_t(a), -1.f, 1.f);
}

bool sameVelocity(const MacGrid &a, const MacGrid &b)
{
    return a.u.identical(b.u) && a.v.identical(b.v) && a.w.identical(b.w);
}

/// Runs `op` on copies of `start` serially and in arenas of 1, 2 and 4 threads; all must match
/// and differ from `start`.
bool threadIndependent(const MacGrid &start, const std::function<void(MacGrid &)> &op)
{
    MacGrid serial = start;
    {
        SerialScope scope;
        op(serial);
    }
    if (sameVelocity(serial, start))
        return false; // the operation must do something for the comparison to mean anything
    for (int threads : {1, 2, 4}) {
        MacGrid parallel = start;
        oneapi::tbb::task_arena arena(threads);
        arena.execute([&] { op(parallel); });
        if (!sameVelocity(serial, parallel))
            return false;
    }
    return true;
}

ForceField disturbance(float strength, float scale, float rate, std::uint32_t seed = 7)
{
    ForceField f;
    f.type = ForceType::Disturbance;
    f.strength = strength;
    f.scale = scale;
    f.timeScale = rate;
    f.seed = seed;
    return f;
}

/// What applyToMac adds to a zero velocity over [time, time + dt].
MacGrid added(const Domain &d, const std::vector<ForceField> &fields, float dt, double time,
              const ControlWeights *weights = nullptr)
{
    ForceEvaluator ev;
    ev.setup(d, fields);
    MacGrid vel(d.cells);
    ev.applyToMac(vel, FlagGrid(d.cells), dt, time, weights);
    return vel;
}

/// Runs `make` serially and in arenas of 1, 2 and 4 threads; every result must be identical.
bool sameForAnyThreads(const std::function<void(ScalarGrid &)> &make)
{
    ScalarGrid serial;
    {
        SerialScope scope;
        make(serial);
    }
    for (int threads : {1, 2, 4}) {
        ScalarGrid parallel;
        oneapi::tbb::task_arena arena(threads);
        arena.execute([&] { make(parallel); });
        if (!serial.identical(parallel))
            return false;
    }
    return true;
}

} // namespace

class TestSimShaping : public QObject
{
    Q_OBJECT

private slots:
    // ---- ramps and the remap ---------------------------------------------------------------

    void rampIsPiecewiseLinear()
    {
        const Ramp identity;
        for (float t : {0.f, 0.125f, 0.5f, 0.75f, 1.f})
            QCOMPARE(identity.at(t), t);
        QCOMPARE(identity.at(-1.f), 0.f); // clamped to the end keys
        QCOMPARE(identity.at(2.f), 1.f);
        Ramp bump;
        bump.keys = {{0.25f, 0.f}, {0.5f, 1.f}, {1.f, 0.5f}};
        QCOMPARE(bump.at(0.f), 0.f); // before the first key: its value
        QCOMPARE(bump.at(0.25f), 0.f);
        QCOMPARE(bump.at(0.375f), 0.5f);
        QCOMPARE(bump.at(0.5f), 1.f);
        QCOMPARE(bump.at(0.75f), 0.75f);
        QCOMPARE(bump.at(1.f), 0.5f);
        Ramp flat;
        flat.keys = {{0.5f, 0.25f}};
        QCOMPARE(flat.at(0.f), 0.25f);
        QCOMPARE(flat.at(1.f), 0.25f);
    }

    void maskRemapsAndClamps()
    {
        const ControlMask m = mask(ControlField::Density, 0.5f, 2.5f);
        QCOMPARE(m.weight(1.5f), 0.5f);
        QCOMPARE(m.weight(0.f), 0.f);
        QCOMPARE(m.weight(0.5f), 0.f);
        QCOMPARE(m.weight(2.5f), 1.f);
        QCOMPARE(m.weight(9.f), 1.f);
        QCOMPARE(m.weight(std::nanf("")), 0.f); // NaN counts as `from`
        // from > to inverts: the weight falls as the value rises.
        const ControlMask inverted = mask(ControlField::Density, 2.5f, 0.5f);
        QCOMPARE(inverted.weight(1.f), 0.75f);
        QCOMPARE(inverted.weight(3.f), 0.f);
        // The ramp shapes the remapped value.
        const ControlMask ramped = mask(ControlField::Speed, 0.f, 4.f, {{0.f, 1.f}, {1.f, 0.f}});
        QCOMPARE(ramped.weight(1.f), 0.75f);
        // None is 1 whatever the rest says.
        QCOMPARE(mask(ControlField::None, 0.f, 1.f, {{0.f, 0.f}}).weight(5.f), 1.f);
    }

    void validateNamesTheProblem_data()
    {
        QTest::addColumn<ControlMask>("m");
        QTest::addColumn<QString>("message");
        QTest::newRow("from == to")
            << mask(ControlField::Density, 1.f, 1.f) << "from and to are both 1; they must differ";
        QTest::newRow("from NaN") << mask(ControlField::Density, std::nanf(""), 1.f)
                                  << "from and to must be finite";
        QTest::newRow("no keys") << [] {
            ControlMask m = mask(ControlField::Density, 0.f, 1.f);
            m.ramp.keys.clear();
            return m;
        }() << "the ramp has 0 keys; expected 1 to 16";
        QTest::newRow("17 keys") << [] {
            ControlMask m = mask(ControlField::Density, 0.f, 1.f);
            m.ramp.keys.clear();
            for (int n = 0; n < 17; ++n)
                m.ramp.keys.push_back({float(n) / 16.f, 0.f});
            return m;
        }() << "the ramp has 17 keys";
        QTest::newRow("unsorted")
            << mask(ControlField::Density, 0.f, 1.f, {{0.5f, 0.f}, {0.25f, 1.f}})
            << "ramp key 1: position 0.25 is not above the previous key's 0.5";
        QTest::newRow("value above 1")
            << mask(ControlField::Density, 0.f, 1.f, {{0.f, 0.f}, {1.f, 1.5f}})
            << "ramp key 1: value 1.5; expected a number in [0, 1]";
        QTest::newRow("position below 0")
            << mask(ControlField::Density, 0.f, 1.f, {{-0.5f, 0.f}})
            << "ramp key 0: position -0.5; expected a number in [0, 1]";
    }

    void validateNamesTheProblem()
    {
        QFETCH(ControlMask, m);
        QFETCH(QString, message);
        const Status s = validate(m);
        QVERIFY(!s);
        QVERIFY2(QString::fromStdString(s.error).contains(message), s.error.c_str());
        QVERIFY(validate(ControlMask{}));
        QVERIFY(validate(mask(ControlField::Vorticity, 5.f, 0.f, {{0.f, 0.f}, {0.5f, 1.f}})));
    }

    // ---- the mask on the grid --------------------------------------------------------------

    // A hand-made 4 x 3 x 2 grid of densities: each cell's weight is the remapped, ramped value.
    void densityMaskOnHandMadeGrid()
    {
        const Domain d = makeDomain({4, 3, 2});
        ScalarGrid density(d.cells, kCellCentre);
        // Values 0, 0.25, ..., 5.75: multiples of 1/4, so every weight below is exact.
        for (std::size_t n = 0; n < density.count(); ++n)
            density[n] = 0.25f * float(n);
        const ControlMask m = mask(ControlField::Density, 1.f, 5.f,
                                   {{0.f, 0.f}, {0.5f, 1.f}, {1.f, 0.5f}});
        ScalarGrid out;
        evaluateControlMask(m, {.density = &density}, d, out);
        QCOMPARE(out.size(), d.cells);
        for (std::size_t n = 0; n < out.count(); ++n) {
            const float v = 0.25f * float(n);
            // Remap (v - 1) / 4 in [0, 1], then the ramp: up to 1 at 0.5, down to 0.5 at 1.
            const float t = std::clamp((v - 1.f) / 4.f, 0.f, 1.f);
            const float expected = t <= 0.5f ? 2.f * t : 1.f - (t - 0.5f);
            QCOMPARE(out[n], expected);
        }
        QCOMPARE(out(0, 0, 0), 0.f);  // density 0: below from
        QCOMPARE(out(0, 1, 0), 0.f);  // 1: at from
        QCOMPARE(out(0, 2, 0), 0.5f); // 2: t = 0.25, half way up the ramp
        QCOMPARE(out(0, 0, 1), 1.f);  // 3: t = 0.5, the ramp's peak
        QCOMPARE(out(3, 2, 1), 0.5f); // 5.75: t clamped to 1, the ramp's last value
    }

    void eachFieldIsRead()
    {
        const Domain d = makeDomain({4, 4, 1});
        ScalarGrid density(d.cells, kCellCentre, 0.5f), temperature(d.cells, kCellCentre, 3.f),
            flame(d.cells, kCellCentre, 0.25f), fuel(d.cells, kCellCentre, 0.75f);
        const ControlFields fields{.density = &density,
                                   .temperature = &temperature,
                                   .ambientTemperature = 1.f,
                                   .flame = &flame,
                                   .fuel = &fuel};
        auto uniform = [&](const ControlMask &m, const ControlFields &f, float expected) {
            ScalarGrid out;
            evaluateControlMask(m, f, d, out);
            for (std::size_t n = 0; n < out.count(); ++n) {
                if (out[n] != expected)
                    return false;
            }
            return out.size() == d.cells;
        };
        QVERIFY(uniform(mask(ControlField::Density, 0.f, 1.f), fields, 0.5f));
        QVERIFY(uniform(mask(ControlField::Temperature, 0.f, 4.f), fields, 0.5f)); // 3 - ambient
        QVERIFY(uniform(mask(ControlField::Flame, 0.f, 1.f), fields, 0.25f));
        QVERIFY(uniform(mask(ControlField::Fuel, 0.f, 1.f), fields, 0.75f));
        QVERIFY(uniform(ControlMask{}, fields, 1.f));
        // A field the scheme lacks reads as 0: an inverted mask is then 1.
        QVERIFY(uniform(mask(ControlField::Flame, 1.f, 0.f), ControlFields{}, 1.f));
        ScalarGrid empty;
        QVERIFY(uniform(mask(ControlField::Fuel, 0.5f, 1.f), {.fuel = &empty}, 0.f));
    }

    void speedIsCentreVelocityMagnitude()
    {
        const Domain d = makeDomain({5, 4, 3});
        MacGrid vel(d.cells);
        vel.u.fill(3.f);
        vel.v.fill(4.f);
        vel.w.fill(0.f);
        FlagGrid solids(d.cells);
        ScalarGrid out;
        evaluateControlMask(mask(ControlField::Speed, 0.f, 10.f),
                            {.velocity = &vel, .solids = &solids}, d, out);
        for (std::size_t n = 0; n < out.count(); ++n)
            QCOMPARE(out[n], 0.5f); // |(3, 4, 0)| = 5 of 10
        // Faces that differ: the centre averages its two faces per axis.
        vel.u(2, 1, 1) = 5.f; // cells (1, 1, 1) and (2, 1, 1) now see u = 4: |(4, 4, 0)|
        evaluateControlMask(mask(ControlField::Speed, 0.f, 10.f),
                            {.velocity = &vel, .solids = &solids}, d, out);
        QCOMPARE(out(1, 1, 1), std::sqrt(32.f) / 10.f);
        QCOMPARE(out(2, 1, 1), std::sqrt(32.f) / 10.f);
        QCOMPARE(out(3, 1, 1), 0.5f);
    }

    void vorticityIsCurlMagnitude()
    {
        const Domain d = makeDomain({8, 8, 4});
        MacGrid vel(d.cells);
        fillRandom(vel, 5);
        FlagGrid solids(d.cells);
        ScalarGrid curl, out;
        vorticityMagnitude(vel, solids, d, curl);
        const ControlMask m = mask(ControlField::Vorticity, 2.f, 20.f, {{0.f, 0.f}, {1.f, 1.f}});
        evaluateControlMask(m, {.velocity = &vel, .solids = &solids}, d, out);
        float lo = 1.f, hi = 0.f;
        for (std::size_t n = 0; n < out.count(); ++n) {
            QCOMPARE(out[n], m.weight(curl[n]));
            lo = std::min(lo, out[n]);
            hi = std::max(hi, out[n]);
        }
        QVERIFY(lo < hi); // the field has both weak and strong swirls
    }

    void maskIsThreadIndependent_data()
    {
        QTest::addColumn<int>("field");
        for (ControlField f : {ControlField::Density, ControlField::Temperature,
                               ControlField::Speed, ControlField::Vorticity})
            QTest::newRow(toString(f)) << int(f);
    }

    void maskIsThreadIndependent()
    {
        QFETCH(int, field);
        const Domain d = makeDomain({40, 36, 20});
        ScalarGrid density(d.cells, kCellCentre), temperature(d.cells, kCellCentre);
        fillRandom(density, 1, 0.f, 2.f);
        fillRandom(temperature, 2, 0.f, 3.f);
        MacGrid vel(d.cells);
        fillRandom(vel, 3);
        FlagGrid solids(d.cells);
        solids.setSolid(10, 10, 10, true);
        const ControlFields fields{.density = &density,
                                   .temperature = &temperature,
                                   .velocity = &vel,
                                   .solids = &solids};
        const ControlMask m = mask(ControlField(field), 0.2f, 1.3f,
                                   {{0.f, 0.f}, {0.3f, 1.f}, {1.f, 0.2f}});
        QVERIFY(
            sameForAnyThreads([&](ScalarGrid &out) { evaluateControlMask(m, fields, d, out); }));
    }

    void weightsShareEqualMasks()
    {
        const Domain d = makeDomain({6, 6, 1});
        ScalarGrid density(d.cells, kCellCentre, 0.5f);
        const ControlFields fields{.density = &density};
        const ControlMask a = mask(ControlField::Density, 0.f, 1.f);
        const ControlMask b = mask(ControlField::Density, 0.f, 2.f);
        const ControlMask none;
        ControlWeights weights;
        const ControlMask *list[] = {&a, &none, &b, &a, nullptr};
        weights.evaluate(list, fields, d);
        QVERIFY(weights.find(a) && weights.find(b));
        QVERIFY(weights.find(a) != weights.find(b));
        QVERIFY(!weights.find(none)); // None needs no grid
        QCOMPARE((*weights.find(a))(3, 3, 0), 0.5f);
        QCOMPARE((*weights.find(b))(3, 3, 0), 0.25f);
        const std::size_t bytes = weights.bytes();
        QCOMPARE(bytes, 2 * std::size_t(d.cellCount()) * sizeof(float));
        // The next step with fewer masks forgets the others but keeps the memory.
        const ControlMask *one[] = {&b};
        weights.evaluate(one, fields, d);
        QVERIFY(!weights.find(a));
        QCOMPARE((*weights.find(b))(3, 3, 0), 0.25f);
        QCOMPARE(weights.bytes(), bytes);
    }

    // ---- disturbance -----------------------------------------------------------------------

    void disturbanceIsThreadIndependent_data()
    {
        QTest::addColumn<bool>("is2D");
        QTest::newRow("2D") << true;
        QTest::newRow("3D") << false;
    }

    void disturbanceIsThreadIndependent()
    {
        QFETCH(bool, is2D);
        const Domain d = makeDomain(is2D ? Int3{48, 40, 1} : Int3{24, 20, 16});
        ScalarGrid temperature(d.cells, kCellCentre);
        fillRandom(temperature, 4, 0.f, 1.f);
        MacGrid start(d.cells);
        fillRandom(start, 9);
        FlagGrid solids(d.cells);
        solids.setSolid(5, 5, 0, true);
        ForceField f = disturbance(30.f, 0.15f, 12.f);
        f.mask = mask(ControlField::Temperature, 0.1f, 0.8f);
        ForceField sphere = disturbance(-10.f, 0.1f, 3.f, 2);
        sphere.region.shape = RegionShape::Sphere;
        sphere.region.centre = {0.5f, 0.5f, 0.5f};
        sphere.region.radius = 0.2f;
        sphere.region.falloff = 0.1f;
        ForceEvaluator ev;
        ev.setup(d, {f, sphere});
        ControlWeights weights;
        const ControlMask *masks[] = {&f.mask};
        weights.evaluate(masks, {.temperature = &temperature}, d);
        QVERIFY(threadIndependent(start, [&](MacGrid &v) {
            ev.applyToMac(v, solids, 0.04f, 1.23, &weights);
        }));
    }

    // The kicks are bounded by the strength and vary smoothly: between neighbouring faces by at
    // most the smoothstep's steepest slope (1.5 per block) times the widest turn (2) per block
    // crossed, h / scale of a block per face. No cell-scale grain.
    void disturbanceIsSmoothAndBounded()
    {
        const Domain d = makeDomain({64, 64, 16});
        const float strength = 20.f, scale = 8.f * d.cellSize, dt = 0.01f;
        const MacGrid a = added(d, {disturbance(strength, scale, 0.f)}, dt, 0.0);
        const float most = strength * dt;
        const float step = most * 1.5f * 2.f * (d.cellSize / scale) * 1.001f;
        float largest = 0.f, largestStep = 0.f;
        // Inner faces only: the walls' faces are closed (they get nothing).
        for (int axis = 0; axis < 3; ++axis) {
            const ScalarGrid &c = a.component(axis);
            const Int3 s = c.size();
            for (int k = 1; k < s.z - 1; ++k)
                for (int j = 1; j < s.y - 2; ++j)
                    for (int i = 1; i < s.x - 2; ++i) {
                        largest = std::max(largest, std::fabs(c(i, j, k)));
                        largestStep = std::max({largestStep, std::fabs(c(i + 1, j, k) - c(i, j, k)),
                                                std::fabs(c(i, j + 1, k) - c(i, j, k))});
                    }
        }
        QVERIFY2(largest <= most * 1.0001f && largest > 0.5f * most,
                 qPrintable(QString("largest %1 of %2").arg(largest).arg(most)));
        QVERIFY2(largestStep <= step,
                 qPrintable(QString("step %1 > %2").arg(largestStep).arg(step)));
    }

    // Blocks are in world units: at 32 and 64 cells the faces at the same world position get
    // the same kick, and the point query agrees.
    void disturbanceBlocksAreInWorldUnits()
    {
        const Domain coarse = makeDomain({32, 32, 32}), fine = makeDomain({64, 64, 64});
        const std::vector<ForceField> fields{disturbance(5.f, 0.125f, 2.f)};
        const MacGrid a = added(coarse, fields, 0.1f, 0.3), b = added(fine, fields, 0.1f, 0.3);
        ForceEvaluator ec, ef;
        ec.setup(coarse, fields);
        ef.setup(fine, fields);
        for (Vec3 p : {Vec3{0.1f, 0.2f, 0.3f}, Vec3{0.55f, 0.81f, 0.05f}, Vec3{0.9f, 0.4f, 0.6f}}) {
            const Vec3 x = ec.acceleration(p, {}, 0.3), y = ef.acceleration(p, {}, 0.3);
            QCOMPARE(x.x, y.x);
            QCOMPARE(x.y, y.y);
            QCOMPARE(x.z, y.z);
        }
        // Both MAC grids add what the point query says at their own faces (the step lies within
        // one refresh: rate 2, [0.3, 0.4)).
        for (auto [grid, n] : {std::pair{&a, 32}, std::pair{&b, 64}})
            for (int k = 3; k < n; k += 7)
                for (int j = 2; j < n; j += 5)
                    for (int i = 1; i < n; i += 3) {
                        const Vec3 p{float(i) / float(n), (float(j) + 0.5f) / float(n),
                                     (float(k) + 0.5f) / float(n)};
                        const float expected = ec.acceleration(p, {}, 0.3).x * 0.1f;
                        QVERIFY(std::fabs(grid->u(i, j, k) - expected) <= 1e-6f);
                    }
    }

    // The velocity a disturbance gives over a span of time does not depend on how the span is
    // cut into steps: each step applies its share of every refresh it spans.
    void disturbanceIndependentOfStepBoundaries()
    {
        const Domain d = makeDomain({24, 24, 1});
        const std::vector<ForceField> fields{disturbance(8.f, 0.2f, 15.f)};
        ForceEvaluator ev;
        ev.setup(d, fields);
        const FlagGrid solids(d.cells);
        MacGrid one(d.cells), three(d.cells), seven(d.cells);
        ev.applyToMac(one, solids, 0.3f, 0.05);
        for (int s = 0; s < 3; ++s)
            ev.applyToMac(three, solids, 0.1f, 0.05 + 0.1 * s);
        for (int s = 0; s < 7; ++s)
            ev.applyToMac(seven, solids, 0.3f / 7.f, 0.05 + 0.3 / 7.0 * s);
        float largest = 0.f, diff3 = 0.f, diff7 = 0.f;
        for (int axis = 0; axis < 2; ++axis)
            for (std::size_t n = 0; n < one.component(axis).count(); ++n) {
                const float x = one.component(axis)[n];
                largest = std::max(largest, std::fabs(x));
                diff3 = std::max(diff3, std::fabs(three.component(axis)[n] - x));
                diff7 = std::max(diff7, std::fabs(seven.component(axis)[n] - x));
            }
        QVERIFY(largest > 0.1f);
        QVERIFY2(diff3 <= 1e-5f * 8.f && diff7 <= 1e-5f * 8.f,
                 qPrintable(
                     QString("differences %1, %2 of %3").arg(diff3).arg(diff7).arg(largest)));
        // Without the averaging (one refresh per step) the cut would matter: the span crosses
        // 4.5 refreshes, so a single step's directions are not the three steps' mean.
        MacGrid instant(d.cells);
        ev.applyToMac(instant, solids, 1e-6f, 0.05);
        float differs = 0.f;
        for (std::size_t n = 0; n < one.u.count(); ++n)
            differs = std::max(differs, std::fabs(instant.u[n] / 1e-6f * 0.3f - one.u[n]));
        QVERIFY(differs > 0.1f);
    }

    void disturbanceRefreshesAtItsRate()
    {
        const Domain d = makeDomain({16, 16, 1});
        const std::vector<ForceField> fields{disturbance(1.f, 0.25f, 4.f)};
        // Refresh 2 covers [0.5, 0.75): two instants inside it agree, one after it does not.
        const MacGrid a = added(d, fields, 1e-3f, 0.55), b = added(d, fields, 1e-3f, 0.7),
                      c = added(d, fields, 1e-3f, 0.76);
        QVERIFY(sameVelocity(a, b));
        QVERIFY(!sameVelocity(a, c));
        // Rate 0: never refreshes.
        const std::vector<ForceField> still{disturbance(1.f, 0.25f, 0.f)};
        QVERIFY(sameVelocity(added(d, still, 1e-3f, 0.1), added(d, still, 1e-3f, 50.0)));
        // Another seed, other directions.
        QVERIFY(!sameVelocity(a, added(d, {disturbance(1.f, 0.25f, 4.f, 8)}, 1e-3f, 0.55)));
    }

    // ---- masked force fields ---------------------------------------------------------------

    // A mask that is 1 on the left half and 0 on the right: faces between two full cells get
    // exactly the unmasked bytes, faces between two empty cells nothing, the faces between
    // the halves half. Turbulence and disturbance alike.
    void maskedFieldsActWhereTheMaskIs_data()
    {
        QTest::addColumn<int>("type");
        QTest::newRow("turbulence") << int(ForceType::Turbulence);
        QTest::newRow("disturbance") << int(ForceType::Disturbance);
        QTest::newRow("directional") << int(ForceType::Directional);
    }

    void maskedFieldsActWhereTheMaskIs()
    {
        QFETCH(int, type);
        const Domain d = makeDomain({16, 12, 8});
        ForceField f = disturbance(9.f, 0.2f, 1.f);
        f.type = ForceType(type);
        f.direction = {0.6f, 0.8f, 0.f};
        ScalarGrid density(d.cells, kCellCentre);
        for (int k = 0; k < 8; ++k)
            for (int j = 0; j < 12; ++j)
                for (int i = 0; i < 8; ++i)
                    density(i, j, k) = 2.f;
        ForceField masked = f;
        masked.mask = mask(ControlField::Density, 0.f, 1.f);
        ControlWeights weights;
        const ControlMask *masks[] = {&masked.mask};
        weights.evaluate(masks, {.density = &density}, d);
        const MacGrid plain = added(d, {f}, 0.1f, 0.4, &weights);
        const MacGrid withMask = added(d, {masked}, 0.1f, 0.4, &weights);
        // No weights given: the mask is not applied (the stam and sph schemes).
        QVERIFY(sameVelocity(added(d, {masked}, 0.1f, 0.4), plain));
        int full = 0, empty = 0;
        for (int axis = 0; axis < 3; ++axis) {
            const ScalarGrid &p = plain.component(axis), &m = withMask.component(axis);
            const Int3 s = p.size();
            for (int k = 0; k < s.z; ++k)
                for (int j = 0; j < s.y; ++j)
                    for (int i = 0; i < s.x; ++i) {
                        const bool leftCells = axis == 0 ? i <= 7 : i < 8;
                        const bool rightCells = axis == 0 ? i >= 9 : i >= 8;
                        if (leftCells) {
                            QCOMPARE(m(i, j, k), p(i, j, k));
                            full += p(i, j, k) != 0.f;
                        } else if (rightCells) {
                            QCOMPARE(m(i, j, k), 0.f);
                            empty += p(i, j, k) != 0.f;
                        } else { // the u faces at x = 8 cells: one full, one empty cell
                            QVERIFY(std::fabs(m(i, j, k) - 0.5f * p(i, j, k))
                                    <= 1e-6f * std::fabs(p(i, j, k)));
                        }
                    }
        }
        QVERIFY(full > 100 && empty > 100);
    }

    // A field whose mask is None runs the code it always did: the same bytes whatever weights
    // the step holds for other fields.
    void unmaskedTurbulenceIsUnchanged()
    {
        const Domain d = makeDomain({20, 16, 12});
        ForceField t;
        t.type = ForceType::Turbulence;
        t.strength = 4.f;
        t.scale = 0.3f;
        t.seed = 3;
        ScalarGrid density(d.cells, kCellCentre, 0.3f);
        const ControlMask other = mask(ControlField::Density, 0.f, 1.f);
        ControlWeights weights;
        const ControlMask *masks[] = {&other};
        weights.evaluate(masks, {.density = &density}, d);
        QVERIFY(sameVelocity(added(d, {t}, 0.05f, 1.5), added(d, {t}, 0.05f, 1.5, &weights)));
    }

    // ---- vorticity confinement in world units ------------------------------------------------

    // L = 0 is the paper's h; twice h doubles the force exactly (a power of two); a mask of
    // ones changes nothing and a mask of zeros leaves the velocity alone.
    void confinementLengthAndMask()
    {
        const Domain d = makeDomain({24, 20, 12});
        MacGrid start(d.cells);
        fillRandom(start, 11);
        const FlagGrid solids(d.cells);
        Workspace work;
        auto apply = [&](const Confinement &c) {
            MacGrid v = start;
            addVorticityConfinement(v, c, solids, d, 0.1f, work);
            return v;
        };
        const MacGrid paper = apply({.epsilon = 0.5f});
        MacGrid legacy = start;
        addVorticityConfinement(legacy, 0.5f, solids, d, 0.1f, work);
        QVERIFY(sameVelocity(paper, legacy));
        QVERIFY(sameVelocity(paper, apply({.epsilon = 0.5f, .length = d.cellSize})));
        const MacGrid twice = apply({.epsilon = 0.5f, .length = 2.f * d.cellSize});
        for (int axis = 0; axis < 3; ++axis)
            for (std::size_t n = 0; n < start.component(axis).count(); ++n) {
                const float s = start.component(axis)[n];
                const float one = paper.component(axis)[n] - s;
                const float two = twice.component(axis)[n] - s;
                QVERIFY(std::fabs(two - 2.f * one) <= 1e-6f * (1.f + std::fabs(s)));
            }
        const ScalarGrid ones(d.cells, kCellCentre, 1.f), zeros(d.cells, kCellCentre, 0.f);
        QVERIFY(sameVelocity(apply({.epsilon = 0.5f, .mask = &ones}), paper));
        QVERIFY(sameVelocity(apply({.epsilon = 0.5f, .mask = &zeros}), start));
    }

    // The point of a world length: a smooth vortex at 32 and at 64 cells gets about the same
    // confinement impulse with L fixed, where the paper's L = h halves it.
    void confinementLengthHoldsAcrossResolutions()
    {
        auto impulse = [](int n, float length) {
            const Domain d = makeDomain({n, n, 1});
            MacGrid vel(d.cells);
            // A Gaussian vortex off centre: u = (-y', x') exp(-r^2 / s^2).
            auto field = [](float x, float y) {
                const float dx = x - 0.45f, dy = y - 0.55f;
                const float g = std::exp(-(dx * dx + dy * dy) / (0.15f * 0.15f));
                return Vec3{-dy * g * 10.f, dx * g * 10.f, 0.f};
            };
            for (int j = 0; j < n; ++j)
                for (int i = 0; i <= n; ++i)
                    vel.u(i, j, 0) = field(float(i) / n, (float(j) + 0.5f) / n).x;
            for (int j = 0; j <= n; ++j)
                for (int i = 0; i < n; ++i)
                    vel.v(i, j, 0) = field((float(i) + 0.5f) / n, float(j) / n).y;
            const MacGrid start = vel;
            Workspace work;
            addVorticityConfinement(vel, {.epsilon = 1.f, .length = length}, FlagGrid(d.cells), d,
                                    0.1f, work);
            double sum = 0.0;
            for (std::size_t c = 0; c < vel.u.count(); ++c)
                sum += std::fabs(vel.u[c] - start.u[c]);
            for (std::size_t c = 0; c < vel.v.count(); ++c)
                sum += std::fabs(vel.v[c] - start.v[c]);
            return sum * double(d.cellSize) * double(d.cellSize); // an area integral
        };
        const double fixed = impulse(64, 0.02f) / impulse(32, 0.02f);
        const double paper = impulse(64, 0.f) / impulse(32, 0.f);
        QVERIFY2(std::fabs(fixed - 1.0) < 0.1, qPrintable(QString("fixed L: %1").arg(fixed)));
        QVERIFY2(std::fabs(paper - 0.5) < 0.05, qPrintable(QString("L = h: %1").arg(paper)));
    }

    // ---- in the smoke scheme -----------------------------------------------------------------

    // A burning-hot puff with a temperature-masked disturbance and a masked confinement: the
    // same bytes serially and with 1, 2 and 4 threads; the disturbance changes the flow.
    void smokeSchemeIsThreadIndependent()
    {
        const Domain d = makeDomain({24, 32, 16});
        SimParams p;
        p.vorticity = 0.3f;
        p.vorticityLength = 0.05f;
        p.vorticityMask = mask(ControlField::Density, 0.f, 0.5f);
        auto run = [&](bool withDisturbance) {
            auto s = std::make_unique<SmokeSolver>(d, p);
            Emitter e;
            for (int k = 5; k < 11; ++k)
                for (int j = 2; j < 6; ++j)
                    for (int i = 9; i < 15; ++i) {
                        e.mask.cells.push_back(std::uint32_t(i + 24 * (j + 32 * k)));
                        e.mask.weights.push_back(1.f);
                    }
            e.density = 3.f;
            e.temperature = 6.f;
            (void)s->setEmitters({e});
            ForceField f = disturbance(withDisturbance ? 40.f : 0.f, 0.12f, 10.f);
            f.mask = mask(ControlField::Temperature, 0.1f, 1.f);
            (void)s->setForceFields({f});
            for (int step = 0; step < 6; ++step)
                s->step(0.04f, 0.04 * step);
            return s;
        };
        std::unique_ptr<SmokeSolver> serial;
        {
            SerialScope scope;
            serial = run(true);
        }
        for (int threads : {1, 2, 4}) {
            std::unique_ptr<SmokeSolver> parallel;
            oneapi::tbb::task_arena arena(threads);
            arena.execute([&] { parallel = run(true); });
            QVERIFY(sameVelocity(serial->velocity(), parallel->velocity()));
            QVERIFY(serial->density().identical(parallel->density()));
        }
        QVERIFY(!sameVelocity(serial->velocity(), run(false)->velocity()));
    }

    // ---- noisy sources -------------------------------------------------------------------------

    // n is a smooth gradient noise in [-1, 1]: exactly 0 at its lattice nodes (x / size and
    // t * speed whole), reaching both ends, of RMS near 0.44, and changing by less than 0.6
    // between points a tenth of its size apart (white noise would jump by up to 2).
    void sourceNoiseIsSmoothAndBounded()
    {
        EmitterNoise noise;
        noise.size = 0.25f;
        noise.amplitude = 0.6f;
        noise.speed = 1.5f;
        noise.seed = 3;
        QCOMPARE(sourceNoise(noise, {0.5f, 0.75f, 1.f}, 2.0, false), 0.f);
        QCOMPARE(sourceNoiseFactor(noise, {0.5f, 0.75f, 1.f}, 2.0, false), 1.f);
        std::mt19937 rng(5);
        std::uniform_real_distribution<float> u(-3.f, 3.f);
        double squares = 0.0;
        float lo = 0.f, hi = 0.f, step = 0.f, drift = 0.f;
        constexpr int kPoints = 20000;
        for (int n = 0; n < kPoints; ++n) {
            const Vec3 x{u(rng), u(rng), u(rng)};
            const double t = 3.0 + double(u(rng));
            const float v = sourceNoise(noise, x, t, false);
            squares += double(v) * double(v);
            lo = std::min(lo, v);
            hi = std::max(hi, v);
            const Vec3 next{x.x + 0.025f, x.y, x.z};
            step = std::max(step, std::abs(sourceNoise(noise, next, t, false) - v));
            drift = std::max(drift, std::abs(sourceNoise(noise, x, t + 1.0 / 96.0, false) - v));
            const float f = sourceNoiseFactor(noise, x, t, false);
            QCOMPARE(f, std::max(0.f, 1.f + 0.6f * v));
        }
        QCOMPARE(lo, -1.f);
        QCOMPARE(hi, 1.f);
        const double rms = std::sqrt(squares / kPoints);
        QVERIFY2(rms > 0.38 && rms < 0.5, qPrintable(QString::number(rms)));
        QVERIFY2(step < 0.6f, qPrintable(QString::number(step)));
        QVERIFY2(drift < 0.1f, qPrintable(QString::number(drift))); // 1/96 s at 1.5 periods/s
        // Amplitude 1 where n = -1 stops the source; never a negative rate.
        noise.amplitude = 1.f;
        float least = 1.f;
        for (int n = 0; n < kPoints; ++n)
            least = std::min(least, sourceNoiseFactor(noise, {u(rng), u(rng), 0.f}, 1.0, true));
        QCOMPARE(least, 0.f);
        // Another seed, other noise; 2D ignores z.
        EmitterNoise other = noise;
        other.seed = 4;
        QVERIFY(sourceNoise(noise, {0.3f, 0.4f, 0.f}, 0.2, true)
                != sourceNoise(other, {0.3f, 0.4f, 0.f}, 0.2, true));
        QCOMPARE(sourceNoise(noise, {0.3f, 0.4f, 0.f}, 0.2, true),
                 sourceNoise(noise, {0.3f, 0.4f, 9.f}, 0.2, true));
    }

    void noiseValidation_data()
    {
        QTest::addColumn<float>("size");
        QTest::addColumn<float>("amplitude");
        QTest::addColumn<float>("speed");
        QTest::addColumn<QString>("message");
        QTest::newRow("size 0") << 0.f << 0.5f << 1.f
                                << "emitter noise size 0.000000 must be a "
                                   "positive finite number";
        QTest::newRow("size inf") << INFINITY << 0.5f << 1.f << "noise size inf";
        QTest::newRow("amplitude above 1")
            << 0.1f << 1.5f << 1.f << "emitter noise amplitude 1.500000 must be in [0, 1]";
        QTest::newRow("amplitude negative") << 0.1f << -0.1f << 1.f << "must be in [0, 1]";
        QTest::newRow("amplitude NaN") << 0.1f << NAN << 1.f << "must be in [0, 1]";
        QTest::newRow("speed negative")
            << 0.1f << 0.5f << -1.f << "emitter noise speed -1.000000 must be a finite number >= 0";
    }

    void noiseValidation()
    {
        QFETCH(float, size);
        QFETCH(float, amplitude);
        QFETCH(float, speed);
        QFETCH(QString, message);
        Emitter e;
        e.noise.size = size;
        e.noise.amplitude = amplitude;
        e.noise.speed = speed;
        const Status s = validate(e, 8);
        QVERIFY(!s);
        QVERIFY2(QString::fromStdString(s.error).contains(message), s.error.c_str());
        QVERIFY(validate(Emitter{}, 8));
    }

    // The exact amounts: with no velocity (no buoyancy, no force) a step leaves in each emitter
    // cell dt * weight * factor * rate, the factor that of the noise at the cell centre and the
    // middle of the step.
    void noisyEmitterInjectsTheFactor()
    {
        const Domain d = makeDomain({16, 16, 16});
        SimParams p;
        p.buoyancyTemperature = 0.f;
        SmokeSolver s(d, p);
        Emitter e;
        for (int k = 4; k < 12; ++k)
            for (int j = 2; j < 10; ++j)
                for (int i = 4; i < 12; ++i) {
                    e.mask.cells.push_back(std::uint32_t(i + 16 * (j + 16 * k)));
                    e.mask.weights.push_back(i == 4 ? 0.5f : 1.f);
                }
        e.density = 2.f;
        e.temperature = 4.f;
        e.noise = EmitterNoise{.size = 0.125f, .amplitude = 0.6f, .speed = 1.5f, .seed = 3};
        QVERIFY(s.setEmitters({e}));
        const float dt = 0.05f;
        const double t = 0.7;
        s.step(dt, t);
        float least = 2.f, most = 0.f;
        for (std::size_t m = 0; m < e.mask.size(); ++m) {
            const std::uint32_t c = e.mask.cells[m];
            const Int3 cell = cellOf(c, d.cells);
            const float factor = sourceNoiseFactor(e.noise, d.cellCentre(cell.x, cell.y, cell.z),
                                                   t + 0.5 * double(dt), false);
            const float w = e.mask.weights[m] * dt * factor;
            QCOMPARE(s.density()[c], w * 2.f);
            QCOMPARE(s.temperature()[c], w * 4.f);
            least = std::min(least, factor);
            most = std::max(most, factor);
        }
        // The noise does something: the factor spans much of 1 -+ 0.6.
        QVERIFY2(least < 0.8f && most > 1.2f,
                 qPrintable(QString("%1..%2").arg(double(least)).arg(double(most))));
        QCOMPARE(s.density()[0], 0.f); // nothing outside the emitter
    }

    // The velocity is modulated by the same factor: a one-cell emitter with noise gives what
    // the same emitter gives without noise and with its rates and velocity times the factor
    // (force and inflow).
    void noisyEmitterModulatesTheVelocity_data()
    {
        QTest::addColumn<int>("mode");
        QTest::newRow("force") << int(EmitterVelocity::Force);
        QTest::newRow("inflow") << int(EmitterVelocity::Inflow);
    }

    void noisyEmitterModulatesTheVelocity()
    {
        QFETCH(int, mode);
        const Domain d = makeDomain({12, 12, 12});
        Emitter e;
        e.mask.cells = {std::uint32_t(5 + 12 * (3 + 12 * 6))};
        e.mask.weights = {1.f};
        e.density = 1.f;
        e.velocityMode = EmitterVelocity(mode);
        e.velocity = {0.5f, 2.f, -0.25f};
        e.noise = EmitterNoise{.size = 0.2f, .amplitude = 0.8f, .speed = 2.f, .seed = 9};
        const float dt = 0.04f;
        const double t = 0.3;
        const float factor = sourceNoiseFactor(e.noise, d.cellCentre(5, 3, 6), t + 0.5 * double(dt),
                                               false);
        QVERIFY2(std::abs(factor - 1.f) > 0.05f, qPrintable(QString::number(double(factor))));
        Emitter scaled = e;
        scaled.noise = EmitterNoise{};
        scaled.density = factor;
        scaled.velocity = e.velocity * factor;
        auto run = [&](const Emitter &em) {
            auto s = std::make_unique<SmokeSolver>(d, SimParams{});
            (void)s->setEmitters({em});
            s->step(dt, t);
            return s;
        };
        const auto a = run(e), b = run(scaled);
        double diff = 0.0, size = 0.0;
        for (int axis = 0; axis < 3; ++axis) {
            const ScalarGrid &ua = a->velocity().component(axis);
            const ScalarGrid &ub = b->velocity().component(axis);
            for (std::size_t n = 0; n < ua.count(); ++n) {
                diff = std::max(diff, double(std::abs(ua[n] - ub[n])));
                size = std::max(size, double(std::abs(ub[n])));
            }
        }
        QVERIFY(size > 0.01);
        QVERIFY2(diff <= 1e-5 * size, qPrintable(QString("%1 of %2").arg(diff).arg(size)));
        // And without the factor it would differ.
        Emitter plain = e;
        plain.noise = EmitterNoise{};
        const auto c = run(plain);
        QVERIFY(!sameVelocity(a->velocity(), c->velocity()));
    }

    // The noise's time is the simulation time: a frame in one step or in six puts in the same
    // amount to within the midpoint rule's error (the noise barely changes over a step).
    void noisyEmitterIndependentOfSubsteps()
    {
        const Domain d = makeDomain({16, 16, 16});
        SimParams p;
        p.buoyancyTemperature = 0.f;
        auto total = [&](int substeps) {
            SmokeSolver s(d, p);
            Emitter e;
            for (int c = 0; c < 16 * 16 * 4; ++c) {
                e.mask.cells.push_back(std::uint32_t(c));
                e.mask.weights.push_back(1.f);
            }
            e.density = 1.f;
            e.noise = EmitterNoise{.size = 0.1f, .amplitude = 1.f, .speed = 1.5f, .seed = 1};
            (void)s.setEmitters({e});
            const float frame = 1.f / 24.f, dt = frame / float(substeps);
            for (int n = 0; n < substeps; ++n)
                s.step(dt, 2.0 + double(n) * double(dt));
            double sum = 0.0;
            for (std::size_t c = 0; c < s.density().count(); ++c)
                sum += double(s.density()[c]);
            return sum;
        };
        const double one = total(1), six = total(6);
        QVERIFY(one > 0.0);
        QVERIFY2(std::abs(one - six) < 1e-3 * six, qPrintable(QString("%1 %2").arg(one).arg(six)));
    }

    // Noisy force, inflow and fuel emitters: the same bytes serially and with 1, 2 and 4
    // threads; the noise changes the result.
    void noisyEmittersAreThreadIndependent()
    {
        const Domain d = makeDomain({24, 32, 16});
        auto run = [&](float amplitude) {
            auto s = std::make_unique<SmokeSolver>(d, SimParams{});
            Emitter puff, jet;
            for (int k = 5; k < 11; ++k)
                for (int j = 2; j < 6; ++j)
                    for (int i = 3; i < 9; ++i) {
                        puff.mask.cells.push_back(std::uint32_t(i + 24 * (j + 32 * k)));
                        puff.mask.weights.push_back(1.f);
                        jet.mask.cells.push_back(std::uint32_t(i + 12 + 24 * (j + 32 * k)));
                        jet.mask.weights.push_back(0.75f);
                    }
            puff.density = 3.f;
            puff.temperature = 6.f;
            puff.fuel = 2.f;
            puff.velocityMode = EmitterVelocity::Force;
            puff.velocity = {0.f, 4.f, 0.f};
            puff.noise = EmitterNoise{.size = 0.1f, .amplitude = amplitude, .speed = 2.f};
            jet.density = 1.f;
            jet.velocityMode = EmitterVelocity::Inflow;
            jet.velocity = {0.f, 1.f, 0.f};
            jet.noise = EmitterNoise{.size = 0.15f, .amplitude = amplitude, .seed = 5};
            (void)s->setEmitters({puff, jet});
            for (int step = 0; step < 6; ++step)
                s->step(0.04f, 0.04 * step);
            return s;
        };
        std::unique_ptr<SmokeSolver> serial;
        {
            SerialScope scope;
            serial = run(0.7f);
        }
        for (int threads : {1, 2, 4}) {
            std::unique_ptr<SmokeSolver> parallel;
            oneapi::tbb::task_arena arena(threads);
            arena.execute([&] { parallel = run(0.7f); });
            QVERIFY(sameVelocity(serial->velocity(), parallel->velocity()));
            QVERIFY(serial->density().identical(parallel->density()));
            QVERIFY(serial->temperature().identical(parallel->temperature()));
        }
        QVERIFY(!serial->density().identical(run(0.f)->density()));
    }

    // ---- shredding ---------------------------------------------------------------------------

    // T = c y (a linear ramp, steep enough for full strength) and a uniform velocity (1, 2, 0):
    // N = +y, (u . N) / |u| = 2 / sqrt(5), so every open y face gains dt * strength * 2 /
    // sqrt(5) and the x faces nothing. The limit caps the gain at the along-gradient velocity
    // (2): a strong stretch doubles it, a strong squash removes it.
    void shreddingOnALinearRamp_data()
    {
        QTest::addColumn<float>("strength");
        QTest::addColumn<float>("v");
        const float dt = 0.1f;
        QTest::newRow("stretch") << 3.f << 2.f + dt * 3.f * 2.f / std::sqrt(5.f);
        QTest::newRow("squash") << -3.f << 2.f - dt * 3.f * 2.f / std::sqrt(5.f);
        QTest::newRow("stretch limited") << 100.f << 4.f;
        QTest::newRow("squash limited") << -100.f << 0.f;
    }

    void shreddingOnALinearRamp()
    {
        QFETCH(float, strength);
        QFETCH(float, v);
        const Domain d = makeDomain({8, 10, 6});
        ScalarGrid t(d.cells, kCellCentre);
        for (int k = 0; k < 6; ++k)
            for (int j = 0; j < 10; ++j)
                for (int i = 0; i < 8; ++i)
                    t(i, j, k) = 5.f * (float(j) + 0.5f) * d.cellSize; // c = 5 per unit
        MacGrid vel(d.cells);
        vel.u.fill(1.f);
        vel.v.fill(2.f);
        Workspace work;
        const Shredding s{.strength = strength, .edge = 0.25f}; // 5 * 0.25 >= 1: G = 1
        addShredding(vel, t, s, FlagGrid(d.cells), d, 0.1f, work);
        for (int k = 0; k < 6; ++k)
            for (int j = 1; j < 10; ++j) // the walls' faces stay closed
                for (int i = 0; i < 8; ++i)
                    QCOMPARE(vel.v(i, j, k), v);
        for (std::size_t n = 0; n < vel.u.count(); ++n)
            QCOMPARE(vel.u[n], 1.f);
        QCOMPARE(vel.v(3, 0, 2), 2.f);
        // A shallow ramp (c edge = 0.5) gives half the push.
        for (std::size_t n = 0; n < t.count(); ++n)
            t[n] *= 0.4f;
        vel.v.fill(2.f);
        addShredding(vel, t, Shredding{.strength = 3.f, .edge = 0.25f}, FlagGrid(d.cells), d, 0.1f,
                     work);
        QCOMPARE(vel.v(3, 4, 2), 2.f + 0.1f * 0.5f * 3.f * 2.f / std::sqrt(5.f));
    }

    // Without a gradient, or without motion along it, shredding does nothing; the control mask
    // and the region scale it per cell.
    void shreddingNeedsGradientMotionAndMask()
    {
        const Domain d = makeDomain({8, 10, 6});
        ScalarGrid t(d.cells, kCellCentre, 2.f); // flat
        MacGrid vel(d.cells);
        vel.v.fill(2.f);
        Workspace work;
        const MacGrid before = vel;
        addShredding(vel, t, Shredding{.strength = 5.f}, FlagGrid(d.cells), d, 0.1f, work);
        QVERIFY(sameVelocity(vel, before));
        for (int k = 0; k < 6; ++k)
            for (int j = 0; j < 10; ++j)
                for (int i = 0; i < 8; ++i)
                    t(i, j, k) = float(i); // a gradient along x, the motion along y
        addShredding(vel, t, Shredding{.strength = 5.f}, FlagGrid(d.cells), d, 0.1f, work);
        QVERIFY(sameVelocity(vel, before));
        // Ramp along y again; mask 0 for z < 3, region a box over x < 0.5.
        for (int k = 0; k < 6; ++k)
            for (int j = 0; j < 10; ++j)
                for (int i = 0; i < 8; ++i)
                    t(i, j, k) = float(j);
        ScalarGrid mask(d.cells, kCellCentre, 1.f);
        for (int k = 0; k < 3; ++k)
            for (int j = 0; j < 10; ++j)
                for (int i = 0; i < 8; ++i)
                    mask(i, j, k) = 0.f;
        ForceField field;
        field.type = ForceType::Shredding;
        field.strength = 5.f;
        field.region.shape = RegionShape::Box;
        field.region.centre = {0.f, 0.5f, 0.5f};
        field.region.halfSize = {0.5f, 1.f, 1.f};
        ForceEvaluator region;
        region.setup(d, {field});
        const Shredding s{.strength = 5.f, .edge = 1.f, .mask = &mask, .region = &region};
        addShredding(vel, t, s, FlagGrid(d.cells), d, 0.1f, work);
        QCOMPARE(vel.v(1, 5, 1), 2.f);                    // masked out
        QCOMPARE(vel.v(6, 5, 4), 2.f);                    // outside the region
        QCOMPARE(vel.v(1, 5, 4), 2.f + 0.1f * 5.f * 1.f); // N = u / |u|: the full strength
        // The evaluator itself adds nothing for a shredding field (it has no temperature).
        QCOMPARE(region.acceleration({0.1f, 0.5f, 0.5f}, {0.f, 2.f, 0.f}, 0.0), Vec3{});
    }

    // A smooth hot blob rising: the push varies smoothly from face to face (no cell-scale
    // grain): neighbouring faces differ by at most half the largest push (per-cell noise would
    // differ by up to twice it). And faint cell-scale noise on flat temperature, whose
    // gradient direction is random, gets under 5 % of the strength (G = |grad T| edge is small).
    void shreddingIsSmooth()
    {
        const Domain d = makeDomain({32, 32, 32});
        ScalarGrid t(d.cells, kCellCentre);
        MacGrid vel(d.cells);
        for (int k = 0; k < 32; ++k)
            for (int j = 0; j < 32; ++j)
                for (int i = 0; i < 32; ++i) {
                    const Vec3 x = d.cellCentre(i, j, k) - Vec3{0.5f, 0.4f, 0.5f};
                    t(i, j, k) = 4.f * std::exp(-dot(x, x) / (2.f * 0.15f * 0.15f));
                }
        for (int k = 0; k < 32; ++k)
            for (int j = 0; j <= 32; ++j)
                for (int i = 0; i < 32; ++i) {
                    const float x = (float(i) + 0.5f) / 32.f - 0.5f;
                    vel.v(i, j, k) = 1.f + 0.5f * x; // rising, sheared
                }
        const MacGrid before = vel;
        Workspace work;
        const float dt = 0.02f, strength = 4.f;
        auto measure = [&](float &largest, float &jump) {
            largest = jump = 0.f;
            for (int k = 1; k < 31; ++k)
                for (int j = 1; j < 32; ++j)
                    for (int i = 1; i < 31; ++i) {
                        const float dv = vel.v(i, j, k) - before.v(i, j, k);
                        largest = std::max(largest, std::abs(dv));
                        for (Int3 o : {Int3{1, 0, 0}, Int3{0, 1, 0}, Int3{0, 0, 1}}) {
                            const float next = vel.v(i + o.x, j + o.y, k + o.z)
                                               - before.v(i + o.x, j + o.y, k + o.z);
                            jump = std::max(jump, std::abs(next - dv));
                        }
                    }
        };
        addShredding(vel, t, Shredding{.strength = strength, .edge = 0.05f}, FlagGrid(d.cells), d,
                     dt, work);
        float largest = 0.f, jump = 0.f;
        measure(largest, jump);
        QVERIFY(largest > 0.5f * dt * strength);
        QVERIFY2(jump < largest / 2.f,
                 qPrintable(QString("%1 of %2").arg(double(jump)).arg(double(largest))));
        // Flat temperature with +-0.01 of per-cell noise.
        fillRandom(t, 11, 1.99f, 2.01f);
        vel = before;
        addShredding(vel, t, Shredding{.strength = strength, .edge = 0.05f}, FlagGrid(d.cells), d,
                     dt, work);
        measure(largest, jump);
        QVERIFY2(largest < 0.05f * dt * strength, qPrintable(QString::number(double(largest))));
    }

    // A flame with a temperature-masked shredding field in the smoke scheme: the same bytes
    // serially and with 1, 2 and 4 threads; shredding changes the flow.
    void shreddingIsThreadIndependent()
    {
        const Domain d = makeDomain({24, 32, 16});
        auto run = [&](float strength) {
            auto s = std::make_unique<SmokeSolver>(d, SimParams{});
            Emitter e;
            for (int k = 5; k < 11; ++k)
                for (int j = 2; j < 6; ++j)
                    for (int i = 9; i < 15; ++i) {
                        e.mask.cells.push_back(std::uint32_t(i + 24 * (j + 32 * k)));
                        e.mask.weights.push_back(1.f);
                    }
            e.density = 1.f;
            e.temperature = 8.f;
            e.fuel = 3.f;
            (void)s->setEmitters({e});
            ForceField f;
            f.type = ForceType::Shredding;
            f.strength = strength;
            f.scale = 0.05f;
            f.mask = mask(ControlField::Temperature, 0.1f, 1.f);
            (void)s->setForceFields({f});
            for (int step = 0; step < 6; ++step)
                s->step(0.04f, 0.04 * step);
            return s;
        };
        std::unique_ptr<SmokeSolver> serial;
        {
            SerialScope scope;
            serial = run(20.f);
        }
        for (int threads : {1, 2, 4}) {
            std::unique_ptr<SmokeSolver> parallel;
            oneapi::tbb::task_arena arena(threads);
            arena.execute([&] { parallel = run(20.f); });
            QVERIFY(sameVelocity(serial->velocity(), parallel->velocity()));
            QVERIFY(serial->temperature().identical(parallel->temperature()));
        }
        QVERIFY(!sameVelocity(serial->velocity(), run(0.f)->velocity()));
        // Its edge length must be positive, like a turbulence's scale.
        ForceField bad;
        bad.type = ForceType::Shredding;
        bad.scale = 0.f;
        QVERIFY(!validate(bad));
        QVERIFY2(validate(bad).error.find("shredding force: scale") != std::string::npos,
                 validate(bad).error.c_str());
    }
};

QTEST_MAIN(TestSimShaping)
#include "tst_sim_shaping.moc"
