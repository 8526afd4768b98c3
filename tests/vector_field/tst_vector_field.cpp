// SPDX-License-Identifier: Apache-2.0
// Vector fields for game engines (docs/vector-fields.md): the files are read back here by
// readers written from the formats' own descriptions, not from the writer, and compared with
// the velocity they sample.
//  - Unity's `.vf` (the VFX Graph's importer): the FourCC "VF_V", three little-endian uint16
//    sizes, then little-endian float32 x, y, z per voxel, x fastest, then y, then z; any other
//    length is refused.
//  - Unreal's `.fga`: comma-separated text, "sizeX,sizeY,sizeZ," "minX,minY,minZ,"
//    "maxX,maxY,maxZ," then x,y,z per voxel, x fastest.
#include <core/bake/bakeplan.h>
#include <core/export/gridsample.h>
#include <core/export/vectorfield.h>
#include <core/io/scenereader.h>
#include <core/scene/builtinscene.h>
#include <core/scene/scenesimulation.h>

#include <tests/common/clirun.h>

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

using namespace plume;
using sim::Int3;
using sim::Vec3;

namespace {

const QString kScenes = PLUME_SOURCE_DIR "/resources/scenes/";

/// A vector field as a file holds it.
struct Read
{
    bool ok = false;
    QString error;
    int size[3] = {0, 0, 0};
    float lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0}; ///< .fga only
    std::vector<float> values;                  ///< x, y, z per voxel
};

std::uint16_t u16(const QByteArray &b, qsizetype at)
{
    return std::uint16_t(std::uint8_t(b[at]) | std::uint8_t(b[at + 1]) << 8);
}

float f32(const QByteArray &b, qsizetype at)
{
    const std::uint32_t bits = std::uint32_t(std::uint8_t(b[at]))
                               | std::uint32_t(std::uint8_t(b[at + 1])) << 8
                               | std::uint32_t(std::uint8_t(b[at + 2])) << 16
                               | std::uint32_t(std::uint8_t(b[at + 3])) << 24;
    float v;
    std::memcpy(&v, &bits, 4);
    return v;
}

/// Unity's importer: the header, then exactly 12 bytes a voxel.
Read readVf(const QByteArray &b)
{
    Read r;
    if (b.size() < 10 || b.left(4) != "VF_V") {
        r.error = "no VF_V header";
        return r;
    }
    for (int a = 0; a < 3; ++a)
        r.size[a] = u16(b, 4 + 2 * a);
    const qsizetype voxels = qsizetype(r.size[0]) * r.size[1] * r.size[2];
    if (b.size() != 10 + 12 * voxels) {
        r.error = QString("%1 bytes for %2 voxels").arg(b.size()).arg(voxels);
        return r;
    }
    for (qsizetype c = 0; c < 3 * voxels; ++c)
        r.values.push_back(f32(b, 10 + 4 * c));
    r.ok = true;
    return r;
}

/// Unreal's text: every number ends in a comma; lines do not matter.
Read readFga(const QByteArray &text)
{
    Read r;
    std::vector<double> numbers;
    for (const QByteArray &field : text.simplified().replace(' ', "").split(',')) {
        if (field.isEmpty())
            continue;
        bool ok = false;
        numbers.push_back(field.toDouble(&ok));
        if (!ok) {
            r.error = "not a number: " + QString(field);
            return r;
        }
    }
    if (numbers.size() < 9) {
        r.error = "short header";
        return r;
    }
    for (int a = 0; a < 3; ++a) {
        r.size[a] = int(numbers[std::size_t(a)]);
        r.lo[a] = float(numbers[std::size_t(3 + a)]);
        r.hi[a] = float(numbers[std::size_t(6 + a)]);
    }
    const std::size_t voxels = std::size_t(r.size[0]) * r.size[1] * r.size[2];
    if (numbers.size() != 9 + 3 * voxels) {
        r.error = QString("%1 numbers for %2 voxels").arg(numbers.size()).arg(voxels);
        return r;
    }
    for (std::size_t c = 9; c < numbers.size(); ++c)
        r.values.push_back(float(numbers[c]));
    r.ok = true;
    return r;
}

/// A linear velocity, which trilinear sampling reproduces exactly.
Vec3 linear(Vec3 p) { return {1.f + 2.f * p.x - p.z, -0.5f + 3.f * p.y, 0.25f - p.x + 4.f * p.z}; }

sim::Domain box(Int3 cells)
{
    sim::Domain d;
    d.cells = cells;
    d.cellSize = 0.125f;
    d.origin = {-1.f, 0.5f, 2.f};
    return d;
}

/// The linear field at every cell centre of `d`.
void fill(const sim::Domain &d, sim::ScalarGrid (&v)[3])
{
    for (auto &g : v)
        g = sim::ScalarGrid(d.cells, Vec3{0.5f, 0.5f, 0.5f});
    for (int k = 0; k < d.cells.z; ++k)
        for (int j = 0; j < d.cells.y; ++j)
            for (int i = 0; i < d.cells.x; ++i) {
                const Vec3 u = linear(d.cellCentre(i, j, k));
                for (int a = 0; a < 3; ++a)
                    v[a](i, j, k) = u[a];
            }
}

/// Where a voxel of the engine's grid lies in Plume's space, and the engine's vector for a
/// Plume vector, by each engine's documented axes. Unity: (x, y, -z). Unreal: X = -z, Y = x,
/// Z = y; both times `scale`.
Vec3 toEngine(Vec3 v, VectorFieldFormat f, float scale)
{
    return f == VectorFieldFormat::Vf ? Vec3{v.x, v.y, -v.z} * scale : Vec3{-v.z, v.x, v.y} * scale;
}
Vec3 fromEngine(Vec3 e, VectorFieldFormat f, float scale)
{
    const Vec3 p = e * (1.f / scale);
    return f == VectorFieldFormat::Vf ? Vec3{p.x, p.y, -p.z} : Vec3{p.y, p.z, -p.x};
}

} // namespace

class TestVectorField : public QObject
{
    Q_OBJECT

private slots:
    void gridKeepsTheDomainsProportions()
    {
        QCOMPARE(resampledCells(box({40, 80, 20}), 64), (Int3{32, 64, 16}));
        QCOMPARE(resampledCells(box({40, 80, 20}), 128), (Int3{40, 80, 20})); // never finer
        QCOMPARE(resampledCells(box({200, 3, 100}), 128), (Int3{128, 2, 64}));
        QCOMPARE(resampledCells(box({64, 32, 1}), 16), (Int3{16, 8, 1})); // 2D: one deep
    }

    // A linear velocity read back from each file, at each voxel's centre by the format's axes.
    void filesHoldTheVelocityAtTheirVoxels_data()
    {
        QTest::addColumn<int>("format");
        QTest::addColumn<float>("scale");
        QTest::newRow("vf") << int(VectorFieldFormat::Vf) << 1.f;
        QTest::newRow("fga, centimetres") << int(VectorFieldFormat::Fga) << 100.f;
    }
    void filesHoldTheVelocityAtTheirVoxels()
    {
        QFETCH(int, format);
        QFETCH(float, scale);
        const auto f = VectorFieldFormat(format);
        const sim::Domain d = box({24, 40, 16});
        sim::ScalarGrid v[3];
        fill(d, v);
        VectorFieldSettings s;
        s.format = f;
        s.size = 20;
        s.scale = scale;
        QTemporaryDir dir;
        const QString path = dir.filePath(QString("field") + vectorFieldExtension(f));
        QVERIFY(writeVectorField(resampleVectorField(d, v, s), f, path.toStdString()));
        const QByteArray bytes = test::fileBytes(path);
        const Read r = f == VectorFieldFormat::Vf ? readVf(bytes) : readFga(bytes);
        QVERIFY2(r.ok, qPrintable(r.error));
        // The grid: 12 x 20 x 8 along Plume's axes, in the engine's order.
        const Int3 plume{12, 20, 8};
        const Int3 expected = f == VectorFieldFormat::Vf ? plume : Int3{plume.z, plume.x, plume.y};
        QCOMPARE((Int3{r.size[0], r.size[1], r.size[2]}), expected);
        // The box, in the engine's axes and units (.fga holds it; Unity's graph sets its own).
        Vec3 lo = toEngine(d.origin, f, scale), hi = toEngine(d.origin + d.extent(), f, scale);
        for (int a = 0; a < 3; ++a) {
            if (lo[a] > hi[a])
                std::swap(lo[a], hi[a]);
        }
        if (f == VectorFieldFormat::Fga) {
            for (int a = 0; a < 3; ++a) {
                QCOMPARE(r.lo[a], lo[a]);
                QCOMPARE(r.hi[a], hi[a]);
            }
        }
        double worst = 0.0;
        std::size_t c = 0;
        for (int k = 0; k < r.size[2]; ++k)
            for (int j = 0; j < r.size[1]; ++j)
                for (int i = 0; i < r.size[0]; ++i, c += 3) {
                    const int t[3] = {i, j, k};
                    Vec3 e;
                    for (int a = 0; a < 3; ++a)
                        e[a] = lo[a] + (t[a] + 0.5f) * (hi[a] - lo[a]) / r.size[a];
                    const Vec3 want = toEngine(linear(fromEngine(e, f, scale)), f, scale);
                    for (int a = 0; a < 3; ++a)
                        worst = std::max(worst, std::abs(double(r.values[c + a]) - want[a])
                                                    / (1.0 + std::abs(want[a])));
                }
        QVERIFY2(worst < 1e-5, qPrintable(QString::number(worst)));
    }

    // Unity's importer refuses a file of any other length; the reader here does too.
    void truncatedVfIsRefused()
    {
        const sim::Domain d = box({8, 8, 8});
        sim::ScalarGrid v[3];
        fill(d, v);
        QByteArray bytes = vectorFieldBytes(resampleVectorField(d, v, {}), VectorFieldFormat::Vf);
        QCOMPARE(bytes.size(), qsizetype(10 + 12 * 8 * 8 * 8));
        QVERIFY(readVf(bytes).ok);
        bytes.chop(1);
        QVERIFY(!readVf(bytes).ok);
    }

    // The mean of frames, in a fixed order.
    void averageIsTheMean()
    {
        VectorField a, b;
        a.size = b.size = {1, 1, 2};
        a.values = {1, 2, 3, 4, 5, 6};
        b.values = {3, 2, 1, 0, -1, -2};
        VectorFieldAverage mean;
        QVERIFY(mean.add(a));
        QVERIFY(mean.add(b));
        QCOMPARE(mean.mean().values, (std::vector<float>{2, 2, 2, 2, 2, 2}));
        VectorField other;
        other.size = {2, 1, 1};
        other.values.assign(6, 0.f);
        QVERIFY(!mean.add(other));
    }

    // plume-cli bakes them: one a frame (.vf), or the mean (.fga); a real simulation's velocity
    // read back equals the solver's at the voxels' cell centres where the grids coincide.
    void cliBakesThem()
    {
        QTemporaryDir dir;
        const QString scene = kScenes + "plume-3d.plume";
        const QString frames = dir.filePath("frames");
        test::CliRun r = test::runCli({"bake", scene, "-o", frames, "--frames", "6:8",
                                       "--vector-field", "vf", "--vector-field-size", "128",
                                       "--quiet"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(QDir(frames).entryList(QDir::Files, QDir::Name),
                 QStringList({"plume-3d.0006.vf", "plume-3d.0007.vf", "plume-3d.0008.vf"}));
        // The same frame simulated here: at size 128 the grid is the simulation's own, so each
        // voxel holds its cell's velocity (Unity's z negated and the z order reversed).
        const SceneReadResult read = readSceneFile(scene);
        QVERIFY(read.ok);
        SceneSimulation simulation;
        QVERIFY(simulation.setScene(read.scene));
        for (int frame = read.scene.simulation.frameStart; frame <= 8; ++frame)
            QVERIFY(simulation.advance(frame).status);
        const sim::Solver &solver = simulation.simulation().solver();
        sim::ScalarGrid v[3];
        solver.sample(sim::FieldKind::VelocityX, v[0]);
        solver.sample(sim::FieldKind::VelocityY, v[1]);
        solver.sample(sim::FieldKind::VelocityZ, v[2]);
        const Read file = readVf(test::fileBytes(frames + "/plume-3d.0008.vf"));
        QVERIFY2(file.ok, qPrintable(file.error));
        const Int3 n = solver.sampleDomain().cells;
        QCOMPARE((Int3{file.size[0], file.size[1], file.size[2]}), n);
        double worst = 0.0, largest = 0.0;
        std::size_t c = 0;
        for (int k = 0; k < n.z; ++k)
            for (int j = 0; j < n.y; ++j)
                for (int i = 0; i < n.x; ++i, c += 3) {
                    const int z = n.z - 1 - k;
                    const float want[3] = {v[0](i, j, z), v[1](i, j, z), -v[2](i, j, z)};
                    for (int a = 0; a < 3; ++a) {
                        worst = std::max(worst, std::abs(double(file.values[c + a]) - want[a]));
                        largest = std::max(largest, std::abs(double(want[a])));
                    }
                }
        QVERIFY(largest > 0.05); // the plume moves
        QVERIFY2(worst < 1e-6 * largest, qPrintable(QString::number(worst)));

        const QString mean = dir.filePath("mean");
        r = test::runCli({"bake", scene, "-o", mean, "--frames", "6:8", "--vector-field", "fga",
                          "--vector-field-average", "--vector-field-scale", "100",
                          "--vector-field-size", "16", "--quiet"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(QDir(mean).entryList(QDir::Files), QStringList({"plume-3d_vectorfield.fga"}));
        const Read fga = readFga(test::fileBytes(mean + "/plume-3d_vectorfield.fga"));
        QVERIFY2(fga.ok, qPrintable(fga.error));
        QCOMPARE(std::max({fga.size[0], fga.size[1], fga.size[2]}), 16);
        QCOMPARE(fga.size[2], 16); // Unreal's z is Plume's y, the plume's tall side
    }

    void cliRefusesWhatCannotBe_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("format") << QStringList{"--vector-field", "vdb"} << "one of vf, fga";
        QTest::newRow("size") << QStringList{"--vector-field", "vf", "--vector-field-size", "129"}
                              << "integer in [1, 128]";
        QTest::newRow("scale") << QStringList{"--vector-field", "vf", "--vector-field-scale", "0"}
                               << "--vector-field-scale must be";
        QTest::newRow("alone") << QStringList{"--vector-field-size", "32"}
                               << "goes with --vector-field";
    }
    void cliRefusesWhatCannotBe()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const test::CliRun r = test::runCli(
            QStringList{"bake", kScenes + "plume-3d.plume", "-o", dir.path()} + args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
    }

    // The plan's rules: no ocean, no cache, no resumed average.
    void planRefusals()
    {
        BakeSettings s;
        s.outputDirectory = "/tmp/none";
        s.baseName = "x";
        s.vdb = false;
        s.vectorField.enabled = true;
        const SceneReadResult ocean = readSceneFile(kScenes + "ocean-tile.plume");
        QVERIFY(ocean.ok);
        s.firstFrame = s.lastFrame = ocean.scene.simulation.frameStart;
        PlannedBake p = planBake(ocean.scene, s);
        QVERIFY2(!p.ok() && p.message.find("ocean") != std::string::npos, p.message.c_str());
        const SceneReadResult smoke = readSceneFile(kScenes + "plume-3d.plume");
        s.firstFrame = s.lastFrame = 2;
        QVERIFY2(planBake(smoke.scene, s).ok(), planBake(smoke.scene, s).message.c_str());
        s.vectorField.average = true;
        s.resume = true;
        p = planBake(smoke.scene, s);
        QVERIFY2(!p.ok() && p.message.find("cannot resume") != std::string::npos,
                 p.message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestVectorField)
#include "tst_vector_field.moc"
