// SPDX-License-Identifier: Apache-2.0
#include <ui/panels/keybutton.h>

#include <QPainter>
#include <QPainterPath>

namespace plume {

KeyButton::KeyButton(QWidget *parent)
    : QToolButton(parent)
{
    setAutoRaise(true);
    setFixedSize(22, 22);
    setCursor(Qt::PointingHandCursor);
    setState(State::Constant);
}

QPainterPath KeyButton::diamond(QPointF centre, double radius)
{
    QPainterPath path;
    path.moveTo(centre + QPointF(0, -radius));
    path.lineTo(centre + QPointF(radius, 0));
    path.lineTo(centre + QPointF(0, radius));
    path.lineTo(centre + QPointF(-radius, 0));
    path.closeSubpath();
    return path;
}

QColor KeyButton::fillColor(State state)
{
    switch (state) {
    case State::Constant: return Qt::transparent;
    case State::Animated: return QColor(110, 190, 110);
    case State::Keyed: return QColor(235, 190, 40);
    case State::Changed: break;
    }
    return QColor(240, 130, 30);
}

void KeyButton::setState(State state)
{
    mState = state;
    switch (state) {
    case State::Constant: setToolTip("Not animated: click to set a key at this frame"); break;
    case State::Animated: setToolTip("Animated, no key on this frame: click to set a key"); break;
    case State::Keyed: setToolTip("Key on this frame: click to remove it"); break;
    case State::Changed:
        setToolTip("Changed and not keyed (goes when the frame changes): click to key it");
        break;
    }
    update();
}

void KeyButton::paintEvent(QPaintEvent *event)
{
    QToolButton::paintEvent(event); // the hover and press frame
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QColor colour = fillColor(mState);
    switch (mState) {
    case State::Constant: p.setPen(QPen(palette().color(QPalette::Mid), 1.2)); break;
    case State::Animated: p.setPen(QPen(colour, 2.0)); break;
    case State::Keyed:
    case State::Changed:
        p.setPen(QPen(colour.darker(150), 1.2));
        p.setBrush(colour);
        break;
    }
    p.drawPath(diamond(QRectF(rect()).center(), 6.0));
}

} // namespace plume
