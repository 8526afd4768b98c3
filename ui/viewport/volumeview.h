// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <ui/viewport/levelsurface.h>
#include <ui/viewport/offscreenglwidget.h>
#include <ui/viewport/orbitcamera.h>

#include <ui/simulation/framecache.h>

#include <QElapsedTimer>
#include <QMatrix4x4>
#include <QTimer>

#include <memory>

class QOpenGLFramebufferObject;
class QOpenGLFunctions_3_3_Core;
class QOpenGLShaderProgram;

namespace plume {

class Document;
struct RenderSettings;
class MeshSurfaces;

/// The live 3D view (OpenGL 3.3 core): the shown frame's volume ray-marched on the GPU the
/// way core/render's CPU renderer lights it (the scene's export look: a directional light with
/// single scattering and shadows marched towards the light, an ambient term, dye as albedo,
/// blackbody-style emission from temperature), solid cells as a lit opaque surface, mesh items
/// as lit surfaces (MeshSurfaces: obstacles nearly opaque, emitters see-through), the domain
/// box and the items' gizmos (spheres as three circles, boxes as edges, capsules, strokes, a
/// mesh's bounding box, all at the shown frame's placement) on top, over a chosen background.
///
/// Camera: left drag orbits, middle drag (or Shift + left) pans, the wheel zooms, F frames the
/// domain. Quality: every change (a new frame, a camera move) draws with the interactive
/// settings; when nothing changed for 250 ms one still is drawn with the high-quality ones (during
/// playback, once frames stop coming).
/// Textures are made once per volume size and refilled (glTexSubImage3D) only when the shown
/// frame's volume changes. Create it only when openGLUnavailableReason() is empty.
///
/// Level surface mode (setLevelSurface, the view's "Level surface" box) draws instead of the
/// smoke the iso-surface of the shown density (LevelSurface; for the SPH liquid, the liquid)
/// as a lit mesh in the look's surfaceColor, with the solids and the gizmos as before.
class VolumeView : public OffscreenGLWidget
{
    Q_OBJECT

public:
    /// Ray-march settings: the step along the view ray in cells, and the fraction of the
    /// view's pixels (each way) the volume is marched at before it is scaled up to the view;
    /// 0 picks by the OpenGL driver: half with a software rasteriser (llvmpipe and the like,
    /// where the march runs on the CPU beside the solver), full on a GPU. Shadows come from a
    /// light volume computed once per frame (core/render/lightvolume.h), whatever the quality.
    struct Quality
    {
        float stepCells = 1.5f;
        float resolution = 1.f;
    };
    enum class Background { Dark, Gradient, Light };

    explicit VolumeView(Document *document, QWidget *parent = nullptr);
    ~VolumeView() override;

    /// Shows a frame (every 3D frame of the cache has its volume, scrubbed back or not); a frame
    /// without one keeps the last volume shown.
    void showFrame(const FramePtr &frame);
    void setBackground(Background background);
    Background background() const { return mBackground; }
    void setInteractiveQuality(Quality q);
    void setStillQuality(Quality q);
    /// Whether the march skips the space where nothing shows (render/marchbounds.h): on by
    /// default, and the picture is the same either way; off marches the whole domain.
    void setSkipEmptySpace(bool on);
    Quality interactiveQuality() const { return mInteractive; }
    Quality stillQuality() const { return mStill; }
    /// Orbit camera: degrees about +y and above the horizon, distance from the target.
    void setCamera(float yaw, float pitch, float distance);
    float yaw() const { return mCamera.yaw(); }
    float pitch() const { return mCamera.pitch(); }
    float distance() const { return mCamera.distance(); }
    /// Level surface mode: the density's iso-surface at `iso` instead of the smoke.
    void setLevelSurface(bool on);
    void setLevelSurfaceIso(float iso);
    const LevelSurface &levelSurface() const { return mLevel; }
    /// Looks at the domain's centre from a distance that fits it.
    void frameDomain();
    /// The view as it stands, drawn now with the still settings and without the caption, at
    /// the widget's size (View > Save View Image, turntables).
    QImage renderStill();

    /// Texture uploads so far (each refills the volume's textures once).
    int uploads() const { return mUploads; }
    /// Models uploaded for mesh surfaces so far (once per model while items show it).
    int meshUploads() const;
    /// OpenGL errors seen while drawing (the first is also logged as a warning).
    int glErrors() const { return mGlErrors; }
    /// Whether the last image was drawn with the still (high-quality) settings.
    bool lastDrawWasStill() const { return mLastStill; }
    /// Why the view could not start its OpenGL resources, or empty.
    QString failure() const { return mFailure; }

    QSize sizeHint() const override { return {480, 480}; }

signals:
    /// The OpenGL resources could not be made (the layout then shows `reason`).
    void unavailable(const QString &reason);

protected:
    void initializeGL() override;
    void paintGL() override;
    void paintOverlay(QPainter &painter) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;

private:
    struct Textures;
    static constexpr int kStillDelayMs = 250;

    /// Draws the interactive quality now and a still once nothing changed for `stillDelayMs`.
    void changed(int stillDelayMs = kStillDelayMs);
    void releaseGL();
    void upload();
    void uploadLight(sim::Vec3 direction, float densityScale);
    void uploadIllumination(const RenderSettings &look, float ambientTemperature, bool smoke);
    void uploadEmpty(unsigned id, int internal, unsigned format);
    void updateBounds(bool hot, float hotAbove, bool flame);
    /// The fraction of the view's pixels the volume is marched at with quality `q`.
    float marchResolution(const Quality &q) const;
    void uploadBlackbody();
    QMatrix4x4 viewProjection() const;
    void drawVolume(const QMatrix4x4 &viewProj, bool still);
    void drawMeshes(const QMatrix4x4 &viewProj);
    void drawLines(const QMatrix4x4 &viewProj);
    void drawCaption(QPainter &p, bool still);
    void fail(const QString &reason);

    Document *mDocument;
    QOpenGLFunctions_3_3_Core *mGl = nullptr;
    std::unique_ptr<QOpenGLShaderProgram> mVolumeProgram;
    std::unique_ptr<QOpenGLShaderProgram> mLineProgram;
    std::unique_ptr<Textures> mTex;
    std::unique_ptr<MeshSurfaces> mMeshes;
    std::unique_ptr<QOpenGLFramebufferObject> mReduced; ///< the volume below full resolution
    int mGlErrors = 0;
    unsigned mVao = 0;
    unsigned mLineBuffer = 0;
    FramePtr mFrame;     ///< the frame whose volume is shown
    VolumePtr mUploaded; ///< the volume in the textures
    bool mDirty = false;
    int mUploads = 0;
    QString mFailure;
    Background mBackground = Background::Gradient;
    Quality mInteractive{1.5f, 0.f};
    Quality mStill{0.5f, 1.f};
    bool mSoftwareGl = false; ///< the driver rasterises on the CPU (initializeGL)
    bool mLastStill = false;
    bool mSkipEmpty = true;
    bool mStillDue = false;
    QTimer mStillTimer;
    QElapsedTimer mFrameClock; ///< time since the last new volume was shown
    OrbitCamera mCamera;
    bool mCaption = true; ///< false while renderStill() draws
    QPointF mLastPos;
    Qt::MouseButton mDragButton = Qt::NoButton;
    bool mPanDrag = false;
    bool mFramed = false;
    LevelSurface mLevel;
};

} // namespace plume
