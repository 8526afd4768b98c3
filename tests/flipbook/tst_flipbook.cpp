// SPDX-License-Identifier: Apache-2.0
// Flipbooks and image sequences: atlas geometry and edge-dilated gutters, frames read back from
// an atlas equal frames rendered alone, motion-vector encoding, the seamless loop, the sidecar,
// deterministic files, atomic export under cancel and failure, and export presets in scenes.
#include <core/sim/base/parallel.h>
#include <core/sim/run/simulation.h>

#include <oneapi/tbb/task_arena.h> // before Qt: TBB declares members named emit()

#include <core/bake/bakefields.h>
#include <core/bake/baker.h>
#include <core/export/flipbook.h>
#include <core/export/frameimage.h>
#include <core/io/scenereader.h>
#include <core/io/scenewriter.h>
#include <core/render/colormap.h>
#include <core/scene/rasterize.h>
#include <tests/common/examplescene.h>

#include <tests/common/filesizelimit.h>

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace plume;

namespace {

using test::loadExample;

QByteArray readAll(const QString &p)
{
    QFile f(p);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// A flipbook-only bake of `scene` into `dir`.
BakeSettings flipbookBake(const Scene &scene, const QString &dir)
{
    BakeSettings b;
    b.outputDirectory = dir.toStdString();
    b.baseName = scene.name;
    b.firstFrame = scene.simulation.frameStart;
    b.lastFrame = scene.simulation.frameEnd;
    b.plumeVersion = "test";
    b.vdb = false;
    b.render.width = 48;
    b.render.height = 40;
    b.flipbook.enabled = true;
    b.flipbook.rows = 2;
    b.flipbook.columns = 2;
    b.flipbook.padding = 3;
    return b;
}

/// A synthetic frame: a disc of radius r at (cx, cy) pixels, colour c, motion (mx, my).
RenderedFrame disc(int w, int h, float cx, float cy, float r, float c, float mx, float my)
{
    RenderedFrame f;
    f.width = w;
    f.height = h;
    f.hasMotion = true;
    f.color.assign(4 * f.pixels(), 0.f);
    f.emission.assign(3 * f.pixels(), 0.f);
    f.motion.assign(2 * f.pixels(), 0.f);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const float d = std::hypot(x + 0.5f - cx, y + 0.5f - cy);
            const float a = std::clamp(r - d, 0.f, 1.f);
            const std::size_t p = std::size_t(y) * w + x;
            for (int ch = 0; ch < 3; ++ch)
                f.color[4 * p + ch] = c * a;
            f.color[4 * p + 3] = a;
            if (a > 0.f) {
                f.motion[2 * p] = mx;
                f.motion[2 * p + 1] = my;
            }
        }
    return f;
}

/// A frame of one row of opaque pixels of straight linear grey `values`, no emission.
RenderedFrame greyRow(std::initializer_list<float> values)
{
    RenderedFrame f;
    f.width = int(values.size());
    f.height = 1;
    f.color.assign(4 * f.pixels(), 1.f);
    f.emission.assign(3 * f.pixels(), 0.f);
    std::size_t p = 0;
    for (float v : values) {
        for (int ch = 0; ch < 3; ++ch)
            f.color[4 * p + ch] = v;
        ++p;
    }
    return f;
}

/// The 16-bit value a linear light in [0, 1] is stored as (sRGB-encoded).
int stored16(float linear)
{
    return int(std::lround(double(detail::linearToSrgb(linear)) * 65535.0));
}

double meanDifference(const RenderedFrame &a, const RenderedFrame &b)
{
    double sum = 0.0;
    for (std::size_t n = 0; n < a.color.size(); ++n)
        sum += std::abs(a.color[n] - b.color[n]);
    return sum / double(a.color.size());
}

class CancelAfter : public BakeObserver
{
public:
    explicit CancelAfter(int frames)
        : mLeft(frames)
    {}
    void frameWritten(int, int, int, double) override { --mLeft; }
    bool cancelRequested() override { return mLeft <= 0; }

private:
    int mLeft;
};

} // namespace

class TestFlipbook : public QObject
{
    Q_OBJECT

private slots:
    void atlasLayout_data()
    {
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("columns");
        QTest::addColumn<int>("frames");
        QTest::addColumn<int>("padding");
        QTest::newRow("1x1") << 1 << 1 << 1 << 0;
        QTest::newRow("2x3 full") << 2 << 3 << 6 << 0;
        QTest::newRow("4x4 padded") << 4 << 4 << 16 << 2;
        QTest::newRow("3x1 padded") << 3 << 1 << 3 << 5;
        QTest::newRow("8x8 partly filled") << 8 << 8 << 60 << 1;
    }

    // Size = columns x rows tiles of frame + 2 padding; frame n in column n % columns, row
    // n / columns; tiles without a frame are transparent.
    void atlasLayout()
    {
        QFETCH(int, rows);
        QFETCH(int, columns);
        QFETCH(int, frames);
        QFETCH(int, padding);
        const int w = 10, h = 7;
        std::vector<QImage> images;
        for (int n = 0; n < frames; ++n) {
            QImage image(w, h, QImage::Format_RGBA8888);
            image.fill(QColor(n, 255 - n, 7, 255));
            images.push_back(image);
        }
        const AtlasLayout layout{rows, columns, w, h, padding};
        const QImage atlas = assembleAtlas(images, layout, QRgba64::fromRgba64(0, 0, 0, 0));
        QCOMPARE(atlas.width(), columns * (w + 2 * padding));
        QCOMPARE(atlas.height(), rows * (h + 2 * padding));
        for (int n = 0; n < rows * columns; ++n) {
            const int x = (n % columns) * (w + 2 * padding), y = (n / columns) * (h + 2 * padding);
            QCOMPARE(layout.frameOrigin(n), QPoint(x + padding, y + padding));
            const QRgb want = n < frames ? qRgba(n, 255 - n, 7, 255) : qRgba(0, 0, 0, 0);
            QCOMPARE(atlas.pixel(x, y), want); // gutter corner (or the frame's corner)
            QCOMPARE(atlas.pixel(x + padding + w / 2, y + padding + h / 2), want);
            QCOMPARE(atlas.pixel(x + w + 2 * padding - 1, y + h + 2 * padding - 1), want);
        }
    }

    // Gutter pixels repeat the nearest edge pixel of their own frame.
    void gutterDilation()
    {
        const int w = 6, h = 5, pad = 3;
        std::vector<QImage> images;
        for (int n = 0; n < 2; ++n) {
            QImage image(w, h, QImage::Format_RGBA8888);
            for (int y = 0; y < h; ++y)
                for (int x = 0; x < w; ++x)
                    image.setPixel(x, y, qRgba(40 * x, 50 * y, 100 * n, 255));
            images.push_back(image);
        }
        const AtlasLayout layout{1, 2, w, h, pad};
        const QImage atlas = assembleAtlas(images, layout, QRgba64::fromRgba64(0, 0, 0, 0));
        for (int n = 0; n < 2; ++n) {
            const QPoint o = layout.frameOrigin(n);
            for (int y = -pad; y < h + pad; ++y)
                for (int x = -pad; x < w + pad; ++x) {
                    const QRgb want = images[n].pixel(std::clamp(x, 0, w - 1),
                                                      std::clamp(y, 0, h - 1));
                    QCOMPARE(atlas.pixel(o.x() + x, o.y() + y), want);
                }
        }
    }

    void frameFromAtlasEqualsFrameAlone_data()
    {
        QTest::addColumn<QString>("scene");
        QTest::addColumn<int>("bits");
        QTest::newRow("3D 8 bit") << "plume-3d" << 8;
        QTest::newRow("2D 16 bit") << "logo-2d" << 16;
    }

    // Bake a 2 x 2 flipbook of frames 1, 3, 5, 7; the tile of frame 5 equals the image of the
    // simulation's frame 5 rendered and encoded on its own.
    void frameFromAtlasEqualsFrameAlone()
    {
        QFETCH(QString, scene);
        QFETCH(int, bits);
        const Scene s = loadExample(qPrintable(scene), 24, 8);
        QTemporaryDir dir;
        BakeSettings b = flipbookBake(s, dir.path());
        b.flipbook.bitDepth = bits;
        const BakeResult result = bakeScene(s, b);
        QVERIFY2(result.status.ok(), result.status.error.c_str());
        QImage atlas(dir.filePath(QString::fromStdString(s.name) + "_flipbook.png"));
        QVERIFY(!atlas.isNull());
        atlas = atlas.convertToFormat(bits == 16 ? QImage::Format_RGBA64 : QImage::Format_RGBA8888);

        SceneRasterizer raster;
        QVERIFY(raster.setScene(s).ok());
        const SceneSetup &setup = raster.setup();
        auto sim = sim::Simulation::create(setup.domain, setup.params, setup.time);
        for (int f = 1; f <= 5; ++f) {
            raster.update(f);
            sim->solver().setObstacles(setup.solids);
            sim->solver().setEmitters(setup.emitters);
            sim->solver().setForceFields(setup.forces);
            sim->advanceFrame();
        }
        // As the bake renders a frame: its fields as the VDB files hold them (bakefields.h).
        const PlannedBake planned = planBake(s, b);
        QVERIFY(planned.ok());
        BakePlan plan = planned.plan;
        plan.passes.motion = false;
        FrameFields fields;
        simulatedFrameFields(sim->solver(), plan, setup.params.ambientTemperature, fields);
        const QImage alone = colorImage(renderFrame(fields, b.render, false, 24.f),
                                        b.flipbook.alpha, b.flipbook.emission, bits,
                                        imageTone(b.render, fields.domain.is2D()));
        const AtlasLayout layout{2, 2, 48, 40, 3};
        const QImage tile = atlas.copy(QRect(layout.frameOrigin(2), QSize(48, 40)));
        QVERIFY(alone.format() == tile.format());
        QCOMPARE(tile, alone);
        int visible = 0; // the comparison means something only when there is smoke
        for (int y = 0; y < 40; ++y)
            for (int x = 0; x < 48; ++x)
                visible += alone.pixelColor(x, y).alpha() > 0 ? 1 : 0;
        QVERIFY(visible > 20);
    }

    void motionRoundTrip_data()
    {
        QTest::addColumn<int>("bits");
        QTest::newRow("8 bit") << 8;
        QTest::newRow("16 bit") << 16;
    }

    // Encode into an image, read the pixel back, decode: the error is within one quantisation
    // step (2 * range / (2^bits - 1)); 0 encodes as 0.5 (still) to within half a step.
    void motionRoundTrip()
    {
        QFETCH(int, bits);
        const float range = 6.f;
        const float levels = bits == 16 ? 65535.f : 255.f;
        const float quantum = 2.f * range / levels;
        RenderedFrame f = disc(64, 1, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f);
        for (int x = 0; x < 64; ++x) {
            f.motion[2 * x] = -range + 2.f * range * float(x) / 63.f;
            f.motion[2 * x + 1] = 0.37f * float(x % 7) - 1.f;
        }
        const QImage image = motionImage(f, range, bits);
        for (int x = 0; x < 64; ++x) {
            const QRgba64 px = image.pixelColor(x, 0).rgba64();
            for (int c = 0; c < 2; ++c) {
                const float e = float(c == 0 ? px.red() : px.green()) / 65535.f;
                QVERIFY(std::abs(decodeMotion(e, range) - f.motion[2 * x + c]) <= quantum);
            }
        }
        QVERIFY(std::abs(encodeMotion(0.f, range) - 0.5f) < 1e-7f);
        QCOMPARE(encodeMotion(2.f * range, range), 1.f); // clamps
    }

    // A loop crossfade: the step from the last frame to the first is no larger than the
    // largest step between consecutive frames; without the crossfade it is far larger.
    void loopHasNoSeam()
    {
        std::vector<RenderedFrame> frames;
        for (int n = 0; n < 24; ++n) // a disc moving right 1.5 px per frame, growing
            frames.push_back(disc(64, 32, 10.f + 1.5f * n, 16.f, 6.f + 0.2f * n, 0.8f, 1.5f, 0.f));
        const std::vector<RenderedFrame> looped = blendLoop(frames, 8);
        QCOMPARE(int(looped.size()), 16);
        double largest = 0.0;
        for (std::size_t n = 0; n + 1 < looped.size(); ++n)
            largest = std::max(largest, meanDifference(looped[n], looped[n + 1]));
        const double seam = meanDifference(looped.back(), looped.front());
        QVERIFY2(seam <= largest, qPrintable(QString("seam %1 > %2").arg(seam).arg(largest)));
        const double raw = meanDifference(frames[15], frames[0]);
        QVERIFY(raw > 3.0 * largest);
    }

    // Motion across the seam stays the velocity of what is visible: where only the tail
    // frame's smoke is, the blended vector is the tail's, not diluted towards zero.
    void loopKeepsMotionOfVisibleSmoke()
    {
        std::vector<RenderedFrame> frames{disc(40, 20, 10.f, 10.f, 5.f, 1.f, 2.f, 0.f),
                                          disc(40, 20, 30.f, 10.f, 5.f, 1.f, -3.f, 1.f)};
        const std::vector<RenderedFrame> looped = blendLoop(frames, 1);
        QCOMPARE(int(looped.size()), 1);
        const RenderedFrame &f = looped[0];
        QCOMPARE(f.motion[2 * (10 * 40 + 10)], 2.f);
        QCOMPARE(f.motion[2 * (10 * 40 + 30)], -3.f);
        QCOMPARE(f.motion[2 * (10 * 40 + 30) + 1], 1.f);
        QCOMPARE(f.color[4 * (10 * 40 + 30) + 3], 0.5f); // half of each, w = 1/2
    }

    // Frame selection: explicit steps, automatic steps, and refusals.
    void frameSelection()
    {
        FlipbookSettings s;
        s.rows = s.columns = 4;
        std::vector<int> frames;
        int step = 0;
        QVERIFY(selectFlipbookFrames(s, 1, 256, frames, step).ok()); // 64 of 256? 16 tiles
        QCOMPARE(step, 16);
        QCOMPARE(int(frames.size()), 16);
        QCOMPARE(frames.back(), 241);
        s.step = 2;
        QVERIFY(!selectFlipbookFrames(s, 1, 100, frames, step).ok());
        s.loopFrames = 4;
        s.step = 0;
        QVERIFY(selectFlipbookFrames(s, 1, 40, frames, step).ok());
        QCOMPARE(step, 2);
        QVERIFY(int(frames.size()) - 4 <= 16);
    }

    // The sidecar says how to play the atlas; files are byte-identical across runs and thread
    // counts (serial, 1 and 2 threads).
    void sidecarAndDeterminism()
    {
        const Scene s = loadExample("plume-3d", 20, 8);
        QByteArray first;
        QStringList names;
        for (int threads : {0, 1, 2}) {
            QTemporaryDir dir;
            BakeSettings b = flipbookBake(s, dir.path());
            b.flipbook.loopFrames = 2;
            b.flipbook.emission = EmissionOutput::Separate;
            b.flipbook.step = 1;
            b.flipbook.rows = 2;
            b.flipbook.columns = 3;
            BakeResult r;
            if (threads == 0) {
                sim::SerialScope serial;
                r = bakeScene(s, b);
            } else {
                oneapi::tbb::task_arena arena(threads);
                arena.execute([&] { r = bakeScene(s, b); });
            }
            QVERIFY2(r.status.ok(), r.status.error.c_str());
            const QStringList files = QDir(dir.path()).entryList(QDir::Files);
            QByteArray all;
            for (const QString &f : files)
                all += f.toUtf8() + readAll(dir.filePath(f));
            if (threads == 0) {
                first = all;
                names = files;
                const QByteArray json = readAll(dir.filePath("plume-3d_flipbook.json"));
                const QJsonObject j = QJsonDocument::fromJson(json).object();
                QCOMPARE(j["atlas"]["rows"].toInt(), 2);
                QCOMPARE(j["atlas"]["columns"].toInt(), 3);
                QCOMPARE(j["atlas"]["width"].toInt(), 3 * (48 + 6));
                QCOMPARE(j["atlas"]["order"].toString(), QString("left-to-right, top-to-bottom"));
                QCOMPARE(j["frames"]["count"].toInt(), 6); // 8 frames, 2 crossfaded
                QCOMPARE(j["frames"]["fps"].toDouble(), 24.0);
                QCOMPARE(j["loop"]["blendFrames"].toInt(), 2);
                QCOMPARE(j["color"]["alpha"].toString(), QString("premultiplied"));
                QCOMPARE(j["color"]["colorSpace"].toString(), QString("sRGB"));
                // A 3D look's PNG went through the scene's exposure and tone curve.
                QCOMPARE(j["color"]["toneCurve"].toString(), QString("filmic"));
                QCOMPARE(j["color"]["exposure"].toDouble(), 0.0);
                QVERIFY(j["motionVectors"]["range"].toDouble() > 0.0);
                QCOMPARE(j["motionVectors"]["yAxis"].toString(), QString("up"));
            } else {
                QCOMPARE(files, names);
                QVERIFY(all == first);
            }
        }
        QCOMPARE(names,
                 QStringList({"plume-3d_flipbook.json", "plume-3d_flipbook.png",
                              "plume-3d_flipbook_emission.png", "plume-3d_flipbook_motion.png"}));
    }

    // Cancelled during the frames: no atlas, no sidecar, no temporary file.
    void cancelLeavesNoAtlas()
    {
        const Scene s = loadExample("plume-2d", 24, 8);
        QTemporaryDir dir;
        CancelAfter cancel(3);
        const BakeResult r = bakeScene(s, flipbookBake(s, dir.path()), &cancel);
        QVERIFY(isCancelled(r.outcome) && !r.status.ok());
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList());
    }

    // The sidecar cannot be saved (a folder has its name): the atlases written before it are
    // removed again, so nothing but the blocker is left.
    void failingExportLeavesNoAtlas()
    {
        const Scene s = loadExample("plume-2d", 24, 4);
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir("plume-2d_flipbook.json"));
        const BakeResult r = bakeScene(s, flipbookBake(s, dir.path()));
        QVERIFY(!r.status.ok());
        QVERIFY2(r.status.error.find("plume-2d_flipbook.json") != std::string::npos,
                 r.status.error.c_str());
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList());
    }

    // PNG colour: the linear light times 2^exposure through the tone curve, then sRGB. Filmic
    // leaves light up to its knee (0.6) as it is and rolls 2.0 off to 1 - 0.4 exp(-1.4 / 0.4);
    // Clip clips at 1; exposure 1 doubles. The default Tone is the old encoding.
    void toneCurveOfImages()
    {
        const RenderedFrame f = greyRow({0.3f, 2.f, 0.f});
        auto stored = [&](const Tone &tone, int x, AlphaMode alpha = AlphaMode::Straight) {
            const QImage image = colorImage(f, alpha, EmissionOutput::None, 16, tone);
            return int(image.pixelColor(x, 0).rgba64().red());
        };
        const Tone filmic{0.f, ToneCurve::Filmic}, clip{0.f, ToneCurve::Clip};
        QCOMPARE(stored(filmic, 0), stored16(0.3f));
        QCOMPARE(stored(clip, 0), stored16(0.3f));
        // Within one 16-bit step: the formula in float, as written, against lightmodel.h's.
        const auto close = [](int got, int want) { return std::abs(got - want) <= 1; };
        QVERIFY(close(stored(filmic, 1), stored16(1.f - 0.4f * std::exp(-(2.f - 0.6f) / 0.4f))));
        QVERIFY(stored(filmic, 1) < 65535);
        QCOMPARE(stored(clip, 1), 65535);
        QCOMPARE(stored(Tone{1.f, ToneCurve::Clip}, 0), stored16(0.6f));
        QCOMPARE(stored(Tone{1.f, ToneCurve::Filmic}, 0), stored16(0.6f)); // at the knee
        QCOMPARE(stored(Tone{-1.f, ToneCurve::Clip}, 1), 65535);           // 2.0 / 2 = 1
        QCOMPARE(stored(Tone{-2.f, ToneCurve::Filmic}, 1), stored16(0.5f));
        QCOMPARE(stored(filmic, 2), 0);
        QCOMPARE(stored(Tone{4.f, ToneCurve::Filmic}, 2), 0); // black stays black
        QCOMPARE(stored(filmic, 1, AlphaMode::Premultiplied), stored(filmic, 1));
        // The default Tone: what images held before the light model (clipped at 1).
        QVERIFY(Tone{} == clip);
        // Alpha is never toned; straight alpha tones (colour + emission) / alpha.
        RenderedFrame thin = greyRow({0.3f});
        for (int ch = 0; ch < 3; ++ch) {
            thin.color[ch] = 0.15f; // premultiplied: straight 0.3 at alpha 0.5
            thin.emission[ch] = 0.05f;
        }
        thin.color[3] = 0.5f;
        const Tone bright{1.f, ToneCurve::Filmic};
        const QImage straight = colorImage(thin, AlphaMode::Straight, EmissionOutput::Combined, 16,
                                           bright);
        QCOMPARE(int(straight.pixelColor(0, 0).rgba64().alpha()), 32768);
        // (0.15 + 0.05) / 0.5 = 0.4, times 2 = 0.8: over the knee.
        QVERIFY(close(straight.pixelColor(0, 0).rgba64().red(),
                      stored16(1.f - 0.4f * std::exp(-(0.8f - 0.6f) / 0.4f))));
        // Premultiplied tones the straight colour and the emission apart: 0.3 * 2 = 0.6 (the
        // knee, as it is) times alpha, plus 0.05 * 2 = 0.1.
        const QImage premultiplied = colorImage(thin, AlphaMode::Premultiplied,
                                                EmissionOutput::Combined, 16, bright);
        const double want = (double(detail::linearToSrgb(0.6f)) * 0.5
                             + double(detail::linearToSrgb(0.1f)))
                            * 65535.0;
        QVERIFY(want < 65535.0);
        QVERIFY(close(premultiplied.pixelColor(0, 0).rgba64().red(), int(std::lround(want))));
        // The emission image is toned too.
        QVERIFY(
            close(emissionImage(thin, 16, bright).pixelColor(0, 0).rgba64().red(), stored16(0.1f)));
        QVERIFY(close(emissionImage(thin, 16, Tone{}).pixelColor(0, 0).rgba64().red(),
                      stored16(0.05f)));
    }

    // Which looks are toned: the 3D looks and the 2D dye and surface looks show light; the
    // field look's colour map and the liquid texture keep their exact colours.
    void toneFollowsTheLook()
    {
        RenderSettings r;
        r.exposure = 1.5f;
        r.toneCurve = ToneCurve::Clip;
        const Tone set{1.5f, ToneCurve::Clip};
        QVERIFY(imageTone(r, false) == set);
        r.look2D = Look2D::Field; // a 3D frame ignores the 2D look
        QVERIFY(imageTone(r, false) == set);
        for (Look2D look : {Look2D::Dye, Look2D::Surface}) {
            r.look2D = look;
            QVERIFY(imageTone(r, true) == set);
        }
        for (Look2D look : {Look2D::Field, Look2D::Texture}) {
            r.look2D = look;
            QVERIFY(imageTone(r, true) == Tone{});
        }
    }

    // A bake's PNG files follow: a field look's image sequence is the same for any exposure,
    // a dye look's brightens with it.
    void fieldLookIgnoresExposure()
    {
        const Scene s = loadExample("plume-2d", 24, 3);
        auto imageBytes = [&](Look2D look, float exposure) {
            QTemporaryDir dir;
            BakeSettings b = flipbookBake(s, dir.path());
            b.flipbook.enabled = false;
            b.images.enabled = true;
            b.images.first = b.images.last = 3;
            b.render.look2D = look;
            b.render.field = sim::FieldKind::Density;
            b.render.fieldMin = 0.f;
            b.render.fieldMax = 0.5f;
            b.render.exposure = exposure;
            const BakeResult r = bakeScene(s, b);
            if (!r.status.ok())
                qFatal("%s", r.status.error.c_str());
            return readAll(dir.filePath("plume-2d.0003.png"));
        };
        const QByteArray field = imageBytes(Look2D::Field, 0.f);
        QVERIFY(!field.isEmpty());
        QCOMPARE(imageBytes(Look2D::Field, 2.f), field);
        QCOMPARE(imageBytes(Look2D::Field, -3.f), field);
        const QByteArray dye = imageBytes(Look2D::Dye, 0.f);
        QVERIFY(!dye.isEmpty());
        QVERIFY(imageBytes(Look2D::Dye, 2.f) != dye);
    }

    // One PNG per frame (and emission images), every step frames, alongside a flipbook.
    void imageSequence()
    {
        const Scene s = loadExample("logo-2d", 24, 6);
        QTemporaryDir dir;
        BakeSettings b = flipbookBake(s, dir.path());
        b.images.enabled = true;
        b.images.step = 2;
        b.images.emission = EmissionOutput::Separate;
        const BakeResult r = bakeScene(s, b);
        QVERIFY2(r.status.ok(), r.status.error.c_str());
        const QStringList files = QDir(dir.path()).entryList({"logo-2d.*.png"}, QDir::Files);
        QCOMPARE(files, QStringList({"logo-2d.0001.png", "logo-2d.0003.png", "logo-2d.0005.png"}));
        QCOMPARE(QImage(dir.filePath(files[1])).size(), QSize(48, 40));
        QVERIFY(QFile::exists(dir.filePath("logo-2d_emission.0003.png")));
        QVERIFY(QFile::exists(dir.filePath("logo-2d_flipbook.png")));
    }

    // Export presets survive load -> save -> load, the second save is byte-identical, unknown
    // keys inside "export" are kept, scenes without presets are written without "export",
    // and bad values are refused with their JSON path.
    void presetsInScene()
    {
        QTemporaryDir dir;
        Scene s = loadExample("plume-3d", 32, 10);
        QVERIFY(!sceneToJson(s, dir.path().toStdString()).contains("\"export\""));
        s.exports.flipbook.enabled = true;
        s.exports.flipbook.rows = 4;
        s.exports.flipbook.first = 3;
        s.exports.flipbook.loopFrames = 2;
        s.exports.flipbook.alpha = AlphaMode::Straight;
        s.exports.images.bitDepth = 16;
        s.exports.render.yaw = 30.f;
        s.exports.render.projection = Projection::Perspective;
        s.exports.render.lightDirection = {0.1f, 0.7f, -0.3f};
        const QString a = dir.filePath("a.plume"), b = dir.filePath("b.plume");
        QVERIFY(writeSceneFile(s, a).ok());
        const SceneReadResult r = readSceneFile(a);
        QVERIFY2(r.ok, r.error.c_str());
        QVERIFY(r.warnings.empty());
        QVERIFY(r.scene == s);
        QVERIFY(writeSceneFile(r.scene, b).ok());
        QCOMPARE(readAll(b), readAll(a));
        QVERIFY(!readAll(a).contains("\"last\"")); // unset frames are not written

        QByteArray text = readAll(a);
        text.replace("\"rows\": 4,", "\"rows\": 4, \"dither\": true,");
        const SceneReadResult u = readSceneJson(text, "u.plume", dir.path().toStdString());
        QVERIFY2(u.ok, u.error.c_str());
        QCOMPARE(int(u.warnings.size()), 1);
        QCOMPARE(u.warnings[0].kind, ReadWarningKind::UnknownKey);
        QCOMPARE(u.warnings[0].path, std::string("export.flipbook.dither"));
        QVERIFY(sceneToJson(u.scene, dir.path().toStdString()).contains("\"dither\": true"));

        const QByteArray bad = readAll(a).replace("\"bitDepth\": 16", "\"bitDepth\": 12");
        const SceneReadResult e = readSceneJson(bad, "bad.plume", dir.path().toStdString());
        QVERIFY(!e.ok);
        const QString error = QString::fromStdString(e.error);
        QVERIFY2(error.contains("export.images.bitDepth: expected 8 or 16"), e.error.c_str());
    }
    // A write that fails part-way (a file size limit: EFBIG, as a full disk gives ENOSPC)
    // names the file and the system's reason, and leaves the previous files as they were,
    // with no temporary file beside them. Small files too: QSaveFile's write buffer would hide
    // the failure until commit.
    void diskErrorKeepsOldFiles_data()
    {
        QTest::addColumn<int>("size");
        QTest::newRow("small atlas (below Qt's 16 KiB write buffer)") << 32;
        QTest::newRow("large atlas") << 256;
    }

    void diskErrorKeepsOldFiles()
    {
        QFETCH(int, size);
        QTemporaryDir dir;
        const QString atlas = dir.filePath("smoke_flipbook.png");
        const QString sidecar = dir.filePath("smoke_flipbook.json");
        // Noise, which PNG cannot compress: size x size pixels of 8 bytes.
        auto png = [&](quint32 seed) {
            QImage image(size, size, QImage::Format_RGBA64);
            for (int y = 0; y < size; ++y) {
                auto *line = reinterpret_cast<quint16 *>(image.scanLine(y));
                for (int x = 0; x < 4 * size; ++x)
                    line[x] = quint16((seed = seed * 1664525u + 1013904223u) >> 16);
            }
            return pngBytes(image);
        };
        const QByteArray oldPng = png(1), newPng = png(2);
        QVERIFY(oldPng != newPng);
        QCOMPARE(newPng.size() > 16384, size > 32);
        QVERIFY(writeFilesAtomically({atlas, sidecar}, {oldPng, "{}"}).ok());

        sim::Status st;
        {
            test::FileSizeLimit limit(newPng.size() / 2);
            QVERIFY(limit.active());
            st = writeFilesAtomically({atlas, sidecar}, {newPng, "{\"frames\": 16}"});
        }
        // E.g. "/tmp/x/smoke_flipbook.png: cannot write: File too large".
        QVERIFY(!st.ok());
        QVERIFY2(st.error.find(atlas.toStdString()
                               + ": cannot write: " + test::FileSizeLimit::reason())
                     != std::string::npos,
                 st.error.c_str());
        QCOMPARE(readAll(atlas), oldPng);
        QCOMPARE(readAll(sidecar), QByteArray("{}"));
        const auto all = QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot;
        QCOMPARE(QDir(dir.path()).entryList(all),
                 (QStringList{"smoke_flipbook.json", "smoke_flipbook.png"}));
    }
};

QTEST_GUILESS_MAIN(TestFlipbook)
#include "tst_flipbook.moc"
