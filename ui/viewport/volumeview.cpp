// SPDX-License-Identifier: Apache-2.0
#include <ui/viewport/volumeview.h>

#include <ui/viewport/volumetextures.h>

#include <ui/viewport/gizmo.h>
#include <ui/viewport/glprobe.h>
#include <ui/viewport/meshsurfaces.h>
#include <ui/viewport/shaderfile.h>
#include <ui/viewport/viewport.h>

#include <core/render/blackbody.h>
#include <core/render/illumination.h>
#include <core/render/lightmodel.h>
#include <core/render/lightvolume.h>
#include <core/render/marchbounds.h>
#include <core/render/renderer.h>
#include <core/scene/rasterize.h>
#include <core/scene/scene.h>
#include <core/scene/shapecoverage.h>
#include <ui/document/document.h>

#include <QKeyEvent>
#include <QMouseEvent>
#include <QOpenGLFramebufferObject>
#include <QOpenGLFunctions_3_3_Core>
#include <QOpenGLShaderProgram>
#include <QOpenGLVersionFunctionsFactory>
#include <QPainter>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <vector>

namespace plume {

namespace {

/// Yaw about +y (0 looks along -z), the pitch within the export camera's
/// (renderParams::pitch), the distance in world units; a wheel notch moves 15 % nearer.
OrbitCamera::Rig volumeRig()
{
    return {.sinAxis = {1.f, 0.f, 0.f},
            .cosAxis = {0.f, 0.f, 1.f},
            .up = {0.f, 1.f, 0.f},
            .minPitch = float(renderParams::pitch.min),
            .maxPitch = float(renderParams::pitch.max),
            .minDistance = 1e-3f,
            .maxDistance = 1e6f,
            .zoomPerNotch = 0.85};
}

QVector3D qv(sim::Vec3 v) { return {v.x, v.y, v.z}; }

} // namespace

VolumeView::VolumeView(Document *document, QWidget *parent)
    : OffscreenGLWidget(parent)
    , mDocument(document)
    , mTex(std::make_unique<Textures>())
    , mMeshes(std::make_unique<MeshSurfaces>())
    , mCamera(volumeRig(), 30.f, 20.f, 3.f)
{
    mCamera.setTarget({0.5f, 0.5f, 0.5f});
    setFormat(volumeSurfaceFormat());
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(160, 160);
    mStillTimer.setSingleShot(true);
    mStillTimer.setInterval(kStillDelayMs);
    connect(&mStillTimer, &QTimer::timeout, this, [this] {
        mStillDue = true;
        update();
    });
    connect(document, &Document::changed, this, [this](const ChangeEvent &e) {
        // The volume draws the domain, the items and the export presets' render look.
        using T = ChangeEvent::Type;
        if (e.type != T::SceneName && e.type != T::Simulation)
            changed();
    });
    connect(document, &Document::selectionChanged, this, [this] { update(); });
}

VolumeView::~VolumeView()
{
    // ~OffscreenGLWidget destroys the context after this body, and its aboutToBeDestroyed
    // would call the releasing lambda below on a VolumeView that no longer exists.
    if (context())
        context()->disconnect(this);
    if (mGl && context()) {
        makeCurrent();
        releaseGL();
        doneCurrent();
    }
}

void VolumeView::changed(int stillDelayMs)
{
    mStillDue = false;
    mStillTimer.start(stillDelayMs);
    update();
}

void VolumeView::showFrame(const FramePtr &frame)
{
    if (!frame || !frame->volume) {
        // 2D, or a frame made without its volume: keep what is shown.
        if (frame && frame->domain.cells.z == 1)
            mFrame = frame;
        changed();
        return;
    }
    mFrame = frame;
    mDirty = mFrame->volume != mUploaded;
    if (!mFramed) {
        frameDomain();
        return;
    }
    // While frames keep coming (playback), the still waits for one and a half of their
    // intervals, so that it is drawn once playback stops rather than after every slow frame.
    int delay = kStillDelayMs;
    if (mDirty) {
        if (mFrameClock.isValid() && mFrameClock.elapsed() < 2000)
            delay = std::clamp(int(1.5 * double(mFrameClock.elapsed())), kStillDelayMs, 3000);
        mFrameClock.start();
    }
    changed(delay);
}

void VolumeView::setLevelSurface(bool on)
{
    mLevel.setEnabled(on);
    changed();
}

void VolumeView::setLevelSurfaceIso(float iso)
{
    mLevel.setIso(iso);
    changed();
}

void VolumeView::setBackground(Background background)
{
    mBackground = background;
    changed();
}

void VolumeView::setInteractiveQuality(Quality q)
{
    mInteractive = q;
    changed();
}

float VolumeView::marchResolution(const Quality &q) const
{
    if (q.resolution <= 0.f)
        return mSoftwareGl ? 0.5f : 1.f;
    return std::clamp(q.resolution, 0.1f, 1.f);
}

void VolumeView::setStillQuality(Quality q)
{
    mStill = q;
    changed();
}

void VolumeView::setSkipEmptySpace(bool on)
{
    mSkipEmpty = on;
    changed();
}

void VolumeView::setCamera(float yaw, float pitch, float distance)
{
    mCamera.set(yaw, pitch, distance);
    mFramed = true;
    changed();
}

void VolumeView::frameDomain()
{
    const sim::Domain d = makeDomain(mDocument->scene().domain);
    const sim::Vec3 e = d.extent();
    mCamera.frame(qv(d.origin + e * 0.5f), 0.5f * length(e));
    mFramed = true;
    changed();
}

QMatrix4x4 VolumeView::viewProjection() const
{
    // The rays start on the near plane (drawVolume), a hundredth of the distance away.
    const float d = mCamera.distance();
    return mCamera.viewProjection(float(width()) / float(std::max(1, height())), 0.01f * d,
                                  100.f * d);
}

void VolumeView::fail(const QString &reason)
{
    mFailure = reason;
    Q_EMIT unavailable(reason);
}

void VolumeView::initializeGL()
{
    if (!context()) {
        fail("no OpenGL 3.3 core context could be made.");
        return;
    }
    mGl = QOpenGLVersionFunctionsFactory::get<QOpenGLFunctions_3_3_Core>(context());
    if (!mGl || !mGl->initializeOpenGLFunctions()) {
        mGl = nullptr;
        fail("the OpenGL 3.3 core functions could not be resolved.");
        return;
    }
    const auto *renderer = reinterpret_cast<const char *>(mGl->glGetString(GL_RENDERER));
    const QByteArray name = QByteArray(renderer ? renderer : "").toLower();
    mSoftwareGl = name.contains("llvmpipe") || name.contains("softpipe") || name.contains("swrast")
                  || name.contains("software");
    connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, [this] {
        makeCurrent();
        releaseGL();
        doneCurrent();
    });
    mVolumeProgram = std::make_unique<QOpenGLShaderProgram>();
    mLineProgram = std::make_unique<QOpenGLShaderProgram>();
    // The shaders are files in ui/viewport/shaders (volume: the ray march; line: the gizmos).
    if (QString error; !buildShaderProgram(*mVolumeProgram, "volume.vert", "volume.frag", &error)
                       || !buildShaderProgram(*mLineProgram, "line.vert", "line.frag", &error)) {
        fail("the volume shaders did not compile: " + error.left(300));
        mGl = nullptr;
        return;
    }
    if (QString error; !mMeshes->create(mGl, &error)) {
        fail(error);
        mGl = nullptr;
        return;
    }
    mGl->glGenVertexArrays(1, &mVao);
    mGl->glGenBuffers(1, &mLineBuffer);
    unsigned ids[5];
    mGl->glGenTextures(5, ids);
    mTex->march = ids[0];
    mTex->dye = ids[1];
    mTex->flame = ids[2];
    mTex->sky = ids[3];
    mTex->glow = ids[4];
    for (unsigned id : ids) {
        mGl->glBindTexture(GL_TEXTURE_3D, id);
        mGl->glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
        mGl->glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
        for (GLenum wrap : {GL_TEXTURE_WRAP_S, GL_TEXTURE_WRAP_T, GL_TEXTURE_WRAP_R})
            mGl->glTexParameteri(GL_TEXTURE_3D, wrap, GL_CLAMP_TO_EDGE);
    }
    uploadBlackbody();
    uploadEmpty(mTex->march, GL_RGBA32F, GL_RGBA);
    uploadEmpty(mTex->dye, GL_RGB32F, GL_RGB);
    uploadEmpty(mTex->flame, GL_R32F, GL_RED);
    uploadEmpty(mTex->sky, GL_RG32F, GL_RG);
    uploadEmpty(mTex->glow, GL_RGB32F, GL_RGB);
    mGl->glBindTexture(GL_TEXTURE_3D, 0);
    mTex->hasDye = mTex->hasFlame = mTex->hasSky = mTex->hasGlow = false;
    mTex->size = {0, 0, 0};
    mUploaded.reset();
    mDirty = mFrame && mFrame->volume;
}

void VolumeView::releaseGL()
{
    if (!mGl)
        return;
    const unsigned ids[6] = {mTex->march,     mTex->dye, mTex->flame,
                             mTex->blackbody, mTex->sky, mTex->glow};
    mGl->glDeleteTextures(6, ids);
    mTex->lightOf.reset();
    mTex->illuminationOf.reset();
    mTex->boundsOf.reset();
    mGl->glDeleteBuffers(1, &mLineBuffer);
    mGl->glDeleteVertexArrays(1, &mVao);
    mMeshes->release();
    mReduced.reset();
    mVolumeProgram.reset();
    mLineProgram.reset();
    mUploaded.reset();
    mGl = nullptr;
}

void VolumeView::updateBounds(bool hot, float hotAbove, bool flame)
{
    if (mTex->boundsOf == mUploaded && mTex->boundsHot == hot
        && (!hot || mTex->boundsHotAbove == hotAbove) && mTex->boundsFlame == flame)
        return;
    const FrameVolume &v = *mUploaded;
    const sim::ScalarGrid &density = v.field(DisplayField::Density);
    const sim::ScalarGrid &temp = v.field(DisplayField::Temperature);
    mTex->bounds = marchBounds({density, hot ? &temp : nullptr, hotAbove,
                                flame ? &v.field(DisplayField::Flame) : nullptr,
                                mTex->hasSolids ? &v.solids : nullptr});
    if (hot && temp.count() != density.count() && 0.f > hotAbove) // the zero texture glows
        mTex->bounds = {{0.f, 0.f, 0.f},
                        {float(density.size().x), float(density.size().y), float(density.size().z)},
                        false};
    mTex->boundsOf = mUploaded;
    mTex->boundsHot = hot;
    mTex->boundsHotAbove = hotAbove;
    mTex->boundsFlame = flame;
}

void VolumeView::paintGL()
{
    const bool still = mStillDue;
    mLastStill = still;
    if (!mGl)
        return;
    if (mDirty && mFrame && mFrame->volume)
        upload();
    const QMatrix4x4 viewProj = viewProjection();
    mGl->glViewport(0, 0, int(width() * devicePixelRatioF()), int(height() * devicePixelRatioF()));
    mGl->glDisable(GL_DEPTH_TEST);
    mGl->glDisable(GL_BLEND);
    mGl->glBindVertexArray(mVao);
    drawVolume(viewProj, still);
    drawMeshes(viewProj);
    mGl->glBindVertexArray(mVao);
    drawLines(viewProj);
    mGl->glBindVertexArray(0);
    for (GLenum e = mGl->glGetError(); e != GL_NO_ERROR; e = mGl->glGetError())
        if (mGlErrors++ == 0)
            qWarning("VolumeView: OpenGL error 0x%x while drawing", unsigned(e));
}

void VolumeView::paintOverlay(QPainter &painter)
{
    if (!mGl)
        painter.fillRect(rect(), QColor(24, 26, 30));
    if (mCaption)
        drawCaption(painter, mLastStill);
}

QImage VolumeView::renderStill()
{
    mStillDue = true;
    mCaption = false;
    QImage image = grabFramebuffer();
    mCaption = true;
    return image;
}

void VolumeView::drawVolume(const QMatrix4x4 &viewProj, bool still)
{
    const RenderSettings &look = mDocument->scene().exports.render;
    const Quality q = still ? mStill : mInteractive;
    const bool has = mUploaded && mTex->size.z > 1;
    QOpenGLShaderProgram &prog = *mVolumeProgram;
    prog.bind();
    prog.setUniformValue("uInvViewProj", viewProj.inverted());
    if (has) {
        const sim::Domain &d = mFrame->domain;
        prog.setUniformValue("uBoxMin", qv(d.origin));
        prog.setUniformValue("uBoxMax", qv(d.origin + d.extent()));
        prog.setUniformValue("uTexel",
                             QVector3D(1.f / mTex->size.x, 1.f / mTex->size.y, 1.f / mTex->size.z));
        prog.setUniformValue("uCell", d.cellSize);
        prog.setUniformValue("uStep", std::max(q.stepCells, 0.05f) * d.cellSize);
    }
    prog.setUniformValue("uHasVolume", has ? 1 : 0);
    // Level surface mode: the solids and the background only (the mesh replaces the smoke).
    const bool smoke = !mLevel.enabled();
    const bool flame = smoke && mTex->hasFlame && look.flameIntensity > 0.f;
    if (has) {
        const float ambient = mDocument->scene().simulation.params.ambientTemperature;
        const bool hot = smoke && look.emissionIntensity > 0.f;
        updateBounds(hot, ambient + look.emissionMin, flame);
        MarchBounds b = mTex->bounds;
        if (!mSkipEmpty) // a box one cell wider than the domain on every side
            b = {{-1.f, -1.f, -1.f},
                 {float(mTex->size.x + 1), float(mTex->size.y + 1), float(mTex->size.z + 1)},
                 false};
        const sim::Domain &d = mFrame->domain;
        prog.setUniformValue("uMarchMin", qv(d.origin + b.lo * d.cellSize));
        prog.setUniformValue("uMarchMax", qv(d.origin + b.hi * d.cellSize));
        prog.setUniformValue("uMarchEmpty", b.empty ? 1 : 0);
    } else {
        prog.setUniformValue("uMarchEmpty", 1);
    }
    prog.setUniformValue("uHasDye", mTex->hasDye ? 1 : 0);
    prog.setUniformValue("uHasSolids", mTex->hasSolids ? 1 : 0);
    prog.setUniformValue("uHasFlame", flame ? 1 : 0);
    sim::Vec3 light = look.lightDirection * (1.f / std::max(length(look.lightDirection), 1e-6f));
    for (int a = 0; a < 3; ++a) // keeps 1 / direction finite in the box test
        if (std::abs(light[a]) < 1e-5f)
            light[a] = 1e-5f;
    prog.setUniformValue("uLightDir", qv(light));
    if (has) {
        uploadLight(light, look.densityScale);
        uploadIllumination(look, mDocument->scene().simulation.params.ambientTemperature, smoke);
    }
    // Texture units 0-2, 4 and 5: 3D; 3: the blackbody table.
    const unsigned units[5] = {mTex->march, mTex->dye, mTex->flame, mTex->sky, mTex->glow};
    const char *names[5] = {"uMarch", "uDye", "uFlame", "uSky", "uGlow"};
    for (int n = 0; n < 5; ++n) {
        const int u = n < 3 ? n : n + 1;
        mGl->glActiveTexture(GL_TEXTURE0 + GLenum(u));
        mGl->glBindTexture(GL_TEXTURE_3D, units[n]);
        prog.setUniformValue(names[n], u);
    }
    // The light model (lightmodel.h, illumination.h); the shader mirrors scatteredLight.
    static_assert(kScatterOctaves == 4 && kOctaveExtinction == 0.5f,
                  "volume.frag marches four octaves by square roots");
    prog.setUniformValue("uHasSky", has && mTex->hasSky ? 1 : 0);
    prog.setUniformValue("uHasGlow", has && mTex->hasGlow ? 1 : 0);
    if (has) {
        const float f = float(mTex->coarseFactor);
        prog.setUniformValue("uCoarseScale",
                             QVector3D(float(mTex->size.x) / (f * float(mTex->coarse.x)),
                                       float(mTex->size.y) / (f * float(mTex->coarse.y)),
                                       float(mTex->size.z) / (f * float(mTex->coarse.z))));
    }
    prog.setUniformValue("uSkyHalf", qv(look.skyColor * (0.5f * look.ambient)));
    prog.setUniformValue("uGroundHalf", qv(look.groundColor * (0.5f * look.ambient)));
    prog.setUniformValue("uAnisotropy", look.anisotropy);
    prog.setUniformValue("uMultiple", look.multipleScattering);
    prog.setUniformValue("uOctaveContribution", kOctaveContribution);
    prog.setUniformValue("uOctaveEccentricity", kOctaveEccentricity);
    prog.setUniformValue("uEmissionScatter", look.emissionScattering);
    prog.setUniformValue("uExposure", exposureScale(look.exposure));
    prog.setUniformValue("uToneCurve", int(look.toneCurve));
    prog.setUniformValue("uKnee", kFilmicKnee);
    mGl->glActiveTexture(GL_TEXTURE0 + 3);
    mGl->glBindTexture(GL_TEXTURE_1D, mTex->blackbody);
    prog.setUniformValue("uBlackbody", 3);
    prog.setUniformValue("uBlackbodyTexels", float(kBlackbodyTexels));
    prog.setUniformValue("uLight", qv(look.lightColor * look.lightIntensity));
    prog.setUniformValue("uAmbient", look.ambient);
    prog.setUniformValue("uSmoke", qv(look.smokeColor));
    prog.setUniformValue("uDensityScale", smoke ? look.densityScale : 0.f);
    prog.setUniformValue("uEmission", smoke ? look.emissionIntensity : 0.f);
    prog.setUniformValue("uEmissionMin", look.emissionMin);
    prog.setUniformValue("uEmissionMax", std::max(look.emissionMax, look.emissionMin + 1e-3f));
    prog.setUniformValue("uFlameIntensity", look.flameIntensity);
    prog.setUniformValue("uAmbientTemperature",
                         mDocument->scene().simulation.params.ambientTemperature);
    QVector3D top, bottom;
    switch (mBackground) {
    case Background::Dark: top = bottom = {0.012f, 0.013f, 0.016f}; break;
    case Background::Gradient:
        top = {0.06f, 0.08f, 0.12f};
        bottom = {0.005f, 0.005f, 0.008f};
        break;
    case Background::Light: top = bottom = {0.75f, 0.75f, 0.75f}; break;
    }
    prog.setUniformValue("uBgTop", top);
    prog.setUniformValue("uBgBottom", bottom);
    // Below full resolution the march fills a smaller framebuffer, scaled up (linear) to the view.
    const QSize full(int(width() * devicePixelRatioF()), int(height() * devicePixelRatioF()));
    const float scale = marchResolution(q);
    if (scale < 1.f) {
        const QSize reduced(std::max(1, int(std::lround(full.width() * scale))),
                            std::max(1, int(std::lround(full.height() * scale))));
        if (!mReduced || mReduced->size() != reduced)
            mReduced = std::make_unique<QOpenGLFramebufferObject>(reduced);
        mReduced->bind();
        mGl->glViewport(0, 0, reduced.width(), reduced.height());
        mGl->glDrawArrays(GL_TRIANGLES, 0, 3);
        mGl->glBindFramebuffer(GL_READ_FRAMEBUFFER, mReduced->handle());
        mGl->glBindFramebuffer(GL_DRAW_FRAMEBUFFER, defaultFramebufferObject());
        mGl->glBlitFramebuffer(0, 0, reduced.width(), reduced.height(), 0, 0, full.width(),
                               full.height(), GL_COLOR_BUFFER_BIT, GL_LINEAR);
        mGl->glBindFramebuffer(GL_FRAMEBUFFER, defaultFramebufferObject());
        mGl->glViewport(0, 0, full.width(), full.height());
    } else {
        mGl->glDrawArrays(GL_TRIANGLES, 0, 3);
    }
    prog.release();
    mGl->glActiveTexture(GL_TEXTURE0 + 6);
    mGl->glBindTexture(GL_TEXTURE_3D, 0);
    mGl->glActiveTexture(GL_TEXTURE0 + 3);
    mGl->glBindTexture(GL_TEXTURE_1D, 0);
    for (int u = 5; u >= 0; --u) {
        mGl->glActiveTexture(GL_TEXTURE0 + GLenum(u));
        mGl->glBindTexture(GL_TEXTURE_3D, 0);
    }
}

// Mesh items as lit surfaces in their kind's colour (obstacles nearly opaque, the others see-
// through, disabled ones grey; hidden ones not at all) at the shown frame's placement, lit like
// the volume.
void VolumeView::drawMeshes(const QMatrix4x4 &viewProj)
{
    const Scene &scene = mDocument->scene();
    std::vector<MeshSurfaces::Instance> instances;
    if (scene.domain.dimension == Dimension::ThreeD) {
        const double frame = mFrame ? mFrame->frame : 0;
        for (const Item &item : scene.items) {
            if (item.shape.type != ShapeType::Mesh || item.hidden)
                continue;
            auto loaded = loadMesh(resolveImagePath(item.shape.file, scene.directory));
            if (!loaded)
                continue;
            MeshPtr mesh = loaded.take();
            QColor colour = item.enabled ? Viewport::kindColor(item.kind) : QColor(140, 140, 140);
            colour.setAlphaF(item.kind == ItemKind::Obstacle ? 0.9f : 0.5f);
            instances.push_back(
                {std::move(mesh), meshToWorld(item.shape, item.placementAt(frame)), colour});
        }
    }
    const RenderSettings &look = scene.exports.render;
    if (MeshPtr level = mLevel.mesh(mFrame)) {
        auto srgb = [](float v) { return std::pow(std::clamp(v, 0.f, 1.f), 1.f / 2.2f); };
        const sim::Vec3 c = look.surfaceColor;
        instances.push_back({std::move(level), Affine{},
                             QColor::fromRgbF(srgb(c.x), srgb(c.y), srgb(c.z), 1.f), true});
    }
    MeshSurfaces::Light light;
    light.direction = qv(look.lightDirection).normalized();
    light.colour = qv(look.lightColor * look.lightIntensity);
    light.ambient = std::max(look.ambient, 0.15f);
    mMeshes->draw(viewProj, instances, light);
}

int VolumeView::meshUploads() const { return mMeshes->uploads(); }

// The domain box, then each item's gizmo in its kind's colour (the selection brighter).
void VolumeView::drawLines(const QMatrix4x4 &viewProj)
{
    const Scene &scene = mDocument->scene();
    const sim::Domain d = makeDomain(scene.domain);
    if (d.cells.z == 1)
        return;
    Shape box;
    box.type = ShapeType::Box;
    box.centre = d.origin + d.extent() * 0.5f;
    box.halfSize = d.extent() * 0.5f;
    std::vector<std::pair<Gizmo, QColor>> gizmos;
    Gizmo domainBox;
    domainBox.box(box, {});
    gizmos.emplace_back(std::move(domainBox), QColor(140, 145, 155));
    const double frame = mFrame ? mFrame->frame : 0;
    for (int n = 0; n < int(scene.items.size()); ++n) {
        const Item &item = scene.items[std::size_t(n)];
        if (item.hidden)
            continue;
        QColor colour = item.enabled ? Viewport::kindColor(item.kind) : QColor(140, 140, 140);
        colour.setAlphaF(mDocument->isSelected(n) ? 1.f : 0.55f);
        MeshPtr mesh;
        if (item.shape.type == ShapeType::Mesh) {
            if (auto loaded = loadMesh(resolveImagePath(item.shape.file, scene.directory)))
                mesh = loaded.take();
        }
        gizmos.emplace_back(itemGizmo(item, item.placementAt(frame), mesh.get()), colour);
    }
    mGl->glEnable(GL_BLEND);
    mGl->glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    mLineProgram->bind();
    mLineProgram->setUniformValue("uViewProj", viewProj);
    mGl->glBindBuffer(GL_ARRAY_BUFFER, mLineBuffer);
    mGl->glEnableVertexAttribArray(0);
    for (const auto &[gizmo, colour] : gizmos) {
        if (gizmo.points.empty())
            continue;
        mGl->glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(gizmo.points.size() * sizeof(float)),
                          gizmo.points.data(), GL_STREAM_DRAW);
        mGl->glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, nullptr);
        mLineProgram->setUniformValue("uColor", colour);
        mGl->glDrawArrays(GL_LINES, 0, GLsizei(gizmo.points.size() / 3));
    }
    mGl->glDisableVertexAttribArray(0);
    mGl->glBindBuffer(GL_ARRAY_BUFFER, 0);
    mLineProgram->release();
    mGl->glDisable(GL_BLEND);
}

void VolumeView::drawCaption(QPainter &p, bool still)
{
    p.setPen(QColor(210, 210, 210));
    QString text;
    if (mDocument->scene().domain.dimension != Dimension::ThreeD)
        text = "Volume view: the scene is 2D";
    else if (!mUploaded)
        text = "Volume view: waiting for a simulated frame";
    else {
        const float scale = marchResolution(still ? mStill : mInteractive);
        text = QString("Volume  frame %1  %2%3")
                   .arg(mFrame->frame)
                   .arg(still ? "still" : "interactive")
                   .arg(scale < 1.f ? QString("  %1 % resolution").arg(std::lround(scale * 100))
                                    : QString());
    }
    p.drawText(QPointF(10, 10 + p.fontMetrics().ascent()), text);
}

void VolumeView::mousePressEvent(QMouseEvent *event)
{
    setFocus();
    mLastPos = event->position();
    mDragButton = event->button();
    mPanDrag = event->button() == Qt::MiddleButton
               || (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier));
}

void VolumeView::mouseMoveEvent(QMouseEvent *event)
{
    if (mDragButton == Qt::NoButton)
        return;
    const QPointF delta = event->position() - mLastPos;
    mLastPos = event->position();
    if (mPanDrag)
        mCamera.pan(delta, height());
    else if (mDragButton == Qt::LeftButton)
        mCamera.orbit(delta);
    changed();
}

void VolumeView::mouseReleaseEvent(QMouseEvent *)
{
    mDragButton = Qt::NoButton;
    mPanDrag = false;
}

void VolumeView::wheelEvent(QWheelEvent *event)
{
    mCamera.zoom(event->angleDelta().y());
    changed();
}

void VolumeView::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_F) {
        frameDomain();
        return;
    }
    OffscreenGLWidget::keyPressEvent(event);
}

} // namespace plume
