// SPDX-License-Identifier: Apache-2.0
// Flipbook and image passes (docs/flipbook.md): a sphere of smoke renders normals that point
// out of it (green flips with DirectX), six-way lightmaps brightest on the lit side, depth that
// grows away from the camera with the sidecar's range, packing presets that put each pass in
// its documented channel, EXR files that read back (OpenEXR's API and exrheader) with the
// values written, and results that do not depend on the thread count.

#include <oneapi/tbb/global_control.h> // before Qt: TBB declares members named emit()

#include <core/bake/baker.h>
#include <core/export/exrimage.h>
#include <core/export/flipbook.h>
#include <core/export/frameimage.h>
#include <core/export/passes.h>
#include <core/io/scenereader.h>
#include <core/io/scenewriter.h>
#include <core/render/renderer.h>
#include <core/scene/scene.h>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstring>

using namespace plume;
using sim::Int3;
using sim::Vec3;

namespace {

constexpr int kSize = 64; // frame pixels; the unit domain fills the frame (orthographic front)

/// An n^3 (2D: n^2) unit domain with smoke in a ball of `radius` around the centre: density 1
/// inside when `hard`, else falling linearly from 1 at the centre to 0 at the radius.
FrameFields sphere(int n, bool threeD, float radius, bool hard)
{
    FrameFields f;
    f.domain.cells = {n, n, threeD ? n : 1};
    f.domain.cellSize = 1.f / float(n);
    const Int3 c = f.domain.cells;
    f.density.reshape(c, sim::kCellCentre);
    f.temperature.reshape(c, sim::kCellCentre);
    for (int k = 0; k < c.z; ++k)
        for (int j = 0; j < c.y; ++j)
            for (int i = 0; i < c.x; ++i) {
                Vec3 p = f.domain.cellCentre(i, j, k) - Vec3{0.5f, 0.5f, 0.5f};
                if (!threeD)
                    p.z = 0.f;
                const float r = length(p);
                f.density(i, j, k) = hard ? (r < radius ? 1.f : 0.f)
                                          : std::max(1.f - r / radius, 0.f);
            }
    return f;
}

RenderSettings frameSettings()
{
    RenderSettings s;
    s.width = s.height = kSize;
    return s;
}

PassRequest allPasses()
{
    PassRequest r;
    r.sixWay = r.normals = r.depth = true;
    return r;
}

std::size_t at(int x, int y) { return std::size_t(y) * kSize + x; }

Vec3 normalAt(const RenderedFrame &f, int x, int y)
{
    const std::size_t p = at(x, y);
    return {f.normal[3 * p], f.normal[3 * p + 1], f.normal[3 * p + 2]};
}

/// Straight six-way light `l` averaged over the visible pixels of columns [x0, x1).
float meanLight(const RenderedFrame &f, int l, int x0, int x1, bool rows = false)
{
    double sum = 0.0;
    int count = 0;
    for (int y = 0; y < kSize; ++y)
        for (int x = 0; x < kSize; ++x) {
            const int u = rows ? y : x;
            const std::size_t p = at(x, y);
            const float a = f.color[4 * p + 3];
            if (u < x0 || u >= x1 || a < 0.2f)
                continue;
            sum += f.sixWay[kSixWayLights * p + l] / a;
            ++count;
        }
    return count ? float(sum / count) : 0.f;
}

QJsonObject readJson(const QString &path)
{
    QFile file(path);
    file.open(QIODevice::ReadOnly);
    return QJsonDocument::fromJson(file.readAll()).object();
}

} // namespace

class TestPasses : public QObject
{
    Q_OBJECT

private slots:
    void normalsPointOutOfASphere();
    void normalGreenFlipsWithDirectX();
    void sixWayIsBrightestOnTheLitSide();
    void beautyLitFromTheRightIsTheRightLightmap_data();
    void beautyLitFromTheRightIsTheRightLightmap();
    void depthGrowsAwayFromTheCamera();
    void twoDPasses();
    void passesDoNotDependOnThreads();
    void packingPresets();
    void packedChannelsHoldTheirPass();
    void toneOfChannels();
    void exrRoundTrip_data();
    void exrRoundTrip();
    void flipbookWithPasses();
    void defaultFlipbookHasNoPasses();
    void sceneKeysRoundTrip();
    void badSceneKeysNameTheKey();
    void bakeWithPassesIsRepeatableAndResumable();
};

void TestPasses::normalsPointOutOfASphere()
{
    const RenderedFrame f = renderFrame(sphere(32, true, 0.35f, false), frameSettings(),
                                        allPasses(), 24.f);
    QCOMPARE(f.normal.size(), 3 * f.pixels());
    // The sphere spans pixels 32 +- 22; sample well inside its rim.
    const Vec3 right = normalAt(f, 32 + 15, 32), left = normalAt(f, 32 - 16, 32);
    const Vec3 top = normalAt(f, 32, 32 - 16), bottom = normalAt(f, 32, 32 + 15);
    const Vec3 centre = normalAt(f, 32, 32);
    QVERIFY2(right.x > 0.6f && std::abs(right.y) < 0.2f, qPrintable(QString::number(right.x)));
    QVERIFY2(left.x < -0.6f && std::abs(left.y) < 0.2f, qPrintable(QString::number(left.x)));
    QVERIFY2(top.y > 0.6f && std::abs(top.x) < 0.2f, qPrintable(QString::number(top.y)));
    QVERIFY2(bottom.y < -0.6f, qPrintable(QString::number(bottom.y)));
    QVERIFY2(centre.z > 0.95f, qPrintable(QString::number(centre.z)));
    for (const Vec3 &n : {right, left, top, bottom, centre})
        QVERIFY(std::abs(length(n) - 1.f) < 1e-4f);
    // Nothing there: facing the camera.
    const Vec3 corner = normalAt(f, 0, 0);
    QCOMPARE(corner.z, 1.f);
    QCOMPARE(corner.x, 0.f);
}

void TestPasses::normalGreenFlipsWithDirectX()
{
    const RenderedFrame f = renderFrame(sphere(32, true, 0.35f, false), frameSettings(),
                                        allPasses(), 24.f);
    const EncodeContext ctx;
    const std::size_t top = at(32, 32 - 16);
    const float gl = channelValue(f, PassChannel::NormalY, top, NormalConvention::OpenGL, ctx);
    const float dx = channelValue(f, PassChannel::NormalY, top, NormalConvention::DirectX, ctx);
    QVERIFY2(gl > 0.8f, qPrintable(QString::number(gl)));
    QVERIFY2(dx < 0.2f, qPrintable(QString::number(dx)));
    QCOMPARE(gl + dx, 1.f);
    // Red is the same in both.
    QCOMPARE(channelValue(f, PassChannel::NormalX, top, NormalConvention::OpenGL, ctx),
             channelValue(f, PassChannel::NormalX, top, NormalConvention::DirectX, ctx));
}

void TestPasses::sixWayIsBrightestOnTheLitSide()
{
    RenderSettings single = frameSettings();
    single.multipleScattering = 0.f;
    const RenderedFrame f = renderFrame(sphere(32, true, 0.35f, false), single, allPasses(), 24.f);
    QCOMPARE(f.sixWay.size(), kSixWayLights * f.pixels());
    enum { Right, Top, Back, Left, Bottom, Front };
    const int h = kSize / 2;
    // Light from the right: the right half is brighter, and the other way round.
    QVERIFY(meanLight(f, Right, h, kSize) > 2.f * meanLight(f, Right, 0, h));
    QVERIFY(meanLight(f, Left, 0, h) > 2.f * meanLight(f, Left, h, kSize));
    // Rows: row 0 is the top.
    QVERIFY(meanLight(f, Top, 0, h, true) > 2.f * meanLight(f, Top, h, kSize, true));
    QVERIFY(meanLight(f, Bottom, h, kSize, true) > 2.f * meanLight(f, Bottom, 0, h, true));
    // Dense smoke: lit from the camera's side it is bright in the middle (single scattering of
    // a deep medium lit from the front: 1/2), lit from behind dark.
    const std::size_t c = at(32, 32);
    const float a = f.color[4 * c + 3];
    QVERIFY(a > 0.99f);
    QVERIFY(f.sixWay[kSixWayLights * c + Front] / a > 0.45f);
    QVERIFY(f.sixWay[kSixWayLights * c + Back] / a < 0.05f);
    // Premultiplied single scattering: never more light than opacity.
    for (std::size_t p = 0; p < f.pixels(); ++p)
        for (int l = 0; l < kSixWayLights; ++l)
            QVERIFY(f.sixWay[kSixWayLights * p + l] <= f.color[4 * p + 3] + 1e-6f);
    // Multiple scattering (the default) brightens every side and lets some light through the
    // ball from behind, and the lit side stays the brightest.
    const RenderedFrame m = renderFrame(sphere(32, true, 0.35f, false), frameSettings(),
                                        allPasses(), 24.f);
    for (int l = 0; l < kSixWayLights; ++l)
        QVERIFY(m.sixWay[kSixWayLights * c + l] > f.sixWay[kSixWayLights * c + l]);
    QVERIFY(m.sixWay[kSixWayLights * c + Back] > 0.05f);
    QVERIFY(m.sixWay[kSixWayLights * c + Front] > 2.f * m.sixWay[kSixWayLights * c + Back]);
    QVERIFY(meanLight(m, Right, h, kSize) > 1.5f * meanLight(m, Right, 0, h));
}

// The lightmaps use the beauty's light model: a grey ball's beauty under a white light from
// the camera's right, without sky light or emission, is its albedo times the right lightmap,
// for single and multiple scattering and for forward-scattering smoke.
void TestPasses::beautyLitFromTheRightIsTheRightLightmap_data()
{
    QTest::addColumn<float>("albedo");
    QTest::addColumn<float>("multiple");
    QTest::addColumn<float>("anisotropy");
    QTest::newRow("steam") << 0.9f << 1.f << 0.f;
    QTest::newRow("soot") << 0.1f << 1.f << 0.f;
    QTest::newRow("single") << 0.9f << 0.f << 0.f;
    QTest::newRow("forward") << 0.7f << 1.f << 0.6f;
}

void TestPasses::beautyLitFromTheRightIsTheRightLightmap()
{
    QFETCH(float, albedo);
    QFETCH(float, multiple);
    QFETCH(float, anisotropy);
    RenderSettings s = frameSettings();
    s.lightDirection = {1.f, 0.f, 0.f}; // the front camera's right
    s.lightColor = {1.f, 1.f, 1.f};
    s.lightIntensity = 1.f;
    s.ambient = 0.f;
    s.smokeColor = {albedo, albedo, albedo};
    s.multipleScattering = multiple;
    s.anisotropy = anisotropy;
    PassRequest r;
    r.sixWay = true;
    const RenderedFrame f = renderFrame(sphere(32, true, 0.35f, false), s, r, 24.f);
    float peak = 0.f, worst = 0.f;
    for (std::size_t p = 0; p < f.pixels(); ++p) {
        const float lightmap = albedo * f.sixWay[kSixWayLights * p + 0];
        peak = std::max(peak, lightmap);
        for (int c = 0; c < 3; ++c)
            worst = std::max(worst, std::abs(f.color[4 * p + c] - lightmap));
    }
    QVERIFY(peak > 0.1f * albedo);
    // The same octaves at the same transmittances: equal but for float rounding.
    QVERIFY2(worst <= 1e-5f * peak, qPrintable(QString::number(worst / peak)));
}

void TestPasses::depthGrowsAwayFromTheCamera()
{
    const RenderedFrame f = renderFrame(sphere(64, true, 0.3f, true), frameSettings(), allPasses(),
                                        24.f);
    QCOMPARE(f.depth.size(), f.pixels());
    // Orthographic: the camera's plane is 2R from the centre (R: the domain's bounding sphere),
    // near = R, far = 3R.
    const float R = 0.5f * std::sqrt(3.f);
    QCOMPARE(f.depthNear, R);
    QCOMPARE(f.depthFar, 3.f * R);
    auto expected = [&](int x, int y) {
        const float wx = (float(x) + 0.5f) / kSize - 0.5f, wy = 0.5f - (float(y) + 0.5f) / kSize;
        const float surface = std::sqrt(0.3f * 0.3f - wx * wx - wy * wy); // z of the front
        return (2.f * R - surface - R) / (2.f * R);
    };
    for (auto [x, y] : {std::pair{32, 32}, {40, 32}, {32, 44}, {48, 40}}) {
        const float d = f.depth[at(x, y)];
        QVERIFY2(std::abs(d - expected(x, y)) < 0.02f,
                 qPrintable(
                     QString("(%1, %2): %3 vs %4").arg(x).arg(y).arg(d).arg(expected(x, y))));
    }
    // Farther from the sphere's centre on screen, the front surface is farther away (pixels
    // a cell or more apart in depth: the hard ball's surface is a staircase of cells).
    const int xs[] = {32, 40, 46, 50};
    for (int n = 0; n + 1 < 4; ++n)
        QVERIFY(f.depth[at(xs[n + 1], 32)] > f.depth[at(xs[n], 32)]);
    QCOMPARE(f.depth[at(0, 0)], 1.f);
    // Turned round (yaw 180) the camera sees the same sphere at the same depth.
    RenderSettings back = frameSettings();
    back.yaw = 180.f;
    const RenderedFrame b = renderFrame(sphere(64, true, 0.3f, true), back, allPasses(), 24.f);
    QVERIFY(std::abs(b.depth[at(32, 32)] - f.depth[at(32, 32)]) < 0.01f);
}

void TestPasses::twoDPasses()
{
    const FrameFields f = sphere(64, false, 0.3f, false);
    const RenderedFrame r = renderFrame(f, frameSettings(), allPasses(), 24.f);
    QVERIFY(r.depth.empty()); // a slab at one distance
    QCOMPARE(r.sixWay.size(), kSixWayLights * r.pixels());
    enum { Right, Top, Back, Left, Bottom, Front };
    const int h = kSize / 2;
    QVERIFY(meanLight(r, Right, h, kSize) > 1.5f * meanLight(r, Right, 0, h));
    QVERIFY(meanLight(r, Top, 0, h, true) > 1.5f * meanLight(r, Top, h, kSize, true));
    const Vec3 right = normalAt(r, 32 + 12, 32), top = normalAt(r, 32, 32 - 12);
    QVERIFY(right.x > 0.3f && right.z > 0.f);
    QVERIFY(top.y > 0.3f);
    // The thin-slab formulas (docs/flipbook.md) at the centre, from its optical depth.
    const std::size_t c = at(32, 32);
    const float alpha = r.color[4 * c + 3], tau = -std::log(1.f - alpha);
    QVERIFY(std::abs(r.sixWay[kSixWayLights * c + Front] - 0.5f * (1.f - std::exp(-2.f * tau)))
            < 1e-5f);
    QVERIFY(std::abs(r.sixWay[kSixWayLights * c + Back] - tau * std::exp(-tau)) < 1e-5f);
    // Depth is refused for 2D with a message that says why.
    TextureOptions o;
    o.passes.depth = true;
    const sim::Status st = checkPasses(passTextures(o), true);
    QVERIFY(!st);
    QVERIFY2(QString::fromStdString(st.error).contains("3D domain"), st.error.c_str());
    QVERIFY(checkPasses(passTextures(o), false));
}

void TestPasses::passesDoNotDependOnThreads()
{
    const FrameFields f = sphere(32, true, 0.35f, false);
    RenderedFrame one;
    {
        tbb::global_control serial(tbb::global_control::max_allowed_parallelism, 1);
        one = renderFrame(f, frameSettings(), allPasses(), 24.f);
    }
    const RenderedFrame many = renderFrame(f, frameSettings(), allPasses(), 24.f);
    for (auto plane : {&RenderedFrame::sixWay, &RenderedFrame::normal, &RenderedFrame::depth}) {
        QCOMPARE((one.*plane).size(), (many.*plane).size());
        QVERIFY(std::memcmp((one.*plane).data(), (many.*plane).data(),
                            (one.*plane).size() * sizeof(float))
                == 0);
    }
}

void TestPasses::packingPresets()
{
    auto suffixes = [](const TextureOptions &o) {
        QStringList s;
        for (const PassTexture &t : passTextures(o))
            s << QString::fromStdString(t.suffix);
        return s;
    };
    auto find = [](const TextureOptions &o, const std::string &suffix) {
        for (const PassTexture &t : passTextures(o))
            if (t.suffix == suffix)
                return t;
        return PassTexture{};
    };
    using C = PassChannel;
    TextureOptions o;
    o.motionVectors = true;
    QCOMPARE(suffixes(o), (QStringList{"", "_motion"})); // the defaults: as before passes

    o.passes.pack = PackPreset::UnitySixWay;
    QCOMPARE(suffixes(o), (QStringList{"", "_motion", "_sixway_rtb", "_sixway_lbf"}));
    const PassTexture rtb = find(o, "_sixway_rtb"), lbf = find(o, "_sixway_lbf");
    QCOMPARE(rtb.sources, (std::array{C::Right, C::Top, C::Back, C::Alpha}));
    QCOMPARE(lbf.sources, (std::array{C::Left, C::Bottom, C::Front, C::Emission}));
    // Six-way lighting alone gives the same two textures.
    TextureOptions six;
    six.passes.lighting = Lighting::SixWay;
    QCOMPARE(suffixes(six), (QStringList{"", "_sixway_rtb", "_sixway_lbf"}));

    o.passes.pack = PackPreset::UnrealSubUV;
    QCOMPARE(suffixes(o), (QStringList{"", "_motion", "_normal", "_emission"}));
    QCOMPARE(find(o, "_normal").normals, NormalConvention::DirectX);
    QCOMPARE(find(o, "_emission").kind, TextureKind::Emission);

    o.passes.pack = PackPreset::Godot;
    QCOMPARE(suffixes(o), (QStringList{"", "_motion", "_normal", "_emission"}));
    QCOMPARE(find(o, "_normal").normals, NormalConvention::OpenGL);

    o.passes.pack = PackPreset::Custom;
    o.passes.packChannels = {C::Depth, C::NormalX, C::Back, C::Alpha};
    o.passes.normalConvention = NormalConvention::DirectX;
    QCOMPARE(suffixes(o), (QStringList{"", "_motion", "_packed"}));
    QCOMPARE(find(o, "_packed").sources, o.passes.packChannels);
    QCOMPARE(find(o, "_packed").normals, NormalConvention::DirectX);
    const PassRequest r = passRequest(passTextures(o), o.passes);
    QVERIFY(r.depth && r.normals && r.sixWay && r.motion);

    // Separate passes: one texture each, not repeated when a preset packs them already.
    TextureOptions s;
    s.passes.normals = s.passes.depth = s.passes.alpha = true;
    QCOMPARE(suffixes(s), (QStringList{"", "_normal", "_depth", "_alpha"}));
    QCOMPARE(find(s, "_depth").channels, 1);
    s.passes.pack = PackPreset::Godot;
    QCOMPARE(suffixes(s), (QStringList{"", "_normal", "_emission", "_depth", "_alpha"}));
}

void TestPasses::packedChannelsHoldTheirPass()
{
    FrameFields fields = sphere(32, true, 0.35f, false);
    for (std::size_t n = 0; n < fields.temperature.count(); ++n)
        fields.temperature.data()[n] = 3.f; // glowing everywhere
    TextureOptions o;
    o.passes.pack = PackPreset::UnitySixWay;
    o.passes.normals = true;
    const std::vector<PassImage> images = renderPasses(fields, frameSettings(), o, 24.f);
    const RenderedFrame f = renderFrame(fields, frameSettings(), allPasses(), 24.f);
    QCOMPARE(int(images.size()), 4); // colour, rtb, lbf, normal
    const FloatImage &rtb = images[1].image, &lbf = images[2].image, &nrm = images[3].image;
    QCOMPARE(rtb.channels, 4);
    QCOMPARE(nrm.channels, 3);
    for (auto [x, y] : {std::pair{47, 32}, {20, 20}, {32, 32}}) {
        const std::size_t p = at(x, y);
        const float a = f.color[4 * p + 3];
        // PNG: the light per unit opacity, clipped at 1.
        auto straight = [&](int l) { return std::min(f.sixWay[kSixWayLights * p + l] / a, 1.f); };
        QCOMPARE(rtb.at(x, y, 0), straight(0)); // right
        QCOMPARE(rtb.at(x, y, 2), straight(2)); // back
        QCOMPARE(rtb.at(x, y, 3), a);
        QCOMPARE(lbf.at(x, y, 1), straight(4)); // bottom
        const float *e = &f.emission[3 * p];
        QVERIFY(e[0] > 0.f);
        QCOMPARE(lbf.at(x, y, 3), 0.2126f * e[0] + 0.7152f * e[1] + 0.0722f * e[2]);
        QCOMPARE(nrm.at(x, y, 0), 0.5f + 0.5f * f.normal[3 * p]);
    }
    // The right side of the sphere is lit by the right light: R of rtb high there.
    QVERIFY(rtb.at(47, 32, 0) > 2.f * rtb.at(17, 32, 0));
}

// Packed PNG colour and emission channels are toned exactly as the colour and emission images
// (frameimage.h); EXR stays linear (no exposure, no curve); data channels are never toned.
void TestPasses::toneOfChannels()
{
    using C = PassChannel;
    FrameFields fields = sphere(32, true, 0.35f, false);
    for (std::size_t n = 0; n < fields.temperature.count(); ++n)
        fields.temperature.data()[n] = 4.f; // glowing everywhere
    const RenderedFrame f = renderFrame(fields, frameSettings(), allPasses(), 24.f);
    const Tone bright{1.5f, ToneCurve::Filmic};
    const NormalConvention gl = NormalConvention::OpenGL;
    int toned = 0;
    for (AlphaMode alpha : {AlphaMode::Premultiplied, AlphaMode::Straight}) {
        EncodeContext png{alpha, EmissionOutput::Combined, ImageFormat::Png};
        png.tone = bright;
        EncodeContext plain = png;
        plain.tone = Tone{};
        EncodeContext exr = png;
        exr.format = ImageFormat::Exr;
        const QImage color = colorImage(f, alpha, EmissionOutput::Combined, 16, bright);
        const QImage emission = emissionImage(f, 16, bright);
        for (auto [x, y] : {std::pair{47, 32}, {20, 20}, {32, 32}, {0, 0}}) {
            const std::size_t p = at(x, y);
            const QRgba64 c = color.pixelColor(x, y).rgba64(),
                          e = emission.pixelColor(x, y).rgba64();
            const int colorWant[3] = {c.red(), c.green(), c.blue()};
            const int emissionWant[3] = {e.red(), e.green(), e.blue()};
            const float a = f.color[4 * p + 3];
            for (int ch = 0; ch < 3; ++ch) {
                const C rgb = C(int(C::Red) + ch), glow = C(int(C::EmissionRed) + ch);
                const auto stored = [](float v) {
                    return int(std::lround(std::clamp(v, 0.f, 1.f) * 65535.f)); // as quantised
                };
                QCOMPARE(stored(channelValue(f, rgb, p, gl, png)), colorWant[ch]);
                QCOMPARE(stored(channelValue(f, glow, p, gl, png)), emissionWant[ch]);
                toned += channelValue(f, rgb, p, gl, png) != channelValue(f, rgb, p, gl, plain);
                // EXR: the frame's linear values, whatever the tone.
                const float v = f.color[4 * p + ch], light = f.emission[3 * p + ch];
                const float linear = alpha == AlphaMode::Premultiplied ? v + light
                                     : a > 0.f                         ? (v + light) / a
                                                                       : 0.f;
                QCOMPARE(channelValue(f, rgb, p, gl, exr), linear);
                QCOMPARE(channelValue(f, glow, p, gl, exr), light);
            }
            for (C data : {C::Alpha, C::Emission, C::Right, C::Top, C::Back, C::Left, C::Bottom,
                           C::Front, C::NormalX, C::NormalY, C::NormalZ, C::Depth})
                QCOMPARE(channelValue(f, data, p, gl, png), channelValue(f, data, p, gl, plain));
        }
    }
    QVERIFY(toned > 0);
}

void TestPasses::exrRoundTrip_data()
{
    QTest::addColumn<int>("precision");
    QTest::addColumn<int>("channels");
    QTest::newRow("half RGBA") << int(ExrPrecision::Half) << 4;
    QTest::newRow("float RGBA") << int(ExrPrecision::Float) << 4;
    QTest::newRow("half Y") << int(ExrPrecision::Half) << 1;
    QTest::newRow("float RGB") << int(ExrPrecision::Float) << 3;
}

void TestPasses::exrRoundTrip()
{
    QFETCH(int, precision);
    QFETCH(int, channels);
    const bool half = ExrPrecision(precision) == ExrPrecision::Half;
    FloatImage image;
    image.width = 7;
    image.height = 5;
    image.channels = channels;
    for (int i = 0; i < image.width * image.height * channels; ++i)
        image.pixels.push_back(0.37f * float(i) - 3.f + (i % 5 == 0 ? 1000.f : 0.f)); // HDR too
    QByteArray bytes;
    QVERIFY(exrBytes(image, ExrPrecision(precision), bytes));
    QByteArray again;
    QVERIFY(exrBytes(image, ExrPrecision(precision), again));
    QCOMPARE(bytes, again); // deterministic
    QTemporaryDir dir;
    const QString path = dir.filePath("t.exr");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(bytes);
    file.close();
    FloatImage back;
    QVERIFY(readExr(path, back));
    QCOMPARE(back.width, image.width);
    QCOMPARE(back.height, image.height);
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x)
            for (int c = 0; c < 4; ++c) {
                const float want = c < channels ? image.at(x, y, c) : 1.f; // missing A: 1
                const float got = back.at(x, y, channels == 1 ? 0 : c);
                if (channels == 1 && c > 0)
                    continue;
                if (half)
                    QVERIFY2(std::abs(got - want) <= std::abs(want) / 1024.f + 1e-4f,
                             qPrintable(QString("%1 vs %2").arg(got).arg(want)));
                else
                    QCOMPARE(got, want);
            }
    // OpenEXR's own tool reads the header: size, channels, type, compression.
    const QString exrheader = QStandardPaths::findExecutable("exrheader");
    // scripts/setup installs it (Debian package openexr): missing, the check fails, not skips.
    QVERIFY2(!exrheader.isEmpty(), "exrheader is not installed (Debian package openexr)");
    QProcess p;
    p.start(exrheader, {path});
    QVERIFY(p.waitForFinished(20000));
    QCOMPARE(p.exitCode(), 0);
    const QString out = QString::fromLocal8Bit(p.readAllStandardOutput());
    QVERIFY2(out.contains("zip, multi-scanline blocks"), qPrintable(out));
    QVERIFY2(out.contains("(0 0) - (6 4)"), qPrintable(out));
    const QString type = half ? "16-bit floating-point" : "32-bit floating-point";
    for (int c = 0; c < channels; ++c)
        QVERIFY2(out.contains(QString("%1, %2").arg(exrChannelName(channels, c), type)),
                 qPrintable(out));
}

void TestPasses::flipbookWithPasses()
{
    const FrameFields fields = sphere(32, true, 0.35f, false);
    FlipbookSettings s;
    s.rows = 1;
    s.columns = 2;
    s.padding = 1;
    s.motionVectors = false;
    s.passes.lighting = Lighting::SixWay;
    s.passes.normals = true;
    s.passes.depth = true;
    const std::vector<PassTexture> textures = passTextures(textureOptions(s));
    const PassRequest request = passRequest(textures, s.passes);
    const RenderedFrame frame = renderFrame(fields, frameSettings(), request, 24.f);
    const FlipbookInfo info{"sphere", 1, 1, 24.0, "test"};
    for (ImageFormat format : {ImageFormat::Png, ImageFormat::Exr}) {
        s.passes.format = format;
        QTemporaryDir dir;
        std::vector<std::string> written;
        QVERIFY(writeFlipbook({frame, frame}, s, imageTone(frameSettings(), false), info,
                              dir.path().toStdString(), "fb", written));
        const QString ext = format == ImageFormat::Png ? ".png" : ".exr";
        for (const char *suffix : {"", "_sixway_rtb", "_sixway_lbf", "_normal", "_depth"})
            QVERIFY2(QFile::exists(dir.filePath(QString("fb") + suffix + ext)), suffix);
        const QJsonObject json = readJson(dir.filePath("fb.json"));
        const QJsonArray list = json["textures"].toArray();
        QCOMPARE(list.size(), 5);
        QCOMPARE(list[1].toObject()["channels"].toObject()["r"].toObject()["pass"].toString(),
                 QString("light.right"));
        QCOMPARE(json["depth"].toObject()["near"].toDouble(), double(frame.depthNear));
        QCOMPARE(json["depth"].toObject()["far"].toDouble(), double(frame.depthFar));
        QVERIFY(json["sixWay"].toObject()["positive"].toString().startsWith("RGB = right"));
        QCOMPARE(json["normals"].toObject()["convention"].toString(), QString("opengl"));
        QCOMPARE(json["color"].toObject()["file"].toString(), "fb" + ext);
        // The atlas holds the frame's values: the depth tile's centre pixel.
        const int x = 1 + 32, y = 1 + 32; // padding + pixel
        const float want = frame.depth[at(32, 32)];
        if (format == ImageFormat::Exr) {
            FloatImage depth;
            QVERIFY(readExr(dir.filePath("fb_depth.exr"), depth));
            QCOMPARE(depth.channels, 1);
            QCOMPARE(depth.width, 2 * (kSize + 2));
            QVERIFY(std::abs(depth.at(x, y, 0) - want) < 1e-3f);
            QVERIFY(std::abs(depth.at(x + kSize + 2, y, 0) - want) < 1e-3f); // second tile
            QCOMPARE(json["color"].toObject()["exrPrecision"].toString(), QString("half"));
        } else {
            const QImage depth(dir.filePath("fb_depth.png"));
            QCOMPARE(depth.format(), QImage::Format_Grayscale8);
            QCOMPARE(qGray(depth.pixel(x, y)), int(std::lround(want * 255.f)));
        }
    }
}

void TestPasses::defaultFlipbookHasNoPasses()
{
    const FrameFields fields = sphere(16, true, 0.35f, false);
    FlipbookSettings s;
    s.rows = s.columns = 1;
    QTemporaryDir dir;
    std::vector<std::string> written;
    const RenderedFrame frame = renderFrame(fields, frameSettings(), true, 24.f);
    QVERIFY(writeFlipbook({frame}, s, imageTone(frameSettings(), false), {},
                          dir.path().toStdString(), "fb", written));
    QCOMPARE(int(written.size()), 3); // colour, motion, sidecar
    const QJsonObject json = readJson(dir.filePath("fb.json"));
    for (const char *key : {"textures", "sixWay", "normals", "depth"})
        QVERIFY2(!json.contains(key), key);
}

void TestPasses::sceneKeysRoundTrip()
{
    Scene scene;
    PassSettings &p = scene.exports.flipbook.passes;
    p.format = ImageFormat::Exr;
    p.exrPrecision = ExrPrecision::Float;
    p.lighting = Lighting::SixWay;
    p.normals = p.depth = p.alpha = true;
    p.normalConvention = NormalConvention::DirectX;
    p.depthThreshold = 0.25f;
    p.pack = PackPreset::Custom;
    p.packChannels = {PassChannel::Front, PassChannel::MotionY, PassChannel::One,
                      PassChannel::Emission};
    scene.exports.images.passes.pack = PackPreset::Godot;
    const QByteArray json = sceneToJson(scene, std::string());
    QVERIFY(json.contains("\"packChannels\": [\"light.front\", \"motion.y\", \"one\", "
                          "\"emission\"]"));
    const SceneReadResult r = readSceneJson(json, "t.plume", std::string());
    QVERIFY2(r.ok, r.error.c_str());
    QVERIFY(r.warnings.empty());
    QCOMPARE(r.scene.exports.flipbook.passes, p);
    QCOMPARE(r.scene.exports.images.passes, scene.exports.images.passes);
    // Defaults write no pass keys.
    QVERIFY(!sceneToJson(Scene(), std::string()).contains("\"pack\""));
}

void TestPasses::badSceneKeysNameTheKey()
{
    Scene scene;
    scene.exports.flipbook.passes.pack = PackPreset::Custom;
    scene.exports.flipbook.passes.packChannels = {PassChannel::NormalX, PassChannel::NormalY,
                                                  PassChannel::Alpha, PassChannel::Alpha};
    const QByteArray good = sceneToJson(scene, std::string());
    struct Case
    {
        QByteArray from, to, message;
    };
    for (const Case &c :
         {Case{"\"pack\": \"custom\"", "\"pack\": \"unity\"", "export.flipbook.pack: expected "},
          Case{"\"normal.x\",", "\"normal.w\",", "export.flipbook.packChannels[0]: expected "},
          Case{"\"pack\": \"custom\"", "\"depthThreshold\": 1",
               "export.flipbook.depthThreshold"}}) {
        QByteArray bad = good;
        bad.replace(c.from, c.to);
        QVERIFY2(bad != good, c.from.constData());
        const SceneReadResult r = readSceneJson(bad, "t.plume", std::string());
        QVERIFY(!r.ok);
        QVERIFY2(QByteArray::fromStdString(r.error).contains(c.message), r.error.c_str());
    }
}

void TestPasses::bakeWithPassesIsRepeatableAndResumable()
{
    // Six-way, normals and depth in a flipbook, EXR images with six-way: the same bytes with one
    // thread or many, and after a cancel and --resume (the kept frames carry the passes).
    SceneReadResult r = readSceneFile(PLUME_SOURCE_DIR "/resources/scenes/campfire-3d.plume");
    QVERIFY2(r.ok, r.error.c_str());
    Scene scene = r.scene;
    scene.domain.resolution = 20;
    scene.simulation.frameEnd = scene.simulation.frameStart + 5;
    BakeSettings settings;
    settings.baseName = "c";
    settings.firstFrame = scene.simulation.frameStart;
    settings.lastFrame = scene.simulation.frameEnd;
    settings.vdb = false;
    settings.render.width = settings.render.height = 24;
    settings.flipbook.enabled = true;
    settings.flipbook.rows = 2;
    settings.flipbook.columns = 3;
    settings.flipbook.passes.lighting = Lighting::SixWay;
    settings.flipbook.passes.normals = settings.flipbook.passes.depth = true;
    settings.images.enabled = true;
    settings.images.step = 2;
    settings.images.passes.format = ImageFormat::Exr;
    settings.images.passes.pack = PackPreset::UnitySixWay;
    QTemporaryDir dir;
    auto bake = [&](const QString &folder, int threads, BakeObserver *observer = nullptr) {
        settings.outputDirectory = dir.filePath(folder).toStdString();
        tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
        return bakeScene(scene, settings, observer);
    };
    const BakeResult one = bake("one", 1);
    QVERIFY2(one.status.ok(), one.status.error.c_str());
    QVERIFY(bake("many", 4).status.ok());
    const QStringList files = QDir(dir.filePath("one")).entryList(QDir::Files);
    for (const char *f : {"c_flipbook_sixway_rtb.png", "c_flipbook_normal.png",
                          "c_flipbook_depth.png", "c_sixway_lbf.0003.exr", "c.0001.exr"})
        QVERIFY2(files.contains(f), f);
    struct Cancel : BakeObserver
    {
        int written = 0;
        void frameWritten(int, int, int, double) override { ++written; }
        bool cancelRequested() override { return written >= 4; }
    } observer;
    settings.checkpointEvery = 1;
    QVERIFY(isCancelled(bake("cut", 2, &observer).outcome));
    settings.resume = true;
    const BakeResult resumed = bake("cut", 2);
    QVERIFY2(resumed.status.ok(), resumed.status.error.c_str());
    QVERIFY(resumed.resumedAfter >= scene.simulation.frameStart); // from a checkpoint
    for (const char *folder : {"many", "cut"}) {
        QCOMPARE(QDir(dir.filePath(folder)).entryList(QDir::Files), files);
        for (const QString &f : files) {
            QFile a(dir.filePath("one/" + f)), b(dir.filePath(QString(folder) + "/" + f));
            QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
            QVERIFY2(a.readAll() == b.readAll(), qPrintable(QString(folder) + "/" + f));
        }
    }
}

QTEST_GUILESS_MAIN(TestPasses)
#include "tst_passes.moc"
