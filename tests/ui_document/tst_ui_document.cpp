// The document layer: undo commands restore the scene exactly, drags merge into one step,
// the eraser splits strokes, and the simulation runner's replay gives the same bytes.
#include <document/document.h>
#include <document/shapeedit.h>
#include <document/undocommands.h>
#include <io/scenereader.h>
#include <simulation/framecache.h>
#include <simulation/simulationrunner.h>

#include <QtTest>

#include <cstring>

using namespace plume;

namespace {

Scene exampleScene()
{
    SceneReadResult r = readSceneFile(PLUME_SOURCE_DIR "/resources/scenes/plume-2d.plume");
    if (!r.ok)
        qFatal("%s", r.error.c_str());
    return r.scene;
}

Item strokeItem(const std::string &name, ItemKind kind, int points)
{
    Item item;
    item.name = name;
    item.kind = kind;
    item.shape.type = ShapeType::Stroke;
    for (int n = 0; n < points; ++n) {
        StrokePoint p;
        p.position = {0.2f + 0.05f * float(n), 0.3f, 0.5f};
        p.radius = 0.02f;
        p.pressure = 0.75f;
        item.shape.points.push_back(p);
    }
    return item;
}

bool sameField(const sim::ScalarGrid &a, const sim::ScalarGrid &b)
{
    return a.count() == b.count()
           && std::memcmp(a.data(), b.data(), a.count() * sizeof(float)) == 0;
}

} // namespace

class TestUiDocument : public QObject
{
    Q_OBJECT

private slots:
    // Every kind of edit, then undo back to the start and redo to the end: the scene equals the
    // snapshot taken after each step, in both directions (Scene's operator== compares every
    // field, unknown keys included).
    void undoRedoRestoresExactly()
    {
        Document doc;
        doc.reset(exampleScene(), {});
        QUndoStack *stack = doc.undoStack();
        std::vector<Scene> snapshots{doc.scene()};
        auto record = [&] { snapshots.push_back(doc.scene()); };

        stack->push(new AddItem(&doc, 2, strokeItem("wall", ItemKind::Obstacle, 5)));
        record();
        Shape moved = translatedShape(doc.scene().items[0].shape, {0.1f, -0.05f, 0.f});
        stack->push(new ChangeValue<values::ItemShape>(&doc, 0, moved));
        record();
        stack->push(new ChangeValue<values::ItemEnabled>(&doc, 1, false));
        record();
        DomainSettings domain = doc.scene().domain;
        domain.resolution = 96;
        stack->push(new ChangeValue<values::SceneDomain>(&doc, -1, domain));
        record();
        SimulationSettings settings = doc.scene().simulation;
        settings.params.viscosity = 0.001f;
        settings.time.substeps = 3;
        stack->push(new ChangeValue<values::SceneSimulation>(&doc, -1, settings));
        record();
        stack->push(new RemoveItem(&doc, 0));
        record();
        auto *macro = new QUndoCommand("Erase");
        Shape first = doc.scene().items[1].shape;
        first.points.resize(2);
        new ChangeValue<values::ItemShape>(&doc, 1, first, MergeId::None, 0, macro);
        new AddItem(&doc, 2, strokeItem("wall 2", ItemKind::Obstacle, 2), macro);
        stack->push(macro);
        record();

        QCOMPARE(stack->count(), int(snapshots.size()) - 1);
        QVERIFY(doc.isModified());
        for (int n = int(snapshots.size()) - 2; n >= 0; --n) {
            stack->undo();
            QVERIFY2(doc.scene() == snapshots[std::size_t(n)], qPrintable(QString::number(n)));
        }
        QVERIFY(!doc.isModified());
        for (std::size_t n = 1; n < snapshots.size(); ++n) {
            stack->redo();
            QVERIFY2(doc.scene() == snapshots[n], qPrintable(QString::number(n)));
        }
    }

    // Commands of one drag (same merge key) are one undo step; a new drag is a new step.
    void dragMergesIntoOneStep()
    {
        Document doc;
        doc.reset(exampleScene(), {});
        const Shape original = doc.scene().items[0].shape;
        for (int n = 1; n <= 5; ++n)
            doc.undoStack()->push(new ChangeValue<values::ItemShape>(
                &doc, 0, translatedShape(original, {0.01f * float(n), 0.f, 0.f}),
                MergeId::MoveItem, 1));
        QCOMPARE(doc.undoStack()->count(), 1);
        doc.undoStack()->push(new ChangeValue<values::ItemShape>(
            &doc, 0, translatedShape(original, {0.f, 0.1f, 0.f}), MergeId::MoveItem, 2));
        QCOMPARE(doc.undoStack()->count(), 2);
        doc.undoStack()->undo();
        doc.undoStack()->undo();
        QVERIFY(doc.scene().items[0].shape == original);
    }

    void selectionFollowsInsertAndRemove()
    {
        Document doc;
        doc.reset(exampleScene(), {});
        doc.setSelectedItem(1);
        doc.undoStack()->push(new AddItem(&doc, 0, strokeItem("a", ItemKind::Emitter, 2)));
        QCOMPARE(doc.selectedItem(), 2);
        doc.undoStack()->push(new RemoveItem(&doc, 2));
        QCOMPARE(doc.selectedItem(), -1);
        QCOMPARE(doc.uniqueItemName("source"), std::string("source 2"));
    }

    // An eraser disc over the middle of a stroke leaves two runs; one missing it leaves it.
    void eraserSplitsStroke()
    {
        const Item item = strokeItem("s", ItemKind::Obstacle, 7); // x = 0.20 ... 0.50
        auto runs = eraseStrokePoints(item.shape.points, {0.35f, 0.3f, 0.5f}, 0.03f);
        QCOMPARE(runs.size(), std::size_t(2));
        QCOMPARE(runs[0].size(), std::size_t(3)); // 0.20 0.25 0.30
        QCOMPARE(runs[1].size(), std::size_t(3)); // 0.40 0.45 0.50
        runs = eraseStrokePoints(item.shape.points, {0.35f, 0.8f, 0.5f}, 0.03f);
        QCOMPARE(runs.size(), std::size_t(1));
        QCOMPARE(runs[0].size(), item.shape.points.size());
    }

    // Live edits, then an edit on an earlier frame: the runner re-simulates up to that frame
    // from its recorded scene versions, and frame 12 comes out with the same bytes as before
    // (the edit re-applies the same scene, so nothing may change).
    void replayAfterScrubBackIsExact()
    {
        Scene scene = exampleScene();
        scene.domain.resolution = 48;
        auto cache = std::make_shared<FrameCache>();
        SimulationRunner runner(cache);
        int head = 0;
        connect(&runner, &SimulationRunner::headChanged, this, [&](int f) { head = f; });
        // Single steps, so the frames edits land on do not depend on timing.
        auto stepTo = [&](int frame) {
            while (head < frame) {
                const int was = head;
                runner.step();
                QTRY_VERIFY_WITH_TIMEOUT(head == was + 1, 20000);
            }
        };
        runner.load(scene);
        QCOMPARE(head, 0);
        stepTo(5);
        Scene edited = scene;
        edited.items.push_back(strokeItem("wall", ItemKind::Obstacle, 4));
        runner.setScene(edited, 5); // acts from frame 6 on, no reset
        stepTo(12);
        const FramePtr before = cache->at(12);
        QVERIFY(before);
        // The wall blocks: its cells are solid in frames after the edit, not before.
        QVERIFY(cache->at(6)->solids.isSolid(12, 14, 0));
        QVERIFY(!cache->at(5)->solids.isSolid(12, 14, 0));

        runner.setScene(edited, 8);
        QCOMPARE(head, 8);
        QVERIFY(!cache->contains(9));
        stepTo(12);
        const FramePtr after = cache->at(12);
        QVERIFY(after && after != before);
        for (int f = 0; f < int(DisplayField::Count); ++f)
            QVERIFY2(sameField(before->fields[f], after->fields[f]), qPrintable(QString::number(f)));
    }
};

QTEST_MAIN(TestUiDocument)
#include "tst_ui_document.moc"
