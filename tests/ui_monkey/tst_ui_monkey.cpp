// SPDX-License-Identifier: Apache-2.0
// A monkey test of the window (issue 18): a seeded storm of real input events (mouse strokes,
// clicks, drags, wheel, keyboard shortcuts) over the viewport and the panels of a MainWindow
// whose simulation is running, for PLUME_MONKEY_SECONDS (default 60). The events go in
// through the window (QWindow-level QTest events, so shortcuts, focus, mouse grabs and popups
// behave as for a user). Throughout: no crash, no Qt warning, the simulation never fails (a
// blow-up is reported with its frame and message, and the scene is saved for replay), no
// modal dialog. At the end: undoing every edit gives back the scene the window started with,
// redo gives back the storm's end, and undo-all again gives the start once more.
//
// Environment: PLUME_MONKEY_SEED (default 1), PLUME_MONKEY_SECONDS (default 60),
// PLUME_MONKEY_VERBOSE=1 prints every action (to replay a failing seed).
#include <core/io/scenewriter.h>
#include <ui/document/document.h>
#include <ui/mainwindow/mainwindow.h>
#include <ui/simulation/simulationcontroller.h>
#include <ui/viewport/viewport.h>

#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFormLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QRandomGenerator>
#include <QScrollArea>
#include <QSlider>
#include <QStatusBar>
#include <QStyleOptionSlider>
#include <QToolBar>
#include <QUndoStack>
#include <QtTest>

#include <cmath>
#include <cstdio>
#include <deque>
#include <functional>

using namespace plume;

namespace {

QtMessageHandler gPrevious = nullptr;
QStringList gWarnings;

// Collects warnings and worse (as tst_ui_window does). The offscreen platform plugin warns
// that it cannot propagate size hints, raise windows or grab the mouse or keyboard ("This
// plugin does not support ..."): those are the test platform's, not ours.
void failOnWarning(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    const bool platformNoise = message.startsWith("This plugin does not support");
    if (type != QtDebugMsg && type != QtInfoMsg && !platformNoise)
        gWarnings << message;
    gPrevious(type, context, message);
}

int envInt(const char *name, int fallback)
{
    bool ok = false;
    const int v = qEnvironmentVariableIntValue(name, &ok);
    return ok ? v : fallback;
}

/// The first line where two texts differ, with a little context, for a failure message.
QString firstDifference(const QByteArray &expected, const QByteArray &actual)
{
    const QList<QByteArray> a = expected.split('\n');
    const QList<QByteArray> b = actual.split('\n');
    qsizetype n = 0;
    while (n < a.size() && n < b.size() && a[n] == b[n])
        ++n;
    QString out = QString("first difference at line %1:\n").arg(n + 1);
    for (qsizetype k = std::max<qsizetype>(0, n - 3); k < n + 4; ++k) {
        if (k < a.size())
            out += QString("  expected %1: %2\n").arg(k + 1).arg(QString::fromUtf8(a[k]));
        if (k < b.size())
            out += QString("  actual   %1: %2\n").arg(k + 1).arg(QString::fromUtf8(b[k]));
    }
    return out;
}

/// Drives one MainWindow with random input. All positions are window coordinates; every
/// event goes through the window's QWindow, as the windowing system would deliver it.
class Monkey
{
public:
    Monkey(MainWindow &window, quint32 seed)
        : mWindow(window)
        , mHandle(window.windowHandle())
        , mRng(seed)
    {}

    int events() const { return mEvents; }
    int actions() const { return mActions; }
    int edits() const { return mEdits; }
    const std::deque<QString> &recent() const { return mRecent; }
    bool verbose = false;

    /// One random action; returns its description.
    void act()
    {
        struct Choice
        {
            int weight;
            void (Monkey::*run)();
        };
        static const Choice choices[] = {
            {18, &Monkey::stroke},
            {10, &Monkey::toolKey},
            {4, &Monkey::ring},
            {8, &Monkey::clickShape},
            {3, &Monkey::dragScaleHandle},
            {3, &Monkey::deleteKey},
            {4, &Monkey::playKey},
            {2, &Monkey::stepKey},
            {8, &Monkey::undoKey},
            {5, &Monkey::redoKey},
            {3, &Monkey::scrub},
            {3, &Monkey::viewField},
            {1, &Monkey::viewOverlay},
            {4, &Monkey::wheelZoom},
            {3, &Monkey::middlePan},
            {2, &Monkey::fitKey},
            {4, &Monkey::outlinerClick},
            {2, &Monkey::outlinerCheck},
            {1, &Monkey::outlinerRename},
            {8, &Monkey::propertySpin},
            {2, &Monkey::toolOptionSpin},
            {3, &Monkey::toolbarButton},
            {2, &Monkey::keyDuringDrag},
            {1, &Monkey::resetKey},
        };
        int total = 0;
        for (const Choice &c : choices)
            total += c.weight;
        int r = pick(total);
        const Choice *chosen = &choices[0];
        for (const Choice &c : choices) {
            if (r < c.weight) {
                chosen = &c;
                break;
            }
            r -= c.weight;
        }
        QUndoStack *stack = mWindow.document()->undoStack();
        const int before = stack->index();
        mUndoing = false;
        mDescription.clear();
        (this->*chosen->run)();
        // A popup (menu, combo list) the action opened: say so, and close it as a user would.
        if (QWidget *popup = QApplication::activePopupWidget()) {
            note(QString("a popup opened (%1 '%2'), Escape")
                     .arg(popup->metaObject()->className(), popup->objectName()));
            key(Qt::Key_Escape);
        }
        ++mActions;
        if (!mUndoing && stack->index() > before)
            mEdits += stack->index() - before;
        remember(mDescription);
    }

    /// Mostly keeps the simulation running (it pauses on scrubs, steps and Space): clicks Play.
    void keepPlaying()
    {
        if (mWindow.simulation()->isPlaying() || !chance(0.4))
            return;
        mDescription.clear();
        mUndoing = false;
        auto *bar = mWindow.findChild<QToolBar *>("simulationToolBar");
        QAction *play = mWindow.action("actionPlay");
        QWidget *button = bar && play ? bar->widgetForAction(play) : nullptr;
        if (!button || !button->isVisible())
            return;
        click(toWindow(button, QPointF(button->width() / 2.0, button->height() / 2.0)));
        ++mActions;
        remember("toolbar Play (keep playing)");
    }

    /// Actions between two looks at the simulation.
    int burstSize() { return 1 + pick(10); }

    /// Lets go of any button still held (a dialog or a crash of our own bookkeeping).
    void releaseAll()
    {
        for (Qt::MouseButton b : {Qt::LeftButton, Qt::MiddleButton})
            if (mHeld & b)
                release(mLast, b);
    }

private:
    // --- randomness -----------------------------------------------------------------------
    int pick(int n) { return n <= 1 ? 0 : int(mRng.bounded(quint32(n))); }
    double uniform() { return mRng.generateDouble(); }
    bool chance(double p) { return uniform() < p; }

    void note(const QString &text)
    {
        if (!mDescription.isEmpty())
            mDescription += "; ";
        mDescription += text;
    }
    void remember(const QString &text)
    {
        const QString line = QString("#%1 %2").arg(mActions).arg(text);
        if (verbose)
            qInfo("monkey %s", qPrintable(line));
        mRecent.push_back(line);
        if (mRecent.size() > 30)
            mRecent.pop_front();
    }

    // --- raw input through the window ------------------------------------------------------
    QRect windowRect() const { return QRect(QPoint(0, 0), mWindow.size()).adjusted(1, 1, -2, -2); }
    QPoint clampToWindow(QPoint p) const
    {
        const QRect r = windowRect();
        return {std::clamp(p.x(), r.left(), r.right()), std::clamp(p.y(), r.top(), r.bottom())};
    }
    QPoint toWindow(const QWidget *w, QPointF local) const
    {
        return clampToWindow(w->mapTo(&mWindow, local.toPoint()));
    }
    void press(QPoint p, Qt::MouseButton b = Qt::LeftButton,
               Qt::KeyboardModifiers mods = Qt::NoModifier)
    {
        mLast = clampToWindow(p);
        mHeld |= b;
        QTest::mousePress(mHandle, b, mods, mLast);
        ++mEvents;
    }
    void move(QPoint p)
    {
        mLast = clampToWindow(p);
        QTest::mouseMove(mHandle, mLast);
        ++mEvents;
    }
    void release(QPoint p, Qt::MouseButton b = Qt::LeftButton,
                 Qt::KeyboardModifiers mods = Qt::NoModifier)
    {
        mLast = clampToWindow(p);
        mHeld &= ~b;
        QTest::mouseRelease(mHandle, b, mods, mLast);
        ++mEvents;
    }
    void click(QPoint p, Qt::MouseButton b = Qt::LeftButton)
    {
        move(p);
        press(p, b);
        release(p, b);
    }
    void doubleClick(QPoint p)
    {
        move(p);
        QTest::mouseDClick(mHandle, Qt::LeftButton, Qt::NoModifier, clampToWindow(p));
        mEvents += 4;
    }
    void key(Qt::Key k, Qt::KeyboardModifiers mods = Qt::NoModifier)
    {
        // Keys go to the focused window (the main window, or a popup/editor over it).
        QWindow *target = QGuiApplication::focusWindow() ? QGuiApplication::focusWindow() : mHandle;
        QTest::keyClick(target, k, mods);
        ++mEvents;
    }
    /// A spontaneous wheel event to the widget under `p` (QApplication passes it up to the
    /// first parent that takes it, as for a real wheel).
    void wheel(QPoint p, int delta)
    {
        p = clampToWindow(p);
        QWidget *target = mWindow.childAt(p);
        if (!target)
            target = &mWindow;
        QWheelEvent event(target->mapFrom(&mWindow, QPointF(p)), mWindow.mapToGlobal(QPointF(p)),
                          QPoint(), QPoint(0, delta), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QSpontaneKeyEvent::setSpontaneous(&event);
        QCoreApplication::sendEvent(target, &event);
        QCoreApplication::processEvents();
        ++mEvents;
    }

    // --- where things are ------------------------------------------------------------------
    Viewport *view() const { return mWindow.viewport(); }
    QWidget *dockWidget(const char *name) const
    {
        auto *dock = mWindow.findChild<QDockWidget *>(name);
        return dock ? dock->widget() : nullptr;
    }
    /// A point in the viewport, mostly over the domain.
    QPoint viewPoint()
    {
        Viewport *v = view();
        QRectF area = QRectF(v->rect()).adjusted(3, 3, -3, -3);
        const QRectF domain = v->domainRect().normalized();
        const QRectF over = area.intersected(
            domain.adjusted(-0.08 * domain.width(), -0.08 * domain.height(), 0.08 * domain.width(),
                            0.08 * domain.height()));
        const bool useDomain = chance(0.9) && over.width() > 10 && over.height() > 10;
        const QRectF r = useDomain ? over : area;
        return toWindow(v, QPointF(r.left() + uniform() * r.width(),
                                   r.top() + uniform() * r.height()));
    }
    QRect viewRectInWindow() const
    {
        return QRect(view()->mapTo(&mWindow, QPoint(0, 0)), view()->size()).adjusted(2, 2, -3, -3);
    }
    /// A random walk of `steps` moves from `from`, kept inside the viewport.
    QPoint walk(QPoint from, int steps, double speed)
    {
        const QRect r = viewRectInWindow();
        QPointF p = from;
        QPointF velocity((uniform() - 0.5) * 2 * speed, (uniform() - 0.5) * 2 * speed);
        for (int s = 0; s < steps; ++s) {
            velocity = 0.7 * velocity
                       + QPointF((uniform() - 0.5) * speed, (uniform() - 0.5) * speed);
            p += velocity;
            p.setX(std::clamp(p.x(), double(r.left()), double(r.right())));
            p.setY(std::clamp(p.y(), double(r.top()), double(r.bottom())));
            move(p.toPoint());
        }
        return p.toPoint();
    }
    QString toolName() const
    {
        for (const char *name : {"Select", "Emitter Brush", "Obstacle Brush", "Force Brush",
                                 "Eraser", "Circle", "Box", "Capsule"})
            if (QAction *a = mWindow.toolAction(name); a && a->isChecked())
                return name;
        return "?";
    }

    // --- actions ----------------------------------------------------------------------------
    void toolKey()
    {
        static const Qt::Key keys[] = {Qt::Key_E, Qt::Key_O, Qt::Key_W, Qt::Key_X,
                                       Qt::Key_C, Qt::Key_B, Qt::Key_K, Qt::Key_S};
        const Qt::Key k = keys[pick(8)];
        key(k);
        note(QString("key %1 -> tool %2").arg(QKeySequence(k).toString(), toolName()));
    }

    void stroke()
    {
        const QPoint a = viewPoint();
        const int steps = pick(4) == 0 ? 0 : 2 + pick(28);
        move(a);
        press(a);
        const QPoint b = walk(a, steps, 4 + 20 * uniform());
        release(b);
        note(QString("%1 stroke (%2,%3)->(%4,%5) %6 moves")
                 .arg(toolName())
                 .arg(a.x())
                 .arg(a.y())
                 .arg(b.x())
                 .arg(b.y())
                 .arg(steps));
    }

    /// A closed loop (an artist fencing a region off), mostly with the obstacle brush.
    void ring()
    {
        if (chance(0.6))
            key(Qt::Key_O);
        const QRect r = viewRectInWindow();
        const QPoint c = viewPoint();
        const double radius = 15 + 110 * uniform();
        const int steps = 16 + pick(24);
        const double start = 2 * M_PI * uniform();
        auto at = [&](int s) {
            const double a = start + 2 * M_PI * s / steps;
            const double wobble = 1 + 0.15 * (uniform() - 0.5);
            return QPoint(std::clamp(int(c.x() + radius * wobble * std::cos(a)), r.left(),
                                     r.right()),
                          std::clamp(int(c.y() + radius * wobble * std::sin(a)), r.top(),
                                     r.bottom()));
        };
        const QPoint a = at(0);
        move(a);
        press(a);
        for (int s = 1; s < steps; ++s)
            move(at(s));
        move(a);
        release(a);
        note(QString("%1 ring around (%2,%3), radius %4 px, %5 moves")
                 .arg(toolName())
                 .arg(c.x())
                 .arg(c.y())
                 .arg(int(radius))
                 .arg(steps));
    }

    /// A point on item `n`'s shape, in window coordinates.
    QPoint pointOnItem(int n)
    {
        const Item &item = mWindow.document()->scene().items[std::size_t(n)];
        const sim::Vec3 o = item.offset.at(view()->frameNumber());
        sim::Vec3 p;
        switch (item.shape.type) {
        case ShapeType::Capsule: p = (item.shape.start + item.shape.end) * 0.5f; break;
        case ShapeType::Stroke:
            p = item.shape.points.empty()
                    ? item.shape.centre
                    : item.shape.points[std::size_t(pick(int(item.shape.points.size())))].position;
            break;
        case ShapeType::Image: p = (item.shape.imageMin + item.shape.imageMax) * 0.5f; break;
        default: p = item.shape.centre; break;
        }
        return toWindow(view(), view()->toWidget(p + o));
    }

    void clickShape()
    {
        const int count = int(mWindow.document()->scene().items.size());
        const bool select = chance(0.6);
        if (select)
            key(Qt::Key_S);
        if (count == 0) {
            note("click shape: none");
            return;
        }
        const int n = pick(count);
        const QPoint a = pointOnItem(n);
        if (!viewRectInWindow().contains(a)) {
            key(Qt::Key_Home);
            note(QString("item %1 is out of sight: Home (fit)").arg(n));
            return;
        }
        move(a);
        press(a);
        const int steps = pick(3) == 0 ? 0 : 1 + pick(12);
        const QPoint b = walk(a, steps, 3 + 8 * uniform());
        release(b);
        note(QString("%1click item %2 with %3, %4 moves")
                 .arg(select ? "S, " : "")
                 .arg(n)
                 .arg(toolName())
                 .arg(steps));
    }

    void dragScaleHandle()
    {
        Document *doc = mWindow.document();
        const int sel = doc->selectedItem();
        if (sel < 0 || sel >= int(doc->scene().items.size())
            || doc->scene().items[std::size_t(sel)].shape.type == ShapeType::Everywhere) {
            note("scale handle: nothing selected");
            return;
        }
        key(Qt::Key_S);
        const QPoint a = toWindow(view(), view()->scaleHandle(sel));
        if (!viewRectInWindow().contains(a)) {
            key(Qt::Key_Home);
            note(QString("scale handle of item %1 is out of sight: Home (fit)").arg(sel));
            return;
        }
        move(a);
        press(a);
        const QPoint b = walk(a, 2 + pick(10), 2 + 10 * uniform());
        release(b);
        note(QString("S, drag scale handle of item %1").arg(sel));
    }

    void deleteKey()
    {
        key(Qt::Key_Delete);
        note("Delete");
    }
    void playKey()
    {
        key(Qt::Key_Space);
        note(QString("Space -> %1").arg(mWindow.simulation()->isPlaying() ? "playing" : "paused"));
    }
    void stepKey()
    {
        key(Qt::Key_Period);
        note("step (.)");
    }
    void undoKey()
    {
        mUndoing = true;
        const int n = 1 + (chance(0.3) ? pick(4) : 0);
        for (int k = 0; k < n; ++k)
            key(Qt::Key_Z, Qt::ControlModifier);
        note(QString("Ctrl+Z x%1").arg(n));
    }
    void redoKey()
    {
        mUndoing = true;
        const int n = 1 + (chance(0.3) ? pick(3) : 0);
        for (int k = 0; k < n; ++k)
            key(Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        note(QString("Ctrl+Shift+Z x%1").arg(n));
    }
    void resetKey()
    {
        key(Qt::Key_R, Qt::ControlModifier);
        note("Ctrl+R (simulation reset)");
    }
    void fitKey()
    {
        if (chance(0.5)) {
            key(Qt::Key_Home);
            note("Home (fit)");
        } else {
            key(Qt::Key_F);
            note("F (fit, if the viewport has focus)");
        }
    }

    void scrub()
    {
        auto *slider = dockWidget("timelineDock")
                           ? dockWidget("timelineDock")->findChild<QSlider *>()
                           : nullptr;
        if (!slider || !slider->isVisible()) {
            note("scrub: no timeline");
            return;
        }
        const double target = uniform();
        if (chance(0.7)) {
            // Drag the handle.
            QStyleOptionSlider opt;
            opt.initFrom(slider);
            opt.orientation = slider->orientation();
            opt.minimum = slider->minimum();
            opt.maximum = slider->maximum();
            opt.sliderPosition = slider->sliderPosition();
            opt.sliderValue = slider->value();
            opt.subControls = QStyle::SC_All;
            const QRect handle = slider->style()->subControlRect(QStyle::CC_Slider, &opt,
                                                                 QStyle::SC_SliderHandle, slider);
            const QPoint a = toWindow(slider, handle.center());
            const QPoint b = toWindow(slider,
                                      QPointF(target * slider->width(), handle.center().y()));
            move(a);
            press(a);
            const int steps = 2 + pick(6);
            for (int s = 1; s <= steps; ++s)
                move(a + (b - a) * s / steps);
            release(b);
            note(QString("scrub drag to %1 of %2").arg(slider->value()).arg(slider->maximum()));
        } else {
            const QPoint p = toWindow(slider,
                                      QPointF(target * slider->width(), slider->height() / 2));
            click(p);
            if (chance(0.5)) {
                const Qt::Key keys[] = {Qt::Key_Left, Qt::Key_Right,  Qt::Key_Home,
                                        Qt::Key_End,  Qt::Key_PageUp, Qt::Key_PageDown};
                key(keys[pick(6)]);
            }
            note(QString("scrub click -> %1 of %2").arg(slider->value()).arg(slider->maximum()));
        }
    }

    QMenu *viewMenu(const QString &title) const
    {
        for (QMenu *m : mWindow.menuBar()->findChildren<QMenu *>())
            if (m->title() == title)
                return m;
        return nullptr;
    }
    void viewField()
    {
        QMenu *fields = viewMenu("&Field");
        if (!fields || fields->actions().isEmpty()) {
            note("field: no menu");
            return;
        }
        QAction *a = fields->actions()[pick(int(fields->actions().size()))];
        a->trigger();
        note("View > Field > " + a->text());
    }
    void viewOverlay()
    {
        QMenu *menu = viewMenu("&View");
        QList<QAction *> overlays;
        for (QAction *a : menu ? menu->actions() : QList<QAction *>())
            if (a->isCheckable() && a->objectName().isEmpty())
                overlays << a; // the overlays (Quad/Volume views have names; 3D only)
        if (overlays.isEmpty()) {
            note("overlay: none");
            return;
        }
        QAction *a = overlays[pick(int(overlays.size()))];
        a->trigger();
        note(QString("View > %1 -> %2").arg(a->text()).arg(a->isChecked()));
    }

    void wheelZoom()
    {
        const QPoint p = viewPoint();
        move(p);
        const int notches = 1 + pick(3);
        const int sign = chance(0.5) ? 1 : -1;
        for (int k = 0; k < notches; ++k)
            wheel(p, sign * (chance(0.8) ? 120 : 40));
        note(QString("wheel %1 x%2 at (%3,%4)").arg(sign).arg(notches).arg(p.x()).arg(p.y()));
    }

    void middlePan()
    {
        const QPoint a = viewPoint();
        move(a);
        press(a, Qt::MiddleButton);
        const QPoint b = walk(a, 2 + pick(10), 3 + 12 * uniform());
        release(b, Qt::MiddleButton);
        note(QString("middle drag pan (%1,%2)->(%3,%4)")
                 .arg(a.x())
                 .arg(a.y())
                 .arg(b.x())
                 .arg(b.y()));
    }

    QListWidget *outliner() const
    {
        return qobject_cast<QListWidget *>(dockWidget("outlinerDock"));
    }
    /// A row of the outliner scrolled into view and its rectangle in window coordinates.
    bool outlinerRow(int *row, QRect *rect)
    {
        QListWidget *list = outliner();
        if (!list || list->count() == 0)
            return false;
        *row = pick(list->count());
        list->scrollToItem(list->item(*row));
        QCoreApplication::processEvents();
        const QRect r = list->visualItemRect(list->item(*row));
        if (r.isEmpty() || !list->viewport()->rect().intersects(r))
            return false;
        *rect = QRect(list->viewport()->mapTo(&mWindow, r.topLeft()), r.size());
        return true;
    }
    void outlinerClick()
    {
        int row = 0;
        QRect r;
        if (!outlinerRow(&row, &r)) {
            note("outliner click: no rows");
            return;
        }
        click(QPoint(r.left() + 30 + pick(std::max(1, r.width() - 40)), r.center().y()));
        note(QString("outliner click row %1").arg(row));
    }
    void outlinerCheck()
    {
        int row = 0;
        QRect r;
        if (!outlinerRow(&row, &r)) {
            note("outliner check: no rows");
            return;
        }
        // The check box sits at the row's left end.
        QListWidget *list = outliner();
        QStyleOptionViewItem opt;
        opt.initFrom(list);
        opt.rect = QRect(QPoint(0, 0), r.size());
        opt.features = QStyleOptionViewItem::HasCheckIndicator | QStyleOptionViewItem::HasDisplay;
        const QRect box = list->style()->subElementRect(QStyle::SE_ItemViewItemCheckIndicator, &opt,
                                                        list);
        const QPoint at = r.topLeft() + (box.isValid() ? box.center() : QPoint(10, r.height() / 2));
        click(at);
        note(QString("outliner check box row %1").arg(row));
    }
    void outlinerRename()
    {
        int row = 0;
        QRect r;
        if (!outlinerRow(&row, &r)) {
            note("outliner rename: no rows");
            return;
        }
        doubleClick(QPoint(r.left() + 40, r.center().y()));
        const QString name = QString("m%1").arg(pick(20));
        key(Qt::Key_A, Qt::ControlModifier);
        for (QChar c : name)
            key(Qt::Key(c.toUpper().unicode()));
        const bool commit = chance(0.7);
        key(commit ? Qt::Key_Return : Qt::Key_Escape);
        note(QString("outliner rename row %1 to '%2' %3")
                 .arg(row)
                 .arg(name)
                 .arg(commit ? "Enter" : "Escape"));
    }

    /// The form label of an editor (or of the row it sits in), for the log.
    static QString formLabel(QWidget *w)
    {
        for (QWidget *field = w; field && field->parentWidget(); field = field->parentWidget())
            if (auto *form = qobject_cast<QFormLayout *>(field->parentWidget()->layout()))
                if (auto *label = qobject_cast<QLabel *>(form->labelForField(field)))
                    return label->text();
        return "?";
    }

    /// Clicks into a spin box (text or arrow buttons) and steps it with keys or the wheel.
    void editSpinBox(QScrollArea *scroll, QWidget *panel, const QString &where)
    {
        QList<QAbstractSpinBox *> boxes;
        for (QAbstractSpinBox *b : panel->findChildren<QAbstractSpinBox *>())
            if (b->isEnabled())
                boxes << b;
        if (boxes.isEmpty()) {
            note(where + ": no spin boxes");
            return;
        }
        QAbstractSpinBox *box = boxes[pick(int(boxes.size()))];
        if (scroll) {
            scroll->ensureWidgetVisible(box); // as the user scrolls to it
            QCoreApplication::processEvents();
        }
        const QString label = formLabel(box);
        const QString before = box->text();
        const int how = pick(4);
        const int n = 1 + pick(3);
        const QPointF textAt(box->width() * 0.3, box->height() * 0.5);
        QString what;
        if (how == 0) {
            // The arrow buttons on the right.
            const bool up = chance(0.5);
            const QPoint p = toWindow(box,
                                      QPointF(box->width() - 7, box->height() * (up ? 0.3 : 0.75)));
            for (int k = 0; k < n; ++k)
                click(p);
            what = QString("%1 arrow x%2").arg(up ? "up" : "down").arg(n);
        } else if (how == 1) {
            const QPoint p = toWindow(box, textAt);
            move(p);
            const int sign = chance(0.5) ? 1 : -1;
            for (int k = 0; k < n; ++k)
                wheel(p, sign * 120);
            what = QString("wheel %1 x%2").arg(sign).arg(n);
        } else {
            click(toWindow(box, textAt));
            const Qt::Key keys[] = {Qt::Key_Up, Qt::Key_Down, Qt::Key_PageUp, Qt::Key_PageDown};
            const Qt::Key k = keys[chance(0.8) ? pick(2) : 2 + pick(2)];
            for (int j = 0; j < n; ++j)
                key(k);
            if (chance(0.3))
                key(Qt::Key_Return);
            what = QString("%1 x%2").arg(QKeySequence(k).toString()).arg(n);
        }
        note(QString("%1 '%2' (%3): %4 -> %5").arg(where, label, before, what, box->text()));
    }
    void propertySpin()
    {
        auto *scroll = qobject_cast<QScrollArea *>(dockWidget("propertiesDock"));
        if (!scroll || !scroll->widget()) {
            note("properties: none");
            return;
        }
        editSpinBox(scroll, scroll->widget(), "properties");
    }
    void toolOptionSpin()
    {
        QWidget *panel = dockWidget("toolOptionsDock");
        if (!panel) {
            note("tool options: none");
            return;
        }
        editSpinBox(nullptr, panel, "tool options");
    }

    void toolbarButton()
    {
        // Never the file buttons (New/Open/Save open dialogs).
        static const char *const allowed[] = {"actionPlay", "actionStep", "actionReset",
                                              "actionUndo", "actionRedo"};
        QList<QPair<QAction *, QToolBar *>> buttons;
        for (QToolBar *bar : mWindow.findChildren<QToolBar *>()) {
            for (QAction *a : bar->actions()) {
                const bool tool = bar->objectName() == "toolsToolBar";
                const bool ok = tool
                                || std::any_of(std::begin(allowed), std::end(allowed),
                                               [a](const char *n) { return a->objectName() == n; });
                QWidget *w = bar->widgetForAction(a);
                if (ok && w && w->isVisible())
                    buttons.append({a, bar});
            }
        }
        if (buttons.isEmpty()) {
            note("toolbar: no buttons");
            return;
        }
        const auto [a, bar] = buttons[pick(int(buttons.size()))];
        QWidget *w = bar->widgetForAction(a);
        if (a->objectName() == "actionUndo" || a->objectName() == "actionRedo")
            mUndoing = true;
        click(toWindow(w, QPointF(w->width() / 2.0, w->height() / 2.0)));
        note("toolbar button " + a->text());
    }

    /// A drag in the viewport with a key pressed in the middle of it (a user's Ctrl+Z, Delete
    /// or tool switch while the button is down).
    void keyDuringDrag()
    {
        const bool onShape = chance(0.6) && !mWindow.document()->scene().items.empty();
        if (onShape && chance(0.7))
            key(Qt::Key_S);
        QPoint a = onShape ? pointOnItem(pick(int(mWindow.document()->scene().items.size())))
                           : viewPoint();
        if (!viewRectInWindow().contains(a))
            a = viewPoint();
        move(a);
        press(a);
        const QPoint b = walk(a, 1 + pick(6), 4 + 10 * uniform());
        struct K
        {
            Qt::Key key;
            Qt::KeyboardModifiers mods;
            const char *name;
        };
        static const K keys[] = {
            {Qt::Key_Z, Qt::ControlModifier, "Ctrl+Z"},
            {Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier, "Ctrl+Shift+Z"},
            {Qt::Key_Delete, Qt::NoModifier, "Delete"},
            {Qt::Key_Escape, Qt::NoModifier, "Escape"},
            {Qt::Key_E, Qt::NoModifier, "E"},
            {Qt::Key_X, Qt::NoModifier, "X"},
            {Qt::Key_S, Qt::NoModifier, "S"},
            {Qt::Key_Space, Qt::NoModifier, "Space"},
        };
        const K &k = keys[pick(8)];
        const QString tool = toolName();
        key(k.key, k.mods);
        const QPoint c = walk(b, 1 + pick(6), 4 + 10 * uniform());
        release(c);
        note(QString("drag with %1 (%2 on a shape), %3 in the middle")
                 .arg(tool)
                 .arg(onShape ? "started" : "not started")
                 .arg(k.name));
    }

    MainWindow &mWindow;
    QWindow *mHandle;
    QRandomGenerator mRng;
    Qt::MouseButtons mHeld;
    QPoint mLast;
    int mEvents = 0;
    int mActions = 0;
    int mEdits = 0;
    bool mUndoing = false;
    QString mDescription;
    std::deque<QString> mRecent;
};

} // namespace

class TestUiMonkey : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("PlumeTests");
        QCoreApplication::setApplicationName("tst_ui_monkey");
        QSettings().clear();
    }

    // What the storm found first: an edit with the mouse button down (Delete, Ctrl+Z) while
    // the Select tool drags an item. The drag ends there; it never writes the dragged item's
    // shape onto the item that took its index, nor past the end of the item list.
    void editWhileDragging()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        window.openDefaultScene();
        window.simulation()->pause();
        Document *doc = window.document();
        Viewport *view = window.viewport();
        QWindow *handle = window.windowHandle();
        auto at = [&](float x, float y) {
            return view->mapTo(&window, view->toWidget({x, y, 0.f}).toPoint());
        };
        const Item source = doc->scene().items[0];   // the emitter disc at (0.5, 0.12)
        const Item obstacle = doc->scene().items[1]; // the obstacle disc at (0.5, 0.55)
        QTest::keyClick(handle, Qt::Key_S);

        // Delete the dragged item (index 0): the obstacle moves up to index 0 and keeps its
        // shape; undo brings the emitter back where the drag had put it.
        QTest::mousePress(handle, Qt::LeftButton, {}, at(0.5f, 0.12f));
        QTest::mouseMove(handle, at(0.55f, 0.12f));
        const Scene moved = doc->scene();
        QVERIFY(!(moved.items[0].shape == source.shape));
        QTest::keyClick(handle, Qt::Key_Delete);
        QTest::mouseMove(handle, at(0.6f, 0.15f));
        QTest::mouseRelease(handle, Qt::LeftButton, {}, at(0.6f, 0.15f));
        QCOMPARE(doc->scene().items.size(), std::size_t(1));
        QVERIFY(doc->scene().items[0] == obstacle);
        QTest::keyClick(handle, Qt::Key_Z, Qt::ControlModifier);
        QVERIFY(doc->scene() == moved);

        // Delete the last item while dragging it: nothing is written past the list.
        QTest::mousePress(handle, Qt::LeftButton, {}, at(0.5f, 0.55f));
        QTest::mouseMove(handle, at(0.45f, 0.55f));
        QTest::keyClick(handle, Qt::Key_Delete);
        QTest::mouseMove(handle, at(0.4f, 0.5f));
        QTest::mouseRelease(handle, Qt::LeftButton, {}, at(0.4f, 0.5f));
        QCOMPARE(doc->scene().items.size(), std::size_t(1));
        QTest::keyClick(handle, Qt::Key_Z, Qt::ControlModifier); // the deletion
        QCOMPARE(doc->scene().items.size(), std::size_t(2));
        QTest::keyClick(handle, Qt::Key_Z, Qt::ControlModifier); // the move before it
        QVERIFY(doc->scene() == moved);

        // Ctrl+Z in the middle of a drag undoes the move so far and ends the drag: the rest
        // of the drag does nothing, and the move can be redone.
        QTest::mousePress(handle, Qt::LeftButton, {}, at(0.5f, 0.55f));
        QTest::mouseMove(handle, at(0.55f, 0.6f));
        QVERIFY(!(doc->scene().items[1] == obstacle));
        QTest::keyClick(handle, Qt::Key_Z, Qt::ControlModifier);
        QVERIFY(doc->scene() == moved);
        QTest::mouseMove(handle, at(0.6f, 0.65f));
        QTest::mouseRelease(handle, Qt::LeftButton, {}, at(0.6f, 0.65f));
        QVERIFY(doc->scene() == moved);
        QVERIFY(doc->undoStack()->canRedo());
    }

    // What the storm's screenshot showed: the toolbar's Undo button carried the command's
    // name ("Undo Add obstacle capsule 3"), grew with it and pushed the last tool buttons
    // into the toolbar's overflow menu. The buttons stay put whatever the undo text.
    void toolButtonsStayOnTheToolbar()
    {
        MainWindow window;
        // The offscreen screen is 800 x 600 and a first start fits the window to it
        // (MainWindow::defaultGeometry): give it the room the toolbars need.
        window.resize(1200, 820);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.openDefaultScene();
        window.simulation()->pause();
        auto *tools = window.findChild<QToolBar *>("toolsToolBar");
        QVERIFY(tools);
        auto allShown = [&] {
            for (QAction *a : tools->actions())
                if (!tools->widgetForAction(a) || !tools->widgetForAction(a)->isVisible())
                    return false;
            return true;
        };
        QVERIFY(allShown());
        const int width = window.findChild<QToolBar *>("fileToolBar")->sizeHint().width();
        window.toolAction("Capsule")->trigger();
        Viewport *view = window.viewport();
        for (int n = 0; n < 12; ++n) {
            const QPoint a = view->toWidget({0.2f, 0.1f + 0.06f * n, 0.f}).toPoint();
            QTest::mousePress(view, Qt::LeftButton, {}, a);
            QTest::mouseMove(view, a + QPoint(30, 0));
            QTest::mouseRelease(view, Qt::LeftButton, {}, a + QPoint(30, 0));
        }
        QTest::qWait(50);
        QVERIFY(window.action("actionUndo")->text().contains("capsule"));
        QCOMPARE(window.findChild<QToolBar *>("fileToolBar")->sizeHint().width(), width);
        QVERIFY(allShown());
    }

    void storm()
    {
        const quint32 seed = quint32(envInt("PLUME_MONKEY_SEED", 1));
        const int seconds = std::max(1, envInt("PLUME_MONKEY_SECONDS", 60));
        gWarnings.clear();
        gPrevious = qInstallMessageHandler(failOnWarning);
        QStringList problems;
        {
            MainWindow window;
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            window.activateWindow();
            QVERIFY(QTest::qWaitForWindowActive(&window));
            window.openDefaultScene();
            Document *doc = window.document();
            SimulationController *sim = window.simulation();
            QVERIFY(sim->isPlaying());
            const Scene initial = doc->scene();

            // The solver's failures (blow-ups name the frame), as the status bar shows them.
            struct Failure
            {
                QString message;
                int cursor;
                int head;
                double seconds;
            };
            std::vector<Failure> failures;
            QElapsedTimer clock;
            connect(sim, &SimulationController::failed, &window, [&](const QString &message) {
                failures.push_back({message, sim->currentFrameNumber(), sim->headFrame(),
                                    clock.elapsed() / 1000.0});
            });

            // A modal dialog (or a popup) that appears anyway is closed and recorded.
            QStringList dialogs;
            QTimer watchdog;
            connect(&watchdog, &QTimer::timeout, [&] {
                if (QWidget *modal = QApplication::activeModalWidget()) {
                    QString text = modal->metaObject()->className() + QString(" '")
                                   + modal->windowTitle() + "'";
                    if (auto *box = qobject_cast<QMessageBox *>(modal))
                        text += ": " + box->text();
                    dialogs << text;
                    if (auto *dialog = qobject_cast<QDialog *>(modal))
                        dialog->reject();
                    else
                        modal->close();
                }
                if (QWidget *popup = QApplication::activePopupWidget())
                    popup->close();
            });
            watchdog.start(100);

            Monkey monkey(window, seed);
            monkey.verbose = qEnvironmentVariableIntValue("PLUME_MONKEY_VERBOSE") != 0;
            const int framesAtStart = sim->framesSimulated();
            std::size_t failuresSeen = 0;
            int blowUps = 0;
            clock.start();
            while (clock.elapsed() < qint64(seconds) * 1000) {
                for (int k = monkey.burstSize(); k > 0; --k)
                    monkey.act();
                monkey.keepPlaying();
                QTest::qWait(5);
                if (!window.isVisible()) {
                    problems << "the window closed";
                    break;
                }
                // Report each new failure with the frame, the message and what led to it; save
                // the scene for replay; reset the simulation so the storm goes on.
                while (failuresSeen < failures.size()) {
                    const Failure &f = failures[failuresSeen++];
                    const bool blowUp = f.message.contains("blew up");
                    blowUps += blowUp ? 1 : 0;
                    const QString file = QDir::temp().filePath(
                        QString("plume-monkey-seed%1-failure%2.plume").arg(seed).arg(failuresSeen));
                    QFile out(file);
                    if (out.open(QIODevice::WriteOnly))
                        out.write(sceneToJson(doc->scene(), {}));
                    QString report = QString("seed %1, %2 s, action %3: simulation %4 (shown "
                                             "frame %5, newest %6): %7\n  status bar: %8\n  "
                                             "scene saved to %9\n  last actions:\n")
                                         .arg(seed)
                                         .arg(f.seconds, 0, 'f', 1)
                                         .arg(monkey.actions())
                                         .arg(blowUp ? "blew up" : "failed")
                                         .arg(f.cursor)
                                         .arg(f.head)
                                         .arg(f.message)
                                         .arg(window.statusBar()->currentMessage(), file);
                    for (const QString &line : monkey.recent())
                        report += "    " + line + "\n";
                    std::fprintf(stderr, "%s", qPrintable(report));
                    if (problems.size() < 8)
                        problems << report;
                    window.action("actionReset")->trigger();
                    if (!sim->isPlaying())
                        sim->play();
                }
            }
            monkey.releaseAll();
            const double stormSeconds = clock.elapsed() / 1000.0;
            QTest::qWait(200);
            const int frames = sim->framesSimulated() - framesAtStart;

            // Undo every edit: the scene the window started with. Redo: the storm's end and
            // then the top of the stack; undo all again: the start once more.
            QUndoStack *stack = doc->undoStack();
            const Scene stormEnd = doc->scene();
            const int stormIndex = stack->index();
            auto same = [&](const Scene &expected, const char *what) {
                const QByteArray a = sceneToJson(expected, {});
                const QByteArray b = sceneToJson(doc->scene(), {});
                if (!(doc->scene() == expected) || a != b)
                    problems << QString("%1: the scene differs (seed %2)\n%3")
                                    .arg(what)
                                    .arg(seed)
                                    .arg(firstDifference(a, b));
            };
            while (stack->canUndo())
                stack->undo();
            QTest::qWait(20);
            same(initial, "undo all");
            for (int k = 0; k < stormIndex && stack->canRedo(); ++k)
                stack->redo();
            same(stormEnd, "redo to the storm's end");
            while (stack->canRedo())
                stack->redo();
            const Scene top = doc->scene();
            QTest::qWait(20);
            while (stack->canUndo())
                stack->undo();
            same(initial, "redo all, then undo all again");
            while (stack->canRedo())
                stack->redo();
            same(top, "redo all again");
            while (stack->canUndo())
                stack->undo();
            // The worker still simulates the scene the window started with: Reset, Play, and
            // new frames arrive.
            window.action("actionReset")->trigger();
            if (!sim->isPlaying())
                window.action("actionPlay")->trigger();
            if (!QTest::qWaitFor([&] { return sim->headFrame() >= 3; }, 20000))
                problems << QString("after the storm the simulation does not run on (newest "
                                    "frame %1, playing %2)")
                                .arg(sim->headFrame())
                                .arg(sim->isPlaying());
            // Failures that came with the undo/redo.
            for (std::size_t k = failuresSeen; k < failures.size(); ++k) {
                blowUps += failures[k].message.contains("blew up") ? 1 : 0;
                problems << QString("seed %1, after the storm (undo/redo): %2")
                                .arg(seed)
                                .arg(failures[k].message);
            }

            std::printf("ui_monkey: seed %u, %.1f s, %d input events in %d actions, %d edits "
                        "(undo stack %d, at %d after the storm), %d frames simulated, %d blow-ups, "
                        "%d other simulation failures, %d dialogs closed\n",
                        seed, stormSeconds, monkey.events(), monkey.actions(), monkey.edits(),
                        stack->count(), stormIndex, frames, blowUps, int(failures.size()) - blowUps,
                        int(dialogs.size()));
            std::fflush(stdout);
            for (const QString &d : dialogs)
                problems << "a modal dialog appeared (closed by the test): " + d;
            watchdog.stop();
            QVERIFY(window.close());
        }
        qInstallMessageHandler(gPrevious);
        if (!gWarnings.isEmpty())
            problems << "Qt warnings:\n  " + gWarnings.mid(0, 20).join("\n  ");
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join("\n")));
    }
};

QTEST_MAIN(TestUiMonkey)
#include "tst_ui_monkey.moc"
