// SPDX-License-Identifier: Apache-2.0
// Liquid textures in scenes and exports: the scene keys (read, written, refused with the key
// path, rebased on Save As), the texture look and the flow map of a bake, and the looping
// flipbook's seam.
#include "scene_texture.h"

#include <core/bake/baker.h>
#include <core/export/flipbook.h>
#include <core/export/flowmap.h>
#include <core/io/scenereader.h>
#include <core/io/scenewriter.h>
#include <core/render/liquidtexture.h>
#include <core/scene/scenesimulation.h>
#include <core/scene/shapecoverage.h>
#include <core/scene/texturelook.h>

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <functional>

using namespace plume;

namespace {

const QString kScenes = QStringLiteral(PLUME_SOURCE_DIR "/resources/scenes");

Scene lavaScene(int resolution, int frames)
{
    SceneReadResult r = readSceneFile(kScenes + "/lava-2d.plume");
    if (!r.ok)
        qFatal("%s", r.error.c_str());
    r.scene.domain.resolution = resolution;
    r.scene.simulation.frameEnd = r.scene.simulation.frameStart + frames - 1;
    return r.scene;
}

/// The lava scene's JSON with `edit` applied to its "simulation" object.
QByteArray editedLava(const std::function<void(QJsonObject &)> &edit)
{
    QFile f(kScenes + "/lava-2d.plume");
    f.open(QIODevice::ReadOnly);
    QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
    QJsonObject simulation = root["simulation"].toObject();
    edit(simulation);
    root["simulation"] = simulation;
    return QJsonDocument(root).toJson();
}

SceneReadResult readLava(const QByteArray &json)
{
    return readSceneJson(json, "lava.plume", kScenes.toStdString());
}

double meanDifference(const RenderedFrame &a, const RenderedFrame &b)
{
    double sum = 0.0;
    for (std::size_t c = 0; c < a.color.size(); ++c)
        sum += std::abs(double(a.color[c]) - double(b.color[c]));
    return sum / double(a.color.size());
}

} // namespace

void TestLiquidTextureScene::keysRoundTrip()
{
    const SceneReadResult r = readSceneFile(kScenes + "/lava-2d.plume");
    QVERIFY2(r.ok, r.error.c_str());
    QVERIFY2(r.warnings.empty(), r.warnings.empty() ? "" : r.warnings[0].message.c_str());
    const LiquidTextureSettings &t = r.scene.simulation.liquidTexture;
    QCOMPARE(t.file, std::string("textures/lava.png"));
    QCOMPARE(t.period, 32);
    QCOMPARE(t.blend, sim::TextureBlend::Linear);
    QCOMPARE(t.tiling, 2.f);
    QCOMPARE(r.scene.exports.render.look2D, Look2D::Texture);
    // The example is in the writer's form.
    QFile f(kScenes + "/lava-2d.plume");
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(sceneToJson(r.scene, kScenes.toStdString()), f.readAll());
    // Without a texture the key is not written.
    Scene plain = r.scene;
    plain.simulation.liquidTexture.file.clear();
    QVERIFY(!sceneToJson(plain, kScenes.toStdString()).contains("liquidTexture"));
}

void TestLiquidTextureScene::badKeysNameThePath_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QJsonValue>("value");
    QTest::addColumn<QString>("message");
    QTest::newRow("odd period") << "period" << QJsonValue(7)
                                << "simulation.liquidTexture.period: expected an even number";
    QTest::newRow("zero period") << "period" << QJsonValue(0)
                                 << "simulation.liquidTexture.period: expected an integer";
    QTest::newRow("blend") << "blend" << QJsonValue("cubic")
                           << "simulation.liquidTexture.blend: expected";
    QTest::newRow("tiling") << "tiling" << QJsonValue(0) << "simulation.liquidTexture.tiling";
    QTest::newRow("missing file") << "file" << QJsonValue("textures/none.png")
                                  << "simulation.liquidTexture.file: expected an image file";
}

void TestLiquidTextureScene::badKeysNameThePath()
{
    QFETCH(QString, key);
    QFETCH(QJsonValue, value);
    QFETCH(QString, message);
    const SceneReadResult r = readLava(editedLava([&](QJsonObject &s) {
        QJsonObject t = s["liquidTexture"].toObject();
        t[key] = value;
        s["liquidTexture"] = t;
    }));
    QVERIFY(!r.ok);
    QVERIFY2(QString::fromStdString(r.error).contains(message), r.error.c_str());
}

void TestLiquidTextureScene::threeDIsRefused()
{
    QFile f(kScenes + "/lava-2d.plume");
    f.open(QIODevice::ReadOnly);
    QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
    QJsonObject domain = root["domain"].toObject();
    domain["dimension"] = "3d";
    root["domain"] = domain;
    const SceneReadResult r = readLava(QJsonDocument(root).toJson());
    QVERIFY(!r.ok);
    QVERIFY2(r.error.find("simulation.liquidTexture: a liquid texture needs a 2D domain")
                 != std::string::npos,
             r.error.c_str());
}

void TestLiquidTextureScene::saveAsRebasesThePath()
{
    SceneReadResult r = readSceneFile(kScenes + "/lava-2d.plume");
    QVERIFY(r.ok);
    QTemporaryDir dir;
    const std::string elsewhere = dir.path().toStdString();
    rebaseScene(r.scene, elsewhere);
    const std::string resolved = resolveImagePath(r.scene.simulation.liquidTexture.file, elsewhere);
    QVERIFY(QFileInfo(QString::fromStdString(resolved)).isFile());
    QVERIFY(QFileInfo(QString::fromStdString(resolved))
                .canonicalFilePath()
                .endsWith("resources/scenes/textures/lava.png"));
    const auto look = loadLiquidTextureLook(r.scene.simulation.liquidTexture, elsewhere);
    QVERIFY2(look, look.error().c_str());
    QCOMPARE(look->image.size(), QSize(128, 128));
}

void TestLiquidTextureScene::bakeWritesTextureFlipbookAndFlowMap()
{
    const Scene scene = lavaScene(48, 20);
    QTemporaryDir dir;
    BakeSettings settings;
    settings.outputDirectory = dir.path().toStdString();
    settings.baseName = "lava";
    settings.firstFrame = 1;
    settings.lastFrame = 20;
    settings.vdb = false;
    settings.flowMap = true;
    settings.render = scene.exports.render;
    settings.render.width = 96;
    settings.render.height = 48;
    settings.flipbook = scene.exports.flipbook;
    const BakeResult result = bakeScene(scene, settings);
    QVERIFY2(result.status, result.status.error.c_str());
    const QDir out(dir.path());
    QVERIFY(out.exists("lava_flipbook.png"));
    QVERIFY(out.exists("lava_flowmap.png"));
    QFile sidecar(out.filePath("lava_flowmap.json"));
    QVERIFY(sidecar.open(QIODevice::ReadOnly));
    const QJsonObject json = QJsonDocument::fromJson(sidecar.readAll()).object();
    const double vmax = json["vmax"].toDouble();
    QVERIFY(vmax > 0.0);
    const QImage map(out.filePath("lava_flowmap.png"));
    QCOMPARE(map.size(), QSize(json["width"].toInt(), json["height"].toInt()));
    // The current flows to +x: most of the channel's red is above 0.5.
    int right = 0;
    for (int y = 0; y < map.height(); ++y)
        for (int x = 0; x < map.width(); ++x)
            right += qRed(map.pixel(x, y)) > 128 ? 1 : 0;
    QVERIFY2(right > map.width() * map.height() / 2, qPrintable(QString::number(right)));
    // The texture look really draws the texture: lava colours, opaque, not white dye.
    const QImage atlas(out.filePath("lava_flipbook.png"));
    QVERIFY(!atlas.isNull());
    const QRgb c = atlas.pixel(20, 20);
    QCOMPARE(qAlpha(c), 255);
    QVERIFY(qRed(c) >= qBlue(c));

    // Refusals: the texture look without a texture; a flow map with --resume.
    Scene plain = scene;
    plain.simulation.liquidTexture.file.clear();
    const BakeResult noTexture = bakeScene(plain, settings);
    QVERIFY(!noTexture.status);
    QVERIFY2(noTexture.status.error.find("no liquid texture") != std::string::npos,
             noTexture.status.error.c_str());
    BakeSettings resume = settings;
    resume.resume = true;
    const BakeResult refused = bakeScene(scene, resume);
    QVERIFY(!refused.status);
    QVERIFY2(refused.status.error.find("cannot resume") != std::string::npos,
             refused.status.error.c_str());
}

void TestLiquidTextureScene::uniformFlowMapIsUniform()
{
    // A uniform force in a periodic box: every pixel encodes the same direction, at full
    // speed (B = 255), and decodes back to the mean velocity.
    Scene scene = lavaScene(32, 6);
    scene.domain.boundaries = sim::allBoundaries(sim::Boundary::Periodic);
    scene.items.resize(1); // the current alone
    scene.items[0].force.direction = {3.f, 4.f, 0.f};
    SceneSimulation simulation;
    QVERIFY(simulation.setScene(scene));
    FlowMapAccumulator flow;
    for (int frame = 1; frame <= 6; ++frame) {
        QVERIFY(simulation.advance(frame).status);
        QVERIFY(flow.add(simulation.solver()));
    }
    const QImage map = flowMapImage(flow);
    const float vmax = flow.maxSpeed();
    QVERIFY(vmax > 0.f);
    for (int y = 0; y < map.height(); ++y)
        for (int x = 0; x < map.width(); ++x) {
            const QRgb p = map.pixel(x, y);
            QCOMPARE(qRed(p), int(std::lround(255.f * (0.5f + 0.5f * 0.6f))));
            QCOMPARE(qGreen(p), int(std::lround(255.f * (0.5f + 0.5f * 0.8f))));
            QCOMPARE(qBlue(p), 255);
            QCOMPARE(qAlpha(p), 255);
        }
    QVERIFY(std::abs(decodeFlowMap(qRed(map.pixel(0, 0)), vmax) - 0.6f * vmax) < vmax / 127.f);
}

void TestLiquidTextureScene::loopSeamIsNoLargerThanAFrame()
{
    // In a steady flow the texture repeats every period: a flipbook of one period (16 frames)
    // loops with a seam no larger than the largest change between consecutive frames. The
    // lava's current and rock without the turbulence, strong drag so the flow settles fast.
    Scene scene = lavaScene(48, 72);
    scene.simulation.liquidTexture.period = 16;
    scene.items.erase(scene.items.begin() + 1); // "churn"
    QCOMPARE(scene.items[1].name, std::string("drag"));
    scene.items[1].force.strength = 6.f;
    SceneSimulation simulation;
    QVERIFY(simulation.setScene(scene));
    const auto loaded = loadLiquidTextureLook(scene.simulation.liquidTexture, scene.directory);
    QVERIFY(loaded);
    const LiquidTextureLook &look = loaded.value();
    std::vector<RenderedFrame> frames;
    for (int frame = 1; frame <= 72; ++frame) {
        QVERIFY(simulation.advance(frame).status);
        if (frame <= 56)
            continue; // the flow settles
        const sim::Simulation &s = simulation.simulation();
        frames.push_back(liquidTextureFrame(textureOffsets(s.textureCoordinates()),
                                            s.solver().domain().boundaries, s.frame(), look, 96,
                                            48));
        QCOMPARE(frames.back().width, 96);
    }
    QCOMPARE(int(frames.size()), 16);
    double largest = 0.0;
    for (std::size_t n = 0; n + 1 < frames.size(); ++n)
        largest = std::max(largest, meanDifference(frames[n], frames[n + 1]));
    const double seam = meanDifference(frames.back(), frames.front());
    QVERIFY2(seam <= largest, qPrintable(QString("seam %1 > %2").arg(seam).arg(largest)));
    // A loop of another length is not seamless: 12 frames jump more than any frame.
    const double off = meanDifference(frames[11], frames[0]);
    QVERIFY2(off > 1.5 * largest, qPrintable(QString("12-frame seam %1").arg(off)));
}

void TestLiquidTextureScene::unsteadyLoopWithFullCrossfade()
{
    // The whole lava scene (turbulent, never repeating): a flipbook of 2N rendered frames with
    // a loop blend of N (export/flipbook.h blendLoop: frame i is the mix of frames N + i and
    // i, so the crossfade spans the whole loop) has every step built alike, the seam included:
    // it is no larger than the largest step between consecutive frames of the loop.
    Scene scene = lavaScene(48, 40);
    SceneSimulation simulation;
    QVERIFY(simulation.setScene(scene));
    const auto loaded = loadLiquidTextureLook(scene.simulation.liquidTexture, scene.directory);
    QVERIFY(loaded);
    const LiquidTextureLook &look = loaded.value();
    std::vector<RenderedFrame> frames;
    for (int frame = 1; frame <= 40; ++frame) {
        QVERIFY(simulation.advance(frame).status);
        if (frame <= 8)
            continue;
        const sim::Simulation &s = simulation.simulation();
        frames.push_back(liquidTextureFrame(textureOffsets(s.textureCoordinates()),
                                            s.solver().domain().boundaries, s.frame(), look, 96,
                                            48));
    }
    QCOMPARE(int(frames.size()), 32);
    const std::vector<RenderedFrame> loop = blendLoop(frames, 16);
    QCOMPARE(int(loop.size()), 16);
    double largest = 0.0;
    for (std::size_t n = 0; n + 1 < loop.size(); ++n)
        largest = std::max(largest, meanDifference(loop[n], loop[n + 1]));
    const double seam = meanDifference(loop.back(), loop.front());
    QVERIFY2(seam <= largest, qPrintable(QString("seam %1 > %2").arg(seam).arg(largest)));
    // Without the loop blend the same frames jump at the seam by more than any step.
    const double raw = meanDifference(frames[15], frames[0]);
    QVERIFY2(raw > largest, qPrintable(QString("unblended seam %1 <= %2").arg(raw).arg(largest)));
}
