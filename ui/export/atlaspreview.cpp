// SPDX-License-Identifier: Apache-2.0
#include <ui/export/atlaspreview.h>

#include <QPainter>

#include <algorithm>

namespace plume {

namespace {
constexpr int kMargin = 8;
constexpr int kCaption = 20; ///< pixels below the atlas for its size
} // namespace

AtlasPreview::AtlasPreview(QWidget *parent)
    : QWidget(parent)
{
    setMinimumSize(200, 200);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void AtlasPreview::setAtlas(const AtlasLayout &layout, std::vector<int> frames,
                            const QString &error)
{
    mLayout = layout;
    mFrames = std::move(frames);
    mError = error;
    update();
}

// Uniform scale of the atlas into the widget (letterboxed), leaving room for the caption.
QRectF AtlasPreview::atlasRect() const
{
    const double w = std::max(1, mLayout.width());
    const double h = std::max(1, mLayout.height());
    const double availW = std::max(1, width() - 2 * kMargin);
    const double availH = std::max(1, height() - 2 * kMargin - kCaption);
    const double scale = std::min(availW / w, availH / h);
    const QSizeF size(w * scale, h * scale);
    return {QPointF(kMargin + (availW - size.width()) / 2, kMargin + (availH - size.height()) / 2),
            size};
}

void AtlasPreview::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), palette().window());
    const QRectF atlas = atlasRect();
    const double scale = atlas.width() / std::max(1, mLayout.width());
    const int tiles = mLayout.rows * mLayout.columns;
    const QColor gutter(70, 70, 78), frameFill(38, 88, 140), emptyFill(55, 55, 60);
    p.fillRect(atlas, gutter);
    const QFont captionFont = p.font();
    QFont font = captionFont;
    const double tileW = mLayout.tileWidth() * scale, tileH = mLayout.tileHeight() * scale;
    font.setPixelSize(std::clamp(int(std::min(tileW, tileH) * 0.35), 6, 14));
    p.setFont(font);
    const bool numbers = tileW >= 14 && tileH >= 10;
    for (int n = 0; n < tiles; ++n) {
        const QPoint origin = mLayout.frameOrigin(n);
        const QRectF frame(atlas.left() + origin.x() * scale, atlas.top() + origin.y() * scale,
                           mLayout.frameWidth * scale, mLayout.frameHeight * scale);
        const bool used = n < int(mFrames.size());
        p.fillRect(frame, used ? frameFill : emptyFill);
        if (!used) {
            p.fillRect(frame, QBrush(QColor(90, 90, 96), Qt::BDiagPattern));
            continue;
        }
        if (numbers) {
            p.setPen(Qt::white);
            p.drawText(frame, Qt::AlignCenter, QString::number(mFrames[std::size_t(n)]));
        }
    }
    // Tile borders (where one tile's gutter meets the next).
    p.setPen(QPen(QColor(20, 20, 24), 1));
    for (int c = 0; c <= mLayout.columns; ++c)
        p.drawLine(QPointF(atlas.left() + c * tileW, atlas.top()),
                   QPointF(atlas.left() + c * tileW, atlas.bottom()));
    for (int r = 0; r <= mLayout.rows; ++r)
        p.drawLine(QPointF(atlas.left(), atlas.top() + r * tileH),
                   QPointF(atlas.right(), atlas.top() + r * tileH));
    p.setFont(captionFont);
    p.setPen(palette().color(QPalette::WindowText));
    const QRectF caption(0, height() - kMargin - kCaption, width(), kCaption);
    const QString size = QString("%1 x %2 px, %3 of %4 tiles")
                             .arg(mLayout.width())
                             .arg(mLayout.height())
                             .arg(std::min<int>(int(mFrames.size()), tiles))
                             .arg(tiles);
    p.drawText(caption, Qt::AlignCenter, mError.isEmpty() ? size : mError);
}

} // namespace plume
