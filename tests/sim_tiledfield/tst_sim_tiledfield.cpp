// SPDX-License-Identifier: Apache-2.0
#include <core/sim/base/domain.h>
#include <core/sim/base/grid.h>
#include <core/sim/base/parallel.h>
#include <core/sim/ops/advection.h>
#include <core/sim/sparse/activetiles.h>
#include <core/sim/sparse/tiledfield.h>

#include <oneapi/tbb/task_arena.h>

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <set>
#include <vector>

using namespace plume::sim;

namespace {

constexpr int kTile = TiledField::kTile;

/// Deterministic pseudo-random value in [0, 1) from an index and a seed.
float noise(std::uint64_t n, std::uint32_t seed)
{
    std::uint64_t h = (n + 1) * 0x9E3779B97F4A7C15ull ^ (std::uint64_t(seed) << 32);
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 32;
    return float(h % 1000003) / 1000003.f;
}

std::uint32_t bits(float v)
{
    std::uint32_t b;
    std::memcpy(&b, &v, sizeof b);
    return b;
}

Domain makeDomain(Int3 cells, Boundaries b = allBoundaries(Boundary::Wall))
{
    Domain d;
    d.cells = cells;
    d.cellSize = 0.1f;
    d.boundaries = b;
    return d;
}

/// Periodic along x and z (z only matters in 3D), walls on y.
Boundaries periodicXZ()
{
    Boundaries b = allBoundaries(Boundary::Wall);
    b[int(Face::XMin)] = b[int(Face::XMax)] = Boundary::Periodic;
    b[int(Face::ZMin)] = b[int(Face::ZMax)] = Boundary::Periodic;
    return b;
}

/// The samples and offset of a domain's cell field (axis -1) or face component `axis`.
Int3 samplesOf(const Domain &d, int axis)
{
    return axis < 0 ? d.cells : faceGridSize(d.cells, axis);
}
Vec3 offsetOf(int axis)
{
    const Vec3 offsets[] = {kFaceX, kFaceY, kFaceZ};
    return axis < 0 ? kCellCentre : offsets[axis];
}

/// A dense grid of pseudo-random values in [-1, 1).
ScalarGrid randomGrid(Int3 size, Vec3 offset, std::uint32_t seed)
{
    ScalarGrid g(size, offset);
    for (std::size_t n = 0; n < g.count(); ++n)
        g[n] = 2.f * noise(n, seed) - 1.f;
    return g;
}

std::vector<std::uint32_t> allTiles(const TiledField &f)
{
    std::vector<std::uint32_t> out(f.tileCount());
    for (std::size_t t = 0; t < out.size(); ++t)
        out[t] = std::uint32_t(t);
    return out;
}

/// Every tile whose noise is below `share`, ascending.
std::vector<std::uint32_t> someTiles(std::size_t count, float share, std::uint32_t seed)
{
    std::vector<std::uint32_t> out;
    for (std::size_t t = 0; t < count; ++t)
        if (noise(t, seed) < share)
            out.push_back(std::uint32_t(t));
    return out;
}

/// Positions in cell coordinates over the box and up to two cells beyond it (clamping and
/// wrapping), with exact integers and half-integers mixed in, and a few non-finite ones.
std::vector<Vec3> positions(Int3 cells, int count, std::uint32_t seed)
{
    std::vector<Vec3> out;
    for (int n = 0; n < count; ++n) {
        Vec3 p;
        for (int a = 0; a < 3; ++a) {
            const float r = noise(std::uint64_t(n) * 3 + a, seed);
            const float span = float(cells[a]) + 4.f;
            float v = r * span - 2.f;
            if (n % 7 == 3)
                v = std::floor(v);
            else if (n % 7 == 5)
                v = std::floor(v) + 0.5f;
            p[a] = v;
        }
        out.push_back(p);
    }
    const float inf = std::numeric_limits<float>::infinity();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    out.push_back({nan, 1.f, 1.f});
    out.push_back({inf, -inf, 0.5f});
    out.push_back({-inf, nan, inf});
    return out;
}

/// The face tiles that hold the faces of the active cell tiles by definition: each active
/// cell's low face along the axis, and its high face on the domain's high side.
std::vector<std::uint32_t> faceTilesByCells(const TileGrid &g,
                                            const std::vector<std::uint32_t> &active, int axis)
{
    const Int3 faces = faceGridSize(g.cells, axis);
    const Int3 ft = TiledField::tileCounts(faces);
    std::set<std::uint32_t> out;
    const auto add = [&](Int3 f) {
        out.insert(std::uint32_t(
            f.x / kTile + ft.x * (f.y / kTile + ft.y * (f.z / (faces.z > 1 ? kTile : 1)))));
    };
    for (std::uint32_t t : active) {
        const CellBox box = g.cellsOf(t);
        for (int k = box.lo.z; k < box.hi.z; ++k)
            for (int j = box.lo.y; j < box.hi.y; ++j)
                for (int i = box.lo.x; i < box.hi.x; ++i) {
                    Int3 c{i, j, k};
                    add(c);
                    if (c[axis] == g.cells[axis] - 1) {
                        c[axis] += 1;
                        add(c);
                    }
                }
    }
    return {out.begin(), out.end()};
}

} // namespace

class TestSimTiledField : public QObject
{
    Q_OBJECT

private:
    /// Rows of domain sizes (not multiples of kTile, 2D and 3D), staggerings and boundaries.
    static void shapes()
    {
        QTest::addColumn<Int3>("cells");
        QTest::addColumn<int>("axis");
        QTest::addColumn<bool>("periodic");
        const char *names[] = {"faceX", "faceY", "faceZ"};
        for (bool periodic : {false, true}) {
            for (Int3 cells : {Int3{37, 21, 1}, Int3{19, 13, 11}, Int3{16, 9, 8}}) {
                for (int axis = -1; axis < 3; ++axis) {
                    if (axis == 2 && cells.z == 1)
                        continue;
                    const QByteArray name = QByteArray::number(cells.x) + "x"
                                            + QByteArray::number(cells.y) + "x"
                                            + QByteArray::number(cells.z) + " "
                                            + (axis < 0 ? "cells" : names[axis])
                                            + (periodic ? " periodic" : "");
                    QTest::newRow(name.constData()) << cells << axis << periodic;
                }
            }
        }
    }

private slots:
    void tileLayout()
    {
        TiledField f;
        f.reshape({37, 21, 1}, kCellCentre, 0.f);
        QCOMPARE(f.tiles(), (Int3{5, 3, 1}));
        QCOMPARE(f.tileExtent(), (Int3{kTile, kTile, 1}));
        QCOMPARE(f.tileValues(), kTile * kTile);
        QCOMPARE(f.tileCount(), std::size_t(15));
        QCOMPARE(f.tileOrigin(f.tileIndex({4, 2, 0})), (Int3{32, 16, 0}));
        f.reshape({17, 8, 9}, kFaceX, 0.f);
        QCOMPARE(f.tiles(), (Int3{3, 1, 2}));
        QCOMPARE(f.tileValues(), kTile * kTile * kTile);
        QCOMPARE(f.tileOf(5), (Int3{2, 0, 1}));
        QCOMPARE(f.tileOrigin(5), (Int3{16, 0, 8}));
        QVERIFY(f.tileList().empty());
        for (std::size_t t = 0; t < f.tileCount(); ++t) {
            QVERIFY(!f.allocated(t));
            QVERIFY(f.tileData(t) == nullptr);
        }
    }

    /// An all-allocated field samples to the dense sampler's bits, and at() gives every value.
    void sampleMatchesDense_data() { shapes(); }
    void sampleMatchesDense()
    {
        QFETCH(Int3, cells);
        QFETCH(int, axis);
        QFETCH(bool, periodic);
        const Domain d = makeDomain(cells, periodic ? periodicXZ() : allBoundaries(Boundary::Wall));
        const ScalarGrid dense = randomGrid(samplesOf(d, axis), offsetOf(axis), 7);
        TiledField f;
        f.reshape(d, dense.size(), dense.offset(), 0.25f);
        f.fromDense(dense, allTiles(f));
        for (int k = 0; k < dense.size().z; ++k)
            for (int j = 0; j < dense.size().y; ++j)
                for (int i = 0; i < dense.size().x; ++i)
                    QCOMPARE(bits(f.at(i, j, k)), bits(dense(i, j, k)));
        int mismatches = 0;
        for (const Vec3 &p : positions(cells, 4000, 11))
            mismatches += bits(f.sample(p)) != bits(sampleLinear(dense, p, d)) ? 1 : 0;
        QCOMPARE(mismatches, 0);
    }

    /// Partly allocated: unallocated samples read the background, and sample() gives the dense
    /// sampler's bits on toDense()'s grid; far from stored tiles it gives the background itself.
    void backgroundOnUnallocated_data() { shapes(); }
    void backgroundOnUnallocated()
    {
        QFETCH(Int3, cells);
        QFETCH(int, axis);
        QFETCH(bool, periodic);
        const Domain d = makeDomain(cells, periodic ? periodicXZ() : allBoundaries(Boundary::Wall));
        const ScalarGrid source = randomGrid(samplesOf(d, axis), offsetOf(axis), 3);
        const float background = -0.375f;
        TiledField f;
        f.reshape(d, source.size(), source.offset(), background);
        const std::vector<std::uint32_t> tiles = someTiles(f.tileCount(), 0.4f, 5);
        QVERIFY(!tiles.empty() && tiles.size() < f.tileCount());
        f.fromDense(source, tiles);
        ScalarGrid dense;
        f.toDense(dense);
        QCOMPARE(dense.size(), source.size());
        const Int3 s = source.size();
        for (int k = 0; k < s.z; ++k)
            for (int j = 0; j < s.y; ++j)
                for (int i = 0; i < s.x; ++i) {
                    const Int3 e = f.tileExtent();
                    const bool stored = f.allocated(f.tileIndex({i / e.x, j / e.y, k / e.z}));
                    const float expected = stored ? source(i, j, k) : background;
                    QCOMPARE(bits(f.at(i, j, k)), bits(expected));
                    QCOMPARE(bits(dense(i, j, k)), bits(expected));
                }
        int mismatches = 0;
        for (const Vec3 &p : positions(cells, 4000, 13))
            mismatches += bits(f.sample(p)) != bits(sampleLinear(dense, p, d)) ? 1 : 0;
        QCOMPARE(mismatches, 0);

        // Nothing allocated: every sample is the background, exactly.
        f.setTiles({});
        for (const Vec3 &p : positions(cells, 500, 17))
            QCOMPARE(bits(f.sample(p)), bits(background));
    }

    /// setTiles keeps kept tiles' values, starts new tiles at the background, releases the
    /// rest; over rounds that grow, shrink (moving tiles between slots) and churn.
    void setTilesKeepsAndResets_data()
    {
        QTest::addColumn<Int3>("samples");
        QTest::newRow("2D") << Int3{90, 70, 1};
        QTest::newRow("3D") << Int3{41, 33, 25};
    }
    void setTilesKeepsAndResets()
    {
        QFETCH(Int3, samples);
        const float background = 2.5f;
        TiledField f;
        f.reshape(samples, kCellCentre, background);
        std::map<std::uint32_t, std::vector<float>> expected; // allocated tile -> its values
        const float shares[] = {0.3f, 0.9f, 0.1f, 0.05f, 0.6f, 0.6f, 0.02f, 1.f, 0.f, 0.5f};
        for (std::uint32_t round = 0; round < 10; ++round) {
            const std::vector<std::uint32_t> tiles = someTiles(f.tileCount(), shares[round],
                                                               100 + round);
            f.setTiles(tiles);
            std::map<std::uint32_t, std::vector<float>> next;
            for (std::uint32_t t : tiles) {
                const auto kept = expected.find(t);
                next[t] = kept != expected.end()
                              ? kept->second
                              : std::vector<float>(std::size_t(f.tileValues()), background);
            }
            expected.swap(next);
            QCOMPARE(f.tileList(), tiles);
            for (std::size_t t = 0; t < f.tileCount(); ++t) {
                const auto e = expected.find(std::uint32_t(t));
                QCOMPARE(f.allocated(t), e != expected.end());
                const float *v = f.tileData(t);
                QCOMPARE(v != nullptr, e != expected.end());
                if (v == nullptr)
                    continue;
                QVERIFY(std::memcmp(v, e->second.data(), e->second.size() * sizeof(float)) == 0);
            }
            // Unallocated tiles read the background through at().
            for (int k = 0; k < samples.z; k += 3)
                for (int j = 0; j < samples.y; j += 2)
                    for (int i = 0; i < samples.x; ++i) {
                        const Int3 e = f.tileExtent();
                        const std::size_t t = f.tileIndex({i / e.x, j / e.y, k / e.z});
                        if (!f.allocated(t))
                            QCOMPARE(f.at(i, j, k), background);
                        else
                            QCOMPARE(f.at(i, j, k), expected[std::uint32_t(t)][std::size_t(
                                                        TiledField::localIndex(i, j, k))]);
                    }
            // Write new values into every allocated tile for the next round to keep.
            f.forEachTile([&](std::size_t t, float *v) {
                for (int n = 0; n < f.tileValues(); ++n)
                    v[n] = noise(t * 1000 + std::size_t(n), 200 + round);
            });
            for (auto &[t, v] : expected)
                for (std::size_t n = 0; n < v.size(); ++n)
                    v[n] = noise(std::size_t(t) * 1000 + n, 200 + round);
        }
    }

    /// toDense and fromDense round trip, for all tiles and for some.
    void denseRoundTrip_data()
    {
        QTest::addColumn<Int3>("samples");
        QTest::addColumn<Vec3>("offset");
        QTest::newRow("2D cells") << Int3{37, 21, 1} << kCellCentre;
        QTest::newRow("2D faceY") << Int3{37, 22, 1} << kFaceY;
        QTest::newRow("3D faceZ") << Int3{19, 13, 12} << kFaceZ;
        QTest::newRow("3D whole tiles") << Int3{16, 24, 8} << kCellCentre;
    }
    void denseRoundTrip()
    {
        QFETCH(Int3, samples);
        QFETCH(Vec3, offset);
        const ScalarGrid source = randomGrid(samples, offset, 21);
        TiledField f;
        f.reshape(samples, offset, 0.f);
        f.fromDense(source, allTiles(f));
        ScalarGrid back;
        f.toDense(back);
        QVERIFY(back.identical(source));

        // Some tiles: the same values there, zero (the background) elsewhere; and the round
        // trip of that grid over the same tiles gives the same field.
        const std::vector<std::uint32_t> tiles = someTiles(f.tileCount(), 0.5f, 23);
        TiledField some;
        some.reshape(samples, offset, 0.f);
        some.fromDense(source, tiles);
        some.toDense(back);
        TiledField again;
        again.reshape(samples, offset, 0.f);
        again.fromDense(back, tiles);
        QVERIFY(again.identical(some));
        ScalarGrid twice;
        again.toDense(twice);
        QVERIFY(twice.identical(back));

        // identical() sees one changed value, another background, another tile list.
        again.tileData(tiles.front())[0] += 1.f;
        QVERIFY(!again.identical(some));
        TiledField other;
        other.reshape(samples, offset, 1.f);
        other.fromDense(back, tiles);
        QVERIFY(!other.identical(some));
        other.reshape(samples, offset, 0.f);
        other.fromDense(back, allTiles(other));
        QVERIFY(!other.identical(some));
        TiledField copy = some;
        QVERIFY(copy.identical(some));
        TiledField swapped;
        swapped.swap(copy);
        QVERIFY(swapped.identical(some));
    }

    /// Memory follows the allocated tiles, not the box: a 1024^3 box with 10 tiles holds the slot
    /// table (4 bytes per tile) and one page; 5000 tiles hold their values; back down to 10
    /// gives the pages back.
    void memoryFollowsTiles()
    {
        TiledField f;
        f.reshape({1024, 1024, 1024}, kCellCentre, 0.f);
        QCOMPARE(f.tileCount(), std::size_t(128 * 128 * 128));
        const std::size_t table = f.tileCount() * sizeof(std::int32_t);
        const std::size_t tileBytes = std::size_t(f.tileValues()) * sizeof(float);
        const std::size_t page = std::size_t(TiledField::kPageTiles) * tileBytes;
        const std::size_t empty = f.memoryBytes();
        QVERIFY(empty <= table + page + 4096);

        std::vector<std::uint32_t> ten;
        for (std::uint32_t n = 0; n < 10; ++n)
            ten.push_back(n * 200003u);
        f.setTiles(ten);
        const std::size_t small = f.memoryBytes();
        qInfo("1024^3 box, 10 tiles: %.2f MiB (slot table %.2f MiB)", double(small) / 1048576.0,
              double(table) / 1048576.0);
        QVERIFY(small <= table + page + 4096);
        QVERIFY(small < std::size_t(9) << 20);

        const std::vector<std::uint32_t> many = someTiles(f.tileCount(), 5000.f / 2097152.f, 31);
        QVERIFY(many.size() > 4000);
        f.setTiles(many);
        const std::size_t large = f.memoryBytes();
        QVERIFY(large >= table + many.size() * tileBytes);
        QVERIFY(large <= table + many.size() * tileBytes + 3 * page + many.size() * 4 + 4096);

        f.setTiles(ten);
        QVERIFY(f.memoryBytes() <= table + 2 * page + many.size() * 4 + 4096);
        QCOMPARE(f.tileList(), ten);
        for (std::uint32_t t : ten)
            QCOMPARE(f.tileData(t)[0], 0.f);
    }

    /// forEachTile writes the same bytes serially and on several threads.
    void forEachTileSerialEqualsParallel_data()
    {
        QTest::addColumn<Int3>("samples");
        QTest::newRow("2D") << Int3{200, 150, 1};
        QTest::newRow("3D") << Int3{70, 50, 41};
    }
    void forEachTileSerialEqualsParallel()
    {
        QFETCH(Int3, samples);
        const auto run = [&](TiledField &f) {
            f.reshape(samples, kCellCentre, 0.f);
            f.setTiles(someTiles(f.tileCount(), 0.7f, 41));
            f.forEachTile([&](std::size_t t, float *v) {
                const Int3 o = f.tileOrigin(t);
                for (int n = 0; n < f.tileValues(); ++n)
                    v[n] = std::sin(float(o.x + n % kTile) * 0.3f) + float(o.y) * 0.01f
                           + noise(t * 512 + std::size_t(n), 43);
            });
            // A second pass that reads the field (a const pass summing per tile) and writes.
            std::vector<float> sums(f.tileCount(), 0.f);
            std::as_const(f).forEachTile([&](std::size_t t, const float *v) {
                float s = 0.f;
                for (int n = 0; n < f.tileValues(); ++n)
                    s += v[n];
                sums[t] = s;
            });
            f.forEachTile([&](std::size_t t, float *v) {
                for (int n = 0; n < f.tileValues(); ++n)
                    v[n] = v[n] * 0.5f + sums[t] * 1e-3f;
            });
        };
        TiledField serial, parallel;
        {
            SerialScope scope;
            run(serial);
        }
        oneapi::tbb::task_arena arena(2);
        arena.execute([&] { run(parallel); });
        QVERIFY(serial.tileList().size() > 10);
        QVERIFY(parallel.identical(serial));
        ScalarGrid a, b;
        {
            SerialScope scope;
            serial.toDense(a);
        }
        arena.execute([&] { parallel.toDense(b); });
        QVERIFY(a.identical(b));
    }

    /// faceTiles: the cell tiles plus the domain's high layer where the cells fill whole tiles.
    void faceTilesOfCells_data()
    {
        QTest::addColumn<Int3>("cells");
        QTest::newRow("3D whole tiles") << Int3{16, 24, 16};
        QTest::newRow("3D partial") << Int3{19, 13, 11};
        QTest::newRow("3D mixed") << Int3{16, 13, 24};
        QTest::newRow("2D whole") << Int3{32, 16, 1};
        QTest::newRow("2D partial") << Int3{30, 17, 1};
    }
    void faceTilesOfCells()
    {
        QFETCH(Int3, cells);
        const TileGrid g = TileGrid::of(makeDomain(cells));
        for (std::uint32_t seed : {51u, 52u, 53u}) {
            std::vector<std::uint32_t> active = someTiles(g.count(), 0.45f, seed);
            if (seed == 53u)
                active = someTiles(g.count(), 1.f, seed);
            for (int axis = 0; axis < 3; ++axis) {
                const std::vector<std::uint32_t> faces = faceTiles(g, active, axis);
                if (axis == 2 && cells.z == 1) {
                    QVERIFY(faces.empty());
                    continue;
                }
                QCOMPARE(faces, faceTilesByCells(g, active, axis));
                TiledField f;
                f.reshape(faceGridSize(cells, axis), offsetOf(axis), 0.f);
                f.setTiles(faces); // ascending and in range, or the contract would abort
                QCOMPARE(f.tileList(), faces);
                if (seed == 53u) // every cell tile active: every face tile
                    QCOMPARE(faces, allTiles(f));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestSimTiledField)
#include "tst_sim_tiledfield.moc"
