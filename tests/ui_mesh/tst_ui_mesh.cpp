// SPDX-License-Identifier: Apache-2.0
// Meshes, rotation and scale in the app: File > Import Model adds a mesh item (undo removes
// it; a bad file says why and adds nothing; a drop places it); slice and 2D outlines of meshes
// and of rotated or scaled shapes; the select tool turns, moves and scales items with undo; the
// properties panel edits rotation, scale and the mesh fields as undo steps and says whether a
// mesh is closed or a shell.
#include <core/io/scenereader.h>
#include <core/scene/placement.h>
#include <ui/document/document.h>
#include <ui/document/modelimport.h>
#include <ui/document/placedsection.h>
#include <ui/document/shapeedit.h>
#include <ui/document/undocommands.h>
#include <ui/mainwindow/importmodeldialog.h>
#include <ui/mainwindow/mainwindow.h>
#include <ui/panels/keybutton.h>
#include <ui/panels/propertiespanel.h>
#include <ui/tools/selecttool.h>
#include <ui/tools/tooloptions.h>
#include <ui/viewport/viewlayout.h>
#include <ui/viewport/viewport.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QMimeData>
#include <QRadioButton>
#include <QTemporaryDir>
#include <QtTest>

#include <tests/common/uitest.h>

#include <cmath>
#include <functional>

using namespace plume;
using plume::test::SelectView;
using plume::test::turnView;
using sim::Vec3;

namespace {

/// Writes an OBJ cube with corners at +-1 (12 triangles, outward), or without its top (z = 1)
/// face when `open` (10 triangles, 4 open edges). Returns the path, empty on failure.
QString writeCube(const QTemporaryDir &dir, const QString &name, bool open = false)
{
    QString text = "v -1 -1 -1\nv 1 -1 -1\nv 1 1 -1\nv -1 1 -1\n"
                   "v -1 -1 1\nv 1 -1 1\nv 1 1 1\nv -1 1 1\n"
                   "f 1 3 2\nf 1 4 3\nf 1 2 6\nf 1 6 5\nf 4 7 3\nf 4 8 7\n"
                   "f 1 5 8\nf 1 8 4\nf 2 3 7\nf 2 7 6\n";
    if (!open)
        text += "f 5 6 7\nf 5 7 8\n";
    QFile file(dir.filePath(name));
    if (!file.open(QIODevice::WriteOnly) || file.write(text.toUtf8()) < 0)
        return {};
    return file.fileName();
}

Scene makeScene(Dimension dimension)
{
    Scene s;
    s.domain.dimension = dimension;
    s.domain.resolution = 32;
    return s;
}

/// A mesh item: the cube at `path` scaled to half size 0.1 about (0.5, 0.5, 0.5).
Item cubeItem(const QString &path, ItemKind kind = ItemKind::Obstacle)
{
    Item item;
    item.name = "cube";
    item.kind = kind;
    item.shape.type = ShapeType::Mesh;
    item.shape.file = path.toStdString();
    item.shape.meshTranslation = {0.5f, 0.5f, 0.5f};
    item.shape.meshScale = {0.1f, 0.1f, 0.1f};
    return item;
}

/// A box of half size (0.2, 0.05, 0.1) at the domain's centre.
Item boxItem()
{
    Item item;
    item.name = "box";
    item.kind = ItemKind::Obstacle;
    item.shape.type = ShapeType::Box;
    item.shape.centre = {0.5f, 0.5f, 0.5f};
    item.shape.halfSize = {0.2f, 0.05f, 0.1f};
    return item;
}

bool near(double a, double b, double tolerance) { return std::abs(a - b) <= tolerance; }

bool rectNear(const QRectF &r, const QRectF &expected, double tolerance)
{
    return near(r.left(), expected.left(), tolerance) && near(r.top(), expected.top(), tolerance)
           && near(r.right(), expected.right(), tolerance)
           && near(r.bottom(), expected.bottom(), tolerance);
}

/// Runs `act` on the next modal dialog of type D once it is open.
template<class D>
void onNextDialog(std::function<void(D *)> act)
{
    QTimer::singleShot(30, [act] {
        if (auto *d = qobject_cast<D *>(QApplication::activeModalWidget()))
            act(d);
        else
            onNextDialog<D>(act);
    });
}

/// The field of the form row labelled `label` anywhere under `root`.
QWidget *field(QWidget *root, const QString &label)
{
    for (QFormLayout *form : root->findChildren<QFormLayout *>())
        for (int row = 0; row < form->rowCount(); ++row) {
            QLayoutItem *l = form->itemAt(row, QFormLayout::LabelRole);
            QLayoutItem *f = form->itemAt(row, QFormLayout::FieldRole);
            auto *text = l ? qobject_cast<QLabel *>(l->widget()) : nullptr;
            if (text && text->text() == label && f)
                return f->widget();
        }
    return nullptr;
}

/// Drags the pointer from `a` to `b` in `steps` moves (modifiers on every event).
void dragView(Viewport &view, QPointF a, QPointF b, int steps, Qt::KeyboardModifiers modifiers = {})
{
    QTest::mousePress(&view, Qt::LeftButton, modifiers, a.toPoint());
    for (int s = 1; s <= steps; ++s) {
        const QPointF p = a + (b - a) * (double(s) / steps);
        QMouseEvent move(QEvent::MouseMove, p, view.mapToGlobal(p), Qt::NoButton, Qt::LeftButton,
                         modifiers);
        QApplication::sendEvent(&view, &move);
    }
    QTest::mouseRelease(&view, Qt::LeftButton, modifiers, b.toPoint());
}

} // namespace

class TestUiMesh : public QObject
{
    Q_OBJECT

    QTemporaryDir mDir;
    QString mCube, mOpenCube, mBad;

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("PlumeTests");
        QCoreApplication::setApplicationName("tst_ui_mesh");
        QSettings().clear();
        QVERIFY(mDir.isValid());
        QVERIFY(QDir(mDir.path()).mkdir("models"));
        mCube = writeCube(mDir, "models/cube.obj");
        mOpenCube = writeCube(mDir, "models/open.obj", true);
        mBad = mDir.filePath("models/bad.obj");
        QFile bad(mBad);
        QVERIFY(bad.open(QIODevice::WriteOnly) && bad.write("not a model\n") > 0);
        QVERIFY(!mCube.isEmpty() && !mOpenCube.isEmpty());
    }

    // Rotating about a world axis composes with the item's rotation (matrices agree); angles
    // about that axis alone just add.
    void rotationComposes()
    {
        const Vec3 angles{10.f, 20.f, 30.f};
        for (int axis = 0; axis < 3; ++axis) {
            Vec3 turn{};
            turn[axis] = 25.f;
            const Affine expected = rotationXYZ(turn).after(rotationXYZ(angles));
            const Affine got = rotationXYZ(rotatedAbout(angles, axis, 25.f));
            for (int r = 0; r < 3; ++r)
                for (int c = 0; c < 3; ++c)
                    QVERIFY(near(got.m[r][c], expected.m[r][c], 1e-5));
        }
        QCOMPARE(rotatedAbout(Vec3{0.f, 0.f, 350.f}, 2, 20.f), (Vec3{0.f, 0.f, 370.f}));
        Animated<Vec3> spin;
        spin.keys = {{0.0, {0.f, 0.f, 0.f}, {}}, {10.0, {0.f, 0.f, 90.f}, {}}};
        const Animated<Vec3> turned = rotatedAbout(spin, 2, 45.f);
        QCOMPARE(turned.keys[0].value, (Vec3{0.f, 0.f, 45.f}));
        QCOMPARE(turned.keys[1].value, (Vec3{0.f, 0.f, 135.f}));
    }

    // File > Import Model's path (the file dialog aside): the dialog's answers give a mesh
    // item, fitted into a quarter of the domain and centred, with one undo step; undo removes
    // it, redo brings back the same item. An unsaved scene stores the absolute path.
    void importAddsItemUndoRemoves()
    {
        MainWindow window;
        window.document()->reset(makeScene(Dimension::ThreeD), {});
        onNextDialog<ImportModelDialog>([](ImportModelDialog *d) {
            d->findChild<QLineEdit *>("modelName")->setText("crate");
            d->findChild<QComboBox *>("modelKind")->setCurrentIndex(1); // emitter
            QVERIFY(d->findChild<QRadioButton *>("modelFit")->isChecked());
            QVERIFY(d->findChild<QLabel *>("modelSummary")->text().contains("12 triangles"));
            d->accept();
        });
        QVERIFY(window.importModel(mCube));
        Document *doc = window.document();
        QCOMPARE(int(doc->scene().items.size()), 1);
        const Item item = doc->scene().items[0];
        QCOMPARE(item.name, std::string("crate"));
        QCOMPARE(item.kind, ItemKind::Emitter);
        QCOMPARE(item.shape.type, ShapeType::Mesh);
        QCOMPARE(QString::fromStdString(item.shape.file), QFileInfo(mCube).absoluteFilePath());
        // The cube (side 2) fits a quarter of the unit domain: scale 0.125, centred.
        QCOMPARE(item.shape.meshScale, (Vec3{0.125f, 0.125f, 0.125f}));
        QCOMPARE(item.shape.meshTranslation, (Vec3{0.5f, 0.5f, 0.5f}));
        QCOMPARE(doc->selectedItem(), 0);
        QCOMPARE(doc->undoStack()->count(), 1);
        doc->undoStack()->undo();
        QVERIFY(doc->scene().items.empty());
        doc->undoStack()->redo();
        QCOMPARE(doc->scene().items[0], item);
    }

    // In a saved scene the model's path is relative to the scene's folder; "keep units"
    // leaves the file's coordinates as world units.
    void importIntoSavedSceneIsRelative()
    {
        MainWindow window;
        window.document()->reset(makeScene(Dimension::ThreeD), {});
        QVERIFY(window.saveTo(mDir.filePath("scene.plume")));
        onNextDialog<ImportModelDialog>([](ImportModelDialog *d) {
            d->findChild<QRadioButton *>("modelKeepUnits")->setChecked(true);
            d->accept();
        });
        QVERIFY(window.importModel(mCube));
        const Item &item = window.document()->scene().items[0];
        QCOMPARE(item.name, std::string("cube"));
        QCOMPARE(item.kind, ItemKind::Obstacle);
        QCOMPARE(item.shape.file, std::string("models/cube.obj"));
        QCOMPARE(item.shape.meshScale, (Vec3{1.f, 1.f, 1.f}));
        QCOMPARE(item.shape.meshTranslation, (Vec3{0.f, 0.f, 0.f}));
        // Cancelling the dialog adds nothing.
        onNextDialog<ImportModelDialog>([](ImportModelDialog *d) { d->reject(); });
        QVERIFY(!window.importModel(mCube));
        QCOMPARE(int(window.document()->scene().items.size()), 1);
    }

    // An example's model lives inside the app (":/scenes/models/..."), which plume-cli cannot
    // read: saving the example copies the model beside the scene file and the file names the
    // copy. A second save reuses it; a different file of that name is kept and the copy numbered.
    void savingAnExampleCopiesItsModel()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        MainWindow window;
        QVERIFY(window.openFile(":/scenes/paddle-3d.plume"));
        const Scene before = window.document()->scene();
        const auto mesh = std::find_if(before.items.begin(), before.items.end(), [](const Item &i) {
            return i.shape.type == ShapeType::Mesh;
        });
        QVERIFY(mesh != before.items.end());
        const int index = int(mesh - before.items.begin());
        QCOMPARE(QString::fromStdString(mesh->shape.file), QString(":/scenes/models/paddle.obj"));
        QFile resource(":/scenes/models/paddle.obj");
        QVERIFY(resource.open(QIODevice::ReadOnly));
        const QByteArray model = resource.readAll();

        // Something else already called paddle.obj in the folder: not overwritten.
        QFile other(dir.filePath("paddle.obj"));
        QVERIFY(other.open(QIODevice::WriteOnly) && other.write("not this one\n") > 0);
        other.close();
        const QString path = dir.filePath("paddle.plume");
        QVERIFY(window.saveTo(path));
        QFile copy(dir.filePath("paddle-2.obj"));
        QVERIFY(copy.open(QIODevice::ReadOnly));
        QCOMPARE(copy.readAll(), model);
        QVERIFY(other.open(QIODevice::ReadOnly));
        QCOMPARE(other.readAll(), QByteArray("not this one\n"));
        QCOMPARE(window.document()->scene().items[index].shape.file, std::string("paddle-2.obj"));

        // The file reads without the app's resources' help and names the copy.
        const SceneReadResult saved = readSceneFile(path);
        QVERIFY2(saved.ok, saved.error.c_str());
        QCOMPARE(saved.scene.items[index].shape.file, std::string("paddle-2.obj"));
        QCOMPARE(saved.scene.items, window.document()->scene().items);

        // Saved again: the scene names the copy now, and nothing more is copied.
        QVERIFY(window.saveTo(dir.filePath("again.plume")));
        QCOMPARE(QDir(dir.path()).entryList({"*.obj"}, QDir::Files),
                 (QStringList{"paddle-2.obj", "paddle.obj"}));
    }

    // A file that is not a model: an error box names it and nothing is added.
    void badModelSaysWhyAndAddsNothing()
    {
        MainWindow window;
        window.document()->reset(makeScene(Dimension::TwoD), {});
        QString text;
        onNextDialog<QMessageBox>([&text](QMessageBox *box) {
            text = box->text();
            box->done(QMessageBox::Ok);
        });
        QVERIFY(!window.importModel(mBad));
        QVERIFY2(text.contains("bad.obj"), qPrintable(text));
        QVERIFY(window.document()->scene().items.empty());
        QCOMPARE(window.document()->undoStack()->count(), 0);
    }

    // Dropping a model file on the 2D view opens the same dialog and centres the fitted model
    // on the drop point (its middle on the plane that cuts it).
    void dropPlacesModelAtPoint()
    {
        MainWindow window;
        window.document()->reset(makeScene(Dimension::TwoD), {});
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        Viewport *view = window.viewport();
        const QPointF at = view->toWidget({0.3f, 0.7f, 0.5f});
        const Vec3 world = view->toWorld(at);
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(mCube)});
        onNextDialog<ImportModelDialog>([](ImportModelDialog *d) { d->accept(); });
        QDragEnterEvent enter(at.toPoint(), Qt::CopyAction, &mime, Qt::LeftButton, {});
        enter.setAccepted(false);
        QApplication::sendEvent(view, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(at, Qt::CopyAction, &mime, Qt::LeftButton, {});
        QApplication::sendEvent(view, &drop);
        QCOMPARE(int(window.document()->scene().items.size()), 1);
        const Shape &shape = window.document()->scene().items[0].shape;
        QCOMPARE(shape.meshTranslation.x, world.x);
        QCOMPARE(shape.meshTranslation.y, world.y);
        QCOMPARE(shape.meshTranslation.z, 0.5f);
        // A file that is not a model is refused at the door.
        QMimeData text;
        text.setUrls({QUrl::fromLocalFile(mDir.filePath("scene.txt"))});
        QDragEnterEvent other(at.toPoint(), Qt::CopyAction, &text, Qt::LeftButton, {});
        other.setAccepted(false);
        QApplication::sendEvent(view, &other);
        QVERIFY(!other.isAccepted());
    }

    // A slice through the cube mesh outlines its square section; a slice beside it is empty;
    // turning the item 45 degrees about the slice's axis widens the bounds by sqrt 2.
    void meshSliceOutline()
    {
        Scene scene = makeScene(Dimension::ThreeD);
        Item item = cubeItem(mCube);
        const SectionContext at = sectionContext(scene, SlicePlane{2, 0.5f});
        PlaneSection cut = planeSection(item.shape, item.placementAt(0), at);
        QVERIFY(cut.error.empty());
        QVERIFY(!cut.isEmpty());
        QVERIFY(rectNear(cut.bounds(), QRectF(0.4, 0.4, 0.2, 0.2), 1e-5));
        QVERIFY(cut.contains({0.5f, 0.5f, 0.f}, 0.f));
        QVERIFY(!cut.contains({0.65f, 0.5f, 0.f}, 0.f));
        QVERIFY(cut.contains({0.65f, 0.5f, 0.f}, 0.06f)); // within the slack of the edge
        QVERIFY(planeSection(item.shape, item.placementAt(0), sectionContext(scene, {2, 0.7f}))
                    .isEmpty());
        QVERIFY(planeSection(item.shape, item.placementAt(0), sectionContext(scene, {0, 0.3f}))
                    .isEmpty());
        // X slice: u = z, v = y.
        cut = planeSection(item.shape, item.placementAt(0), sectionContext(scene, {0, 0.45f}));
        QVERIFY(rectNear(cut.bounds(), QRectF(0.4, 0.4, 0.2, 0.2), 1e-5));
        item.rotation = Vec3{0.f, 0.f, 45.f};
        cut = planeSection(item.shape, item.placementAt(0), at);
        const double half = 0.1 * std::sqrt(2.0);
        QVERIFY(rectNear(cut.bounds(), QRectF(0.5 - half, 0.5 - half, 2 * half, 2 * half), 1e-5));
        // The viewport draws it and picks it.
        Document doc;
        doc.reset(scene, {});
        doc.undoStack()->push(new AddItem(&doc, 0, item));
        ToolOptions options;
        Viewport view(&doc, &options);
        view.resize(300, 300);
        view.setSlicePlane(SlicePlane{2, 0.5f});
        view.fitToView();
        QVERIFY(!view.shapePath(item.shape, item.placementAt(0)).isEmpty());
        QCOMPARE(view.itemAt(view.toWidget({0.5f, 0.5f, 0.5f})), 0);
        QCOMPARE(view.itemAt(view.toWidget({0.8f, 0.8f, 0.5f})), -1);
    }

    // A mesh that is not closed is a shell at least two cells thick: its walls are hit, its
    // middle is not; the same holds for a closed mesh filled by its surface. In 2D the mesh
    // is cut by the domain's middle z plane.
    void openMeshIsAShell()
    {
        Scene scene = makeScene(Dimension::ThreeD);
        const Item open = cubeItem(mOpenCube);
        const PlaneSection cut = planeSection(open.shape, open.placementAt(0),
                                              sectionContext(scene, {2, 0.5f}));
        const double shell = 2.0 / 32.0;
        QVERIFY(!cut.contains({0.5f, 0.5f, 0.f}, 0.f));
        QVERIFY(cut.contains({0.4f, 0.5f, 0.f}, 0.f));
        QVERIFY(cut.contains({0.6f + 0.45f * float(shell), 0.5f, 0.f}, 0.f));
        QVERIFY(rectNear(cut.bounds(),
                         QRectF(0.4 - shell / 2, 0.4 - shell / 2, 0.2 + shell, 0.2 + shell), 1e-5));
        Item surface = cubeItem(mCube);
        surface.shape.fill = MeshFill::Surface;
        surface.shape.thickness = 0.1f; // thicker than two cells
        const PlaneSection band = planeSection(surface.shape, surface.placementAt(0),
                                               sectionContext(scene, {2, 0.5f}));
        QVERIFY(!band.contains({0.5f, 0.5f, 0.f}, 0.f));
        QVERIFY(band.contains({0.44f, 0.5f, 0.f}, 0.f));
        QVERIFY(rectNear(band.bounds(), QRectF(0.35, 0.35, 0.3, 0.3), 1e-5));

        Scene flat = makeScene(Dimension::TwoD);
        Item item = cubeItem(mCube);
        QVERIFY(rectNear(
            planeSection(item.shape, item.placementAt(0), sectionContext(flat, {})).bounds(),
            QRectF(0.4, 0.4, 0.2, 0.2), 1e-5));
        item.shape.meshTranslation.z = 0.8f; // spans z 0.7 to 0.9: the middle plane misses it
        QVERIFY(planeSection(item.shape, item.placementAt(0), sectionContext(flat, {})).isEmpty());
        // A file that cannot be read: nothing to draw, and why.
        item.shape.file = mBad.toStdString();
        const PlaneSection missing = planeSection(item.shape, item.placementAt(0),
                                                  sectionContext(flat, {}));
        QVERIFY(missing.isEmpty());
        QVERIFY(QString::fromStdString(missing.error).contains("bad.obj"));
    }

    // Analytic shapes are drawn with the item's rotation and scale: a 2D box turned 90
    // degrees stands upright; a 3D sphere scaled twice in x is an ellipse twice as wide in the
    // Z slice; a 3D box turned about z by the item is cut like one turned by its own angle.
    void rotatedAndScaledShapes()
    {
        Scene flat = makeScene(Dimension::TwoD);
        Item box = boxItem();
        box.rotation = Vec3{0.f, 0.f, 90.f};
        PlaneSection cut = planeSection(box.shape, box.placementAt(0), sectionContext(flat, {}));
        QVERIFY(rectNear(cut.bounds(), QRectF(0.45, 0.3, 0.1, 0.4), 1e-5));
        QVERIFY(cut.contains({0.5f, 0.65f, 0.f}, 0.f));
        QVERIFY(!cut.contains({0.65f, 0.5f, 0.f}, 0.f));

        Scene cube = makeScene(Dimension::ThreeD);
        Item sphere;
        sphere.shape.type = ShapeType::Sphere;
        sphere.shape.centre = {0.5f, 0.5f, 0.5f};
        sphere.shape.radius = 0.1f;
        sphere.scale = Vec3{2.f, 1.f, 1.f};
        cut = planeSection(sphere.shape, sphere.placementAt(0), sectionContext(cube, {2, 0.5f}));
        QVERIFY(rectNear(cut.bounds(), QRectF(0.3, 0.4, 0.4, 0.2), 1e-5));
        QVERIFY(cut.contains({0.68f, 0.5f, 0.f}, 0.f));
        QVERIFY(cut.contains({0.5f, 0.58f, 0.f}, 0.f));
        QVERIFY(!cut.contains({0.5f, 0.62f, 0.f}, 0.f));

        Item turned = boxItem();
        turned.rotation = Vec3{0.f, 0.f, 30.f};
        Item own = boxItem();
        own.shape.rotation = 30.f;
        for (const SlicePlane plane : {SlicePlane{2, 0.5f}, SlicePlane{0, 0.55f}}) {
            const QRectF a = planeSection(turned.shape, turned.placementAt(0),
                                          sectionContext(cube, plane))
                                 .bounds();
            const QRectF b =
                planeSection(own.shape, own.placementAt(0), sectionContext(cube, plane)).bounds();
            QVERIFY2(rectNear(a, b, 1e-5), plane.axis == 2 ? "Z slice" : "X slice");
        }
    }

    // The rotate handle turns the selected item about its pivot in the view's plane: a
    // quarter turn clockwise in 2D is -90 degrees about z, one undo step; Shift snaps to 15
    // degree steps; in an X slice a counter-clockwise turn is about -x.
    void selectToolRotatesWithUndo()
    {
        Document doc;
        doc.reset(makeScene(Dimension::TwoD), {});
        doc.undoStack()->push(new AddItem(&doc, 0, boxItem()));
        doc.setSelectedItem(0);
        SelectView shown(&doc);
        QVERIFY(shown.show());
        Viewport &view = shown.view;
        const int before = doc.undoStack()->count();
        const QPointF pivot = view.toWidget({0.5f, 0.5f, 0.5f});
        QVERIFY(view.rotateHandleHit(0, view.rotateHandle(0)));
        turnView(view, view.rotateHandle(0), pivot, -90.0);
        const Vec3 r = doc.scene().items[0].rotation.value;
        QVERIFY2(near(r.z, -90.0, 1.0), qPrintable(QString::number(r.z)));
        QCOMPARE(r.x, 0.f);
        QCOMPARE(doc.undoStack()->count(), before + 1);
        QCOMPARE(doc.scene().items[0].shape, boxItem().shape);
        // The turned box is now upright: its outline and hit test follow.
        QCOMPARE(view.itemAt(view.toWidget({0.5f, 0.66f, 0.5f})), 0);
        QCOMPARE(view.itemAt(view.toWidget({0.66f, 0.5f, 0.5f})), -1);
        doc.undoStack()->undo();
        QCOMPARE(doc.scene().items[0], boxItem());

        turnView(view, view.rotateHandle(0), pivot, 37.0, Qt::ShiftModifier);
        QCOMPARE(doc.scene().items[0].rotation.value.z, 30.f);
        doc.undoStack()->undo();

        Scene cube = makeScene(Dimension::ThreeD);
        doc.reset(cube, {});
        doc.undoStack()->push(new AddItem(&doc, 0, boxItem()));
        doc.setSelectedItem(0);
        view.setSlicePlane(SlicePlane{0, 0.5f});
        view.fitToView();
        const QPointF xPivot = view.toWidget({0.5f, 0.5f, 0.5f});
        turnView(view, view.rotateHandle(0), xPivot, 60.0, Qt::ShiftModifier);
        QCOMPARE(doc.scene().items[0].rotation.value, (Vec3{-60.f, 0.f, 0.f}));
    }

    // The select tool moves a mesh (its translation) and scales it from the corner handle
    // (its translation and scale about the outline's centre); each drag is one undo step.
    void selectToolMovesAndScalesMeshes()
    {
        Document doc;
        doc.reset(makeScene(Dimension::TwoD), {});
        const Item original = cubeItem(mCube);
        doc.undoStack()->push(new AddItem(&doc, 0, original));
        SelectView shown(&doc);
        QVERIFY(shown.show());
        Viewport &view = shown.view;
        const float slack = float(1.5 / view.pixelsPerUnit());
        dragView(view, view.toWidget({0.5f, 0.5f, 0.5f}), view.toWidget({0.6f, 0.45f, 0.5f}), 4);
        const Shape moved = doc.scene().items[0].shape;
        QVERIFY(near(moved.meshTranslation.x, 0.6, slack));
        QVERIFY(near(moved.meshTranslation.y, 0.45, slack));
        QCOMPARE(moved.meshTranslation.z, 0.5f);
        QCOMPARE(moved.meshScale, original.shape.meshScale);
        QCOMPARE(doc.selectedItem(), 0);

        // The corner handle sits at the section's top right (0.7, 0.55); dragging it twice as
        // far from the centre doubles the model about that centre.
        const QPointF handle = view.scaleHandle(0);
        const QPointF centre = view.toWidget(moved.meshTranslation);
        dragView(view, handle, centre + (handle - centre) * 2.0, 4);
        const Shape scaled = doc.scene().items[0].shape;
        QVERIFY(near(scaled.meshScale.x, 0.2, 0.01));
        QVERIFY(near(scaled.meshTranslation.x, moved.meshTranslation.x, slack));
        const QRectF b = view.planeBounds(scaled, {});
        QVERIFY2(
            rectNear(b, QRectF(0.4, 0.25, 0.4, 0.4), 0.02),
            qPrintable(
                QString("%1 %2 %3 %4").arg(b.left()).arg(b.top()).arg(b.width()).arg(b.height())));
        doc.undoStack()->undo();
        QCOMPARE(doc.scene().items[0].shape, moved);
        doc.undoStack()->undo();
        QCOMPARE(doc.scene().items[0], original);
    }

    // The properties panel: item rotation and scale, the model's translation, rotation,
    // scale, fill and thickness, and the obstacle's no-slip flag are each one undo step; the
    // model line says closed or shell; Browse's file check refuses a bad file.
    void propertiesEditMeshes()
    {
        Document doc;
        doc.reset(makeScene(Dimension::ThreeD), {});
        const Item original = cubeItem(mCube);
        doc.undoStack()->push(new AddItem(&doc, 0, original));
        doc.setSelectedItem(0);
        PropertiesPanel panel(&doc);
        auto *status = panel.findChild<QLabel *>("meshStatus");
        QVERIFY(status);
        QCOMPARE(status->text(), QString("closed, 12 triangles"));
        const int base = doc.undoStack()->count();
        auto spin = [&panel](const char *name, int component) {
            const auto boxes = panel.findChildren<QDoubleSpinBox *>(name);
            return boxes.size() > component ? boxes[component] : nullptr;
        };
        struct Edit
        {
            const char *name;
            int component;
            double value;
            std::function<float(const Item &)> read;
        };
        const Edit edits[] = {
            {"itemRotation", 2, 30.0, [](const Item &i) { return i.rotation.value.z; }},
            {"itemScale", 0, 2.0, [](const Item &i) { return i.scale.value.x; }},
            {"meshTranslation", 1, 0.3, [](const Item &i) { return i.shape.meshTranslation.y; }},
            {"meshRotation", 0, 45.0, [](const Item &i) { return i.shape.meshRotation.x; }},
            {"meshScale", 2, 0.5, [](const Item &i) { return i.shape.meshScale.z; }},
            {"thickness", 0, 0.05, [](const Item &i) { return i.shape.thickness; }},
        };
        int steps = base;
        for (const Edit &e : edits) {
            QDoubleSpinBox *box = spin(e.name, e.component);
            QVERIFY2(box, e.name);
            box->setValue(e.value);
            QVERIFY2(near(e.read(doc.scene().items[0]), e.value, 1e-6), e.name);
            QCOMPARE(doc.undoStack()->count(), ++steps);
        }
        auto *fill = qobject_cast<QComboBox *>(field(&panel, "Fill"));
        QVERIFY(fill);
        fill->setCurrentIndex(int(MeshFill::Surface));
        QCOMPARE(doc.scene().items[0].shape.fill, MeshFill::Surface);
        QVERIFY(status->text().contains("shell of thickness 0.0625 (two cells)"));
        auto *noSlip = qobject_cast<QCheckBox *>(field(&panel, "No-slip (drags the fluid along)"));
        QVERIFY(noSlip);
        noSlip->setChecked(true);
        QVERIFY(doc.scene().items[0].obstacle.noSlip);
        QCOMPARE(doc.undoStack()->count(), steps + 2);

        // An open model, taken as by Browse...: a shell, and the panel says so.
        QVERIFY(panel.setMeshFile(0, mOpenCube));
        QCOMPARE(QString::fromStdString(doc.scene().items[0].shape.file), mOpenCube);
        QVERIFY2(status->text().startsWith("open (4 open edges), 10 triangles: used as a shell"),
                 qPrintable(status->text()));
        QString text;
        onNextDialog<QMessageBox>([&text](QMessageBox *box) {
            text = box->text();
            box->done(QMessageBox::Ok);
        });
        QVERIFY(!panel.setMeshFile(0, mBad));
        QVERIFY(text.contains("bad.obj"));
        QCOMPARE(doc.undoStack()->count(), steps + 3);
        while (doc.undoStack()->index() > base)
            doc.undoStack()->undo();
        QCOMPARE(doc.scene().items[0], original);
        QCOMPARE(status->text(), QString("closed, 12 triangles"));
    }

    // A keyframed rotation shows its value at the current frame with a key button (keyed at
    // frame 0); turning such an item with the rotate handle (auto-key off) turns every key.
    void keyframedRotationTurnsEveryKey()
    {
        Document doc;
        doc.reset(makeScene(Dimension::TwoD), {});
        Item spinning = boxItem();
        spinning.rotation.keys = {{0.0, {0.f, 0.f, 0.f}, {}}, {10.0, {0.f, 0.f, 90.f}, {}}};
        doc.undoStack()->push(new AddItem(&doc, 0, spinning));
        doc.setSelectedItem(0);
        PropertiesPanel panel(&doc);
        auto *key = panel.findChild<KeyButton *>("key_rotation");
        QVERIFY(key);
        QCOMPARE(key->state(), KeyButton::State::Keyed);
        SelectView shown(&doc);
        QVERIFY(shown.show());
        Viewport &view = shown.view;
        turnView(view, view.rotateHandle(0), view.toWidget({0.5f, 0.5f, 0.5f}), 45.0,
                 Qt::ShiftModifier);
        const Animated<Vec3> &r = doc.scene().items[0].rotation;
        QCOMPARE(r.keys[0].value, (Vec3{0.f, 0.f, 45.f}));
        QCOMPARE(r.keys[1].value, (Vec3{0.f, 0.f, 135.f}));
    }
};

QTEST_MAIN(TestUiMesh)
#include "tst_ui_mesh.moc"
