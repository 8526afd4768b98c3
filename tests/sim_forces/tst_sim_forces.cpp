// SPDX-License-Identifier: Apache-2.0
#include <core/sim/base/assert.h>
#include <core/sim/base/domain.h>
#include <core/sim/base/grid.h>
#include <core/sim/base/parallel.h>
#include <core/sim/base/params.h>
#include <core/sim/base/workspace.h>
#include <core/sim/ops/boundaryconditions.h>
#include <core/sim/ops/forces.h>

#include <oneapi/tbb/task_arena.h>

#include <tests/common/tilepattern.h>

#include <QtTest>

#include <sys/resource.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <functional>
#include <random>

using namespace plume::sim;

namespace {
constexpr const char *kMismatchArgument = "--plume-mismatched-stage";
} // namespace

Q_DECLARE_METATYPE(plume::sim::Vec3)

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

void fillRandom(MacGrid &vel, std::uint32_t seed)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(-1.f, 1.f);
    for (int a = 0; a < 3; ++a) {
        ScalarGrid &c = vel.component(a);
        for (std::size_t n = 0; n < c.count(); ++n)
            c[n] = dist(rng);
    }
}

/// The column is2D with a 2D and a 3D row: the data of the tests that run in both.
void addDimensionRows()
{
    QTest::addColumn<bool>("is2D");
    QTest::newRow("2D") << true;
    QTest::newRow("3D") << false;
}

/// World position of face (i, j, k) of `axis`.
Vec3 facePosition(const Domain &d, int axis, int i, int j, int k)
{
    Vec3 c{float(i) + 0.5f, float(j) + 0.5f, float(k) + 0.5f};
    c[axis] -= 0.5f;
    return d.toWorld(c);
}

/// Discrete MAC divergence of cell (i, j, k), 1 / s.
float divergence(const MacGrid &v, const Domain &d, int i, int j, int k)
{
    float div = v.u(i + 1, j, k) - v.u(i, j, k) + v.v(i, j + 1, k) - v.v(i, j, k);
    if (!d.is2D())
        div += v.w(i, j, k + 1) - v.w(i, j, k);
    return div / d.cellSize;
}

bool sameVelocity(const MacGrid &a, const MacGrid &b)
{
    return a.u.identical(b.u) && a.v.identical(b.v) && a.w.identical(b.w);
}

/// Runs `op` on copies of `start` serially and in arenas of 1, 2 and 4 threads; all must match.
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

/// Fills the faces with a velocity field given at world positions.
void setVelocity(MacGrid &vel, const Domain &d, const std::function<Vec3(Vec3)> &field)
{
    for (int axis = 0; axis < d.dimensions(); ++axis) {
        ScalarGrid &c = vel.component(axis);
        const Int3 s = c.size();
        for (int k = 0; k < s.z; ++k)
            for (int j = 0; j < s.y; ++j)
                for (int i = 0; i < s.x; ++i)
                    c(i, j, k) = field(facePosition(d, axis, i, j, k))[axis];
    }
}

/// Circulation of the face velocity around the square of cells [lo, hi) in xy at slab k.
double circulation(const MacGrid &v, int lo, int hi, int k, float h)
{
    // Counter-clockwise, with centre-averaged velocities of the boundary cells: u along the
    // bottom (+x) and top (-x) rows, v along the right (+y) and left (-y) columns.
    double c = 0.0;
    for (int i = lo; i < hi; ++i) {
        c += double(0.5f * (v.u(i, lo, k) + v.u(i + 1, lo, k))) * h;
        c -= double(0.5f * (v.u(i, hi - 1, k) + v.u(i + 1, hi - 1, k))) * h;
    }
    for (int j = lo; j < hi; ++j) {
        c += double(0.5f * (v.v(hi - 1, j, k) + v.v(hi - 1, j + 1, k))) * h;
        c -= double(0.5f * (v.v(lo, j, k) + v.v(lo, j + 1, k))) * h;
    }
    return c;
}

} // namespace

class TestSimForces : public QObject
{
    Q_OBJECT

private slots:
    // ---- curl noise --------------------------------------------------------------------------

    void curlNoiseIsDivergenceFree_data() { addDimensionRows(); }

    void curlNoiseIsDivergenceFree()
    {
        // Central differences with step e = 1e-3 noise units, at points whose stencil stays
        // inside one lattice cell (fractions in [0.02, 0.98]) so the noise is smooth there.
        // Truncation error ~ e^2 |c'''| / 6 ~ 1e-6 * O(300) / 6 and float rounding
        // ~ 3 terms * 2^-23 * |c| / e ~ 1e-3 absolute, against Jacobian norms of order 5:
        // a relative bound of 5e-3 leaves a margin. A field that is not divergence-free (the
        // control below) gives ratios of order 0.3.
        QFETCH(bool, is2D);
        std::mt19937 rng(11);
        std::uniform_int_distribution<int> cell(0, 3);
        std::uniform_real_distribution<float> frac(0.02f, 0.98f);
        std::uniform_real_distribution<float> time(0.f, 10.f);
        const int dims = is2D ? 2 : 3;
        double worst = 0.0, worstControl = 0.0, meanJacobian = 0.0;
        const int samples = 400;
        for (int s = 0; s < samples; ++s) {
            const Vec3 p{float(cell(rng)) + frac(rng), float(cell(rng)) + frac(rng),
                         is2D ? 0.f : float(cell(rng)) + frac(rng)};
            const float t = time(rng);
            double div = 0.0, control = 0.0, jacobian = 0.0;
            for (int a = 0; a < dims; ++a) {
                Vec3 hi = p, lo = p;
                hi[a] += 1e-3f;
                lo[a] -= 1e-3f;
                const double step = double(hi[a]) - double(lo[a]);
                const Vec3 ch = curlNoise(hi, t, 5, is2D), cl = curlNoise(lo, t, 5, is2D);
                for (int b = 0; b < dims; ++b) {
                    const double d = (double(ch[b]) - double(cl[b])) / step;
                    jacobian += d * d;
                    if (a == b) {
                        div += d;
                        control += b == dims - 1 ? -d : d; // flip one component's sign
                    }
                }
            }
            jacobian = std::sqrt(jacobian);
            QVERIFY(jacobian > 0.0);
            meanJacobian += jacobian / samples;
            worst = std::max(worst, std::abs(div) / jacobian);
            worstControl = std::max(worstControl, std::abs(control) / jacobian);
        }
        QVERIFY2(worst < 5e-3, qPrintable(QString("div / |J| = %1").arg(worst)));
        QVERIFY2(worstControl > 0.1, qPrintable(QString("control %1").arg(worstControl)));
        QVERIFY(meanJacobian > 1.0);
    }

    void curlNoiseSeedsAndTime_data() { addDimensionRows(); }

    void curlNoiseSeedsAndTime()
    {
        QFETCH(bool, is2D);
        std::mt19937 rng(3);
        std::uniform_real_distribution<float> pos(-20.f, 20.f);
        double sumSq = 0.0, seedDiff = 0.0, smallStep = 0.0, unitStep = 0.0;
        const int samples = 2000;
        for (int s = 0; s < samples; ++s) {
            const Vec3 p{pos(rng), pos(rng), pos(rng)};
            const float t = 0.5f * pos(rng);
            const Vec3 a = curlNoise(p, t, 42, is2D);
            const Vec3 again = curlNoise(p, t, 42, is2D);
            QCOMPARE(std::memcmp(&a, &again, sizeof(Vec3)), 0);
            if (is2D)
                QCOMPARE(a.z, 0.f);
            sumSq += dot(a, a);
            seedDiff += length(curlNoise(p, t, 43, is2D) - a);
            smallStep += length(curlNoise(p, t + 1e-3f, 42, is2D) - a);
            unitStep += length(curlNoise(p, t + 1.f, 42, is2D) - a);
        }
        const double rms = std::sqrt(sumSq / samples);
        // Calibrated to an RMS of 1: anything in [0.5, 2] is "order 1".
        QVERIFY2(rms > 0.5 && rms < 2.0, qPrintable(QString("rms %1").arg(rms)));
        // Another seed is another field: mean difference of the order of the magnitude.
        QVERIFY(seedDiff / samples > 0.5 * rms);
        // Smooth in time: |dc/dt| is O(rms * 2 pi) at most, so a 1e-3 step moves it < 1e-2;
        // one whole period later the field has decorrelated.
        QVERIFY(smallStep / samples < 1e-2 * rms);
        QVERIFY(unitStep / samples > 0.5 * rms);
    }

    // ---- regions ----------------------------------------------------------------------------

    void regionFalloff_data()
    {
        QTest::addColumn<int>("shape");
        QTest::addColumn<bool>("is2D");
        QTest::addColumn<float>("falloff");
        QTest::newRow("sphere 3D") << int(RegionShape::Sphere) << false << 0.2f;
        QTest::newRow("disc 2D") << int(RegionShape::Sphere) << true << 0.2f;
        QTest::newRow("box 3D") << int(RegionShape::Box) << false << 0.15f;
        QTest::newRow("box 2D") << int(RegionShape::Box) << true << 0.15f;
        QTest::newRow("hard sphere") << int(RegionShape::Sphere) << false << 0.f;
    }

    void regionFalloff()
    {
        QFETCH(int, shape);
        QFETCH(bool, is2D);
        QFETCH(float, falloff);
        const Domain d = makeDomain(is2D ? Int3{32, 32, 1} : Int3{32, 32, 32});
        ForceField f;
        f.region.shape = RegionShape(shape);
        f.region.centre = Vec3{0.5f, 0.5f, 0.5f};
        f.region.radius = 0.2f;
        f.region.halfSize = Vec3{0.2f, 0.1f, 0.15f};
        f.region.falloff = falloff;
        ForceEvaluator ev;
        ev.setup(d, {f});
        // Along +x from the centre: the edge is at 0.2 for both shapes.
        float previous = 1.f;
        for (int s = 0; s <= 100; ++s) {
            const float r = 0.5f * float(s) / 100.f;
            // In 2D the z coordinate must not matter.
            const Vec3 p{0.5f + r, 0.5f, is2D ? 7.f : 0.5f};
            const float w = ev.regionWeight(0, p);
            if (r <= 0.199f)
                QCOMPARE(w, 1.f);
            else if (r >= 0.201f + falloff)
                QCOMPARE(w, 0.f);
            else if (falloff > 0.f && r > 0.21f && r < 0.19f + falloff)
                QVERIFY(w > 0.f && w < 1.f);
            QVERIFY(w <= previous);
            previous = w;
        }
        QCOMPARE(ev.regionWeight(0, Vec3{0.5f, 0.5f, is2D ? -3.f : 0.5f}), 1.f);
        ForceEvaluator everywhere;
        everywhere.setup(d, {ForceField{}});
        QCOMPARE(everywhere.regionWeight(0, Vec3{100.f, -5.f, 3.f}), 1.f);
    }

    void maskRegion()
    {
        // A 2x2x2 block of full cells and one half-covered cell: trilinear between centres.
        const Domain d = makeDomain(Int3{16, 16, 16});
        ScalarGrid cover(d.cells, kCellCentre, 0.f);
        for (int k = 6; k < 8; ++k)
            for (int j = 6; j < 8; ++j)
                for (int i = 6; i < 8; ++i)
                    cover(i, j, k) = 1.f;
        cover(12, 12, 12) = 0.5f;
        ForceField f;
        f.type = ForceType::Directional;
        f.strength = 1.f;
        f.direction = Vec3{1.f, 0.f, 0.f};
        f.region.mask = SparseMask::fromDense(cover);
        f.region.shape = RegionShape::Sphere; // ignored: the mask replaces the shape
        ForceEvaluator ev;
        ev.setup(d, {f});
        QCOMPARE(ev.regionWeight(0, d.cellCentre(6, 6, 6)), 1.f);
        QCOMPARE(ev.regionWeight(0, d.cellCentre(12, 12, 12)), 0.5f);
        QCOMPARE(ev.regionWeight(0, d.cellCentre(2, 2, 2)), 0.f);
        // Half-way between a full centre (7) and an empty one (8) along x.
        const Vec3 half = d.toWorld(Vec3{8.f, 7.5f, 7.5f});
        QVERIFY(std::abs(ev.regionWeight(0, half) - 0.5f) < 1e-6f);
        // Faces more than one cell away from the block receive nothing.
        MacGrid vel(d.cells);
        FlagGrid solids(d.cells);
        ev.applyToMac(vel, solids, 1.f, 0.0);
        QCOMPARE(vel.u(7, 7, 7), 1.f);
        QCOMPARE(vel.u(3, 7, 7), 0.f);
        QCOMPARE(vel.u(7, 2, 7), 0.f);
        QVERIFY(vel.u(12, 12, 12) > 0.f);
    }

    // ---- force fields -----------------------------------------------------------------------

    void forceDirections_data() { addDimensionRows(); }

    void forceDirections()
    {
        QFETCH(bool, is2D);
        const Domain d = makeDomain(is2D ? Int3{64, 64, 1} : Int3{64, 64, 64});
        const Vec3 c{0.5f, 0.5f, is2D ? d.cellCentre(0, 0, 0).z : 0.5f};
        const float eps = 1e-5f;

        ForceField dir;
        dir.type = ForceType::Directional;
        dir.strength = 2.f;
        dir.direction = Vec3{0.f, -3.f, 0.f};
        ForceField vortex;
        vortex.type = ForceType::Vortex;
        vortex.strength = 1.5f;
        vortex.centre = c;
        vortex.direction = Vec3{0.f, 0.f, 1.f};
        ForceField radial;
        radial.type = ForceType::Radial;
        radial.strength = 3.f;
        radial.centre = c;
        ForceField drag;
        drag.type = ForceType::Drag;
        drag.strength = 0.5f;

        auto accel = [&](const ForceField &f, Vec3 p, Vec3 v = {}) {
            ForceEvaluator ev;
            ev.setup(d, {f});
            return ev.acceleration(p, v, 0.0);
        };
        const Vec3 g = accel(dir, c);
        QVERIFY(std::abs(g.x) < eps && std::abs(g.y + 2.f) < eps && std::abs(g.z) < eps);

        // Counter-clockwise about +z: +y at +x, -x at +y.
        const Vec3 east = accel(vortex, c + Vec3{0.2f, 0.f, 0.f});
        QVERIFY(std::abs(east.y - 1.5f) < eps && std::abs(east.x) < eps);
        const Vec3 north = accel(vortex, c + Vec3{0.f, 0.2f, 0.f});
        QVERIFY(std::abs(north.x + 1.5f) < eps && std::abs(north.y) < eps);
        // Zero on the axis, never above the strength near it (core of one cell).
        QCOMPARE(length(accel(vortex, c)), 0.f);
        const Vec3 near = accel(vortex, c + Vec3{0.25f * d.cellSize, 0.f, 0.f});
        QVERIFY(std::abs(near.y - 1.5f * 0.25f) < eps);
        if (!is2D) {
            // A tilted axis: the swirl is perpendicular to both the axis and the radius.
            ForceField tilted = vortex;
            tilted.direction = Vec3{1.f, 1.f, 0.5f};
            const Vec3 r{0.1f, -0.2f, 0.15f};
            const Vec3 a = accel(tilted, c + r);
            QVERIFY(std::abs(dot(a, tilted.direction)) < eps);
            QVERIFY(std::abs(length(a) - 1.5f) < eps);
            const Vec3 axis = tilted.direction * (1.f / length(tilted.direction));
            QVERIFY(std::abs(dot(a, r - axis * dot(r, axis))) < eps);
        }

        // Radial: towards the centre with unit magnitude times strength; negative repels.
        const Vec3 p = c + Vec3{0.1f, -0.1f, 0.f};
        const Vec3 in = accel(radial, p);
        QVERIFY(std::abs(in.x + 3.f / std::sqrt(2.f)) < eps);
        QVERIFY(std::abs(in.y - 3.f / std::sqrt(2.f)) < eps);
        radial.strength = -3.f;
        QVERIFY(dot(accel(radial, p), c - p) < 0.f);
        QCOMPARE(length(accel(radial, c)), 0.f);

        // Drag opposes the velocity.
        const Vec3 v{1.f, -2.f, is2D ? 0.f : 4.f};
        const Vec3 a = accel(drag, c, v);
        QVERIFY(length(a + v * 0.5f) < eps);

        // Turbulence is strength * curl noise of position / scale.
        ForceField turb;
        turb.type = ForceType::Turbulence;
        turb.strength = 2.f;
        turb.scale = 0.25f;
        turb.timeScale = 0.5f;
        turb.seed = 9;
        ForceEvaluator ev;
        ev.setup(d, {turb});
        const Vec3 q{0.3f, 0.7f, 0.4f};
        const Vec3 expect = curlNoise(q * 4.f, 1.5f, 9, is2D) * 2.f;
        QVERIFY(length(ev.acceleration(q, {}, 3.0) - expect) < 1e-4f);
    }

    void applyToMacMatchesFields_data() { addDimensionRows(); }

    void applyToMacMatchesFields()
    {
        // Every open face gets dt * the acceleration's component at its centre; drag uses the
        // face's own velocity. Open boundaries so that every face is open.
        QFETCH(bool, is2D);
        const Domain d = makeDomain(is2D ? Int3{40, 24, 1} : Int3{20, 12, 16}, Boundary::Open);
        std::vector<ForceField> fields(3);
        fields[0].type = ForceType::Vortex;
        fields[0].strength = 2.f;
        fields[0].centre = Vec3{0.4f, 0.3f, 0.2f};
        fields[0].direction = Vec3{0.f, 0.3f, 1.f};
        fields[0].region.shape = RegionShape::Sphere;
        fields[0].region.centre = Vec3{0.5f, 0.3f, 0.3f};
        fields[0].region.radius = 0.1f;
        fields[0].region.falloff = 0.15f;
        fields[1].type = ForceType::Radial;
        fields[1].strength = -1.f;
        fields[1].centre = Vec3{0.6f, 0.2f, 0.1f};
        fields[1].region.shape = RegionShape::Box;
        fields[1].region.centre = Vec3{0.6f, 0.2f, 0.3f};
        fields[1].region.halfSize = Vec3{0.1f, 0.1f, 0.2f};
        fields[1].region.falloff = 0.05f;
        fields[2].type = ForceType::Drag;
        fields[2].strength = 0.7f;
        ForceEvaluator ev;
        ev.setup(d, fields);
        MacGrid vel(d.cells);
        fillRandom(vel, 4);
        const MacGrid before = vel;
        FlagGrid solids(d.cells);
        const float dt = 0.1f;
        ev.applyToMac(vel, solids, dt, 0.0);
        for (int axis = 0; axis < d.dimensions(); ++axis) {
            const Int3 s = vel.component(axis).size();
            for (int k = 0; k < s.z; ++k)
                for (int j = 0; j < s.y; ++j)
                    for (int i = 0; i < s.x; ++i) {
                        const float u0 = before.component(axis)(i, j, k);
                        Vec3 v0;
                        v0[axis] = u0;
                        const Vec3 a = ev.acceleration(facePosition(d, axis, i, j, k), v0, 0.0);
                        const float expect = u0 + dt * a[axis];
                        QVERIFY(std::abs(vel.component(axis)(i, j, k) - expect) < 1e-5f);
                    }
        }
    }

    void applyToMacSkipsClosedFaces_data() { addDimensionRows(); }

    void applyToMacSkipsClosedFaces()
    {
        QFETCH(bool, is2D);
        Domain d = makeDomain(is2D ? Int3{24, 20, 1} : Int3{16, 12, 10});
        d.boundaries[int(Face::YMax)] = Boundary::Open;
        d.boundaries[int(Face::XMin)] = Boundary::Open;
        FlagGrid solids(d.cells);
        for (int j = 4; j < 7; ++j)
            for (int i = 5; i < 9; ++i)
                solids.setSolid(i, j, is2D ? 0 : 4, true);
        ForceField f;
        f.type = ForceType::Directional;
        f.strength = 1.f;
        f.direction = Vec3{1.f, 2.f, 3.f};
        ForceField t;
        t.type = ForceType::Turbulence;
        t.strength = 0.5f;
        ForceEvaluator ev;
        ev.setup(d, {f, t});
        MacGrid vel(d.cells);
        fillRandom(vel, 8);
        const MacGrid before = vel;
        ev.applyToMac(vel, solids, 0.05f, 1.0);
        int closed = 0, open = 0;
        for (int axis = 0; axis < d.dimensions(); ++axis) {
            const Int3 s = vel.component(axis).size();
            for (int k = 0; k < s.z; ++k)
                for (int j = 0; j < s.y; ++j)
                    for (int i = 0; i < s.x; ++i) {
                        const float now = vel.component(axis)(i, j, k);
                        const float was = before.component(axis)(i, j, k);
                        if (faceIsClosed(solids, d, axis, i, j, k)) {
                            QCOMPARE(std::memcmp(&now, &was, sizeof(float)), 0);
                            ++closed;
                        } else {
                            QVERIFY(now != was);
                            ++open;
                        }
                    }
        }
        QVERIFY(closed > 0 && open > closed);
    }

    void turbulenceOnMacIsDivergenceFree_data() { addDimensionRows(); }

    void turbulenceOnMacIsDivergenceFree()
    {
        // The discrete curl of an edge potential telescopes: the MAC divergence is zero up to
        // float rounding (a few ulps of the face values times 1/h). It also approximates the
        // analytic curl noise to second order: with 24 cells per noise unit, the central
        // difference error is ~ (k h)^2 / 24 for each wave number k, under 2% in RMS.
        QFETCH(bool, is2D);
        const Domain d = makeDomain(is2D ? Int3{96, 80, 1} : Int3{48, 40, 36}, Boundary::Open);
        ForceField t;
        t.type = ForceType::Turbulence;
        t.strength = 3.f;
        t.scale = 0.5f;
        t.timeScale = 2.f;
        t.seed = 77;
        ForceEvaluator ev;
        ev.setup(d, {t});
        MacGrid vel(d.cells);
        FlagGrid solids(d.cells);
        ev.applyToMac(vel, solids, 1.f, 0.3);
        float maxFace = 0.f;
        for (int a = 0; a < d.dimensions(); ++a)
            for (std::size_t n = 0; n < vel.component(a).count(); ++n)
                maxFace = std::max(maxFace, std::abs(vel.component(a)[n]));
        QVERIFY(maxFace > 1.f);
        float maxDiv = 0.f;
        for (int k = 0; k < d.cells.z; ++k)
            for (int j = 0; j < d.cells.y; ++j)
                for (int i = 0; i < d.cells.x; ++i)
                    maxDiv = std::max(maxDiv, std::abs(divergence(vel, d, i, j, k)));
        QVERIFY2(maxDiv * d.cellSize < 1e-5f * maxFace, qPrintable(QString::number(maxDiv)));

        double errSq = 0.0, refSq = 0.0;
        for (int axis = 0; axis < d.dimensions(); ++axis) {
            const Int3 s = vel.component(axis).size();
            for (int k = 0; k < s.z; ++k)
                for (int j = 0; j < s.y; ++j)
                    for (int i = 0; i < s.x; ++i) {
                        const float ref = ev.acceleration(facePosition(d, axis, i, j, k), {},
                                                          0.3)[axis];
                        const double e = vel.component(axis)(i, j, k) - ref;
                        errSq += e * e;
                        refSq += double(ref) * ref;
                    }
        }
        QVERIFY2(std::sqrt(errSq / refSq) < 0.02,
                 qPrintable(QString::number(std::sqrt(errSq / refSq))));
    }

    void limitedRegionsStayLocal()
    {
        // A small turbulence sphere: faces beyond radius + falloff keep their bytes.
        const Domain d = makeDomain(Int3{32, 32, 32}, Boundary::Open);
        ForceField t;
        t.type = ForceType::Turbulence;
        t.strength = 1.f;
        t.region.shape = RegionShape::Sphere;
        t.region.centre = Vec3{0.3f, 0.6f, 0.5f};
        t.region.radius = 0.1f;
        t.region.falloff = 0.05f;
        ForceEvaluator ev;
        ev.setup(d, {t});
        MacGrid vel(d.cells);
        FlagGrid solids(d.cells);
        ev.applyToMac(vel, solids, 1.f, 0.0);
        int touched = 0;
        for (int axis = 0; axis < 3; ++axis) {
            const Int3 s = vel.component(axis).size();
            for (int k = 0; k < s.z; ++k)
                for (int j = 0; j < s.y; ++j)
                    for (int i = 0; i < s.x; ++i) {
                        const Vec3 p = facePosition(d, axis, i, j, k);
                        const float value = vel.component(axis)(i, j, k);
                        if (length(p - t.region.centre) > 0.1501f)
                            QCOMPARE(value, 0.f);
                        else if (value != 0.f)
                            ++touched;
                    }
        }
        QVERIFY(touched > 1000);
    }

    // ---- buoyancy ---------------------------------------------------------------------------

    void buoyancy_data()
    {
        QTest::addColumn<bool>("is2D");
        QTest::addColumn<float>("temperature");
        QTest::addColumn<float>("density");
        QTest::addColumn<float>("expectedFace"); // dt * f on a face next to the cell
        // f = (-alpha rho + beta (T - ambient)); each face sees the mean of its two cells, one
        // of which is at ambient with no density: half of the cell's value. alpha = 0.5,
        // beta = 2, ambient = 1, dt = 0.1.
        QTest::newRow("hot 2D") << true << 3.f << 0.f << 0.1f * 0.5f * (2.f * 2.f);
        QTest::newRow("hot 3D") << false << 3.f << 0.f << 0.1f * 0.5f * (2.f * 2.f);
        QTest::newRow("dense cold 2D")
            << true << 0.5f << 4.f << 0.1f * 0.5f * (-0.5f * 4.f + 2.f * -0.5f);
        QTest::newRow("dense cold 3D")
            << false << 0.5f << 4.f << 0.1f * 0.5f * (-0.5f * 4.f + 2.f * -0.5f);
        QTest::newRow("ambient 3D") << false << 1.f << 0.f << 0.f;
    }

    void buoyancy()
    {
        QFETCH(bool, is2D);
        QFETCH(float, temperature);
        QFETCH(float, density);
        QFETCH(float, expectedFace);
        const Domain d = makeDomain(is2D ? Int3{8, 8, 1} : Int3{8, 8, 8});
        SimParams p;
        p.buoyancyDensity = 0.5f;
        p.buoyancyTemperature = 2.f;
        p.ambientTemperature = 1.f;
        p.up = Vec3{0.f, 5.f, 0.f};
        ScalarGrid rho(d.cells, kCellCentre, 0.f), temp(d.cells, kCellCentre, 1.f);
        const int k = is2D ? 0 : 3;
        rho(3, 4, k) = density;
        temp(3, 4, k) = temperature;
        FlagGrid solids(d.cells);
        MacGrid vel(d.cells);
        addBuoyancy(vel, rho, temp, p, solids, d, 0.1f);
        QVERIFY(std::abs(vel.v(3, 4, k) - expectedFace) < 1e-6f);
        QVERIFY(std::abs(vel.v(3, 5, k) - expectedFace) < 1e-6f);
        if (expectedFace > 0.f)
            QVERIFY(vel.v(3, 4, k) > 0.f); // hot gas rises
        // Nothing sideways, nothing elsewhere.
        for (std::size_t n = 0; n < vel.u.count(); ++n)
            QCOMPARE(vel.u[n], 0.f);
        QCOMPARE(vel.v(3, 6, k), 0.f);
        QCOMPARE(vel.v(2, 4, k), 0.f);
    }

    void buoyancyRespectsWallsAndUp()
    {
        // Hot everywhere: all open y-faces rise, wall faces (j = 0, j = ny) stay zero; with up
        // along -x only the x-faces move, negatively.
        const Domain d = makeDomain(Int3{6, 5, 4});
        SimParams p;
        ScalarGrid rho(d.cells, kCellCentre, 0.f), temp(d.cells, kCellCentre, 2.f);
        FlagGrid solids(d.cells);
        solids.setSolid(2, 2, 2, true);
        MacGrid vel(d.cells);
        addBuoyancy(vel, rho, temp, p, solids, d, 1.f);
        for (int i = 0; i < 6; ++i) {
            QCOMPARE(vel.v(i, 0, 1), 0.f);
            QCOMPARE(vel.v(i, 5, 1), 0.f);
            QCOMPARE(vel.v(i, 3, 1), 2.f);
        }
        QCOMPARE(vel.v(2, 2, 2), 0.f);
        QCOMPARE(vel.v(2, 3, 2), 0.f);
        p.up = Vec3{-1.f, 0.f, 0.f};
        MacGrid side(d.cells);
        addBuoyancy(side, rho, temp, p, solids, d, 1.f);
        QCOMPARE(side.u(3, 1, 1), -2.f);
        QCOMPARE(side.u(0, 1, 1), 0.f);
        for (std::size_t n = 0; n < side.v.count(); ++n)
            QCOMPARE(side.v[n], 0.f);
    }

    // ---- vorticity --------------------------------------------------------------------------

    void vorticityOfRigidRotation_data()
    {
        QTest::addColumn<bool>("is2D");
        QTest::addColumn<Vec3>("omega");
        QTest::newRow("2D") << true << Vec3{0.f, 0.f, 1.5f};
        QTest::newRow("2D clockwise") << true << Vec3{0.f, 0.f, -0.75f};
        QTest::newRow("3D z") << false << Vec3{0.f, 0.f, 2.f};
        QTest::newRow("3D tilted") << false << Vec3{0.3f, -0.5f, 0.8f};
    }

    void vorticityOfRigidRotation()
    {
        // u = Omega x (x - c) is linear: centre averages and (one-sided) differences are exact,
        // so |curl| = 2 |Omega| everywhere up to float rounding of O(1) velocities / h.
        QFETCH(bool, is2D);
        QFETCH(Vec3, omega);
        Domain d = makeDomain(is2D ? Int3{24, 20, 1} : Int3{16, 14, 12});
        d.boundaries[int(Face::XMin)] = Boundary::Open;
        const Vec3 c{0.4f, 0.5f, 0.3f};
        MacGrid vel(d.cells);
        setVelocity(vel, d, [&](Vec3 p) { return cross(omega, p - c); });
        FlagGrid solids(d.cells);
        ScalarGrid out;
        vorticityMagnitude(vel, solids, d, out);
        QCOMPARE(out.size(), d.cells);
        const float expect = 2.f * length(omega);
        for (std::size_t n = 0; n < out.count(); ++n)
            QVERIFY2(std::abs(out[n] - expect) < 1e-4f * expect * float(d.cells.x),
                     qPrintable(QString("%1 vs %2").arg(out[n]).arg(expect)));
        // Solids read zero; their fluid neighbours fall back to one-sided differences.
        solids.setSolid(5, 5, is2D ? 0 : 5, true);
        vorticityMagnitude(vel, solids, d, out);
        QCOMPARE(out(5, 5, is2D ? 0 : 5), 0.f);
        QVERIFY(std::abs(out(6, 5, is2D ? 0 : 5) - expect) < 1e-4f * expect * d.cells.x);
        // Uniform flow has no vorticity at all.
        setVelocity(vel, d, [](Vec3) { return Vec3{0.3f, -1.f, 2.f}; });
        vorticityMagnitude(vel, solids, d, out);
        for (std::size_t n = 0; n < out.count(); ++n)
            QCOMPARE(out[n], 0.f);
    }

    void vorticityWrapsOnPeriodicAxes()
    {
        // u = sin(2 pi y): omega_z = -du/dy = -2 pi cos(2 pi y); central differences on the
        // periodic axis give it everywhere, including the first and last rows, to O(h^2).
        Domain d = makeDomain(Int3{4, 64, 1}, Boundary::Periodic);
        d.cellSize = 1.f / 64.f;
        MacGrid vel(d.cells);
        const float twoPi = 6.2831853f;
        setVelocity(vel, d, [&](Vec3 p) { return Vec3{std::sin(twoPi * p.y), 0.f, 0.f}; });
        ScalarGrid out;
        vorticityMagnitude(vel, FlagGrid(d.cells), d, out);
        for (int j = 0; j < 64; ++j) {
            const float expect = twoPi * std::abs(std::cos(twoPi * d.cellCentre(0, j, 0).y));
            // Central difference error: (2 pi h)^2 / 6 relative ~ 1.6e-3 of 2 pi.
            QVERIFY(std::abs(out(1, j, 0) - expect) < 0.02f);
        }
    }

    void confinementSpinsUpVortex_data() { addDimensionRows(); }

    void confinementSpinsUpVortex()
    {
        // A smeared counter-clockwise vortex (Lamb-Oseen profile, tube along z in 3D):
        // N points inwards, N x omega points along the swirl, so the circulation grows and the
        // force at a point east of the centre points +y.
        QFETCH(bool, is2D);
        const Domain d = makeDomain(is2D ? Int3{64, 64, 1} : Int3{48, 48, 8});
        const Vec3 c{0.5f, 0.5f, 0.f};
        const float sigma = 0.1f;
        MacGrid vel(d.cells);
        setVelocity(vel, d, [&](Vec3 p) {
            Vec3 r = p - c;
            r.z = 0.f;
            const float r2 = dot(r, r);
            const float speed = r2 > 0.f ? (1.f - std::exp(-r2 / (sigma * sigma))) / r2 : 0.f;
            return Vec3{-r.y * speed, r.x * speed, 0.f};
        });
        enforceVelocityBoundaries(vel, FlagGrid(d.cells), d);
        const MacGrid before = vel;
        FlagGrid solids(d.cells);
        Workspace work;
        work.reserveFor(d.cells);
        const int k = is2D ? 0 : 4;
        const int n = d.cells.x;
        addVorticityConfinement(vel, 0.f, solids, d, 0.1f, work);
        QVERIFY(sameVelocity(vel, before));
        addVorticityConfinement(vel, 2.f, solids, d, 0.1f, work);
        const double c0 = circulation(before, n / 2 - 8, n / 2 + 8, k, d.cellSize);
        const double c1 = circulation(vel, n / 2 - 8, n / 2 + 8, k, d.cellSize);
        QVERIFY2(c0 > 0.0 && c1 > c0 * 1.001, qPrintable(QString("%1 -> %2").arg(c0).arg(c1)));
        // East of the centre at r ~ sigma: force along +y, no radial part to speak of (the
        // two x-faces either side of y = 1/2 cancel their small tangential x-components).
        const int i = n / 2 + int(sigma / d.cellSize);
        const float dv = vel.v(i, n / 2, k) - before.v(i, n / 2, k);
        const float du = vel.u(i, n / 2, k) - before.u(i, n / 2, k) + vel.u(i, n / 2 - 1, k)
                         - before.u(i, n / 2 - 1, k);
        QVERIFY(dv > 0.f);
        QVERIFY2(std::abs(du) < 0.1f * dv, qPrintable(QString("%1 %2").arg(du).arg(dv)));
        if (!is2D) {
            for (std::size_t m = 0; m < vel.w.count(); ++m)
                QVERIFY(std::abs(vel.w[m]) < 1e-6f);
        }
    }

    // ---- determinism ------------------------------------------------------------------------

    void serialEqualsParallel_data() { addDimensionRows(); }

    void serialEqualsParallel()
    {
        QFETCH(bool, is2D);
        Domain d = makeDomain(is2D ? Int3{70, 53, 1} : Int3{37, 29, 23});
        d.boundaries[int(Face::YMax)] = Boundary::Open;
        d.boundaries[int(Face::XMin)] = Boundary::Periodic;
        d.boundaries[int(Face::XMax)] = Boundary::Periodic;
        FlagGrid solids(d.cells);
        for (int j = 10; j < 15; ++j)
            for (int i = 8; i < 12; ++i)
                solids.setSolid(i, j, is2D ? 0 : 11, true);
        MacGrid start(d.cells);
        fillRandom(start, 21);

        std::vector<ForceField> fields(4);
        fields[0].type = ForceType::Turbulence;
        fields[0].strength = 1.f;
        fields[0].scale = 0.2f;
        fields[0].seed = 5;
        fields[1].type = ForceType::Vortex;
        fields[1].strength = 2.f;
        fields[1].centre = Vec3{0.4f, 0.4f, 0.3f};
        fields[1].region.shape = RegionShape::Sphere;
        fields[1].region.centre = Vec3{0.4f, 0.4f, 0.3f};
        fields[1].region.radius = 0.15f;
        fields[1].region.falloff = 0.1f;
        fields[2].type = ForceType::Turbulence;
        fields[2].strength = 0.5f;
        fields[2].scale = 0.05f;
        fields[2].region.shape = RegionShape::Box;
        fields[2].region.centre = Vec3{0.7f, 0.3f, 0.2f};
        fields[2].region.halfSize = Vec3{0.1f, 0.2f, 0.1f};
        fields[2].region.falloff = 0.05f;
        fields[3].type = ForceType::Drag;
        fields[3].strength = 0.3f;
        ForceEvaluator ev;
        ev.setup(d, fields);
        QVERIFY(threadIndependent(start, [&](MacGrid &v) { ev.applyToMac(v, solids, 0.1f, 2.5); }));

        ScalarGrid rho(d.cells, kCellCentre), temp(d.cells, kCellCentre);
        std::mt19937 rng(2);
        std::uniform_real_distribution<float> dist(0.f, 2.f);
        for (std::size_t n = 0; n < rho.count(); ++n) {
            rho[n] = dist(rng);
            temp[n] = dist(rng);
        }
        SimParams p;
        p.buoyancyDensity = 0.3f;
        p.up = Vec3{0.2f, 1.f, 0.1f};
        QVERIFY(threadIndependent(start, [&](MacGrid &v) {
            addBuoyancy(v, rho, temp, p, solids, d, 0.1f);
        }));

        QVERIFY(threadIndependent(start, [&](MacGrid &v) {
            Workspace work;
            addVorticityConfinement(v, 0.5f, solids, d, 0.1f, work);
        }));

        ScalarGrid serial, parallel;
        {
            SerialScope scope;
            vorticityMagnitude(start, solids, d, serial);
        }
        for (int threads : {1, 2, 4}) {
            oneapi::tbb::task_arena arena(threads);
            arena.execute([&] { vorticityMagnitude(start, solids, d, parallel); });
            QVERIFY(serial.identical(parallel));
        }
    }

    void vorticityMatchesCellByCellStencils_data() { addDimensionRows(); }

    // The curl at every cell, each with its own stencil as eq. 9 with one-sided differences
    // at walls and solids gives it (wrapped on periodic axes): the kernel, which takes central
    // differences wherever a cell has fluid all around, must give the same bits.
    void vorticityMatchesCellByCellStencils()
    {
        QFETCH(bool, is2D);
        Domain d = makeDomain(is2D ? Int3{41, 37, 1} : Int3{23, 19, 17});
        d.boundaries[int(Face::XMin)] = Boundary::Periodic;
        d.boundaries[int(Face::XMax)] = Boundary::Periodic;
        d.boundaries[int(Face::YMax)] = Boundary::Open;
        if (!is2D) {
            d.boundaries[int(Face::ZMin)] = Boundary::Periodic;
            d.boundaries[int(Face::ZMax)] = Boundary::Periodic;
        }
        const Int3 n = d.cells;
        FlagGrid solids(n);
        std::mt19937 rng(7);
        std::uniform_real_distribution<float> coin(0.f, 1.f);
        for (int k = 0; k < n.z; ++k)
            for (int j = 0; j < n.y; ++j)
                for (int i = 0; i < n.x; ++i)
                    solids.setSolid(i, j, k, coin(rng) < 0.08f);
        MacGrid vel(n);
        fillRandom(vel, 3);
        ScalarGrid out;
        vorticityMagnitude(vel, solids, d, out);

        const float invH = 1.f / d.cellSize;
        // Offsets to the cells a derivative along `axis` uses at cell c, and 1 / distance.
        auto stencil = [&](Int3 c, int axis, int &lo, int &hi, float &factor) {
            const int at = c[axis];
            const int size = n[axis];
            const bool periodic = d.boundary(axis, false) == Boundary::Periodic;
            int l = at - 1, h = at + 1;
            if (periodic) {
                l = l < 0 ? size - 1 : l;
                h = h >= size ? 0 : h;
            }
            auto solidAt = [&](int x) {
                Int3 q = c;
                q[axis] = x;
                return solids.isSolid(q.x, q.y, q.z);
            };
            const bool loOk = l >= 0 && l != at && !solidAt(l);
            const bool hiOk = h < size && h != at && !solidAt(h);
            const int span = int(loOk) + int(hiOk);
            lo = loOk ? l : at;
            hi = hiOk ? h : at;
            factor = span == 0 ? 0.f : invH / float(span);
        };
        auto cu = [&](int i, int j, int k) { return vel.u(i, j, k) + vel.u(i + 1, j, k); };
        auto cv = [&](int i, int j, int k) { return vel.v(i, j, k) + vel.v(i, j + 1, k); };
        auto cw = [&](int i, int j, int k) { return vel.w(i, j, k) + vel.w(i, j, k + 1); };
        int compared = 0;
        for (int k = 0; k < n.z; ++k) {
            for (int j = 0; j < n.y; ++j) {
                for (int i = 0; i < n.x; ++i) {
                    float expected = 0.f;
                    if (!solids.isSolid(i, j, k)) {
                        int xl, xh, yl, yh, zl = k, zh = k;
                        float fx, fy, fz = 0.f;
                        stencil({i, j, k}, 0, xl, xh, fx);
                        stencil({i, j, k}, 1, yl, yh, fy);
                        if (!is2D)
                            stencil({i, j, k}, 2, zl, zh, fz);
                        fx *= 0.5f;
                        fy *= 0.5f;
                        fz *= 0.5f;
                        const float oz = (cv(xh, j, k) - cv(xl, j, k)) * fx
                                         - (cu(i, yh, k) - cu(i, yl, k)) * fy;
                        float ox = 0.f, oy = 0.f;
                        if (!is2D) {
                            ox = (cw(i, yh, k) - cw(i, yl, k)) * fy
                                 - (cv(i, j, zh) - cv(i, j, zl)) * fz;
                            oy = (cu(i, j, zh) - cu(i, j, zl)) * fz
                                 - (cw(xh, j, k) - cw(xl, j, k)) * fx;
                        }
                        expected = std::sqrt(ox * ox + oy * oy + oz * oz);
                    }
                    if (std::bit_cast<std::uint32_t>(out(i, j, k))
                        != std::bit_cast<std::uint32_t>(expected)) {
                        QFAIL(qPrintable(QString("cell (%1, %2, %3): %4, expected %5")
                                             .arg(i)
                                             .arg(j)
                                             .arg(k)
                                             .arg(out(i, j, k))
                                             .arg(expected)));
                    }
                    ++compared;
                }
            }
        }
        QCOMPARE(compared, n.volume());
    }

    // Solids change the confinement force only next to them: faces whose cells are three or
    // more cells from every solid get the bits of the same flow without solids.
    void confinementAwayFromSolidsIsUnchanged()
    {
        Domain d = makeDomain(Int3{29, 23, 19});
        d.boundaries[int(Face::XMin)] = Boundary::Periodic;
        d.boundaries[int(Face::XMax)] = Boundary::Periodic;
        const Int3 n = d.cells;
        FlagGrid none(n), solids(n);
        const Int3 placed[] = {{4, 5, 6}, {20, 11, 3}, {13, 17, 14}, {0, 9, 9}, {27, 2, 16}};
        for (Int3 c : placed)
            solids.setSolid(c.x, c.y, c.z, true);
        auto farFromSolids = [&](int i, int j, int k) {
            for (Int3 c : placed) {
                int dx = std::abs(i - c.x);
                dx = std::min(dx, n.x - dx); // periodic x
                if (std::max({dx, std::abs(j - c.y), std::abs(k - c.z)}) < 3)
                    return false;
            }
            return true;
        };
        MacGrid with(n), without(n);
        fillRandom(with, 9);
        without = with;
        Workspace work;
        addVorticityConfinement(with, 0.7f, solids, d, 0.1f, work);
        addVorticityConfinement(without, 0.7f, none, d, 0.1f, work);
        int compared = 0;
        for (int axis = 0; axis < 3; ++axis) {
            const ScalarGrid &a = with.component(axis);
            const ScalarGrid &b = without.component(axis);
            for (int k = 0; k < a.size().z; ++k)
                for (int j = 0; j < a.size().y; ++j)
                    for (int i = 0; i < a.size().x; ++i) {
                        int lo[3] = {i, j, k}, hi[3] = {i, j, k};
                        lo[axis] -= 1;
                        if (lo[axis] < 0 || hi[axis] >= n[axis]
                            || !farFromSolids(lo[0], lo[1], lo[2])
                            || !farFromSolids(hi[0], hi[1], hi[2]))
                            continue;
                        QCOMPARE(std::bit_cast<std::uint32_t>(a(i, j, k)),
                                 std::bit_cast<std::uint32_t>(b(i, j, k)));
                        ++compared;
                    }
        }
        QVERIFY(compared > 20000);
    }

    // The sparse smoke scheme's active tiles (issue 36): with live tiles given, the confinement
    // acts only in their cells. Every tile live gives the bytes of no tiles at all; with some
    // live, a face between two live cells gets the full force's bits, a face between two
    // other cells none. Periodic x and solids, so that the curl's stencil crosses the seam and
    // meets obstacles next to the tiles.
    void confinementOnLiveTilesOnly_data() { addDimensionRows(); }

    void confinementOnLiveTilesOnly()
    {
        QFETCH(bool, is2D);
        Domain d = makeDomain(is2D ? Int3{40, 32, 1} : Int3{40, 32, 24});
        d.boundaries[int(Face::XMin)] = Boundary::Periodic;
        d.boundaries[int(Face::XMax)] = Boundary::Periodic;
        const Int3 n = d.cells;
        FlagGrid solids(n);
        for (Int3 c : {Int3{7, 8, 0}, Int3{16, 15, 0}, Int3{39, 20, 0}, Int3{24, 9, 0}})
            solids.setSolid(c.x, c.y, is2D ? 0 : c.z + 8, true);
        const plume::test::TilePattern tiles(n);
        MacGrid start(n);
        fillRandom(start, 17);
        enforceVelocityBoundaries(start, solids, d);
        auto run = [&](const std::uint8_t *live) {
            MacGrid v = start;
            Workspace work;
            addVorticityConfinement(v, Confinement{.epsilon = 0.7f, .liveTiles = live}, solids, d,
                                    0.1f, work);
            return v;
        };
        const MacGrid full = run(nullptr), allLive = run(tiles.all.data()),
                      part = run(tiles.some.data());
        QVERIFY(sameVelocity(allLive, full));
        QVERIFY(!sameVelocity(full, start));
        const auto liveCell = [&](Int3 c) {
            c.x = (c.x + n.x) % n.x; // periodic x
            return tiles.live(c);
        };
        int inside = 0, outside = 0;
        for (int axis = 0; axis < d.dimensions(); ++axis) {
            const ScalarGrid &got = part.component(axis), &whole = full.component(axis),
                             &old = start.component(axis);
            const Int3 size = got.size();
            for (int k = 0; k < size.z; ++k)
                for (int j = 0; j < size.y; ++j)
                    for (int i = 0; i < size.x; ++i) {
                        Int3 lo{i, j, k}, hi{i, j, k};
                        lo[axis] -= 1;
                        if (axis != 0 && (lo[axis] < 0 || hi[axis] >= n[axis]))
                            continue; // the domain's walls: no force
                        const std::size_t at = got.index(i, j, k);
                        const bool a = liveCell(lo), b = liveCell(hi);
                        if (a && b) {
                            QCOMPARE(std::bit_cast<std::uint32_t>(got[at]),
                                     std::bit_cast<std::uint32_t>(whole[at]));
                            ++inside;
                        } else if (!a && !b) {
                            QCOMPARE(std::bit_cast<std::uint32_t>(got[at]),
                                     std::bit_cast<std::uint32_t>(old[at]));
                            ++outside;
                        }
                    }
        }
        const int least = is2D ? 100 : 1000;
        QVERIFY2(inside > least && outside > least,
                 qPrintable(QString("%1 inside, %2 outside").arg(inside).arg(outside)));
    }

    // Grids that do not match the domain break the stages' contract (the smoke scheme never
    // hands them such grids). With PLUME_ASSERT compiled in (every test and sanitizer build)
    // each stage aborts naming itself; a product build returns, leaving the velocity as it
    // is. Each stage runs in a child process of this test (kMismatchArgument).
    void mismatchedSizesBreakTheContract_data()
    {
        QTest::addColumn<QString>("stage");
        QTest::addColumn<QString>("message");
        QTest::newRow("forces") << "forces"
                                << "force fields: the velocity or the solids do not match";
        QTest::newRow("buoyancy") << "buoyancy"
                                  << "buoyancy: the grids do not match the domain";
        QTest::newRow("confinement")
            << "confinement"
            << "vorticity confinement: the velocity or the solids do not match";
    }

    void mismatchedSizesBreakTheContract()
    {
        QFETCH(QString, stage);
        QFETCH(QString, message);
        QProcess child;
        child.start(QCoreApplication::applicationFilePath(), {kMismatchArgument, stage});
        QVERIFY(child.waitForFinished(60000));
        const QByteArray err = child.readAllStandardError();
        if (!kAssertsEnabled) {
            // The stage returned and the child checked the velocity was left as it was.
            QCOMPARE(child.exitStatus(), QProcess::NormalExit);
            QVERIFY2(child.exitCode() == 0, err.constData());
            return;
        }
        QCOMPARE(child.exitStatus(), QProcess::CrashExit); // SIGABRT
        QVERIFY2(err.contains("PLUME_ASSERT("), err.constData());
        QVERIFY2(err.contains(message.toUtf8()), err.constData());
    }
};

namespace {

/// Runs one stage with a 4^3 velocity on an 8^3 domain (mismatchedSizesBreakTheContract):
/// aborts with asserts; else returns 0 when the velocity was left as it was.
int runMismatchedStage(const char *stage)
{
    const rlimit noCore{0, 0}; // the abort is expected: no core file
    setrlimit(RLIMIT_CORE, &noCore);
    const Domain d = makeDomain(Int3{8, 8, 8});
    MacGrid vel(Int3{4, 4, 4});
    fillRandom(vel, 1);
    const MacGrid before = vel;
    const FlagGrid solids(d.cells);
    Workspace work;
    if (std::strcmp(stage, "forces") == 0) {
        ForceField f;
        f.strength = 1.f;
        ForceEvaluator ev;
        ev.setup(d, {f});
        ev.applyToMac(vel, solids, 0.1f, 0.0);
    } else if (std::strcmp(stage, "buoyancy") == 0) {
        const ScalarGrid s(d.cells, kCellCentre, 1.f);
        addBuoyancy(vel, s, s, SimParams{}, solids, d, 0.1f);
    } else {
        addVorticityConfinement(vel, 1.f, solids, d, 0.1f, work);
    }
    return sameVelocity(vel, before) ? 0 : 1;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc == 3 && std::strcmp(argv[1], kMismatchArgument) == 0)
        return runMismatchedStage(argv[2]);
    QCoreApplication app(argc, argv);
    TestSimForces test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_sim_forces.moc"
