// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QLabel>

namespace plume {

/// A label whose text changes every frame (the status bar's figures, the timeline's frame)
/// without laying the window out again. A QLabel asks its parents for a new layout on every
/// setText, and the main window answers by laying out its docks and repainting their frames,
/// a second repaint per frame; with the OpenGL volume view open, Qt composes the whole window
/// for each one (half the software renderer's time per frame at 1280 x 800). This label keeps
/// a fixed size, which Qt does not pass on: it grows at once to fit a longer text and shrinks
/// only when the text needs under two thirds of its width, so figures that change length by a
/// digit do not move the bar.
class SteadyLabel : public QLabel
{
    Q_OBJECT

public:
    explicit SteadyLabel(QWidget *parent = nullptr);

    void setSteadyText(const QString &text);
};

} // namespace plume
