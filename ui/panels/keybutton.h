// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QPainterPath>
#include <QToolButton>

namespace plume {

/// The small diamond beside a keyframable property: empty when the property is constant,
/// outlined green when it is keyframed but has no key on this frame, filled gold on a key,
/// filled orange when its value was changed and not keyed. Clicking it sets or removes a key
/// (PropertiesPanel, AnimationState::toggleKey).
class KeyButton : public QToolButton
{
    Q_OBJECT

public:
    enum class State { Constant, Animated, Keyed, Changed };

    explicit KeyButton(QWidget *parent = nullptr);

    State state() const { return mState; }
    void setState(State state);
    /// The colours of the states (the key strip draws its diamonds in them too).
    static QColor fillColor(State state);
    /// The key's diamond around `centre`, `radius` pixels from centre to corner (the key strip
    /// draws the same shape).
    static QPainterPath diamond(QPointF centre, double radius);

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    State mState = State::Constant;
};

} // namespace plume
