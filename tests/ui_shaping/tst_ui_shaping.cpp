// SPDX-License-Identifier: Apache-2.0
// The shaping controls in the Properties dock (docs/look.md): a force field's mask, the
// confinement's length and mask and an emitter's noise are edited through undoable commands,
// invalid masks are not applied, and every editor has a tooltip with its unit. And the dock's
// wheel rule: scrolling over an editor that has no focus scrolls the dock instead of editing
// the scene.

#include <ui/document/animationstate.h>
#include <ui/document/document.h>
#include <ui/document/keyframes.h>
#include <ui/panels/propertiespanel.h>
#include <ui/simulation/framecache.h>
#include <ui/simulation/simulationcontroller.h>

#include <tests/common/uitest.h>

#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QScrollBar>
#include <QSpinBox>
#include <QTest>
#include <QToolButton>
#include <QUndoStack>
#include <QWheelEvent>

#include <memory>

using namespace plume;

namespace {

/// The editor of type T whose tooltip starts with `label` (the tooltip is "Label (unit): ...").
template<class T>
T *editor(QWidget *root, const QString &label)
{
    for (T *w : root->findChildren<T *>()) {
        const QString tip = w->toolTip();
        if (tip.startsWith(label + ":") || tip.startsWith(label + " ("))
            return w;
    }
    return nullptr;
}

Scene disturbedScene()
{
    Scene scene;
    Item f;
    f.name = "billows";
    f.kind = ItemKind::ForceField;
    f.shape.type = ShapeType::Everywhere;
    f.force.type = sim::ForceType::Disturbance;
    scene.items.push_back(f);
    scene.simulation.params.vorticity = 0.3f;
    return scene;
}

} // namespace

class TestUiShaping : public QObject
{
    Q_OBJECT

private slots:
    void wheelScrollsTheDockNotTheScene()
    {
        Document document;
        document.reset(disturbedScene(), {});
        PropertiesPanel panel(&document);
        panel.resize(320, 300);
        QVERIFY(test::showActive(panel));
        QComboBox *advection = editor<QComboBox>(&panel, "Advection");
        QVERIFY(advection);
        QVERIFY(!advection->hasFocus());
        QScrollBar *bar = panel.verticalScrollBar();
        QVERIFY(bar->maximum() > 0);
        const int index = advection->currentIndex();
        const int edits = document.undoStack()->count();
        const int top = bar->value();
        auto wheel = [&] {
            const QPointF at(advection->width() / 2.0, advection->height() / 2.0);
            QWheelEvent event(at, advection->mapToGlobal(at), QPoint(), QPoint(0, -120),
                              Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
            QApplication::sendEvent(advection, &event);
        };
        wheel();
        QCOMPARE(advection->currentIndex(), index);
        QCOMPARE(document.undoStack()->count(), edits);
        QVERIFY2(bar->value() > top, "the dock did not scroll");
        // Clicked into (focused), the wheel turns the value: an undoable edit as any other.
        QCOMPARE(advection->focusPolicy(), Qt::StrongFocus);
        advection->setFocus(Qt::MouseFocusReason);
        QVERIFY(advection->hasFocus());
        wheel();
        QVERIFY(advection->currentIndex() != index);
        QCOMPARE(document.undoStack()->count(), edits + 1);
    }

    void forceMaskEditsAreUndoable()
    {
        Document document;
        document.reset(disturbedScene(), {});
        document.setSelectedItem(0);
        PropertiesPanel panel(&document);
        auto mask = [&] { return document.scene().items[0].force.mask; };

        QComboBox *field = editor<QComboBox>(&panel, "Mask");
        QVERIFY(field);
        QCOMPARE(field->count(), 7);
        const int before = document.undoStack()->count();
        field->setCurrentIndex(int(sim::ControlField::Temperature));
        QCOMPARE(mask().field, sim::ControlField::Temperature);
        QCOMPARE(document.undoStack()->count(), before + 1);
        document.undoStack()->undo();
        QCOMPARE(mask().field, sim::ControlField::None);
        QCOMPARE(field->currentIndex(), 0); // the panel follows the document
        document.undoStack()->redo();
        QCOMPARE(field->currentIndex(), int(sim::ControlField::Temperature));

        auto *from = panel.findChild<QDoubleSpinBox *>("maskFrom");
        auto *to = panel.findChild<QDoubleSpinBox *>("maskTo");
        QVERIFY(from && to);
        from->setValue(0.1);
        QCOMPARE(mask().from, 0.1f);
        to->setValue(0.1); // from == to: refused
        QCOMPARE(mask().to, 1.f);

        QLineEdit *ramp = editor<QLineEdit>(&panel, "Mask ramp");
        QVERIFY(ramp);
        QCOMPARE(ramp->text(), QString("0 0, 1 1"));
        ramp->setText("0 0, 0.5 1, 1 0.25");
        Q_EMIT ramp->editingFinished();
        QCOMPARE(mask().ramp.keys.size(), std::size_t(3));
        QCOMPARE(mask().ramp.keys[2].value, 0.25f);
        const int edits = document.undoStack()->count();
        for (const char *bad : {"1 0, 0 1", "0 0, 1 2", "zero one", ""}) {
            ramp->setText(bad);
            Q_EMIT ramp->editingFinished();
            QCOMPARE(mask().ramp.keys.size(), std::size_t(3));
            QCOMPARE(ramp->text(), QString("0 0, 0.5 1, 1 0.25")); // back to the value
        }
        QCOMPARE(document.undoStack()->count(), edits);
        document.undoStack()->undo();
        QCOMPARE(mask().ramp, sim::Ramp{});
    }

    void confinementEditsAreUndoable()
    {
        Document document;
        document.reset(disturbedScene(), {});
        PropertiesPanel panel(&document);
        const sim::SimParams &p = document.scene().simulation.params;
        auto *length = panel.findChild<QDoubleSpinBox *>("vorticityLength");
        QVERIFY(length);
        length->setValue(0.02);
        QCOMPARE(p.vorticityLength, 0.02f);
        document.undoStack()->undo();
        QCOMPARE(document.scene().simulation.params.vorticityLength, 0.f);
        QComboBox *field = editor<QComboBox>(&panel, "Vorticity mask");
        QVERIFY(field);
        field->setCurrentIndex(int(sim::ControlField::Vorticity));
        QCOMPARE(document.scene().simulation.params.vorticityMask.field,
                 sim::ControlField::Vorticity);
        auto *to = panel.findChild<QDoubleSpinBox *>("vorticityMaskTo");
        QVERIFY(to);
        to->setValue(20.0);
        QCOMPARE(document.scene().simulation.params.vorticityMask.to, 20.f);
    }

    void tooltipsGiveUnits()
    {
        Document document;
        document.reset(disturbedScene(), {});
        document.setSelectedItem(0);
        PropertiesPanel panel(&document);
        auto tip = [&](const char *name) {
            auto *w = panel.findChild<QWidget *>(name);
            return w ? w->toolTip() : QString();
        };
        QVERIFY2(tip("maskFrom").contains("units/s"), qPrintable(tip("maskFrom")));
        QVERIFY2(tip("vorticityLength").startsWith("Vorticity length (units)"),
                 qPrintable(tip("vorticityLength")));
        QVERIFY(editor<QLineEdit>(&panel, "Mask ramp")->toolTip().contains("[0, 1]"));
        QVERIFY(editor<QComboBox>(&panel, "Type")->toolTip().contains("disturbance"));
        const auto scale = panel.findChildren<QDoubleSpinBox *>("scale");
        QVERIFY(!scale.isEmpty());
        QVERIFY2(scale.front()->toolTip().contains("disturbance block size"),
                 qPrintable(scale.front()->toolTip()));
    }

    // An emitter's noise: amplitude (keyable), size, speed and seed, each one undo step, with
    // units in the tooltips and the tables' ranges.
    void noiseEditsAreUndoable()
    {
        Scene scene;
        Item e;
        e.name = "torch";
        e.kind = ItemKind::Emitter;
        scene.items.push_back(e);
        Document document;
        document.reset(scene, {});
        document.setSelectedItem(0);
        PropertiesPanel panel(&document);
        auto noise = [&] { return document.scene().items[0].emitter.noise; };

        auto *amplitude = panel.findChild<QDoubleSpinBox *>("noiseAmplitude");
        auto *size = panel.findChild<QDoubleSpinBox *>("noiseSize");
        auto *speed = panel.findChild<QDoubleSpinBox *>("noiseSpeed");
        auto *seed = panel.findChild<QSpinBox *>("noiseSeed");
        QVERIFY(amplitude && size && speed && seed);
        QCOMPARE(amplitude->maximum(), 1.0);
        QCOMPARE(amplitude->minimum(), 0.0);
        QVERIFY(size->minimum() > 0.0);
        const int before = document.undoStack()->count();
        amplitude->setValue(0.6);
        QCOMPARE(noise().amplitude.value, 0.6f);
        size->setValue(0.08);
        QCOMPARE(noise().size, 0.08f);
        speed->setValue(2.5);
        QCOMPARE(noise().speed, 2.5f);
        seed->setValue(7);
        QCOMPARE(noise().seed, 7u);
        QCOMPARE(document.undoStack()->count(), before + 4);
        document.undoStack()->undo();
        QCOMPARE(noise().seed, 0u);
        QCOMPARE(seed->value(), 0); // the panel follows the document
        document.undoStack()->undo();
        document.undoStack()->undo();
        document.undoStack()->undo();
        QVERIFY(!noise().isSet());
        QCOMPARE(amplitude->value(), 0.0);

        // The amplitude is keyable: its key button keys it at the current frame.
        auto *key = panel.findChild<QToolButton *>("key_noiseAmplitude");
        QVERIFY(key);
        amplitude->setValue(0.4);
        document.animation()->setFrame(10);
        key->click();
        QVERIFY(noise().amplitude.isAnimated());
        QCOMPARE(keyFrames(document.scene().items[0], AnimProperty::EmitterNoiseAmplitude),
                 std::vector<double>{10.0});
        QCOMPARE(propertyLabel(AnimProperty::EmitterNoiseAmplitude), QString("Noise amplitude"));

        auto tip = [&](const char *name) {
            auto *w = panel.findChild<QWidget *>(name);
            return w ? w->toolTip() : QString();
        };
        QVERIFY2(tip("noiseSize").startsWith("Noise size (units)"), qPrintable(tip("noiseSize")));
        QVERIFY2(tip("noiseSpeed").contains("periods per second"), qPrintable(tip("noiseSpeed")));
        QVERIFY2(editor<QWidget>(&panel, "Noise amplitude"), "the amplitude row has a tooltip");
        QVERIFY(
            editor<QWidget>(&panel, "Noise amplitude")->toolTip().contains("fraction of the rate"));
    }

    // Choosing "shredding" gives a field without a mask a temperature mask, in the same undo
    // step; a field with a mask keeps it.
    // Upres (docs/upres.md): the factor is an undoable edit with a tooltip; the window simulates
    // without it until View > Preview Upres, then its frames hold the fine fields.
    void upresEditsAndPreview()
    {
        Document document;
        Scene scene;
        scene.domain.resolution = 24;
        Item e;
        e.name = "source";
        e.kind = ItemKind::Emitter;
        e.shape.type = ShapeType::Sphere;
        e.shape.centre = {0.5f, 0.2f, 0.f};
        e.shape.radius = 0.1f;
        e.emitter.density = 2.f;
        e.emitter.temperature = 3.f;
        scene.items.push_back(e);
        document.reset(scene, {});
        PropertiesPanel panel(&document);
        QSpinBox *factor = editor<QSpinBox>(&panel, "Upres factor");
        QVERIFY(factor);
        QVERIFY2(factor->toolTip().contains("fine cells per cell"), qPrintable(factor->toolTip()));
        factor->setValue(2);
        QCOMPARE(document.scene().simulation.params.upres.factor, 2);
        document.undoStack()->undo();
        QCOMPARE(document.scene().simulation.params.upres.factor, 1);
        document.undoStack()->redo();

        // The controller loads the document's scene on a reset, as the window's does.
        SimulationController sim(&document);
        document.reset(document.scene(), {});
        QCOMPARE(document.scene().simulation.params.upres.factor, 2);
        const sim::Int3 coarse = makeDomain(document.scene().domain).cells;
        auto stepped = [&] {
            const int before = sim.framesSimulated();
            sim.step();
            return QTest::qWaitFor([&] { return sim.framesSimulated() > before; }, 20000);
        };
        QVERIFY(stepped());
        QTRY_VERIFY(sim.currentFrame() && sim.currentFrame()->frame >= 1);
        QVERIFY(sim.currentFrame()->domain.cells == coarse);
        QVERIFY(!sim.previewUpres());
        sim.setPreviewUpres(true);
        QVERIFY(stepped());
        QTRY_VERIFY(sim.currentFrame() && sim.currentFrame()->frame >= 1
                    && sim.currentFrame()->domain.cells.x == 2 * coarse.x);
        const FramePtr frame = sim.currentFrame();
        QCOMPARE(frame->domain.cells.y, 2 * coarse.y);
        QCOMPARE(frame->fields[int(DisplayField::Density)].size().x, 2 * coarse.x);
    }

    void shreddingGetsATemperatureMask()
    {
        Document document;
        document.reset(disturbedScene(), {});
        document.setSelectedItem(0);
        auto panel = std::make_unique<PropertiesPanel>(&document);
        QComboBox *type = editor<QComboBox>(panel.get(), "Type");
        QVERIFY(type);
        QCOMPARE(type->count(), 7);
        QVERIFY(type->toolTip().contains("shredding"));
        const int before = document.undoStack()->count();
        type->setCurrentIndex(int(sim::ForceType::Shredding)); // rebuilds the panel
        const ForceSettings f = document.scene().items[0].force;
        QCOMPARE(f.type, sim::ForceType::Shredding);
        QVERIFY(f.mask == shreddingDefaultMask());
        QCOMPARE(document.undoStack()->count(), before + 1);
        document.undoStack()->undo();
        QCOMPARE(document.scene().items[0].force.type, sim::ForceType::Disturbance);
        QVERIFY(!document.scene().items[0].force.mask.active());
        // With a mask already set, the mask stays.
        QComboBox *field = editor<QComboBox>(panel.get(), "Mask");
        QVERIFY(field);
        field->setCurrentIndex(int(sim::ControlField::Flame));
        panel = std::make_unique<PropertiesPanel>(&document);
        editor<QComboBox>(panel.get(), "Type")->setCurrentIndex(int(sim::ForceType::Shredding));
        QCOMPARE(document.scene().items[0].force.mask.field, sim::ControlField::Flame);
    }
};

QTEST_MAIN(TestUiShaping)
#include "tst_ui_shaping.moc"
