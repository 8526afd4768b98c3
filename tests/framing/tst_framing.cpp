// SPDX-License-Identifier: Apache-2.0
// Effect framing (render/framing.h, docs/flipbook.md "Framing"): the visible box of a known
// blob is exact and follows the documented threshold, the union over a moving blob's frames
// gives the camera its exact centre and scale, "domain" framing ignores any box, a bake with
// effect framing renders every frame with one camera (the same pictures as a render from its
// cache, which finds the box on its own), whatever the thread count, and resumes to the same
// bytes; the scene key round-trips and a bad value is refused with its path.
#include <openvdb/openvdb.h>

#include <core/sim/base/parallel.h>

#include <oneapi/tbb/task_arena.h> // before Qt: TBB declares members named emit()

#include <core/bake/baker.h>
#include <core/io/scenereader.h>
#include <core/io/scenewriter.h>
#include <core/render/camera.h>
#include <core/render/framing.h>
#include <tests/common/examplescene.h>

#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace plume;
using sim::Int3;
using sim::Vec3;

namespace {

constexpr int kN = 32;
constexpr float kH = 1.f / float(kN);

/// A 3D domain of kN^3 cells of size kH at `origin`, density `d` in the cells [lo, hi]
/// (inclusive) and 0 elsewhere.
FrameFields blob(Int3 lo, Int3 hi, float d = 1.f, Vec3 origin = {})
{
    FrameFields f;
    f.domain.cells = {kN, kN, kN};
    f.domain.cellSize = kH;
    f.domain.origin = origin;
    f.density.reshape(f.domain.cells, sim::kCellCentre);
    for (int k = lo.z; k <= hi.z; ++k)
        for (int j = lo.y; j <= hi.y; ++j)
            for (int i = lo.x; i <= hi.x; ++i)
                f.density(i, j, k) = d;
    return f;
}

/// The documented box of the cells [lo, hi]: half a cell below, one and a half above.
WorldBox cellsBox(Int3 lo, Int3 hi, Vec3 origin = {})
{
    WorldBox b;
    for (int a = 0; a < 3; ++a) {
        b.low[a] = origin[a] + (float(lo[a]) - 0.5f) * kH;
        b.high[a] = origin[a] + (float(hi[a]) + 1.5f) * kH;
    }
    return b;
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    f.open(QIODevice::ReadOnly);
    return f.readAll();
}

/// A small campfire bake: 3D fire and smoke rising, with a flipbook and images.
BakeSettings smallBake(const Scene &s, const QString &dir, Framing framing)
{
    BakeSettings b;
    b.outputDirectory = dir.toStdString();
    b.baseName = "c";
    b.firstFrame = s.simulation.frameStart;
    b.lastFrame = s.simulation.frameEnd;
    b.vdb = false;
    b.plumeVersion = "test";
    b.render = s.exports.render;
    b.render.width = 40;
    b.render.height = 48;
    b.render.framing = framing;
    b.flipbook.enabled = true;
    b.flipbook.rows = b.flipbook.columns = 2;
    b.flipbook.first = s.simulation.frameEnd - 6;
    b.flipbook.step = 2;
    b.images.enabled = true;
    b.images.first = s.simulation.frameEnd - 6;
    b.images.step = 2;
    return b;
}

/// Every file a bake left in `dir` (hidden ones included), by name.
QStringList entries(const QString &dir)
{
    return QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);
}

} // namespace

class TestFraming : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { openvdb::initialize(); }

    // A box of density 1 gives its cells' box, grown by the trilinear reach. A lone cell shows
    // when its opacity densityScale * density * cellSize passes half an 8-bit step, a column
    // along the view when its cells' opacities together do.
    void visibleBoxOfABlob()
    {
        const Vec3 origin{-0.5f, 0.25f, 1.f};
        const Int3 lo{5, 9, 12}, hi{10, 20, 13};
        FrameFields f = blob(lo, hi, 1.f, origin);
        RenderSettings s;
        QCOMPARE(visibleBox(f, s), cellsBox(lo, hi, origin));

        const float at = -std::log1p(-0.01f) / (s.densityScale * kH);
        f.density(2, 2, 2) = 0.99f * at;
        QCOMPARE(visibleBox(f, s), cellsBox(lo, hi, origin));
        f.density(2, 2, 2) = 1.01f * at;
        QCOMPARE(visibleBox(f, s), cellsBox({2, 2, 2}, hi, origin));
        f.density(2, 2, 2) = 0.f;
        for (int k = 25; k < 29; ++k) // four cells along the front view's rays: 1.2 steps
            f.density(28, 28, k) = 0.3f * at;
        QCOMPARE(visibleBox(f, s), cellsBox(lo, {28, 28, 28}, origin));
        RenderSettings side = s; // seen from the side, the four are four columns: nothing
        side.yaw = 90.f;
        QCOMPARE(visibleBox(f, side), cellsBox(lo, hi, origin));
        for (int k = 25; k < 29; ++k)
            f.density(28, 28, k) = 0.f;

        // At the domain's sides the box stops at the domain.
        const FrameFields edge = blob({0, 0, 0}, {kN - 1, 3, 3}, 1.f, origin);
        const WorldBox b = visibleBox(edge, s);
        QCOMPARE(b.low, origin);
        QCOMPARE(b.high.x, origin.x + 1.f);

        QVERIFY(visibleBox(blob({0, 0, 0}, {-1, -1, -1}), s).empty()); // nothing shows
        RenderSettings clear = s;
        clear.densityScale = 0.f; // smoke that absorbs nothing shows nothing
        QVERIFY(visibleBox(f, clear).empty());
    }

    // Hot gas shows where its glow reaches half an 8-bit step, even without density; the
    // surface look shows the liquid (surface <= 0).
    void emissionAndSurfaceShow()
    {
        FrameFields f = blob({0, 0, 0}, {-1, -1, -1});
        f.temperature.reshape(f.domain.cells, sim::kCellCentre);
        RenderSettings s;
        f.temperature(3, 4, 5) = s.emissionMax;  // white hot
        f.temperature(20, 4, 5) = s.emissionMin; // not glowing yet
        QCOMPARE(visibleBox(f, s), cellsBox({3, 4, 5}, {3, 4, 5}));
        RenderSettings dark = s;
        dark.emissionIntensity = 0.f;
        QVERIFY(visibleBox(f, dark).empty());

        RenderSettings surface = s;
        surface.look3D = Look3D::Surface;
        f.surface.reshape(f.domain.cells, sim::kCellCentre);
        f.surface.fill(1.f);
        f.surface(7, 8, 9) = 0.f;
        f.surface(8, 8, 9) = -1.f;
        QCOMPARE(visibleBox(f, surface), cellsBox({7, 8, 9}, {8, 8, 9}));
    }

    // A blob moving along x over five frames: the union of the frames' boxes spans its path,
    // and the effect camera (front, orthographic) centres it with the documented scale.
    void unionOfAMovingBlobFramesTheCamera()
    {
        RenderSettings s;
        s.framing = Framing::Effect;
        s.framingPadding = 0.1f;
        WorldBox all;
        for (int frame = 0; frame < 5; ++frame)
            all.add(visibleBox(blob({4 + 3 * frame, 10, 12}, {7 + 3 * frame, 14, 15}), s));
        const WorldBox expected = cellsBox({4, 10, 12}, {19, 14, 15});
        QCOMPARE(all, expected);

        const int width = 200, height = 100;
        const sim::Domain domain = blob({0, 0, 0}, {-1, -1, -1}).domain;
        const detail::Camera camera(domain, s, width, height, all);
        const float grow = 1.f / (1.f - 2.f * 0.1f);
        const Vec3 size = (expected.high - expected.low) * grow;
        // Front view: right is +x, up is +y; the tighter of the two fits wins.
        const float scale = std::min(0.5f * width / (0.5f * size.x),
                                     0.5f * height / (0.5f * size.y));
        QCOMPARE(camera.scale, scale);
        const Vec3 centre = (expected.low + expected.high) * 0.5f;
        QCOMPARE(camera.position.x, centre.x);
        QCOMPARE(camera.position.y, centre.y);
        // The frame's edges are the padded box's: the smoke spans 1 - 2 * padding of the
        // tighter axis.
        Vec3 o, d;
        camera.ray(0, height / 2, o, d);
        QVERIFY(std::abs(o.x - (centre.x - (width / 2 - 0.5f) / scale)) < 1e-6f);
        QVERIFY(o.z > 1.f); // rays start outside the domain
        QCOMPARE(d, (Vec3{0.f, 0.f, -1.f}));

        // "domain" ignores the box; effect framing of the domain's own box without padding is
        // the domain framing.
        RenderSettings plain = s;
        plain.framing = Framing::Domain;
        const detail::Camera byDomain(domain, plain, width, height);
        const detail::Camera ignored(domain, plain, width, height, all);
        QCOMPARE(ignored.scale, byDomain.scale);
        QCOMPARE(ignored.position, byDomain.position);
        RenderSettings whole = s;
        whole.framingPadding = 0.f;
        const WorldBox domainBox{domain.origin, domain.origin + domain.extent()};
        const detail::Camera same(domain, whole, width, height, domainBox);
        QCOMPARE(same.scale, byDomain.scale);
        QCOMPARE(same.position, byDomain.position);
        // Nor does padding reach past the domain's sides: smoke over the whole domain (a fire
        // that fills its room by the end) is framed as the domain.
        const detail::Camera padded(domain, s, width, height, domainBox);
        QCOMPARE(padded.scale, byDomain.scale);
        QCOMPARE(padded.position.x, byDomain.position.x);
        QCOMPARE(padded.position.y, byDomain.position.y);
    }

    // A rendered blob with effect framing: the alpha at the frame's edge rows and columns is
    // 0, and the blob fills the tighter axis but for the padding.
    void effectFrameFillsTheFrame()
    {
        FrameFields f = blob({12, 6, 12}, {19, 25, 19});
        RenderSettings s;
        s.width = s.height = 64;
        s.framing = Framing::Effect;
        s.framingPadding = 0.05f;
        const RenderedFrame r = renderFrame(f, s, false, 24.f); // a lone frame: its own box
        int top = s.height, bottom = -1;
        for (int y = 0; y < s.height; ++y)
            for (int x = 0; x < s.width; ++x) {
                const float a = r.color[4 * (std::size_t(y) * s.width + x) + 3];
                if (x == 0 || y == 0 || x == s.width - 1 || y == s.height - 1)
                    QVERIFY2(a < kInvisible, qPrintable(QString("%1 %2: %3").arg(x).arg(y).arg(a)));
                if (a >= kInvisible) {
                    top = std::min(top, y);
                    bottom = std::max(bottom, y);
                }
            }
        // The blob is 20 cells tall within 21.5 of box: at least 80 % of the frame's height.
        QVERIFY2(bottom - top + 1 >= int(0.8f * s.height),
                 qPrintable(QString("rows %1..%2").arg(top).arg(bottom)));
        RenderSettings domain = s;
        domain.framing = Framing::Domain;
        const RenderedFrame whole = renderFrame(f, domain, false, 24.f);
        QVERIFY(whole.color != r.color);
    }

    // A bake with effect framing and a render of its VDB cache with effect framing find the
    // same box on their own and give the same flipbook and images, byte for byte; and the
    // bake gives the same bytes on one thread as on all.
    void bakeAndCacheFrameAlike()
    {
        const Scene s = test::loadExample("campfire-3d", 24, 14);
        QTemporaryDir dir;
        BakeSettings bake = smallBake(s, dir.filePath("bake"), Framing::Effect);
        bake.vdb = true;
        const BakeResult baked = bakeScene(s, bake);
        QVERIFY2(baked.status.ok(), baked.status.error.c_str());
        QVERIFY(!QDir(dir.filePath("bake/.plume-framing")).exists());

        BakeSettings cache = smallBake(s, dir.filePath("cache"), Framing::Effect);
        cache.fromCache = bake.outputDirectory;
        const BakeResult fromCache = bakeScene(s, cache);
        QVERIFY2(fromCache.status.ok(), fromCache.status.error.c_str());

        BakeSettings serial = smallBake(s, dir.filePath("serial"), Framing::Effect);
        {
            sim::SerialScope scope;
            const BakeResult r = bakeScene(s, serial);
            QVERIFY2(r.status.ok(), r.status.error.c_str());
        }
        const QStringList pictures = entries(dir.filePath("cache"));
        QVERIFY(pictures.contains("c_flipbook.png"));
        QVERIFY(pictures.contains("c.0014.png"));
        QCOMPARE(entries(dir.filePath("serial")), pictures);
        for (const QString &f : pictures) {
            const QByteArray want = readAll(dir.filePath("bake/") + f);
            QVERIFY2(!want.isEmpty() && readAll(dir.filePath("cache/") + f) == want, qPrintable(f));
            QVERIFY2(readAll(dir.filePath("serial/") + f) == want, qPrintable(f));
        }

        // Domain framing gives other pictures, and nothing is cut at a tile's edge with effect
        // framing: on the outermost rows and columns of every image alpha stays at most
        // kInvisible (2 of 255).
        BakeSettings plain = smallBake(s, dir.filePath("domain"), Framing::Domain);
        QVERIFY(bakeScene(s, plain).status.ok());
        QVERIFY(readAll(dir.filePath("domain/c.0014.png"))
                != readAll(dir.filePath("bake/c.0014.png")));
        for (int frame = s.simulation.frameEnd - 6; frame <= s.simulation.frameEnd; frame += 2) {
            const QImage image(dir.filePath("bake/c.%1.png").arg(frame, 4, 10, QChar('0')));
            QVERIFY(!image.isNull());
            for (int x = 0; x < image.width(); ++x)
                for (int y : {0, image.height() - 1})
                    QVERIFY(qAlpha(image.pixel(x, y)) <= 2);
            for (int y = 0; y < image.height(); ++y)
                for (int x : {0, image.width() - 1})
                    QVERIFY(qAlpha(image.pixel(x, y)) <= 2);
        }
    }

    // Cancelled after writing frames 8 to 11 with checkpoints every 4 frames, a bake with effect
    // framing resumes from frame 8 (whose kept fields it reads back for their box) and leaves
    // the files of an uninterrupted one; its framing folder then goes.
    void resumeKeepsTheFraming()
    {
        struct StopAfterFour : BakeObserver
        {
            int written = 0;
            void frameWritten(int, int, int, double) override { ++written; }
            bool cancelRequested() override { return written >= 4; }
        } observer;
        const Scene s = test::loadExample("campfire-3d", 24, 14);
        QTemporaryDir dir;
        BakeSettings bake = smallBake(s, dir.filePath("ref"), Framing::Effect);
        bake.checkpointEvery = 4;
        QVERIFY(bakeScene(s, bake).status.ok());
        bake.outputDirectory = dir.filePath("cut").toStdString();
        const BakeResult cut = bakeScene(s, bake, &observer);
        QVERIFY(isCancelled(cut.outcome) && isResumable(cut.outcome));
        QVERIFY(QDir(dir.filePath("cut/.plume-framing")).exists());
        QVERIFY(!QFile::exists(dir.filePath("cut/c_flipbook.png")));
        bake.resume = true;
        const BakeResult resumed = bakeScene(s, bake);
        QVERIFY2(resumed.status.ok(), resumed.status.error.c_str());
        QCOMPARE(resumed.resumedAfter, 8);
        const QStringList files = entries(dir.filePath("ref"));
        QCOMPARE(entries(dir.filePath("cut")), files);
        for (const QString &f : files)
            QVERIFY2(readAll(dir.filePath("ref/") + f) == readAll(dir.filePath("cut/") + f),
                     qPrintable(f));
    }

    // The scene key: absent reads as "domain", "effect" and a padding round-trip, a bad
    // value names the file and the key's path.
    void sceneKeyRoundTrip()
    {
        const QString path = QStringLiteral(PLUME_SOURCE_DIR "/resources/scenes/plume-3d.plume");
        SceneReadResult old = readSceneFile(path);
        QVERIFY2(old.ok, old.error.c_str());
        QCOMPARE(old.scene.exports.render.framing, Framing::Domain);

        QTemporaryDir dir;
        Scene scene = old.scene;
        scene.exports.render.framing = Framing::Effect;
        scene.exports.render.framingPadding = 0.125f;
        const QString saved = dir.filePath("framed.plume");
        QVERIFY(writeSceneFile(scene, saved).ok());
        const SceneReadResult back = readSceneFile(saved);
        QVERIFY2(back.ok, back.error.c_str());
        QCOMPARE(back.scene.exports.render.framing, Framing::Effect);
        QCOMPARE(back.scene.exports.render.framingPadding, 0.125f);
        QVERIFY(back.scene.exports.render == scene.exports.render);

        // A scene saved with domain framing has no key at all.
        const QString plain = dir.filePath("plain.plume");
        QVERIFY(writeSceneFile(old.scene, plain).ok());
        QVERIFY(!readAll(plain).contains("framing"));

        for (const auto &[key, value] :
             {std::pair{"framing", QJsonValue("smoke")}, {"framingPadding", QJsonValue(0.6)}}) {
            QJsonObject root = QJsonDocument::fromJson(readAll(saved)).object();
            QJsonObject exports = root["export"].toObject();
            QJsonObject render = exports["render"].toObject();
            render[key] = value;
            exports["render"] = render;
            root["export"] = exports;
            const QString bad = dir.filePath("bad.plume");
            QFile out(bad);
            QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
            out.write(QJsonDocument(root).toJson());
            out.close();
            const SceneReadResult r = readSceneFile(bad);
            QVERIFY(!r.ok);
            const QString error = QString::fromStdString(r.error);
            QVERIFY2(error.contains("bad.plume") && error.contains(QString("export.render.") + key),
                     qPrintable(error));
        }
    }
};

QTEST_GUILESS_MAIN(TestFraming)
#include "tst_framing.moc"
