// SPDX-License-Identifier: Apache-2.0
#include <ui/panels/steadylabel.h>

namespace plume {

SteadyLabel::SteadyLabel(QWidget *parent)
    : QLabel(parent)
{}

void SteadyLabel::setSteadyText(const QString &text)
{
    if (text == this->text())
        return;
    setText(text);
    const QSize hint = sizeHint();
    const bool fixed = minimumSize() == maximumSize();
    const int width = maximumWidth();
    if (!fixed || hint.width() > width || 3 * hint.width() < 2 * width
        || hint.height() != maximumHeight())
        setFixedSize(hint);
}

} // namespace plume
