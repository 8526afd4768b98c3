// SPDX-License-Identifier: Apache-2.0
// Ocean maps (docs/ocean.md): 16-bit PNGs (or OpenEXR) of height, normal and foam that tile in
// space and loop in time, with a sidecar; the ocean-tile example bakes.
#include <core/bake/oceanbake.h>
#include <core/export/exrimage.h>
#include <core/export/oceanmaps.h>
#include <core/io/scenereader.h>
#include <core/scene/scenesimulation.h>

#include <QtTest>

#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

using namespace plume;

namespace {

/// The example at another resolution, loop period and length; 6 frames per second, so that a
/// loop of a few seconds (long enough to move the 100 m patch's waves) has few frames.
Scene example(int resolution, float loopPeriod, int frames)
{
    const SceneReadResult r = readSceneFile(
        QStringLiteral(PLUME_SOURCE_DIR "/resources/scenes/ocean-tile.plume"));
    if (!r.ok)
        qFatal("%s", r.error.c_str());
    Scene s = r.scene;
    s.domain.resolution = resolution;
    s.simulation.params.ocean.loopPeriod = loopPeriod;
    s.simulation.frameEnd = frames;
    s.simulation.time.frameRate = 6.f;
    return s;
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// 0..1 value of channel c at (x, y) of a 16-bit image.
double value(const QImage &image, int x, int y, int c = 0)
{
    if (image.format() == QImage::Format_Grayscale16)
        return reinterpret_cast<const quint16 *>(image.constScanLine(y))[x] / 65535.0;
    const QRgba64 p = reinterpret_cast<const QRgba64 *>(image.constScanLine(y))[x];
    const quint16 v[4] = {p.red(), p.green(), p.blue(), p.alpha()};
    return v[c] / 65535.0;
}

/// Mean step across the left-right seam over the mean step between interior columns.
double seamRatio(const QImage &image, int c)
{
    double seam = 0.0, inside = 0.0;
    const int w = image.width();
    for (int y = 0; y < image.height(); ++y) {
        seam += std::abs(value(image, 0, y, c) - value(image, w - 1, y, c));
        for (int x = 0; x + 1 < w; ++x)
            inside += std::abs(value(image, x + 1, y, c) - value(image, x, y, c)) / (w - 1);
    }
    return seam / inside;
}

} // namespace

class TestOceanMaps : public QObject
{
    Q_OBJECT

private slots:
    // Pixel (x, 0) is cell (x, ny - 1); grey maps are 16-bit grey, normals RGBA64; values
    // survive to 1/65535.
    void encoding()
    {
        sim::ScalarGrid h({3, 2, 1}, sim::kCellCentre);
        for (int n = 0; n < 6; ++n)
            h[std::size_t(n)] = float(n);
        const MapImage m = heightMap(h, 0.f, 5.f);
        QCOMPARE(m.width, 3);
        QCOMPARE(m.height, 2);
        QCOMPARE(m.at(0, 0, 0), 3.f / 5.f); // cell (0, 1)
        QCOMPARE(m.at(2, 1, 0), 2.f / 5.f); // cell (2, 0)
        QImage grey;
        QVERIFY(grey.loadFromData(pngBytes16(m), "png"));
        QCOMPARE(grey.format(), QImage::Format_Grayscale16);
        for (int y = 0; y < 2; ++y)
            for (int x = 0; x < 3; ++x)
                QVERIFY(std::abs(value(grey, x, y) - m.at(x, y, 0)) <= 0.5 / 65535.0);
        sim::ScalarGrid zero({3, 2, 1}, sim::kCellCentre, 0.f),
            one({3, 2, 1}, sim::kCellCentre, 1.f);
        sim::ScalarGrid minus({3, 2, 1}, sim::kCellCentre, -0.6f);
        const MapImage n = normalMap(minus, zero, one);
        QImage rgb;
        QVERIFY(rgb.loadFromData(pngBytes16(n), "png"));
        QVERIFY(rgb.format() == QImage::Format_RGBA64 || rgb.format() == QImage::Format_RGBX64);
        QVERIFY(std::abs(value(rgb, 1, 1, 0) - 0.2) <= 0.5 / 65535.0);
        QCOMPARE(value(rgb, 1, 1, 1), 32768.0 / 65535.0);
        QCOMPARE(value(rgb, 1, 1, 2), 1.0);
        QCOMPARE(value(rgb, 1, 1, 3), 1.0);
    }

    // Frames 1..N+1 of a loop of N frames: frame N+1's maps are frame 1's bytes, the maps tile
    // (the seam's step is like any other), normals are unit length, foam in [0, 1], and the
    // sidecar holds the height range that every height map fits in.
    void tilesAndLoops()
    {
        const Scene scene = example(64, 4.f, 25); // 24 frames per loop
        QTemporaryDir dir;
        OceanBakeSettings s;
        s.outputDirectory = dir.path().toStdString();
        s.baseName = "sea";
        s.firstFrame = 1;
        s.lastFrame = 25;
        const BakeResult result = bakeOceanMaps(scene, s);
        QVERIFY2(result.status.ok(), result.status.error.c_str());
        QCOMPARE(int(result.files.size()), 25 * 3 + 1);
        auto path = [&](const char *map, int frame) {
            return dir.filePath(QString("sea_%1.%2.png").arg(map).arg(frame, 4, 10, QChar('0')));
        };
        for (const char *map : {"height", "normal", "foam"}) {
            QCOMPARE(readAll(path(map, 25)), readAll(path(map, 1)));
            QVERIFY(readAll(path(map, 13)) != readAll(path(map, 1)));
        }
        QVERIFY(readAll(path("height", 2)) != readAll(path("height", 1)));

        const QJsonObject side =
            QJsonDocument::fromJson(readAll(dir.filePath("sea_ocean.json"))).object();
        QCOMPARE(side["loopFrames"].toDouble(), 24.0);
        QCOMPARE(side["layout"].toString(), QString("sequence"));
        const double low = side["height"].toObject()["min"].toDouble();
        const double high = side["height"].toObject()["max"].toDouble();
        QVERIFY(low < 0.0 && high > 0.0);

        double darkest = 1.0, brightest = 0.0;
        for (int f = 1; f <= 24; ++f) {
            QImage h, n, foam;
            QVERIFY(h.load(path("height", f)) && n.load(path("normal", f))
                    && foam.load(path("foam", f)));
            QCOMPARE(h.size(), QSize(64, 64));
            for (int y = 0; y < 64; ++y) {
                for (int x = 0; x < 64; ++x) {
                    darkest = std::min(darkest, value(h, x, y));
                    brightest = std::max(brightest, value(h, x, y));
                    double len = 0.0;
                    for (int c = 0; c < 3; ++c)
                        len += std::pow(2.0 * value(n, x, y, c) - 1.0, 2.0);
                    QVERIFY(std::abs(std::sqrt(len) - 1.0) < 1e-3);
                }
            }
            if (f == 1) {
                for (int c = 0; c < 3; ++c) {
                    const double r = seamRatio(c == 0 ? h : n, c);
                    QVERIFY2(r > 0.6 && r < 1.6, qPrintable(QString::number(r)));
                }
                const QImage turned = h.transformed(QTransform().rotate(90));
                const double r = seamRatio(turned, 0);
                QVERIFY2(r > 0.6 && r < 1.6, qPrintable(QString::number(r)));
            }
        }
        // The range is the frames' own: some pixel reaches each end.
        QVERIFY(darkest < 1e-4 && brightest > 1.0 - 1e-4);
    }

    // --ocean-flipbook: one atlas per map, frames in rows of `columns`.
    void flipbook()
    {
        const Scene scene = example(32, 2.f, 12);
        QTemporaryDir dir;
        OceanBakeSettings s;
        s.outputDirectory = dir.path().toStdString();
        s.baseName = "sea";
        s.firstFrame = 1;
        s.lastFrame = 12;
        s.maps = {OceanMap::Normal};
        s.flipbook = true;
        s.columns = 4;
        const BakeResult result = bakeOceanMaps(scene, s);
        QVERIFY2(result.status.ok(), result.status.error.c_str());
        QCOMPARE(int(result.files.size()), 2);
        QImage atlas;
        QVERIFY(atlas.load(dir.filePath("sea_normal_flipbook.png")));
        QCOMPARE(atlas.size(), QSize(4 * 32, 3 * 32));
        const QJsonObject side =
            QJsonDocument::fromJson(readAll(dir.filePath("sea_ocean.json"))).object();
        QCOMPARE(side["columns"].toInt(), 4);
    }

    // --format exr: OpenEXR maps; the height is in metres as simulated (the solver's own
    // values, not scaled), float or half; the sidecar says so.
    void exrMaps()
    {
        const Scene scene = example(32, 2.f, 4);
        QTemporaryDir dir;
        OceanBakeSettings s;
        s.outputDirectory = dir.path().toStdString();
        s.baseName = "sea";
        s.firstFrame = 1;
        s.lastFrame = 4;
        s.maps = {OceanMap::Height, OceanMap::Normal};
        s.format = ImageFormat::Exr;
        s.exrPrecision = ExrPrecision::Float;
        const BakeResult result = bakeOceanMaps(scene, s);
        QVERIFY2(result.status.ok(), result.status.error.c_str());
        FloatImage height, normal;
        QVERIFY(readExr(dir.filePath("sea_height.0004.exr"), height).ok());
        QVERIFY(readExr(dir.filePath("sea_normal.0004.exr"), normal).ok());
        QCOMPARE(height.width, 32);
        QCOMPARE(normal.channels, 4); // RGB read back with A = 1

        SceneSimulation simulation;
        QVERIFY(simulation.setScene(scene).ok());
        for (int f = 1; f <= 4; ++f)
            QVERIFY(simulation.advance(f).status.ok());
        sim::ScalarGrid h;
        simulation.solver().sample(sim::FieldKind::Height, h);
        // Pixel (x, y) is cell (x, ny - 1 - y).
        for (int y = 0; y < 32; y += 7)
            for (int x = 0; x < 32; x += 5)
                QCOMPARE(height.at(x, y, 0), h(x, 31 - y, 0));
        const QJsonObject side =
            QJsonDocument::fromJson(readAll(dir.filePath("sea_ocean.json"))).object();
        QCOMPARE(side["fileFormat"].toString(), QString("exr-float"));
        QVERIFY(side["height"].toObject()["encoding"].toString().contains("not scaled"));
    }

    void refusals()
    {
        Scene smoke;
        OceanBakeSettings s;
        QTemporaryDir dir;
        s.outputDirectory = dir.path().toStdString();
        BakeResult r = bakeOceanMaps(smoke, s);
        QVERIFY(QString::fromStdString(r.status.error).contains("ocean scheme"));
        const Scene ocean = example(16, 1.f, 4);
        s.maps.clear();
        r = bakeOceanMaps(ocean, s);
        QVERIFY(QString::fromStdString(r.status.error).contains("no ocean maps"));
        s.maps = {OceanMap::Foam};
        s.lastFrame = 9;
        r = bakeOceanMaps(ocean, s);
        QVERIFY2(!r.status.ok(), "frames past the scene's range");
        // The fluid bake has no volume of an ocean to write.
        BakeSettings vdb;
        vdb.outputDirectory = dir.path().toStdString();
        vdb.baseName = "sea";
        const BakeResult v = bakeScene(ocean, vdb);
        QVERIFY2(QString::fromStdString(v.status.error).contains("no volume to write as OpenVDB"),
                 v.status.error.c_str());
    }
};

QTEST_GUILESS_MAIN(TestOceanMaps)
#include "tst_ocean_maps.moc"
