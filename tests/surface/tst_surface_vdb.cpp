// SPDX-License-Identifier: Apache-2.0
// The surface grids of the VDB export: `surface` level sets and the `points` grid, read back
// with OpenVDB (part of tst_surface: QTest runs this object from tst_surface.cpp's main).
#include <openvdb/openvdb.h>
#include <openvdb/points/PointAttribute.h>
#include <openvdb/points/PointDataGrid.h>
#include <openvdb/tools/LevelSetMeasure.h>

#include <oneapi/tbb/global_control.h>

#include <core/export/vdbwriter.h>

#include "surfacefixtures.h"
#include "surfacetests.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <tuple>

using namespace plume;
using namespace plume::sim;
using namespace plume::test;

namespace {

struct ReadPoint
{
    Vec3 p, v;
};

openvdb::GridPtrVec readGrids(const QString &path)
{
    openvdb::io::File file(path.toStdString());
    file.open();
    openvdb::GridPtrVec grids = *file.getGrids();
    file.close();
    return grids;
}

openvdb::GridBase::Ptr findGrid(const openvdb::GridPtrVec &grids, const std::string &name)
{
    for (const auto &g : grids)
        if (g->getName() == name)
            return g;
    return nullptr;
}

std::vector<ReadPoint> readPoints(const openvdb::points::PointDataGrid &grid)
{
    namespace pts = openvdb::points;
    std::vector<ReadPoint> out;
    const auto leaf = grid.tree().cbeginLeaf();
    if (!leaf)
        return out;
    const std::size_t pIndex = leaf->attributeSet().find("P");
    const std::size_t vIndex = leaf->attributeSet().find("v");
    for (auto l = grid.tree().cbeginLeaf(); l; ++l) {
        pts::AttributeHandle<openvdb::Vec3f> p(l->constAttributeArray(pIndex));
        pts::AttributeHandle<openvdb::Vec3f> v(l->constAttributeArray(vIndex));
        for (auto it = l->beginIndexOn(); it; ++it) {
            const openvdb::Vec3d voxel = it.getCoord().asVec3d();
            const openvdb::Vec3d world = grid.transform().indexToWorld(voxel + p.get(*it));
            const openvdb::Vec3f vel = v.get(*it);
            out.push_back({Vec3{float(world.x()), float(world.y()), float(world.z())},
                           Vec3{vel.x(), vel.y(), vel.z()}});
        }
    }
    return out;
}

Vec3 zUp(const Vec3 &v) { return {v.x, 0.f - v.z, v.y}; }

double ballRadius(double volume) { return std::cbrt(volume * 3.0 / (4.0 * std::numbers::pi)); }

} // namespace

class TestSurfaceVdb : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void pointsAndSurfaceReadBack_data();
    void pointsAndSurfaceReadBack();
    void densityLevelSurfaceGrid();
    void fileBytesDoNotDependOnThreads();
    void badParticlesAreRefused();
};

void TestSurfaceVdb::initTestCase() { openvdb::initialize(); }

void TestSurfaceVdb::pointsAndSurfaceReadBack_data()
{
    QTest::addColumn<bool>("half");
    QTest::addColumn<bool>("zup");
    QTest::newRow("float, y up") << false << false;
    QTest::newRow("half, y up") << true << false;
    QTest::newRow("float, z up") << false << true;
}

void TestSurfaceVdb::pointsAndSurfaceReadBack()
{
    QFETCH(bool, half);
    QFETCH(bool, zup);
    const Domain domain = unitDomain(32);
    const ParticleSet ball = particleBall(kBallCentre, kBallRadius, kParticleRadius);
    const ScalarGrid density(domain.cells, kCellCentre, 0.f);
    VdbFrame frame;
    frame.domain = domain;
    frame.density = &density;
    frame.particles = &ball;
    frame.plumeVersion = "test";
    VdbWriteOptions options;
    options.halfFloat = half;
    options.up = zup ? UpAxis::Z : UpAxis::Y;
    QTemporaryDir dir;
    const QString path = dir.filePath("liquid.vdb");
    const Status s = writeVdbFrame(path.toStdString(), frame, options);
    QVERIFY2(s.ok(), s.error.c_str());
    const openvdb::GridPtrVec grids = readGrids(path);

    auto surface = openvdb::gridPtrCast<openvdb::FloatGrid>(findGrid(grids, "surface"));
    QVERIFY(surface);
    QCOMPARE(surface->getGridClass(), openvdb::GRID_LEVEL_SET);
    const double radius = ballRadius(openvdb::tools::levelSetVolume(*surface));
    QVERIFY2(std::abs(radius - particleVolumeRadius(ball)) < 0.25 * kParticleRadius,
             qPrintable(QString::number(radius)));
    const Vec3 centre = zup ? zUp(kBallCentre) : kBallCentre;
    const openvdb::Coord c = surface->transform().worldToIndexNodeCentered(
        openvdb::Vec3d(centre.x, centre.y, centre.z));
    QVERIFY(surface->tree().getValue(c) < 0.f);

    auto points = openvdb::gridPtrCast<openvdb::points::PointDataGrid>(findGrid(grids, "points"));
    QVERIFY(points);
    std::vector<ReadPoint> read = readPoints(*points);
    QCOMPARE(read.size(), ball.size());
    std::vector<ReadPoint> expected;
    for (std::size_t n = 0; n < ball.size(); ++n)
        expected.push_back(zup ? ReadPoint{zUp(ball.position[n]), zUp(ball.velocity[n])}
                               : ReadPoint{ball.position[n], ball.velocity[n]});
    // Each read point against its nearest particle (neighbours are over a radius apart, far
    // more than any rounding), every particle matched once.
    const float bucket = 2.f * kParticleRadius;
    auto key = [&](const Vec3 &p, int dx, int dy, int dz) {
        return std::tuple{int(std::floor(p.x / bucket)) + dx, int(std::floor(p.y / bucket)) + dy,
                          int(std::floor(p.z / bucket)) + dz};
    };
    std::map<std::tuple<int, int, int>, std::vector<std::size_t>> buckets;
    for (std::size_t n = 0; n < expected.size(); ++n)
        buckets[key(expected[n].p, 0, 0, 0)].push_back(n);
    std::vector<int> matched(expected.size(), 0);
    // Full floats: float rounding of voxel offsets; half: 16-bit fixed point in the voxel.
    const float voxel = float(surface->voxelSize()[0]);
    const float pTol = half ? voxel / 30000.f : 1e-6f;
    float worstP = 0.f, worstV = 0.f;
    for (const ReadPoint &r : read) {
        std::size_t best = expected.size();
        float bestDistance = 1e30f;
        for (int dz = -1; dz <= 1; ++dz)
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    const auto it = buckets.find(key(r.p, dx, dy, dz));
                    for (std::size_t n :
                         it == buckets.end() ? std::vector<std::size_t>{} : it->second) {
                        const float d = length(r.p - expected[n].p);
                        if (d < bestDistance) {
                            bestDistance = d;
                            best = n;
                        }
                    }
                }
        QVERIFY(best < expected.size());
        ++matched[best];
        worstP = std::max(worstP, bestDistance);
        const Vec3 v = expected[best].v;
        const float vTol = half ? 1e-3f * std::max(length(v), 1.f) : 0.f;
        worstV = std::max(worstV, length(r.v - v) - vTol);
    }
    QVERIFY(std::all_of(matched.begin(), matched.end(), [](int m) { return m == 1; }));
    QVERIFY2(worstP <= pTol, qPrintable(QString::number(worstP)));
    QVERIFY2(worstV <= 0.f, qPrintable(QString::number(worstV)));
}

void TestSurfaceVdb::densityLevelSurfaceGrid()
{
    const Domain domain = unitDomain(48);
    const ScalarGrid density = coneDensity(domain, kBallCentre, 0.5f);
    VdbFrame frame;
    frame.domain = domain;
    frame.density = &density;
    frame.plumeVersion = "test";
    QTemporaryDir dir;
    const QString path = dir.filePath("smoke.vdb");
    QVERIFY(writeVdbFrame(path.toStdString(), frame).ok());
    QVERIFY(!findGrid(readGrids(path), "surface")); // only when asked for
    frame.levelSurface = true;
    frame.levelSurfaceIso = 0.5f;
    for (UpAxis up : {UpAxis::Y, UpAxis::Z}) {
        VdbWriteOptions options;
        options.up = up;
        QVERIFY(writeVdbFrame(path.toStdString(), frame, options).ok());
        auto surface = openvdb::gridPtrCast<openvdb::FloatGrid>(
            findGrid(readGrids(path), "surface"));
        QVERIFY(surface);
        QCOMPARE(surface->getGridClass(), openvdb::GRID_LEVEL_SET);
        const double radius = ballRadius(openvdb::tools::levelSetVolume(*surface));
        QVERIFY2(std::abs(radius - 0.25) < 0.1 * domain.cellSize,
                 qPrintable(QString::number(radius)));
        const Vec3 centre = up == UpAxis::Z ? zUp(kBallCentre) : kBallCentre;
        const auto at = [&](Vec3 w) {
            return surface->tree().getValue(
                surface->transform().worldToIndexNodeCentered(openvdb::Vec3d(w.x, w.y, w.z)));
        };
        QVERIFY(at(centre) < 0.f);
        // On the sphere (along the file's x axis) the distance is within a cell of zero.
        QVERIFY(std::abs(at(centre + Vec3{0.25f, 0.f, 0.f})) < domain.cellSize);
    }
    frame.levelSurfaceIso = std::nanf("");
    QVERIFY(!writeVdbFrame(path.toStdString(), frame).ok());
}

void TestSurfaceVdb::fileBytesDoNotDependOnThreads()
{
    const Domain domain = unitDomain(32);
    const ParticleSet ball = particleBall(kBallCentre, kBallRadius, kParticleRadius);
    const ScalarGrid density = coneDensity(domain, kBallCentre, 0.4f);
    VdbFrame frame;
    frame.domain = domain;
    frame.density = &density;
    frame.particles = &ball;
    frame.plumeVersion = "test";
    QTemporaryDir dir;
    auto bytes = [&](int threads, bool particles) {
        oneapi::tbb::global_control limit(oneapi::tbb::global_control::max_allowed_parallelism,
                                          std::size_t(threads));
        VdbFrame f = frame;
        if (!particles) {
            f.particles = nullptr;
            f.levelSurface = true;
        }
        const QString path = dir.filePath(QString("t%1.vdb").arg(threads));
        if (!writeVdbFrame(path.toStdString(), f).ok())
            return QByteArray();
        QFile file(path);
        file.open(QIODevice::ReadOnly);
        return file.readAll();
    };
    for (bool particles : {true, false}) {
        const QByteArray one = bytes(1, particles);
        QVERIFY(!one.isEmpty());
        QCOMPARE(bytes(2, particles), one);
        QCOMPARE(bytes(4, particles), one);
    }
}

void TestSurfaceVdb::badParticlesAreRefused()
{
    const Domain domain = unitDomain(16);
    const ScalarGrid density(domain.cells, kCellCentre, 0.f);
    ParticleSet p = particleBall(kBallCentre, 0.1f, 0.02f);
    p.velocity[2].x = std::numeric_limits<float>::infinity();
    VdbFrame frame;
    frame.domain = domain;
    frame.density = &density;
    frame.particles = &p;
    QTemporaryDir dir;
    const Status s = writeVdbFrame(dir.filePath("bad.vdb").toStdString(), frame);
    QVERIFY(!s.ok());
    QVERIFY2(s.error.find("particle 2") != std::string::npos, s.error.c_str());
    QVERIFY(!QFile::exists(dir.filePath("bad.vdb")));
}

int runSurfaceVdbTests(int argc, char **argv)
{
    TestSurfaceVdb tests;
    return QTest::qExec(&tests, argc, argv);
}

#include "tst_surface_vdb.moc"
