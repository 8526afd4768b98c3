// SPDX-License-Identifier: Apache-2.0
// Evenly spaced streamlines (render/streamlines.h): a uniform flow gives straight parallel lines
// d_sep apart across the whole domain, a solid-body rotation gives closed circles, no two lines
// come closer than d_test, lines stay out of solids, and the result is repeatable.
#include <core/render/streamlines.h>

#include <QElapsedTimer>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <functional>

using namespace plume;
using sim::Vec3;

namespace {

struct Field
{
    sim::Domain domain;
    sim::ScalarGrid u;
    sim::ScalarGrid v;
    sim::FlagGrid solids;
};

/// An n x n unit domain with velocity f(world x, world y) at each cell centre.
Field makeField(int n, const std::function<Vec3(float, float)> &f)
{
    Field out;
    out.domain.cells = {n, n, 1};
    out.domain.cellSize = 1.f / float(n);
    out.u.reshape(out.domain.cells, sim::kCellCentre);
    out.v.reshape(out.domain.cells, sim::kCellCentre);
    out.solids.reshape(out.domain.cells);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            const Vec3 c = out.domain.cellCentre(i, j, 0);
            const Vec3 w = f(c.x, c.y);
            out.u(i, j, 0) = w.x;
            out.v(i, j, 0) = w.y;
        }
    return out;
}

float distance2D(Vec3 a, Vec3 b) { return std::hypot(a.x - b.x, a.y - b.y); }

/// The smallest distance between points of different lines.
float closestBetweenLines(const std::vector<Streamline> &lines)
{
    float best = 1e30f;
    for (std::size_t a = 0; a < lines.size(); ++a)
        for (std::size_t b = a + 1; b < lines.size(); ++b)
            for (const Vec3 &p : lines[a].points)
                for (const Vec3 &q : lines[b].points)
                    best = std::min(best, distance2D(p, q));
    return best;
}

} // namespace

class TestStreamlines : public QObject
{
    Q_OBJECT

private slots:
    // Flow along +x: every line is horizontal, crosses the domain, and neighbours are d_sep
    // apart; speeds are the flow's.
    void uniformFlowGivesParallelLines()
    {
        const int n = 64;
        const Field f = makeField(n, [](float, float) { return Vec3{0.5f, 0.f, 0.f}; });
        StreamlineOptions o;
        o.separation = 4.f;
        const std::vector<Streamline> lines = computeStreamlines(f.u, f.v, nullptr, f.domain, o);
        QCOMPARE(int(lines.size()), n / 4);
        const float h = f.domain.cellSize;
        std::vector<float> ys;
        for (const Streamline &l : lines) {
            QVERIFY(!l.closed);
            QCOMPARE(l.points.size(), l.speeds.size());
            const float y = l.points.front().y;
            for (std::size_t k = 0; k < l.points.size(); ++k) {
                QVERIFY(std::abs(l.points[k].y - y) < 1e-4f);
                QVERIFY(std::abs(l.speeds[k] - 0.5f) < 1e-5f);
                if (k > 0) // in flow order, one step of arc apart
                    QVERIFY(std::abs(l.points[k].x - l.points[k - 1].x - o.step * h) < 1e-4f);
            }
            QVERIFY2(l.points.front().x < 0.5f * h && l.points.back().x > 1.f - 0.5f * h,
                     qPrintable(
                         QString("%1 .. %2").arg(l.points.front().x).arg(l.points.back().x)));
            ys.push_back(y);
        }
        std::sort(ys.begin(), ys.end());
        for (std::size_t k = 1; k < ys.size(); ++k)
            QVERIFY2(std::abs((ys[k] - ys[k - 1]) / h - o.separation) < 0.01f,
                     qPrintable(QString::number((ys[k] - ys[k - 1]) / h)));
    }

    // Rotation about the centre: the lines that fit inside the domain are closed circles, their
    // last point the first, every point at the circle's radius.
    void rotationGivesClosedCircles()
    {
        const int n = 64;
        const Field f = makeField(n, [](float x, float y) {
            return Vec3{-(y - 0.5f), x - 0.5f, 0.f};
        });
        StreamlineOptions o;
        o.separation = 4.f;
        const std::vector<Streamline> lines = computeStreamlines(f.u, f.v, nullptr, f.domain, o);
        const float h = f.domain.cellSize;
        int circles = 0;
        for (const Streamline &l : lines) {
            const float r0 = distance2D(l.points.front(), {0.5f, 0.5f, 0.f});
            if (r0 > 0.5f - 2.f * h)
                continue; // reaches the domain's edge: an arc
            QVERIFY2(l.closed, qPrintable(QString("radius %1 cells").arg(r0 / h)));
            QCOMPARE(l.points.front(), l.points.back());
            for (const Vec3 &p : l.points)
                QVERIFY2(std::abs(distance2D(p, {0.5f, 0.5f, 0.f}) - r0) < 0.05f * h,
                         qPrintable(QString("radius %1 vs %2 cells")
                                        .arg(distance2D(p, {0.5f, 0.5f, 0.f}) / h)
                                        .arg(r0 / h)));
            ++circles;
        }
        // Circles d_sep apart from the centre out to the edge: about 32 / 4 of them.
        QVERIFY2(circles >= 6, qPrintable(QString::number(circles)));
    }

    // No point of one line within d_test of a point of another, in a flow with a vortex, a
    // shear and a sink.
    void linesKeepDTestApart()
    {
        const Field f = makeField(96, [](float x, float y) {
            const float dx = x - 0.35f, dy = y - 0.6f;
            return Vec3{-dy + 0.3f * y - 0.2f * dx, dx + 0.1f * std::sin(6.f * x) - 0.2f * dy, 0.f};
        });
        StreamlineOptions o;
        o.separation = 5.f;
        const std::vector<Streamline> lines = computeStreamlines(f.u, f.v, nullptr, f.domain, o);
        QVERIFY(lines.size() > 10);
        const float dTest = o.separation * o.testRatio * f.domain.cellSize;
        const float closest = closestBetweenLines(lines);
        QVERIFY2(closest >= dTest * 0.999f, qPrintable(QString("%1 < %2").arg(closest).arg(dTest)));
    }

    // A solid disc in a uniform flow: no point in a solid cell; lines pass above and below it
    // and the region behind it is reached too.
    void linesStayOutOfSolids()
    {
        const int n = 64;
        Field f = makeField(n, [](float, float) { return Vec3{1.f, 0.f, 0.f}; });
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) {
                const Vec3 c = f.domain.cellCentre(i, j, 0);
                if (std::hypot(c.x - 0.4f, c.y - 0.5f) < 0.15f) {
                    f.solids.setSolid(i, j, 0, true);
                    f.u(i, j, 0) = 0.f;
                    f.v(i, j, 0) = 0.f;
                }
            }
        StreamlineOptions o;
        o.separation = 3.f;
        const std::vector<Streamline> lines = computeStreamlines(f.u, f.v, &f.solids, f.domain, o);
        int points = 0;
        bool behind = false;
        for (const Streamline &l : lines)
            for (const Vec3 &p : l.points) {
                const Vec3 c = f.domain.toCell(p);
                const int i = std::clamp(int(std::floor(c.x)), 0, n - 1);
                const int j = std::clamp(int(std::floor(c.y)), 0, n - 1);
                QVERIFY2(!f.solids.isSolid(i, j, 0), qPrintable(QString("%1 %2").arg(i).arg(j)));
                behind = behind || (std::abs(p.y - 0.5f) < 0.05f && p.x > 0.6f);
                ++points;
            }
        QVERIFY(points > 1000);
        QVERIFY(behind);
        // With solids as without: d_test holds.
        QVERIFY(closestBetweenLines(lines)
                >= o.separation * o.testRatio * f.domain.cellSize * 0.999f);
    }

    // Still water, mismatched grids and bad options give no lines (and no crash); the same
    // input gives the same lines twice.
    void edgeCasesAndRepeatable()
    {
        const Field still = makeField(32, [](float, float) { return Vec3{}; });
        QVERIFY(computeStreamlines(still.u, still.v, nullptr, still.domain).empty());
        const Field f = makeField(32, [](float x, float y) { return Vec3{y, -x, 0.f}; });
        sim::Domain other = f.domain;
        other.cells = {16, 16, 1};
        QVERIFY(computeStreamlines(f.u, f.v, nullptr, other).empty());
        StreamlineOptions bad;
        bad.separation = 0.f;
        QVERIFY(computeStreamlines(f.u, f.v, nullptr, f.domain, bad).empty());
        bad = {};
        bad.step = std::nanf("");
        QVERIFY(computeStreamlines(f.u, f.v, nullptr, f.domain, bad).empty());
        const auto a = computeStreamlines(f.u, f.v, nullptr, f.domain);
        const auto b = computeStreamlines(f.u, f.v, nullptr, f.domain);
        QVERIFY(!a.empty());
        QCOMPARE(a.size(), b.size());
        for (std::size_t l = 0; l < a.size(); ++l) {
            QVERIFY(a[l].points == b[l].points);
            QVERIFY(a[l].speeds == b[l].speeds);
        }
    }
};

QTEST_APPLESS_MAIN(TestStreamlines)
#include "tst_streamlines.moc"
