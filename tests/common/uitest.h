// SPDX-License-Identifier: Apache-2.0
#pragma once

// Helpers the window tests share: showing a window so that shortcuts reach it, and mouse
// gestures on a viewport.

#include <ui/tools/selecttool.h>
#include <ui/tools/tooloptions.h>
#include <ui/viewport/viewport.h>

#include <QApplication>
#include <QMouseEvent>
#include <QTest>
#include <QWidget>

#include <cmath>
#include <numbers>

namespace plume::test {

/// Shows the window and waits until it is exposed and active (keyboard shortcuts need an
/// active window).
inline bool showActive(QWidget &window)
{
    window.show();
    if (!QTest::qWaitForWindowExposed(&window))
        return false;
    window.activateWindow();
    return QTest::qWaitForWindowActive(&window);
}

/// A 400 x 400 viewport on a document with the select tool in use. show() shows it, waits until
/// it is exposed and fits the scene to it.
struct SelectView
{
    ToolOptions options;
    Viewport view;
    SelectTool select;

    explicit SelectView(Document *doc)
        : view(doc, &options)
        , select(&view)
    {
        view.setTool(&select);
        view.resize(400, 400);
    }

    bool show()
    {
        view.show();
        if (!QTest::qWaitForWindowExposed(&view))
            return false;
        view.fitToView();
        return true;
    }
};

/// A drag that turns about `pivot` from `handle` by `degrees` (counter-clockwise on screen),
/// in twelve moves (widget pixels).
inline void turnView(Viewport &view, QPointF handle, QPointF pivot, double degrees,
                     Qt::KeyboardModifiers modifiers = {})
{
    const QPointF r = handle - pivot;
    const double a0 = std::atan2(-r.y(), r.x());
    const double radius = std::hypot(r.x(), r.y());
    QTest::mousePress(&view, Qt::LeftButton, modifiers, handle.toPoint());
    QPointF p = handle;
    for (int s = 1; s <= 12; ++s) {
        const double a = a0 + degrees * std::numbers::pi / 180.0 * s / 12.0;
        p = pivot + QPointF(radius * std::cos(a), -radius * std::sin(a));
        QMouseEvent move(QEvent::MouseMove, p, view.mapToGlobal(p), Qt::NoButton, Qt::LeftButton,
                         modifiers);
        QApplication::sendEvent(&view, &move);
    }
    QTest::mouseRelease(&view, Qt::LeftButton, modifiers, p.toPoint());
}

} // namespace plume::test
