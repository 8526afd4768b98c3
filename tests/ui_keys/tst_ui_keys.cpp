// SPDX-License-Identifier: Apache-2.0
// Keyframes in the app, driven like a user: the key buttons of the properties panel, the
// timeline's key strip (drag, Delete, interpolation menu), auto-key with the select tool, Insert
// Key, undo of each, and a save/load round trip of keys made in the app.
#include <core/io/scenereader.h>
#include <ui/document/animationstate.h>
#include <ui/document/document.h>
#include <ui/document/keyframes.h>
#include <ui/mainwindow/mainwindow.h>
#include <ui/panels/keybutton.h>
#include <ui/panels/keystrip.h>
#include <ui/panels/propertiespanel.h>
#include <ui/simulation/simulationcontroller.h>
#include <ui/tools/selecttool.h>
#include <ui/tools/tooloptions.h>
#include <ui/viewport/viewport.h>

#include <QAction>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QMenu>
#include <QTemporaryDir>
#include <QtTest>

#include <tests/common/uitest.h>

#include <cmath>
#include <numbers>

using namespace plume;
using plume::test::SelectView;
using plume::test::showActive;
using plume::test::turnView;

namespace {

using V = sim::Vec3;

/// One emitter disc at (0.5, 0.3) and one force field, 2D, 60 frames.
Scene testScene()
{
    Scene s;
    s.simulation.frameEnd = 60;
    Item e;
    e.name = "source";
    e.shape.centre = {0.5f, 0.3f, 0.5f};
    e.shape.radius = 0.1f;
    Item f;
    f.name = "wind";
    f.kind = ItemKind::ForceField;
    f.shape.type = ShapeType::Everywhere;
    s.items = {e, f};
    return s;
}

KeyButton *findKeyButton(QWidget *panel, const char *property)
{
    return panel->findChild<KeyButton *>(QString("key_%1").arg(property));
}

std::vector<double> offsetKeys(const Document &d, int item = 0)
{
    return keyFrames(d.scene().items[std::size_t(item)], AnimProperty::Offset);
}

} // namespace

class TestUiKeys : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("PlumeTests");
        QCoreApplication::setApplicationName("tst_ui_keys");
        QSettings().clear();
    }

    // The key operations on an item: exact frames and values, strict order kept.
    void keyOperations()
    {
        Item item;
        item.offset = Animated<V>(V{1.f, 2.f, 3.f});
        QVERIFY(!isAnimated(item, AnimProperty::Offset));
        setKey(item, AnimProperty::Offset, 20, {2.f, 0.f, 0.f});
        setKey(item, AnimProperty::Offset, 10, {1.f, 0.f, 0.f});
        setKey(item, AnimProperty::Offset, 30, {3.f, 0.f, 0.f});
        setKey(item, AnimProperty::Offset, 20, {4.f, 0.f, 0.f}); // replaces
        QCOMPARE(keyFrames(item, AnimProperty::Offset), (std::vector<double>{10, 20, 30}));
        QCOMPARE(valueAt(item, AnimProperty::Offset, 15).x, 2.5f);
        QVERIFY(hasKeyAt(item, AnimProperty::Offset, 20));
        QVERIFY(!hasKeyAt(item, AnimProperty::Offset, 21));
        // A move onto a staying key, or before frame 0, is refused and changes nothing.
        const Item before = item;
        QVERIFY(!moveKeys(item, AnimProperty::Offset, {10}, 10));
        QVERIFY(!moveKeys(item, AnimProperty::Offset, {10}, -11));
        QVERIFY(item == before);
        // Keys may pass each other when both move; order is kept by sorting.
        QVERIFY(moveKeys(item, AnimProperty::Offset, {10, 20}, 15));
        QCOMPARE(keyFrames(item, AnimProperty::Offset), (std::vector<double>{25, 30, 35}));
        QCOMPARE(valueAt(item, AnimProperty::Offset, 35).x, 4.f);
        QVERIFY(removeKey(item, AnimProperty::Offset, 30));
        QVERIFY(!removeKey(item, AnimProperty::Offset, 30));
        QVERIFY(removeKey(item, AnimProperty::Offset, 25));
        QVERIFY(removeKey(item, AnimProperty::Offset, 35));
        // The last key gone: constant at its value (the item stays where it was shown).
        QVERIFY(!isAnimated(item, AnimProperty::Offset));
        QCOMPARE(item.offset.value, (V{4.f, 0.f, 0.f}));
        // Floats use x.
        setKey(item, AnimProperty::EmitterRate, 5, {0.25f, 9.f, 9.f});
        QCOMPARE(item.emitter.rate.keys[0].value, 0.25f);
        setInterpolation(item, AnimProperty::EmitterRate, Interpolation::Smooth);
        QCOMPARE(item.emitter.rate.interpolation, Interpolation::Smooth);
        // Insert Key: the placement at the frame, keyed.
        item.rotation = Animated<V>(V{0.f, 0.f, 45.f});
        keyPlacement(item, 7);
        QCOMPARE(keyFrames(item, AnimProperty::Rotation), (std::vector<double>{7}));
        QCOMPARE(item.rotation.keys[0].value, (V{0.f, 0.f, 45.f}));
        QCOMPARE(item.scale.keys[0].value, (V{1.f, 1.f, 1.f}));
    }

    // The key button: a click sets a key of the shown value at the current frame, another on
    // that frame removes it; an edit of a keyed property is "changed" (orange) until keyed or
    // the frame changes; with auto-key an edit keys. Each key edit is one undo step.
    void keyButtons()
    {
        Document doc;
        doc.reset(testScene(), {});
        PropertiesPanel panel(&doc);
        panel.resize(420, 900);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        doc.setSelectedItem(0);
        AnimationState *anim = doc.animation();
        anim->setFrame(12);
        KeyButton *key = findKeyButton(&panel, "offset");
        QVERIFY(key);
        QVERIFY(findKeyButton(&panel, "rotation") && findKeyButton(&panel, "scale"));
        QVERIFY(findKeyButton(&panel, "rate"));
        QVERIFY(!findKeyButton(&panel, "strength")); // an emitter has no strength
        QCOMPARE(key->state(), KeyButton::State::Constant);

        QTest::mouseClick(key, Qt::LeftButton);
        QCOMPARE(offsetKeys(doc), std::vector<double>{12});
        QCOMPARE(doc.undoStack()->undoText(), QString("Set key: Offset at frame 12"));
        QCOMPARE(key->state(), KeyButton::State::Keyed);

        anim->setFrame(20);
        QCOMPARE(key->state(), KeyButton::State::Animated);
        // Edit x of the offset at frame 20: changed, the scene is not.
        auto *x = panel.findChildren<QDoubleSpinBox *>("offset").at(0);
        const Scene before = doc.scene();
        ToolOptions options;
        Viewport view(&doc, &options);
        view.resize(400, 400);
        view.fitToView();
        const QPointF handle = view.rotateHandle(0);
        x->setValue(0.2);
        QCOMPARE(key->state(), KeyButton::State::Changed);
        QVERIFY(doc.scene() == before);
        QCOMPARE(anim->shownValue(0, AnimProperty::Offset).x, 0.2f);
        // The viewport draws the item where the changed value puts it.
        QVERIFY(std::abs(view.rotateHandle(0).x() - handle.x() - 0.2 * view.pixelsPerUnit())
                < 0.01);
        // A frame change forgets the changed value.
        anim->setFrame(21);
        QCOMPARE(key->state(), KeyButton::State::Animated);
        QCOMPARE(x->value(), 0.0);
        anim->setFrame(20);
        x->setValue(0.2);
        QTest::mouseClick(key, Qt::LeftButton);
        QCOMPARE(offsetKeys(doc), (std::vector<double>{12, 20}));
        QCOMPARE(doc.scene().items[0].offset.keys[1].value.x, 0.2f);
        QCOMPARE(key->state(), KeyButton::State::Keyed);
        // Between the keys the editor shows the interpolated value; a frame change refreshes
        // only the keyframable editors (a name being typed stays).
        QLineEdit *name = nullptr;
        for (QLineEdit *edit : panel.findChildren<QLineEdit *>())
            if (edit->text() == "source")
                name = edit;
        QVERIFY(name);
        name->setText("sourc");
        anim->setFrame(16);
        QCOMPARE(x->value(), 0.1);
        QCOMPARE(name->text(), QString("sourc"));

        // Remove the key at 12; undo puts it back, redo takes it again.
        anim->setFrame(12);
        QTest::mouseClick(key, Qt::LeftButton);
        QCOMPARE(doc.undoStack()->undoText(), QString("Remove key: Offset at frame 12"));
        QCOMPARE(offsetKeys(doc), std::vector<double>{20});
        QCOMPARE(key->state(), KeyButton::State::Animated);
        doc.undoStack()->undo();
        QCOMPARE(offsetKeys(doc), (std::vector<double>{12, 20}));
        QCOMPARE(key->state(), KeyButton::State::Keyed);

        // Auto-key: an edit at frame 30 sets a key there.
        anim->setAutoKey(true);
        anim->setFrame(30);
        x->setValue(0.4);
        QCOMPARE(offsetKeys(doc), (std::vector<double>{12, 20, 30}));
        QCOMPARE(doc.undoStack()->undoText(), QString("Auto-key: Offset at frame 30"));
        // The emitter rate (a float) keys alike.
        auto *rate = panel.findChild<QDoubleSpinBox *>("rate");
        rate->setValue(0.5);
        QCOMPARE(doc.scene().items[0].emitter.rate.keys.size(), std::size_t(1));
        QCOMPARE(doc.scene().items[0].emitter.rate.keys[0].value, 0.5f);
        QCOMPARE(findKeyButton(&panel, "rate")->state(), KeyButton::State::Keyed);
        anim->setAutoKey(false);
        // Without auto-key a constant property changes its constant.
        auto *sx = panel.findChildren<QDoubleSpinBox *>("itemScale").at(0);
        sx->setValue(2.0);
        QVERIFY(!doc.scene().items[0].scale.isAnimated());
        QCOMPARE(doc.scene().items[0].scale.value.x, 2.f);

        // The force field's strength has its key button too.
        doc.setSelectedItem(1);
        QVERIFY(findKeyButton(&panel, "strength"));
        QVERIFY(!findKeyButton(&panel, "rate"));
        QTest::mouseClick(findKeyButton(&panel, "strength"), Qt::LeftButton);
        QCOMPARE(keyFrames(doc.scene().items[1], AnimProperty::ForceStrength),
                 std::vector<double>{30});
    }

    // The key strip: drag a key in time (one undo step), refused collisions stop short, the
    // summary row moves every key on its frame, Delete removes, the menu sets interpolation.
    void keyStrip()
    {
        Document doc;
        Scene scene = testScene();
        Item &item = scene.items[0];
        setKey(item, AnimProperty::Offset, 10, {0.f, 0.f, 0.f});
        setKey(item, AnimProperty::Offset, 20, {0.2f, 0.f, 0.f});
        setKey(item, AnimProperty::EmitterRate, 20, {0.5f, 0.f, 0.f});
        doc.reset(scene, {});
        KeyStrip strip(&doc);
        strip.resize(720, 100);
        strip.show();
        QVERIFY(QTest::qWaitForWindowExposed(&strip));
        strip.setItems({0});
        const int offsetRow = strip.rowOf(0, AnimProperty::Offset);
        const int rateRow = strip.rowOf(0, AnimProperty::EmitterRate);
        QVERIFY(offsetRow > 0 && rateRow > offsetRow);
        QCOMPARE(strip.rowOf(0, AnimProperty::Scale), -1);
        auto at = [&strip](int row, double frame) {
            return strip.keyPosition(row, frame).toPoint();
        };
        auto drag = [&strip](QPoint from, QPoint to, Qt::KeyboardModifiers mods = {}) {
            QTest::mousePress(&strip, Qt::LeftButton, mods, from);
            for (int s = 1; s <= 10; ++s)
                QTest::mouseMove(&strip, from + (to - from) * s / 10);
            QTest::mouseRelease(&strip, Qt::LeftButton, mods, to);
        };

        // Offset key 10 -> 15.
        drag(at(offsetRow, 10), at(offsetRow, 15));
        QCOMPARE(offsetKeys(doc), (std::vector<double>{15, 20}));
        QCOMPARE(doc.undoStack()->undoText(), QString("Move 1 key by +5 frames"));
        QCOMPARE(doc.undoStack()->count(), 1);
        // Onto the key at 20: stops one frame short.
        drag(at(offsetRow, 15), at(offsetRow, 25));
        QCOMPARE(offsetKeys(doc), (std::vector<double>{19, 20}));
        // The summary key at 20 holds the offset and the rate keys: both move.
        drag(at(0, 20), at(0, 26));
        QCOMPARE(offsetKeys(doc), (std::vector<double>{19, 26}));
        QCOMPARE(keyFrames(doc.scene().items[0], AnimProperty::EmitterRate),
                 std::vector<double>{26});
        doc.undoStack()->undo();
        QCOMPARE(offsetKeys(doc), (std::vector<double>{19, 20}));
        QCOMPARE(keyFrames(doc.scene().items[0], AnimProperty::EmitterRate),
                 std::vector<double>{20});

        // Click a key, Delete removes it (one step); undo restores.
        QTest::mouseClick(&strip, Qt::LeftButton, {}, at(offsetRow, 19));
        QCOMPARE(strip.selectedKeys().size(), std::size_t(1));
        QTest::keyClick(&strip, Qt::Key_Delete);
        QCOMPARE(offsetKeys(doc), std::vector<double>{20});
        QCOMPARE(doc.undoStack()->undoText(), QString("Delete 1 key"));
        doc.undoStack()->undo();
        QCOMPARE(offsetKeys(doc), (std::vector<double>{19, 20}));

        // Right-click a key, choose Smooth in the menu.
        QString menuSeen;
        QTimer::singleShot(100, [&menuSeen] {
            auto *menu = qobject_cast<QMenu *>(QApplication::activePopupWidget());
            if (!menu)
                return;
            for (QAction *a : menu->actions())
                if (a->text() == "Smooth") {
                    menuSeen = a->isChecked() ? "checked" : "unchecked";
                    QTest::mouseClick(menu, Qt::LeftButton, {}, menu->actionGeometry(a).center());
                }
        });
        const QPoint rk = at(rateRow, 20);
        QContextMenuEvent menuEvent(QContextMenuEvent::Mouse, rk, strip.mapToGlobal(rk));
        QApplication::sendEvent(&strip, &menuEvent);
        QCOMPARE(menuSeen, QString("unchecked"));
        QCOMPARE(doc.scene().items[0].emitter.rate.interpolation, Interpolation::Smooth);
        QCOMPARE(doc.scene().items[0].offset.interpolation, Interpolation::Linear);
        QCOMPARE(doc.undoStack()->undoText(), QString("Interpolation smooth: Emitter rate"));

        // A click beside the keys asks for the frame under it.
        QSignalSpy scrubbed(&strip, &KeyStrip::scrubbed);
        QTest::mouseClick(&strip, Qt::LeftButton, {}, at(offsetRow, 40) + QPoint(0, 0));
        QCOMPARE(scrubbed.size(), 1);
        QCOMPARE(scrubbed[0][0].toInt(), 40);
        QVERIFY(strip.selectedKeys().empty());
    }

    // In the window: N turns auto-key on; dragging the selected item with the select tool at
    // frame N keys its offset at N (the shape stays); Ctrl+Z takes the key away; I inserts a
    // placement key; Delete in the strip removes keys, not the item.
    void autoKeyMoveInWindow()
    {
        MainWindow window;
        QVERIFY(showActive(window));
        window.openDefaultScene();
        QTRY_VERIFY_WITH_TIMEOUT(window.simulation()->headFrame() >= 6, 30000);
        window.simulation()->pause();
        window.simulation()->scrub(5);
        Document *doc = window.document();
        QTRY_COMPARE(doc->animation()->frame(), 5);
        QCOMPARE(window.viewport()->frameNumber(), 5);
        const int undoBase = doc->undoStack()->count();

        window.viewport()->setFocus();
        QTest::keyClick(&window, Qt::Key_N);
        QVERIFY(doc->animation()->autoKey());
        QVERIFY(window.action("actionAutoKey")->isChecked());

        window.toolAction("Select")->trigger();
        Viewport *view = window.viewport();
        const Item original = doc->scene().items[1]; // the obstacle disc
        const QPoint c = view->toWidget({0.5f, 0.55f, 0.f}).toPoint();
        // A click selects and keys nothing.
        QTest::mouseClick(view, Qt::LeftButton, {}, c);
        QCOMPARE(doc->selectedItem(), 1);
        QCOMPARE(doc->undoStack()->count(), undoBase);
        QTest::mousePress(view, Qt::LeftButton, {}, c);
        for (int s = 1; s <= 10; ++s)
            QTest::mouseMove(view, c + QPoint(4 * s, 0));
        QTest::mouseRelease(view, Qt::LeftButton, {}, c + QPoint(40, 0));
        QCOMPARE(doc->selectedItem(), 1);
        const Item &moved = doc->scene().items[1];
        QVERIFY(moved.shape == original.shape);
        QCOMPARE(keyFrames(moved, AnimProperty::Offset), std::vector<double>{5});
        QVERIFY(std::abs(moved.offset.keys[0].value.x - 40.0 / view->pixelsPerUnit()) < 1e-3);
        QCOMPARE(doc->undoStack()->count(), undoBase + 1);
        QCOMPARE(doc->undoStack()->undoText(), QString("Auto-key: Offset at frame 5"));
        // Like every edit, the key acts from the frame shown: the frames after it go.
        QTRY_COMPARE(window.simulation()->headFrame(), 5);

        // The strip shows the key; Delete there removes the key, not the item.
        auto *strip = window.findChild<KeyStrip *>("keyStrip");
        QVERIFY(strip && strip->isVisible());
        const int row = strip->rowOf(1, AnimProperty::Offset);
        QVERIFY(row > 0);
        QTest::mouseClick(strip, Qt::LeftButton, {}, strip->keyPosition(row, 5).toPoint());
        QTest::keyClick(strip, Qt::Key_Delete);
        QCOMPARE(doc->scene().items.size(), std::size_t(2));
        QVERIFY(!doc->scene().items[1].offset.isAnimated());
        QTest::keyClick(&window, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(keyFrames(doc->scene().items[1], AnimProperty::Offset), std::vector<double>{5});
        // Ctrl+Z again: the move's key is gone, the item as before.
        QTest::keyClick(&window, Qt::Key_Z, Qt::ControlModifier);
        QVERIFY(doc->scene().items[1] == original);

        // I: offset, rotation and scale keyed at frame 5.
        view->setFocus();
        QTest::keyClick(&window, Qt::Key_I);
        for (AnimProperty p : kPlacement)
            QCOMPARE(keyFrames(doc->scene().items[1], p), std::vector<double>{5});
        QCOMPARE(doc->undoStack()->undoText(),
                 QString("Set key: Offset, Rotation, Scale at frame 5"));

        // Painting with auto-key: the new stroke is keyed at frame 5.
        window.toolAction("Emitter Brush")->trigger();
        const QPoint a = view->toWidget({0.2f, 0.8f, 0.f}).toPoint();
        QTest::mousePress(view, Qt::LeftButton, {}, a);
        for (int s = 1; s <= 10; ++s)
            QTest::mouseMove(view, a + QPoint(5 * s, 0));
        QTest::mouseRelease(view, Qt::LeftButton, {}, a + QPoint(50, 0));
        QCOMPARE(doc->scene().items.size(), std::size_t(3));
        QCOMPARE(keyFrames(doc->scene().items[2], AnimProperty::Offset), std::vector<double>{5});
        QTest::keyClick(&window, Qt::Key_N);
        QVERIFY(!doc->animation()->autoKey());
    }

    // Multi-selection and keys: with auto-key a drag of two selected items keys both offsets
    // at the current frame in one undo step; the key strip shows the keys of every selected
    // item; Insert Key keys every selected item; a constant edit in the panel reaches every
    // selected item that has the property.
    void keysOfManyItems()
    {
        MainWindow window;
        QVERIFY(showActive(window));
        window.openDefaultScene();
        QTRY_VERIFY_WITH_TIMEOUT(window.simulation()->headFrame() >= 4, 30000);
        window.simulation()->pause();
        window.simulation()->scrub(3);
        Document *doc = window.document();
        QTRY_COMPARE(doc->animation()->frame(), 3);
        QVERIFY(doc->scene().items.size() >= 2);
        const Item first = doc->scene().items[0];
        const Item second = doc->scene().items[1];
        doc->setSelection({0, 1}, 1);
        window.viewport()->setFocus();
        QTest::keyClick(&window, Qt::Key_N);
        QVERIFY(doc->animation()->autoKey());
        const int undoBase = doc->undoStack()->count();

        window.toolAction("Select")->trigger();
        Viewport *view = window.viewport();
        const QPoint c = view->toWidget({0.5f, 0.55f, 0.f}).toPoint(); // on the obstacle
        QTest::mousePress(view, Qt::LeftButton, {}, c);
        for (int s = 1; s <= 10; ++s)
            QTest::mouseMove(view, c + QPoint(3 * s, 0));
        QTest::mouseRelease(view, Qt::LeftButton, {}, c + QPoint(30, 0));
        QCOMPARE(doc->undoStack()->count(), undoBase + 1);
        QCOMPARE(doc->undoStack()->undoText(), QString("Auto-key: Move 2 Items at frame 3"));
        for (int i : {0, 1}) {
            const Item &item = doc->scene().items[std::size_t(i)];
            QCOMPARE(keyFrames(item, AnimProperty::Offset), std::vector<double>{3});
            const Item &before = i == 0 ? first : second;
            QVERIFY(item.shape == before.shape);
            QVERIFY(std::abs(item.offset.keys[0].value.x - before.offset.at(3).x
                             - 30.0 / view->pixelsPerUnit())
                    < 1e-3);
        }
        auto *strip = window.findChild<KeyStrip *>("keyStrip");
        QVERIFY(strip->rowOf(0, AnimProperty::Offset) > 0);
        QVERIFY(strip->rowOf(1, AnimProperty::Offset) > 0);
        QTest::keyClick(&window, Qt::Key_Z, Qt::ControlModifier);
        QVERIFY(doc->scene().items[0] == first);
        QVERIFY(doc->scene().items[1] == second);

        // I keys the placement of both.
        view->setFocus();
        QTest::keyClick(&window, Qt::Key_I);
        for (int i : {0, 1})
            for (AnimProperty p : kPlacement)
                QCOMPARE(keyFrames(doc->scene().items[std::size_t(i)], p), std::vector<double>{3});
        doc->undoStack()->undo();
        QVERIFY(doc->scene().items[0] == first);
        QVERIFY(doc->scene().items[1] == second);
        QTest::keyClick(&window, Qt::Key_N);
        QVERIFY(!doc->animation()->autoKey());

        // Without auto-key, a constant scale typed for the current item reaches both.
        doc->animation()->edit(1, AnimProperty::Scale, {2.f, 2.f, 1.f});
        for (int i : {0, 1})
            QVERIFY(doc->scene().items[std::size_t(i)].scale.value == (V{2.f, 2.f, 1.f}));
        QCOMPARE(doc->undoStack()->undoText(), QString("Change Scale"));
    }

    // Auto-key with the rotate and scale handles: a turn keys the rotation at the current
    // frame, a scale drag keys the scale; keys elsewhere keep their values. One step each.
    void autoKeyRotateScale()
    {
        Document doc;
        Scene scene = testScene();
        Item &box = scene.items[0];
        box.shape.type = ShapeType::Box;
        box.shape.centre = {0.5f, 0.5f, 0.5f};
        box.shape.halfSize = {0.2f, 0.05f, 0.1f};
        setKey(box, AnimProperty::Rotation, 0, {0.f, 0.f, 10.f});
        doc.reset(scene, {});
        doc.setSelectedItem(0);
        SelectView shown(&doc);
        QVERIFY(shown.show());
        Viewport &view = shown.view;
        doc.animation()->setFrame(8);
        doc.animation()->setAutoKey(true);
        const QPointF pivot = view.toWidget({0.5f, 0.5f, 0.5f});
        turnView(view, view.rotateHandle(0), pivot, 45.0, Qt::ShiftModifier);
        const Animated<V> &r = doc.scene().items[0].rotation;
        QCOMPARE(r.keys.size(), std::size_t(2));
        QCOMPARE(r.keys[0].value, (V{0.f, 0.f, 10.f})); // frame 0 untouched
        QCOMPARE(r.keys[1].frame, 8.0);
        QCOMPARE(r.keys[1].value, (V{0.f, 0.f, 55.f}));
        QCOMPARE(doc.undoStack()->undoText(), QString("Auto-key: Rotation at frame 8"));
        doc.undoStack()->undo();
        QCOMPARE(doc.scene().items[0].rotation.keys.size(), std::size_t(1));

        // Scale: drag the corner handle to twice its distance from the bounds' centre.
        const QPointF handle = view.scaleHandle(0);
        const QPointF centre = view.toWidget({0.5f, 0.5f, 0.5f});
        const QPointF to = centre + 2.0 * (handle - centre);
        QTest::mousePress(&view, Qt::LeftButton, {}, handle.toPoint());
        for (int s = 1; s <= 10; ++s)
            QTest::mouseMove(&view, (handle + (to - handle) * s / 10.0).toPoint());
        QTest::mouseRelease(&view, Qt::LeftButton, {}, to.toPoint());
        const Item &scaled = doc.scene().items[0];
        QCOMPARE(keyFrames(scaled, AnimProperty::Scale), std::vector<double>{8});
        QVERIFY2(std::abs(scaled.scale.keys[0].value.x - 2.f) < 0.02f,
                 qPrintable(QString::number(scaled.scale.keys[0].value.x)));
        QCOMPARE(scaled.scale.keys[0].value.x, scaled.scale.keys[0].value.y);
        QVERIFY(scaled.shape == scene.items[0].shape);
        QCOMPARE(doc.undoStack()->undoText(), QString("Auto-key: Scale at frame 8"));
    }

    // Keys made in the app survive a save and a load exactly.
    void saveLoadRoundTrip()
    {
        QTemporaryDir dir;
        Document doc;
        doc.reset(testScene(), {});
        AnimationState *anim = doc.animation();
        anim->setFrame(3);
        anim->setKeys(0, {AnimProperty::Offset, AnimProperty::EmitterRate});
        anim->setAutoKey(true);
        anim->setFrame(17);
        anim->edit(0, AnimProperty::Offset, {0.125f, -0.25f, 0.f});
        anim->edit(0, AnimProperty::Rotation, {0.f, 0.f, 30.f});
        anim->edit(1, AnimProperty::ForceStrength, {2.5f, 0.f, 0.f});
        Item edited = doc.scene().items[0];
        setInterpolation(edited, AnimProperty::Offset, Interpolation::Smooth);
        pushItemEdits(&doc, "smooth", {{0, edited}});
        const QString path = dir.filePath("keys.plume");
        QVERIFY(doc.save(path).ok());
        const SceneReadResult read = readSceneFile(path);
        QVERIFY2(read.ok, read.error.c_str());
        QCOMPARE(read.scene.items.size(), std::size_t(2));
        for (std::size_t i = 0; i < 2; ++i) {
            const Item &a = doc.scene().items[i], &b = read.scene.items[i];
            QVERIFY(a.offset == b.offset);
            QVERIFY(a.rotation == b.rotation);
            QVERIFY(a.scale == b.scale);
            QVERIFY(a.emitter.rate == b.emitter.rate);
            QVERIFY(a.force.strength == b.force.strength);
        }
        QCOMPARE(read.scene.items[0].offset.keys.size(), std::size_t(2));
        QCOMPARE(read.scene.items[0].offset.interpolation, Interpolation::Smooth);
        QCOMPARE(read.scene.items[1].force.strength.keys[0].frame, 17.0);
    }
};

QTEST_MAIN(TestUiKeys)
#include "tst_ui_keys.moc"
