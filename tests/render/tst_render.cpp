// SPDX-License-Identifier: Apache-2.0
// The CPU renderer: empty domains give the background, a lit smoke sphere is brighter on the
// light's side, 2D looks match the window's colour maps and dye, motion vectors follow the
// flow with the documented scale, emission comes from hot gas and flame only, in blackbody
// colours that follow the Planckian locus (fire: yellow-white core, orange-red edges), the
// march skips only samples that show nothing, and the bytes do not depend on the thread count.
#include <core/sim/base/parallel.h>

#include <oneapi/tbb/task_arena.h> // before Qt: TBB declares members named emit()

#include <core/export/frameimage.h>
#include <core/render/blackbody.h>
#include <core/render/camera.h>
#include <core/render/lightvolume.h>
#include <core/render/marchbounds.h>
#include <core/render/renderer.h>

#include <QElapsedTimer>
#include <QTest>

#include <cmath>
#include <cstring>

using namespace plume;
using sim::Int3;
using sim::Vec3;

namespace {

/// Fields on an n^3 (or n^2 in 2D) unit domain with density 1 inside a ball of `radius`
/// (world units) around the centre, temperature `hot` there, uniform velocity `velocity`.
FrameFields ball(int n, bool threeD, float radius, Vec3 velocity = {}, float hot = 0.f)
{
    FrameFields f;
    f.domain.cells = {n, n, threeD ? n : 1};
    f.domain.cellSize = 1.f / float(n);
    const Int3 c = f.domain.cells;
    for (sim::ScalarGrid *g :
         {&f.density, &f.temperature, &f.velocityX, &f.velocityY, &f.velocityZ})
        g->reshape(c, sim::kCellCentre);
    for (int k = 0; k < c.z; ++k)
        for (int j = 0; j < c.y; ++j)
            for (int i = 0; i < c.x; ++i) {
                Vec3 p = f.domain.cellCentre(i, j, k) - Vec3{0.5f, 0.5f, 0.5f};
                if (!threeD)
                    p.z = 0.f;
                const bool inside = length(p) < radius;
                f.density(i, j, k) = inside ? 1.f : 0.f;
                f.temperature(i, j, k) = inside ? hot : 0.f;
                f.velocityX(i, j, k) = velocity.x;
                f.velocityY(i, j, k) = velocity.y;
                f.velocityZ(i, j, k) = velocity.z;
            }
    return f;
}

/// A flame: flame field, temperature and a little soot that fall linearly from the centre
/// (`flame` and `hot` there) to 0 at `radius`: a burning region with a hot core and cooler
/// edges.
FrameFields fireBall(int n, bool threeD, float radius, float flame, float hot)
{
    FrameFields f = ball(n, threeD, radius);
    f.flame.reshape(f.domain.cells, sim::kCellCentre);
    const Int3 c = f.domain.cells;
    for (int k = 0; k < c.z; ++k)
        for (int j = 0; j < c.y; ++j)
            for (int i = 0; i < c.x; ++i) {
                Vec3 p = f.domain.cellCentre(i, j, k) - Vec3{0.5f, 0.5f, 0.5f};
                if (!threeD)
                    p.z = 0.f;
                const float w = std::max(1.f - length(p) / radius, 0.f);
                f.flame(i, j, k) = flame * w;
                f.temperature(i, j, k) = hot * w;
                f.density(i, j, k) = 0.05f * w; // a little soot: alpha well below 1
            }
    return f;
}

RenderSettings smallFrame(int size)
{
    RenderSettings s;
    s.width = s.height = size;
    return s;
}

float luminance(const RenderedFrame &f, std::size_t p)
{
    return 0.2126f * f.color[4 * p] + 0.7152f * f.color[4 * p + 1] + 0.0722f * f.color[4 * p + 2];
}

} // namespace

Q_DECLARE_METATYPE(plume::sim::Vec3)

class TestRender : public QObject
{
    Q_OBJECT

private slots:
    void emptyDomainRendersBackground_data()
    {
        QTest::addColumn<bool>("threeD");
        QTest::newRow("2D") << false;
        QTest::newRow("3D") << true;
    }

    // No smoke: every pixel is transparent black, no emission, no motion.
    void emptyDomainRendersBackground()
    {
        QFETCH(bool, threeD);
        FrameFields f = ball(24, threeD, 0.f, {1.f, 0.f, 0.f});
        const RenderedFrame r = renderFrame(f, smallFrame(40), true, 24.f);
        QCOMPARE(int(r.pixels()), 40 * 40);
        for (float v : r.color)
            QCOMPARE(v, 0.f);
        for (float v : r.emission)
            QCOMPARE(v, 0.f);
        for (float v : r.motion)
            QCOMPARE(v, 0.f);
    }

    // Light from +x: the right half of the sphere (seen from the front) is brighter than the
    // left, which lies in the sphere's own shadow; the optical depth grows away from the light.
    void litSideBrighterThanShadowedSide()
    {
        FrameFields f = ball(32, true, 0.3f);
        RenderSettings s = smallFrame(64);
        s.lightDirection = {1.f, 0.f, 0.f};
        s.ambient = 0.05f;
        const RenderedFrame r = renderFrame(f, s, false, 24.f);
        double left = 0.0, right = 0.0;
        int nl = 0, nr = 0;
        for (int y = 0; y < 64; ++y)
            for (int x = 0; x < 64; ++x) {
                const std::size_t p = std::size_t(y) * 64 + x;
                const float a = r.color[4 * p + 3];
                if (a < 0.5f)
                    continue;
                (x < 32 ? left : right) += luminance(r, p) / a;
                (x < 32 ? nl : nr) += 1;
            }
        QVERIFY(nl > 100 && nr > 100);
        left /= nl;
        right /= nr;
        // densityScale 20 over a 0.6-wide ball: the far side sees exp(-12) of the light, so
        // twice as bright is a loose bound that still fails if shadows are missing.
        QVERIFY2(right > 2.0 * left,
                 qPrintable(QString("lit %1, shadowed %2").arg(right).arg(left)));
        const sim::ScalarGrid light = lightTransmittance(f.density, nullptr, {1.f, 0.f, 0.f}, 20.f,
                                                         f.domain.cellSize);
        QVERIFY(light(6, 16, 16) < light(16, 16, 16));
        QVERIFY(light(16, 16, 16) < light(26, 16, 16));
        // Through the whole ball (0.6 units of density 1): optical depth 20 * 0.6 = 12 within
        // a cell's worth.
        QVERIFY(std::abs(-std::log(light(0, 16, 16)) - 12.f) < 20.f / 32.f);
    }

    void colorMap2D_data()
    {
        QTest::addColumn<int>("map");
        QTest::addColumn<float>("value");
        QTest::newRow("inferno 0.25") << int(ColorMap::Inferno) << 0.25f;
        QTest::newRow("smoke 0.75") << int(ColorMap::Smoke) << 0.75f;
        QTest::newRow("diverging 0.5") << int(ColorMap::Diverging) << 0.5f;
        QTest::newRow("inferno clamps") << int(ColorMap::Inferno) << 3.f;
    }

    // A uniform field in the field look gives the colour map's colour in every pixel of the
    // domain (within one 8-bit step: sRGB is decoded and encoded again), fully opaque.
    void colorMap2D()
    {
        QFETCH(int, map);
        QFETCH(float, value);
        FrameFields f = ball(16, false, 0.f);
        f.field.reshape(f.domain.cells, sim::kCellCentre, value);
        RenderSettings s = smallFrame(32);
        s.look2D = Look2D::Field;
        s.colorMap = ColorMap(map);
        s.exposure = 2.f; // the field look keeps its colours (tone.h)
        const QImage image = colorImage(renderFrame(f, s, false, 24.f), AlphaMode::Straight,
                                        EmissionOutput::None, 8, imageTone(s, true));
        const QRgb want = mapColor(ColorMap(map), value);
        for (int y = 0; y < 32; ++y)
            for (int x = 0; x < 32; ++x) {
                const QRgb got = image.pixel(x, y);
                QCOMPARE(qAlpha(got), 255);
                QVERIFY(std::abs(qRed(got) - qRed(want)) <= 1);
                QVERIFY(std::abs(qGreen(got) - qGreen(want)) <= 1);
                QVERIFY(std::abs(qBlue(got) - qBlue(want)) <= 1);
            }
    }

    // Dye look: alpha 1 - exp(-2 density) as in the window, straight colour = dye / density.
    void dye2D()
    {
        FrameFields f = ball(16, false, 1.f);
        const float d = 0.5f, dye[3] = {0.8f, 0.4f, 0.2f};
        for (int c = 0; c < 3; ++c) {
            sim::ScalarGrid &g = c == 0 ? f.dyeRed : (c == 1 ? f.dyeGreen : f.dyeBlue);
            g.reshape(f.domain.cells, sim::kCellCentre, dye[c] * d);
        }
        f.density.fill(d);
        const QImage image = colorImage(renderFrame(f, smallFrame(16), false, 24.f),
                                        AlphaMode::Straight, EmissionOutput::None, 8,
                                        imageTone(smallFrame(16), true));
        const QRgb got = image.pixel(7, 7);
        QCOMPARE(qAlpha(got), int(std::lround(255.f * (1.f - std::exp(-2.f * d)))));
        QVERIFY(std::abs(qRed(got) - 204) <= 1 && std::abs(qGreen(got) - 102) <= 1
                && std::abs(qBlue(got) - 51) <= 1);
    }

    void motionFollowsFlow_data()
    {
        QTest::addColumn<bool>("threeD");
        QTest::addColumn<Vec3>("velocity");
        QTest::newRow("2D right") << false << Vec3{1.f, 0.f, 0.f};
        QTest::newRow("2D up") << false << Vec3{0.f, 0.5f, 0.f};
        QTest::newRow("3D left-down") << true << Vec3{-0.75f, -0.5f, 0.f};
        QTest::newRow("3D towards the camera") << true << Vec3{0.f, 0.f, 2.f};
    }

    // Uniform flow: where there is smoke the vector is the velocity in frame pixels per
    // frame, +x right, +y up: 64 pixels per world unit at 24 frames per second.
    void motionFollowsFlow()
    {
        QFETCH(bool, threeD);
        QFETCH(Vec3, velocity);
        const FrameFields f = ball(32, threeD, 0.3f, velocity);
        const RenderedFrame r = renderFrame(f, smallFrame(64), true, 24.f);
        QVERIFY(r.hasMotion);
        const std::size_t centre = 32 * 64 + 32;
        QVERIFY(r.color[4 * centre + 3] > 0.5f);
        const float scale = 64.f / 24.f;
        // Only float rounding differs: the weighted mean of equal vectors is the vector.
        QVERIFY(std::abs(r.motion[2 * centre] - velocity.x * scale) < 1e-4f);
        QVERIFY(std::abs(r.motion[2 * centre + 1] - velocity.y * scale) < 1e-4f);
        QCOMPARE(r.motion[0], 0.f); // corner: no smoke, no motion
    }

    // Emission comes from hot gas only, blackbody-coloured (red above blue).
    void emissionFromTemperature()
    {
        const FrameFields hot = ball(24, true, 0.3f, {}, 4.f);
        const RenderedFrame r = renderFrame(hot, smallFrame(32), false, 24.f);
        const std::size_t centre = 16 * 32 + 16;
        QVERIFY(r.emission[3 * centre] > 0.05f);
        QVERIFY(r.emission[3 * centre] > r.emission[3 * centre + 2]);
        QCOMPARE(r.emission[0], 0.f);
        const RenderedFrame cold = renderFrame(ball(24, true, 0.3f), smallFrame(32), false, 24.f);
        for (float v : cold.emission)
            QCOMPARE(v, 0.f);
    }

    void planckianLocus_data()
    {
        QTest::addColumn<double>("kelvin");
        QTest::addColumn<double>("x");
        QTest::addColumn<double>("y");
        QTest::addColumn<double>("tolerance");
        // CIE 1931 chromaticity of the Planckian locus (CIE 15:2004 / Wyszecki & Stiles tables).
        // The fitted colour-matching functions fall off too fast beyond 680 nm, where most of
        // a 1000 K radiator's visible light is, so x there is 0.011 low; from 2000 K on the
        // fit is within 0.003.
        QTest::newRow("1000 K") << 1000.0 << 0.6527 << 0.3445 << 0.013;
        QTest::newRow("2000 K") << 2000.0 << 0.5266 << 0.4133 << 0.003;
        QTest::newRow("3000 K") << 3000.0 << 0.4369 << 0.4041 << 0.003;
        QTest::newRow("4000 K") << 4000.0 << 0.3805 << 0.3768 << 0.003;
        QTest::newRow("6500 K") << 6500.0 << 0.3135 << 0.3237 << 0.003;
        QTest::newRow("10000 K") << 10000.0 << 0.2807 << 0.2884 << 0.003;
    }

    // Planck's law through the fitted CIE matching functions lands on the published locus.
    void planckianLocus()
    {
        QFETCH(double, kelvin);
        QFETCH(double, x);
        QFETCH(double, y);
        QFETCH(double, tolerance);
        const Chromaticity c = blackbodyChromaticity(kelvin);
        QVERIFY2(std::abs(c.x - x) < tolerance && std::abs(c.y - y) < tolerance,
                 qPrintable(QString("x %1 y %2").arg(c.x, 0, 'f', 4).arg(c.y, 0, 'f', 4)));
    }

    // The table's colours: largest channel 1, none negative; red over blue falls (and green
    // over red rises) steadily from dark red through orange and white to blue-white; 6500 K
    // is white within a few percent; the mapping from temperature ends at 1000 and 6500 K.
    void blackbodyHue()
    {
        float previousBlue = -1.f, previousGreen = -1.f;
        for (float k = 1000.f; k <= 12000.f; k += 250.f) {
            const Vec3 c = blackbodyColor(k);
            QVERIFY(c.x >= 0.f && c.y >= 0.f && c.z >= 0.f);
            QVERIFY(std::abs(std::max({c.x, c.y, c.z}) - 1.f) < 1e-5f);
            const float blue = c.z / c.x, green = c.y / c.x;
            QVERIFY2(blue > previousBlue || (blue == 0.f && previousBlue == 0.f),
                     qPrintable(QString("%1 K").arg(k)));
            QVERIFY2(green > previousGreen, qPrintable(QString("%1 K").arg(k)));
            previousBlue = blue;
            previousGreen = green;
        }
        const Vec3 white = blackbodyColor(6500.f);
        QVERIFY(white.y > 0.93f && white.z > 0.95f);
        const Vec3 red = blackbodyColor(1000.f);
        QVERIFY(red.x == 1.f && red.y < 0.05f && red.z == 0.f);
        const RenderSettings s;
        QCOMPARE(emissionKelvin(s, s.emissionMin - 1.f), 1000.f);
        QCOMPARE(emissionKelvin(s, s.emissionMax + 1.f), 6500.f);
        QCOMPARE(emissionKelvin(s, 0.5f * (s.emissionMin + s.emissionMax)), 3750.f);
        QCOMPARE(emissionKelvin(s, std::nanf("")), 1000.f);
    }

    void fireLooksLikeFire_data()
    {
        QTest::addColumn<bool>("threeD");
        QTest::newRow("2D") << false;
        QTest::newRow("3D") << true;
    }

    // A flame with a hot core and cooler edges: in the combined image the core is brighter and
    // more yellow-white (green over red higher) than the edge, which is orange-red (red over
    // green over blue). Without flame the emission is what the temperature alone gives.
    void fireLooksLikeFire()
    {
        QFETCH(bool, threeD);
        const FrameFields f = fireBall(32, threeD, 0.4f, 2.f, 6.f);
        const RenderSettings s = smallFrame(64);
        const RenderedFrame r = renderFrame(f, s, false, 24.f);
        const QImage image = colorImage(r, AlphaMode::Premultiplied, EmissionOutput::Combined, 8,
                                        imageTone(s, !threeD));
        const QRgb core = image.pixel(32, 32);
        // The edge: the outermost pixel right of the centre still as red as 128 of 255 (in 3D
        // the light of the whole depth of the flame adds up, so the edge lies further out).
        int x = 32;
        while (x + 1 < 64 && qRed(image.pixel(x + 1, 32)) >= 128)
            ++x;
        QVERIFY(x > 40 && x < 60);
        const QRgb edge = image.pixel(x, 32);
        auto describe = [](QRgb c) {
            return QString("(%1, %2, %3)").arg(qRed(c)).arg(qGreen(c)).arg(qBlue(c));
        };
        const QString both = "core " + describe(core) + ", edge " + describe(edge);
        QVERIFY2(qRed(core) + qGreen(core) + qBlue(core) > qRed(edge) + qGreen(edge) + qBlue(edge),
                 qPrintable(both));
        QVERIFY2(qGreen(core) > 200 && qRed(core) > 240, qPrintable(both)); // yellow-white
        QVERIFY2(double(qGreen(core)) / qRed(core) > double(qGreen(edge)) / qRed(edge) + 0.2,
                 qPrintable(both));
        QVERIFY2(qRed(edge) > qGreen(edge) && qGreen(edge) > qBlue(edge), qPrintable(both));
        QVERIFY2(double(qGreen(edge)) / qRed(edge) < 0.6, qPrintable(both));
        QCOMPARE(qRgb(0, 0, 0) & 0xffffff, image.pixel(0, 0) & 0xffffff); // no fire, no light

        // Without flame (or with flameIntensity 0) only the hot gas glows, as before flames.
        FrameFields noFlame = f;
        noFlame.flame = sim::ScalarGrid();
        RenderSettings off = s;
        off.flameIntensity = 0.f;
        const RenderedFrame a = renderFrame(noFlame, s, false, 24.f);
        const RenderedFrame b = renderFrame(f, off, false, 24.f);
        QVERIFY(a.emission == b.emission);
        off.emissionIntensity = 0.f;
        for (float v : renderFrame(f, off, false, 24.f).emission)
            QCOMPARE(v, 0.f);
        double flameLight = 0.0, gasLight = 0.0;
        for (std::size_t n = 0; n < r.emission.size(); ++n) {
            flameLight += r.emission[n];
            gasLight += a.emission[n];
        }
        QVERIFY(flameLight > 2.0 * gasLight);
    }

    // The march bounds (marchbounds.h) hold every cell that shows something, widened by the
    // trilinear footprint: a ball of smoke off-centre, a hot spot, a flame and a solid cell.
    void marchBoundsHoldWhatShows()
    {
        FrameFields f = ball(32, true, 0.1f);
        QVERIFY(marchBounds({f.velocityX}).empty); // all zero: nothing shows
        // Smoke at cells 13..18 on each axis (centres within 0.1 of the centre, 3.2 cells).
        MarchBounds b = marchBounds({f.density});
        QVERIFY(!b.empty);
        QCOMPARE(b.lo, (Vec3{12.5f, 12.5f, 12.5f}));
        QCOMPARE(b.hi, (Vec3{19.5f, 19.5f, 19.5f}));
        // Density at the floor does not show; a hair above it does.
        sim::ScalarGrid faint = f.velocityX;
        faint(3, 4, 5) = 0.5f * kMarchDensityFloor;
        QVERIFY(marchBounds({faint}).empty);
        faint(3, 4, 5) = 2.f * kMarchDensityFloor;
        QCOMPARE(marchBounds({faint}).lo, (Vec3{2.5f, 3.5f, 4.5f}));
        // Gas hotter than the threshold, flame above 0 and solids widen the box.
        f.temperature(30, 16, 16) = 2.f;
        QCOMPARE(marchBounds({f.density, &f.temperature, 3.f}).hi.x, 19.5f); // not hot enough
        QCOMPARE(marchBounds({f.density, &f.temperature, 1.f}).hi.x, 31.5f);
        f.flame = f.velocityX;
        f.flame(16, 1, 16) = 0.5f;
        QCOMPARE(marchBounds({f.density, nullptr, 0.f, &f.flame}).lo.y, 0.5f);
        sim::FlagGrid solids(f.domain.cells);
        solids.setSolid(16, 16, 0, true);
        QCOMPARE(marchBounds({f.density, nullptr, 0.f, nullptr, &solids}).lo.z, -0.5f);
    }

    // Every sample a march skips (outside marchRange) reads only cells that show nothing, so
    // its trilinear density, temperature and flame add nothing: rays from all sides through a
    // volume with smoke, a hot spot and a flame in different places.
    void marchSkipsOnlyEmptySamples()
    {
        FrameFields f = ball(24, true, 0.15f);
        const Int3 n = f.domain.cells;
        f.flame = f.velocityX;
        for (int k = 0; k < n.z; ++k)
            for (int j = 0; j < n.y; ++j)
                for (int i = 0; i < n.x; ++i) {
                    const Vec3 c = f.domain.cellCentre(i, j, k);
                    f.density(i, j, k) *= 0.7f + 0.3f * std::sin(float(i * 7 + j * 3 + k));
                    f.temperature(i, j, k) = length(c - Vec3{0.8f, 0.2f, 0.3f}) < 0.1f ? 2.f : 0.f;
                    f.flame(i, j, k) = length(c - Vec3{0.2f, 0.8f, 0.7f}) < 0.08f ? 1.f : 0.f;
                }
        const float hotAbove = 0.5f;
        const MarchBounds b = marchBounds({f.density, &f.temperature, hotAbove, &f.flame});
        QVERIFY(!b.empty);
        int skipped = 0, marched = 0;
        std::uint32_t seed = 12345u;
        auto random = [&] {
            seed = seed * 1664525u + 1013904223u;
            return float(seed >> 8) / float(1u << 24);
        };
        for (int ray = 0; ray < 2000; ++ray) {
            const Vec3 o{random() * 40.f - 8.f, random() * 40.f - 8.f, random() * 40.f - 8.f};
            const Vec3 target{random() * 24.f, random() * 24.f, random() * 24.f};
            Vec3 d = target - o;
            d = d * (1.f / length(d));
            float t0, t1;
            if (!detail::clipToBox(o, d, n, t0, t1))
                continue;
            t0 += 0.7f * random(); // the views jitter the first sample
            const float dt = 0.5f + random();
            const int steps = int(std::ceil((t1 - t0) / dt));
            int first = 0, last = -1;
            if (!marchRange(b, o, d, t0, dt, steps, first, last))
                last = -1;
            for (int k = 0; k < steps; ++k) {
                const float ta = t0 + float(k) * dt;
                const Vec3 p = o + d * (ta + 0.5f * std::min(dt, t1 - ta));
                const detail::Trilinear w(n, p);
                const bool inside = k >= first && k <= last;
                (inside ? marched : skipped) += 1;
                if (!inside) {
                    QVERIFY(!(w(f.density.data()) > kMarchDensityFloor));
                    QVERIFY(!(w(f.temperature.data()) > hotAbove));
                    QVERIFY(!(w(f.flame.data()) > 0.f));
                }
            }
        }
        qInfo("samples marched %d, skipped %d", marched, skipped);
        // The three are far apart, so their box is most of the domain; the rays' ends outside
        // it are still a good share.
        QVERIFY(skipped > (marched + skipped) / 4);
    }

    // Serial and 1, 2, 4 threads give the same bytes (3D with shadows, emission, flame,
    // motion; and a perspective camera from an angle).
    void deterministicAcrossThreads()
    {
        FrameFields f = ball(32, true, 0.35f, {0.3f, 0.7f, -0.2f}, 3.f);
        f.flame = fireBall(32, true, 0.3f, 1.5f, 0.f).flame;
        RenderSettings s = smallFrame(48);
        RenderSettings p = s;
        p.projection = Projection::Perspective;
        p.yaw = 30.f;
        p.pitch = 20.f;
        for (const RenderSettings &settings : {s, p}) {
            RenderedFrame serial;
            {
                sim::SerialScope scope;
                serial = renderFrame(f, settings, true, 24.f);
            }
            for (int threads : {1, 2, 4}) {
                oneapi::tbb::task_arena arena(threads);
                RenderedFrame r;
                arena.execute([&] { r = renderFrame(f, settings, true, 24.f); });
                QVERIFY(
                    std::memcmp(r.color.data(), serial.color.data(), r.color.size() * sizeof(float))
                    == 0);
                QVERIFY(std::memcmp(r.emission.data(), serial.emission.data(),
                                    r.emission.size() * sizeof(float))
                        == 0);
                QVERIFY(std::memcmp(r.motion.data(), serial.motion.data(),
                                    r.motion.size() * sizeof(float))
                        == 0);
            }
        }
    }

    // 256 x 256 pixels of a 64^3 volume on 2 threads, with shadows and motion vectors.
    void speed()
    {
        const FrameFields f = ball(64, true, 0.4f, {0.2f, 1.f, 0.f}, 2.f);
        oneapi::tbb::task_arena arena(2);
        double best = 1e9;
        for (int run = 0; run < 3; ++run) {
            QElapsedTimer timer;
            timer.start();
            arena.execute([&] { renderFrame(f, smallFrame(256), true, 24.f); });
            best = std::min(best, double(timer.nsecsElapsed()) / 1e6);
        }
        qInfo("256x256 frame of a 64^3 volume, 2 threads: %.1f ms (best of 3)", best);
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
        const double budget = 10000.0; // instrumented -O1 build (scripts/run-tests --sanitize)
#else
        const double budget = 1000.0;
#endif
        QVERIFY(best < budget);
    }
};

QTEST_GUILESS_MAIN(TestRender)
#include "tst_render.moc"
