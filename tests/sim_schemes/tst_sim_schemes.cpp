// SPDX-License-Identifier: Apache-2.0
// Behaviour both schemes share through the Solver interface: force fields move the fluid the
// way they say, every field can be sampled, and runs do not depend on the thread count.
#include <core/sim/base/parallel.h>
#include <core/sim/base/solver.h>
#include <core/sim/run/solverfactory.h>

#include <oneapi/tbb/task_arena.h>

#include <QtTest>

#include <cmath>

using namespace plume::sim;

namespace {

Domain box(int n, bool threeD)
{
    Domain d;
    d.cells = {n, n, threeD ? n : 1};
    d.cellSize = 1.f / float(n);
    return d;
}

SparseMask ball(const Domain &d, Vec3 centreWorld, float radiusWorld)
{
    SparseMask m;
    for (int k = 0; k < d.cells.z; ++k)
        for (int j = 0; j < d.cells.y; ++j)
            for (int i = 0; i < d.cells.x; ++i) {
                Vec3 p = d.cellCentre(i, j, k) - centreWorld;
                if (d.is2D())
                    p.z = 0.f;
                if (length(p) <= radiusWorld)
                    m.add(std::uint32_t(i + d.cells.x * (j + std::size_t(d.cells.y) * k)), 1.f);
            }
    return m;
}

std::unique_ptr<Solver> make(Scheme scheme, const Domain &d)
{
    SimParams p;
    p.scheme = scheme;
    p.buoyancyTemperature = 0.f;
    auto s = createSolver(d, p);
    if (!s)
        qFatal("%s", s.error().c_str());
    return s.take();
}

/// Density-weighted mean position (world units) and mean angular momentum about the box's
/// centre axis z, from cell-centred density and velocity.
struct Moments
{
    Vec3 centroid;
    double angular = 0;
    double mass = 0;
};

Moments moments(const Solver &s)
{
    ScalarGrid rho, u, v;
    s.sample(FieldKind::Density, rho);
    s.sample(FieldKind::VelocityX, u);
    s.sample(FieldKind::VelocityY, v);
    const Domain &d = s.domain();
    Moments m;
    double cx = 0, cy = 0, cz = 0;
    for (int k = 0; k < d.cells.z; ++k)
        for (int j = 0; j < d.cells.y; ++j)
            for (int i = 0; i < d.cells.x; ++i) {
                const Vec3 p = d.cellCentre(i, j, k);
                const double r = rho(i, j, k);
                m.mass += r;
                cx += r * p.x;
                cy += r * p.y;
                cz += r * p.z;
                const double rx = p.x - 0.5, ry = p.y - 0.5;
                m.angular += rx * v(i, j, k) - ry * u(i, j, k);
            }
    m.centroid = {float(cx / m.mass), float(cy / m.mass), float(cz / m.mass)};
    return m;
}

} // namespace

class TestSimSchemes : public QObject
{
    Q_OBJECT

private slots:
    void forceFields_data()
    {
        QTest::addColumn<int>("scheme");
        QTest::addColumn<bool>("threeD");
        for (Scheme s : {Scheme::Smoke, Scheme::Stam})
            for (bool threeD : {false, true})
                QTest::newRow(
                    qPrintable(QString("%1 %2").arg(toString(s)).arg(threeD ? "3D" : "2D")))
                    << int(s) << threeD;
    }

    // Wind pushes a puff along its direction; a radial field pulls it towards its centre; a
    // positive vortex about +z spins the fluid counter-clockwise; drag slows a moving fluid.
    void forceFields()
    {
        QFETCH(int, scheme);
        QFETCH(bool, threeD);
        const Domain d = box(threeD ? 20 : 48, threeD);
        const Vec3 mid{0.5f, 0.5f, 0.5f};

        auto puff = [&](Vec3 at) {
            auto s = make(Scheme(scheme), d);
            Emitter e;
            e.mask = ball(d, at, 0.12f);
            e.density = 20.f;
            s->setEmitters({e});
            s->step(0.05f, 0);
            s->setEmitters({});
            return s;
        };

        { // Directional: +x wind around the puff (a uniform wind over the whole closed box
            // is a pure gradient, which the smoke scheme's exact projection cancels).
            auto s = puff(mid);
            const Moments before = moments(*s);
            ForceField wind;
            wind.type = ForceType::Directional;
            wind.direction = {1.f, 0.f, 0.f};
            wind.strength = 4.f;
            wind.region.shape = RegionShape::Sphere;
            wind.region.centre = mid;
            wind.region.radius = 0.2f;
            wind.region.falloff = 0.1f;
            s->setForceFields({wind});
            for (int n = 0; n < 10; ++n)
                s->step(0.02f, 0.02 * n);
            const Moments after = moments(*s);
            QVERIFY2(after.centroid.x > before.centroid.x + 0.01f,
                     qPrintable(
                         QString("x %1 -> %2").arg(before.centroid.x).arg(after.centroid.x)));
        }
        { // Radial: attract towards the centre. A central force is a gradient, which the
            // projection balances with pressure: highest at the centre, as in a planet's core.
            auto s = puff(mid);
            ForceField pull;
            pull.type = ForceType::Radial;
            pull.centre = mid;
            pull.strength = 6.f;
            s->setForceFields({pull});
            for (int n = 0; n < 3; ++n)
                s->step(0.02f, 0.02 * n);
            ScalarGrid p;
            s->sample(FieldKind::Pressure, p);
            const int c = d.cells.x / 2, z = d.cells.z / 2;
            QVERIFY2(p(c, c, z) > p(2, c, z) && p(c, c, z) > p(c, d.cells.y - 3, z),
                     qPrintable(QString("centre %1 edge %2").arg(p(c, c, z)).arg(p(2, c, z))));
        }
        { // Vortex about +z through the centre: counter-clockwise spin.
            auto s = puff(mid);
            ForceField swirl;
            swirl.type = ForceType::Vortex;
            swirl.centre = mid;
            swirl.direction = {0.f, 0.f, 1.f};
            swirl.strength = 5.f;
            s->setForceFields({swirl});
            for (int n = 0; n < 4; ++n)
                s->step(0.02f, 0.02 * n);
            QVERIFY2(moments(*s).angular > 0.0, qPrintable(QString::number(moments(*s).angular)));
        }
        { // Drag: a wind-driven flow slows down once the wind stops and drag acts.
            auto s = puff(mid);
            ForceField wind;
            wind.type = ForceType::Directional;
            wind.direction = {0.f, 1.f, 0.f};
            wind.strength = 4.f;
            wind.region.shape = RegionShape::Sphere;
            wind.region.centre = mid;
            wind.region.radius = 0.2f;
            s->setForceFields({wind});
            for (int n = 0; n < 4; ++n)
                s->step(0.02f, 0.02 * n);
            const float moving = s->maxVelocity();
            QVERIFY(moving > 0.f);
            ForceField drag;
            drag.type = ForceType::Drag;
            drag.strength = 20.f;
            s->setForceFields({drag});
            for (int n = 0; n < 4; ++n)
                s->step(0.02f, 0.02 * n);
            QVERIFY2(s->maxVelocity() < 0.5f * moving,
                     qPrintable(QString("%1 -> %2").arg(moving).arg(s->maxVelocity())));
        }
    }

    // Every field kind can be sampled from both schemes, at cell centres, finite.
    void everyFieldSamples()
    {
        for (Scheme scheme : {Scheme::Smoke, Scheme::Stam}) {
            const Domain d = box(16, true);
            auto s = make(scheme, d);
            Emitter e;
            e.mask = ball(d, {0.5f, 0.3f, 0.5f}, 0.2f);
            e.density = 1.f;
            e.temperature = 1.f;
            e.dye = {1.f, 0.f, 0.5f};
            e.velocityMode = EmitterVelocity::Force;
            e.velocity = {0.f, 3.f, 1.f};
            s->setEmitters({e});
            s->step(0.05f, 0);
            QVERIFY(s->hasDye());
            for (int f = 0; f <= int(FieldKind::Solid); ++f) {
                ScalarGrid out;
                s->sample(FieldKind(f), out);
                QCOMPARE(out.size(), d.cells);
                QCOMPARE(out.offset(), kCellCentre);
                for (std::size_t c = 0; c < out.count(); ++c)
                    QVERIFY(std::isfinite(out[c]));
                FieldKind back;
                QVERIFY(kFieldKindNames.parse(toString(FieldKind(f)), back)
                        && back == FieldKind(f));
            }
            ScalarGrid rho, red;
            s->sample(FieldKind::Density, rho);
            s->sample(FieldKind::DyeRed, red);
            double total = 0;
            for (std::size_t c = 0; c < rho.count(); ++c)
                total += rho[c];
            QVERIFY(total > 0);
        }
    }
};

QTEST_GUILESS_MAIN(TestSimSchemes)
#include "tst_sim_schemes.moc"
