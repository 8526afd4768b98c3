// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/export/passes.h>
#include <core/render/rendersettings.h>
#include <core/scene/scene.h>
#include <core/settings/exportsettings.h>

#include <QImage>
#include <QThread>
#include <QWidget>

#include <atomic>
#include <memory>

namespace plume {

class PreviewRenderer;

/// What the frame preview shows of a rendered frame: the colour, emission and motion-vector
/// images, or one of the pass textures (six-way lightmaps, normals, depth, alpha, packed).
enum class PreviewChannel { Color, Emission, Motion, Texture };

/// One frame of the export rendered by core/render exactly as the bake renders it: a private
/// simulation on a worker thread runs the scene to the chosen frame (kept between requests, so
/// moving forward or changing only the look does not simulate again), then renders it at the
/// chosen frame size. Newer requests supersede older ones, also in the middle of simulating.
/// Shown over a checkerboard, scaled to fit.
class FramePreview : public QWidget
{
    Q_OBJECT

public:
    struct Request
    {
        Scene scene;
        int frame = 1;
        RenderSettings render;
        PreviewChannel channel = PreviewChannel::Color;
        EmissionOutput emission = EmissionOutput::None; ///< Combined: added to the colour
        float motionRange = 0.f;                        ///< 0: the frame's largest motion
        int motionStep = 1;                             ///< simulation frames per tile
        /// PreviewChannel::Texture: passTextures(textures)[texture], its RGB shown opaque (the
        /// alpha channel of a packed texture holds data), or with `alphaChannel` its A as grey.
        TextureOptions textures;
        int texture = -1;
        bool alphaChannel = false;
    };

    explicit FramePreview(QWidget *parent = nullptr);
    ~FramePreview() override;

    /// Renders `request` off the GUI thread; frameReady() follows unless superseded.
    void request(Request request);
    /// The last rendered image (straight alpha) and the frame it shows (-1: none yet).
    const QImage &image() const { return mImage; }
    int imageFrame() const { return mImageFrame; }
    bool isBusy() const { return mBusy; }

    QSize sizeHint() const override { return {320, 320}; }

signals:
    void frameReady(int frame);

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    friend class PreviewRenderer;
    void onProgressFor(quint64 id, const QString &text);
    void onRenderedFor(quint64 id, const QImage &image, int frame, const QString &error);

    QThread mThread;
    PreviewRenderer *mRenderer;
    std::shared_ptr<std::atomic<quint64>> mLatest;
    quint64 mNextId = 1;
    QImage mImage;
    int mImageFrame = -1;
    QString mStatus;
    bool mBusy = false;
};

} // namespace plume
