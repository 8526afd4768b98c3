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
#include <QWheelEvent>
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

/// A drag from `from` to `to` with `button` held, as the pointer sends it to `w`.
inline void drag(QWidget *w, QPoint from, QPoint to, Qt::MouseButton button = Qt::LeftButton,
                 Qt::KeyboardModifiers modifiers = Qt::NoModifier)
{
    QMouseEvent press(QEvent::MouseButtonPress, from, w->mapToGlobal(from), button, button,
                      modifiers);
    QCoreApplication::sendEvent(w, &press);
    QMouseEvent move(QEvent::MouseMove, to, w->mapToGlobal(to), Qt::NoButton, button, modifiers);
    QCoreApplication::sendEvent(w, &move);
    QMouseEvent release(QEvent::MouseButtonRelease, to, w->mapToGlobal(to), button, Qt::NoButton,
                        modifiers);
    QCoreApplication::sendEvent(w, &release);
}

/// A left-button stroke from `from` to `to` in `steps` equal moves (QTest's events), as a brush
/// tool is painted with.
inline void stroke(QWidget *w, QPoint from, QPoint to, int steps)
{
    QTest::mousePress(w, Qt::LeftButton, {}, from);
    for (int s = 1; s <= steps; ++s)
        QTest::mouseMove(w, from + (to - from) * s / steps);
    QTest::mouseRelease(w, Qt::LeftButton, {}, to);
}

/// A wheel turn of `angleDelta` eighths of a degree over `w` (120: one notch away from the user).
inline void wheel(QWidget *w, int angleDelta)
{
    const QPointF at(20.0, 20.0);
    QWheelEvent event(at, w->mapToGlobal(at), QPoint(), QPoint(0, angleDelta), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(w, &event);
}

} // namespace plume::test
