// SPDX-License-Identifier: Apache-2.0
#include <core/sim/base/parallel.h>
#include <core/sim/base/workspace.h>
#include <core/sim/numerics/monotonecubic.h>
#include <core/sim/ops/advection.h>

#include <oneapi/tbb/task_arena.h>

#include <tests/common/instrumented.h>
#include <tests/common/tilepattern.h>

#include <QtTest>

#include <algorithm>
#include <bit>
#include <cmath>
#include <vector>

using namespace plume::sim;

namespace {

constexpr float kPi = 3.14159265358979f;

/// What a test step runs: the four orders of advectScalar, or accounting advection.
enum Mode { SemiLagrangian = 0, MacCormack, Bfecc, Accounting, Cubic };

AdvectionOrder orderOf(int mode)
{
    switch (mode) {
    case MacCormack: return AdvectionOrder::MacCormack;
    case Bfecc: return AdvectionOrder::Bfecc;
    case Cubic: return AdvectionOrder::MonotoneCubic;
    default: return AdvectionOrder::SemiLagrangian;
    }
}

Domain makeDomain(Int3 cells, Boundary b, float h = 1.f)
{
    Domain d;
    d.cells = cells;
    d.cellSize = h;
    d.boundaries = allBoundaries(b);
    return d;
}

/// Sets every sample of `g` to f(sample position in cell coordinates).
template<class F>
void fillAt(ScalarGrid &g, F &&f)
{
    const Int3 s = g.size();
    const Vec3 o = g.offset();
    for (int k = 0; k < s.z; ++k)
        for (int j = 0; j < s.y; ++j)
            for (int i = 0; i < s.x; ++i)
                g(i, j, k) = f(Vec3{float(i) + o.x, float(j) + o.y, float(k) + o.z});
}

/// Sets the velocity from a function of the position (cell coordinates), world units / s.
template<class F>
void fillVelocity(MacGrid &vel, F &&f)
{
    for (int axis = 0; axis < (vel.is3D() ? 3 : 2); ++axis)
        fillAt(vel.component(axis), [&](Vec3 p) { return f(p)[axis]; });
}

double total(const ScalarGrid &g)
{
    double s = 0.0;
    for (std::size_t n = 0; n < g.count(); ++n)
        s += g[n];
    return s;
}

float maxOf(const ScalarGrid &g) { return *std::max_element(g.data(), g.data() + g.count()); }
float minOf(const ScalarGrid &g) { return *std::min_element(g.data(), g.data() + g.count()); }

/// Cells that are strict local extrema among their face neighbours (interior cells, values
/// above 1 % of the largest): grid-scale grain shows as many of them.
int localExtrema(const ScalarGrid &q)
{
    const Int3 n = q.size();
    const float floor = 0.01f * maxOf(q);
    const bool is3D = n.z > 1;
    int count = 0;
    for (int k = is3D ? 1 : 0; k < (is3D ? n.z - 1 : 1); ++k)
        for (int j = 1; j < n.y - 1; ++j)
            for (int i = 1; i < n.x - 1; ++i) {
                const float v = q(i, j, k);
                if (v <= floor)
                    continue;
                float nb[6] = {
                    q(i - 1, j, k), q(i + 1, j, k), q(i, j - 1, k), q(i, j + 1, k), v, v};
                if (is3D) {
                    nb[4] = q(i, j, k - 1);
                    nb[5] = q(i, j, k + 1);
                }
                bool above = true, below = true;
                for (int m = 0; m < (is3D ? 6 : 4); ++m) {
                    above = above && v > nb[m];
                    below = below && v < nb[m];
                }
                count += above || below ? 1 : 0;
            }
    return count;
}

/// Smooth bump: 1 at the centre, cos^2 falloff, 0 beyond radius r (cell coordinates).
float bump(Vec3 p, Vec3 centre, float r, bool is3D)
{
    Vec3 d = p - centre;
    if (!is3D)
        d.z = 0.f;
    const float t = length(d) / r;
    return t < 1.f ? std::pow(std::cos(0.5f * kPi * t), 2.f) : 0.f;
}

void advect(const Advector &a, ScalarGrid &q, const MacGrid &vel, float dt, int mode,
            Workspace &work)
{
    if (mode == Accounting)
        a.advectAccounting(q, vel, dt, work);
    else
        a.advectScalar(q, vel, dt, orderOf(mode), work);
}

/// Pseudo-random value in [0, 1) from an index (reproducible, no global state).
float hash01(std::uint32_t n)
{
    n = (n ^ 61u) ^ (n >> 16);
    n *= 9u;
    n ^= n >> 4;
    n *= 0x27d4eb2du;
    n ^= n >> 15;
    return float(n & 0xffffffu) / float(0x1000000);
}

/// A room of n cells a side (n^2 in 2D): walls, open at the top.
Domain openTopRoom(int n, bool is3D)
{
    Domain d = makeDomain({n, n, is3D ? n : 1}, Boundary::Wall);
    d.boundaries[int(Face::YMax)] = Boundary::Open;
    return d;
}

/// The plume's sphere obstacle in a room of n cells a side: radius 0.12 n at (0.5, 0.55, 0.5)
/// of the box (a disc in 2D).
FlagGrid plumeSphere(const Domain &d)
{
    const Int3 cells = d.cells;
    const int n = cells.x;
    const Vec3 centre{0.5f * float(n), 0.55f * float(n), 0.5f * float(cells.z)};
    FlagGrid solids(cells);
    for (int k = 0; k < cells.z; ++k)
        for (int j = 0; j < cells.y; ++j)
            for (int i = 0; i < cells.x; ++i) {
                Vec3 r = Vec3{i + 0.5f, j + 0.5f, k + 0.5f} - centre;
                if (d.is2D())
                    r.z = 0.f;
                solids.setSolid(i, j, k, length(r) < 0.12f * float(n));
            }
    return solids;
}

/// A swirling flow rising at `rise` +- 1.5 cells per step, across at up to 1.2 (and 0.9 along
/// z in 3D).
MacGrid swirl(const Domain &d, float rise)
{
    MacGrid vel(d.cells);
    const float f = 6.f / float(d.cells.x);
    const bool is3D = !d.is2D();
    fillVelocity(vel, [&](Vec3 p) {
        return Vec3{1.2f * std::sin(f * p.y + 0.5f * f * p.z), rise + 1.5f * std::cos(f * p.x),
                    is3D ? 0.9f * std::sin(f * p.x + f * p.y) : 0.f};
    });
    return vel;
}

void addModeColumns()
{
    QTest::addColumn<int>("mode");
    QTest::addColumn<bool>("is3D");
}

// Every order but accounting, in 2D and 3D, with and without the plume's sphere.
void addModeObstacleRows()
{
    addModeColumns();
    QTest::addColumn<bool>("obstacle");
    for (bool is3D : {false, true})
        for (int mode : {SemiLagrangian, MacCormack, Bfecc, Cubic})
            for (bool obstacle : {false, true})
                QTest::newRow(qPrintable(QString("%1 %2%3")
                                             .arg(is3D ? "3D" : "2D")
                                             .arg(toString(orderOf(mode)))
                                             .arg(obstacle ? " obstacle" : "")))
                    << mode << is3D << obstacle;
}

} // namespace

class TestSimAdvection : public QObject
{
    Q_OBJECT

private slots:
    void sampleLinearIsExactOnLinearFunctions_data()
    {
        QTest::addColumn<bool>("is3D");
        QTest::addColumn<int>("grid"); // -1 cell-centred, else the face axis
        QTest::addColumn<int>("boundary");
        for (bool is3D : {false, true}) {
            for (int grid = -1; grid < (is3D ? 3 : 2); ++grid) {
                for (Boundary b : {Boundary::Wall, Boundary::Periodic}) {
                    const QString kind = grid < 0 ? "cells" : QString("faces %1").arg(grid);
                    const QString name =
                        QString("%1 %2 %3").arg(is3D ? "3D" : "2D", kind, toString(b));
                    QTest::newRow(qPrintable(name)) << is3D << grid << int(b);
                }
            }
        }
    }

    void sampleLinearIsExactOnLinearFunctions()
    {
        QFETCH(bool, is3D);
        QFETCH(int, grid);
        QFETCH(int, boundary);
        const Int3 cells{12, 9, is3D ? 7 : 1};
        const Domain d = makeDomain(cells, Boundary(boundary), 0.1f);
        ScalarGrid g;
        if (grid < 0) {
            g.reshape(cells, kCellCentre);
        } else {
            MacGrid m(cells);
            g = m.component(grid);
        }
        auto f = [&](Vec3 p) {
            return 1.f + 0.25f * p.x - 0.5f * p.y + (is3D ? 0.125f * p.z : 0.f);
        };
        fillAt(g, f);
        // Inside the samples' range the interpolation of a linear function is exact (up to
        // float rounding of values of size ~10: 1e-5).
        // A periodic axis wraps after `cells` samples: the linear function is not periodic, so
        // stay before the seam there.
        const Vec3 o = g.offset();
        Vec3 span;
        for (int axis = 0; axis < 3; ++axis)
            span[axis] = float(std::min(g.size()[axis], cells[axis]) - 1);
        for (int n = 0; n < 200; ++n) {
            const Vec3 p{o.x + hash01(3 * n) * span.x, o.y + hash01(3 * n + 1) * span.y,
                         is3D ? o.z + hash01(3 * n + 2) * span.z : 0.5f};
            QVERIFY(std::fabs(sampleLinear(g, p, d) - f(p)) < 1e-5f);
        }
        const Vec3 outside{-3.f, 2.f * cells.y, 0.5f};
        const Vec3 inRange{o.x, o.y + float(g.size().y - 1), 0.5f};
        if (Boundary(boundary) == Boundary::Wall) {
            // Walls clamp to the grid's sample range.
            QCOMPARE(sampleLinear(g, outside, d), f(inRange));
        } else {
            // Periodic: half way between the last sample and the first one (one period later).
            const int last = cells.x - 1;
            const Vec3 p{float(last) + o.x + 0.5f, o.y, is3D ? o.z : 0.5f};
            const float expected = 0.5f * (g(last, 0, 0) + g(0, 0, 0));
            QVERIFY(std::fabs(sampleLinear(g, p, d) - expected) < 1e-5f);
            // Positions one period apart sample the same value.
            const Vec3 q{p.x - float(cells.x), p.y + float(cells.y), p.z};
            QVERIFY(std::fabs(sampleLinear(g, q, d) - expected) < 1e-5f);
        }
    }

    void sampleVelocityHonoursStaggering()
    {
        // u varies along x only, v along y: the staggered samples sit at different places, so
        // any offset mistake shows as an error of 0.5 * slope.
        const Domain d = makeDomain({16, 12, 1}, Boundary::Wall);
        MacGrid vel(d.cells);
        fillVelocity(vel, [](Vec3 p) { return Vec3{2.f * p.x, -3.f * p.y, 0.f}; });
        QCOMPARE(vel.u(3, 0, 0), 6.f); // face x = 3
        const Vec3 v = sampleVelocity(vel, {5.25f, 4.75f, 0.5f}, d);
        QVERIFY(std::fabs(v.x - 10.5f) < 1e-5f);
        QVERIFY(std::fabs(v.y + 14.25f) < 1e-5f);
        QCOMPARE(v.z, 0.f);
    }

    void periodicShiftIsExact_data()
    {
        addModeColumns();
        QTest::addColumn<int>("shift");
        // Not the cubic: its step filters the grid scale, whole-cell moves or not
        // (cubicFilterResponse).
        for (bool is3D : {false, true})
            for (int mode : {SemiLagrangian, MacCormack, Bfecc})
                for (int shift : {1, 2})
                    QTest::newRow(qPrintable(QString("%1 %2 shift %3")
                                                 .arg(is3D ? "3D" : "2D")
                                                 .arg(toString(orderOf(mode)))
                                                 .arg(shift)))
                        << mode << is3D << shift;
    }

    void periodicShiftIsExact()
    {
        QFETCH(int, mode);
        QFETCH(bool, is3D);
        QFETCH(int, shift);
        // Whole-cell moves make every interpolation fraction exactly 0, so each step is an exact
        // copy and after a full period the field is back, byte for byte.
        const Int3 cells{16, 16, is3D ? 16 : 1};
        const Domain d = makeDomain(cells, Boundary::Periodic, 1.f / 16.f);
        const float dt = 1.f / 16.f; // dt / h = 1: displacement in cells = velocity
        MacGrid vel(cells);
        fillVelocity(vel, [&](Vec3) { return Vec3{float(shift), -float(shift), float(shift)}; });
        ScalarGrid q(cells, kCellCentre);
        fillAt(q, [&](Vec3 p) { return hash01(std::uint32_t(p.x + 31 * p.y + 977 * p.z)); });
        const ScalarGrid start = q;
        FlagGrid solids(cells);
        Advector a;
        a.setup(d, solids);
        Workspace work;
        advect(a, q, vel, dt, mode, work);
        QCOMPARE(q(shift, 0, 0), start(0, shift, is3D ? cells.z - shift : 0));
        for (int n = 1; n < cells.x; ++n)
            advect(a, q, vel, dt, mode, work);
        QVERIFY(q.identical(start));
    }

    void cubicFilterResponse_data()
    {
        QTest::addColumn<bool>("is3D");
        QTest::addColumn<int>("axis");
        QTest::addColumn<int>("wavelength");
        for (bool is3D : {false, true})
            for (int axis = 0; axis < (is3D ? 3 : 2); ++axis)
                for (int wavelength : {2, 4, 8, 16})
                    QTest::newRow(qPrintable(QString("%1 axis %2 wavelength %3")
                                                 .arg(is3D ? "3D" : "2D")
                                                 .arg(axis)
                                                 .arg(wavelength)))
                        << is3D << axis << wavelength;
    }

    void cubicFilterResponse()
    {
        QFETCH(bool, is3D);
        QFETCH(int, axis);
        QFETCH(int, wavelength);
        // A whole-cell move makes the cubic's value the shifted sample, so the step is the
        // filter [-1 4 26 4 -1] / 32 along each axis (cubicadvection.cpp): a wave of
        // `wavelength` cells along `axis` comes out shifted and scaled by
        // 1 - sin^4(pi / wavelength) / 2 (0.5 for 2 cells, 0.875 for 4, 0.989 for 8), then
        // clamped to the range of the trace's corners: the sample it came from and the next
        // one along each axis.
        const Int3 cells{16, 16, is3D ? 16 : 1};
        const Domain d = makeDomain(cells, Boundary::Periodic, 1.f / 16.f);
        MacGrid vel(cells);
        fillVelocity(vel, [](Vec3) { return Vec3{1.f, 1.f, 1.f}; }); // one cell per step
        ScalarGrid q(cells, kCellCentre);
        const auto wave = [&](int i, int j, int k, double amplitude) {
            const int at[3] = {i, j, k};
            return 1.0 + amplitude * std::cos(2.0 * kPi * at[axis] / wavelength);
        };
        for (int k = 0; k < cells.z; ++k)
            for (int j = 0; j < cells.y; ++j)
                for (int i = 0; i < cells.x; ++i)
                    q(i, j, k) = float(wave(i, j, k, 0.5));
        FlagGrid solids(cells);
        Advector a;
        a.setup(d, solids);
        Workspace work;
        advect(a, q, vel, 1.f / 16.f, Cubic, work);
        const double s = std::sin(kPi / wavelength);
        const double response = 1.0 - 0.5 * s * s * s * s;
        const auto back = [&](int i, int n) { return (i - 1 + n) % n; };
        for (int k = 0; k < cells.z; ++k)
            for (int j = 0; j < cells.y; ++j)
                for (int i = 0; i < cells.x; ++i) {
                    const int from[3] = {back(i, cells.x), back(j, cells.y),
                                         is3D ? back(k, cells.z) : 0};
                    const double a0 = wave(from[0], from[1], from[2], 0.5);
                    const double a1 = wave(i, j, k, 0.5); // the next sample along each axis
                    const double want = std::clamp(wave(from[0], from[1], from[2], 0.5 * response),
                                                   std::min(a0, a1), std::max(a0, a1));
                    if (std::abs(q(i, j, k) - want) > 1e-5)
                        QFAIL(qPrintable(QString("(%1, %2, %3): %4, want %5")
                                             .arg(i)
                                             .arg(j)
                                             .arg(k)
                                             .arg(q(i, j, k))
                                             .arg(want)));
                }
    }

    void uniformVelocityStaysUniform_data()
    {
        addModeColumns();
        for (bool is3D : {false, true})
            for (int mode : {SemiLagrangian, MacCormack, Bfecc, Cubic})
                QTest::newRow(qPrintable(
                    QString("%1 %2").arg(is3D ? "3D" : "2D").arg(toString(orderOf(mode)))))
                    << mode << is3D;
    }

    void uniformVelocityStaysUniform()
    {
        QFETCH(int, mode);
        QFETCH(bool, is3D);
        // Self-advection of a uniform field is the identity on every face, including the
        // duplicated last face of each periodic axis.
        const Int3 cells{10, 8, is3D ? 6 : 1};
        const Domain d = makeDomain(cells, Boundary::Periodic, 0.5f);
        MacGrid vel(cells);
        const Vec3 u0{0.7f, -1.3f, is3D ? 0.4f : 0.f};
        fillVelocity(vel, [&](Vec3) { return u0; });
        FlagGrid solids(cells);
        Advector a;
        a.setup(d, solids);
        Workspace work;
        for (int n = 0; n < 5; ++n)
            a.advectVelocity(vel, 0.3f, orderOf(mode), work);
        for (int axis = 0; axis < (is3D ? 3 : 2); ++axis) {
            const ScalarGrid &g = vel.component(axis);
            QCOMPARE(g.size(), faceGridSize(cells, axis));
            QCOMPARE(minOf(g), u0[axis]);
            QCOMPARE(maxOf(g), u0[axis]);
        }
    }

    // On a periodic axis a face grid's last face is its first: every order leaves the two
    // holding the same bits after moving a swirling velocity.
    void periodicFacesStayTwins_data()
    {
        addModeColumns();
        for (bool is3D : {false, true})
            for (int mode : {SemiLagrangian, MacCormack, Bfecc, Cubic})
                QTest::newRow(qPrintable(
                    QString("%1 %2").arg(is3D ? "3D" : "2D").arg(toString(orderOf(mode)))))
                    << mode << is3D;
    }

    void periodicFacesStayTwins()
    {
        QFETCH(int, mode);
        QFETCH(bool, is3D);
        const Int3 cells{24, 20, is3D ? 16 : 1};
        const Domain d = makeDomain(cells, Boundary::Periodic, 1.f);
        MacGrid vel(cells);
        fillVelocity(vel, [&](Vec3 p) {
            const float a = 2.f * kPi / 24.f, b = 2.f * kPi / 20.f;
            return Vec3{1.3f * std::sin(b * p.y), 1.1f * std::cos(a * p.x),
                        is3D ? 0.7f * std::sin(a * p.x + b * p.y) : 0.f};
        });
        FlagGrid solids(cells);
        Advector a;
        a.setup(d, solids);
        Workspace work;
        for (int n = 0; n < 4; ++n)
            a.advectVelocity(vel, 1.f, orderOf(mode), work);
        for (int axis = 0; axis < (is3D ? 3 : 2); ++axis) {
            const ScalarGrid &g = vel.component(axis);
            const Int3 s = g.size();
            for (int k = 0; k < s.z; ++k)
                for (int j = 0; j < s.y; ++j)
                    for (int i = 0; i < s.x; ++i) {
                        Int3 first{i, j, k};
                        if (first[axis] != s[axis] - 1)
                            continue;
                        first[axis] = 0;
                        QCOMPARE(std::bit_cast<std::uint32_t>(g(i, j, k)),
                                 std::bit_cast<std::uint32_t>(g(first.x, first.y, first.z)));
                    }
        }
    }

    // The monotone cubic (Fritsch and Carlson 1980): exact on linear and, where no slope is
    // limited, on quadratic data; never outside its two middle samples; flat at an extremum.
    void monotoneCubicInterpolates()
    {
        for (float t : {0.f, 0.25f, 0.5f, 0.9f, 1.f}) {
            QCOMPARE(monotoneCubic(1.f, 2.f, 3.f, 4.f, t), 2.f + t);
            // f(x) = x^2 at x = 1, 2, 3, 4: central differences are the exact slopes 4 and 6
            // (below 3 |f2 - f1| = 15), so the Hermite cubic is the parabola itself.
            const float x = 2.f + t;
            QVERIFY(std::fabs(monotoneCubic(1.f, 4.f, 9.f, 16.f, t) - x * x) < 1e-5f);
        }
        // A step: Catmull-Rom would overshoot to 1.07 and -0.07; the monotone cubic stays
        // in [0, 1] and is monotone.
        float last = -1.f;
        for (int m = 0; m <= 20; ++m) {
            const float v = monotoneCubic(0.f, 0.f, 1.f, 1.f, float(m) / 20.f);
            QVERIFY(v >= 0.f && v <= 1.f && v >= last);
            last = v;
        }
        // Extremum at f1 (0 1 0 ...): zero slope there, so it falls monotonically to f2.
        QCOMPARE(monotoneCubic(0.f, 1.f, 0.f, 0.f, 0.f), 1.f);
        QVERIFY(monotoneCubic(0.f, 1.f, 0.f, 0.f, 0.3f) <= 1.f);
        // A spike between constant samples: the interval [f1, f2] is all it may reach.
        for (float t : {0.1f, 0.5f, 0.9f})
            QVERIFY(monotoneCubic(-5.f, 2.f, 2.f, 9.f, t) == 2.f);
    }

    // The four-lane cubic (cubic advection's 3D passes) is the scalar one, bit for bit, in each
    // lane: on random samples drawn from a few values (so that equal neighbours, extrema, signed
    // zeros and limited slopes all occur) and on spread-out ones.
    void monotoneCubicFourLanesMatchTheScalar()
    {
        const float pool[] = {0.f, -0.f, 1.f, -1.f, 0.5f, 2.f, 1e-30f, -3.25f, 7.f, 1e20f};
        std::uint32_t state = 12345u;
        const auto next = [&] {
            state = state * 1664525u + 1013904223u;
            return state >> 8;
        };
        const auto draw = [&](bool spread) {
            if (spread)
                return (float(next() % 20001u) - 10000.f) / 977.f;
            return pool[next() % std::size(pool)];
        };
        int checked = 0;
        for (int trial = 0; trial < 20000; ++trial) {
            const bool spread = trial % 2 == 1;
            Float4 f[4];
            for (Float4 &lane : f)
                for (int n = 0; n < 4; ++n)
                    lane[n] = draw(spread);
            const float t = trial % 7 == 0 ? float(trial % 3) * 0.5f
                                           : float(next() % 1001u) / 1000.f;
            const Float4 v = monotoneCubic(f[0], f[1], f[2], f[3], t);
            for (int n = 0; n < 4; ++n) {
                const float scalar = monotoneCubic(f[0][n], f[1][n], f[2][n], f[3][n], t);
                QCOMPARE(std::bit_cast<std::uint32_t>(float(v[n])),
                         std::bit_cast<std::uint32_t>(scalar));
                ++checked;
            }
        }
        QCOMPARE(checked, 80000);
    }

    void rotationKeepsShape_data()
    {
        QTest::addColumn<bool>("is3D");
        QTest::newRow("2D") << false;
        QTest::newRow("3D") << true;
    }

    void rotationKeepsShape()
    {
        QFETCH(bool, is3D);
        // A smooth blob turned once around by a rigid rotation (divergence-free: u depends on y
        // only, v on x only) should come back where it started.
        const int n = is3D ? 40 : 64;
        const int steps = is3D ? 120 : 200;
        const Int3 cells{n, n, is3D ? n : 1};
        const Domain d = makeDomain(cells, Boundary::Wall);
        const float c = 0.5f * float(n);
        const float omega = 2.f * kPi / float(steps); // one turn with dt = 1
        MacGrid vel(cells);
        fillVelocity(vel, [&](Vec3 p) { return Vec3{-omega * (p.y - c), omega * (p.x - c), 0.f}; });
        ScalarGrid start(cells, kCellCentre);
        const Vec3 centre{c + 0.25f * float(n), c, c};
        const float radius = (is3D ? 0.2f : 0.15f) * float(n); // 8 and 9.6 cells
        fillAt(start, [&](Vec3 p) { return bump(p, centre, radius, is3D); });
        FlagGrid solids(cells);
        Advector a;
        a.setup(d, solids);
        Workspace work;
        double error[5] = {0, 0, 0, 0, 0};
        float peak[5] = {0, 0, 0, 0, 0};
        int extrema[5] = {0, 0, 0, 0, 0};
        for (int mode : {SemiLagrangian, MacCormack, Bfecc, Cubic}) {
            ScalarGrid q = start;
            for (int s = 0; s < steps; ++s) {
                advect(a, q, vel, 1.f, mode, work);
                // Every order keeps every value inside the range of the previous step: the
                // limiter, or the cubic's monotone passes, which stay within the trilinear
                // corners.
                QVERIFY(maxOf(q) <= maxOf(start));
                QVERIFY(minOf(q) >= 0.f);
            }
            for (std::size_t m = 0; m < q.count(); ++m)
                error[mode] += std::pow(double(q[m]) - start[m], 2.0);
            error[mode] = std::sqrt(error[mode] / total(start));
            peak[mode] = maxOf(q) / maxOf(start);
            extrema[mode] = localExtrema(q);
            qInfo("%-10s relative L2 error %.4f, peak kept %.3f, local extrema %d",
                  toString(orderOf(mode)), error[mode], double(peak[mode]), extrema[mode]);
        }
        // Second-order and cubic schemes diffuse far less (measured ratios of the
        // semi-Lagrangian error in 2D / 3D: MacCormack 0.49 / 0.55, BFECC 0.19 / 0.22, cubic
        // 0.48 / 0.62; peak kept: linear 0.27 / 0.29, MacCormack 0.76 / 0.75, BFECC
        // 0.80 / 0.78, cubic 0.81 / 0.72); 0.7 leaves a margin. The cubic's grid-scale
        // filter (cubicFilterResponse) costs it a little: without it, 0.47 / 0.61 and
        // 0.84 / 0.82.
        QVERIFY(error[MacCormack] < 0.7 * error[SemiLagrangian]);
        QVERIFY(error[Bfecc] < 0.7 * error[SemiLagrangian]);
        QVERIFY(error[Cubic] < 0.7 * error[SemiLagrangian]);
        // Sharpness: each keeps more of the blob's peak after the turn than semi-Lagrangian.
        for (int mode : {MacCormack, Bfecc, Cubic})
            QVERIFY2(peak[mode] > peak[SemiLagrangian] + 0.05f,
                     qPrintable(QString("%1 keeps %2 of the peak, linear %3")
                                    .arg(toString(orderOf(mode)))
                                    .arg(peak[mode])
                                    .arg(peak[SemiLagrangian])));
        // No grain: a smooth blob stays one smooth blob (its single maximum, no speckle).
        // BFECC, whose third trace reaches furthest, leaves a few ripples (measured 2 / 4
        // local extrema in 2D / 3D, against linear's 1 / 0): bounded, not asserted away.
        QVERIFY(extrema[Bfecc] <= extrema[SemiLagrangian] + 6);
        for (int mode : {MacCormack, Cubic})
            QVERIFY2(extrema[mode] <= extrema[SemiLagrangian] + 1,
                     qPrintable(QString("%1: %2 local extrema, linear %3")
                                    .arg(toString(orderOf(mode)))
                                    .arg(extrema[mode])
                                    .arg(extrema[SemiLagrangian])));
    }

    void thinWallBlocks_data()
    {
        addModeColumns();
        for (bool is3D : {false, true})
            for (int mode : {SemiLagrangian, MacCormack, Bfecc, Accounting})
                QTest::newRow(qPrintable(
                    QString("%1 %2")
                        .arg(is3D ? "3D" : "2D")
                        .arg(mode == Accounting ? "accounting" : toString(orderOf(mode)))))
                    << mode << is3D;
    }

    void thinWallBlocks()
    {
        QFETCH(int, mode);
        QFETCH(bool, is3D);
        // A blob carried at 1.7 cells per step towards a solid plane one cell thick: a trace
        // that ignored the wall would jump it (from x = 31.5 back to 29.8).
        const Int3 cells{48, 16, is3D ? 12 : 1};
        const int wall = 30;
        const Domain d = makeDomain(cells, Boundary::Wall);
        FlagGrid solids(cells);
        for (int k = 0; k < cells.z; ++k)
            for (int j = 0; j < cells.y; ++j)
                solids.setSolid(wall, j, k, true);
        MacGrid vel(cells);
        fillVelocity(vel, [](Vec3) { return Vec3{1.7f, 0.f, 0.f}; });
        ScalarGrid q(cells, kCellCentre);
        fillAt(q, [&](Vec3 p) { return bump(p, {14.f, 8.f, 6.f}, 5.f, is3D); });
        // Poison inside the wall: none of it may ever be read.
        for (int k = 0; k < cells.z; ++k)
            for (int j = 0; j < cells.y; ++j)
                q(wall, j, k) = 1e6f;
        Advector a;
        a.setup(d, solids);
        Workspace work;
        float reached = 0.f;
        for (int s = 0; s < 60; ++s) {
            advect(a, q, vel, 1.f, mode, work);
            for (int k = 0; k < cells.z; ++k) {
                for (int j = 0; j < cells.y; ++j) {
                    reached = std::max(reached, q(wall - 1, j, k));
                    QCOMPARE(q(wall, j, k), 0.f);
                    for (int i = wall + 1; i < cells.x; ++i)
                        QCOMPARE(q(i, j, k), 0.f);
                }
            }
        }
        QVERIFY(reached > 0.1f); // the blob did arrive at the wall
    }

    void velocityNeverReadsSolids_data()
    {
        addModeColumns();
        for (bool is3D : {false, true})
            for (int mode : {SemiLagrangian, MacCormack, Bfecc})
                QTest::newRow(qPrintable(
                    QString("%1 %2").arg(is3D ? "3D" : "2D").arg(toString(orderOf(mode)))))
                    << mode << is3D;
    }

    void velocityNeverReadsSolids()
    {
        QFETCH(int, mode);
        QFETCH(bool, is3D);
        const int n = is3D ? 20 : 32;
        const Int3 cells{n, n, is3D ? n : 1};
        const Domain d = makeDomain(cells, Boundary::Wall);
        FlagGrid solids(cells);
        for (int k = 0; k < cells.z; ++k)
            for (int j = 6; j < 12; ++j)
                for (int i = 7; i < 13; ++i)
                    solids.setSolid(i, j, k, !is3D || (k >= 5 && k < 11));
        MacGrid vel(cells);
        const float c = 0.5f * float(n);
        fillVelocity(vel, [&](Vec3 p) {
            return Vec3{-0.15f * (p.y - c), 0.15f * (p.x - c), is3D ? 0.3f : 0.f};
        });
        // Faces with solid cells on both sides hold garbage: it must never reach fluid faces.
        float largest = 0.f;
        auto insideSolid = [&](int axis, int i, int j, int k) {
            int lo[3] = {i, j, k};
            lo[axis] -= 1;
            const bool hiSolid = (axis == 0 ? i : (axis == 1 ? j : k)) == cells[axis]
                                 || solids.isSolid(i, j, k);
            return hiSolid && (lo[axis] < 0 || solids.isSolid(lo[0], lo[1], lo[2]));
        };
        for (int axis = 0; axis < (is3D ? 3 : 2); ++axis) {
            ScalarGrid &g = vel.component(axis);
            for (int k = 0; k < g.size().z; ++k)
                for (int j = 0; j < g.size().y; ++j)
                    for (int i = 0; i < g.size().x; ++i) {
                        if (insideSolid(axis, i, j, k))
                            g(i, j, k) = 1e6f;
                        else
                            largest = std::max(largest, std::fabs(g(i, j, k)));
                    }
        }
        Advector a;
        a.setup(d, solids);
        Workspace work;
        a.advectVelocity(vel, 1.f, orderOf(mode), work);
        // Fluid faces are interpolations (or clamped corrections) of fluid faces: bounded by
        // the largest fluid speed up to float rounding (1e-5 relative).
        for (int axis = 0; axis < (is3D ? 3 : 2); ++axis) {
            const ScalarGrid &g = vel.component(axis);
            for (int k = 0; k < g.size().z; ++k)
                for (int j = 0; j < g.size().y; ++j)
                    for (int i = 0; i < g.size().x; ++i)
                        if (!insideSolid(axis, i, j, k))
                            QVERIFY(std::fabs(g(i, j, k)) <= largest * (1.f + 1e-5f));
        }
    }

    void accountingConservesMass_data()
    {
        QTest::addColumn<bool>("is3D");
        QTest::addColumn<bool>("obstacle");
        QTest::newRow("2D") << false << false;
        QTest::newRow("2D obstacle") << false << true;
        QTest::newRow("3D") << true << false;
        QTest::newRow("3D obstacle") << true << true;
    }

    void accountingConservesMass()
    {
        QFETCH(bool, is3D);
        QFETCH(bool, obstacle);
        // A strongly compressible field (sinks and sources, divergence ~ 0.6 per step) between
        // closed walls: semi-Lagrangian advection would gain or lose a large fraction here.
        const int n = is3D ? 24 : 64;
        const Int3 cells{n, n, is3D ? n : 1};
        const Domain d = makeDomain(cells, Boundary::Wall);
        const float kx = 2.f * kPi / float(n);
        MacGrid vel(cells);
        fillVelocity(vel, [&](Vec3 p) {
            return Vec3{1.2f * std::sin(kx * p.x) * std::cos(0.5f * kx * p.y),
                        0.9f * std::sin(2.f * kx * p.y), is3D ? 0.8f * std::sin(kx * p.z) : 0.f};
        });
        FlagGrid solids(cells);
        if (obstacle)
            for (int k = 0; k < cells.z; ++k)
                for (int j = n / 3; j < n / 2; ++j)
                    solids.setSolid(n / 2, j, k, true);
        ScalarGrid q(cells, kCellCentre);
        fillAt(q, [&](Vec3 p) {
            const int i = int(p.x), j = int(p.y), k = int(p.z);
            return solids.isSolid(i, j, k) ? 0.f : hash01(std::uint32_t(i + 131 * j + 7919 * k));
        });
        const double start = total(q);
        Advector a;
        a.setup(d, solids);
        Workspace work;
        for (int s = 0; s < 200; ++s) {
            a.advectAccounting(q, vel, 1.f, work);
            QVERIFY(minOf(q) >= 0.f);
        }
        // Every move subtracts what it adds; only float rounding remains (~6e-8 relative per
        // operation, unbiased, so the total drifts like a random walk, far below 1e-6 after 200
        // steps). A single lost corner weight would show as 1e-3 or more.
        const double drift = std::fabs(total(q) - start) / start;
        qInfo("relative drift %.3g, max %.3f", drift, double(maxOf(q)));
        QVERIFY(drift < 1e-6);
        QVERIFY(maxOf(q) > 2.f); // the field really is compressible: mass piled up in sinks
        for (std::size_t m = 0; m < q.count(); ++m)
            if (solids.isSolid(m))
                QCOMPARE(q[m], 0.f);
    }

    void accountingMovesAtFlowSpeed()
    {
        // Forward and backward halves together carry the content by u dt, as the other schemes
        // do: the centroid of a blob moves 0.6 cells per step (to 1e-3 cells: symmetric
        // spreading does not move the centroid, rounding is far smaller).
        const Int3 cells{80, 24, 1};
        const Domain d = makeDomain(cells, Boundary::Wall, 0.5f);
        MacGrid vel(cells);
        fillVelocity(vel, [](Vec3) { return Vec3{1.2f, 0.f, 0.f}; });
        ScalarGrid q(cells, kCellCentre);
        fillAt(q, [&](Vec3 p) { return bump(p, {20.f, 12.f, 0.5f}, 5.f, false); });
        auto centroid = [&] {
            double m = 0, mx = 0;
            for (int j = 0; j < cells.y; ++j)
                for (int i = 0; i < cells.x; ++i) {
                    m += q(i, j, 0);
                    mx += q(i, j, 0) * (i + 0.5);
                }
            return mx / m;
        };
        const double x0 = centroid();
        FlagGrid solids(cells);
        Advector a;
        a.setup(d, solids);
        Workspace work;
        for (int s = 0; s < 40; ++s)
            a.advectAccounting(q, vel, 0.25f, work); // 1.2 * 0.25 / 0.5 = 0.6 cells
        qInfo("centroid moved %.5f cells", centroid() - x0);
        QVERIFY(std::fabs(centroid() - x0 - 24.0) < 1e-3);
    }

    void accountingOpenFacesLetMassOut()
    {
        // Open +x face: what crosses it leaves; nothing is ever created.
        const Int3 cells{32, 16, 1};
        Domain d = makeDomain(cells, Boundary::Wall);
        d.boundaries[int(Face::XMax)] = Boundary::Open;
        MacGrid vel(cells);
        fillVelocity(vel, [](Vec3) { return Vec3{0.8f, 0.f, 0.f}; });
        ScalarGrid q(cells, kCellCentre);
        fillAt(q, [&](Vec3 p) { return bump(p, {20.f, 8.f, 0.5f}, 4.f, false); });
        FlagGrid solids(cells);
        Advector a;
        a.setup(d, solids);
        Workspace work;
        double previous = total(q);
        for (int s = 0; s < 40; ++s) {
            a.advectAccounting(q, vel, 1.f, work);
            const double now = total(q);
            QVERIFY(now <= previous * (1 + 1e-6));
            previous = now;
        }
        QVERIFY(previous < 1e-3); // 32 cells travelled: the blob has gone
    }

    void runsMatchSampleBySample_data()
    {
        QTest::addColumn<bool>("is3D");
        QTest::addColumn<bool>("periodic");
        for (bool is3D : {false, true})
            for (bool periodic : {false, true})
                QTest::newRow(qPrintable(
                    QString("%1%2").arg(is3D ? "3D" : "2D").arg(periodic ? " periodic" : "")))
                    << is3D << periodic;
    }

    // Without obstacles every sample is on the plain path, which the kernel takes in runs of
    // consecutive samples (structure-of-arrays stencils, four samples at a time). The
    // semi-Lagrangian step must give, bit for bit, what tracing each sample on its own gives:
    // the public sampler at x - dt u(x) / h, with u at the centre the mean of the two faces per
    // axis. Rows are longer than a run (64) and not a multiple of four; the flow reaches past
    // the walls and, on periodic axes, wraps.
    void runsMatchSampleBySample()
    {
        QFETCH(bool, is3D);
        QFETCH(bool, periodic);
        const Int3 cells = is3D ? Int3{71, 13, 9} : Int3{150, 37, 1};
        const Domain d = makeDomain(cells, periodic ? Boundary::Periodic : Boundary::Wall);
        MacGrid vel(cells);
        fillVelocity(vel, [&](Vec3 p) {
            return Vec3{6.f * std::sin(0.3f * p.y + 0.2f * p.z), 5.f * std::cos(0.25f * p.x),
                        is3D ? 4.f * std::sin(0.2f * p.x + 0.3f * p.y) : 0.f};
        });
        ScalarGrid q(cells, kCellCentre);
        fillAt(q, [&](Vec3 p) { return hash01(std::uint32_t(p.x * 7 + p.y * 131 + p.z * 2731)); });
        const ScalarGrid before = q;
        Advector a;
        a.setup(d, FlagGrid(cells));
        Workspace work;
        const float dt = 0.7f;
        a.advectScalar(q, vel, dt, AdvectionOrder::SemiLagrangian, work);
        const float half = 0.5f * (dt / d.cellSize);
        for (int k = 0; k < cells.z; ++k)
            for (int j = 0; j < cells.y; ++j)
                for (int i = 0; i < cells.x; ++i) {
                    const Vec3 step{half * (vel.u(i, j, k) + vel.u(i + 1, j, k)),
                                    half * (vel.v(i, j, k) + vel.v(i, j + 1, k)),
                                    is3D ? half * (vel.w(i, j, k) + vel.w(i, j, k + 1)) : 0.f};
                    const Vec3 p{float(i) + 0.5f, float(j) + 0.5f, float(k) + 0.5f};
                    const float expected = sampleLinear(before, p + step * -1.f, d);
                    if (std::bit_cast<std::uint32_t>(q(i, j, k))
                        != std::bit_cast<std::uint32_t>(expected))
                        QFAIL(qPrintable(QString("cell (%1, %2, %3): %4, expected %5 (bits %6, %7)")
                                             .arg(i)
                                             .arg(j)
                                             .arg(k)
                                             .arg(double(q(i, j, k)), 0, 'g', 9)
                                             .arg(double(expected), 0, 'g', 9)
                                             .arg(std::bit_cast<std::uint32_t>(q(i, j, k)), 0, 16)
                                             .arg(std::bit_cast<std::uint32_t>(expected), 0, 16)));
                }
    }

    void plainPathMatchesExactPath_data()
    {
        addModeColumns();
        QTest::addColumn<int>("layout");
        const char *layouts[] = {"walls, open top", "periodic", "narrow periodic x"};
        for (bool is3D : {false, true})
            for (int mode : {SemiLagrangian, MacCormack, Bfecc, Accounting, Cubic})
                for (int layout : {0, 1, 2})
                    QTest::newRow(qPrintable(
                        QString("%1 %2 %3")
                            .arg(is3D ? "3D" : "2D")
                            .arg(mode == Accounting ? "accounting" : toString(orderOf(mode)))
                            .arg(layouts[layout])))
                        << mode << is3D << layout;
    }

    void plainPathMatchesExactPath()
    {
        QFETCH(int, mode);
        QFETCH(bool, is3D);
        QFETCH(int, layout);
        // The plume's sphere obstacle (radius 0.12 of the box at (0.5, 0.55, 0.5)) in a flow of
        // 0 to 3.5 cells per step: samples far from the sphere take the clear path (straight
        // traces, walked only near closed faces), the others the exact one. Forcing the exact
        // path everywhere must give the same bytes, with any thread count. Layout 1 puts the
        // sphere across a periodic seam; layout 2 is 6 cells wide along a periodic x with up to 16
        // cells per step across it, longer than the axis.
        // Smaller under ThreadSanitizer: the same paths near and far from the sphere.
        const int n = is3D ? plume::test::fullOrUnderTsan(36, 20)
                           : plume::test::fullOrUnderTsan(96, 48);
        const bool narrow = layout == 2;
        const Int3 cells{narrow ? 6 : n, n, is3D ? n : 1};
        Domain d = makeDomain(cells, layout == 0 ? Boundary::Wall : Boundary::Periodic);
        if (layout == 0)
            d.boundaries[int(Face::YMax)] = Boundary::Open;
        if (narrow)
            d.boundaries[int(Face::YMin)] = d.boundaries[int(Face::YMax)] = Boundary::Wall;
        const Vec3 centre{0.5f * float(cells.x), (layout == 1 ? 0.9f : 0.55f) * float(n),
                          0.5f * float(cells.z)};
        const float radius = (narrow ? 0.04f : 0.12f) * float(n);
        FlagGrid solids(cells);
        for (int k = 0; k < cells.z; ++k)
            for (int j = 0; j < cells.y; ++j)
                for (int i = 0; i < cells.x; ++i) {
                    Vec3 r = Vec3{i + 0.5f, j + 0.5f, k + 0.5f} - centre;
                    if (layout == 1)
                        r.y -= float(n) * std::round(r.y / float(n));
                    if (!is3D)
                        r.z = 0.f;
                    solids.setSolid(i, j, k, length(r) < radius);
                }
        MacGrid vel0(cells);
        const float f = 6.f / float(n);
        fillVelocity(vel0, [&](Vec3 p) {
            return Vec3{(narrow ? 16.f : 1.2f) * std::sin(f * p.y + 0.5f * f * p.z),
                        2.f + 1.5f * std::cos(f * p.x),
                        is3D ? 0.9f * std::sin(f * p.x + f * p.y) : 0.f};
        });
        ScalarGrid q0(cells, kCellCentre);
        fillAt(q0, [&](Vec3 p) {
            return solids.isSolid(int(p.x), int(p.y), int(p.z))
                       ? 0.f
                       : hash01(std::uint32_t(p.x * 7 + p.y * 131 + p.z * 2731));
        });
        auto run = [&](bool exact, ScalarGrid &q, MacGrid &vel) {
            Advector a;
            a.setup(d, solids);
            a.setExactEverywhere(exact);
            Workspace work;
            q = q0;
            vel = vel0;
            for (int s = 0; s < 3; ++s) {
                advect(a, q, vel, 1.f, mode, work);
                if (mode != Accounting)
                    a.advectVelocity(vel, 1.f, orderOf(mode), work);
            }
        };
        ScalarGrid exactQ;
        MacGrid exactVel;
        {
            SerialScope scope;
            run(true, exactQ, exactVel);
        }
        QVERIFY(!exactQ.identical(q0));
        for (int threads : {1, 2, 4}) {
            oneapi::tbb::task_arena arena(threads);
            ScalarGrid q;
            MacGrid vel;
            arena.execute([&] { run(false, q, vel); });
            QVERIFY(q.identical(exactQ));
            QVERIFY(vel.u.identical(exactVel.u));
            QVERIFY(vel.v.identical(exactVel.v));
            QVERIFY(vel.w.identical(exactVel.w));
        }
    }

    void liveTilesLimitTheVelocity_data() { addModeObstacleRows(); }

    void liveTilesLimitTheVelocity()
    {
        QFETCH(int, mode);
        QFETCH(bool, is3D);
        QFETCH(bool, obstacle);
        // The sparse scheme's active tiles (issue 36): with live tiles given, the velocity moves
        // only on the faces with a cell of a live tile on either side, and the others keep
        // their velocity. Every tile live gives the bytes of no tiles at all; with some live,
        // a first-order or cubic step's live faces are the full step's (each face is one
        // trace through the old velocity) and every other face is the old one.
        const int n = is3D ? 40 : 64;
        const Domain d = openTopRoom(n, is3D);
        const Int3 cells = d.cells;
        const FlagGrid solids = obstacle ? plumeSphere(d) : FlagGrid(cells);
        const MacGrid vel0 = swirl(d, 3.f);
        const AdvectionOrder order = orderOf(mode);
        const plume::test::TilePattern tiles(cells);
        auto run = [&](const std::uint8_t *live) {
            Advector adv;
            adv.setup(d, solids);
            adv.setLiveTiles(live);
            Workspace work;
            MacGrid v = vel0;
            adv.advectVelocity(v, 0.5f, order, work);
            return v;
        };
        const MacGrid full = run(nullptr), allLive = run(tiles.all.data()),
                      part = run(tiles.some.data());
        for (int a = 0; a < d.dimensions(); ++a)
            QVERIFY(allLive.component(a).identical(full.component(a)));
        const bool exactInside = order == AdvectionOrder::SemiLagrangian
                                 || order == AdvectionOrder::MonotoneCubic;
        int live = 0, dead = 0;
        for (int a = 0; a < d.dimensions(); ++a) {
            const ScalarGrid &got = part.component(a), &old = vel0.component(a),
                             &whole = full.component(a);
            const Int3 size = got.size();
            for (int k = 0; k < size.z; ++k)
                for (int j = 0; j < size.y; ++j)
                    for (int i = 0; i < size.x; ++i) {
                        Int3 hi{i, j, k}, lo{i, j, k};
                        hi[a] = std::min(hi[a], cells[a] - 1);
                        lo[a] = std::max(lo[a] - 1, 0);
                        const std::size_t at = got.index(i, j, k);
                        if (tiles.live(lo) || tiles.live(hi)) {
                            ++live;
                            if (exactInside)
                                QCOMPARE(got[at], whole[at]);
                        } else {
                            ++dead;
                            QCOMPARE(got[at], old[at]);
                        }
                    }
        }
        QVERIFY(live > 0 && dead > 0);
        QVERIFY(!part.u.identical(vel0.u)); // the live faces did move
    }

    void skippingEmptyKeepsTheBytes_data() { addModeObstacleRows(); }

    void skippingEmptyKeepsTheBytes()
    {
        QFETCH(int, mode);
        QFETCH(bool, is3D);
        QFETCH(bool, obstacle);
        // Two small bumps of smoke (and a lone -0 and a lone 1e-20 far from them) in a flow of
        // up to 4.5 cells per step, walls, an open top and, in some rows, the plume's sphere:
        // skipping the stretches where every value within reach is zero (the default) must
        // give the bytes of computing every sample, alone and in groups, over six steps, as
        // the smoke spreads.
        const int n = is3D ? 40 : 128;
        const Domain d = openTopRoom(n, is3D);
        const Int3 cells = d.cells;
        const FlagGrid solids = obstacle ? plumeSphere(d) : FlagGrid(cells);
        const MacGrid vel0 = swirl(d, 3.f);
        const float z = 0.5f * float(cells.z);
        ScalarGrid a0(cells, kCellCentre), b0(cells, kCellCentre);
        fillAt(a0, [&](Vec3 p) { return bump(p, {0.3f * n, 0.2f * n, z}, 0.08f * n, is3D); });
        fillAt(b0, [&](Vec3 p) { return bump(p, {0.7f * n, 0.3f * n, z}, 0.06f * n, is3D); });
        a0(n - 3, n - 5, cells.z - 1) = -0.f;
        b0(2, n - 4, 0) = 1e-20f;
        const AdvectionOrder order = orderOf(mode);
        auto run = [&](bool skip, ScalarGrid &a, ScalarGrid &b, ScalarGrid &c) {
            Advector adv;
            adv.setup(d, solids);
            adv.setSkipEmpty(skip);
            Workspace work;
            a = a0;
            b = b0;
            c = a0;
            ScalarGrid *pair[] = {&a, &b};
            for (int s = 0; s < 6; ++s) {
                adv.advectScalars(pair, vel0, 1.f, order, work); // moved together
                adv.advectScalar(c, vel0, 1.f, order, work);     // alone
            }
        };
        ScalarGrid a, b, c, fullA, fullB, fullC;
        run(false, fullA, fullB, fullC);
        run(true, a, b, c);
        QVERIFY(!fullA.identical(a0) && total(fullA) > 0.5 * total(a0));
        QVERIFY(a.identical(fullA));
        QVERIFY(b.identical(fullB));
        QVERIFY(c.identical(fullC));
    }

    void advectScalarsMatchesOneByOne_data()
    {
        addModeColumns();
        QTest::addColumn<int>("fields");
        for (bool is3D : {false, true})
            for (int mode : {SemiLagrangian, MacCormack, Bfecc, Cubic})
                for (int fields : {1, 2, 5})
                    QTest::newRow(qPrintable(QString("%1 %2 %3 fields")
                                                 .arg(is3D ? "3D" : "2D")
                                                 .arg(toString(orderOf(mode)))
                                                 .arg(fields)))
                        << mode << is3D << fields;
    }

    void advectScalarsMatchesOneByOne()
    {
        QFETCH(int, mode);
        QFETCH(bool, is3D);
        QFETCH(int, fields);
        // The plume's sphere obstacle (radius 0.12 of the box at (0.5, 0.55, 0.5)), walls and an
        // open top, a flow of up to 3.5 cells per step: samples take the plain, clear and exact
        // paths. Moving the fields together must give each the bytes of its own advectScalar
        // call, serially and with any thread count; a grid of the wrong size stays untouched.
        const int n = is3D ? plume::test::fullOrUnderTsan(32, 20)
                           : plume::test::fullOrUnderTsan(96, 48);
        const Domain d = openTopRoom(n, is3D);
        const Int3 cells = d.cells;
        const FlagGrid solids = plumeSphere(d);
        const MacGrid vel0 = swirl(d, 2.f);
        std::vector<ScalarGrid> q0(std::size_t(fields), ScalarGrid(cells, kCellCentre));
        for (int m = 0; m < fields; ++m)
            fillAt(q0[std::size_t(m)], [&](Vec3 p) {
                return solids.isSolid(int(p.x), int(p.y), int(p.z))
                           ? 0.f
                           : hash01(std::uint32_t(p.x * 7 + p.y * 131 + p.z * 2731 + m * 7919));
            });
        Advector a;
        a.setup(d, solids);
        const AdvectionOrder order = orderOf(mode);
        auto run = [&](bool together, std::vector<ScalarGrid> &q) {
            Workspace work;
            MacGrid vel = vel0;
            q = q0;
            ScalarGrid misfit(Int3{3, 3, 1}, kCellCentre, 7.f);
            std::vector<ScalarGrid *> list;
            for (ScalarGrid &g : q)
                list.push_back(&g);
            list.insert(list.begin() + 1, &misfit);
            for (int s = 0; s < 3; ++s) {
                if (together) {
                    a.advectScalars(list, vel, 1.f, order, work);
                } else {
                    for (ScalarGrid &g : q)
                        a.advectScalar(g, vel, 1.f, order, work);
                }
                a.advectVelocity(vel, 1.f, order, work);
            }
            QVERIFY(misfit.identical(ScalarGrid(Int3{3, 3, 1}, kCellCentre, 7.f)));
        };
        std::vector<ScalarGrid> expected;
        {
            SerialScope scope;
            run(false, expected);
        }
        for (int m = 0; m < fields; ++m)
            QVERIFY(!expected[std::size_t(m)].identical(q0[std::size_t(m)]));
        for (int threads : {0, 1, 2, 4}) {
            std::vector<ScalarGrid> q;
            if (threads == 0) {
                SerialScope scope;
                run(true, q);
            } else {
                oneapi::tbb::task_arena arena(threads);
                arena.execute([&] { run(true, q); });
            }
            for (int m = 0; m < fields; ++m)
                QVERIFY2(q[std::size_t(m)].identical(expected[std::size_t(m)]),
                         qPrintable(QString("field %1, %2 threads").arg(m).arg(threads)));
        }
    }

    void serialEqualsParallel_data()
    {
        addModeColumns();
        QTest::addColumn<bool>("obstacles");
        for (bool is3D : {false, true})
            for (int mode : {SemiLagrangian, MacCormack, Bfecc, Accounting, Cubic})
                for (bool obstacles : {false, true})
                    QTest::newRow(qPrintable(
                        QString("%1 %2%3")
                            .arg(is3D ? "3D" : "2D")
                            .arg(mode == Accounting ? "accounting" : toString(orderOf(mode)))
                            .arg(obstacles ? " obstacles" : "")))
                        << mode << is3D << obstacles;
    }

    void serialEqualsParallel()
    {
        QFETCH(int, mode);
        QFETCH(bool, is3D);
        QFETCH(bool, obstacles);
        // Large enough for many rows and several scatter blocks (reach 3 slabs, blocks >= 6).
        const Int3 cells = is3D ? Int3{20, 18, 40} : Int3{96, 80, 1};
        Domain d = makeDomain(cells, Boundary::Wall);
        d.boundaries[int(Face::YMin)] = d.boundaries[int(Face::YMax)] = Boundary::Periodic;
        d.boundaries[int(Face::XMax)] = Boundary::Open;
        FlagGrid solids(cells);
        if (obstacles)
            for (int k = 0; k < cells.z; ++k)
                for (int j = 0; j < cells.y; ++j)
                    for (int i = 0; i < cells.x; ++i)
                        solids.setSolid(i, j, k,
                                        hash01(std::uint32_t(i + 97 * j + 9973 * k)) < 0.08f);
        MacGrid vel0(cells);
        fillVelocity(vel0, [&](Vec3 p) {
            return Vec3{1.4f * std::sin(0.31f * p.x + 0.7f * p.y),
                        1.1f * std::cos(0.23f * p.y - 0.4f * p.z),
                        is3D ? 0.9f * std::sin(0.37f * p.z + 0.2f * p.x) : 0.f};
        });
        ScalarGrid q0(cells, kCellCentre);
        fillAt(q0, [&](Vec3 p) { return hash01(std::uint32_t(p.x * 7 + p.y * 131 + p.z * 2731)); });
        Advector a;
        a.setup(d, solids);
        auto run = [&](ScalarGrid &q, MacGrid &vel) {
            Workspace work;
            q = q0;
            vel = vel0;
            for (int s = 0; s < 3; ++s) {
                advect(a, q, vel, 1.f, mode, work);
                if (mode != Accounting)
                    a.advectVelocity(vel, 1.f, orderOf(mode), work);
            }
        };
        ScalarGrid serialQ;
        MacGrid serialVel;
        {
            SerialScope scope;
            run(serialQ, serialVel);
        }
        QVERIFY(!serialQ.identical(q0));
        for (int threads : {1, 2, 4}) {
            oneapi::tbb::task_arena arena(threads);
            ScalarGrid q;
            MacGrid vel;
            arena.execute([&] { run(q, vel); });
            QVERIFY(q.identical(serialQ));
            QVERIFY(vel.u.identical(serialVel.u));
            QVERIFY(vel.v.identical(serialVel.v));
            QVERIFY(vel.w.identical(serialVel.w));
        }
    }
};

QTEST_GUILESS_MAIN(TestSimAdvection)
#include "tst_sim_advection.moc"
