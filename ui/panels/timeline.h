#pragma once

#include <QWidget>

class QLabel;
class QSlider;

namespace plume {

/// A frame slider over the frames simulated so far (the cache): dragging it scrubs back.
class Timeline : public QWidget
{
    Q_OBJECT

public:
    explicit Timeline(QWidget *parent = nullptr);

    /// The shown frame and the newest simulated one.
    void setFrames(int current, int head);
    QSlider *slider() const { return mSlider; }

signals:
    void scrubbed(int frame);

private:
    QSlider *mSlider;
    QLabel *mLabel;
};

} // namespace plume
