// SPDX-License-Identifier: Apache-2.0
// The OpenGL volume view under Xvfb with Mesa: a sphere of smoke lit from +x is brighter on
// its lit side, an empty domain shows the background, an obstacle in front hides what is
// behind it; a flame glows warm (blackbody: red > green > blue); skipping empty space keeps
// the picture; a mesh obstacle is a lit
// surface; the level surface is a lit mesh; textures are uploaded once per changed frame; the
// camera follows drags and the wheel; a still follows interaction; the offscreen picture is upright
// with its overlay on top, and the main window stays a raster window; and with OpenGL forced off
// the layout says why and the slices still work.
#include <tests/common/uitest.h>
#include <ui/document/document.h>
#include <ui/mainwindow/mainwindow.h>
#include <ui/mainwindow/viewexport.h>
#include <ui/tools/tooloptions.h>
#include <ui/viewport/glprobe.h>
#include <ui/viewport/offscreenglwidget.h>
#include <ui/viewport/viewlayout.h>
#include <ui/viewport/viewport.h>
#include <ui/viewport/volumeview.h>

#include <core/render/colormap.h>
#include <core/render/lightmodel.h>
#include <core/render/renderer.h>

#include <QLabel>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QPainter>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <numbers>

using namespace plume;

namespace {

constexpr int kCells = 32;
constexpr int kSize = 128; // image side in pixels

/// A unit cube of 32^3 cells lit from +x with little ambient light and no glow.
Scene litScene()
{
    Scene s;
    s.domain.dimension = Dimension::ThreeD;
    s.domain.resolution = kCells;
    RenderSettings &look = s.exports.render;
    look.lightDirection = {1.f, 0.f, 0.f};
    look.ambient = 0.05f;
    look.densityScale = 20.f;
    look.emissionIntensity = 0.f;
    return s;
}

/// Density 1 inside a sphere of radius 0.25 at the centre (or nowhere); solid cells where
/// x < 0.5 and 0.8 < z < 0.95 (a slab between the camera at +z and the left half).
FramePtr makeFrame(bool sphere, bool slab, int number = 1)
{
    auto frame = std::make_shared<FrameData>();
    frame->frame = number;
    frame->domain = makeDomain(litScene().domain);
    auto volume = std::make_shared<FrameVolume>();
    const sim::Int3 n{kCells, kCells, kCells};
    volume->fields[int(DisplayField::Density)].reshape(n, {0.5f, 0.5f, 0.5f});
    volume->fields[int(DisplayField::Temperature)].reshape(n, {0.5f, 0.5f, 0.5f});
    volume->solids.reshape(n);
    sim::ScalarGrid &rho = volume->fields[int(DisplayField::Density)];
    for (int k = 0; k < kCells; ++k)
        for (int j = 0; j < kCells; ++j)
            for (int i = 0; i < kCells; ++i) {
                const sim::Vec3 c = frame->domain.cellCentre(i, j, k);
                if (sphere && length(c - sim::Vec3{0.5f, 0.5f, 0.5f}) < 0.25f)
                    rho(i, j, k) = 1.f;
                if (slab && c.x < 0.5f && c.z > 0.8f && c.z < 0.95f)
                    volume->solids.setSolid(i, j, k, true);
            }
    frame->volume = volume;
    return frame;
}

/// `base` with a flame field (zero) and the changes edit(volume, i, j, k, centre) makes cell
/// by cell (centre: the cell's world position), on a copy of its volume.
template<class F>
FramePtr withFlame(const FramePtr &base, F &&edit)
{
    auto volume = std::make_shared<FrameVolume>(*base->volume);
    volume->fields[int(DisplayField::Flame)].reshape({kCells, kCells, kCells}, {0.5f, 0.5f, 0.5f});
    for (int k = 0; k < kCells; ++k)
        for (int j = 0; j < kCells; ++j)
            for (int i = 0; i < kCells; ++i)
                edit(*volume, i, j, k, base->domain.cellCentre(i, j, k));
    auto frame = std::make_shared<FrameData>(*base);
    frame->volume = volume;
    return frame;
}

/// Mean grey level over a square of side 2r + 1 around p.
double meanGrey(const QImage &image, QPoint p, int r)
{
    double sum = 0.0;
    int count = 0;
    for (int y = p.y() - r; y <= p.y() + r; ++y)
        for (int x = p.x() - r; x <= p.x() + r; ++x) {
            sum += qGray(image.pixel(x, y));
            ++count;
        }
    return sum / count;
}

int greyDifference(QRgb a, QRgb b) { return std::abs(qGray(a) - qGray(b)); }

/// A volume view on `doc` looking along -z at the domain (front view), dark background.
struct FrontView
{
    explicit FrontView(Document *doc)
        : view(doc)
    {
        view.resize(kSize, kSize);
        view.setBackground(VolumeView::Background::Dark);
        view.frameDomain();
        view.setCamera(0.f, 0.f, 2.5f);
        view.show();
    }
    /// Sphere centre 0.5 at the image centre; world units per pixel at the target's depth.
    double unitsPerPixel() const
    {
        return 2.0 * 2.5 * std::tan(20.0 * std::numbers::pi / 180.0) / view.height();
    }
    QPoint toPixel(float x, float y) const
    {
        const double s = unitsPerPixel();
        return {int(view.width() / 2 + (x - 0.5) / s), int(view.height() / 2 - (y - 0.5) / s)};
    }
    VolumeView view;
};

} // namespace

using plume::test::drag;
using plume::test::wheel;

class TestUiVolume : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("PlumeTests");
        QCoreApplication::setApplicationName("tst_ui_volume");
        QSettings().clear();
        // This test needs OpenGL 3.3 core (Mesa llvmpipe under Xvfb): fail, never skip.
        const QString reason = openGLUnavailableReason();
        if (!reason.isEmpty())
            QFAIL(qPrintable("no OpenGL 3.3 core: " + reason));
    }

    // Light from +x: the right half of the sphere (x > 0.5) is lit, the left is in the
    // sphere's own shadow (optical depth up to 20 * 0.5 = 10) and only gets the 0.05 ambient.
    // The lit side must be clearly brighter: at least 1.5 times in grey level.
    void litSideBrighter()
    {
        Document doc;
        doc.reset(litScene(), {});
        FrontView front(&doc);
        QVERIFY(QTest::qWaitForWindowExposed(&front.view));
        front.view.showFrame(makeFrame(true, false));
        const QImage image = front.view.grabFramebuffer();
        QVERIFY(front.view.failure().isEmpty());
        const double lit = meanGrey(image, front.toPixel(0.64f, 0.5f), 3);
        const double shadowed = meanGrey(image, front.toPixel(0.36f, 0.5f), 3);
        const double outside = meanGrey(image, {4, 4}, 2);
        QVERIFY2(lit > 1.5 * shadowed + 10.0,
                 qPrintable(QString("lit %1, shadowed %2").arg(lit).arg(shadowed)));
        QVERIFY2(shadowed > outside, "the shadowed side still shows ambient-lit smoke");
    }

    // View > Save Turntable: 4 images a quarter turn apart; the first is the view as it
    // stands (still, no caption), half a turn later the lit side (+x) faces the other way, and
    // the camera comes back. View > Save View Image writes what the widget shows.
    void turntableTurnsAndComesBack()
    {
        Document doc;
        doc.reset(litScene(), {});
        FrontView front(&doc);
        QVERIFY(QTest::qWaitForWindowExposed(&front.view));
        front.view.showFrame(makeFrame(true, false));
        const QImage still = front.view.renderStill();
        QVERIFY(front.view.lastDrawWasStill());
        QTemporaryDir dir;
        QStringList written;
        int calls = 0;
        const sim::Status st = saveTurntable(
            &front.view, {dir.path(), "spin", 4},
            [&calls](int done, int total) {
            ++calls;
            return done <= total;
            },
            &written);
        QVERIFY2(st.ok(), st.error.c_str());
        QCOMPARE(calls, 4);
        QCOMPARE(written,
                 (QStringList{dir.filePath("spin.0000.png"), dir.filePath("spin.0001.png"),
                              dir.filePath("spin.0002.png"), dir.filePath("spin.0003.png")}));
        const QImage first(written[0]), half(written[2]);
        QCOMPARE(first.size(), still.size());
        QCOMPARE(first.convertToFormat(QImage::Format_RGB32),
                 still.convertToFormat(QImage::Format_RGB32));
        const QPoint right = front.toPixel(0.64f, 0.5f), left = front.toPixel(0.36f, 0.5f);
        QVERIFY(meanGrey(first, right, 3) > 1.5 * meanGrey(first, left, 3) + 10.0);
        QVERIFY2(meanGrey(half, left, 3) > 1.5 * meanGrey(half, right, 3) + 10.0,
                 "half a turn later the lit side is on the left");
        QCOMPARE(front.view.yaw(), 0.f);
        QCOMPARE(front.view.distance(), 2.5f);

        const QString shot = dir.filePath("view.png");
        QVERIFY(saveViewImage(&front.view, shot).ok());
        const QImage saved(shot);
        QCOMPARE(saved.size(), front.view.size() * front.view.devicePixelRatio());
        QVERIFY(meanGrey(saved, right, 3) > meanGrey(saved, {4, 4}, 2) + 10.0);
        // A folder that cannot be made: the error names it.
        const sim::Status bad = saveTurntable(&front.view, {shot + "/sub", "x", 2}, {}, nullptr);
        QVERIFY(!bad.ok());
        QVERIFY2(QString::fromStdString(bad.error).contains("view.png/sub"), bad.error.c_str());
    }

    // No density: inside the domain box the image is the background, the same grey as a
    // corner outside the box (within 1 level of rounding).
    void emptyDomainShowsBackground()
    {
        Document doc;
        doc.reset(litScene(), {});
        FrontView front(&doc);
        QVERIFY(QTest::qWaitForWindowExposed(&front.view));
        front.view.showFrame(makeFrame(false, false));
        const QImage image = front.view.grabFramebuffer();
        const QRgb corner = image.pixel(2, 2);
        const QPoint a = front.toPixel(0.2f, 0.8f), b = front.toPixel(0.8f, 0.2f);
        for (int y = a.y(); y <= b.y(); y += 3)
            for (int x = a.x(); x <= b.x(); x += 3)
                QVERIFY2(greyDifference(image.pixel(x, y), corner) <= 1,
                         qPrintable(QString("pixel %1,%2").arg(x).arg(y)));
    }

    // A solid slab in front of the left half: there the image is the slab whether or not smoke
    // is behind it (identical within 1 level), and it differs from the smoke seen without it.
    void obstacleHidesWhatIsBehind()
    {
        Document doc;
        doc.reset(litScene(), {});
        FrontView front(&doc);
        QVERIFY(QTest::qWaitForWindowExposed(&front.view));
        front.view.showFrame(makeFrame(true, true, 1));
        const QImage both = front.view.grabFramebuffer();
        front.view.showFrame(makeFrame(false, true, 2));
        const QImage slabOnly = front.view.grabFramebuffer();
        front.view.showFrame(makeFrame(true, false, 3));
        const QImage smokeOnly = front.view.grabFramebuffer();
        const QRgb background = both.pixel(2, 2);
        for (float y : {0.4f, 0.5f, 0.6f}) {
            const QPoint p = front.toPixel(0.4f, y); // in front of the sphere's left side
            QVERIFY(greyDifference(both.pixel(p), slabOnly.pixel(p)) <= 1);
            QVERIFY(greyDifference(both.pixel(p), smokeOnly.pixel(p)) > 8);
            QVERIFY(greyDifference(both.pixel(p), background) > 8);
        }
        // The right half is not covered: the smoke shows as without the slab.
        const QPoint right = front.toPixel(0.64f, 0.5f);
        QVERIFY(greyDifference(both.pixel(right), smokeOnly.pixel(right)) <= 1);
    }

    // A ball of flame at 2 above ambient (about 2300 K) and no smoke, lit by nothing but its
    // own light: the centre glows warm, red over green over blue, clearly above the
    // background; the same frame with flameIntensity 0 shows the background there.
    void flameGlowsWarm()
    {
        Scene scene = litScene();
        scene.exports.render.lightIntensity = 0.f;
        scene.exports.render.ambient = 0.f;
        scene.exports.render.flameIntensity = 0.3f;
        Document doc;
        doc.reset(scene, {});
        FrontView front(&doc);
        QVERIFY(QTest::qWaitForWindowExposed(&front.view));
        const FramePtr base = makeFrame(false, false);
        const FramePtr frame = withFlame(base,
                                         [](FrameVolume &v, int i, int j, int k, sim::Vec3 c) {
            if (length(c - sim::Vec3{0.5f, 0.5f, 0.5f}) < 0.25f) {
                v.fields[int(DisplayField::Flame)](i, j, k) = 1.f;
                v.fields[int(DisplayField::Temperature)](i, j, k) = 2.f;
            }
        });
        front.view.showFrame(frame);
        const QImage image = front.view.grabFramebuffer();
        QVERIFY(front.view.failure().isEmpty());
        const QRgb centre = image.pixel(front.toPixel(0.5f, 0.5f));
        const QRgb corner = image.pixel(2, 2);
        const QString seen = QString("centre (%1, %2, %3), corner (%4, %5, %6)")
                                 .arg(qRed(centre))
                                 .arg(qGreen(centre))
                                 .arg(qBlue(centre))
                                 .arg(qRed(corner))
                                 .arg(qGreen(corner))
                                 .arg(qBlue(corner));
        QVERIFY2(qRed(centre) > qGreen(centre) + 20 && qGreen(centre) > qBlue(centre) + 20,
                 qPrintable(seen));
        QVERIFY2(qRed(centre) > qRed(corner) + 100, qPrintable(seen));
        scene.exports.render.flameIntensity = 0.f;
        scene.exports.render.emissionIntensity = 0.f;
        doc.reset(scene, {});
        front.view.showFrame(frame);
        const QImage off = front.view.grabFramebuffer();
        QVERIFY(greyDifference(off.pixel(front.toPixel(0.5f, 0.5f)), corner) <= 1);
    }

    // What the window shows is what the bake writes (docs/render.md): the view and the CPU
    // renderer share the light model (multiple scattering, sky and ground light, emission and
    // the light it casts on the smoke, the tone curve), so a perspective front view placed
    // where the renderer's perspective camera stands draws the renderer's picture, composited
    // over the view's background, within a few grey levels (the view jitters its samples).
    // PLUME_TEST_PICTURES=DIR saves both pictures there.
    void viewMatchesTheBake_data()
    {
        QTest::addColumn<float>("multiple");
        QTest::addColumn<float>("anisotropy");
        QTest::addColumn<float>("exposure");
        QTest::newRow("defaults") << 1.f << 0.f << 0.f;
        QTest::newRow("single scattering") << 0.f << 0.f << 0.f;
        QTest::newRow("forward, brighter") << 1.f << 0.5f << 1.5f;
    }
    void viewMatchesTheBake()
    {
        QFETCH(float, multiple);
        QFETCH(float, anisotropy);
        QFETCH(float, exposure);
        Scene scene = litScene();
        RenderSettings &look = scene.exports.render;
        look.lightDirection = {0.6f, 0.5f, -0.4f};
        look.ambient = 0.3f; // sky and ground light
        look.emissionIntensity = 1.f;
        look.multipleScattering = multiple;
        look.anisotropy = anisotropy;
        look.exposure = exposure;
        look.smokeColor = {0.8f, 0.8f, 0.82f};
        look.projection = Projection::Perspective;
        look.fov = 40.f;
        look.stepCells = 0.5f;
        constexpr int side = 200; // over the view's minimum size
        look.width = look.height = side;
        Document doc;
        doc.reset(scene, {});
        VolumeView view(&doc);
        view.resize(side, side);
        view.setBackground(VolumeView::Background::Dark);
        view.setInteractiveQuality({0.5f, 1.f});
        view.setStillQuality({0.5f, 1.f});
        view.frameDomain();
        // The renderer's camera: the domain's bounding sphere fills the field of view.
        const float radius = 0.5f * std::sqrt(3.f);
        view.setCamera(0.f, 0.f, radius / std::sin(20.f * std::numbers::pi_v<float> / 180.f));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        // Soft smoke with a hot core that glows and lights the smoke around it.
        const float ambientTemperature = scene.simulation.params.ambientTemperature;
        const FramePtr frame = withFlame(makeFrame(false, false),
                                         [&](FrameVolume &v, int i, int j, int k, sim::Vec3 c) {
            const float r = length(c - sim::Vec3{0.5f, 0.5f, 0.5f});
            v.fields[int(DisplayField::Density)](i, j, k) = std::max(0.f, 1.f - r / 0.35f);
            v.fields[int(DisplayField::Temperature)](i, j, k) = ambientTemperature
                                                                + (r < 0.12f ? 4.f : 0.f);
        });
        view.showFrame(frame);
        const QImage image = view.grabFramebuffer();
        QVERIFY(view.failure().isEmpty());
        QCOMPARE(image.size(), QSize(side, side));

        FrameFields fields;
        fields.domain = frame->domain;
        fields.density = frame->volume->field(DisplayField::Density);
        fields.temperature = frame->volume->field(DisplayField::Temperature);
        for (std::size_t c = 0; c < fields.temperature.count(); ++c)
            fields.temperature.data()[c] -= ambientTemperature;
        const RenderedFrame bake = renderFrame(fields, look, false, 24.f);
        const float bg[3] = {0.012f, 0.013f, 0.016f}; // Background::Dark
        const float gain = exposureScale(look.exposure);
        // Inside the domain box's far face, clear of the box's lines and the caption.
        double sum = 0.0;
        int worst = 0, smoky = 0, compared = 0;
        for (int y = 0; y < side; ++y)
            for (int x = 0; x < side; ++x) {
                if (std::hypot(x + 0.5 - 0.5 * side, y + 0.5 - 0.5 * side) > 0.22 * side)
                    continue;
                ++compared;
                const std::size_t p = std::size_t(y) * side + std::size_t(x);
                const float alpha = bake.color[4 * p + 3];
                int expected[3];
                for (int c = 0; c < 3; ++c) {
                    const float light = bake.color[4 * p + std::size_t(c)]
                                        + bake.emission[3 * p + std::size_t(c)];
                    const float v = std::min(toneMap(light * gain, look.toneCurve)
                                                 + (1.f - alpha) * bg[c],
                                             1.f);
                    expected[c] = int(std::lround(255.f * detail::linearToSrgb(v)));
                }
                const QRgb seen = image.pixel(x, y);
                const int d = std::max({std::abs(qRed(seen) - expected[0]),
                                        std::abs(qGreen(seen) - expected[1]),
                                        std::abs(qBlue(seen) - expected[2])});
                sum += d;
                worst = std::max(worst, d);
                smoky += alpha > 0.5f;
            }
        const double mean = sum / double(compared);
        if (qEnvironmentVariableIsSet("PLUME_TEST_PICTURES")) {
            QImage cpu(side, side, QImage::Format_RGB32);
            for (int y = 0; y < side; ++y)
                for (int x = 0; x < side; ++x) {
                    const std::size_t p = std::size_t(y) * side + std::size_t(x);
                    const float a = bake.color[4 * p + 3];
                    auto ch = [&](int c) {
                        const float v = std::min(toneMap((bake.color[4 * p + std::size_t(c)]
                                                          + bake.emission[3 * p + std::size_t(c)])
                                                             * gain,
                                                         look.toneCurve)
                                                     + (1.f - a) * bg[c],
                                                 1.f);
                        return int(std::lround(255.f * detail::linearToSrgb(v)));
                    };
                    cpu.setPixel(x, y, qRgb(ch(0), ch(1), ch(2)));
                }
            const QString dir = qEnvironmentVariable("PLUME_TEST_PICTURES");
            const QString tag = QString(QTest::currentDataTag()).replace(' ', '-').remove(',');
            image.save(dir + "/view-" + tag + ".png");
            cpu.save(dir + "/bake-" + tag + ".png");
        }
        const QString seen = QString("mean %1, worst %2 grey levels").arg(mean).arg(worst);
        qInfo("%s", qPrintable(seen));
        QVERIFY(smoky > compared / 2);          // the ball fills most of the compared disc
        QVERIFY2(mean < 1.0, qPrintable(seen)); // seen: 0.08-0.12
        QVERIFY2(worst <= 4, qPrintable(seen)); // seen: 1
    }

    // The march skips the space where nothing shows (render/marchbounds.h) and draws the same
    // picture as a march through the whole domain: smoke off to one side, a solid slab, hot
    // gas and a flame elsewhere, seen from the front and from an angle.
    void skippingEmptySpaceKeepsThePicture()
    {
        Scene scene = litScene();
        scene.exports.render.emissionIntensity = 1.f;
        scene.exports.render.flameIntensity = 0.3f;
        Document doc;
        doc.reset(scene, {});
        FrontView front(&doc);
        QVERIFY(QTest::qWaitForWindowExposed(&front.view));
        const float hot = scene.exports.render.emissionMax;
        const FramePtr frame = withFlame(makeFrame(false, true),
                                         [&](FrameVolume &v, int i, int j, int k, sim::Vec3 c) {
            if (length(c - sim::Vec3{0.3f, 0.7f, 0.4f}) < 0.12f)
                v.fields[int(DisplayField::Density)](i, j, k) = 1.f;
            if (length(c - sim::Vec3{0.7f, 0.3f, 0.5f}) < 0.1f)
                v.fields[int(DisplayField::Temperature)](i, j, k) = hot;
            if (length(c - sim::Vec3{0.75f, 0.75f, 0.3f}) < 0.08f)
                v.fields[int(DisplayField::Flame)](i, j, k) = 1.f;
        });
        front.view.showFrame(frame);
        const QImage empty = [&] {
            auto none = std::make_shared<FrameData>(*makeFrame(false, false, 2));
            front.view.showFrame(none);
            return front.view.renderStill();
        }();
        front.view.showFrame(frame);
        for (const auto [yaw, pitch] : {std::pair{0.f, 0.f}, std::pair{35.f, 20.f}}) {
            front.view.setCamera(yaw, pitch, 2.5f);
            front.view.setSkipEmptySpace(true);
            const QImage skipped = front.view.renderStill();
            front.view.setSkipEmptySpace(false);
            const QImage full = front.view.renderStill();
            QCOMPARE(skipped, full);
            QVERIFY(skipped != empty); // the smoke, the glow and the slab are all drawn
            QCOMPARE(front.view.glErrors(), 0);
        }
    }

    // Textures are refilled only when the shown volume changes.
    void uploadsOnlyChangedFrames()
    {
        Document doc;
        doc.reset(litScene(), {});
        FrontView front(&doc);
        QVERIFY(QTest::qWaitForWindowExposed(&front.view));
        const FramePtr a = makeFrame(true, false, 1);
        front.view.showFrame(a);
        front.view.grabFramebuffer();
        QCOMPARE(front.view.uploads(), 1);
        front.view.showFrame(a);
        front.view.setCamera(40.f, 10.f, 2.5f);
        front.view.grabFramebuffer();
        QCOMPARE(front.view.uploads(), 1);
        // A frame without a volume keeps the textures.
        auto scrubbed = std::make_shared<FrameData>(*a);
        scrubbed->volume.reset();
        front.view.showFrame(scrubbed);
        front.view.grabFramebuffer();
        QCOMPARE(front.view.uploads(), 1);
        front.view.showFrame(makeFrame(true, false, 2));
        front.view.grabFramebuffer();
        QCOMPARE(front.view.uploads(), 2);
    }

    // A mesh obstacle (a cube of half size 0.1 at the centre) is drawn as a lit surface without
    // OpenGL errors: bluish (the obstacle colour) inside its outline, the background beside
    // it, brighter when the light falls on the face seen than when it grazes it. Its triangles
    // are uploaded once, however the item moves.
    void meshSurfaceDraws()
    {
        QTemporaryDir dir;
        QFile obj(dir.filePath("cube.obj"));
        QVERIFY(obj.open(QIODevice::WriteOnly));
        obj.write("v -1 -1 -1\nv 1 -1 -1\nv 1 1 -1\nv -1 1 -1\nv -1 -1 1\nv 1 -1 1\n"
                  "v 1 1 1\nv -1 1 1\nf 1 3 2\nf 1 4 3\nf 1 2 6\nf 1 6 5\nf 4 7 3\n"
                  "f 4 8 7\nf 1 5 8\nf 1 8 4\nf 2 3 7\nf 2 7 6\nf 5 6 7\nf 5 7 8\n");
        obj.close();
        Scene scene = litScene();
        Item cube;
        cube.name = "cube";
        cube.kind = ItemKind::Obstacle;
        cube.shape.type = ShapeType::Mesh;
        cube.shape.file = obj.fileName().toStdString();
        cube.shape.meshTranslation = {0.5f, 0.5f, 0.5f};
        cube.shape.meshScale = {0.1f, 0.1f, 0.1f};
        scene.items.push_back(cube);
        Document doc;
        doc.reset(scene, {});
        FrontView front(&doc);
        QVERIFY(QTest::qWaitForWindowExposed(&front.view));
        front.view.showFrame(makeFrame(false, false, 1));
        const QImage side = front.view.grabFramebuffer();
        QCOMPARE(front.view.glErrors(), 0);
        const QRgb background = side.pixel(2, 2);
        const QRgb centre = side.pixel(front.toPixel(0.5f, 0.5f));
        QVERIFY(greyDifference(centre, background) > 8);
        QVERIFY(qBlue(centre) > qRed(centre));
        QVERIFY(greyDifference(side.pixel(front.toPixel(0.75f, 0.5f)), background) <= 1);
        ExportPresets look = scene.exports;
        look.render.lightDirection = {0.f, 0.f, 1.f}; // towards the camera: the face seen
        doc.setExports(look);
        const QImage lit = front.view.grabFramebuffer();
        QVERIFY(qGray(lit.pixel(front.toPixel(0.5f, 0.5f))) > qGray(centre) + 20);
        QCOMPARE(front.view.meshUploads(), 1);
        cube.offset = sim::Vec3{0.25f, 0.f, 0.f};
        doc.setItem(0, cube);
        const QImage moved = front.view.grabFramebuffer();
        QCOMPARE(front.view.meshUploads(), 1);
        QVERIFY(greyDifference(moved.pixel(front.toPixel(0.75f, 0.5f)), background) > 8);
        QVERIFY(greyDifference(moved.pixel(front.toPixel(0.5f, 0.5f)), background) <= 1);
        QCOMPARE(front.view.glErrors(), 0);
    }

    // Level surface mode: the sphere's iso-surface as a lit mesh (lit side brighter), made once
    // per frame and iso value, in place of the smoke; off again, the smoke is back.
    void levelSurfaceDraws()
    {
        Document doc;
        doc.reset(litScene(), {});
        FrontView front(&doc);
        QVERIFY(QTest::qWaitForWindowExposed(&front.view));
        const FramePtr frame = makeFrame(true, false);
        front.view.showFrame(frame);
        const QImage smoke = front.view.grabFramebuffer();
        front.view.setLevelSurface(true);
        const QImage surface = front.view.grabFramebuffer();
        QCOMPARE(front.view.glErrors(), 0);
        const LevelSurface &level = front.view.levelSurface();
        QCOMPARE(level.meshes(), 1);
        QVERIFY(level.error().empty());
        qInfo("level surface of 32^3: %.2f ms", level.lastMeshMs());
        const double lit = meanGrey(surface, front.toPixel(0.68f, 0.5f), 2);
        const double dark = meanGrey(surface, front.toPixel(0.32f, 0.5f), 2);
        const double outside = meanGrey(surface, {4, 4}, 2);
        QVERIFY2(lit > dark + 20.0, qPrintable(QString("lit %1, dark %2").arg(lit).arg(dark)));
        QVERIFY(dark > outside); // ambient light on the surface's colour
        QVERIFY(qBlue(surface.pixel(front.toPixel(0.68f, 0.5f)))
                > qRed(surface.pixel(front.toPixel(0.68f, 0.5f))));
        QVERIFY(surface != smoke);
        // The same frame draws again without meshing; a new iso value meshes again and a
        // higher one gives nothing here (the density is 0 or 1).
        front.view.grabFramebuffer();
        QCOMPARE(level.meshes(), 1);
        front.view.setLevelSurfaceIso(2.f);
        const QImage none = front.view.grabFramebuffer();
        QCOMPARE(level.meshes(), 2);
        QVERIFY(std::abs(meanGrey(none, front.toPixel(0.68f, 0.5f), 2) - outside) <= 1.0);
        front.view.setLevelSurface(false);
        QCOMPARE(front.view.grabFramebuffer(), smoke);
        QCOMPARE(front.view.glErrors(), 0);
    }

    // The orbit camera (OrbitCamera): a left drag turns it 0.4 degrees per pixel with the scene
    // following the pointer (right: the yaw falls; down: the eye rises), the pitch within the
    // export camera's range; a wheel notch moves 15 % nearer; Shift + left drag pans (the
    // picture moves, the angles and distance stay); F frames the domain again.
    void cameraFollowsThePointer()
    {
        Document doc;
        doc.reset(litScene(), {});
        FrontView front(&doc);
        VolumeView &view = front.view;
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.showFrame(makeFrame(true, false));
        drag(&view, {50, 50}, {60, 45});
        QCOMPARE(view.yaw(), -4.f);
        QCOMPARE(view.pitch(), -2.f);
        drag(&view, {50, 50}, {50, 500});
        QCOMPARE(view.pitch(), 89.f);
        view.setCamera(0.f, 0.f, 2.5f);
        wheel(&view, 120);
        QCOMPARE(view.distance(), 2.125f);
        const QImage before = view.renderStill();
        drag(&view, {50, 50}, {70, 50}, Qt::LeftButton, Qt::ShiftModifier);
        QCOMPARE(view.yaw(), 0.f);
        QCOMPARE(view.pitch(), 0.f);
        QCOMPARE(view.distance(), 2.125f);
        QVERIFY(view.renderStill() != before);
        QTest::keyClick(&view, Qt::Key_F);
        const double radius = 0.5 * std::sqrt(3.0); // the unit cube's
        QCOMPARE(view.distance(), float(1.1 * radius / std::sin(20.0 * std::numbers::pi / 180.0)));
        QCOMPARE(view.glErrors(), 0);
    }

    // A change draws with the interactive settings; 250 ms later a still follows.
    void stillFollowsInteraction()
    {
        Document doc;
        doc.reset(litScene(), {});
        FrontView front(&doc);
        QVERIFY(QTest::qWaitForWindowExposed(&front.view));
        front.view.showFrame(makeFrame(true, false));
        front.view.grabFramebuffer();
        QVERIFY(!front.view.lastDrawWasStill());
        QTRY_VERIFY_WITH_TIMEOUT(front.view.lastDrawWasStill(), 3000);
    }

    // The volume and surface views draw offscreen and show their picture, so the window stays
    // a raster window. A QOpenGLWidget anywhere in it (even hidden) makes Qt compose the whole
    // window with OpenGL on every repaint: about 12 ms of CPU each with a software rasteriser
    // (docs/performance.md).
    void theWindowStaysRaster()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openFile(":/scenes/plume-3d.plume"));
        window.viewLayout()->setQuad(true);
        VolumeView *volume = window.viewLayout()->volumeView();
        QVERIFY2(volume, qPrintable("no volume view: " + window.viewLayout()->volumeOffReason()));
        QTRY_VERIFY_WITH_TIMEOUT(volume->uploads() >= 2, 30000); // frames are being shown
        for (const QWidget *w : window.findChildren<QWidget *>())
            QVERIFY2(!w->inherits("QOpenGLWidget"), w->metaObject()->className());
        QCOMPARE(window.windowHandle()->surfaceType(), QSurface::RasterSurface);
        const QImage picture = volume->grab().toImage();
        QCOMPARE(picture.size(), volume->size() * volume->devicePixelRatio());
    }

    // OffscreenGLWidget: what paintGL draws at the bottom of the framebuffer (OpenGL's rows
    // run bottom-up) shows at the bottom of the picture, the overlay is drawn over it, the
    // picture is opaque and at the widget's size, and the widget paints that picture.
    void offscreenPictureIsUpright()
    {
        struct Probe : OffscreenGLWidget
        {
            int initialised = 0, painted = 0;
            void initializeGL() override { initialised += context() != nullptr; }
            void paintGL() override
            {
                ++painted;
                QOpenGLFunctions *gl = context()->functions();
                gl->glClearColor(0.f, 1.f, 0.f, 0.5f); // green; the alpha must not show
                gl->glClear(GL_COLOR_BUFFER_BIT);
                gl->glEnable(GL_SCISSOR_TEST);
                gl->glScissor(0, 0, width(), height() / 4); // the bottom quarter
                gl->glClearColor(1.f, 0.f, 0.f, 1.f);
                gl->glClear(GL_COLOR_BUFFER_BIT);
                gl->glDisable(GL_SCISSOR_TEST);
            }
            void paintOverlay(QPainter &p) override { p.fillRect(0, 0, 8, 8, Qt::white); }
        };
        Probe probe;
        probe.resize(96, 64);
        probe.show();
        QVERIFY(QTest::qWaitForWindowExposed(&probe));
        const QImage picture = probe.grabFramebuffer();
        QCOMPARE(probe.initialised, 1);
        QVERIFY(probe.painted >= 1);
        QCOMPARE(picture.size(), QSize(96, 64));
        QVERIFY(!picture.hasAlphaChannel());
        QCOMPARE(picture.pixelColor(2, 2), QColor(Qt::white));
        QCOMPARE(picture.pixelColor(50, 10), QColor(0, 255, 0));
        QCOMPARE(picture.pixelColor(50, 60), QColor(255, 0, 0));
        QCOMPARE(picture.pixelColor(50, 47), QColor(0, 255, 0));
        QCOMPARE(picture.pixelColor(50, 48), QColor(255, 0, 0));
        // The widget shows the same picture (QWidget::grab paints it as the window would).
        const QImage shown = probe.grab().toImage().convertToFormat(QImage::Format_RGB32);
        QCOMPARE(shown, picture.convertToFormat(QImage::Format_RGB32));
        QCOMPARE(probe.initialised, 1);
    }

    // With OpenGL forced off the layout has no volume view, says why where it would be, and
    // the slice views still show frames.
    void fallbackWithoutOpenGL()
    {
        qputenv("PLUME_NO_OPENGL", "1");
        Document doc;
        doc.reset(litScene(), {});
        ToolOptions options;
        auto *main = new Viewport(&doc, &options);
        ViewLayout layout(main);
        qunsetenv("PLUME_NO_OPENGL");
        layout.resize(800, 600);
        layout.setQuad(true);
        layout.show();
        QVERIFY(QTest::qWaitForWindowExposed(&layout));
        QVERIFY(!layout.volumeView());
        QVERIFY(layout.volumeOffReason().contains("PLUME_NO_OPENGL"));
        auto *message = layout.findChild<QLabel *>("volumeOffMessage");
        QVERIFY(message && message->isVisible());
        QVERIFY(message->text().contains("volume view is off"));
        QVERIFY(message->text().contains("slice views still work"));
        const FramePtr frame = makeFrame(true, false);
        main->showFrame(frame);
        layout.showFrame(frame);
        for (int n = 0; n < 3; ++n) {
            QVERIFY(layout.sliceView(n)->isVisible());
            QVERIFY(layout.sliceView(n)->sliceData());
        }
        // Without the variable the same process gets the volume view.
        ToolOptions options2;
        ViewLayout withGl(new Viewport(&doc, &options2));
        QVERIFY(withGl.volumeView());
    }
};

QTEST_MAIN(TestUiVolume)
#include "tst_ui_volume.moc"
