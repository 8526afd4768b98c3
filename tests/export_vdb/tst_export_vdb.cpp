// SPDX-License-Identifier: Apache-2.0
// OpenVDB frame export: values, sparsity, transform, metadata, determinism, atomic failures,
// Z-up rotation and half-float storage.
// OpenVDB and oneTBB come before any Qt header: Qt's `emit` macro breaks oneTBB's headers.
#include <openvdb/math/Half.h>
#include <openvdb/openvdb.h>

#include <core/sim/base/parallel.h>

#include <oneapi/tbb/task_arena.h>

#include <core/export/vdbwriter.h>

#include <tests/common/filesizelimit.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

#include <array>
#include <cmath>

using namespace plume;
using namespace plume::sim;

namespace {

constexpr float kThreshold = VdbWriteOptions{}.activeThreshold;

/// Known cell-centred fields over a domain, with zeros, sub-threshold values and negatives.
struct Fields
{
    Domain domain;
    ScalarGrid density, temperature, vx, vy, vz, red, green, blue;

    VdbFrame frame(bool velocity, bool dye) const
    {
        VdbFrame f;
        f.domain = domain;
        f.frame = 42;
        f.sceneName = "test plume";
        f.plumeVersion = "0.1.0";
        f.density = &density;
        f.temperature = &temperature;
        if (velocity) {
            f.velocityX = &vx;
            f.velocityY = &vy;
            f.velocityZ = domain.is2D() ? nullptr : &vz;
        }
        if (dye) {
            f.dyeRed = &red;
            f.dyeGreen = &green;
            f.dyeBlue = &blue;
        }
        return f;
    }
};

Fields makeFields(Int3 cells)
{
    Fields f;
    f.domain.cells = cells;
    f.domain.cellSize = 0.125f;
    f.domain.origin = {-1.f, 2.5f, 0.75f};
    for (ScalarGrid *g :
         {&f.density, &f.temperature, &f.vx, &f.vy, &f.vz, &f.red, &f.green, &f.blue})
        g->reshape(cells, kCellCentre);
    for (int k = 0; k < cells.z; ++k)
        for (int j = 0; j < cells.y; ++j)
            for (int i = 0; i < cells.x; ++i) {
                const int pattern = (i + 2 * j + 3 * k) % 5;
                const float d = pattern == 0   ? 0.f
                                : pattern == 1 ? 5e-7f // below the threshold: inactive
                                               : 0.25f + 0.01f * i + 0.001f * j + 0.0001f * k;
                f.density(i, j, k) = d;
                f.temperature(i, j, k) = (i % 4 == 0) ? 0.f : 0.5f * float(i - 5) + 0.01f * j;
                f.vx(i, j, k) = (j % 3 == 0) ? 0.f : std::sin(0.3f * i + 0.1f * k);
                f.vy(i, j, k) = -0.5f + 0.05f * j;
                f.vz(i, j, k) = cells.z > 1 ? 0.02f * k - 0.1f : 0.f;
                f.red(i, j, k) = d * 0.9f;
                f.green(i, j, k) = (i % 2) ? d * 0.3f : 0.f;
                f.blue(i, j, k) = 0.1f * d * float(j % 4);
            }
    return f;
}

struct ReadBack
{
    openvdb::MetaMap::Ptr meta;
    openvdb::GridPtrVecPtr grids;
};

ReadBack readVdb(const QString &path)
{
    openvdb::io::File file(path.toStdString());
    file.open();
    ReadBack r{file.getMetadata(), file.getGrids()};
    file.close();
    return r;
}

template<class GridT>
typename GridT::Ptr grid(const ReadBack &r, const char *name)
{
    return openvdb::gridPtrCast<GridT>(openvdb::findGridByName(*r.grids, name));
}

QString valueText(float v) { return QString::number(v, 'g', 9); }
QString valueText(const openvdb::Vec3s &v) { return QString::fromStdString(v.str()); }

QString cellText(int i, int j, int k) { return QString("(%1,%2,%3)").arg(i).arg(j).arg(k); }

/// Compares a grid with an expected value and activity at every domain cell; also requires
/// the active voxel count to equal the expected one (nothing active outside the domain).
/// Returns an empty string when all match, else the first mismatch.
template<class GridT, class Expect>
QString compareGrid(const GridT &g, Int3 cells, Expect expect)
{
    using V = typename GridT::ValueType;
    auto acc = g.getConstAccessor();
    openvdb::Index64 active = 0;
    for (int k = 0; k < cells.z; ++k)
        for (int j = 0; j < cells.y; ++j)
            for (int i = 0; i < cells.x; ++i) {
                const auto [on, value] = expect(i, j, k);
                const openvdb::Coord c(i, j, k);
                active += on ? 1 : 0;
                const V expected = on ? V(value) : openvdb::zeroVal<V>();
                if (acc.isValueOn(c) != on || !(acc.getValue(c) == expected))
                    return QString("%1 at %2: active %3, value %4 (expected %5, %6)")
                        .arg(QString::fromStdString(g.getName()), cellText(i, j, k))
                        .arg(acc.isValueOn(c))
                        .arg(valueText(acc.getValue(c)))
                        .arg(on)
                        .arg(valueText(expected));
            }
    if (g.activeVoxelCount() != active)
        return QString("%1: %2 active voxels, expected %3")
            .arg(QString::fromStdString(g.getName()))
            .arg(g.activeVoxelCount())
            .arg(active);
    return {};
}

std::pair<bool, float> scalarExpect(const ScalarGrid &in, int i, int j, int k)
{
    const float v = in(i, j, k);
    return {std::abs(v) > kThreshold, v};
}

openvdb::Vec3s colourOf(const Fields &f, int i, int j, int k)
{
    const float d = f.density(i, j, k);
    if (!(d > kThreshold))
        return openvdb::Vec3s(0.f);
    return {f.red(i, j, k) / d, f.green(i, j, k) / d, f.blue(i, j, k) / d};
}

bool anyAbove(const openvdb::Vec3s &v)
{
    return std::abs(v.x()) > kThreshold || std::abs(v.y()) > kThreshold
           || std::abs(v.z()) > kThreshold;
}

QByteArray fileBytes(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

std::filesystem::path fsPath(const QString &p) { return p.toStdString(); }

/// A value as a half-float file gives it back.
float halfRounded(float v) { return float(openvdb::math::half(v)); }
openvdb::Vec3s halfRounded(const openvdb::Vec3s &v)
{
    return {halfRounded(v.x()), halfRounded(v.y()), halfRounded(v.z())};
}

/// Z up (VdbWriteOptions::up): the world point (x, y, z) is written at (x, -z, y).
openvdb::Vec3d zUp(const openvdb::Vec3d &p) { return {p.x(), -p.z(), p.y()}; }

/// Z up: the simulation cell that file voxel (i, j, k) holds, nz = the domain's cells.z.
std::array<int, 3> zUpSource(int i, int j, int k, int nz) { return {i, k, nz - 1 - j}; }

Status writeWith(const QString &path, const VdbFrame &frame, UpAxis up, bool half)
{
    VdbWriteOptions options;
    options.up = up;
    options.halfFloat = half;
    return writeVdbFrame(fsPath(path), frame, options);
}

} // namespace

Q_DECLARE_METATYPE(plume::sim::CellBox)

class TestExportVdb : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { openvdb::initialize(); }

    void gridsMatchFields_data()
    {
        QTest::addColumn<Int3>("cells");
        // Sizes that are not multiples of the 8^3 leaf, so partial leaves are exercised.
        QTest::newRow("3D 13x10x9") << Int3{13, 10, 9};
        QTest::newRow("2D 21x12") << Int3{21, 12, 1};
    }

    void gridsMatchFields()
    {
        QFETCH(Int3, cells);
        const Fields f = makeFields(cells);
        QTemporaryDir dir;
        const QString path = dir.filePath("frame.0042.vdb");
        const Status s = writeVdbFrame(fsPath(path), f.frame(true, true));
        QVERIFY2(s.ok(), s.error.c_str());
        const ReadBack r = readVdb(path);
        QCOMPARE(r.grids->size(), std::size_t(4));

        auto density = grid<openvdb::FloatGrid>(r, "density");
        auto temperature = grid<openvdb::FloatGrid>(r, "temperature");
        auto vel = grid<openvdb::Vec3SGrid>(r, "vel");
        auto colour = grid<openvdb::Vec3SGrid>(r, "Cd");
        QVERIFY(density && temperature && vel && colour);

        // Scalars: exactly the input floats where |value| > threshold, else inactive zero.
        QString m = compareGrid(*density, cells, [&](int i, int j, int k) {
            return scalarExpect(f.density, i, j, k);
        });
        QVERIFY2(m.isEmpty(), qPrintable(m));
        m = compareGrid(*temperature, cells,
                        [&](int i, int j, int k) { return scalarExpect(f.temperature, i, j, k); });
        QVERIFY2(m.isEmpty(), qPrintable(m));
        // Velocity: active where density is (default mask); z is zero in 2D.
        m = compareGrid(*vel, cells, [&](int i, int j, int k) {
            const openvdb::Vec3s v(f.vx(i, j, k), f.vy(i, j, k), cells.z > 1 ? f.vz(i, j, k) : 0);
            return std::pair{std::abs(f.density(i, j, k)) > kThreshold, v};
        });
        QVERIFY2(m.isEmpty(), qPrintable(m));
        // Colour: dye / density, computed with the same float division, so compared exactly.
        m = compareGrid(*colour, cells, [&](int i, int j, int k) {
            const openvdb::Vec3s c = colourOf(f, i, j, k);
            return std::pair{anyAbove(c), c};
        });
        QVERIFY2(m.isEmpty(), qPrintable(m));
        QVERIFY(density->activeVoxelCount() > 0);
        QVERIFY(density->activeVoxelCount() < openvdb::Index64(cells.volume()));

        // Grid class and vector type metadata; background zero.
        QCOMPARE(density->getGridClass(), openvdb::GRID_FOG_VOLUME);
        QCOMPARE(temperature->getGridClass(), openvdb::GRID_FOG_VOLUME);
        QCOMPARE(vel->getGridClass(), openvdb::GRID_UNKNOWN);
        QCOMPARE(vel->getVectorType(), openvdb::VEC_CONTRAVARIANT_RELATIVE);
        QVERIFY(vel->isInWorldSpace());
        QCOMPARE(colour->getGridClass(), openvdb::GRID_UNKNOWN);
        QCOMPARE(colour->getVectorType(), openvdb::VEC_INVARIANT);
        QCOMPARE(density->background(), 0.f);
        QCOMPARE(vel->background(), openvdb::Vec3s(0.f));
        QVERIFY(!density->saveFloatAsHalf());
        if (openvdb::io::Archive::hasBloscCompression())
            QVERIFY(QString::fromStdString(density->metaValue<std::string>("file_compression"))
                        .contains("blosc", Qt::CaseInsensitive));

        // Transform: linear, voxel size = cell size, voxel centres at the cell centres. Both
        // sides are computed in double from the same floats: 1e-12 covers rounding only.
        const double h = f.domain.cellSize;
        const std::array<const openvdb::GridBase *, 3> someGrids{density.get(), vel.get(),
                                                                 colour.get()};
        for (const openvdb::GridBase *g : someGrids) {
            const openvdb::math::Transform &xf = g->constTransform();
            QVERIFY(xf.isLinear());
            QCOMPARE(xf.voxelSize(), openvdb::Vec3d(h));
            for (const auto &c :
                 {openvdb::Coord(0, 0, 0), openvdb::Coord(cells.x - 1, cells.y - 1, cells.z - 1),
                  openvdb::Coord(3, 1, 0)}) {
                const openvdb::Vec3d w = xf.indexToWorld(c);
                const openvdb::Vec3d want(double(f.domain.origin.x) + (c.x() + 0.5) * h,
                                          double(f.domain.origin.y) + (c.y() + 0.5) * h,
                                          double(f.domain.origin.z) + (c.z() + 0.5) * h);
                QVERIFY2((w - want).length() < 1e-12, qPrintable(cellText(c.x(), c.y(), c.z())));
            }
        }
        // A 2D domain is one voxel thick: the active box stays within k = 0.
        const openvdb::CoordBBox box = density->evalActiveVoxelBoundingBox();
        QVERIFY(box.min().z() >= 0 && box.max().z() <= cells.z - 1);
        QVERIFY(box.max().x() <= cells.x - 1 && box.max().y() <= cells.y - 1);

        // File metadata.
        QCOMPARE(r.meta->metaValue<openvdb::Int32>("frame"), 42);
        QCOMPARE(r.meta->metaValue<std::string>("scene"), std::string("test plume"));
        QCOMPARE(r.meta->metaValue<std::string>("plume_version"), std::string("0.1.0"));
        QCOMPARE(r.meta->metaValue<std::string>("creator"), std::string("Plume 0.1.0"));
    }

    void optionalFieldsLeftOut()
    {
        const Fields f = makeFields({9, 9, 3});
        QTemporaryDir dir;
        const QString path = dir.filePath("a.vdb");
        VdbFrame frame = f.frame(false, false);
        frame.temperature = nullptr;
        const Status s = writeVdbFrame(fsPath(path), frame);
        QVERIFY2(s.ok(), s.error.c_str());
        const ReadBack r = readVdb(path);
        QCOMPARE(r.grids->size(), std::size_t(1));
        QCOMPARE(r.grids->front()->getName(), std::string("density"));
    }

    void velocitySpeedMask()
    {
        const Fields f = makeFields({11, 9, 5});
        QTemporaryDir dir;
        const QString path = dir.filePath("speed.vdb");
        VdbWriteOptions options;
        options.velocityMask = VelocityMask::Speed;
        const Status s = writeVdbFrame(fsPath(path), f.frame(true, false), options);
        QVERIFY2(s.ok(), s.error.c_str());
        auto vel = grid<openvdb::Vec3SGrid>(readVdb(path), "vel");
        QVERIFY(vel);
        const QString m = compareGrid(*vel, f.domain.cells, [&](int i, int j, int k) {
            const openvdb::Vec3s v(f.vx(i, j, k), f.vy(i, j, k), f.vz(i, j, k));
            return std::pair{anyAbove(v), v};
        });
        QVERIFY2(m.isEmpty(), qPrintable(m));
    }

    void uniformBlocksArePruned()
    {
        // A full 16^3 block of one value: eight leaves that prune to active tiles.
        Fields f = makeFields({16, 16, 16});
        f.density.fill(0.5f);
        QTemporaryDir dir;
        const QString path = dir.filePath("tiles.vdb");
        VdbFrame frame = f.frame(false, false);
        frame.temperature = nullptr;
        QVERIFY(writeVdbFrame(fsPath(path), frame).ok());
        auto density = grid<openvdb::FloatGrid>(readVdb(path), "density");
        QCOMPARE(density->tree().leafCount(), openvdb::Index32(0));
        QCOMPARE(density->activeVoxelCount(), openvdb::Index64(16 * 16 * 16));
        QCOMPARE(density->tree().getValue(openvdb::Coord(15, 15, 15)), 0.5f);
    }

    void zUpRotatesVoxelsAndVectors_data() { gridsMatchFields_data(); }

    // Z up: every voxel lands at (i, nz-1-k, j) with its own value, vel is rotated like the
    // world, Cd is not; the world positions are the Y-up ones rotated, without a mirror.
    void zUpRotatesVoxelsAndVectors()
    {
        QFETCH(Int3, cells);
        const Fields f = makeFields(cells);
        QTemporaryDir dir;
        const QString yPath = dir.filePath("y.vdb"), zPath = dir.filePath("z.vdb");
        QVERIFY(writeWith(yPath, f.frame(true, true), UpAxis::Y, false).ok());
        const Status s = writeWith(zPath, f.frame(true, true), UpAxis::Z, false);
        QVERIFY2(s.ok(), s.error.c_str());
        const ReadBack y = readVdb(yPath), z = readVdb(zPath);
        const int nz = cells.z;
        const Int3 fileCells{cells.x, cells.z, cells.y};
        auto density = grid<openvdb::FloatGrid>(z, "density");
        auto vel = grid<openvdb::Vec3SGrid>(z, "vel");
        auto colour = grid<openvdb::Vec3SGrid>(z, "Cd");
        QVERIFY(density && vel && colour && grid<openvdb::FloatGrid>(z, "temperature"));
        QString m = compareGrid(*density, fileCells, [&](int i, int j, int k) {
            const auto [a, b, c] = zUpSource(i, j, k, nz);
            return scalarExpect(f.density, a, b, c);
        });
        QVERIFY2(m.isEmpty(), qPrintable(m));
        m = compareGrid(*vel, fileCells, [&](int i, int j, int k) {
            const auto [a, b, c] = zUpSource(i, j, k, nz);
            const float vz = cells.z > 1 ? f.vz(a, b, c) : 0.f;
            return std::pair{std::abs(f.density(a, b, c)) > kThreshold,
                             openvdb::Vec3s(f.vx(a, b, c), -vz, f.vy(a, b, c))};
        });
        QVERIFY2(m.isEmpty(), qPrintable(m));
        m = compareGrid(*colour, fileCells, [&](int i, int j, int k) {
            const auto [a, b, c] = zUpSource(i, j, k, nz);
            const openvdb::Vec3s col = colourOf(f, a, b, c);
            return std::pair{anyAbove(col), col};
        });
        QVERIFY2(m.isEmpty(), qPrintable(m));

        // World positions: each Z-up voxel centre is its Y-up cell centre rotated.
        const openvdb::math::Transform &yx = grid<openvdb::FloatGrid>(y, "density")->transform();
        const openvdb::math::Transform &zx = density->transform();
        QVERIFY(zx.isLinear());
        QCOMPARE(zx.voxelSize(), openvdb::Vec3d(f.domain.cellSize));
        auto zWorld = [&](int i, int j, int k) {
            return zx.indexToWorld(openvdb::Coord(i, nz - 1 - k, j));
        };
        for (const auto &c : {openvdb::Coord(0, 0, 0), openvdb::Coord(3, 1, 0),
                              openvdb::Coord(cells.x - 1, cells.y - 1, cells.z - 1)}) {
            const openvdb::Vec3d want = zUp(yx.indexToWorld(c));
            QVERIFY2((zWorld(c.x(), c.y(), c.z()) - want).length() < 1e-12,
                     qPrintable(cellText(c.x(), c.y(), c.z())));
        }
        // A rotation, not a mirror: the images of the x, y, z cell steps stay right-handed,
        // and the step up (+y) becomes +z.
        const openvdb::Vec3d o = zWorld(0, 0, 0);
        const openvdb::Vec3d ex = zWorld(1, 0, 0) - o, ey = zWorld(0, 1, 0) - o,
                             ez = zWorld(0, 0, 1) - o;
        QVERIFY(ex.cross(ey).dot(ez) > 0);
        QVERIFY((ey - openvdb::Vec3d(0, 0, f.domain.cellSize)).length() < 1e-12);
        // The index box stays [0, n): a 2D domain is the one layer j = 0, standing in x-z.
        const openvdb::CoordBBox box = density->evalActiveVoxelBoundingBox();
        QVERIFY(box.min().x() >= 0 && box.min().y() >= 0 && box.min().z() >= 0);
        QVERIFY(box.max().y() <= cells.z - 1 && box.max().z() <= cells.y - 1);
    }

    // A known upward velocity (+y in the simulation) is +z in a Z-up file.
    void upwardVelocityBecomesPlusZ()
    {
        Fields f = makeFields({8, 8, 8});
        f.density.fill(1.f);
        f.vx.fill(0.f);
        f.vy.fill(2.f);
        f.vz.fill(0.f);
        QTemporaryDir dir;
        const QString path = dir.filePath("up.vdb");
        QVERIFY(writeWith(path, f.frame(true, false), UpAxis::Z, false).ok());
        auto vel = grid<openvdb::Vec3SGrid>(readVdb(path), "vel");
        QCOMPARE(vel->activeVoxelCount(), openvdb::Index64(8 * 8 * 8));
        QCOMPARE(vel->tree().getValue(openvdb::Coord(3, 5, 1)), openvdb::Vec3s(0.f, 0.f, 2.f));
    }

    // Half floats: every grid carries OpenVDB's half flag, reads back as the half-rounded
    // input (activity decided on the full floats), and the file is smaller.
    void halfFloatGrids()
    {
        const Fields f = makeFields({37, 29, 19});
        QTemporaryDir dir;
        const QString fullPath = dir.filePath("full.vdb"), halfPath = dir.filePath("half.vdb");
        QVERIFY(writeWith(fullPath, f.frame(true, true), UpAxis::Y, false).ok());
        const Status s = writeWith(halfPath, f.frame(true, true), UpAxis::Y, true);
        QVERIFY2(s.ok(), s.error.c_str());
        const ReadBack r = readVdb(halfPath);
        QCOMPARE(r.grids->size(), std::size_t(4));
        for (const openvdb::GridBase::Ptr &g : *r.grids)
            QVERIFY2(g->saveFloatAsHalf(), g->getName().c_str());
        const Int3 cells = f.domain.cells;
        QString m = compareGrid(*grid<openvdb::FloatGrid>(r, "temperature"), cells,
                                [&](int i, int j, int k) {
            const auto [on, v] = scalarExpect(f.temperature, i, j, k);
            return std::pair{on, halfRounded(v)};
        });
        QVERIFY2(m.isEmpty(), qPrintable(m));
        m = compareGrid(*grid<openvdb::Vec3SGrid>(r, "vel"), cells, [&](int i, int j, int k) {
            const openvdb::Vec3s v(f.vx(i, j, k), f.vy(i, j, k), f.vz(i, j, k));
            return std::pair{std::abs(f.density(i, j, k)) > kThreshold, halfRounded(v)};
        });
        QVERIFY2(m.isEmpty(), qPrintable(m));
        const qint64 full = QFileInfo(fullPath).size(), half = QFileInfo(halfPath).size();
        QVERIFY2(half < full * 3 / 4, qPrintable(QString("%1 vs %2 bytes").arg(half).arg(full)));
    }

    // A value a half cannot hold is refused, naming the field and cell; a colour is clamped.
    void halfFloatRange()
    {
        Fields f = makeFields({9, 8, 5});
        QTemporaryDir dir;
        const QString path = dir.filePath("range.vdb");
        f.temperature(1, 2, 3) = 70000.f;
        Status s = writeWith(path, f.frame(true, true), UpAxis::Z, true);
        QVERIFY(!s.ok());
        QVERIFY2(QString::fromStdString(s.error).contains(
                     "temperature is 70000 at cell (1, 2, 3), beyond the half-float range"),
                 s.error.c_str());
        QVERIFY(QDir(dir.path()).isEmpty());
        QVERIFY(writeWith(path, f.frame(true, true), UpAxis::Z, false).ok());

        f.temperature(1, 2, 3) = 1.f;
        f.density(4, 4, 4) = 1e-5f;
        f.red(4, 4, 4) = 10.f; // colour 1e6 per unit density
        QVERIFY(writeWith(path, f.frame(true, true), UpAxis::Y, true).ok());
        auto colour = grid<openvdb::Vec3SGrid>(readVdb(path), "Cd");
        QCOMPARE(colour->tree().getValue(openvdb::Coord(4, 4, 4)).x(), kHalfMax);
    }

    void deterministicBytes_data()
    {
        QTest::addColumn<UpAxis>("up");
        QTest::addColumn<bool>("half");
        QTest::newRow("Y up, floats") << UpAxis::Y << false;
        QTest::newRow("Z up, half floats") << UpAxis::Z << true;
    }

    void deterministicBytes()
    {
        QFETCH(UpAxis, up);
        QFETCH(bool, half);
        const Fields f = makeFields({37, 29, 19});
        const VdbFrame frame = f.frame(true, true);
        QTemporaryDir dir;
        const QString serialPath = dir.filePath("serial.vdb");
        {
            SerialScope serial;
            QVERIFY(writeWith(serialPath, frame, up, half).ok());
        }
        const QByteArray reference = fileBytes(serialPath);
        QVERIFY(reference.size() > 100);
        for (int threads : {1, 2, 4}) {
            const QString path = dir.filePath(QString("t%1.vdb").arg(threads));
            oneapi::tbb::task_arena arena(threads);
            Status s;
            arena.execute([&] { s = writeWith(path, frame, up, half); });
            QVERIFY2(s.ok(), s.error.c_str());
            QVERIFY2(fileBytes(path) == reference, qPrintable(QString("threads %1").arg(threads)));
        }
        // The header UUID (36 characters at byte 21) is a content-derived version-8 UUID.
        const QByteArray uuid = reference.mid(21, 36);
        QCOMPARE(uuid.at(14), '8');
        QVERIFY(QByteArray("89ab").contains(uuid.at(19)));
        VdbFrame other = frame;
        other.frame = 43;
        const QString otherPath = dir.filePath("other.vdb");
        QVERIFY(writeWith(otherPath, other, up, half).ok());
        QVERIFY(fileBytes(otherPath).mid(21, 36) != uuid);
    }

    // Fields over a box of the domain (VdbFrame::fieldBox, the adaptive domain's export)
    // give the same bytes as whole-domain fields that are zero outside it, Y and Z up, with
    // and without half floats, in 3D and 2D, the box away from and against the domain's faces.
    void fieldBoxGivesTheSameFile_data()
    {
        QTest::addColumn<Int3>("cells");
        QTest::addColumn<CellBox>("box");
        QTest::addColumn<UpAxis>("up");
        QTest::addColumn<bool>("half");
        const Int3 n{37, 29, 19};
        const CellBox inner{{5, 9, 3}, {30, 21, 12}};
        const CellBox corner{{0, 11, 0}, {37, 29, 7}};
        QTest::newRow("3D inside, Y up") << n << inner << UpAxis::Y << false;
        QTest::newRow("3D inside, Z up, half") << n << inner << UpAxis::Z << true;
        QTest::newRow("3D at the faces, Z up") << n << corner << UpAxis::Z << false;
        QTest::newRow("2D, Y up") << Int3{40, 33, 1} << CellBox{{3, 17, 0}, {26, 33, 1}}
                                  << UpAxis::Y << false;
    }

    void fieldBoxGivesTheSameFile()
    {
        QFETCH(Int3, cells);
        QFETCH(CellBox, box);
        QFETCH(UpAxis, up);
        QFETCH(bool, half);
        const Fields f = makeFields(cells);
        Fields padded = f; // zero outside the box
        Fields cropped = f;
        auto grids = [](Fields &x) {
            return std::array<ScalarGrid *, 8>{&x.density, &x.temperature, &x.vx,    &x.vy,
                                               &x.vz,      &x.red,         &x.green, &x.blue};
        };
        const auto whole = grids(padded);
        const auto part = grids(cropped);
        const auto source = grids(const_cast<Fields &>(f));
        for (std::size_t g = 0; g < whole.size(); ++g) {
            whole[g]->fill(0.f);
            copyBlock(*source[g], box.lo, *whole[g], box.lo, box.size());
            part[g]->reshape(box.size(), kCellCentre);
            copyBlock(*source[g], box.lo, *part[g], {0, 0, 0}, box.size());
        }
        QTemporaryDir dir;
        const QString wholePath = dir.filePath("whole.vdb");
        const QString boxPath = dir.filePath("box.vdb");
        QVERIFY(writeWith(wholePath, padded.frame(true, true), up, half).ok());
        VdbFrame frame = cropped.frame(true, true);
        frame.domain = f.domain;
        frame.fieldBox = box;
        const Status s = writeWith(boxPath, frame, up, half);
        QVERIFY2(s.ok(), s.error.c_str());
        const QByteArray expected = fileBytes(wholePath);
        QVERIFY(expected.size() > 500);
        QCOMPARE(fileBytes(boxPath), expected);
        // A box that leaves the domain, or one with the level surface, is refused.
        frame.fieldBox.hi.x = cells.x + 1;
        QVERIFY(!writeWith(boxPath, frame, up, half).ok());
        frame.fieldBox = box;
        frame.levelSurface = true;
        const Status level = writeWith(boxPath, frame, up, half);
        QVERIFY(!level.ok());
        QVERIFY2(QString::fromStdString(level.error).contains("level surface"),
                 level.error.c_str());
        QCOMPARE(fileBytes(boxPath), expected); // the refused writes left the file alone
    }

    void refusedInputs_data()
    {
        QTest::addColumn<QString>("fault");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no density") << "no density"
                                    << "density field is missing";
        QTest::newRow("size") << "size"
                              << "temperature grid is 8x8x4, the domain has 8x8x5";
        QTest::newRow("staggered") << "staggered"
                                   << "velocity x grid is not cell-centred";
        QTest::newRow("partial velocity") << "partial velocity"
                                          << "velocity needs x, y";
        QTest::newRow("3D without vz") << "no vz"
                                       << "velocity needs x, y";
        QTest::newRow("partial dye") << "partial dye"
                                     << "dye needs red, green and blue";
        QTest::newRow("NaN") << "nan"
                             << "density is not finite at cell (3, 2, 1)";
        QTest::newRow("inf dye") << "inf"
                                 << "dye blue is not finite at cell (0, 7, 4)";
        QTest::newRow("bad domain") << "domain"
                                    << "cell size";
    }

    void refusedInputs()
    {
        QFETCH(QString, fault);
        QFETCH(QString, expected);
        Fields f = makeFields({8, 8, 5});
        ScalarGrid wrong;
        VdbFrame frame = f.frame(true, true);
        if (fault == "no density")
            frame.density = nullptr;
        if (fault == "size") {
            wrong.reshape({8, 8, 4}, kCellCentre);
            frame.temperature = &wrong;
        }
        if (fault == "staggered") {
            wrong.reshape({8, 8, 5}, kFaceX);
            frame.velocityX = &wrong;
        }
        if (fault == "partial velocity")
            frame.velocityY = nullptr;
        if (fault == "no vz")
            frame.velocityZ = nullptr;
        if (fault == "partial dye")
            frame.dyeGreen = nullptr;
        if (fault == "nan")
            f.density(3, 2, 1) = std::nanf("");
        if (fault == "inf")
            f.blue(0, 7, 4) = INFINITY;
        if (fault == "domain")
            frame.domain.cellSize = 0.f;
        QTemporaryDir dir;
        const QString path = dir.filePath("refused.vdb");
        const Status s = writeVdbFrame(fsPath(path), frame);
        QVERIFY(!s.ok());
        const QString msg = QString::fromStdString(s.error);
        QVERIFY2(msg.contains(path) && msg.contains(expected), qPrintable(msg));
        QVERIFY(QDir(dir.path()).isEmpty());
    }

    void unwritableTargets_data()
    {
        QTest::addColumn<QString>("where");
        QTest::newRow("missing directory") << "missing";
        QTest::newRow("parent is a file") << "file";
        // Permission bits do not stop root (CI runs as root); the disk-error test covers a
        // failing write there, so the row exists only for ordinary users.
        if (geteuid() != 0)
            QTest::newRow("read-only directory") << "readonly";
        QTest::newRow("proc") << "proc";
    }

    void unwritableTargets()
    {
        QFETCH(QString, where);
        const Fields f = makeFields({8, 8, 2});
        QTemporaryDir dir;
        QString path;
        QByteArray before;
        if (where == "missing")
            path = dir.filePath("no/such/dir/frame.vdb");
        if (where == "file") {
            QVERIFY(writeVdbFrame(fsPath(dir.filePath("plain.vdb")), f.frame(false, false)).ok());
            path = dir.filePath("plain.vdb/frame.vdb");
        }
        if (where == "readonly") {
            QVERIFY(QDir(dir.path()).mkdir("ro"));
            path = dir.filePath("ro/frame.vdb");
            QVERIFY(writeVdbFrame(fsPath(path), f.frame(false, false)).ok());
            before = fileBytes(path);
            QVERIFY(QFile::setPermissions(dir.filePath("ro"), QFile::ReadOwner | QFile::ExeOwner));
        }
        if (where == "proc")
            path = "/proc/plume-export-test.vdb";
        const Status s = writeVdbFrame(fsPath(path), f.frame(true, false));
        if (where == "readonly")
            QFile::setPermissions(dir.filePath("ro"),
                                  QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        QVERIFY(!s.ok());
        QVERIFY2(QString::fromStdString(s.error).contains(path), s.error.c_str());
        if (where == "readonly") {
            QCOMPARE(fileBytes(path), before);
            QCOMPARE(QDir(dir.filePath("ro")).entryList(QDir::Files | QDir::Hidden).size(), 1);
        }
    }

    void targetIsDirectory()
    {
        const Fields f = makeFields({8, 8, 2});
        QTemporaryDir dir;
        const QString path = dir.filePath("frame.0001.vdb");
        QVERIFY(QDir(dir.path()).mkdir("frame.0001.vdb"));
        QFile inside(path + "/keep.txt");
        QVERIFY(inside.open(QIODevice::WriteOnly));
        inside.close();
        const Status s = writeVdbFrame(fsPath(path), f.frame(true, true));
        QVERIFY(!s.ok());
        QVERIFY2(QString::fromStdString(s.error).contains(path), s.error.c_str());
        const auto all = QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot;
        QCOMPARE(QDir(dir.path()).entryList(all), QStringList{"frame.0001.vdb"});
        QCOMPARE(QDir(path).entryList(all), QStringList{"keep.txt"});
    }

    void diskErrorKeepsOldFile_data()
    {
        QTest::addColumn<Int3>("cells");
        QTest::addColumn<int>("minBytes");
        QTest::newRow("large file") << Int3{40, 40, 40} << 65536;
        // Smaller than QSaveFile's 16 KiB write buffer: a buffered write would only fail when
        // commit() flushes it (and Qt then commits the truncated file).
        QTest::newRow("small file") << Int3{8, 8, 2} << 512;
    }

    void diskErrorKeepsOldFile()
    {
        // A write that fails part-way (file size limit: EFBIG, as on a full disk) must leave
        // the previous complete file in place and no temporary file behind.
        QFETCH(Int3, cells);
        QFETCH(int, minBytes);
        const Fields f = makeFields(cells);
        QTemporaryDir dir;
        const QString path = dir.filePath("frame.0007.vdb");
        VdbFrame frame = f.frame(true, true);
        QVERIFY(writeVdbFrame(fsPath(path), frame).ok());
        const QByteArray before = fileBytes(path);
        QVERIFY(before.size() > minBytes);

        frame.frame = 8;
        Status s;
        {
            test::FileSizeLimit limit(before.size() / 2);
            QVERIFY(limit.active());
            s = writeVdbFrame(fsPath(path), frame);
        }

        // The message names the file and the system's reason, e.g. "cannot write VDB file
        // '/tmp/x/frame.0007.vdb': File too large" (was "Unknown error").
        QVERIFY(!s.ok());
        QVERIFY2(QString::fromStdString(s.error).contains(path), s.error.c_str());
        QVERIFY2(s.error.find(test::FileSizeLimit::reason()) != std::string::npos, s.error.c_str());
        QVERIFY2(s.error.find("Unknown error") == std::string::npos, s.error.c_str());
        QCOMPARE(fileBytes(path), before);
        const auto all = QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot;
        QCOMPARE(QDir(dir.path()).entryList(all), QStringList{"frame.0007.vdb"});
    }

    void largeSparsePlume()
    {
        // 128^3 with a ball of smoke over about 10% of the cells and velocity everywhere.
        const int n = 128;
        Fields f;
        f.domain.cells = {n, n, n};
        f.domain.cellSize = 1.f / n;
        for (ScalarGrid *g : {&f.density, &f.temperature, &f.vx, &f.vy, &f.vz})
            g->reshape(f.domain.cells, kCellCentre);
        const float r = 36.8f; // (4/3) pi r^3 = 0.1 * 128^3
        std::int64_t inside = 0;
        for (int k = 0; k < n; ++k)
            for (int j = 0; j < n; ++j)
                for (int i = 0; i < n; ++i) {
                    const float x = i + 0.5f - 64.f, y = j + 0.5f - 56.f, z = k + 0.5f - 64.f;
                    const float q = 1.f - (x * x + y * y + z * z) / (r * r);
                    f.density(i, j, k) = q > 0 ? q : 0.f;
                    f.temperature(i, j, k) = q > 0 ? 2.f * q : 0.f;
                    f.vx(i, j, k) = -0.01f * y;
                    f.vy(i, j, k) = 0.01f * x + 0.2f;
                    f.vz(i, j, k) = 0.001f * z;
                    inside += q > kThreshold ? 1 : 0;
                }
        VdbFrame frame = f.frame(true, false);
        QTemporaryDir dir;
        const QString path = dir.filePath("big.vdb");
        QElapsedTimer timer;
        timer.start();
        const Status s = writeVdbFrame(fsPath(path), frame);
        const qint64 ms = timer.elapsed();
        QVERIFY2(s.ok(), s.error.c_str());
        qInfo("128^3 density+temperature+vel, %lld active: %lld ms, %lld bytes",
              static_cast<long long>(inside), ms, static_cast<long long>(QFileInfo(path).size()));
        QVERIFY(inside > n * n * n / 12 && inside < n * n * n / 8);
        const ReadBack rb = readVdb(path);
        auto density = grid<openvdb::FloatGrid>(rb, "density");
        const QString m = compareGrid(*density, f.domain.cells, [&](int i, int j, int k) {
            return scalarExpect(f.density, i, j, k);
        });
        QVERIFY2(m.isEmpty(), qPrintable(m));
        QCOMPARE(grid<openvdb::Vec3SGrid>(rb, "vel")->activeVoxelCount(), openvdb::Index64(inside));
    }
};

QTEST_GUILESS_MAIN(TestExportVdb)
#include "tst_export_vdb.moc"
