// SPDX-License-Identifier: Apache-2.0
// The shaping controls of docs/look.md at the solver level: control masks (ramps, the remap,
// each control field evaluated on a hand-made grid, the same bytes for any thread count).

#include <core/sim/base/controlmask.h>
#include <core/sim/base/domain.h>
#include <core/sim/base/grid.h>
#include <core/sim/base/parallel.h>
#include <core/sim/ops/controlmask.h>
#include <core/sim/ops/forces.h>

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
};

QTEST_MAIN(TestSimShaping)
#include "tst_sim_shaping.moc"
