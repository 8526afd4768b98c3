// SPDX-License-Identifier: Apache-2.0
// Volume textures (docs/volume-textures.md): the volume is rebuilt here from the atlas by the
// sidecar's own description (layout, order, encoding), not by the writer's code, and compared
// with the simulation's field.
#include <core/bake/bakeplan.h>
#include <core/export/gridsample.h>
#include <core/export/volumetexture.h>
#include <core/io/scenereader.h>
#include <core/scene/scenesimulation.h>

#include <tests/common/clirun.h>

#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <vector>

using namespace plume;
using sim::Int3;

namespace {

const QString kScenes = PLUME_SOURCE_DIR "/resources/scenes/";

QJsonObject readJson(const QString &path)
{
    return QJsonDocument::fromJson(test::fileBytes(path)).object();
}

/// The volume of one frame, by the sidecar: slice k is the tile in column k % columns and row
/// k / columns; in a tile x runs right and y up; value = pixel / (2^bits - 1) * range.
std::vector<float> rebuild(const QJsonObject &sidecar, const QImage &atlas, double range)
{
    const int tw = sidecar["tileWidth"].toInt(), th = sidecar["tileHeight"].toInt();
    const int slices = sidecar["slices"].toInt(), columns = sidecar["columns"].toInt();
    const double top = sidecar["bitDepth"].toInt() == 16 ? 65535.0 : 255.0;
    std::vector<float> volume;
    for (int k = 0; k < slices; ++k)
        for (int j = 0; j < th; ++j)
            for (int i = 0; i < tw; ++i) {
                const int x = (k % columns) * tw + i, y = (k / columns) * th + (th - 1 - j);
                const uchar *line = atlas.constScanLine(y);
                const double pixel = atlas.depth() == 16
                                         ? reinterpret_cast<const quint16 *>(line)[x]
                                         : line[x];
                volume.push_back(float(pixel / top * range));
            }
    return volume;
}

} // namespace

class TestVolumeTexture : public QObject
{
    Q_OBJECT

private slots:
    void layoutHoldsEverySlice()
    {
        QCOMPARE(volumeAtlasColumns(1), 1);
        QCOMPARE(volumeAtlasColumns(64), 8);
        QCOMPARE(volumeAtlasColumns(65), 9);
        sim::Domain d;
        d.cells = {40, 80, 20};
        QCOMPARE(resampledCells(d, 64), (Int3{32, 64, 16}));
        QCOMPARE(resampledCells(d, 256), (Int3{40, 80, 20})); // never finer
        d.cells = {64, 32, 1};
        QCOMPARE(resampledCells(d, 16), (Int3{16, 8, 1}));
    }

    // A bake of plume-3d at the simulation's own grid: every voxel of the rebuilt volume is its
    // cell's density within half a step of the encoding.
    void atlasRebuildsTheField_data()
    {
        QTest::addColumn<int>("bits");
        QTest::addColumn<double>("range"); // 0: each frame's largest value
        QTest::newRow("8 bits") << 8 << 0.0;
        QTest::newRow("16 bits, fixed range") << 16 << 0.5;
    }
    void atlasRebuildsTheField()
    {
        QFETCH(int, bits);
        QFETCH(double, range);
        QTemporaryDir dir;
        const QString scene = kScenes + "plume-3d.plume";
        QStringList args{"bake",
                         scene,
                         "-o",
                         dir.path(),
                         "--frames",
                         "20:21",
                         "--volume-texture",
                         "density",
                         "--volume-texture-size",
                         "256",
                         "--volume-texture-bits",
                         QString::number(bits),
                         "--quiet"};
        if (range > 0)
            args << "--volume-texture-range" << QString::number(range);
        const test::CliRun r = test::runCli(args);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files, QDir::Name),
                 QStringList({"plume-3d_volume.0020.png", "plume-3d_volume.0021.png",
                              "plume-3d_volume.json"}));
        const QJsonObject sidecar = readJson(dir.filePath("plume-3d_volume.json"));
        QCOMPARE(sidecar["format"].toString(), QString("plume-volume-texture"));
        QCOMPARE(sidecar["bitDepth"].toInt(), bits);
        const QJsonArray frames = sidecar["frames"].toArray();
        QCOMPARE(frames.size(), 2);
        const QJsonObject last = frames[1].toObject();
        QCOMPARE(last["frame"].toInt(), 21);
        const double frameRange = last["range"].toDouble();
        const QImage atlas(dir.filePath(last["file"].toString()));
        QVERIFY(!atlas.isNull());
        QCOMPARE(atlas.depth(), bits);
        const int columns = sidecar["columns"].toInt(), rows = sidecar["rows"].toInt();
        QCOMPARE(atlas.size(), QSize(columns * sidecar["tileWidth"].toInt(),
                                     rows * sidecar["tileHeight"].toInt()));
        QVERIFY(columns * rows >= sidecar["slices"].toInt());
        const std::vector<float> volume = rebuild(sidecar, atlas, frameRange);

        const SceneReadResult read = readSceneFile(scene);
        QVERIFY(read.ok);
        SceneSimulation simulation;
        QVERIFY(simulation.setScene(read.scene));
        for (int frame = read.scene.simulation.frameStart; frame <= 21; ++frame)
            QVERIFY(simulation.advance(frame).status);
        sim::ScalarGrid density;
        simulation.simulation().solver().sample(sim::FieldKind::Density, density);
        const Int3 n = density.size();
        QCOMPARE(sidecar["voxels"].toArray(), (QJsonArray{n.x, n.y, n.z}));
        float largest = 0.f;
        for (std::size_t c = 0; c < density.count(); ++c)
            largest = std::max(largest, density[c]);
        QCOMPARE(frameRange, range > 0 ? range : double(largest));
        const double step = frameRange / (bits == 16 ? 65535.0 : 255.0);
        double worst = 0.0;
        std::size_t at = 0;
        for (int k = 0; k < n.z; ++k)
            for (int j = 0; j < n.y; ++j)
                for (int i = 0; i < n.x; ++i, ++at) {
                    const double want = std::min(double(density(i, j, k)), frameRange);
                    worst = std::max(worst, std::abs(double(volume[at]) - std::max(want, 0.0)));
                }
        QVERIFY2(worst <= 0.5 * step + 1e-6,
                 qPrintable(QString("worst %1, step %2").arg(worst).arg(step)));
    }

    void cliRefusesWhatCannotBe_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("channel") << QStringList{"--volume-texture", "speed"}
                                 << "one of density, temperature, flame";
        QTest::newRow("bits") << QStringList{"--volume-texture", "density", "--volume-texture-bits",
                                             "12"}
                              << "8 or 16";
        QTest::newRow("size") << QStringList{"--volume-texture", "density", "--volume-texture-size",
                                             "300"}
                              << "integer in [1, 256]";
        QTest::newRow("alone") << QStringList{"--volume-texture-bits", "16"}
                               << "goes with --volume-texture";
        QTest::newRow("resume") << QStringList{"--volume-texture", "density", "--resume"}
                                << "cannot resume";
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
};

QTEST_GUILESS_MAIN(TestVolumeTexture)
#include "tst_volume_texture.moc"
