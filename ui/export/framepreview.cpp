// SPDX-License-Identifier: Apache-2.0
#include <ui/export/framepreview.h>

#include <core/bake/bakefields.h>
#include <core/export/flipbook.h>
#include <core/export/frameimage.h>
#include <core/render/liquidtexture.h>
#include <core/render/renderer.h>
#include <core/scene/scenesimulation.h>
#include <core/scene/texturelook.h>
#include <core/sim/run/simulation.h>

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace plume {

namespace {

/// A texture's stored values (clamped to [0, 1], as a PNG would hold them) as an opaque image
/// of its RGB (grey for one channel), or its alpha channel as grey.
QImage textureView(const FloatImage &image, bool alphaChannel)
{
    QImage out(image.width, image.height, QImage::Format_RGB32);
    const auto level = [](float v) { return int(std::lround(std::clamp(v, 0.f, 1.f) * 255.f)); };
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x) {
            if (alphaChannel || image.channels == 1) {
                const int g = level(image.at(x, y, alphaChannel ? image.channels - 1 : 0));
                out.setPixel(x, y, qRgb(g, g, g));
            } else {
                out.setPixel(x, y,
                             qRgb(level(image.at(x, y, 0)), level(image.at(x, y, 1)),
                                  level(image.at(x, y, 2))));
            }
        }
    return out;
}

} // namespace

/// The worker: owns the preview's simulation and renders on its thread.
class PreviewRenderer : public QObject
{
public:
    PreviewRenderer(FramePreview *view, std::shared_ptr<std::atomic<quint64>> latest)
        : mView(view)
        , mLatest(std::move(latest))
    {}

    void render(quint64 id, const FramePreview::Request &r);

private:
    bool superseded(quint64 id) const { return mLatest->load() != id; }
    bool sameInputs(const Scene &scene) const;
    QString restart(const Scene &scene);
    void progress(quint64 id, const QString &text);
    void done(quint64 id, const QImage &image, int frame, const QString &error);

    FramePreview *mView;
    std::shared_ptr<std::atomic<quint64>> mLatest;
    Scene mScene;
    SceneSimulation mSimulation;
    int mSimulated = 0; ///< the scene frame the simulation holds (frameStart - 1: none yet)
};

// Everything but the export presets decides the simulation.
bool PreviewRenderer::sameInputs(const Scene &scene) const
{
    if (!mSimulation.ready())
        return false;
    Scene a = mScene, b = scene;
    a.exports = b.exports = {};
    return a == b && mScene.directory == scene.directory;
}

QString PreviewRenderer::restart(const Scene &scene)
{
    mScene = scene;
    mSimulated = scene.simulation.frameStart - 1;
    return QString::fromStdString(mSimulation.setScene(scene).error);
}

// Simulates frameStart..frame as bakeScene does (inputs at f, then one frame), then renders.
void PreviewRenderer::render(quint64 id, const FramePreview::Request &r)
{
    if (superseded(id))
        return;
    if (!sameInputs(r.scene) || r.frame < mSimulated) {
        if (QString error = restart(r.scene); !mSimulation.ready())
            return done(id, {}, r.frame, error);
    }
    const SceneSetup &setup = mSimulation.setup();
    while (mSimulated < r.frame) {
        if (superseded(id))
            return;
        progress(id, QString("Simulating frame %1 of %2...").arg(mSimulated + 1).arg(r.frame));
        const int frame = mSimulated + 1;
        if (const sim::Status st = mSimulation.advance(frame).status; !st) {
            mScene = {}; // the next request starts again
            mSimulation = {};
            return done(id, {}, r.frame, QString::fromStdString(st.error));
        }
        mSimulated = frame;
    }
    if (sim::Status st = checkRenderSettings(r.render); !st)
        return done(id, {}, r.frame, QString::fromStdString(st.error));
    progress(id, QString("Rendering frame %1...").arg(r.frame));
    const bool texture = r.channel == PreviewChannel::Texture;
    const bool motion = r.channel == PreviewChannel::Motion
                        || (texture && r.textures.motionVectors);
    RenderedFrame frame;
    if (r.render.look2D == Look2D::Texture && mSimulation.solver().domain().is2D()) {
        // The liquid texture look, as the bake draws it (render/liquidtexture.h); it has no
        // passes beyond its colour.
        if (!r.scene.simulation.liquidTexture.enabled())
            return done(id, {}, r.frame,
                        "the look \"texture\" needs a liquid texture (Properties > Liquid "
                        "texture)");
        const auto loaded = loadLiquidTextureLook(r.scene.simulation.liquidTexture,
                                                  r.scene.directory);
        if (!loaded)
            return done(id, {}, r.frame, QString::fromStdString(loaded.error()));
        const LiquidTextureLook &look = loaded.value();
        const sim::Simulation &s = mSimulation.simulation();
        frame = liquidTextureFrame(textureOffsets(s.textureCoordinates()),
                                   s.solver().domain().boundaries, s.frame(), look, r.render.width,
                                   r.render.height);
    } else {
        // As the bake renders it: the frame as its VDB files would hold it (bakefields.h).
        FrameFields fields;
        simulatedFrameFields(mSimulation.solver(), r.render, motion,
                             vdbWriteOptions(r.scene.exports.openvdb),
                             setup.params.ambientTemperature, fields);
        const float tileRate = setup.time.frameRate / float(std::max(1, r.motionStep));
        if (texture) {
            const std::vector<PassImage> images = renderPasses(fields, r.render, r.textures,
                                                               tileRate);
            if (r.texture < 0 || r.texture >= int(images.size()))
                return done(id, {}, r.frame, "no such texture");
            return done(id, textureView(images[std::size_t(r.texture)].image, r.alphaChannel),
                        r.frame, {});
        }
        frame = renderFrame(fields, r.render, motion, tileRate);
    }
    // Toned as the bake's PNG files (tone.h): exact colours for the field and texture looks.
    const Tone tone = imageTone(r.render, mSimulation.solver().domain().is2D());
    QImage image;
    switch (r.channel) {
    case PreviewChannel::Color:
        image = colorImage(frame, AlphaMode::Straight, r.emission, 8, tone);
        break;
    case PreviewChannel::Emission: image = emissionImage(frame, 8, tone); break;
    case PreviewChannel::Texture: break; // rendered above
    case PreviewChannel::Motion:
        image = motionImage(frame, r.motionRange > 0.f ? r.motionRange : autoMotionRange({frame}),
                            8);
        break;
    }
    done(id, image, r.frame, {});
}

void PreviewRenderer::progress(quint64 id, const QString &text)
{
    QMetaObject::invokeMethod(
        mView, [view = mView, id, text] { view->onProgressFor(id, text); }, Qt::QueuedConnection);
}

void PreviewRenderer::done(quint64 id, const QImage &image, int frame, const QString &error)
{
    QMetaObject::invokeMethod(
        mView,
        [view = mView, id, image, frame, error] { view->onRenderedFor(id, image, frame, error); },
        Qt::QueuedConnection);
}

FramePreview::FramePreview(QWidget *parent)
    : QWidget(parent)
    , mLatest(std::make_shared<std::atomic<quint64>>(0))
{
    setMinimumSize(200, 200);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    mRenderer = new PreviewRenderer(this, mLatest);
    mRenderer->moveToThread(&mThread);
    connect(&mThread, &QThread::finished, mRenderer, &QObject::deleteLater);
    mThread.start();
}

FramePreview::~FramePreview()
{
    mLatest->store(0); // supersedes whatever runs
    mThread.quit();
    mThread.wait();
}

void FramePreview::request(Request request)
{
    const quint64 id = mNextId++;
    mLatest->store(id);
    mBusy = true;
    QMetaObject::invokeMethod(
        mRenderer, [renderer = mRenderer, id, r = std::move(request)] { renderer->render(id, r); },
        Qt::QueuedConnection);
}

void FramePreview::onProgressFor(quint64 id, const QString &text)
{
    if (id != mLatest->load())
        return;
    mStatus = text;
    update();
}

void FramePreview::onRenderedFor(quint64 id, const QImage &image, int frame, const QString &error)
{
    if (id != mLatest->load())
        return;
    mBusy = false;
    mImage = image;
    mImageFrame = error.isEmpty() ? frame : -1;
    mStatus =
        error.isEmpty()
            ? QString("Frame %1, %2 x %3 px").arg(frame).arg(image.width()).arg(image.height())
            : "Cannot preview: " + error;
    update();
    Q_EMIT frameReady(mImageFrame);
}

void FramePreview::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), palette().window());
    const QRect area = rect().adjusted(8, 8, -8, -28);
    if (!mImage.isNull() && area.width() > 0 && area.height() > 0) {
        QSize size = mImage.size().scaled(area.size(), Qt::KeepAspectRatio);
        const QRect target(area.center() - QPoint(size.width() / 2, size.height() / 2), size);
        // Checkerboard so transparency reads as such.
        const int cell = 8;
        p.save();
        p.setClipRect(target);
        for (int y = target.top(); y < target.bottom(); y += cell)
            for (int x = target.left(); x < target.right(); x += cell)
                p.fillRect(x, y, cell, cell,
                           ((x - target.left()) / cell + (y - target.top()) / cell) % 2
                               ? QColor(150, 150, 150)
                               : QColor(110, 110, 110));
        p.restore();
        p.setRenderHint(QPainter::SmoothPixmapTransform);
        p.drawImage(target, mImage);
    }
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(QRect(0, height() - 24, width(), 20), Qt::AlignCenter, mStatus);
}

} // namespace plume
