// SPDX-License-Identifier: Apache-2.0
// The document layer: undo commands restore the scene exactly, drags merge into one step,
// the eraser splits strokes, the simulation runner's replay gives the same bytes, and Save As
// into another folder keeps image masks found.
#include <core/bake/baker.h>
#include <core/io/scenereader.h>
#include <core/io/scenewriter.h>
#include <core/scene/rasterize.h>
#include <ui/document/document.h>
#include <ui/document/shapeedit.h>
#include <ui/document/undocommands.h>
#include <ui/simulation/framecache.h>
#include <ui/simulation/simulationrunner.h>

#include <QImage>
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
    // Empty fields (no dye) have no data pointer, and memcmp must not be given a null one.
    return a.count() == b.count()
           && (a.count() == 0 || std::memcmp(a.data(), b.data(), a.count() * sizeof(float)) == 0);
}

/// A small 2D scene whose one emitter is an image mask, "images/mask.png" next to the scene
/// file `dir`/scene.plume, read back from that file (so its directory is `dir`).
Scene imageMaskScene(const QString &dir)
{
    QDir(dir).mkpath("images");
    QImage mask(16, 8, QImage::Format_ARGB32);
    for (int y = 0; y < mask.height(); ++y)
        for (int x = 0; x < mask.width(); ++x)
            mask.setPixel(x, y, qRgba(255, 255, 255, (x * 16 + y * 8) % 256));
    if (!mask.save(dir + "/images/mask.png"))
        qFatal("cannot write the mask image");
    Scene scene;
    scene.name = "mask";
    scene.directory = dir.toStdString();
    scene.domain.resolution = 32;
    scene.domain.boundaries[std::size_t(sim::Face::YMax)] = sim::Boundary::Open;
    scene.simulation.frameEnd = 4;
    Item item;
    item.name = "mask";
    item.shape.type = ShapeType::Image;
    item.shape.file = "images/mask.png";
    item.shape.imageMin = {0.2f, 0.1f, 0.f};
    item.shape.imageMax = {0.8f, 0.4f, 0.f};
    item.shape.channel = ImageChannel::Alpha;
    item.emitter.dye = {0.2f, 0.6f, 1.f};
    scene.items.push_back(item);
    const QString path = dir + "/scene.plume";
    if (sim::Status st = writeSceneFile(scene, path); !st)
        qFatal("%s", st.error.c_str());
    SceneReadResult r = readSceneFile(path);
    if (!r.ok)
        qFatal("%s", r.error.c_str());
    return r.scene;
}

/// What the scene simulates and exports: the emitters' masks at frame 3, then the bytes of
/// the PNG its bake writes for frame 3. Empty, with the reason in `error`, when it fails.
QByteArray simulateAndExport(const Scene &scene, QString *error)
{
    SceneSetup setup;
    if (sim::Status st = rasterizeScene(scene, 3.0, setup); !st) {
        *error = QString::fromStdString(st.error);
        return {};
    }
    QByteArray bytes;
    for (const sim::Emitter &e : setup.emitters) {
        bytes.append(reinterpret_cast<const char *>(e.mask.cells.data()),
                     qsizetype(e.mask.cells.size() * sizeof(std::uint32_t)));
        bytes.append(reinterpret_cast<const char *>(e.mask.weights.data()),
                     qsizetype(e.mask.weights.size() * sizeof(float)));
    }
    QTemporaryDir out;
    BakeSettings settings;
    settings.outputDirectory = out.path().toStdString();
    settings.baseName = "frame";
    settings.firstFrame = settings.lastFrame = 3;
    settings.vdb = false;
    settings.render.width = settings.render.height = 32;
    settings.images.enabled = true;
    const BakeResult result = bakeScene(scene, settings);
    if (!result.status || result.files.size() != 1) {
        *error = QString::fromStdString(result.status.error);
        return {};
    }
    QFile png(QString::fromStdString(result.files.front().string()));
    if (!png.open(QIODevice::ReadOnly)) {
        *error = png.errorString();
        return {};
    }
    return bytes + png.readAll();
}

/// A runner on its own cache, stepped one frame at a time, so that the frames edits land on do
/// not depend on timing.
struct SteppedRunner
{
    std::shared_ptr<FrameCache> cache = std::make_shared<FrameCache>();
    SimulationRunner runner{cache};
    int head = 0;

    SteppedRunner()
    {
        QObject::connect(&runner, &SimulationRunner::headChanged, &runner,
                         [this](int f) { head = f; });
    }
    /// Steps until the head reaches `frame`; false when a step takes more than 20 s.
    bool stepTo(int frame)
    {
        while (head < frame) {
            const int was = head;
            runner.step();
            if (!QTest::qWaitFor([&] { return head == was + 1; }, 20000))
                return false;
        }
        return true;
    }
};

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
                &doc, 0, translatedShape(original, {0.01f * float(n), 0.f, 0.f}), MergeId::MoveItem,
                1));
        QCOMPARE(doc.undoStack()->count(), 1);
        doc.undoStack()->push(
            new ChangeValue<values::ItemShape>(&doc, 0, translatedShape(original, {0.f, 0.1f, 0.f}),
                                               MergeId::MoveItem, 2));
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
        SteppedRunner r;
        const std::shared_ptr<FrameCache> &cache = r.cache;
        r.runner.load(scene);
        QCOMPARE(r.head, 0);
        QVERIFY(r.stepTo(5));
        Scene edited = scene;
        edited.items.push_back(strokeItem("wall", ItemKind::Obstacle, 4));
        r.runner.setScene(edited, 5); // acts from frame 6 on, no reset
        QVERIFY(r.stepTo(12));
        const FramePtr before = cache->at(12);
        QVERIFY(before);
        // The wall blocks: its cells are solid in frames after the edit, not before.
        QVERIFY(cache->at(6)->solids.isSolid(12, 14, 0));
        QVERIFY(!cache->at(5)->solids.isSolid(12, 14, 0));

        r.runner.setScene(edited, 8);
        QCOMPARE(r.head, 8);
        QVERIFY(!cache->contains(9));
        QVERIFY(r.stepTo(12));
        const FramePtr after = cache->at(12);
        QVERIFY(after && after != before);
        for (int f = 0; f < int(DisplayField::Count); ++f)
            QVERIFY2(sameField(before->fields[f], after->fields[f]),
                     qPrintable(QString::number(f)));
    }

    // Switching the adaptive domain (docs/adaptive.md) rebuilds the grids: the runner starts
    // again from frame 0, and its frames are those of a runner loaded with the new setting.
    void adaptiveSwitchStartsAgain()
    {
        Scene scene = exampleScene();
        scene.domain.resolution = 48;
        Scene adaptive = scene;
        adaptive.simulation.params.adaptiveDomain = true;
        // Frame 8, or null when a wait times out.
        auto framesOf = [&](const Scene &first, const Scene *then) -> FramePtr {
            SteppedRunner r;
            r.runner.load(first);
            if (!r.stepTo(5))
                return nullptr;
            if (then) {
                r.runner.setScene(*then, 5);
                if (!QTest::qWaitFor([&] { return r.head == 0; }, 20000) || r.cache->contains(5))
                    return nullptr;
            }
            return r.stepTo(8) ? r.cache->at(8) : nullptr;
        };
        const FramePtr switched = framesOf(scene, &adaptive);
        const FramePtr fresh = framesOf(adaptive, nullptr);
        const FramePtr dense = framesOf(scene, nullptr);
        QVERIFY(switched && fresh && dense);
        const int density = int(DisplayField::Density);
        QVERIFY(sameField(switched->fields[density], fresh->fields[density]));
        QVERIFY(!sameField(switched->fields[density], dense->fields[density]));
        // The frames say how much of the domain the box held (the status bar shows it).
        QVERIFY(switched->activeShare > 0.0 && switched->activeShare < 1.0);
        QCOMPARE(switched->activeShare, fresh->activeShare);
        QCOMPARE(dense->activeShare, 1.0);
    }

    // The adaptive domain takes up to 1024^3 cells, but the window keeps whole volumes: past
    // 512^3 the runner says so (before allocating anything) and points to plume-cli bake.
    void windowRefusesPast512Cubed()
    {
        Scene scene = exampleScene();
        scene.domain.dimension = Dimension::ThreeD;
        scene.domain.size = {1.f, 1.f, 1.f};
        scene.domain.resolution = 600;
        scene.simulation.params.adaptiveDomain = true;
        QVERIFY(checkScene(scene).ok());
        SteppedRunner r;
        QString message;
        QObject::connect(&r.runner, &SimulationRunner::failed, &r.runner,
                         [&](const QString &m) { message = m; });
        r.runner.load(scene);
        QVERIFY2(message.contains("the window simulates at most 512^3 cells")
                     && message.contains("600 x 600 x 600") && message.contains("plume-cli bake"),
                 qPrintable(message));
    }

    // Save As into another folder: the image mask's path is rewritten in the file, and the open
    // document follows (its directory and its paths, the undo stack's too), so it simulates and
    // exports exactly as before, after an edit and its undo as well; the saved file reopens to
    // the same scene. A save that fails changes nothing.
    void saveAsElsewhereKeepsImageMasks()
    {
        QTemporaryDir first;
        QTemporaryDir second;
        QVERIFY(first.isValid() && second.isValid());
        Document doc;
        doc.reset(imageMaskScene(first.path()), first.filePath("scene.plume"));
        QString error;
        const QByteArray before = simulateAndExport(doc.scene(), &error);
        QVERIFY2(!before.isEmpty(), qPrintable(error));

        // An edit before the save: undoing it afterwards must find the image too.
        const Shape original = doc.scene().items[0].shape;
        doc.undoStack()->push(
            new ChangeValue<values::ItemShape>(&doc, 0,
                                               translatedShape(original, {0.05f, 0.f, 0.f})));
        const QByteArray moved = simulateAndExport(doc.scene(), &error);
        QVERIFY2(!moved.isEmpty(), qPrintable(error));

        QVERIFY(QDir(second.path()).mkpath("elsewhere/deeper"));
        const QString path = second.filePath("elsewhere/deeper/saved.plume");
        QVERIFY(doc.save(path).ok());
        QCOMPARE(doc.filePath(), path);
        QCOMPARE(QString::fromStdString(doc.scene().directory), QFileInfo(path).absolutePath());
        QVERIFY2(simulateAndExport(doc.scene(), &error) == moved, qPrintable(error));

        // Reopened, the saved file is the document's scene (as JSON: an image shape's unused
        // fields, moved along by translatedShape, are not written) and runs the same.
        const SceneReadResult reopened = readSceneFile(path);
        QVERIFY2(reopened.ok, reopened.error.c_str());
        QCOMPARE(sceneToJson(reopened.scene, {}), sceneToJson(doc.scene(), {}));
        QCOMPARE(reopened.scene.items[0].shape.file, doc.scene().items[0].shape.file);
        QCOMPARE(reopened.scene.directory, doc.scene().directory);
        QVERIFY2(simulateAndExport(reopened.scene, &error) == moved, qPrintable(error));

        // Undo the edit saved before: back to the first state, image found.
        doc.undoStack()->undo();
        QVERIFY2(simulateAndExport(doc.scene(), &error) == before, qPrintable(error));
        doc.undoStack()->redo();
        QVERIFY2(simulateAndExport(doc.scene(), &error) == moved, qPrintable(error));
        // And a new edit after the save (the image's rectangle back where it was).
        Shape back = doc.scene().items[0].shape;
        back.imageMin = original.imageMin;
        back.imageMax = original.imageMax;
        doc.undoStack()->push(new ChangeValue<values::ItemShape>(&doc, 0, back));
        QVERIFY2(simulateAndExport(doc.scene(), &error) == before, qPrintable(error));
        doc.undoStack()->push(new RemoveItem(&doc, 0));
        doc.undoStack()->undo();
        QVERIFY2(simulateAndExport(doc.scene(), &error) == before, qPrintable(error));

        // A save that fails (its folder does not exist) leaves the document as it was.
        const Scene kept = doc.scene();
        QVERIFY(!doc.save(first.filePath("missing/folder/scene.plume")).ok());
        QVERIFY(doc.scene() == kept);
        QCOMPARE(doc.scene().directory, kept.directory);
        QCOMPARE(doc.filePath(), path);
        QVERIFY(doc.isModified());
        QVERIFY2(simulateAndExport(doc.scene(), &error) == before, qPrintable(error));
    }
};

QTEST_MAIN(TestUiDocument)
#include "tst_ui_document.moc"
