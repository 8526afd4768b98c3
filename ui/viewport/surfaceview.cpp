// SPDX-License-Identifier: Apache-2.0
#include <ui/viewport/surfaceview.h>

#include <ui/viewport/shaderfile.h>

#include <QMatrix4x4>
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QOpenGLFunctions_3_3_Core>
#include <QOpenGLShaderProgram>
#include <QOpenGLVersionFunctionsFactory>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace plume {

namespace {

constexpr int kFloatsPerVertex = 7;

/// z is up, yaw about +z (0 looks along +y), the distance in diagonals of the 2 x 2 tiles
/// (setUnit), kept above the surface and never straight down.
OrbitCamera::Rig surfaceRig()
{
    return {.sinAxis = {-1.f, 0.f, 0.f},
            .cosAxis = {0.f, -1.f, 0.f},
            .up = {0.f, 0.f, 1.f},
            .minPitch = 2.f,
            .maxPitch = 89.f,
            .minDistance = 0.05f,
            .maxDistance = 20.f,
            .zoomPerNotch = std::pow(0.999, 120)};
}

} // namespace

SurfaceView::SurfaceView(QWidget *parent)
    : OffscreenGLWidget(parent)
    , mCamera(surfaceRig(), 20.f, 30.f, 1.2f)
{
    setObjectName("surfaceView");
    setFocusPolicy(Qt::StrongFocus);
}

SurfaceView::~SurfaceView()
{
    // ~OffscreenGLWidget destroys the context after this body, and its aboutToBeDestroyed would
    // call the releasing lambda of initializeGL on a SurfaceView that no longer exists (UBSan's
    // vptr check caught it).
    if (context())
        context()->disconnect(this);
    if (mGl && context()) {
        makeCurrent();
        releaseGL();
        doneCurrent();
    }
}

void SurfaceView::fail(const QString &reason)
{
    mFailure = reason;
    Q_EMIT unavailable(reason);
}

void SurfaceView::releaseGL()
{
    if (!mGl)
        return;
    mGl->glDeleteBuffers(1, &mVertexBuffer);
    mGl->glDeleteBuffers(1, &mIndexBuffer);
    mGl->glDeleteVertexArrays(1, &mVao);
    mVao = mVertexBuffer = mIndexBuffer = 0;
    mProgram.reset();
    mIndexedCells = {0, 0, 0};
    mGl = nullptr;
}

void SurfaceView::setCamera(float yaw, float pitch, float distance)
{
    mCamera.set(yaw, pitch, distance);
    update();
}

void SurfaceView::showFrame(const FramePtr &frame)
{
    if (frame == mFrame)
        return;
    mFrame = frame;
    buildVertices();
    mDirty = true;
    update();
}

// One vertex per cell plus a wrapped row and column, so that the tiles meet: vertex (i, j)
// is cell (i mod nx, j mod ny), one patch further along past the edge.
void SurfaceView::buildVertices()
{
    mVertices.clear();
    if (!mFrame || mFrame->field(DisplayField::Height).count() == 0)
        return;
    const sim::Domain &d = mFrame->domain;
    const sim::Int3 n = d.cells;
    const sim::ScalarGrid *f[7] = {&mFrame->field(DisplayField::DisplacementX),
                                   &mFrame->field(DisplayField::DisplacementY),
                                   &mFrame->field(DisplayField::Height),
                                   &mFrame->field(DisplayField::NormalX),
                                   &mFrame->field(DisplayField::NormalY),
                                   &mFrame->field(DisplayField::NormalZ),
                                   &mFrame->field(DisplayField::Foam)};
    for (const sim::ScalarGrid *g : f) {
        if (g->size() != sim::Int3{n.x, n.y, 1})
            return;
    }
    mVertices.resize(std::size_t(n.x + 1) * std::size_t(n.y + 1) * kFloatsPerVertex);
    float *v = mVertices.data();
    for (int j = 0; j <= n.y; ++j) {
        for (int i = 0; i <= n.x; ++i) {
            const int ci = i % n.x, cj = j % n.y;
            *v++ = d.origin.x + (float(i) + 0.5f) * d.cellSize + (*f[0])(ci, cj, 0);
            *v++ = d.origin.y + (float(j) + 0.5f) * d.cellSize + (*f[1])(ci, cj, 0);
            for (int c = 2; c < 7; ++c)
                *v++ = (*f[c])(ci, cj, 0);
        }
    }
}

void SurfaceView::initializeGL()
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
    connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, [this] {
        makeCurrent();
        releaseGL();
        doneCurrent();
    });
    mProgram = std::make_unique<QOpenGLShaderProgram>();
    if (QString error; !buildShaderProgram(*mProgram, "surface.vert", "surface.frag", &error)) {
        fail("the surface shaders did not compile: " + error.left(300));
        mProgram.reset();
        mGl = nullptr;
        return;
    }
    mGl->glGenVertexArrays(1, &mVao);
    mGl->glGenBuffers(1, &mVertexBuffer);
    mGl->glGenBuffers(1, &mIndexBuffer);
    mGl->glBindVertexArray(mVao);
    mGl->glBindBuffer(GL_ARRAY_BUFFER, mVertexBuffer);
    const GLsizei stride = kFloatsPerVertex * sizeof(float);
    mGl->glEnableVertexAttribArray(0);
    mGl->glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, stride, nullptr);
    mGl->glEnableVertexAttribArray(1);
    mGl->glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, stride,
                               reinterpret_cast<void *>(3 * sizeof(float)));
    mGl->glEnableVertexAttribArray(2);
    mGl->glVertexAttribPointer(2, 1, GL_FLOAT, GL_FALSE, stride,
                               reinterpret_cast<void *>(6 * sizeof(float)));
    mGl->glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, mIndexBuffer);
    mGl->glBindVertexArray(0);
    mDirty = true;
}

void SurfaceView::paintGL()
{
    if (!mGl) {
        return;
    }
    mGl->glClearColor(0.55f, 0.70f, 0.86f, 1.f); // the sky
    mGl->glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    if (!mFrame || mVertices.empty())
        return;
    const sim::Domain &d = mFrame->domain;
    const sim::Int3 n = d.cells;
    mGl->glBindVertexArray(mVao);
    if (!(mIndexedCells == n)) {
        mIndices.clear();
        const unsigned row = unsigned(n.x + 1);
        for (unsigned j = 0; j < unsigned(n.y); ++j) {
            for (unsigned i = 0; i < unsigned(n.x); ++i) {
                const unsigned a = j * row + i, b = a + 1, c = a + row, e = c + 1;
                mIndices.insert(mIndices.end(), {a, b, e, a, e, c});
            }
        }
        mGl->glBufferData(GL_ELEMENT_ARRAY_BUFFER, GLsizeiptr(mIndices.size() * sizeof(unsigned)),
                          mIndices.data(), GL_STATIC_DRAW);
        mIndexedCells = n;
    }
    if (mDirty) {
        mGl->glBindBuffer(GL_ARRAY_BUFFER, mVertexBuffer);
        mGl->glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(mVertices.size() * sizeof(float)),
                          mVertices.data(), GL_DYNAMIC_DRAW);
        mDirty = false;
        ++mUploads;
    }
    const sim::Vec3 e = d.extent();
    // The camera looks at the centre of the 2 x 2 tiles, its distance in their diagonals.
    mCamera.setTarget({d.origin.x + e.x, d.origin.y + e.y, 0.f});
    const float diagonal = 2.f * std::hypot(e.x, e.y);
    mCamera.setUnit(diagonal);
    const QMatrix4x4 viewProj =
        mCamera.viewProjection(float(width()) / float(std::max(height(), 1)), 0.01f * diagonal,
                               10.f * diagonal * std::max(mCamera.distance(), 1.f));
    mGl->glEnable(GL_DEPTH_TEST);
    mProgram->bind();
    mProgram->setUniformValue("viewProj", viewProj);
    mProgram->setUniformValue("eye", mCamera.eye());
    mProgram->setUniformValue("sun", QVector3D(-0.35f, 0.55f, 0.75f).normalized());
    for (int t = 0; t < 4; ++t) {
        mProgram->setUniformValue("offset", QVector2D(float(t % 2) * e.x, float(t / 2) * e.y));
        mGl->glDrawElements(GL_TRIANGLES, GLsizei(mIndices.size()), GL_UNSIGNED_INT, nullptr);
    }
    mProgram->release();
    mGl->glBindVertexArray(0);
    mGl->glDisable(GL_DEPTH_TEST);
}

void SurfaceView::mousePressEvent(QMouseEvent *event) { mLastPos = event->position(); }

void SurfaceView::mouseMoveEvent(QMouseEvent *event)
{
    if (!(event->buttons() & Qt::LeftButton))
        return;
    mCamera.orbit(event->position() - mLastPos);
    mLastPos = event->position();
    update();
}

void SurfaceView::wheelEvent(QWheelEvent *event)
{
    mCamera.zoom(event->angleDelta().y());
    update();
}

} // namespace plume
