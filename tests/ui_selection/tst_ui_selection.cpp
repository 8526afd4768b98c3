// SPDX-License-Identifier: Apache-2.0
// Multi-selection and editing many items, driven as a user does: real mouse and key events in
// the viewport and the outliner of a shown main window (docs/editing.md).
#include <core/io/scenereader.h>
#include <core/io/scenewriter.h>
#include <core/scene/rasterize.h>
#include <ui/document/document.h>
#include <ui/document/selectionedits.h>
#include <ui/document/undocommands.h>
#include <ui/mainwindow/mainwindow.h>
#include <ui/panels/outliner.h>
#include <ui/simulation/simulationcontroller.h>
#include <ui/viewport/viewport.h>

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QSignalSpy>
#include <QtTest>

#include <tests/common/uitest.h>

using namespace plume;

namespace {

namespace edits = selectionedits;

bool showActive(QWidget &window)
{
    window.resize(1200, 800);
    return plume::test::showActive(window);
}

Item sphere(const std::string &name, ItemKind kind, float x, float y)
{
    Item item;
    item.name = name;
    item.kind = kind;
    item.shape.type = ShapeType::Sphere;
    item.shape.centre = {x, y, 0.5f};
    item.shape.radius = 0.06f;
    return item;
}

/// Three discs in a row (two emitters about an obstacle) and a force box above them, on a
/// coarse grid so that the simulation behind the window stays light.
Scene rowScene()
{
    Scene scene;
    scene.domain.resolution = 32;
    scene.items.push_back(sphere("emitter", ItemKind::Emitter, 0.25f, 0.3f));
    scene.items.push_back(sphere("obstacle", ItemKind::Obstacle, 0.5f, 0.3f));
    scene.items.push_back(sphere("emitter 2", ItemKind::Emitter, 0.75f, 0.3f));
    Item box;
    box.name = "force";
    box.kind = ItemKind::ForceField;
    box.shape.type = ShapeType::Box;
    box.shape.centre = {0.5f, 0.75f, 0.5f};
    box.shape.halfSize = {0.08f, 0.08f, 0.08f};
    scene.items.push_back(box);
    return scene;
}

std::vector<int> ints(std::initializer_list<int> l) { return l; }

/// A window showing rowScene with the Select tool, the simulation paused.
struct Fixture
{
    MainWindow window;
    Document *doc = nullptr;
    Viewport *view = nullptr;
    QWindow *handle = nullptr;
    Outliner *outliner = nullptr;

    bool open(Scene scene = rowScene())
    {
        if (!showActive(window))
            return false;
        doc = window.document();
        doc->reset(std::move(scene), QString());
        window.simulation()->pause();
        view = window.viewport();
        handle = window.windowHandle();
        outliner = window.findChild<Outliner *>();
        window.toolAction("Select")->trigger();
        return outliner != nullptr;
    }
    /// A world point of the viewport in window coordinates (events go to the window, as the
    /// platform sends them).
    QPoint at(float x, float y) const
    {
        return view->mapTo(&window, view->toWidget({x, y, 0.f}).toPoint());
    }
    void click(float x, float y, Qt::KeyboardModifiers mods = {})
    {
        QTest::mouseClick(handle, Qt::LeftButton, mods, at(x, y));
    }
    void drag(QPoint a, QPoint b, Qt::KeyboardModifiers mods = {})
    {
        QTest::mousePress(handle, Qt::LeftButton, mods, a);
        for (int s = 1; s <= 10; ++s)
            QTest::mouseMove(handle, a + (b - a) * s / 10);
        QTest::mouseRelease(handle, Qt::LeftButton, mods, b);
    }
    void key(int k, Qt::KeyboardModifiers mods = {}) { QTest::keyClick(handle, Qt::Key(k), mods); }
    /// The centre of outliner row `row`, in the outliner's viewport.
    QPoint row(int n) const { return outliner->visualItemRect(outliner->item(n)).center(); }
    const Item &item(int n) const { return doc->scene().items[std::size_t(n)]; }
    /// The outliner's open rename editor, or null (closed ones linger until deleted later).
    QLineEdit *editor() const
    {
        for (QLineEdit *e : outliner->findChildren<QLineEdit *>())
            if (e->isVisible())
                return e;
        return nullptr;
    }
};

/// Pixels of the viewport's grab in the item kind's outline colour within `radius` pixels of
/// a world point.
int kindPixels(const Fixture &f, ItemKind kind, float x, float y, int radius)
{
    const QImage grab = f.view->grab().toImage();
    const QColor colour = Viewport::kindColor(kind);
    const QPoint c = f.view->toWidget({x, y, 0.f}).toPoint();
    int count = 0;
    for (int py = c.y() - radius; py <= c.y() + radius; ++py)
        for (int px = c.x() - radius; px <= c.x() + radius; ++px) {
            const QColor p = grab.pixelColor(px, py);
            count += std::abs(p.red() - colour.red()) + std::abs(p.green() - colour.green())
                                 + std::abs(p.blue() - colour.blue())
                             < 60
                         ? 1
                         : 0;
        }
    return count;
}

} // namespace

class TestUiSelection : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("PlumeTests");
        QCoreApplication::setApplicationName("tst_ui_selection");
        QSettings().clear();
    }

    // Click selects one, Shift+click adds, Ctrl+click toggles, a click on empty space clears.
    void clicksWithModifiers()
    {
        Fixture f;
        QVERIFY(f.open());
        f.click(0.25f, 0.3f);
        QCOMPARE(f.doc->selectedItems(), ints({0}));
        f.click(0.75f, 0.3f, Qt::ShiftModifier);
        QCOMPARE(f.doc->selectedItems(), ints({0, 2}));
        QCOMPARE(f.doc->selectedItem(), 2);
        f.click(0.25f, 0.3f, Qt::ControlModifier);
        QCOMPARE(f.doc->selectedItems(), ints({2}));
        f.click(0.5f, 0.3f, Qt::ControlModifier);
        QCOMPARE(f.doc->selectedItems(), ints({1, 2}));
        QCOMPARE(f.doc->selectedItem(), 1);
        // The outliner shows the same selection.
        QVERIFY(!f.outliner->item(0)->isSelected() && f.outliner->item(1)->isSelected()
                && f.outliner->item(2)->isSelected() && !f.outliner->item(3)->isSelected());
        // A plain click on a selected item makes it current and keeps the others.
        f.click(0.75f, 0.3f);
        QCOMPARE(f.doc->selectedItems(), ints({1, 2}));
        QCOMPARE(f.doc->selectedItem(), 2);
        f.click(0.1f, 0.9f);
        QVERIFY(f.doc->selectedItems().empty());
        QCOMPARE(f.doc->selectedItem(), -1);
    }

    // A drag on empty space selects the items whose outline bounds the band touches; Shift
    // adds to the selection, Ctrl takes away.
    void rubberBand()
    {
        Fixture f;
        QVERIFY(f.open());
        // Across the row of discs (touching the rightmost at its left edge), below the box.
        f.drag(f.at(0.1f, 0.45f), f.at(0.7f, 0.15f));
        QCOMPARE(f.doc->selectedItems(), ints({0, 1, 2}));
        f.drag(f.at(0.3f, 0.95f), f.at(0.45f, 0.6f), Qt::ShiftModifier);
        QCOMPARE(f.doc->selectedItems(), ints({0, 1, 2, 3}));
        f.drag(f.at(0.45f, 0.4f), f.at(0.55f, 0.2f), Qt::ControlModifier);
        QCOMPARE(f.doc->selectedItems(), ints({0, 2, 3}));
        // A band over nothing clears the selection; the band changes no item.
        f.drag(f.at(0.05f, 0.6f), f.at(0.2f, 0.5f));
        QVERIFY(f.doc->selectedItems().empty());
        QVERIFY(f.doc->scene() == rowScene());
        QCOMPARE(f.doc->undoStack()->count(), 0);
    }

    // In a 3D scene the slice view selects on its plane: the band takes the discs' sections.
    void rubberBandInSlice()
    {
        Scene scene = rowScene();
        scene.domain.dimension = Dimension::ThreeD;
        scene.domain.resolution = 16;
        Fixture f;
        QVERIFY(f.open(scene));
        QVERIFY(f.view->threeD());
        QCOMPARE(f.view->slicePlane().axis, 2);
        f.drag(f.at(0.1f, 0.45f), f.at(0.7f, 0.15f));
        QCOMPARE(f.doc->selectedItems(), ints({0, 1, 2}));
        f.drag(f.at(0.25f, 0.3f), f.at(0.25f, 0.4f));
        QCOMPARE(f.doc->undoStack()->count(), 1);
        QVERIFY(std::abs(f.item(1).shape.centre.y - 0.4f) < 0.01f);
        QCOMPARE(f.item(1).shape.centre.z, 0.5f);
    }

    // Dragging one of several selected items moves them all, as one undo step; a locked item
    // in the selection stays.
    void multiMoveIsOneStep()
    {
        Fixture f;
        QVERIFY(f.open());
        f.click(0.25f, 0.3f);
        f.click(0.75f, 0.3f, Qt::ShiftModifier);
        f.click(0.5f, 0.75f, Qt::ShiftModifier);
        f.drag(f.at(0.25f, 0.3f), f.at(0.35f, 0.4f));
        QCOMPARE(f.doc->undoStack()->count(), 1);
        const float dx = f.item(0).shape.centre.x - 0.25f;
        const float dy = f.item(0).shape.centre.y - 0.3f;
        QVERIFY2(std::abs(dx - 0.1f) < 0.01f && std::abs(dy - 0.1f) < 0.01f,
                 qPrintable(QString("moved by %1, %2").arg(dx).arg(dy)));
        QCOMPARE(f.item(2).shape.centre.x, 0.75f + dx);
        QCOMPARE(f.item(2).shape.centre.y, 0.3f + dy);
        QCOMPARE(f.item(3).shape.centre.x, 0.5f + dx);
        QVERIFY(f.item(1) == rowScene().items[1]);
        QCOMPARE(f.doc->undoStack()->undoText(), QString("Move 3 Items"));
        f.key(Qt::Key_Z, Qt::ControlModifier);
        QVERIFY(f.doc->scene() == rowScene());

        // Lock item 2 (L): it cannot be picked, and a drag of the selection leaves it.
        f.click(0.1f, 0.9f);
        f.click(0.75f, 0.3f);
        f.key(Qt::Key_L);
        QVERIFY(f.item(2).locked);
        f.click(0.1f, 0.9f);
        f.click(0.75f, 0.3f);
        QVERIFY(f.doc->selectedItems().empty());
        f.doc->setSelection({0, 2}, 0);
        f.drag(f.at(0.25f, 0.3f), f.at(0.25f, 0.2f));
        QVERIFY(f.item(0).shape.centre.y < 0.25f);
        QCOMPARE(f.item(2).shape, rowScene().items[2].shape);
        f.key(Qt::Key_L, Qt::AltModifier); // Unlock All
        QVERIFY(!f.item(2).locked);
    }

    // Scaling by the current item's corner handle scales every selected item by the same
    // factor, each about its own centre.
    void multiScaleAboutEachCentre()
    {
        Fixture f;
        QVERIFY(f.open());
        f.click(0.25f, 0.3f);
        f.click(0.75f, 0.3f, Qt::ShiftModifier);
        const QPoint handle = f.view->mapTo(&f.window, f.view->scaleHandle(2).toPoint());
        // From the handle (0.06 right and up of the centre) to twice as far from the centre.
        f.drag(handle, f.at(0.75f + 0.12f, 0.3f + 0.12f));
        QCOMPARE(f.doc->undoStack()->count(), 1);
        QVERIFY2(std::abs(f.item(2).shape.radius - 0.12f) < 0.01f,
                 qPrintable(QString::number(f.item(2).shape.radius)));
        QCOMPARE(f.item(0).shape.radius, f.item(2).shape.radius);
        QCOMPARE(f.item(0).shape.centre, rowScene().items[0].shape.centre);
        QCOMPARE(f.item(2).shape.centre, rowScene().items[2].shape.centre);
    }

    // Hidden items are neither drawn nor picked, hiding does not restart the simulation, and
    // H on a hidden selection shows it again.
    void hiddenNotDrawnNorPicked()
    {
        Fixture f;
        QVERIFY(f.open());
        SimulationController *sim = f.window.simulation();
        sim->play();
        QTRY_VERIFY_WITH_TIMEOUT(sim->headFrame() >= 6, 30000);
        sim->pause();
        QTRY_VERIFY_WITH_TIMEOUT(!sim->isPlaying(), 10000);
        QTest::qWait(200);
        const int simulated = sim->framesSimulated();
        const int head = sim->headFrame();
        const int drawn = kindPixels(f, ItemKind::Obstacle, 0.5f, 0.3f, 40);
        QVERIFY2(drawn > 50, qPrintable(QString::number(drawn)));
        f.click(0.5f, 0.3f);
        f.key(Qt::Key_H);
        QVERIFY(f.item(1).hidden);
        QCOMPARE(f.doc->undoStack()->undoText(), QString("Hide obstacle"));
        QCOMPARE(kindPixels(f, ItemKind::Obstacle, 0.5f, 0.3f, 40), 0);
        f.click(0.1f, 0.9f);
        f.click(0.5f, 0.3f);
        QVERIFY(f.doc->selectedItems().empty());
        f.drag(f.at(0.4f, 0.4f), f.at(0.6f, 0.2f));
        QVERIFY(f.doc->selectedItems().empty());
        QTest::qWait(300);
        QCOMPARE(sim->framesSimulated(), simulated);
        QCOMPARE(sim->headFrame(), head);
        // Selected in the outliner, H shows it again.
        QTest::mouseClick(f.outliner->viewport(), Qt::LeftButton, {}, f.row(1));
        QCOMPARE(f.doc->selectedItems(), ints({1}));
        f.key(Qt::Key_H);
        QVERIFY(!f.item(1).hidden);
        QTRY_VERIFY(kindPixels(f, ItemKind::Obstacle, 0.5f, 0.3f, 40) > 50);
    }

    // Ctrl+C / Ctrl+V / Ctrl+D / Delete on several items: unique names, one undo step each.
    void copyPasteDuplicateDelete()
    {
        Fixture f;
        QVERIFY(f.open());
        f.click(0.25f, 0.3f);
        f.click(0.75f, 0.3f, Qt::ShiftModifier);
        f.key(Qt::Key_C, Qt::ControlModifier);
        const QMimeData *clip = QApplication::clipboard()->mimeData();
        QVERIFY(clip && clip->hasFormat(edits::kItemsMimeType));
        const SceneReadResult read = readSceneJson(clip->text().toUtf8(), "clipboard text",
                                                   std::string());
        QVERIFY2(read.ok, read.error.c_str());
        QCOMPARE(read.scene.items.size(), std::size_t(2));

        f.key(Qt::Key_V, Qt::ControlModifier);
        QCOMPARE(f.doc->scene().items.size(), std::size_t(6));
        QCOMPARE(f.item(4).name, std::string("emitter 3"));
        QCOMPARE(f.item(5).name, std::string("emitter 4"));
        QCOMPARE(f.doc->selectedItems(), ints({4, 5}));
        // Pasted back into the scene they came from: nudged so that they can be seen.
        const sim::Vec3 nudge = edits::duplicateNudge(f.doc->scene());
        QCOMPARE(f.item(4).shape.centre, f.item(0).shape.centre + nudge);
        QCOMPARE(f.doc->undoStack()->undoText(), QString("Paste 2 Items"));

        f.key(Qt::Key_D, Qt::ControlModifier);
        QCOMPARE(f.doc->scene().items.size(), std::size_t(8));
        QCOMPARE(f.item(6).name, std::string("emitter 5"));
        QCOMPARE(f.item(7).name, std::string("emitter 6"));
        QCOMPARE(f.item(6).shape.centre, f.item(4).shape.centre + nudge);
        QCOMPARE(f.doc->selectedItems(), ints({6, 7}));

        f.doc->setSelection({1, 6, 7}, 6);
        f.key(Qt::Key_Delete);
        QCOMPARE(f.doc->scene().items.size(), std::size_t(5));
        QCOMPARE(f.doc->undoStack()->undoText(), QString("Delete 3 Items"));
        QVERIFY(f.doc->selectedItems().empty());
        f.key(Qt::Key_Z, Qt::ControlModifier); // the deletion
        QCOMPARE(f.doc->scene().items.size(), std::size_t(8));
        QCOMPARE(f.item(1).name, std::string("obstacle"));
        f.key(Qt::Key_Z, Qt::ControlModifier); // the duplicate
        f.key(Qt::Key_Z, Qt::ControlModifier); // the paste
        QVERIFY(f.doc->scene() == rowScene());
    }

    // Items pasted into a scene in another folder keep their image: the path is rewritten
    // relative to the new folder. Items of a 3D scene are refused by a 2D one, with a reason.
    void pasteAcrossFolders()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath("a/masks") && QDir(dir.path()).mkpath("b"));
        QImage mask(8, 8, QImage::Format_ARGB32);
        mask.fill(Qt::white);
        QVERIFY(mask.save(dir.filePath("a/masks/m.png")));
        Scene source = rowScene();
        source.directory = dir.filePath("a").toStdString();
        Item image;
        image.name = "mask";
        image.shape.type = ShapeType::Image;
        image.shape.file = "masks/m.png";
        source.items.push_back(image);
        Document from;
        from.reset(source, dir.filePath("a/s.plume"));
        from.setSelection({4}, 4);
        std::unique_ptr<QMimeData> data(edits::copySelection(from));
        QVERIFY(data);

        Scene target;
        target.directory = dir.filePath("b").toStdString();
        target.items.push_back(sphere("mask", ItemKind::Emitter, 0.5f, 0.5f));
        Document to;
        to.reset(target, dir.filePath("b/t.plume"));
        std::string error;
        std::vector<Item> items = edits::itemsToPaste(to, *data, &error);
        QCOMPARE(items.size(), std::size_t(1));
        QCOMPARE(items[0].name, std::string("mask 2"));
        QCOMPARE(items[0].shape.file, std::string("../a/masks/m.png"));
        edits::addItems(to, items, "Paste");
        QVERIFY(checkScene(to.scene()).ok());

        Scene threeD = rowScene();
        threeD.domain.dimension = Dimension::ThreeD;
        Document deep;
        deep.reset(threeD, QString());
        deep.setSelection({0}, 0);
        data.reset(edits::copySelection(deep));
        QVERIFY(edits::itemsToPaste(to, *data, &error).empty());
        QCOMPARE(error, std::string("items of a 3d scene do not fit a 2d scene"));
        QMimeData junk;
        junk.setText("not a scene");
        QVERIFY(edits::itemsToPaste(to, junk, &error).empty());
        QVERIFY2(error.find("the clipboard") != std::string::npos, error.c_str());
    }

    void copyNames()
    {
        Scene scene = rowScene();
        QCOMPARE(edits::copyName(scene, "emitter"), std::string("emitter 3"));
        QCOMPARE(edits::copyName(scene, "emitter 2"), std::string("emitter 3"));
        QCOMPARE(edits::copyName(scene, "emitter 2", {"emitter 3"}), std::string("emitter 4"));
        QCOMPARE(edits::copyName(scene, "force"), std::string("force 2"));
        QCOMPARE(edits::copyName(scene, "42"), std::string("42 2"));
    }

    // The outliner: Ctrl+click and Shift+click (a range), F2 and double click rename (an
    // empty or used name is refused with a message), the check box and the eye and lock
    // toggles of a selected row apply to every selected item.
    void outlinerSelectionAndRename()
    {
        Fixture f;
        QVERIFY(f.open());
        QWidget *rows = f.outliner->viewport();
        QTest::mouseClick(rows, Qt::LeftButton, {}, f.row(0));
        QCOMPARE(f.doc->selectedItems(), ints({0}));
        QTest::mouseClick(rows, Qt::LeftButton, Qt::ControlModifier, f.row(2));
        QCOMPARE(f.doc->selectedItems(), ints({0, 2}));
        // Shift extends from the row clicked last (Qt's anchor), keeping the others.
        QTest::mouseClick(rows, Qt::LeftButton, Qt::ShiftModifier, f.row(3));
        QCOMPARE(f.doc->selectedItems(), ints({0, 2, 3}));
        QTest::mouseClick(rows, Qt::LeftButton, {}, f.row(0));
        QTest::mouseClick(rows, Qt::LeftButton, Qt::ShiftModifier, f.row(2));
        QCOMPARE(f.doc->selectedItems(), ints({0, 1, 2}));

        // The eye of a selected row hides all three, as one step; the lock of an unselected
        // row locks that row only.
        QTest::mouseClick(rows, Qt::LeftButton, {}, f.outliner->eyeRect(1).center());
        QVERIFY(f.item(0).hidden && f.item(1).hidden && f.item(2).hidden && !f.item(3).hidden);
        QCOMPARE(f.doc->undoStack()->undoText(), QString("Hide 3 Items"));
        QCOMPARE(f.doc->selectedItems(), ints({0, 1, 2}));
        QTest::mouseClick(rows, Qt::LeftButton, {}, f.outliner->lockRect(3).center());
        QVERIFY(f.item(3).locked && !f.item(0).locked);
        QCOMPARE(f.doc->selectedItems(), ints({0, 1, 2}));
        // The check box of a selected row disables all three.
        const QRect r = f.outliner->visualItemRect(f.outliner->item(0));
        QTest::mouseClick(rows, Qt::LeftButton, {}, QPoint(r.left() + 10, r.center().y()));
        QVERIFY(!f.item(0).enabled && !f.item(1).enabled && !f.item(2).enabled);
        QVERIFY(f.item(3).enabled);
        QCOMPARE(f.doc->undoStack()->undoText(), QString("Disable 3 Items"));
        for (int n = 0; n < 3; ++n)
            f.doc->undoStack()->undo();
        QVERIFY(f.doc->scene() == rowScene());

        // F2 renames the current row; Enter commits, Ctrl+Z undoes.
        QTest::mouseClick(rows, Qt::LeftButton, {}, f.row(1));
        QTest::keyClick(f.outliner, Qt::Key_F2);
        QTRY_VERIFY(f.editor());
        QLineEdit *editor = f.editor();
        editor->selectAll();
        QTest::keyClicks(editor, "wall");
        QTest::keyClick(editor, Qt::Key_Return); // the delegate commits on the next turn
        QTRY_COMPARE(f.item(1).name, std::string("wall"));
        QCOMPARE(f.doc->undoStack()->undoText(), QString("Rename Item"));
        // A used name is refused, with a message; so is an empty one (by double click).
        QSignalSpy messages(f.outliner, &Outliner::message);
        QTest::keyClick(f.outliner, Qt::Key_F2);
        QTRY_VERIFY(f.editor());
        editor = f.editor();
        editor->selectAll();
        QTest::keyClicks(editor, "emitter");
        QTest::keyClick(editor, Qt::Key_Return);
        QTRY_COMPARE(messages.count(), 1);
        QCOMPARE(f.item(1).name, std::string("wall"));
        QVERIFY(messages.at(0).at(0).toString().contains("is taken"));
        QCOMPARE(f.outliner->item(1)->text(), QString("wall"));
        // Through the window, as the platform sends it (press, release, press and double click).
        QTest::mouseDClick(f.handle, Qt::LeftButton, {}, rows->mapTo(&f.window, f.row(2)));
        QTRY_VERIFY(f.editor());
        editor = f.editor();
        editor->selectAll();
        QTest::keyClick(editor, Qt::Key_Delete);
        QTest::keyClick(editor, Qt::Key_Return);
        QTRY_COMPARE(messages.count(), 2);
        QCOMPARE(f.item(2).name, std::string("emitter 2"));
        f.key(Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(f.item(1).name, std::string("obstacle"));
    }

    // Move Up/Down (Ctrl+Shift+Up/Down) reorder the selected items, which stay selected; the
    // outliner's drop puts the dragged rows before the row dropped on.
    void reorder()
    {
        Fixture f;
        QVERIFY(f.open());
        f.doc->setSelection({0, 2}, 2);
        f.key(Qt::Key_Down, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(f.item(1).name, std::string("emitter"));
        QCOMPARE(f.item(3).name, std::string("emitter 2"));
        QCOMPARE(f.item(2).name, std::string("force"));
        QCOMPARE(f.doc->selectedItems(), ints({1, 3}));
        QCOMPARE(f.doc->selectedItem(), 3);
        QCOMPARE(f.outliner->item(3)->text(), QString("emitter 2"));
        QCOMPARE(f.doc->undoStack()->undoText(), QString("Move Down"));
        // At the end already: nothing.
        f.key(Qt::Key_Down, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(f.doc->undoStack()->count(), 1);
        f.key(Qt::Key_Z, Qt::ControlModifier);
        QVERIFY(f.doc->scene() == rowScene());
        QCOMPARE(f.doc->selectedItems(), ints({0, 2}));

        edits::moveItems(*f.doc, {3, 0}, 2); // "force" and "emitter" before "emitter 2"
        QCOMPARE(f.item(0).name, std::string("obstacle"));
        QCOMPARE(f.item(1).name, std::string("emitter"));
        QCOMPARE(f.item(2).name, std::string("force"));
        QCOMPARE(f.item(3).name, std::string("emitter 2"));
        QCOMPARE(f.doc->selectedItems(), ints({1, 2}));
        QCOMPARE(f.doc->undoStack()->undoText(), QString("Reorder Items"));
        f.doc->undoStack()->undo();
        QVERIFY(f.doc->scene() == rowScene());
        edits::moveItems(*f.doc, {1}, 4); // to the end
        QCOMPARE(f.item(3).name, std::string("obstacle"));
    }

    // With two emitters selected the properties panel shows the current one, and an edit of
    // an emitter field applies to both (not to the obstacle), as one undo step.
    void propertiesEditAllOfAKind()
    {
        Fixture f;
        QVERIFY(f.open());
        f.click(0.25f, 0.3f);
        f.click(0.5f, 0.3f, Qt::ShiftModifier);
        f.click(0.75f, 0.3f, Qt::ShiftModifier);
        auto *dock = f.window.findChild<QDockWidget *>("propertiesDock");
        QVERIFY(dock);
        QTRY_VERIFY(dock->findChild<QLabel *>("selectionNote"));
        auto *density = dock->findChild<QDoubleSpinBox *>("density");
        QVERIFY(density);
        density->setValue(7.5);
        QCOMPARE(f.item(0).emitter.density, 7.5f);
        QCOMPARE(f.item(2).emitter.density, 7.5f);
        QCOMPARE(f.item(1).emitter.density, rowScene().items[1].emitter.density);
        QCOMPARE(f.doc->undoStack()->count(), 1);
        f.key(Qt::Key_Z, Qt::ControlModifier);
        QVERIFY(f.doc->scene() == rowScene());
    }

    // Hide and lock are kept in the file.
    void hideLockRoundTrip()
    {
        QTemporaryDir dir;
        Fixture f;
        QVERIFY(f.open());
        f.click(0.25f, 0.3f);
        f.key(Qt::Key_H);
        f.click(0.75f, 0.3f);
        f.key(Qt::Key_L);
        const QString path = dir.filePath("flags.plume");
        QVERIFY(f.window.saveTo(path));
        const SceneReadResult read = readSceneFile(path);
        QVERIFY2(read.ok, read.error.c_str());
        QVERIFY(read.scene.items[0].hidden && !read.scene.items[0].locked);
        QVERIFY(read.scene.items[2].locked && !read.scene.items[2].hidden);
        QVERIFY(!read.scene.items[1].hidden && !read.scene.items[1].locked);
    }
};

QTEST_MAIN(TestUiSelection)
#include "tst_ui_selection.moc"
