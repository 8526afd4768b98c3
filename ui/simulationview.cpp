#include "simulationview.h"

#include <QPainter>

namespace plume {

SimulationView::SimulationView(QWidget *parent)
    : QWidget(parent)
{
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumSize(200, 200);
}

void SimulationView::setImage(const QImage &image)
{
    mImage = image;
    update();
}

void SimulationView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), QColor(24, 26, 30));
    if (mImage.isNull())
        return;
    const QSize fitted = mImage.size().scaled(size(), Qt::KeepAspectRatio);
    const QRect target(QPoint((width() - fitted.width()) / 2, (height() - fitted.height()) / 2),
                       fitted);
    p.setRenderHint(QPainter::SmoothPixmapTransform);
    p.drawImage(target, mImage);
}

} // namespace plume
