// SPDX-License-Identifier: Apache-2.0
#include <core/sim/base/domain.h>
#include <core/sim/base/grid.h>
#include <core/sim/base/parallel.h>
#include <core/sim/sparse/activetiles.h>

#include <oneapi/tbb/task_arena.h>

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

using namespace plume::sim;

namespace {

constexpr int kTile = TileGrid::kTile;

/// Deterministic pseudo-random value in [0, 1) from an index and a seed.
float noise(std::uint64_t n, std::uint32_t seed)
{
    std::uint64_t h = (n + 1) * 0x9E3779B97F4A7C15ull ^ (std::uint64_t(seed) << 32);
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 32;
    return float(h % 1000003) / 1000003.f;
}

Domain makeDomain(Int3 cells, Boundaries b = allBoundaries(Boundary::Wall))
{
    Domain d;
    d.cells = cells;
    d.cellSize = 0.1f;
    d.boundaries = b;
    return d;
}

/// Walls, with periodic x.
Boundaries periodicX()
{
    Boundaries b = allBoundaries(Boundary::Wall);
    b[int(Face::XMin)] = b[int(Face::XMax)] = Boundary::Periodic;
    return b;
}

/// One seed box in the tile that holds its low corner, empty boxes elsewhere.
std::vector<CellBox> oneSeed(const TileGrid &g, CellBox box)
{
    std::vector<CellBox> seeds(g.count());
    const Int3 t{box.lo.x / kTile, box.lo.y / kTile, box.lo.z / kTile};
    seeds[g.index(t)] = box;
    return seeds;
}

/// The tile indices of the box of tiles [lo, hi] (inclusive), ascending.
std::vector<std::uint32_t> tilesIn(const TileGrid &g, Int3 lo, Int3 hi)
{
    std::vector<std::uint32_t> out;
    for (int k = lo.z; k <= hi.z; ++k)
        for (int j = lo.y; j <= hi.y; ++j)
            for (int i = lo.x; i <= hi.x; ++i)
                out.push_back(std::uint32_t(g.index({i, j, k})));
    std::sort(out.begin(), out.end());
    return out;
}

/// Distance along one axis from cell c to the cells [lo, hi), wrapping over n when periodic.
int axisDistance(int c, int lo, int hi, int n, bool periodic)
{
    int best = std::numeric_limits<int>::max();
    for (int shift : {-n, 0, n}) {
        if (shift != 0 && !periodic)
            continue;
        const int x = c + shift;
        const int d = x < lo ? lo - x : (x >= hi ? x - (hi - 1) : 0);
        best = std::min(best, d);
    }
    return best;
}

/// The needed tiles by brute force over cells: a tile is needed when one of its cells lies within
/// `padding` (Chebyshev, wrapping on periodic axes) of a seed box.
std::vector<std::uint32_t> neededByCells(const TileGrid &g, const std::vector<CellBox> &seeds,
                                         int padding)
{
    std::vector<std::uint32_t> out;
    for (std::size_t t = 0; t < g.count(); ++t) {
        const CellBox tile = g.cellsOf(t);
        bool needed = false;
        for (const CellBox &s : seeds) {
            if (s.empty())
                continue;
            for (int k = tile.lo.z; k < tile.hi.z && !needed; ++k)
                for (int j = tile.lo.y; j < tile.hi.y && !needed; ++j)
                    for (int i = tile.lo.x; i < tile.hi.x && !needed; ++i) {
                        const Int3 c{i, j, k};
                        int d = 0;
                        for (int a = 0; a < 3; ++a)
                            d = std::max(d, axisDistance(c[a], s.lo[a], s.hi[a], g.cells[a],
                                                         g.periodic[std::size_t(a)]));
                        needed = d <= padding;
                    }
        }
        if (needed)
            out.push_back(std::uint32_t(t));
    }
    return out;
}

} // namespace

Q_DECLARE_METATYPE(plume::sim::Int3)
Q_DECLARE_METATYPE(plume::sim::Boundaries)
Q_DECLARE_METATYPE(plume::sim::CellBox)
Q_DECLARE_METATYPE(std::vector<std::uint32_t>)

class TestSimTiles : public QObject
{
    Q_OBJECT

private slots:
    void tileGridGeometry_data()
    {
        QTest::addColumn<Int3>("cells");
        QTest::addColumn<Boundaries>("boundaries");
        QTest::addColumn<Int3>("tiles");
        QTest::addColumn<CellBox>("lastTile");
        QTest::newRow("3D even") << Int3{32, 16, 24} << allBoundaries(Boundary::Wall)
                                 << Int3{4, 2, 3} << CellBox{{24, 8, 16}, {32, 16, 24}};
        QTest::newRow("3D partial")
            << Int3{20, 16, 9} << periodicX() << Int3{3, 2, 2} << CellBox{{16, 8, 8}, {20, 16, 9}};
        QTest::newRow("2D partial") << Int3{17, 8, 1} << allBoundaries(Boundary::Periodic)
                                    << Int3{3, 1, 1} << CellBox{{16, 0, 0}, {17, 8, 1}};
    }

    void tileGridGeometry()
    {
        QFETCH(Int3, cells);
        QFETCH(Boundaries, boundaries);
        QFETCH(Int3, tiles);
        QFETCH(CellBox, lastTile);
        const TileGrid g = TileGrid::of(makeDomain(cells, boundaries));
        QCOMPARE(g.cells, cells);
        QCOMPARE(g.tiles, tiles);
        QCOMPARE(g.count(), std::size_t(tiles.volume()));
        for (int a = 0; a < 3; ++a)
            QCOMPARE(g.periodic[std::size_t(a)], boundaries[2 * a] == Boundary::Periodic);
        QCOMPARE(g.cellsOf(g.count() - 1), lastTile);
        QCOMPARE(g.cellsOf(0), (CellBox{{0, 0, 0},
                                        {std::min(kTile, cells.x), std::min(kTile, cells.y),
                                         std::min(kTile, cells.z)}}));
        // x fastest; tileOf inverts index; the tiles cover every cell once.
        QCOMPARE(g.index({1, 0, 0}), std::size_t(1));
        QCOMPARE(g.index({0, 1, 0}), std::size_t(tiles.x));
        std::vector<int> covered(std::size_t(cells.volume()), 0);
        for (std::size_t t = 0; t < g.count(); ++t) {
            QCOMPARE(g.index(g.tileOf(t)), t);
            const CellBox b = g.cellsOf(t);
            QVERIFY(!b.empty());
            for (int k = b.lo.z; k < b.hi.z; ++k)
                for (int j = b.lo.y; j < b.hi.y; ++j)
                    for (int i = b.lo.x; i < b.hi.x; ++i)
                        ++covered[std::size_t(i)
                                  + std::size_t(cells.x) * (j + std::size_t(cells.y) * k)];
        }
        QVERIFY(std::all_of(covered.begin(), covered.end(), [](int c) { return c == 1; }));
    }

    void seedBoxesOneCell_data()
    {
        QTest::addColumn<float>("value");
        QTest::addColumn<bool>("counts");
        QTest::newRow("above") << 0.5f << true;
        QTest::newRow("negative") << -0.5f << true;
        QTest::newRow("at threshold") << 0.25f << false;
        QTest::newRow("minus threshold") << -0.25f << false;
        QTest::newRow("just above") << std::nextafter(0.25f, 1.f) << true;
        QTest::newRow("NaN") << std::numeric_limits<float>::quiet_NaN() << false;
    }

    void seedBoxesOneCell()
    {
        QFETCH(float, value);
        QFETCH(bool, counts);
        const TileGrid g = TileGrid::of(makeDomain({20, 24, 19}));
        ScalarGrid f(g.cells, kCellCentre, 0.1f);
        f(10, 3, 17) = value;
        const ScalarGrid *fields[] = {&f};
        const std::vector<CellBox> boxes = seedBoxes(g, fields, 0.25f);
        QCOMPARE(boxes.size(), g.count());
        const std::size_t hit = g.index({1, 0, 2});
        for (std::size_t t = 0; t < g.count(); ++t) {
            if (t == hit && counts)
                QCOMPARE(boxes[t], (CellBox{{10, 3, 17}, {11, 4, 18}}));
            else
                QVERIFY2(boxes[t].empty(), qPrintable(QString::number(t)));
        }
    }

    void seedBoxesUniteFields()
    {
        // Two fields, one unallocated: the box spans both fields' cells in the tile.
        const TileGrid g = TileGrid::of(makeDomain({24, 16, 1}));
        ScalarGrid a(g.cells, kCellCentre), b(g.cells, kCellCentre), none;
        a(9, 2, 0) = 1.f;
        b(14, 6, 0) = -1.f;
        b(12, 1, 0) = 1.f;
        b(20, 12, 0) = 1.f; // another tile
        const ScalarGrid *fields[] = {&a, &none, &b};
        const std::vector<CellBox> boxes = seedBoxes(g, fields, 0.f);
        QCOMPARE(boxes[g.index({1, 0, 0})], (CellBox{{9, 1, 0}, {15, 7, 1}}));
        QCOMPARE(boxes[g.index({2, 1, 0})], (CellBox{{20, 12, 0}, {21, 13, 1}}));
        for (std::size_t t :
             {g.index({0, 0, 0}), g.index({2, 0, 0}), g.index({0, 1, 0}), g.index({1, 1, 0})})
            QVERIFY(boxes[t].empty());
    }

    void paddingAtTileCorner_data()
    {
        QTest::addColumn<int>("padding");
        QTest::addColumn<int>("lo"); // expected tiles [lo, hi] on each axis
        QTest::addColumn<int>("hi");
        QTest::newRow("0") << 0 << 3 << 3;
        QTest::newRow("1") << 1 << 3 << 4;
        QTest::newRow("8") << 8 << 2 << 4;
        QTest::newRow("10") << 10 << 2 << 5;
    }

    void paddingAtTileCorner()
    {
        // One cell at the high corner of tile (3, 3, 3) of a 64^3 box with walls.
        QFETCH(int, padding);
        QFETCH(int, lo);
        QFETCH(int, hi);
        const TileGrid g = TileGrid::of(makeDomain({64, 64, 64}));
        const std::vector<CellBox> seeds = oneSeed(g, {{31, 31, 31}, {32, 32, 32}});
        ActiveTiles tiles;
        tiles.reset(g);
        tiles.update(seeds, padding, {}, 0);
        QCOMPARE(tiles.list(), tilesIn(g, {lo, lo, lo}, {hi, hi, hi}));
        QCOMPARE(tiles.list(), neededByCells(g, seeds, padding));
        QCOMPARE(tiles.activeCells(), std::int64_t(tiles.list().size()) * kTile * kTile * kTile);
    }

    void paddingMatchesCellDistance()
    {
        // Random seed boxes on a grid with partial tiles and a periodic axis, against the
        // brute-force distance over cells.
        Boundaries b = periodicX();
        b[int(Face::ZMin)] = b[int(Face::ZMax)] = Boundary::Periodic;
        const TileGrid g = TileGrid::of(makeDomain({21, 13, 10}, b));
        for (int trial = 0; trial < 40; ++trial) {
            std::vector<CellBox> seeds(g.count());
            for (std::size_t t = 0; t < g.count(); ++t) {
                if (noise(t, 100 + trial) > 0.15f)
                    continue;
                const CellBox tile = g.cellsOf(t);
                CellBox s;
                for (int a = 0; a < 3; ++a) {
                    const int n = tile.hi[a] - tile.lo[a];
                    const int x0 = tile.lo[a] + int(noise(t * 3 + a, 200 + trial) * n);
                    const int x1 = tile.lo[a] + int(noise(t * 3 + a, 300 + trial) * n);
                    s.lo[a] = std::min(x0, x1);
                    s.hi[a] = std::max(x0, x1) + 1;
                }
                seeds[t] = s;
            }
            const int padding = trial % 12;
            ActiveTiles tiles;
            tiles.reset(g);
            tiles.update(seeds, padding, {}, 0);
            QVERIFY2(tiles.list() == neededByCells(g, seeds, padding),
                     qPrintable(QString("trial %1, padding %2").arg(trial).arg(padding)));
        }
    }

    void periodicWrap_data()
    {
        QTest::addColumn<Int3>("cells");
        QTest::addColumn<bool>("periodic");
        QTest::addColumn<int>("padding");
        QTest::addColumn<std::vector<std::uint32_t>>("expected");
        // 2D, 4 x 4 tiles; the seed cell (0, 12) is in tile (0, 1) = 4.
        QTest::newRow("walls") << Int3{32, 32, 1} << false << 1 << std::vector<std::uint32_t>{4};
        QTest::newRow("wraps to the last tile")
            << Int3{32, 32, 1} << true << 1 << std::vector<std::uint32_t>{4, 7};
        QTest::newRow("within the tile")
            << Int3{32, 32, 1} << true << 0 << std::vector<std::uint32_t>{4};
        // 20 cells along x: tiles 0-7, 8-15 and a partial 16-19; cell -1 is 19, in tile 2,
        // and padding 5 reaches back to cell 15 (tile 1) too.
        QTest::newRow("partial last tile")
            << Int3{20, 32, 1} << true << 1 << std::vector<std::uint32_t>{3, 5};
        QTest::newRow("partial, farther") << Int3{20, 32, 1} << true << 5
                                          << std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5, 6, 7, 8};
        QTest::newRow("wider than the domain")
            << Int3{20, 32, 1} << true << 12
            << std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    }

    void periodicWrap()
    {
        QFETCH(Int3, cells);
        QFETCH(bool, periodic);
        QFETCH(int, padding);
        QFETCH(std::vector<std::uint32_t>, expected);
        const TileGrid g = TileGrid::of(
            makeDomain(cells, periodic ? periodicX() : allBoundaries(Boundary::Wall)));
        const std::vector<CellBox> seeds = oneSeed(g, {{0, 12, 0}, {1, 13, 1}});
        ActiveTiles tiles;
        tiles.reset(g);
        tiles.update(seeds, padding, {}, 0);
        QCOMPARE(tiles.list(), expected);
        QCOMPARE(tiles.list(), neededByCells(g, seeds, padding));
    }

    void forcedBoxes()
    {
        // 2D, 4 x 4 tiles. Forced boxes are clipped, never padded, never wrapped.
        const TileGrid g = TileGrid::of(makeDomain({32, 32, 1}, allBoundaries(Boundary::Periodic)));
        ActiveTiles tiles;
        tiles.reset(g);
        const std::vector<CellBox> none(g.count());
        tiles.update(none, 10, {{{-5, -5, 0}, {9, 3, 1}}}, 0);
        QCOMPARE(tiles.list(), (std::vector<std::uint32_t>{0, 1}));
        tiles.update(none, 10, {{{40, 0, 0}, {50, 8, 1}}, CellBox{}, {{8, 8, 0}, {8, 16, 1}}}, 0);
        QVERIFY(tiles.list().empty());
        tiles.update(none, 0, {{{16, 16, -3}, {17, 24, 4}}, {{31, 31, 0}, {99, 99, 9}}}, 0);
        QCOMPARE(tiles.list(), (std::vector<std::uint32_t>{10, 15}));
        // Together with a seed: the union.
        tiles.update(oneSeed(g, {{0, 0, 0}, {1, 1, 1}}), 0, {{{31, 31, 0}, {32, 32, 1}}}, 0);
        QCOMPARE(tiles.list(), (std::vector<std::uint32_t>{0, 15}));
    }

    void lifetimeHysteresis_data()
    {
        QTest::addColumn<int>("lifetime");
        QTest::newRow("0") << 0;
        QTest::newRow("1") << 1;
        QTest::newRow("3") << 3;
    }

    void lifetimeHysteresis()
    {
        // Needed at step 0 only: active at steps 0..lifetime, then off.
        QFETCH(int, lifetime);
        const TileGrid g = TileGrid::of(makeDomain({16, 16, 16}));
        const std::size_t t = g.index({1, 0, 1});
        const std::vector<CellBox> seeds = oneSeed(g, {{9, 2, 9}, {10, 3, 10}});
        const std::vector<CellBox> none(g.count());
        ActiveTiles tiles;
        tiles.reset(g);
        QVERIFY(tiles.list().empty());
        QCOMPARE(tiles.timers(), std::vector<std::uint16_t>(g.count(), 0));
        for (int step = 0; step < lifetime + 4; ++step) {
            tiles.update(step == 0 ? seeds : none, 0, {}, lifetime);
            const bool expected = step <= lifetime;
            QVERIFY2(tiles.active(t) == expected, qPrintable(QString("step %1").arg(step)));
            QCOMPARE(tiles.list().size(), std::size_t(expected ? 1 : 0));
            QCOMPARE(int(tiles.timers()[t]), std::max(0, lifetime - step));
        }
        // Needed again: the timer starts over.
        tiles.update(none, 0, {}, lifetime);
        tiles.update(seeds, 0, {}, lifetime);
        QCOMPARE(int(tiles.timers()[t]), lifetime);
        QVERIFY(tiles.active(t));
    }

    void lifetimeRestartsWhileActive()
    {
        const TileGrid g = TileGrid::of(makeDomain({16, 16, 1}));
        const std::vector<CellBox> seeds = oneSeed(g, {{0, 0, 0}, {1, 1, 1}});
        const std::vector<CellBox> none(g.count());
        ActiveTiles tiles;
        tiles.reset(g);
        // Needed at steps 0 and 2, lifetime 2: active through step 4.
        const bool needed[] = {true, false, true, false, false, false, false};
        const bool expected[] = {true, true, true, true, true, false, false};
        for (int step = 0; step < 7; ++step) {
            tiles.update(needed[step] ? seeds : none, 0, {}, 2);
            QVERIFY2(tiles.active(0) == expected[step], qPrintable(QString::number(step)));
        }
    }

    void shareWithPartialTiles()
    {
        // 20 x 12 cells: tiles of 8 x 8, 8 x 8, 4 x 8 on the first row, 8 x 4, 8 x 4, 4 x 4 on the
        // second.
        const TileGrid g = TileGrid::of(makeDomain({20, 12, 1}));
        QCOMPARE(g.tiles, (Int3{3, 2, 1}));
        ActiveTiles tiles;
        tiles.reset(g);
        QCOMPARE(tiles.activeCells(), std::int64_t(0));
        QCOMPARE(tiles.share(), 0.0);
        const std::vector<CellBox> none(g.count());
        tiles.update(none, 0, {{{19, 11, 0}, {20, 12, 1}}}, 0);
        QCOMPARE(tiles.list(), (std::vector<std::uint32_t>{5}));
        QCOMPARE(tiles.activeCells(), std::int64_t(16));
        QCOMPARE(tiles.share(), 16.0 / 240.0);
        tiles.update(none, 0,
                     {{{0, 0, 0}, {1, 1, 1}}, {{17, 0, 0}, {18, 1, 1}}, {{19, 11, 0}, {20, 12, 1}}},
                     0);
        QCOMPARE(tiles.activeCells(), std::int64_t(64 + 32 + 16));
        QCOMPARE(tiles.share(), 112.0 / 240.0);
        tiles.update(none, 100, {{{0, 0, 0}, {20, 12, 1}}}, 0);
        QCOMPARE(tiles.activeCells(), std::int64_t(240));
        QCOMPARE(tiles.share(), 1.0);
        QVERIFY(tiles.memoryBytes() >= g.count() * 3);
    }

    void restoreRoundTrip()
    {
        const TileGrid g = TileGrid::of(makeDomain({40, 24, 17}, periodicX()));
        const std::vector<CellBox> a = oneSeed(g, {{3, 3, 3}, {6, 4, 5}});
        const std::vector<CellBox> b = oneSeed(g, {{33, 20, 16}, {34, 24, 17}});
        const std::vector<CellBox> none(g.count());
        ActiveTiles tiles;
        tiles.reset(g);
        tiles.update(a, 2, {}, 3);
        tiles.update(b, 4, {}, 3);
        tiles.update(none, 4, {{{20, 0, 0}, {21, 1, 1}}}, 0); // a tile active with timer 0

        ActiveTiles copy;
        const Status s = copy.restore(tiles.grid(), tiles.flags(), tiles.timers());
        QVERIFY2(s.ok(), s.error.c_str());
        QCOMPARE(copy.grid(), tiles.grid());
        QCOMPARE(copy.flags(), tiles.flags());
        QCOMPARE(copy.timers(), tiles.timers());
        QCOMPARE(copy.list(), tiles.list());
        QCOMPARE(copy.activeCells(), tiles.activeCells());
        for (int step = 0; step < 5; ++step) {
            const auto &seeds = step == 1 ? a : none;
            tiles.update(seeds, 3, {}, 3);
            copy.update(seeds, 3, {}, 3);
            QCOMPARE(copy.flags(), tiles.flags());
            QCOMPARE(copy.timers(), tiles.timers());
            QCOMPARE(copy.list(), tiles.list());
        }
    }

    void restoreRefuses_data()
    {
        QTest::addColumn<int>("fault");
        QTest::addColumn<QString>("message");
        QTest::newRow("few flags") << 0 << "11 flags for a grid of 12 tiles";
        QTest::newRow("many timers") << 1 << "13 timers for a grid of 12 tiles";
        QTest::newRow("flag 2") << 2 << "tile 5 has flag 2; it must be 0 or 1";
        QTest::newRow("timer on an inactive tile") << 3 << "tile 7 has timer 4 but is not active";
        QTest::newRow("tiles off the cells") << 4 << "3 tiles along y for 16 cells; expected 2";
        QTest::newRow("no cells") << 5 << "cell count along z is 0";
    }

    void restoreRefuses()
    {
        QFETCH(int, fault);
        QFETCH(QString, message);
        TileGrid g = TileGrid::of(makeDomain({20, 16, 9}));
        std::vector<std::uint8_t> flags(g.count(), 0);
        std::vector<std::uint16_t> timers(g.count(), 0);
        flags[3] = 1;
        timers[3] = 2;
        switch (fault) {
        case 0: flags.pop_back(); break;
        case 1: timers.push_back(0); break;
        case 2: flags[5] = 2; break;
        case 3: timers[7] = 4; break;
        case 4: g.tiles.y = 3; break;
        case 5: g.cells.z = 0; break;
        }
        // A state to keep: restore must leave it as it is when it refuses.
        const TileGrid kept = TileGrid::of(makeDomain({16, 16, 1}));
        ActiveTiles tiles;
        tiles.reset(kept);
        tiles.update(std::vector<CellBox>(kept.count()), 0, {{{0, 0, 0}, {1, 1, 1}}}, 2);
        const Status s = tiles.restore(g, flags, timers);
        QVERIFY(!s.ok());
        QVERIFY2(QString::fromStdString(s.error).contains(message), s.error.c_str());
        QCOMPARE(tiles.grid(), kept);
        QCOMPARE(tiles.list(), (std::vector<std::uint32_t>{0}));
        QCOMPARE(int(tiles.timers()[0]), 2);
    }

    void serialEqualsParallel()
    {
        // A sparse random field on a grid with partial tiles: the same seed boxes and the same
        // map serially and on 2 threads.
        const TileGrid g = TileGrid::of(makeDomain({45, 37, 29}, periodicX()));
        ScalarGrid density(g.cells, kCellCentre), temperature(g.cells, kCellCentre);
        for (std::size_t n = 0; n < density.count(); ++n) {
            const float r = noise(n, 1);
            density[n] = r > 0.995f ? r : 0.f;
            temperature[n] = noise(n, 2) > 0.998f ? -1.f : 0.0005f;
        }
        const ScalarGrid *fields[] = {&density, &temperature};
        const auto run = [&](std::vector<CellBox> &boxes, ActiveTiles &tiles) {
            boxes = seedBoxes(g, fields, 0.001f);
            tiles.reset(g);
            for (int step = 0; step < 3; ++step)
                tiles.update(step == 0 ? boxes : std::vector<CellBox>(g.count()), 2,
                             {{{10, 10, 10}, {12, 12, 12}}}, 1);
        };
        std::vector<CellBox> serialBoxes, parallelBoxes;
        ActiveTiles serial, parallel;
        {
            SerialScope scope;
            run(serialBoxes, serial);
        }
        oneapi::tbb::task_arena arena(2);
        arena.execute([&] { run(parallelBoxes, parallel); });
        QVERIFY(std::count_if(serialBoxes.begin(), serialBoxes.end(),
                              [](const CellBox &b) { return !b.empty(); })
                > 10);
        QVERIFY(serialBoxes == parallelBoxes);
        QCOMPARE(parallel.flags(), serial.flags());
        QCOMPARE(parallel.timers(), serial.timers());
        QCOMPARE(parallel.list(), serial.list());
    }
};

QTEST_GUILESS_MAIN(TestSimTiles)
#include "tst_sim_tiles.moc"
