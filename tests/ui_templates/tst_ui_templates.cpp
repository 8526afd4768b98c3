// SPDX-License-Identifier: Apache-2.0
// File > New from Template (issue 17): every example is a template with a thumbnail and a
// description, and choosing one with the mouse opens it as a new, unsaved scene. Item presets:
// an item saved from one scene is added to another, in the same place relative to the box.
#include <core/io/scenereader.h>
#include <core/scene/shapecoverage.h>
#include <ui/document/document.h>
#include <ui/document/itempresets.h>
#include <ui/mainwindow/mainwindow.h>
#include <ui/mainwindow/templatedialog.h>
#include <ui/simulation/simulationcontroller.h>

#include <QAction>
#include <QApplication>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include <cmath>
#include <functional>

using namespace plume;

namespace {

/// Runs `act` on the next modal dialog of type D once it is open (giving up after 10 s, so
/// that a dialog that never came does not leave a timer behind for the next test).
template<class D>
void onNextDialog(std::function<void(D *)> act, int tries = 300)
{
    QTimer::singleShot(30, [act, tries] {
        if (auto *d = qobject_cast<D *>(QApplication::activeModalWidget()))
            act(d);
        else if (tries > 0)
            onNextDialog<D>(act, tries - 1);
    });
}

/// Share of pixels that are not fully transparent.
double coverage(const QImage &image)
{
    const QImage argb = image.convertToFormat(QImage::Format_ARGB32);
    qint64 seen = 0;
    for (int y = 0; y < argb.height(); ++y)
        for (int x = 0; x < argb.width(); ++x)
            seen += qAlpha(argb.pixel(x, y)) > 8;
    return double(seen) / double(argb.width() * argb.height());
}

} // namespace

class TestUiTemplates : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // Presets go to ~/.qttest, not the user's data folder; start without any.
        QStandardPaths::setTestModeEnabled(true);
        QDir(itemPresetFolder()).removeRecursively();
    }
    void cleanupTestCase() { QDir(itemPresetFolder()).removeRecursively(); }

    // Every example has a description and a thumbnail showing something (scripts/make-
    // thumbnails renders them); the list keeps templates.json's order, the default scene first.
    void everyExampleIsATemplate()
    {
        MainWindow window; // registers the embedded scenes
        const QStringList examples = MainWindow::exampleScenes();
        const QList<SceneTemplate> templates = sceneTemplates(examples);
        QCOMPARE(templates.size(), examples.size());
        QCOMPARE(templates.front().name, QString("plume-2d"));
        for (const SceneTemplate &t : templates) {
            QVERIFY2(!t.description.isEmpty(), qPrintable(t.name
                                                          + ": no description in "
                                                            "templates.json"));
            const QImage image(t.thumbnail);
            QVERIFY2(!image.isNull(), qPrintable(t.name
                                                 + ": no thumbnail (run "
                                                   "scripts/make-thumbnails)"));
            QCOMPARE(std::max(image.width(), image.height()), 160);
            QVERIFY2(coverage(image) > 0.02, qPrintable(t.name + ": the thumbnail is empty"));
            QVERIFY2(t.summary.contains(" cells, ") && t.summary.contains(" scheme, "),
                     qPrintable(t.summary));
        }
    }

    // Ctrl+Shift+N opens the dialog; clicking a thumbnail shows its description; a
    // double-click opens that scene, unsaved and unmodified, and it simulates.
    void doubleClickOpensTemplate()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.openDefaultScene();
        bool seen = false;
        onNextDialog<TemplateDialog>([&seen](TemplateDialog *d) {
            QListWidget *list = d->list();
            const QList<QListWidgetItem *> found = list->findItems("cylinder-2d", Qt::MatchExactly);
            QCOMPARE(found.size(), 1);
            const QPoint at = list->visualItemRect(found.front()).center();
            QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, at);
            QVERIFY(d->findChild<QLabel *>("templateDetails")->text().contains("vortex street"));
            QCOMPARE(d->selectedScene(), QString(":/scenes/cylinder-2d.plume"));
            QTest::mouseDClick(list->viewport(), Qt::LeftButton, {}, at);
            seen = true;
        });
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QTest::keyClick(&window, Qt::Key_N, Qt::ControlModifier | Qt::ShiftModifier);
        QTRY_VERIFY_WITH_TIMEOUT(seen, 10000);
        QTRY_COMPARE(window.document()->scene().name, std::string("cylinder-2d"));
        QVERIFY(window.document()->filePath().isEmpty());
        QVERIFY(!window.document()->isModified());
        QTRY_VERIFY_WITH_TIMEOUT(window.simulation()->headFrame() >= 2, 60000);
    }

    // Cancel keeps the scene that was open.
    void cancelKeepsScene()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.openDefaultScene();
        bool seen = false;
        onNextDialog<TemplateDialog>([&seen](TemplateDialog *d) {
            d->list()->setCurrentRow(3);
            QTest::keyClick(d, Qt::Key_Escape);
            seen = true;
        });
        window.action("actionNewFromTemplate")->trigger();
        QVERIFY(seen);
        QCOMPARE(window.document()->scene().name, std::string("plume-2d"));
    }

    // Every template saved into a folder of its own reads without the app: the file names no
    // ":/" path (models, images and the liquid texture are copied beside it), and it reads
    // back to the same scene.
    void everyTemplateSavesStandalone()
    {
        MainWindow window;
        for (const QString &path : MainWindow::exampleScenes()) {
            QTemporaryDir dir;
            QVERIFY(window.openFile(path));
            const QString saved = dir.filePath(QFileInfo(path).fileName());
            QVERIFY2(window.saveTo(saved), qPrintable(path));
            QFile file(saved);
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QByteArray json = file.readAll();
            QVERIFY2(!json.contains("\":/"),
                     qPrintable(path + " still names a file inside the app"));
            const SceneReadResult r = readSceneFile(saved);
            QVERIFY2(r.ok, r.error.c_str());
            QCOMPARE(r.scene.items.size(), window.document()->scene().items.size());
        }
    }

    // Save the default scene's emitter as a preset, add it to a scene twice as wide: the same
    // emitter, named uniquely, at the same place relative to the box; one undo step. The Add
    // Preset menu lists it, and a 3D scene refuses it.
    void presetRoundTrip()
    {
        MainWindow window;
        window.openDefaultScene();
        Document *doc = window.document();
        const Scene original = doc->scene();
        const auto source = std::find_if(original.items.begin(), original.items.end(),
                                         [](const Item &i) { return i.kind == ItemKind::Emitter; });
        QVERIFY(source != original.items.end());
        doc->setSelectedItem(int(source - original.items.begin()));
        QVERIFY(window.saveItemPresetWithPrompt("warm/source"));
        const QString path = QDir(itemPresetFolder()).filePath("warm_source.plume");
        QVERIFY(QFileInfo::exists(path));

        Scene wide;
        wide.name = "wide";
        wide.domain.size = {2.f, 1.f, 1.f};
        wide.domain.origin = {-1.f, 0.f, 0.f};
        wide.items.push_back(*source); // a namesake: the preset's copy is renamed
        doc->reset(wide, {});
        auto *menu = window.findChild<QMenu *>("menuAddPreset");
        QVERIFY(menu);
        Q_EMIT menu->aboutToShow();
        QAction *entry = nullptr;
        for (QAction *a : menu->actions())
            if (a->text() == "warm_source (emitter, 2D)")
                entry = a;
        QVERIFY(entry && entry->isEnabled());
        entry->trigger();
        QCOMPARE(int(doc->scene().items.size()), 2);
        const Item &added = doc->scene().items[1];
        QCOMPARE(added.name, source->name + " 2");
        QCOMPARE(added.emitter, source->emitter);
        QCOMPARE(doc->selectedItem(), 1);
        const sim::Vec3 before = shapePivot(source->shape), after = shapePivot(added.shape);
        // x: the fraction of the width, in the wider box; y unchanged (same height).
        QVERIFY2(std::abs(after.x - (-1.f + before.x * 2.f)) < 1e-5f,
                 qPrintable(QString::number(after.x)));
        QVERIFY(std::abs(after.y - before.y) < 1e-5f);
        doc->undoStack()->undo();
        QCOMPARE(int(doc->scene().items.size()), 1);

        Scene cube;
        cube.domain.dimension = Dimension::ThreeD;
        doc->reset(cube, {});
        Q_EMIT menu->aboutToShow();
        for (QAction *a : menu->actions())
            if (a->text().startsWith("warm_source"))
                QVERIFY(!a->isEnabled());
        Item item;
        const sim::Status refused = loadItemPreset(path, doc->scene(), item);
        QVERIFY(!refused);
        QVERIFY2(
            QString::fromStdString(refused.error).contains("a 2D preset does not fit a 3D scene"),
            refused.error.c_str());
    }
};

QTEST_MAIN(TestUiTemplates)
#include "tst_ui_templates.moc"
