// SPDX-License-Identifier: Apache-2.0
// The plume's integrals (core/sim/run/plumeintegrals.h) on fields with exact answers, and the
// comparison of a run with an ensemble of runs.
#include <core/sim/base/parallel.h>
#include <core/sim/run/plumeintegrals.h>

#include <oneapi/tbb/task_arena.h>

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

using namespace plume::sim;

namespace {

/// |a - b| within 1e-12 of the larger magnitude (or of 1 near zero).
bool near(double a, double b)
{
    return std::abs(a - b) <= 1e-12 * std::max({1.0, std::abs(a), std::abs(b)});
}

#define COMPARE_NEAR(actual, expected)                                                             \
    do {                                                                                           \
        const double a_ = (actual), e_ = (expected);                                               \
        if (!near(a_, e_))                                                                         \
            QFAIL(qPrintable(QStringLiteral("%1 is %2, expected %3")                               \
                                 .arg(#actual)                                                     \
                                 .arg(a_, 0, 'g', 17)                                              \
                                 .arg(e_, 0, 'g', 17)));                                           \
    } while (false)

/// An 8 x 10 x 6 domain of cells 0.5 wide whose low corner is (1, -2, 3).
Domain testDomain()
{
    Domain d;
    d.cells = {8, 10, 6};
    d.cellSize = 0.5f;
    d.origin = {1.f, -2.f, 3.f};
    return d;
}

/// World centre of cell n along an axis of the test domain.
double centreOf(const Domain &d, int axis, int n)
{
    return d.origin[axis] + (n + 0.5) * d.cellSize;
}

/// Density `value` in the rows [j0, j1] of every column.
ScalarGrid slab(const Domain &d, int j0, int j1, float value)
{
    ScalarGrid g(d.cells, kCellCentre);
    for (int k = 0; k < d.cells.z; ++k)
        for (int j = j0; j <= j1; ++j)
            for (int i = 0; i < d.cells.x; ++i)
                g(i, j, k) = value;
    return g;
}

/// A plume-ish field whose sums depend on the order of the additions.
ScalarGrid roughField(Int3 cells)
{
    ScalarGrid g(cells, kCellCentre);
    for (std::size_t n = 0; n < g.count(); ++n)
        g[n] = float((n * 2654435761u) % 1000003) * 1e-6f;
    return g;
}

/// Integrals with only the scalars a test needs set.
PlumeIntegrals withTotal(double total)
{
    PlumeIntegrals p;
    p.totalSmoke = total;
    p.profile = {1.0, 0.0};
    return p;
}

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof(double)) == 0; }

} // namespace

class TestSimIntegrals : public QObject
{
    Q_OBJECT

private slots:
    /// Density 2 in rows 3-5 of every column: the slab's volume, middle and width.
    void uniformSlab()
    {
        const Domain d = testDomain();
        const double h = d.cellSize, volume = h * h * h;
        const PlumeIntegrals p = densityIntegrals(d, slab(d, 3, 5, 2.f));
        COMPARE_NEAR(p.totalSmoke, 2.0 * 8 * 6 * 3 * volume);
        // The highest row holding smoke is 5; above it nothing: the line from S_5 at y_5 to 0
        // at y_5 + h falls to 1e-3 S_5 at y_5 + h (1 - 1e-3).
        COMPARE_NEAR(p.frontHeight, centreOf(d, 1, 5) + h * (1 - kFrontFraction));
        COMPARE_NEAR(p.centroid[0], 1.0 + 0.5 * 8 * h);
        COMPARE_NEAR(p.centroid[1], centreOf(d, 1, 4));
        COMPARE_NEAR(p.centroid[2], 3.0 + 0.5 * 6 * h);
        // Variance of n evenly spaced centres: h^2 (n^2 - 1) / 12; x has 8, z has 6.
        COMPARE_NEAR(p.spread, h * std::sqrt(0.5 * (63.0 + 35.0) / 12.0));
        QCOMPARE(p.profile.size(), std::size_t(10));
        for (int j = 0; j < 10; ++j)
            COMPARE_NEAR(p.profile[std::size_t(j)], j >= 3 && j <= 5 ? 1.0 / 3.0 : 0.0);
        QCOMPARE(p.kineticEnergy, 0.0);
    }

    /// One cell: its own centre, no spread, the profile all in its row.
    void singleCell()
    {
        const Domain d = testDomain();
        const double h = d.cellSize;
        ScalarGrid g(d.cells, kCellCentre);
        g(2, 7, 1) = 5.f;
        const PlumeIntegrals p = densityIntegrals(d, g);
        COMPARE_NEAR(p.totalSmoke, 5.0 * h * h * h);
        COMPARE_NEAR(p.centroid[0], centreOf(d, 0, 2));
        COMPARE_NEAR(p.centroid[1], centreOf(d, 1, 7));
        COMPARE_NEAR(p.centroid[2], centreOf(d, 2, 1));
        COMPARE_NEAR(p.spread, 0.0);
        COMPARE_NEAR(p.frontHeight, centreOf(d, 1, 7) + h * (1 - kFrontFraction));
        for (int j = 0; j < 10; ++j)
            COMPARE_NEAR(p.profile[std::size_t(j)], j == 7 ? 1.0 : 0.0);

        // In the top row the front would lie above the domain: it stops at the top.
        ScalarGrid top(d.cells, kCellCentre);
        top(2, 9, 1) = 5.f;
        COMPARE_NEAR(densityIntegrals(d, top).frontHeight, -2.0 + 10 * h);
    }

    /// A thin slab above the front: below the threshold, it only tilts the interpolation.
    void frontInterpolates()
    {
        const Domain d = testDomain();
        const double h = d.cellSize;
        ScalarGrid g = slab(d, 2, 2, 1.f);
        for (int k = 0; k < d.cells.z; ++k)
            for (int i = 0; i < d.cells.x; ++i)
                g(i, 3, k) = 4e-4f;
        const double above = double(4e-4f);
        const double expected = centreOf(d, 1, 2) + h * (1.0 - kFrontFraction) / (1.0 - above);
        COMPARE_NEAR(densityIntegrals(d, g).frontHeight, expected);
        // Above the threshold, the front moves up a row.
        for (int k = 0; k < d.cells.z; ++k)
            for (int i = 0; i < d.cells.x; ++i)
                g(i, 3, k) = 0.5f;
        COMPARE_NEAR(densityIntegrals(d, g).frontHeight,
                     centreOf(d, 1, 3) + h * (0.5 - kFrontFraction) / 0.5);
    }

    /// No smoke: zeros, the bottom and the domain's centre.
    void empty()
    {
        const Domain d = testDomain();
        const PlumeIntegrals p = densityIntegrals(d, ScalarGrid(d.cells, kCellCentre));
        QCOMPARE(p.totalSmoke, 0.0);
        QCOMPARE(p.frontHeight, -2.0);
        QCOMPARE(p.spread, 0.0);
        COMPARE_NEAR(p.centroid[1], -2.0 + 0.5 * 10 * d.cellSize);
        QCOMPARE(p.profile, std::vector<double>(10, 0.0));
    }

    /// In 2D the spread is the x spread alone (z is one cell).
    void spreadIn2D()
    {
        Domain d;
        d.cells = {10, 4, 1};
        d.cellSize = 0.25f;
        ScalarGrid g(d.cells, kCellCentre);
        g(2, 1, 0) = 1.f;
        g(6, 1, 0) = 3.f;
        const PlumeIntegrals p = densityIntegrals(d, g);
        // x: 0.625 (weight 1) and 1.625 (weight 3): mean 1.375, variance 0.1875.
        COMPARE_NEAR(p.centroid[0], 1.375);
        COMPARE_NEAR(p.spread, std::sqrt(0.1875));
    }

    /// u = 2 on every x-face, v = j on the y-face j: centres (2, j + 1/2, 0).
    void knownVelocity()
    {
        const Domain d = testDomain();
        MacGrid m(d.cells);
        m.u.fill(2.f);
        for (int k = 0; k < d.cells.z; ++k)
            for (int j = 0; j <= d.cells.y; ++j)
                for (int i = 0; i < d.cells.x; ++i)
                    m.v(i, j, k) = float(j);
        const double volume = 0.125;
        double rows = 0;
        for (int j = 0; j < 10; ++j)
            rows += 4.0 + (j + 0.5) * (j + 0.5);
        COMPARE_NEAR(kineticEnergy(m, d.cellSize), 0.5 * volume * 8 * 6 * rows);
        // A box: rows 2-3, 3 columns by 2 slabs.
        const CellBox box{{1, 2, 4}, {4, 4, 6}};
        COMPARE_NEAR(kineticEnergy(m, d.cellSize, box),
                     0.5 * volume * 3 * 2 * (4.0 + 2.5 * 2.5 + 4.0 + 3.5 * 3.5));
        // w counts too: w = 1 on every z-face adds 0.5 h^3 per cell.
        m.w.fill(1.f);
        COMPARE_NEAR(plumeIntegrals(d, slab(d, 0, 0, 1.f), m).kineticEnergy,
                     0.5 * volume * 8 * 6 * (rows + 10));
        // 2D: no w grid.
        MacGrid flat(Int3{3, 2, 1});
        flat.u.fill(-1.f);
        COMPARE_NEAR(kineticEnergy(flat, 2.f), 0.5 * 8 * 6);
    }

    /// The same bits with any number of threads.
    void threadIndependent()
    {
        Domain d;
        d.cells = {37, 29, 23};
        d.cellSize = 0.03f;
        const ScalarGrid g = roughField(d.cells);
        MacGrid m(d.cells);
        for (int a = 0; a < 3; ++a) {
            ScalarGrid &c = m.component(a);
            for (std::size_t n = 0; n < c.count(); ++n)
                c[n] = float((n * 40503u + 7 * a) % 9973) * 1e-3f - 5.f;
        }
        PlumeIntegrals serial;
        {
            SerialScope scope;
            serial = plumeIntegrals(d, g, m);
        }
        for (int threads : {1, 2, 3, 8}) {
            oneapi::tbb::task_arena arena(threads);
            PlumeIntegrals p;
            arena.execute([&] { p = plumeIntegrals(d, g, m); });
            QVERIFY(sameBits(p.totalSmoke, serial.totalSmoke));
            QVERIFY(sameBits(p.frontHeight, serial.frontHeight));
            for (int a = 0; a < 3; ++a)
                QVERIFY(sameBits(p.centroid[std::size_t(a)], serial.centroid[std::size_t(a)]));
            QVERIFY(sameBits(p.spread, serial.spread));
            QVERIFY(sameBits(p.kineticEnergy, serial.kineticEnergy));
            QCOMPARE(std::memcmp(p.profile.data(), serial.profile.data(),
                                 p.profile.size() * sizeof(double)),
                     0);
        }
    }

    /// A scalar's interval: the range widened by the range on each side, plus the floor.
    void scalarInterval_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<bool>("inside");
        // Members 10 and 11: range 1, floor 1e-3 x 10.5: [8.9895, 12.0105].
        QTest::newRow("inside the range") << 10.5 << true;
        QTest::newRow("within the widening") << 12.0 << true;
        QTest::newRow("within the floor") << 12.01 << true;
        QTest::newRow("above") << 12.011 << false;
        QTest::newRow("below") << 8.989 << false;
        QTest::newRow("not a number") << std::nan("") << false;
    }
    void scalarInterval()
    {
        QFETCH(double, value);
        QFETCH(bool, inside);
        const Domain d = testDomain();
        const std::vector<PlumeIntegrals> members = {withTotal(10), withTotal(11)};
        const FrameCheck c = checkFrame(d, members, withTotal(value));
        const IntegralCheck &t = c[Integral::TotalSmoke];
        QCOMPARE(t.min, 10.0);
        QCOMPARE(t.max, 11.0);
        COMPARE_NEAR(t.low, 10.0 - 1.0 - 0.0105);
        COMPARE_NEAR(t.high, 11.0 + 1.0 + 0.0105);
        QCOMPARE(t.inside, inside);
        QCOMPARE(c.inside(), inside);
    }

    /// Members that agree leave only the floor: 1e-3 of the domain's height for the front.
    void vanishingRangeKeepsTheFloor()
    {
        const Domain d = testDomain(); // 5 units high
        std::vector<PlumeIntegrals> members(3, withTotal(1));
        for (PlumeIntegrals &m : members)
            m.frontHeight = 0.5;
        PlumeIntegrals c = withTotal(1);
        c.frontHeight = 0.5 + 0.0049;
        QVERIFY(checkFrame(d, members, c)[Integral::FrontHeight].inside);
        c.frontHeight = 0.5 + 0.0051;
        QVERIFY(!checkFrame(d, members, c)[Integral::FrontHeight].inside);
        QVERIFY(!checkFrame(d, members, c).inside());
    }

    /// The profile: leave-one-out distances of the members bound the candidate's.
    void profileDistance()
    {
        const Domain d = testDomain();
        std::vector<PlumeIntegrals> members(3, withTotal(1));
        members[0].profile = {1.0, 0.0};
        members[1].profile = {0.9, 0.1};
        members[2].profile = {0.8, 0.2};
        // Leave-one-out distances 0.3, 0 and 0.3: the bound is 2 x 0.3 + 1e-3.
        PlumeIntegrals c = withTotal(1);
        c.profile = {0.6, 0.4}; // 0.6 from the mean (0.9, 0.1)
        const IntegralCheck inside = checkFrame(d, members, c)[Integral::Profile];
        COMPARE_NEAR(inside.min, 0.0);
        COMPARE_NEAR(inside.max, 0.3);
        COMPARE_NEAR(inside.high, 0.601);
        COMPARE_NEAR(inside.value, 0.6);
        QVERIFY(inside.inside);
        c.profile = {0.55, 0.45};
        QVERIFY(!checkFrame(d, members, c)[Integral::Profile].inside);
    }

    /// Only frames 24-96 count; too few members compare nothing.
    void frameWindow()
    {
        const Domain d = testDomain();
        const std::vector<std::vector<PlumeIntegrals>> members = {
            std::vector<PlumeIntegrals>(30, withTotal(10)),
            std::vector<PlumeIntegrals>(30, withTotal(11))};
        std::vector<PlumeIntegrals> candidate(30, withTotal(10.5));
        EnsembleVerdict v = compareWithEnsemble(d, members, candidate);
        QCOMPARE(v.frames.size(), std::size_t(7));
        QCOMPARE(v.frames.front().frame, 24);
        QVERIFY(v.inside());
        candidate[22] = withTotal(20); // frame 23: not compared
        QVERIFY(compareWithEnsemble(d, members, candidate).inside());
        candidate[29] = withTotal(20); // frame 30
        candidate[29].profile = {0.0, 1.0};
        v = compareWithEnsemble(d, members, candidate);
        QCOMPARE(v.outside, 2);
        QVERIFY(!v.frames.back().inside());
        QVERIFY(v.frames.front().inside());
        QVERIFY(!v.inside());
        // A shorter candidate: only the frames it reaches.
        candidate.resize(25);
        QCOMPARE(compareWithEnsemble(d, members, candidate).frames.size(), std::size_t(2));
        const std::vector<std::vector<PlumeIntegrals>> one = {members[0]};
        QVERIFY(compareWithEnsemble(d, one, candidate).frames.empty());
        QVERIFY(!compareWithEnsemble(d, one, candidate).inside());
    }
};

QTEST_GUILESS_MAIN(TestSimIntegrals)
#include "tst_sim_integrals.moc"
