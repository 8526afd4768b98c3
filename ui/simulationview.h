#pragma once

#include <QImage>
#include <QWidget>

namespace plume {

/// Shows the latest simulation picture, scaled to fit with its aspect ratio kept.
class SimulationView : public QWidget
{
    Q_OBJECT

public:
    explicit SimulationView(QWidget *parent = nullptr);

    void setImage(const QImage &image);
    const QImage &image() const { return mImage; }
    QSize sizeHint() const override { return {640, 640}; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QImage mImage;
};

} // namespace plume
