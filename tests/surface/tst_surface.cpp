// SPDX-License-Identifier: Apache-2.0
// Level surfaces (docs/surfaces.md): particle and density level sets against analytic balls,
// closed meshes, OBJ files, determinism across thread counts.
// OpenVDB and oneTBB come before any Qt header: Qt's `emit` macro breaks oneTBB's headers.
#include <openvdb/openvdb.h>
#include <openvdb/tools/LevelSetMeasure.h>

#include <oneapi/tbb/global_control.h>

#include <core/surface/levelset.h>
#include <core/surface/surface.h>

#include "surfacefixtures.h"
#include "surfacetests.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/resource.h>

#include <cmath>
#include <csignal>
#include <map>
#include <numbers>

using namespace plume;
using namespace plume::sim;
using namespace plume::test;

namespace {

constexpr double kPi = std::numbers::pi;

double ballVolume(double r) { return 4.0 / 3.0 * kPi * r * r * r; }
double ballRadius(double volume) { return std::cbrt(volume * 3.0 / (4.0 * kPi)); }

/// Undirected edges used by other than exactly two triangles, and directed edges used twice
/// (two neighbours wound against each other).
std::pair<int, int> openAndFlippedEdges(const SurfaceMesh &mesh)
{
    std::map<std::pair<std::uint32_t, std::uint32_t>, int> directed;
    for (const auto &t : mesh.triangles)
        for (int e = 0; e < 3; ++e)
            ++directed[{t[e], t[(e + 1) % 3]}];
    int open = 0, flipped = 0;
    for (const auto &[edge, count] : directed) {
        if (count > 1)
            ++flipped;
        auto back = directed.find({edge.second, edge.first});
        if (back == directed.end() || back->second != count)
            ++open;
    }
    return {open, flipped};
}

template<class F>
auto withThreads(int threads, F &&f)
{
    oneapi::tbb::global_control limit(oneapi::tbb::global_control::max_allowed_parallelism,
                                      std::size_t(threads));
    return f();
}

} // namespace

class TestSurface : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { surface::initializeOpenVdb(); }

    // A ball of particles keeps the particles' volume (N cubes of side 2r, docs/surfaces.md):
    // the level set's volume gives that ball's radius within a quarter of a particle radius.
    void particleBallLevelSet()
    {
        const ParticleSet ball = particleBall(kBallCentre, kBallRadius, kParticleRadius);
        QVERIFY(ball.size() > 5000);
        const Domain domain = unitDomain(64);
        const auto grid = surface::particleLevelSet(ball, particleVoxelSize(ball, domain), {});
        QCOMPARE(grid->getGridClass(), openvdb::GRID_LEVEL_SET);
        const double volume = openvdb::tools::levelSetVolume(*grid);
        const double radius = ballRadius(volume), expected = particleVolumeRadius(ball);
        qInfo("particle ball: %zu particles, level-set radius %.5f (particles' volume: %.5f, "
              "particle radius %.4f)",
              ball.size(), radius, expected, kParticleRadius);
        QVERIFY2(std::abs(radius - expected) < 0.25 * kParticleRadius,
                 qPrintable(QString::number(radius)));
        // The distance at the centre is about -R, outside about +band.
        const openvdb::Vec3d centre(kBallCentre.x, kBallCentre.y, kBallCentre.z);
        openvdb::FloatGrid::ConstAccessor acc = grid->getConstAccessor();
        const auto at = [&](openvdb::Vec3d w) {
            return acc.getValue(grid->transform().worldToIndexNodeCentered(w));
        };
        QVERIFY(at(centre) < 0.f);
        QVERIFY(at(centre + openvdb::Vec3d(0.45, 0, 0)) > 0.f);
        // On the surface: the distance at radius R is within a voxel of zero.
        const float onSurface = at(centre + openvdb::Vec3d(0, expected, 0));
        QVERIFY2(std::abs(onSurface) < grid->voxelSize()[0],
                 qPrintable(QString::number(onSurface)));
    }

    void particleBallMeshIsClosed()
    {
        const ParticleSet ball = particleBall(kBallCentre, kBallRadius, kParticleRadius);
        SurfaceMesh mesh;
        QVERIFY(particleSurfaceMesh(ball, unitDomain(64), mesh).ok());
        QVERIFY(mesh.triangles.size() > 1000);
        QCOMPARE(mesh.normals.size(), mesh.positions.size());
        const auto [open, flipped] = openAndFlippedEdges(mesh);
        QCOMPARE(open, 0);
        QCOMPARE(flipped, 0);
        const double volume = meshVolume(mesh);
        qInfo("particle ball mesh: %zu triangles, volume %.6f, radius %.5f", mesh.triangles.size(),
              volume, ballRadius(volume));
        QVERIFY(volume > 0.0); // outward winding
        QVERIFY2(std::abs(ballRadius(volume) - particleVolumeRadius(ball)) < 0.25 * kParticleRadius,
                 qPrintable(QString::number(ballRadius(volume))));
        // Normals point away from the centre.
        int inward = 0;
        for (std::size_t v = 0; v < mesh.positions.size(); ++v)
            if (dot(mesh.normals[v], mesh.positions[v] - kBallCentre) <= 0.f)
                ++inward;
        QCOMPARE(inward, 0);
    }

    void emptyAndBadParticles()
    {
        SurfaceMesh mesh;
        QVERIFY(particleSurfaceMesh(ParticleSet{}, unitDomain(16), mesh).ok());
        QVERIFY(mesh.empty());
        ParticleSet bad = particleBall(kBallCentre, 0.1f, 0.02f);
        bad.radius = 0.f;
        Status s = particleSurfaceMesh(bad, unitDomain(16), mesh);
        QVERIFY(!s.ok());
        QVERIFY2(s.error.find("radius") != std::string::npos, s.error.c_str());
        bad.radius = 0.02f;
        bad.position[3].y = std::nanf("");
        s = particleSurfaceMesh(bad, unitDomain(16), mesh);
        QVERIFY2(s.error.find("particle 3") != std::string::npos, s.error.c_str());
    }

    // Density 1 - |x - c| / R0 (a cone): the iso-0.5 surface is the ball of radius R0 / 2.
    void densityIsoSurfaceRadius()
    {
        const Domain domain = unitDomain(64);
        const ScalarGrid density = coneDensity(domain, kBallCentre, 0.5f);
        SurfaceMesh mesh;
        QVERIFY(densitySurfaceMesh(density, domain, 0.5f, mesh).ok());
        const auto [open, flipped] = openAndFlippedEdges(mesh);
        QCOMPARE(open, 0);
        QCOMPARE(flipped, 0);
        const double radius = ballRadius(meshVolume(mesh));
        float worst = 0.f;
        for (const Vec3 &p : mesh.positions)
            worst = std::max(worst, std::abs(length(p - kBallCentre) - 0.25f));
        qInfo("cone iso 0.5: mesh radius %.5f (0.25), worst vertex %.5f (cell %.5f)", radius, worst,
              domain.cellSize);
        QVERIFY(std::abs(radius - 0.25) < 0.1 * domain.cellSize);
        QVERIFY(worst < 0.25f * domain.cellSize);
        // The rebuilt level set (the VDB `surface` grid) measures the same ball.
        const auto grid = surface::densityLevelSet(density, domain, 0.5f);
        QCOMPARE(grid->getGridClass(), openvdb::GRID_LEVEL_SET);
        const double lsRadius = ballRadius(openvdb::tools::levelSetVolume(*grid));
        QVERIFY2(std::abs(lsRadius - 0.25) < 0.1 * domain.cellSize,
                 qPrintable(QString::number(lsRadius)));
        // Another iso value moves the surface: iso 0.8 is radius 0.1.
        QVERIFY(densitySurfaceMesh(density, domain, 0.8f, mesh).ok());
        QVERIFY(std::abs(ballRadius(meshVolume(mesh)) - 0.1) < 0.2 * domain.cellSize);
    }

    // Density reaching the walls still gives a closed mesh: outside counts as empty.
    void densityAtTheWallsIsClosed()
    {
        const Domain domain = unitDomain(16);
        ScalarGrid density(domain.cells, kCellCentre, 1.f);
        SurfaceMesh mesh;
        QVERIFY(densitySurfaceMesh(density, domain, 0.5f, mesh).ok());
        QCOMPARE(openAndFlippedEdges(mesh).first, 0);
        QVERIFY(std::abs(meshVolume(mesh) - 1.0) < 0.1);
        Status s = densitySurfaceMesh(ScalarGrid(Int3{8, 8, 8}, kCellCentre), domain, 0.5f, mesh);
        QVERIFY(!s.ok());
        s = densitySurfaceMesh(density, domain, std::nanf(""), mesh);
        QVERIFY(!s.ok());
    }

    // OpenVDB's tools run on TBB: one thread and several give the same level set and mesh.
    void threadCountDeterminism()
    {
        const ParticleSet ball = particleBall(kBallCentre, kBallRadius, kParticleRadius);
        const Domain domain = unitDomain(64);
        const ScalarGrid density = coneDensity(domain, kBallCentre, 0.5f);
        struct Result
        {
            SurfaceMesh particles, smoke;
            ScalarGrid field;
            std::vector<float> levelSet;
        };
        auto run = [&] {
            Result r;
            particleSurfaceMesh(ball, domain, r.particles);
            densitySurfaceMesh(density, domain, 0.5f, r.smoke);
            particleSurfaceField(ball, domain, r.field);
            const auto grid = surface::particleLevelSet(ball, particleVoxelSize(ball, domain), {});
            for (auto it = grid->cbeginValueOn(); it; ++it) {
                const openvdb::Coord c = it.getCoord();
                r.levelSet.insert(r.levelSet.end(),
                                  {float(c.x()), float(c.y()), float(c.z()), *it});
            }
            return r;
        };
        const Result one = withThreads(1, run);
        for (int threads : {2, 4}) {
            const Result many = withThreads(threads, run);
            QVERIFY(one.levelSet == many.levelSet);
            QVERIFY(one.particles.positions == many.particles.positions);
            QVERIFY(one.particles.triangles == many.particles.triangles);
            QVERIFY(one.particles.normals == many.particles.normals);
            QVERIFY(one.smoke.positions == many.smoke.positions);
            QVERIFY(one.smoke.triangles == many.smoke.triangles);
            QVERIFY(std::equal(one.field.data(), one.field.data() + one.field.count(),
                               many.field.data()));
        }
        QVERIFY(!one.levelSet.empty());
    }

    // The dense field the renderer reads: negative inside the ball, zero crossing at R.
    void denseParticleField()
    {
        const ParticleSet ball = particleBall(kBallCentre, kBallRadius, kParticleRadius);
        const Domain domain = unitDomain(32);
        ScalarGrid phi;
        QVERIFY(particleSurfaceField(ball, domain, phi).ok());
        QCOMPARE(phi.size(), domain.cells);
        const int c = 16; // cell 16 is centred at 0.515625
        QVERIFY(phi(c, c, c) < 0.f);
        QVERIFY(phi(1, 1, 1) > 0.f);
        // Along +x the sign changes between the cells around the radius.
        const float radius = float(particleVolumeRadius(ball));
        for (int i = c; i < 31; ++i) {
            const float x = domain.cellCentre(i, c, c).x - kBallCentre.x;
            if (x < radius - 0.5f * kParticleRadius - domain.cellSize * 0.5f)
                QVERIFY2(phi(i, c, c) < 0.f, qPrintable(QString::number(i)));
            if (x > radius + 0.5f * kParticleRadius + domain.cellSize * 0.5f)
                QVERIFY2(phi(i, c, c) > 0.f, qPrintable(QString::number(i)));
        }
    }

    void objWrittenAndReadBack()
    {
        const Domain domain = unitDomain(32);
        SurfaceMesh mesh;
        QVERIFY(
            densitySurfaceMesh(coneDensity(domain, kBallCentre, 0.5f), domain, 0.5f, mesh).ok());
        QTemporaryDir dir;
        const std::filesystem::path path = dir.filePath("ball.obj").toStdString();
        QVERIFY(writeObj(path, mesh, false, "test").ok());
        ObjCounts counts = readObj(path);
        QCOMPARE(counts.vertices, mesh.positions.size());
        QCOMPARE(counts.normals, mesh.normals.size());
        QCOMPARE(counts.faces, mesh.triangles.size());
        QCOMPARE(counts.firstVertex, mesh.positions[0]); // %.9g round-trips floats
        QCOMPARE(counts.firstFace[0], mesh.triangles[0][0] + 1);
        // Z up: (x, y, z) written as (x, -z, y).
        QVERIFY(writeObj(path, mesh, true, "test").ok());
        counts = readObj(path);
        const Vec3 p = mesh.positions[0];
        QCOMPARE(counts.firstVertex, (Vec3{p.x, 0.f - p.z, p.y}));
    }

    // A failed write (the file size limit, as a full disk) leaves the previous file as it was
    // and no temporary file beside it.
    void objWriteIsAtomic()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath("keep.obj");
        const Domain domain = unitDomain(32);
        SurfaceMesh small, large;
        QVERIFY(
            densitySurfaceMesh(coneDensity(domain, kBallCentre, 0.2f), domain, 0.5f, small).ok());
        QVERIFY(
            densitySurfaceMesh(coneDensity(domain, kBallCentre, 0.8f), domain, 0.5f, large).ok());
        QVERIFY(writeObj(file.toStdString(), small, false, "first").ok());
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray before = f.readAll();
        f.close();
        // A bad mesh fails before anything is written.
        SurfaceMesh bad = small;
        bad.triangles[0][2] = std::uint32_t(bad.positions.size());
        Status s = writeObj(file.toStdString(), bad, false, "second");
        QVERIFY(!s.ok());
        QVERIFY2(s.error.find("keep.obj") != std::string::npos, s.error.c_str());

        rlimit old{};
        QCOMPARE(getrlimit(RLIMIT_FSIZE, &old), 0);
        const auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
        rlimit limit = old;
        limit.rlim_cur = rlim_t(before.size() * 2);
        QCOMPARE(setrlimit(RLIMIT_FSIZE, &limit), 0);
        s = writeObj(file.toStdString(), large, false, "second");
        setrlimit(RLIMIT_FSIZE, &old);
        std::signal(SIGXFSZ, oldHandler);
        QVERIFY(!s.ok());
        QVERIFY2(s.error.find("keep.obj") != std::string::npos, s.error.c_str());
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), before);
        const auto all = QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot;
        QCOMPARE(QDir(dir.path()).entryList(all), QStringList{"keep.obj"});
    }
};

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    int failed = 0;
    TestSurface core;
    failed += QTest::qExec(&core, argc, argv);
    failed += runSurfaceVdbTests(argc, argv);
    failed += runSurfaceRenderTests(argc, argv);
    return failed;
}

#include "tst_surface.moc"
