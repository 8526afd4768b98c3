// SPDX-License-Identifier: Apache-2.0
// The window's overlays and first-run help, driven like a user: View > Streamlines draws the
// frame's streamlines in every view, the colour legend follows the pointer with the value of
// the cell under it, the getting-started card comes up on a first start only and closes with
// its buttons, the layout is kept and reset, dropped files open or import (or are refused
// with a message), and every tool and property editor has a tooltip.
#include <ui/document/document.h>
#include <ui/document/undocommands.h>
#include <ui/mainwindow/gettingstarted.h>
#include <ui/mainwindow/mainwindow.h>
#include <ui/panels/propertiespanel.h>
#include <ui/panels/propertyhelp.h>
#include <ui/simulation/simulationcontroller.h>
#include <ui/viewport/viewlayout.h>
#include <ui/viewport/viewport.h>

#include <QAction>
#include <QCheckBox>
#include <QDockWidget>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QScreen>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QToolBar>
#include <QtTest>

#include <tests/common/uitest.h>

#include <functional>

using namespace plume;
using plume::test::showActive;

namespace {

/// Drops `path` on `target` at its middle as a file manager would: drag enter, then drop.
/// Returns whether the drag enter was accepted.
bool dropFile(QWidget *target, const QString &path)
{
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(path)});
    const QPoint at = target->rect().center();
    QDragEnterEvent enter(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &enter);
    if (!enter.isAccepted())
        return false;
    QDropEvent drop(QPointF(at), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &drop);
    return true;
}

/// Answers the next modal dialog of type T with `answer` (run with a timer before the call
/// that opens it); `seen` records that it came.
template<class T>
void answerNextDialog(const std::function<void(T *)> &answer, bool *seen)
{
    QTimer::singleShot(50, [answer, seen] {
        if (auto *d = qobject_cast<T *>(QApplication::activeModalWidget())) {
            *seen = true;
            answer(d);
        } else {
            answerNextDialog<T>(answer, seen);
        }
    });
}

/// The 2D default scene at 48 cells, written into `dir`.
QString writeScene(const QTemporaryDir &dir, const QString &name)
{
    QFile in(PLUME_SOURCE_DIR "/resources/scenes/plume-2d.plume");
    if (!in.open(QIODevice::ReadOnly))
        return {};
    QString text = QString::fromUtf8(in.readAll());
    text.replace("\"resolution\": 128", "\"resolution\": 48");
    QFile out(dir.filePath(name));
    if (!out.open(QIODevice::WriteOnly) || out.write(text.toUtf8()) < 0)
        return {};
    return out.fileName();
}

/// The labels of the form rows under `root` whose editor has no tooltip.
QStringList rowsWithoutTips(QWidget *root, int *rows)
{
    QStringList missing;
    for (QFormLayout *form : root->findChildren<QFormLayout *>())
        for (int r = 0; r < form->rowCount(); ++r) {
            QLayoutItem *field = form->itemAt(r, QFormLayout::FieldRole);
            QLayoutItem *label = form->itemAt(r, QFormLayout::LabelRole);
            if (!field || !field->widget())
                continue;
            ++*rows;
            const QString text = label && label->widget()
                                     ? qobject_cast<QLabel *>(label->widget())->text()
                                     : QString("row %1").arg(r);
            const QString tip = field->widget()->toolTip();
            // "Label (unit): what it does" or "Label: what it does".
            if (!tip.startsWith(text) || !tip.contains(": "))
                missing << text;
        }
    return missing;
}

} // namespace

class TestUiOverlays : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("PlumeTests");
        QCoreApplication::setApplicationName("tst_ui_overlays");
        QSettings().clear();
    }

    // View > Streamlines: the main view and the slice views draw the shown frame's lines
    // (inside the domain, coloured pixels that were not there before); off again, none.
    void streamlinesFromTheViewMenu()
    {
        MainWindow window;
        QVERIFY(showActive(window));
        window.openDefaultScene();
        QTRY_VERIFY_WITH_TIMEOUT(window.simulation()->headFrame() >= 20, 60000);
        window.simulation()->pause();
        Viewport *view = window.viewport();
        QVERIFY(view->streamlines().empty());
        const QImage before = view->grab().toImage();
        window.action("actionStreamlines")->trigger();
        QVERIFY(view->overlay(Viewport::Streamlines));
        QVERIFY(window.viewLayout()->sliceView(1)->overlay(Viewport::Streamlines));
        const std::vector<Streamline> &lines = view->streamlines();
        QVERIFY2(lines.size() > 10, qPrintable(QString::number(lines.size())));
        const sim::Domain d = makeDomain(window.document()->scene().domain);
        for (const Streamline &l : lines)
            for (const sim::Vec3 &p : l.points)
                QVERIFY(p.x >= d.origin.x && p.x <= d.origin.x + d.extent().x && p.y >= d.origin.y
                        && p.y <= d.origin.y + d.extent().y);
        const QImage after = view->grab().toImage();
        int changed = 0;
        for (int y = 0; y < after.height(); ++y)
            for (int x = 0; x < after.width(); ++x)
                changed += before.pixel(x, y) != after.pixel(x, y) ? 1 : 0;
        QVERIFY2(changed > 2000, qPrintable(QString::number(changed)));
        // A new frame has its own lines.
        const int shown = view->frameNumber();
        window.simulation()->step();
        QTRY_VERIFY_WITH_TIMEOUT(view->frameNumber() != shown, 20000);
        QVERIFY(!view->streamlines().empty());
        window.action("actionStreamlines")->trigger();
        QVERIFY(view->streamlines().empty());
    }

    // The legend shows the speed under the pointer: the value of the cell the pointer is in,
    // with its coordinates; it goes when the pointer leaves; View > Colour Legend hides it.
    void legendFollowsThePointer()
    {
        MainWindow window;
        QVERIFY(showActive(window));
        window.openDefaultScene();
        QTRY_VERIFY_WITH_TIMEOUT(window.simulation()->headFrame() >= 20, 60000);
        window.simulation()->pause();
        Viewport *view = window.viewport();
        view->setField(ViewField::Speed);
        QVERIFY(view->overlay(Viewport::Legend));
        const FrameData *slice = view->sliceData();
        QVERIFY(slice);
        // The middle of cell (i, j) of the speed field, above the source.
        const sim::Domain &d = slice->domain;
        const int i = d.cells.x / 2, j = d.cells.y / 3;
        const QPoint at = view->toWidget(d.cellCentre(i, j, 0)).toPoint();
        QTest::mouseMove(view, at);
        const std::optional<LegendProbe> probe = view->pointerProbe();
        QVERIFY(probe);
        QCOMPARE(probe->i, i);
        QCOMPARE(probe->j, j);
        const float speed = slice->field(DisplayField::Speed)(i, j, 0);
        QCOMPARE(probe->value, speed);
        QVERIFY(speed > 0.f);
        QCOMPARE(probeText(*probe, ViewField::Speed), QString("%1 units/s at cell (%2, %3)")
                                                          .arg(QString::number(speed, 'g', 3))
                                                          .arg(i)
                                                          .arg(j));
        // Drawn: the legend's corner differs with the probe from without it.
        const QImage with = view->grab().toImage();
        QEvent leave(QEvent::Leave);
        QApplication::sendEvent(view, &leave);
        QVERIFY(!view->pointerProbe());
        const QImage without = view->grab().toImage();
        const QRect corner(view->width() - 260, view->height() - 110, 260, 60);
        QVERIFY(with.copy(corner) != without.copy(corner));
        // Outside the domain: no probe.
        QTest::mouseMove(view, view->domainRect().topLeft().toPoint() - QPoint(5, 5));
        QVERIFY(!view->pointerProbe());
        window.action("actionLegend")->trigger();
        QVERIFY(!view->overlay(Viewport::Legend));
        QVERIFY(!window.viewLayout()->sliceView(2)->overlay(Viewport::Legend));
    }

    // The getting-started card: up on a first start, five steps with shortcuts, closed by its
    // button; "Don't show again" keeps it down at the next start; Help > Getting Started
    // brings it back; Escape closes it.
    void gettingStartedOnFirstRunOnly()
    {
        QSettings().remove("help");
        {
            MainWindow window;
            QVERIFY(showActive(window));
            window.openDefaultScene(); // the Properties dock then holds text fields
            GettingStarted *card = window.gettingStarted();
            QVERIFY(!card->isVisible()); // the app asks for it, not the window
            QVERIFY(window.showGettingStartedIfWanted());
            QVERIFY(card->isVisible());
            for (int n = 1; n <= 5; ++n)
                QVERIFY(card->findChild<QLabel *>(QString("gettingStartedStep%1").arg(n)));
            QVERIFY(card->findChild<QLabel *>("gettingStartedStep1")->text().contains("Space"));
            // Centred over the views, inside them.
            const QRect views = window.viewLayout()->rect();
            QVERIFY(views.contains(card->geometry()));
            QVERIFY(std::abs(card->geometry().center().x() - views.center().x()) <= 2);
            // Closed without "Don't show again": it comes back next time.
            QTest::mouseClick(card->closeButton(), Qt::LeftButton);
            QVERIFY(!card->isVisible());
            // The keyboard goes back to the views, not to a text field, so that Space (step 1)
            // plays and pauses instead of typing into the Properties dock.
            QWidget *focus = QApplication::focusWidget();
            QVERIFY2(!qobject_cast<QLineEdit *>(focus),
                     qPrintable(focus ? focus->objectName() : QString("none")));
            QVERIFY(focus == window.viewLayout() || window.viewLayout()->isAncestorOf(focus));
        }
        {
            MainWindow window;
            QVERIFY(showActive(window));
            QVERIFY(window.showGettingStartedIfWanted());
            GettingStarted *card = window.gettingStarted();
            QVERIFY(!card->dontShowAgain()->isChecked());
            QTest::mouseClick(card->dontShowAgain(), Qt::LeftButton);
            QVERIFY(card->dontShowAgain()->isChecked());
            QTest::mouseClick(card->closeButton(), Qt::LeftButton);
            QVERIFY(!card->isVisible());
        }
        MainWindow window;
        QVERIFY(showActive(window));
        QVERIFY(!window.showGettingStartedIfWanted());
        QVERIFY(!window.gettingStarted()->isVisible());
        window.action("actionGettingStarted")->trigger();
        QVERIFY(window.gettingStarted()->isVisible());
        QVERIFY(window.gettingStarted()->dontShowAgain()->isChecked());
        QTest::keyClick(window.gettingStarted(), Qt::Key_Escape);
        QVERIFY(!window.gettingStarted()->isVisible());
        QVERIFY(!GettingStarted::wantedAtStart());
    }

    // A first start fills 80 % of the screen, centred, the views the largest part; docks
    // moved and hidden stay so after a restart; View > Reset Layout puts everything back.
    void layoutIsKeptAndReset()
    {
        QCOMPARE(MainWindow::defaultGeometry({0, 0, 1400, 900}), QRect(140, 90, 1120, 720));
        QCOMPARE(MainWindow::defaultGeometry({0, 0, 2560, 1440}), QRect(256, 144, 2048, 1152));
        QCOMPARE(MainWindow::defaultGeometry({0, 20, 800, 580}), QRect(0, 20, 800, 580));
        QCOMPARE(MainWindow::defaultGeometry({0, 0, 1400, 900}, 1250), QRect(75, 90, 1250, 720));
        QCOMPARE(MainWindow::defaultGeometry({0, 0, 1400, 900}, 1600), QRect(0, 90, 1400, 720));
        QSettings().remove("window");
        const QRect available = QGuiApplication::primaryScreen()->availableGeometry();
        {
            MainWindow window;
            QVERIFY(showActive(window));
            QCOMPARE(window.size(), window.defaultGeometry().size());
            QVERIFY(window.width() >= MainWindow::defaultGeometry(available).width());
            // Every tool button shows (none in the toolbar's overflow menu).
            auto *tools = window.findChild<QToolBar *>("toolsToolBar");
            for (QAction *a : tools->actions())
                QVERIFY2(tools->widgetForAction(a) && tools->widgetForAction(a)->isVisible(),
                         qPrintable(a->text()));
            // The views are the largest part: wider than every dock, over a third of the window.
            const QSize views = window.viewLayout()->size();
            const QString sizes = QString("%1 x %2 of %3 x %4")
                                      .arg(views.width())
                                      .arg(views.height())
                                      .arg(window.width())
                                      .arg(window.height());
            qInfo("views %s", qPrintable(sizes));
            for (QDockWidget *dock : window.findChildren<QDockWidget *>())
                if (dock->isVisible() && dock->objectName() != "timelineDock")
                    QVERIFY2(views.width() > dock->width(),
                             qPrintable(dock->objectName() + ": " + sizes));
            QVERIFY2(views.width() * views.height() > window.width() * window.height() / 3,
                     qPrintable(sizes));
            window.findChild<QDockWidget *>("outlinerDock")->hide();
            window.resize(window.width() - 50, window.height() - 40);
            QVERIFY(window.close());
        }
        {
            MainWindow window;
            QVERIFY(showActive(window));
            QVERIFY(!window.findChild<QDockWidget *>("outlinerDock")->isVisible());
            QCOMPARE(window.size(), window.defaultGeometry().size() - QSize(50, 40));
            window.action("actionResetLayout")->trigger();
            QTRY_VERIFY(window.findChild<QDockWidget *>("outlinerDock")->isVisible());
            QCOMPARE(window.size(), window.defaultGeometry().size());
            QVERIFY(window.close());
        }
        QSettings().remove("window");
    }

    // Dropping files on the window: a scene opens (asking first about unsaved changes), an
    // image becomes an image emitter (one undo step), a model brings up the Import Model dialog
    // with its name filled in, anything else is refused with a message.
    void droppedFilesOpenOrImport()
    {
        QTemporaryDir dir;
        const QString scene = writeScene(dir, "dropped.plume");
        QVERIFY(!scene.isEmpty());
        QImage picture(64, 32, QImage::Format_RGB32);
        picture.fill(Qt::white);
        QVERIFY(picture.save(dir.filePath("logo.png")));
        QFile::copy(PLUME_SOURCE_DIR "/resources/scenes/models/paddle.obj",
                    dir.filePath("paddle.obj"));
        QFile text(dir.filePath("notes.txt"));
        QVERIFY(text.open(QIODevice::WriteOnly));
        text.write("hello");
        text.close();

        MainWindow window;
        QVERIFY(showActive(window));
        window.openDefaultScene();
        window.simulation()->pause();
        Document *doc = window.document();

        // A scene dropped on the view goes up to the window and opens (nothing unsaved).
        QVERIFY(dropFile(window.viewport(), scene));
        QCOMPARE(doc->filePath(), QFileInfo(scene).absoluteFilePath());
        QCOMPARE(doc->scene().domain.resolution, 48);

        // An image: an emitter over the domain with the image's aspect (2:1), undoable.
        const std::size_t items = doc->scene().items.size();
        QVERIFY(dropFile(&window, dir.filePath("logo.png")));
        QCOMPARE(doc->scene().items.size(), items + 1);
        const Item &image = doc->scene().items.back();
        QCOMPARE(image.shape.type, ShapeType::Image);
        QCOMPARE(image.kind, ItemKind::Emitter);
        QCOMPARE(QString::fromStdString(image.shape.file), dir.filePath("logo.png"));
        QCOMPARE(image.shape.imageMax.x - image.shape.imageMin.x, 1.f);
        QCOMPARE(image.shape.imageMax.y - image.shape.imageMin.y, 0.5f);
        QCOMPARE(doc->selectedItem(), int(items));
        QVERIFY(doc->isModified());

        // Another scene now asks about the unsaved image: Cancel keeps everything.
        bool asked = false;
        answerNextDialog<QMessageBox>([](QMessageBox *b) { b->done(QMessageBox::Cancel); }, &asked);
        const QString other = writeScene(dir, "other.plume");
        QVERIFY(dropFile(&window, other));
        QVERIFY(asked);
        QCOMPARE(doc->filePath(), QFileInfo(scene).absoluteFilePath());
        QCOMPARE(doc->scene().items.size(), items + 1);
        window.action("actionUndo")->trigger();
        QCOMPARE(doc->scene().items.size(), items);

        // A model: the Import Model dialog, prefilled with the file's name; Cancel adds none.
        bool dialog = false;
        QString name;
        answerNextDialog<QDialog>(
            [&name](QDialog *d) {
            if (auto *edit = d->findChild<QLineEdit *>("modelName"))
                name = edit->text();
            d->reject();
            },
            &dialog);
        QVERIFY(dropFile(&window, dir.filePath("paddle.obj")));
        QVERIFY(dialog);
        QCOMPARE(name, QString("paddle"));
        QCOMPARE(doc->scene().items.size(), items);

        // Anything else: refused as it enters, with what Plume takes.
        QVERIFY(!dropFile(&window, dir.filePath("notes.txt")));
        QVERIFY(window.statusBar()->currentMessage().contains("Cannot open notes.txt"));
        QVERIFY(window.statusBar()->currentMessage().contains("png"));
        QCOMPARE(doc->scene().items.size(), items);
        QCOMPARE(doc->filePath(), QFileInfo(scene).absoluteFilePath());
    }

    // Every tool says what it does, with its shortcut and units where it has some.
    void toolsHaveTips()
    {
        MainWindow window;
        for (const QString &name : {"Select", "Emitter Brush", "Obstacle Brush", "Force Brush",
                                    "Eraser", "Circle", "Box", "Capsule"}) {
            QAction *a = window.toolAction(name);
            QVERIFY2(a, qPrintable(name));
            const QString tip = a->toolTip();
            QVERIFY2(tip.contains(a->shortcut().toString()) && tip.size() > name.size() + 30,
                     qPrintable(name + ": " + tip));
        }
        QVERIFY(window.toolAction("Emitter Brush")->toolTip().contains("world units"));
    }

    // Every property editor of the panel has a tooltip "Label (unit): ...": for every item
    // kind and shape type, keyframed or not, in 2D and 3D, with each scheme. This fails for a
    // new property that nobody described (add it to ui/panels/propertyhelp.cpp).
    void everyPropertyHasATip()
    {
        QCOMPARE(propertyTip("Simulation", "Buoyancy (temperature)"),
                 QString("Buoyancy (temperature) (units/s^2 per unit temperature): hot gas rises "
                         "by this acceleration per degree above ambient"));
        QVERIFY(propertyTip("Simulation", "No such property").isEmpty());
        QVERIFY(propertyTip("Force", "Scale").contains("units"));
        QVERIFY(propertyTip("Item", "Scale").contains("factor"));

        QStringList missing;
        int rows = 0;
        for (Dimension dimension : {Dimension::TwoD, Dimension::ThreeD})
            for (sim::Scheme scheme :
                 {sim::Scheme::Smoke, sim::Scheme::Stam, sim::Scheme::Ocean, sim::Scheme::Sph})
                for (ItemKind kind : {ItemKind::Emitter, ItemKind::Obstacle, ItemKind::ForceField})
                    for (ShapeType type :
                         {ShapeType::Sphere, ShapeType::Box, ShapeType::Capsule, ShapeType::Stroke,
                          ShapeType::Image, ShapeType::Everywhere, ShapeType::Mesh})
                        for (bool keyed : {false, true}) {
                            Scene scene;
                            scene.domain.dimension = dimension;
                            scene.simulation.params.scheme = scheme;
                            Item item;
                            item.name = "item";
                            item.kind = kind;
                            item.shape.type = type;
                            item.shape.points = {StrokePoint{}};
                            if (keyed) {
                                item.offset.keys = {{0.0, {}, {}}, {10.0, {0.1f, 0.f, 0.f}, {}}};
                                item.rotation.keys = item.offset.keys;
                                item.scale.keys = {{0.0, {1.f, 1.f, 1.f}, {}}};
                                item.emitter.rate.keys = {{0.0, 1.f, {}}};
                                item.force.strength.keys = {{0.0, 1.f, {}}};
                            }
                            scene.items.push_back(item);
                            Document document;
                            document.reset(scene, {});
                            document.setSelectedItem(0);
                            PropertiesPanel panel(&document);
                            for (const QString &m : rowsWithoutTips(&panel, &rows))
                                if (!missing.contains(m))
                                    missing << m;
                        }
        QVERIFY2(missing.isEmpty(), qPrintable("no tooltip: " + missing.join(", ")));
        QVERIFY2(rows > 5000, qPrintable(QString::number(rows)));
    }
};

// The offscreen platform's screen is 800 x 600 unless told otherwise: give it the 1400 x 900
// screen of the Xvfb runs, so the first-start layout is the one users of such a screen get.
int main(int argc, char **argv)
{
    if (qgetenv("QT_QPA_PLATFORM") == "offscreen")
        qputenv("QT_QPA_PLATFORM",
                "offscreen:configfile=" PLUME_SOURCE_DIR "/tests/ui_overlays/screen-1400x900.json");
    QApplication app(argc, argv);
    TestUiOverlays test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_ui_overlays.moc"
