// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <ui/viewport/offscreenglwidget.h>
#include <ui/viewport/orbitcamera.h>

#include <ui/simulation/framecache.h>

#include <QPointF>
#include <QVector3D>

#include <memory>
#include <vector>

class QOpenGLFunctions_3_3_Core;
class QOpenGLShaderProgram;

namespace plume {

/// The ocean scheme's live 3D view (OpenGL 3.3 core; docs/ocean.md): the shown frame's surface
/// as a lit mesh, one vertex per cell moved by the choppy displacement and raised by the height,
/// shaded with its normals: a sun (diffuse and a specular glint), sky reflection weighted by
/// Schlick's Fresnel term over deep-water colour, foam whitening it. The periodic patch is drawn
/// 2 x 2 times, so that its seams show that it tiles. Frames without ocean fields draw only the
/// sky. Camera (OrbitCamera): left drag orbits, the wheel zooms. Create it only when
/// openGLUnavailableReason() is empty.
class SurfaceView : public OffscreenGLWidget
{
    Q_OBJECT

public:
    explicit SurfaceView(QWidget *parent = nullptr);
    ~SurfaceView() override;

    /// Shows a frame's surface (a frame of an ocean scene; others show nothing).
    void showFrame(const FramePtr &frame);
    /// Orbit camera about the centre of the 2 x 2 tiles: degrees about +z (0 looks along +y),
    /// degrees above the horizon, distance in patch diagonals.
    void setCamera(float yaw, float pitch, float distance);
    float yaw() const { return mCamera.yaw(); }
    float pitch() const { return mCamera.pitch(); }
    float distance() const { return mCamera.distance(); }
    /// Vertex uploads so far (one per shown frame that changed the surface).
    int uploads() const { return mUploads; }
    /// Why the OpenGL resources could not be made, or empty.
    QString failure() const { return mFailure; }
    QSize sizeHint() const override { return {480, 480}; }

signals:
    void unavailable(const QString &reason);

protected:
    void initializeGL() override;
    void paintGL() override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;

private:
    void fail(const QString &reason);
    void releaseGL();
    void buildVertices();

    QOpenGLFunctions_3_3_Core *mGl = nullptr;
    std::unique_ptr<QOpenGLShaderProgram> mProgram;
    unsigned mVao = 0, mVertexBuffer = 0, mIndexBuffer = 0;
    FramePtr mFrame;
    std::vector<float> mVertices; ///< x, y, z, nx, ny, nz, foam per vertex
    std::vector<unsigned> mIndices;
    sim::Int3 mIndexedCells{0, 0, 0}; ///< the grid the index buffer was made for
    bool mDirty = false;
    int mUploads = 0;
    QString mFailure;
    OrbitCamera mCamera;
    QPointF mLastPos;
};

} // namespace plume
