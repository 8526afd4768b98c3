#include "timeline.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>

namespace plume {

Timeline::Timeline(QWidget *parent)
    : QWidget(parent)
    , mSlider(new QSlider(Qt::Horizontal))
    , mLabel(new QLabel)
{
    auto *layout = new QHBoxLayout(this);
    layout->addWidget(mSlider, 1);
    layout->addWidget(mLabel);
    mSlider->setRange(0, 0);
    mSlider->setToolTip("Scrub through the frames simulated so far");
    mLabel->setMinimumWidth(110);
    connect(mSlider, &QSlider::valueChanged, this, &Timeline::scrubbed);
    setFrames(0, 0);
}

void Timeline::setFrames(int current, int head)
{
    const QSignalBlocker block(mSlider);
    mSlider->setRange(0, head);
    mSlider->setValue(current);
    mLabel->setText(QString("frame %1 / %2").arg(current).arg(head));
}

} // namespace plume
