// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/export/flipbook.h>

#include <QString>
#include <QWidget>

#include <vector>

namespace plume {

/// The flipbook atlas drawn to scale: rows x columns tiles, each a frame (with its simulation
/// frame number) inside its gutter, tiles without a frame hatched. Layout only; no pixels.
class AtlasPreview : public QWidget
{
    Q_OBJECT

public:
    explicit AtlasPreview(QWidget *parent = nullptr);

    /// `frames` are the simulation frames of the tiles in order (may be fewer than the tiles);
    /// `error` replaces the frame numbers when the selection failed.
    void setAtlas(const AtlasLayout &layout, std::vector<int> frames, const QString &error);

    const AtlasLayout &atlasLayout() const { return mLayout; }
    const std::vector<int> &frames() const { return mFrames; }
    /// The atlas rectangle in widget pixels (the atlas fitted, aspect kept).
    QRectF atlasRect() const;

    QSize sizeHint() const override { return {320, 320}; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    AtlasLayout mLayout;
    std::vector<int> mFrames;
    QString mError;
};

} // namespace plume
