// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QImage>
#include <QSurfaceFormat>
#include <QWidget>

#include <memory>

class QOffscreenSurface;
class QOpenGLContext;
class QOpenGLFramebufferObject;

namespace plume {

/// A widget drawn with OpenGL into a framebuffer of its own and shown as an image, in place of
/// QOpenGLWidget. A window that holds a QOpenGLWidget is composed with OpenGL, whole, on every
/// repaint of any of its widgets; with a software rasteriser (llvmpipe, in VMs and remote
/// desktops, and on CI) that costs about 12 ms of CPU per repaint of a 1280 x 800 window, beside
/// the solver (docs/performance.md). Here the picture is read back once per paint, and the
/// window stays a raster window.
///
/// Subclasses draw in paintGL() (the context current, the widget's framebuffer bound, the
/// viewport set, cleared) and over the picture in paintOverlay() with QPainter. initializeGL()
/// runs once, before the first paintGL(), with context() null when no context could be made.
class OffscreenGLWidget : public QWidget
{
    Q_OBJECT

public:
    explicit OffscreenGLWidget(QWidget *parent = nullptr);
    ~OffscreenGLWidget() override;

    /// The format of the context; set before the widget is first shown.
    void setFormat(const QSurfaceFormat &format) { mFormat = format; }
    /// The context, once initializeGL() ran and it could be made; else null.
    QOpenGLContext *context() const;
    /// Makes the context current on its offscreen surface; false without a context.
    bool makeCurrent();
    void doneCurrent();
    /// The framebuffer paintGL() draws into (valid while painting).
    unsigned defaultFramebufferObject() const;
    /// Draws the widget now (paintGL, then paintOverlay) and returns the picture, at the
    /// widget's size times its device pixel ratio.
    QImage grabFramebuffer();

protected:
    virtual void initializeGL() {}
    virtual void paintGL() {}
    virtual void paintOverlay(QPainter &) {}
    void paintEvent(QPaintEvent *event) override;

private:
    /// The context made and initializeGL() called, once.
    void ensureInitialized();

    QSurfaceFormat mFormat;
    std::unique_ptr<QOpenGLContext> mContext;
    std::unique_ptr<QOffscreenSurface> mSurface;
    std::unique_ptr<QOpenGLFramebufferObject> mTarget;
    bool mInitialized = false;
};

} // namespace plume
