// SPDX-License-Identifier: Apache-2.0
// The composite pressure solve of the sparse smoke scheme (core/sim/sparse/compositepressure.h):
// with every tile active it is the dense solve; with some, it leaves every composite cell
// divergence-free, its operator is symmetric positive (semi)definite, pockets and open faces
// behave as in the dense solve, and the result does not depend on the thread count.
#include <core/sim/base/domain.h>
#include <core/sim/base/grid.h>
#include <core/sim/base/parallel.h>
#include <core/sim/base/params.h>
#include <core/sim/base/workspace.h>
#include <core/sim/ops/boundaryconditions.h>
#include <core/sim/ops/pressure.h>
#include <core/sim/sparse/compositepressure.h>

#include <oneapi/tbb/task_arena.h>

#include <QtTest>

#include <array>
#include <cmath>
#include <cstring>

using namespace plume::sim;

namespace {

float noise(std::uint64_t n, std::uint32_t seed)
{
    std::uint64_t h = (n + 1) * 0x9E3779B97F4A7C15ull ^ (std::uint64_t(seed) << 32);
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 32;
    return float(h % 2000003) / 1000001.5f - 1.f;
}

Domain makeDomain(Int3 cells, Boundaries b)
{
    Domain d;
    d.cells = cells;
    d.cellSize = 1.f / float(cells.y);
    d.boundaries = b;
    return d;
}

Boundaries openTop()
{
    Boundaries b = allBoundaries(Boundary::Wall);
    b[int(Face::YMax)] = Boundary::Open;
    return b;
}

// A ball of solid cells (a disc in 2D) at `centre` (cells) of radius r.
FlagGrid ball(const Domain &d, Vec3 centre, float r)
{
    FlagGrid f(d.cells);
    for (int k = 0; k < d.cells.z; ++k)
        for (int j = 0; j < d.cells.y; ++j)
            for (int i = 0; i < d.cells.x; ++i) {
                const float dx = float(i) + 0.5f - centre.x, dy = float(j) + 0.5f - centre.y;
                const float dz = d.is2D() ? 0.f : float(k) + 0.5f - centre.z;
                f.setSolid(i, j, k, dx * dx + dy * dy + dz * dz < r * r);
            }
    return f;
}

MacGrid randomVelocity(const Domain &d, const FlagGrid &solids, std::uint32_t seed)
{
    MacGrid v(d.cells);
    for (int a = 0; a < (d.is2D() ? 2 : 3); ++a) {
        ScalarGrid &c = v.component(a);
        for (std::size_t n = 0; n < c.count(); ++n)
            c[n] = noise(n, seed + std::uint32_t(a));
    }
    enforceVelocityBoundaries(v, solids.size() == d.cells ? solids : FlagGrid(d.cells), d);
    return v;
}

std::vector<std::uint8_t> tilesWhere(const Domain &d, auto &&pick)
{
    const int T = CompositeGrid::kTile;
    const Int3 tiles{d.cells.x / T, d.cells.y / T, d.is2D() ? 1 : d.cells.z / T};
    std::vector<std::uint8_t> active(std::size_t(tiles.volume()), 0);
    for (int k = 0; k < tiles.z; ++k)
        for (int j = 0; j < tiles.y; ++j)
            for (int i = 0; i < tiles.x; ++i)
                active[std::size_t(i + tiles.x * (j + tiles.y * k))] = pick(Int3{i, j, k}) ? 1 : 0;
    return active;
}

double maxAbs(const std::vector<float> &v, const std::vector<std::uint8_t> *skip = nullptr)
{
    double m = 0.0;
    for (std::size_t n = 0; n < v.size(); ++n)
        if (!skip || !(*skip)[n])
            m = std::max(m, double(std::fabs(v[n])));
    return m;
}

double dot(const std::vector<float> &a, const std::vector<float> &b)
{
    double s = 0.0;
    for (std::size_t n = 0; n < a.size(); ++n)
        s += double(a[n]) * double(b[n]);
    return s;
}

PressureSettings tight()
{
    PressureSettings s;
    s.tolerance = 1e-6;
    s.maxIterations = 400;
    return s;
}

// A centred blob of active tiles (radius in tiles) and the levels around it.
std::vector<std::uint8_t> blobLevels(const Domain &d, float radius)
{
    const int T = CompositeGrid::kTile;
    const Vec3 c{float(d.cells.x / T) / 2.f, float(d.cells.y / T) / 3.f,
                 d.is2D() ? 0.5f : float(d.cells.z / T) / 2.f};
    const auto active = tilesWhere(d, [&](Int3 t) {
        const float dx = float(t.x) + 0.5f - c.x, dy = float(t.y) + 0.5f - c.y;
        const float dz = d.is2D() ? 0.f : float(t.z) + 0.5f - c.z;
        return dx * dx + dy * dy + dz * dz <= radius * radius;
    });
    return CompositeGrid::levelsAround(d, active);
}

// toMac as it was written first (session 22), face by face along the rows of the fine grid:
// runs of fine-tile faces copied, every other face looked up with at() or interpolated between
// the coarse faces below and above it. The tile-by-tile toMac must give these bytes.
MacGrid toMacFaceByFace(const CompositeFaces &faces, const CompositeGrid &g)
{
    MacGrid mac(g.domain.cells);
    const int T = CompositeGrid::kTile;
    for (int a = 0; a < g.dims; ++a) {
        ScalarGrid &dst = mac.component(a);
        const Int3 n = dst.size();
        for (int k = 0; k < n.z; ++k)
            for (int j = 0; j < n.y; ++j)
                for (int i = 0; i < n.x; ++i) {
                    const Int3 f{i, j, k};
                    if (i % T == 0 && i + T <= g.domain.cells.x && f[a] < g.domain.cells[a]) {
                        const Int3 tc{i / T, j / T, g.dims == 3 ? k / T : 0};
                        const std::size_t t = g.tileIndex(tc);
                        if (g.level[t] == 0) {
                            for (int x = 0; x < T; ++x)
                                dst(i + x, j, k) = faces.value[std::size_t(a)][faces.face(
                                    g, t, a, {x, j - tc.y * T, g.dims == 3 ? k - tc.z * T : 0})];
                            i += T - 1;
                            continue;
                        }
                    }
                    if (const float *v = faces.at(g, a, f)) {
                        dst(i, j, k) = *v;
                        continue;
                    }
                    const Int3 tc{i / T, j / T, g.dims == 3 ? k / T : 0};
                    const int s = g.scale(g.tileIndex(tc));
                    const int r = (f[a] - tc[a] * T) % s;
                    Int3 lo = f, hi = f;
                    lo[a] -= r;
                    hi[a] += s - r;
                    const float *vl = faces.at(g, a, lo);
                    const float *vh = faces.at(g, a, hi);
                    const float w = float(r) / float(s);
                    dst(i, j, k) = (vl ? *vl : 0.f) * (1.f - w) + (vh ? *vh : 0.f) * w;
                }
    }
    return mac;
}

} // namespace

class TestSimComposite : public QObject
{
    Q_OBJECT

private slots:
    void levelsStepByOne_data();
    void levelsStepByOne();
    void facesKeepFluxes();
    void toMacAsFaceByFace_data();
    void toMacAsFaceByFace();
    void allActiveIsTheDenseSolve_data();
    void allActiveIsTheDenseSolve();
    void expansionAsTheDenseSolve();
    void operatorIsSymmetricPositive_data();
    void operatorIsSymmetricPositive();
    void compositeIsDivergenceFree_data();
    void compositeIsDivergenceFree();
    void closedRoomAndPocket();
    void openFaceAsTheDenseSolve();
    void threadCountIndependent();
};

void TestSimComposite::levelsStepByOne_data()
{
    QTest::addColumn<Int3>("cells");
    QTest::addColumn<bool>("periodic");
    QTest::newRow("2D") << Int3{96, 64, 1} << false;
    QTest::newRow("3D") << Int3{64, 72, 56} << false;
    QTest::newRow("3D periodic x") << Int3{64, 48, 48} << true;
}

// Levels are the Chebyshev distance in tiles to the active ones, capped, so face neighbours
// differ by at most one level; across a periodic side too.
void TestSimComposite::levelsStepByOne()
{
    QFETCH(Int3, cells);
    QFETCH(bool, periodic);
    Boundaries b = allBoundaries(Boundary::Wall);
    if (periodic)
        b[int(Face::XMin)] = b[int(Face::XMax)] = Boundary::Periodic;
    const Domain d = makeDomain(cells, b);
    const auto active = tilesWhere(d, [](Int3 t) { return t.x == 0 && t.y == 2 && t.z <= 1; });
    const auto levels = CompositeGrid::levelsAround(d, active);
    CompositeGrid g;
    g.build(d, levels, FlagGrid());
    for (std::size_t t = 0; t < g.tileCount(); ++t) {
        const Int3 c = g.tileOf(t);
        // Distance to the nearest active tile, by brute force.
        int best = 99;
        for (std::size_t u = 0; u < active.size(); ++u) {
            if (!active[u])
                continue;
            const Int3 a = g.tileOf(u);
            int dist = 0;
            for (int ax = 0; ax < d.dimensions(); ++ax) {
                int gap = std::abs(a[ax] - c[ax]);
                if (periodic && ax == 0)
                    gap = std::min(gap, g.tiles.x - gap);
                dist = std::max(dist, gap);
            }
            best = std::min(best, dist);
        }
        QCOMPARE(int(levels[t]), std::min(best, CompositeGrid::kLevels - 1));
        for (int side = 0; side < 2 * d.dimensions(); ++side) {
            const std::int32_t n = g.neighbours[t * 6 + std::size_t(side)];
            if (n >= 0)
                QVERIFY(std::abs(int(levels[t]) - int(levels[std::size_t(n)])) <= 1);
        }
    }
    if (periodic) // the active tiles at x = 0 make the last column level 1 across the side
        QCOMPARE(int(levels[g.tileIndex({g.tiles.x - 1, 2, 0})]), 1);
}

// fromMac keeps every fine face of a fine tile and the flux through every coarse face; toMac
// gives the fine tiles' faces back exactly.
void TestSimComposite::facesKeepFluxes()
{
    const Domain d = makeDomain({32, 32, 32}, openTop());
    const auto levels = blobLevels(d, 0.8f);
    CompositeGrid g;
    g.build(d, levels, FlagGrid());
    const MacGrid mac = randomVelocity(d, FlagGrid(), 7);
    CompositeFaces f;
    f.fromMac(g, mac);
    MacGrid back;
    f.toMac(g, back);
    int fineFaces = 0;
    for (int a = 0; a < 3; ++a) {
        const ScalarGrid &src = mac.component(a);
        const ScalarGrid &dst = back.component(a);
        for (int k = 0; k < d.cells.z; ++k)
            for (int j = 0; j < d.cells.y; ++j)
                for (int i = 0; i < d.cells.x; ++i) {
                    const std::size_t t = g.tileIndex({i / 8, j / 8, k / 8});
                    if (g.level[t] != 0)
                        continue;
                    QCOMPARE(dst(i, j, k), src(i, j, k));
                    ++fineFaces;
                }
    }
    QVERIFY(fineFaces > 0);
    // A coarse face holds the mean of the fine faces it covers: the same flux.
    for (std::size_t t = 0; t < g.tileCount(); ++t) {
        if (g.level[t] != 2)
            continue;
        const Int3 o{g.tileOf(t).x * 8, g.tileOf(t).y * 8, g.tileOf(t).z * 8};
        double fine = 0.0;
        for (int k = 0; k < 4; ++k)
            for (int j = 0; j < 4; ++j)
                fine += mac.u(o.x + 4, o.y + j, o.z + k);
        const float coarse = *f.at(g, 0, {o.x + 4, o.y, o.z});
        QVERIFY(std::fabs(coarse * 16.0 - fine) < 1e-4);
        break;
    }
}

void TestSimComposite::toMacAsFaceByFace_data()
{
    QTest::addColumn<Int3>("cells");
    QTest::addColumn<bool>("periodic");
    QTest::addColumn<float>("radius");
    QTest::newRow("2D") << Int3{96, 64, 1} << false << 1.5f;
    QTest::newRow("3D") << Int3{64, 72, 56} << false << 1.2f;
    QTest::newRow("3D periodic x") << Int3{96, 48, 48} << true << 1.f;
    QTest::newRow("3D all coarse") << Int3{48, 48, 48} << false << 0.f;
}

// toMac, tile by tile, gives every face the bytes of the face-by-face definition: fine tiles'
// faces, coarse faces, faces inside coarse cells interpolated (also where the face above
// belongs to the next tile, at another level), the domain's high layers, a periodic side.
void TestSimComposite::toMacAsFaceByFace()
{
    QFETCH(Int3, cells);
    QFETCH(bool, periodic);
    QFETCH(float, radius);
    Boundaries b = openTop();
    if (periodic)
        b[int(Face::XMin)] = b[int(Face::XMax)] = Boundary::Periodic;
    const Domain d = makeDomain(cells, b);
    const auto levels = blobLevels(d, radius);
    CompositeGrid g;
    g.build(d, levels, FlagGrid());
    CompositeFaces f;
    f.fromMac(g, randomVelocity(d, FlagGrid(), 11));
    MacGrid tiled;
    f.toMac(g, tiled);
    const MacGrid expected = toMacFaceByFace(f, g);
    for (int a = 0; a < d.dimensions(); ++a)
        QVERIFY2(tiled.component(a).identical(expected.component(a)),
                 qPrintable(QString("axis %1").arg(a)));
    // Fine tiles beside coarse ones of two levels or more; without active tiles, every tile at
    // the coarsest level (one cell).
    std::array<int, CompositeGrid::kLevels> perLevel{};
    for (std::uint8_t l : levels)
        ++perLevel[l];
    if (radius > 0.f)
        QVERIFY(perLevel[0] > 0 && perLevel[1] > 0 && perLevel[2] > 0);
    else
        QCOMPARE(perLevel[CompositeGrid::kLevels - 1], int(levels.size()));
}

void TestSimComposite::allActiveIsTheDenseSolve_data()
{
    QTest::addColumn<Int3>("cells");
    QTest::addColumn<int>("layout"); // 0: walls, open top, a ball; 1: closed room; 2: periodic x
    QTest::newRow("2D open top, disc") << Int3{64, 48, 1} << 0;
    QTest::newRow("2D closed room") << Int3{32, 32, 1} << 1;
    QTest::newRow("3D open top, ball") << Int3{32, 40, 24} << 0;
    QTest::newRow("3D closed room") << Int3{24, 24, 24} << 1;
    QTest::newRow("3D periodic x") << Int3{32, 24, 24} << 2;
}

// Every tile active: the composite operator is the dense 7-point (5-point) Laplacian, so the
// projected velocity is the dense solve's to the solver tolerance.
void TestSimComposite::allActiveIsTheDenseSolve()
{
    QFETCH(Int3, cells);
    QFETCH(int, layout);
    Boundaries b = layout == 0 ? openTop() : allBoundaries(Boundary::Wall);
    if (layout == 2)
        b[int(Face::XMin)] = b[int(Face::XMax)] = Boundary::Periodic;
    const Domain d = makeDomain(cells, b);
    const FlagGrid solids = layout == 0
                                ? ball(d, {cells.x * 0.5f, cells.y * 0.4f, cells.z * 0.5f}, 5.f)
                                : FlagGrid(cells);
    MacGrid dense = randomVelocity(d, solids, 11);
    CompositeGrid probe;
    const std::vector<std::uint8_t> levels(std::size_t((cells.x / 8) * (cells.y / 8)
                                                       * (d.is2D() ? 1 : cells.z / 8)),
                                           0);
    CompositePressure cp;
    cp.setup(d, levels, solids);
    CompositeFaces faces;
    faces.fromMac(cp.grid(), dense);

    const float dt = 0.01f;
    PressureSolver ps;
    ps.setup(d, solids);
    ScalarGrid p;
    Workspace work;
    const SolveResult rd = ps.project(dense, p, dt, tight(), work);
    QVERIFY(rd.converged);

    std::vector<float> pressure;
    const SolveResult rc = cp.project(faces, pressure, dt, tight());
    QVERIFY2(rc.converged,
             qPrintable(QString("residual %1 after %2").arg(rc.residual).arg(rc.iterations)));
    qInfo("%d iterations (the dense solve: %d)", rc.iterations, rd.iterations);
    QVERIFY(rc.iterations < 100);
    MacGrid composite;
    faces.toMac(cp.grid(), composite);
    double worst = 0.0;
    for (int a = 0; a < d.dimensions(); ++a)
        for (std::size_t n = 0; n < dense.component(a).count(); ++n)
            worst = std::max(worst,
                             double(std::fabs(dense.component(a)[n] - composite.component(a)[n])));
    // Both solves stop at a relative residual of 1e-6 of an O(1) field.
    QVERIFY2(worst < 2e-4, qPrintable(QString("max velocity difference %1").arg(worst)));
}

// A divergence target (burning gas expanding) is met as in the dense solve: with every tile
// active, the same velocity; with part of them, every composite cell's divergence is its target.
void TestSimComposite::expansionAsTheDenseSolve()
{
    const Domain d = makeDomain({32, 32, 32}, openTop());
    const FlagGrid none(d.cells);
    ScalarGrid target(d.cells, kCellCentre, 0.f);
    for (int k = 12; k < 20; ++k)
        for (int j = 6; j < 14; ++j)
            for (int i = 12; i < 20; ++i)
                target(i, j, k) = 5.f;
    const float dt = 0.02f;
    MacGrid dense = randomVelocity(d, none, 4);
    CompositePressure all;
    all.setup(d, std::vector<std::uint8_t>(64, 0), none);
    CompositeFaces faces;
    faces.fromMac(all.grid(), dense);
    std::vector<float> cellTarget(target.count());
    for (std::size_t t = 0; t < all.grid().tileCount(); ++t) { // the composite numbering
        const Int3 o{all.grid().tileOf(t).x * 8, all.grid().tileOf(t).y * 8,
                     all.grid().tileOf(t).z * 8};
        for (int k = 0; k < 8; ++k)
            for (int j = 0; j < 8; ++j)
                for (int i = 0; i < 8; ++i)
                    cellTarget[all.grid().cell(t, {i, j, k})] = target(o.x + i, o.y + j, o.z + k);
    }
    PressureSolver ps;
    ps.setup(d, none);
    ScalarGrid p;
    Workspace work;
    QVERIFY(ps.project(dense, p, dt, tight(), work, &target).converged);
    std::vector<float> pressure;
    QVERIFY(all.project(faces, pressure, dt, tight(), &cellTarget).converged);
    MacGrid composite;
    faces.toMac(all.grid(), composite);
    double worst = 0.0;
    for (int a = 0; a < 3; ++a)
        for (std::size_t n = 0; n < dense.component(a).count(); ++n)
            worst = std::max(worst,
                             double(std::fabs(dense.component(a)[n] - composite.component(a)[n])));
    QVERIFY2(worst < 2e-4, qPrintable(QString("max velocity difference %1").arg(worst)));

    // Part of the tiles: D(u) / h equals the target on every cell (the flux over h).
    CompositePressure part;
    const auto levels = CompositeGrid::levelsAround(d, tilesWhere(d, [](Int3 t) {
                                                        return t.x >= 1 && t.x <= 2 && t.z >= 1
                                                               && t.z <= 2 && t.y <= 1;
                                                    }));
    part.setup(d, levels, none);
    faces.fromMac(part.grid(), randomVelocity(d, none, 4));
    std::vector<float> partTarget(part.grid().cellCount(), 0.f);
    for (std::size_t t = 0; t < part.grid().tileCount(); ++t) {
        if (part.grid().level[t] != 0)
            continue;
        const Int3 o{part.grid().tileOf(t).x * 8, part.grid().tileOf(t).y * 8,
                     part.grid().tileOf(t).z * 8};
        for (int k = 0; k < 8; ++k)
            for (int j = 0; j < 8; ++j)
                for (int i = 0; i < 8; ++i)
                    partTarget[part.grid().cell(t, {i, j, k})] = target(o.x + i, o.y + j, o.z + k);
    }
    pressure.clear();
    QVERIFY(part.project(faces, pressure, dt, tight(), &partTarget).converged);
    std::vector<float> b;
    part.divergence(faces, b);
    double off = 0.0;
    for (std::size_t c = 0; c < b.size(); ++c) // b = -D(u): D(u) / h should be the target
        off = std::max(off, double(std::fabs(-b[c] / d.cellSize - partTarget[c])));
    QVERIFY2(off < 1e-3 * 5.f / d.cellSize, qPrintable(QString("max |div - target| %1").arg(off)));
}

void TestSimComposite::operatorIsSymmetricPositive_data()
{
    QTest::addColumn<Int3>("cells");
    QTest::newRow("2D") << Int3{64, 64, 1};
    QTest::newRow("3D") << Int3{48, 48, 48};
}

// A = G^T W G and the V-cycle are symmetric, and positive on vectors off the null space.
void TestSimComposite::operatorIsSymmetricPositive()
{
    QFETCH(Int3, cells);
    const Domain d = makeDomain(cells, openTop());
    const FlagGrid solids = ball(d, {cells.x * 0.3f, cells.y * 0.5f, cells.z * 0.5f}, 6.f);
    CompositePressure cp;
    cp.setup(d, blobLevels(d, 1.2f), solids);
    const std::size_t n = cp.grid().cellCount();
    std::vector<float> x(n), y(n), ax, ay;
    for (std::size_t c = 0; c < n; ++c) {
        x[c] = cp.grid().solid[c] ? 0.f : noise(c, 1);
        y[c] = cp.grid().solid[c] ? 0.f : noise(c, 2);
    }
    cp.apply(x, ax);
    cp.apply(y, ay);
    const double xay = dot(x, ay), yax = dot(y, ax);
    QVERIFY2(std::fabs(xay - yax) <= 1e-5 * std::fabs(xay) + 1e-3,
             qPrintable(QString("x.Ay %1, y.Ax %2").arg(xay).arg(yax)));
    QVERIFY(dot(x, ax) > 0.0);
    std::vector<float> mx, my;
    cp.precondition(x, mx);
    cp.precondition(y, my);
    const double xmy = dot(x, my), ymx = dot(y, mx);
    QVERIFY2(std::fabs(xmy - ymx) <= 1e-4 * std::fabs(xmy) + 1e-4,
             qPrintable(QString("x.My %1, y.Mx %2").arg(xmy).arg(ymx)));
    QVERIFY(dot(x, mx) > 0.0);
}

void TestSimComposite::compositeIsDivergenceFree_data()
{
    QTest::addColumn<Int3>("cells");
    QTest::addColumn<float>("radius");
    QTest::newRow("2D") << Int3{128, 96, 1} << 2.f;
    QTest::newRow("3D") << Int3{64, 64, 64} << 1.5f;
    QTest::newRow("3D no active tile") << Int3{32, 32, 32} << 0.f;
}

// With part of the tiles active, every fluid cell of the composite grid ends divergence-free to
// the tolerance, in a similar number of iterations as the dense solve.
void TestSimComposite::compositeIsDivergenceFree()
{
    QFETCH(Int3, cells);
    QFETCH(float, radius);
    const Domain d = makeDomain(cells, openTop());
    const FlagGrid solids = ball(d, {cells.x * 0.6f, cells.y * 0.6f, cells.z * 0.5f}, 5.f);
    CompositePressure cp;
    cp.setup(d, blobLevels(d, radius), solids);
    CompositeFaces faces;
    faces.fromMac(cp.grid(), randomVelocity(d, solids, 5));
    std::vector<float> b0, b1, pressure;
    cp.divergence(faces, b0);
    const SolveResult r = cp.project(faces, pressure, 0.02f, tight());
    QVERIFY2(r.converged,
             qPrintable(QString("residual %1 after %2").arg(r.residual).arg(r.iterations)));
    qInfo("%d iterations, %d levels above the tile grid, %zu composite cells of %lld", r.iterations,
          cp.levels(), cp.grid().cellCount(), (long long)d.cellCount());
    QVERIFY2(r.iterations < 60, qPrintable(QString("%1 iterations").arg(r.iterations)));
    cp.divergence(faces, b1);
    const double before = maxAbs(b0), after = maxAbs(b1);
    QVERIFY2(after <= 1e-5 * before,
             qPrintable(QString("max |div| %1 of %2").arg(after).arg(before)));
}

// A closed room is singular (one pocket); a sealed hollow inside it is a second pocket. Both end
// divergence-free, and the pressure is mean-free in each.
void TestSimComposite::closedRoomAndPocket()
{
    const Domain d = makeDomain({48, 48, 48}, allBoundaries(Boundary::Wall));
    FlagGrid solids(d.cells);
    for (int k = 14; k < 34; ++k)
        for (int j = 14; j < 34; ++j)
            for (int i = 14; i < 34; ++i) {
                const bool shell = i < 16 || i >= 32 || j < 16 || j >= 32 || k < 16 || k >= 32;
                solids.setSolid(i, j, k, shell);
            }
    CompositePressure cp;
    cp.setup(d, blobLevels(d, 1.f), solids);
    QCOMPARE(cp.pockets(), 2);
    CompositeFaces faces;
    faces.fromMac(cp.grid(), randomVelocity(d, solids, 9));
    std::vector<float> b0, b1, pressure;
    cp.divergence(faces, b0);
    const SolveResult r = cp.project(faces, pressure, 0.02f, tight());
    QVERIFY(r.converged);
    cp.divergence(faces, b1);
    // A closed region cannot lose its net flux: what is left is its mean, spread by volume.
    double net = 0.0, worst = 0.0;
    for (float v : b1)
        net += v;
    for (float v : b1)
        worst = std::max(worst, double(std::fabs(v)));
    QVERIFY2(worst <= 1e-4 * maxAbs(b0) + 1e-6, qPrintable(QString("max |div| %1").arg(worst)));
    QVERIFY(std::fabs(net) < 1e-3);
}

// An upward jet under an open top: the composite solve, with fine tiles around the jet and
// coarse cells elsewhere, gives the fine tiles nearly the dense solve's velocity: the room's
// walls push back through the coarse cells, and the open top lets the flow out.
void TestSimComposite::openFaceAsTheDenseSolve()
{
    const Domain d = makeDomain({48, 48, 48}, openTop());
    MacGrid jet(d.cells);
    for (int k = 0; k < 48; ++k)
        for (int j = 0; j <= 48; ++j)
            for (int i = 0; i < 48; ++i) {
                const float dx = float(i) + 0.5f - 24.f, dz = float(k) + 0.5f - 24.f;
                if (dx * dx + dz * dz < 16.f && j > 4)
                    jet.v(i, j, k) = 1.f;
            }
    const FlagGrid none(d.cells);
    const auto active = tilesWhere(d, [](Int3 t) {
        return t.x >= 2 && t.x <= 3 && t.z >= 2 && t.z <= 3 && t.y <= 4;
    });
    CompositePressure cp;
    cp.setup(d, CompositeGrid::levelsAround(d, active), none);
    CompositeFaces faces;
    faces.fromMac(cp.grid(), jet);
    std::vector<float> pressure;
    QVERIFY(cp.project(faces, pressure, 0.02f, tight()).converged);
    MacGrid composite;
    faces.toMac(cp.grid(), composite);

    PressureSolver ps;
    ps.setup(d, none);
    ScalarGrid p;
    Workspace work;
    MacGrid dense = jet;
    QVERIFY(ps.project(dense, p, 0.02f, tight(), work).converged);

    // Over the fine tiles: the relative L2 difference of v, and the flux through the top.
    double diff = 0.0, norm = 0.0;
    for (int k = 16; k < 32; ++k)
        for (int j = 0; j < 40; ++j)
            for (int i = 16; i < 32; ++i) {
                const double e = composite.v(i, j, k) - dense.v(i, j, k);
                diff += e * e;
                norm += double(dense.v(i, j, k)) * dense.v(i, j, k);
            }
    const double rel = std::sqrt(diff / norm);
    // What leaves through the open top (it comes back in around the jet).
    double topDense = 0.0, topComposite = 0.0;
    for (int k = 0; k < 48; ++k)
        for (int i = 0; i < 48; ++i) {
            topDense += std::max(0.f, dense.v(i, 48, k));
            topComposite += std::max(0.f, composite.v(i, 48, k));
        }
    qInfo("jet: relative L2 difference over the fine tiles %.4f; flux out of the top %.3f dense, "
          "%.3f composite",
          rel, topDense, topComposite);
    QVERIFY2(rel < 0.05, qPrintable(QString("relative L2 %1").arg(rel)));
    QVERIFY(std::fabs(topComposite - topDense) <= 0.02 * std::fabs(topDense) + 1e-3);
}

// Serial and parallel runs give the same bytes.
void TestSimComposite::threadCountIndependent()
{
    const Domain d = makeDomain({64, 64, 64}, openTop());
    const FlagGrid solids = ball(d, {30.f, 40.f, 30.f}, 7.f);
    const auto levels = blobLevels(d, 1.6f);
    auto run = [&](bool serial) {
        CompositePressure cp;
        CompositeFaces faces;
        std::vector<float> pressure;
        auto body = [&] {
            cp.setup(d, levels, solids);
            faces.fromMac(cp.grid(), randomVelocity(d, solids, 3));
            cp.project(faces, pressure, 0.02f, tight());
        };
        if (serial) {
            SerialScope scope;
            body();
        } else {
            tbb::task_arena arena(4);
            arena.execute(body);
        }
        return std::make_pair(faces, pressure);
    };
    const auto [fs, ps] = run(true);
    const auto [fp, pp] = run(false);
    QVERIFY(ps.size() == pp.size() && std::memcmp(ps.data(), pp.data(), ps.size() * 4) == 0);
    for (int a = 0; a < 3; ++a)
        QVERIFY(fs.value[a].size() == fp.value[a].size()
                && std::memcmp(fs.value[a].data(), fp.value[a].data(), fs.value[a].size() * 4)
                       == 0);
}

QTEST_GUILESS_MAIN(TestSimComposite)
#include "tst_sim_composite.moc"
