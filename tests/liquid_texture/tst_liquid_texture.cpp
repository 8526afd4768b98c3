// SPDX-License-Identifier: Apache-2.0
// Liquid textures (docs/liquid-textures.md): texture coordinates advected with the flow in two
// sets reset half a period apart. Zero flow leaves the texture unchanged, a uniform periodic
// flow translates it by exactly the distance travelled, resets never show (the resetting set's
// weight is zero), checkpoints restore the coordinates, and serial and parallel runs agree.
#include "scene_texture.h"

#include <core/render/liquidtexture.h>
#include <core/sim/base/parallel.h>
#include <core/sim/ops/advectedcoords.h>
#include <core/sim/run/checkpoint.h>
#include <core/sim/run/simulation.h>

#include <QtTest>

#include <cmath>
#include <random>

using namespace plume;
using namespace plume::sim;

namespace {

/// A noisy test image, w x h, every pixel different in some channel.
QImage noiseImage(int w, int h, unsigned seed = 3)
{
    QImage img(w, h, QImage::Format_ARGB32);
    std::mt19937 rng(seed);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            img.setPixel(x, y, qRgba(int(rng() % 256), int(rng() % 256), int(rng() % 256), 255));
    return img;
}

/// The image moved by (sx, sy) whole pixels, x right and y up, wrapping around.
QImage shifted(const QImage &img, int sx, int sy)
{
    QImage out(img.size(), QImage::Format_ARGB32);
    const int w = img.width(), h = img.height();
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            out.setPixel(x, y, img.pixel(((x - sx) % w + w) % w, ((y + sy) % h + h) % h));
    return out;
}

Domain periodicDomain(int nx, int ny)
{
    Domain d;
    d.cells = {nx, ny, 1};
    d.cellSize = 1.f / float(nx);
    d.boundaries = allBoundaries(Boundary::Periodic);
    return d;
}

/// A simulation with no sources, all-periodic boundaries and, when `accel` is non-zero, a
/// uniform directional force along (ax, ay): its velocity stays uniform.
std::unique_ptr<Simulation> uniformSimulation(Scheme scheme, const Domain &d, float ax, float ay,
                                              int period, float frameRate = 16.f)
{
    SimParams p;
    p.scheme = scheme;
    p.buoyancyDensity = 0.f;
    p.buoyancyTemperature = 0.f;
    TimeSettings t;
    t.frameRate = frameRate;
    auto made = Simulation::create(d, p, t);
    if (!made)
        qFatal("%s", made.error().c_str());
    std::unique_ptr<Simulation> sim = made.take();
    if (ax != 0.f || ay != 0.f) {
        ForceField f;
        f.type = ForceType::Directional;
        f.strength = std::hypot(ax, ay);
        f.direction = Vec3{ax, ay, 0.f};
        if (Status st = sim->solver().setForceFields({f}); !st)
            qFatal("%s", st.error.c_str());
    }
    if (Status st = sim->setTexturePeriod(period); !st)
        qFatal("%s", st.error.c_str());
    return sim;
}

bool uniform(const ScalarGrid &g)
{
    for (std::size_t c = 0; c < g.count(); ++c)
        if (g[c] != g[0])
            return false;
    return true;
}

LiquidTextureLook lookOf(const QImage &img, int period)
{
    LiquidTextureLook look;
    look.image = img;
    look.period = period;
    return look;
}

} // namespace

class TestLiquidTexture : public QObject
{
    Q_OBJECT

private slots:
    void weightsSumToOneAndVanishAtResets();
    void refusesBadSettings();
    void zeroFlowLeavesTheTextureUnchanged_data();
    void zeroFlowLeavesTheTextureUnchanged();
    void uniformFlowTranslatesExactly();
    void fractionalUniformFlowInterpolates();
    void uniformFlowInTheSolvers_data();
    void uniformFlowInTheSolvers();
    void resetsHappenHalfAPeriodApart();
    void checkpointRestoresTheCoordinates_data();
    void checkpointRestoresTheCoordinates();
    void serialEqualsParallel();
};

void TestLiquidTexture::weightsSumToOneAndVanishAtResets()
{
    for (TextureBlend blend : {TextureBlend::Linear, TextureBlend::Smooth}) {
        const int period = 8;
        for (int frame = 0; frame < 3 * period; ++frame) {
            const float w0 = textureWeight0(frame, period, blend);
            QVERIFY(w0 >= 0.f && w0 <= 1.f);
            if (texturePhase(0, frame, period) == 0.0)
                QCOMPARE(w0, 0.f); // set 0 resets: invisible
            if (texturePhase(1, frame, period) == 0.0)
                QCOMPARE(w0, 1.f); // set 1 resets: invisible
        }
        QCOMPARE(texturePhase(1, 0, period), 0.5);
        QCOMPARE(texturePhase(0, 2, period), 0.25);
    }
    // The triangle: linear in the phase.
    QCOMPARE(textureWeight0(2, 8, TextureBlend::Linear), 0.5f);
    QCOMPARE(textureWeight0(4, 8, TextureBlend::Linear), 1.f);
}

void TestLiquidTexture::refusesBadSettings()
{
    AdvectedCoordinates c;
    Domain d3 = periodicDomain(8, 8);
    d3.cells.z = 8;
    Status st = c.configure(d3, 8);
    QVERIFY(!st);
    QVERIFY2(st.error.find("2D") != std::string::npos, st.error.c_str());
    st = c.configure(periodicDomain(8, 8), 7);
    QVERIFY(!st);
    QVERIFY2(st.error.find("period is 7") != std::string::npos, st.error.c_str());
    QVERIFY(!c.enabled());
    QVERIFY(c.configure(periodicDomain(8, 8), 8));
    QVERIFY(c.enabled());
    QCOMPARE(c.offset(1, 1).size(), (Int3{8, 8, 1}));
    QVERIFY(c.configure(periodicDomain(8, 8), 0));
    QVERIFY(!c.enabled());
}

void TestLiquidTexture::zeroFlowLeavesTheTextureUnchanged_data()
{
    QTest::addColumn<int>("scheme");
    QTest::addColumn<bool>("walls");
    QTest::newRow("stam periodic") << int(Scheme::Stam) << false;
    QTest::newRow("smoke periodic") << int(Scheme::Smoke) << false;
    QTest::newRow("stam walls") << int(Scheme::Stam) << true;
    QTest::newRow("smoke walls") << int(Scheme::Smoke) << true;
}

void TestLiquidTexture::zeroFlowLeavesTheTextureUnchanged()
{
    QFETCH(int, scheme);
    QFETCH(bool, walls);
    Domain d = periodicDomain(32, 24);
    if (walls)
        d.boundaries = allBoundaries(Boundary::Wall);
    auto sim = uniformSimulation(Scheme(scheme), d, 0.f, 0.f, 6);
    const QImage img = noiseImage(32, 24);
    for (int f = 0; f < 10; ++f) {
        QVERIFY(sim->advanceFrame().status);
        const QImage out = renderLiquidTexture(textureOffsets(sim->textureCoordinates()),
                                               d.boundaries, sim->frame(), lookOf(img, 6));
        QCOMPARE(out, img);
    }
}

void TestLiquidTexture::uniformFlowTranslatesExactly()
{
    // 2 cells per frame to the right and 1 cell down, applied directly to the stage.
    const Domain d = periodicDomain(20, 16);
    AdvectedCoordinates c;
    const int period = 10;
    QVERIFY(c.configure(d, period));
    ScalarGrid vx(d.cells, kCellCentre, 2.f * d.cellSize * 16.f);
    ScalarGrid vy(d.cells, kCellCentre, -1.f * d.cellSize * 16.f);
    const QImage img = noiseImage(20, 16);
    for (int frame = 1; frame < period / 2; ++frame) {
        c.advect(vx, vy, 1.f / 16.f);
        c.frameFinished(frame);
        for (int g = 0; g < 4; ++g)
            QVERIFY(uniform(c.offset(g / 2, g % 2)));
        QCOMPARE(c.offset(0, 0)[0], -2.f * float(frame));
        QCOMPARE(c.offset(0, 1)[0], 1.f * float(frame));
        // Before the first reset both sets agree: the texture is the image moved exactly.
        const QImage out = renderLiquidTexture(textureOffsets(c), d.boundaries, frame,
                                               lookOf(img, period));
        QCOMPARE(out, shifted(img, 2 * frame, -frame));
    }
    // At half a period set 1 starts again; set 0 carries on.
    c.advect(vx, vy, 1.f / 16.f);
    c.frameFinished(period / 2);
    QCOMPARE(c.offset(1, 0)[0], 0.f);
    QCOMPARE(c.offset(0, 0)[0], -2.f * float(period / 2));
    // Its weight is 1 there (set 1's is 0): the image shows set 0's translation alone.
    const QImage out = renderLiquidTexture(textureOffsets(c), d.boundaries, period / 2,
                                           lookOf(img, period));
    QCOMPARE(out, shifted(img, period, -period / 2));
}

void TestLiquidTexture::fractionalUniformFlowInterpolates()
{
    // Half a cell per frame: after one frame every pixel is the mean of two neighbours.
    const Domain d = periodicDomain(16, 8);
    AdvectedCoordinates c;
    QVERIFY(c.configure(d, 8));
    ScalarGrid vx(d.cells, kCellCentre, 0.5f * d.cellSize * 16.f);
    ScalarGrid vy(d.cells, kCellCentre, 0.f);
    c.advect(vx, vy, 1.f / 16.f);
    c.frameFinished(1);
    QCOMPARE(c.offset(0, 0)[0], -0.5f);
    const QImage img = noiseImage(16, 8);
    const QImage out = renderLiquidTexture(textureOffsets(c), d.boundaries, 1, lookOf(img, 8));
    for (int y = 0; y < 8; ++y)
        for (int x = 0; x < 16; ++x) {
            const QRgb a = img.pixel((x + 15) % 16, y), b = img.pixel(x, y), o = out.pixel(x, y);
            QVERIFY(std::abs(qRed(o) - (qRed(a) + qRed(b)) / 2.0) <= 0.5 + 1e-3);
            QVERIFY(std::abs(qGreen(o) - (qGreen(a) + qGreen(b)) / 2.0) <= 0.5 + 1e-3);
            QVERIFY(std::abs(qBlue(o) - (qBlue(a) + qBlue(b)) / 2.0) <= 0.5 + 1e-3);
        }
}

void TestLiquidTexture::uniformFlowInTheSolvers_data()
{
    QTest::addColumn<int>("scheme");
    QTest::newRow("stam") << int(Scheme::Stam);
    QTest::newRow("smoke") << int(Scheme::Smoke);
}

void TestLiquidTexture::uniformFlowInTheSolvers()
{
    // A uniform force in a periodic box keeps the velocity uniform: the offsets stay uniform
    // and each frame subtracts exactly that frame's velocity times dt (in cells).
    QFETCH(int, scheme);
    const Domain d = periodicDomain(24, 16);
    auto sim = uniformSimulation(Scheme(scheme), d, 1.f, 0.5f, 12);
    const float toCells = (1.f / 16.f) / d.cellSize;
    float expected[2] = {0.f, 0.f};
    ScalarGrid v[2];
    for (int f = 1; f <= 5; ++f) {
        QVERIFY(sim->advanceFrame().status);
        sim->solver().sample(FieldKind::VelocityX, v[0]);
        sim->solver().sample(FieldKind::VelocityY, v[1]);
        for (int a = 0; a < 2; ++a) {
            QVERIFY(uniform(v[a]));
            QVERIFY(v[a][0] > 0.f);
            expected[a] = expected[a] - v[a][0] * toCells;
            const ScalarGrid &o = sim->textureCoordinates().offset(0, a);
            QVERIFY(uniform(o));
            QCOMPARE(o[0], expected[a]);
        }
    }
}

void TestLiquidTexture::resetsHappenHalfAPeriodApart()
{
    const Domain d = periodicDomain(8, 8);
    AdvectedCoordinates c;
    QVERIFY(c.configure(d, 4));
    ScalarGrid vx(d.cells, kCellCentre, 1.f), vy(d.cells, kCellCentre, 0.f);
    float last[2] = {0.f, 0.f};
    for (int frame = 1; frame <= 12; ++frame) {
        c.advect(vx, vy, 1.f / 64.f); // an eighth of a cell (cell size 1/8)
        c.frameFinished(frame);
        for (int set = 0; set < 2; ++set) {
            const float now = c.offset(set, 0)[0];
            const bool resets = (set == 0 && frame % 4 == 0) || (set == 1 && frame % 4 == 2);
            QCOMPARE(now, resets ? 0.f : last[set] - 0.125f);
            last[set] = now;
        }
    }
}

void TestLiquidTexture::checkpointRestoresTheCoordinates_data() { uniformFlowInTheSolvers_data(); }

void TestLiquidTexture::checkpointRestoresTheCoordinates()
{
    // A swirling flow (a vortex force) so the offsets vary; stop at frame 5, go on to 11, then
    // restore and go on again: the same bytes.
    QFETCH(int, scheme);
    Domain d = periodicDomain(24, 24);
    d.boundaries = allBoundaries(Boundary::Wall);
    auto make = [&] {
        auto sim = uniformSimulation(Scheme(scheme), d, 0.f, 0.f, 6);
        ForceField f;
        f.type = ForceType::Vortex;
        f.strength = 3.f;
        f.centre = Vec3{0.5f, 0.5f, 0.f};
        f.direction = Vec3{0.f, 0.f, 1.f};
        if (Status st = sim->solver().setForceFields({f}); !st)
            qFatal("%s", st.error.c_str());
        return sim;
    };
    auto sim = make();
    for (int f = 0; f < 5; ++f)
        QVERIFY(sim->advanceFrame().status);
    std::vector<std::uint8_t> bytes;
    QVERIFY(Checkpoint::save(*sim, 1, bytes));
    for (int f = 0; f < 6; ++f)
        QVERIFY(sim->advanceFrame().status);
    const ScalarGrid straight = sim->textureCoordinates().offset(1, 0);
    QVERIFY(!uniform(straight));

    auto other = make();
    QVERIFY(Checkpoint::restore(*other, bytes, 1, CheckpointMatch::SameScene));
    QCOMPARE(other->frame(), 5);
    for (int f = 0; f < 6; ++f)
        QVERIFY(other->advanceFrame().status);
    for (int g = 0; g < 4; ++g)
        QVERIFY(other->textureCoordinates()
                    .offset(g / 2, g % 2)
                    .identical(sim->textureCoordinates().offset(g / 2, g % 2)));

    // A simulation without the texture takes the checkpoint and drops the offsets; one with
    // it takes a checkpoint saved without and starts the sets at the identity.
    auto plain = make();
    QVERIFY(plain->setTexturePeriod(0));
    QVERIFY(Checkpoint::restore(*plain, bytes, 1, CheckpointMatch::SameScene));
    QCOMPARE(plain->textureCoordinates().offset(0, 0).count(), std::size_t(0));
    std::vector<std::uint8_t> plainBytes;
    QVERIFY(Checkpoint::save(*plain, 1, plainBytes));
    auto textured = make();
    QVERIFY(Checkpoint::restore(*textured, plainBytes, 1, CheckpointMatch::SameScene));
    QCOMPARE(textured->textureCoordinates().offset(0, 0).count(), std::size_t(24 * 24));
    QCOMPARE(textured->textureCoordinates().offset(0, 0)[100], 0.f);
}

void TestLiquidTexture::serialEqualsParallel()
{
    Domain d = periodicDomain(48, 40);
    auto run = [&](bool serial) {
        std::unique_ptr<SerialScope> scope = serial ? std::make_unique<SerialScope>() : nullptr;
        auto sim = uniformSimulation(Scheme::Smoke, d, 0.f, 0.f, 8);
        ForceField f;
        f.type = ForceType::Turbulence;
        f.strength = 4.f;
        f.scale = 0.2f;
        if (Status st = sim->solver().setForceFields({f}); !st)
            qFatal("%s", st.error.c_str());
        for (int n = 0; n < 7; ++n)
            if (!sim->advanceFrame().status)
                qFatal("frame failed");
        const QImage img = renderLiquidTexture(textureOffsets(sim->textureCoordinates()),
                                               d.boundaries, sim->frame(),
                                               lookOf(noiseImage(30, 30), 8), 3);
        std::vector<ScalarGrid> grids;
        for (int g = 0; g < 4; ++g)
            grids.push_back(sim->textureCoordinates().offset(g / 2, g % 2));
        return std::make_pair(grids, img);
    };
    const auto [serialGrids, serialImage] = run(true);
    const auto [parallelGrids, parallelImage] = run(false);
    QVERIFY(!uniform(serialGrids[0]));
    for (int g = 0; g < 4; ++g)
        QVERIFY(serialGrids[g].identical(parallelGrids[g]));
    QCOMPARE(serialImage.size(), QSize(48 * 3, 40 * 3));
    QCOMPARE(serialImage, parallelImage);
}

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    TestLiquidTexture coordinates;
    TestLiquidTextureScene scenes;
    const int failed = QTest::qExec(&coordinates, argc, argv);
    return failed + QTest::qExec(&scenes, argc, argv);
}

#include "tst_liquid_texture.moc"
