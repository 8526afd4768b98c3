// SPDX-License-Identifier: Apache-2.0
#include <ui/viewport/offscreenglwidget.h>

#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFramebufferObject>
#include <QOpenGLFunctions>
#include <QPainter>

#include <algorithm>

namespace plume {

OffscreenGLWidget::OffscreenGLWidget(QWidget *parent)
    : QWidget(parent)
    , mFormat(QSurfaceFormat::defaultFormat())
{
    // The picture covers the whole widget: nothing under it needs painting first.
    setAttribute(Qt::WA_OpaquePaintEvent);
}

OffscreenGLWidget::~OffscreenGLWidget()
{
    // Subclasses release their resources in their destructors; the framebuffer goes here, with
    // its context current.
    if (mContext && mTarget && makeCurrent()) {
        mTarget.reset();
        doneCurrent();
    }
}

QOpenGLContext *OffscreenGLWidget::context() const { return mContext.get(); }

bool OffscreenGLWidget::makeCurrent()
{
    return mContext && mSurface && mContext->makeCurrent(mSurface.get());
}

void OffscreenGLWidget::doneCurrent()
{
    if (mContext)
        mContext->doneCurrent();
}

unsigned OffscreenGLWidget::defaultFramebufferObject() const
{
    return mTarget ? mTarget->handle() : 0;
}

void OffscreenGLWidget::ensureInitialized()
{
    if (mInitialized)
        return;
    mInitialized = true;
    auto context = std::make_unique<QOpenGLContext>();
    context->setFormat(mFormat);
    auto surface = std::make_unique<QOffscreenSurface>();
    if (context->create()) {
        surface->setFormat(context->format());
        surface->create();
        if (surface->isValid()) {
            mContext = std::move(context);
            mSurface = std::move(surface);
        }
    }
    if (mContext && !makeCurrent()) {
        mContext.reset();
        mSurface.reset();
    }
    initializeGL();
    if (mContext)
        doneCurrent();
}

QImage OffscreenGLWidget::grabFramebuffer()
{
    ensureInitialized();
    const qreal ratio = devicePixelRatioF();
    const QSize size(std::max(1, int(width() * ratio)), std::max(1, int(height() * ratio)));
    if (!makeCurrent()) {
        QImage blank(size, QImage::Format_RGB32);
        blank.fill(Qt::black); // as paintGL's framebuffer starts
        blank.setDevicePixelRatio(ratio);
        QPainter painter(&blank);
        paintOverlay(painter);
        return blank;
    }
    if (!mTarget || mTarget->size() != size)
        mTarget = std::make_unique<QOpenGLFramebufferObject>(
            size, QOpenGLFramebufferObject::CombinedDepthStencil);
    mTarget->bind();
    QOpenGLFunctions *gl = mContext->functions();
    gl->glViewport(0, 0, size.width(), size.height());
    gl->glClearColor(0.f, 0.f, 0.f, 1.f);
    gl->glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
    paintGL();
    // Read back as the raster window's own pixel format (B, G, R, X bytes), opaque, and turn
    // it upright: OpenGL's rows run bottom-up.
    gl->glBindFramebuffer(GL_FRAMEBUFFER, mTarget->handle());
    QImage picture(size, QImage::Format_RGB32);
    gl->glPixelStorei(GL_PACK_ALIGNMENT, 4);
    gl->glReadPixels(0, 0, size.width(), size.height(), GL_BGRA, GL_UNSIGNED_BYTE, picture.bits());
    mTarget->release();
    doneCurrent();
    picture.mirror();
    picture.setDevicePixelRatio(ratio);
    QPainter painter(&picture);
    paintOverlay(painter);
    return picture;
}

void OffscreenGLWidget::paintEvent(QPaintEvent *)
{
    const QImage picture = grabFramebuffer();
    QPainter painter(this);
    painter.drawImage(QPointF(0, 0), picture);
}

} // namespace plume
