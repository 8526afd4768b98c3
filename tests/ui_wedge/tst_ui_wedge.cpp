// SPDX-License-Identifier: Apache-2.0
// File > Export's Variations section (ui/export/wedgegroup, docs/wedges.md) driven through its
// widgets: keys picked from the scene, the count and the refusals shown as the rows are typed,
// Export baking each variation into its own folder with the dialog's settings, a failed
// variation named, Cancel, and the document left untouched.
#include <core/bake/wedge.h>
#include <core/io/scenereader.h>
#include <core/scene/shapecoverage.h>
#include <ui/document/document.h>
#include <ui/export/exportdialog.h>
#include <ui/export/wedgegroup.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

// The examples inside the app (plume.qrc, in the static plume_ui library).
static void initPlumeResources() { Q_INIT_RESOURCE(plume); }

using namespace plume;

namespace {

constexpr int kWaitMs = 60000; ///< generous: the machine may be busy with other builds

Scene example(int resolution, int frames)
{
    SceneReadResult r = readSceneFile(PLUME_SOURCE_DIR "/resources/scenes/plume-2d.plume");
    if (!r.ok)
        qFatal("%s", r.error.c_str());
    r.scene.domain.resolution = resolution;
    r.scene.simulation.frameEnd = r.scene.simulation.frameStart + frames - 1;
    return r.scene;
}

template<class W>
W *child(const QWidget &parent, const char *name)
{
    W *w = parent.findChild<W *>(name);
    if (!w)
        qFatal("no widget %s", name);
    return w;
}

/// Row `row`'s key box and values field.
QComboBox *keyBox(WedgeGroup *group, int row)
{
    return qobject_cast<QComboBox *>(group->table()->cellWidget(row, 0));
}
QLineEdit *valuesEdit(WedgeGroup *group, int row)
{
    return qobject_cast<QLineEdit *>(group->table()->cellWidget(row, 1));
}

/// Adds a row with the Add Key button and types the key and values into it.
void typeRow(ExportDialog &dialog, const QString &key, const QString &values)
{
    WedgeGroup *group = dialog.wedgeGroup();
    QTest::mouseClick(child<QPushButton>(dialog, "wedgeAdd"), Qt::LeftButton);
    const int row = group->rowCount() - 1;
    QComboBox *box = keyBox(group, row);
    box->lineEdit()->selectAll();
    QTest::keyClicks(box->lineEdit(), key);
    QTest::keyClicks(valuesEdit(group, row), values);
}

/// The dialog set to bake small images only into `dir`, base name `base`.
void smallImages(ExportDialog &dialog, const QString &dir, const QString &base)
{
    child<QLineEdit>(dialog, "outputDirectory")->setText(dir);
    child<QLineEdit>(dialog, "baseName")->setText(base);
    child<QCheckBox>(dialog, "flipbookEnabled")->setChecked(false);
    child<QCheckBox>(dialog, "imagesEnabled")->setChecked(true);
    child<QCheckBox>(dialog, "vdbEnabled")->setChecked(true);
    child<QSpinBox>(dialog, "frameWidth")->setValue(16);
    child<QSpinBox>(dialog, "frameHeight")->setValue(16);
}

} // namespace

class TestUiWedge : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("plume-tests");
        QCoreApplication::setApplicationName("tst_ui_wedge");
        initPlumeResources();
    }

    // The count and the refusals follow the rows as they are typed; Export waits for a wedge
    // that can be made and says how many variations it bakes.
    void rowsShowCountAndRefusals()
    {
        Document document;
        document.reset(example(16, 3), {});
        ExportDialog dialog(&document, 1);
        WedgeGroup *group = dialog.wedgeGroup();
        auto *exportButton = child<QPushButton>(dialog, "exportButton");
        auto *message = child<QLabel>(dialog, "message");
        QVERIFY(!group->isOn());
        QVERIFY(exportButton->isEnabled());
        QCOMPARE(exportButton->text(), QString("Export"));

        group->setChecked(true);
        QVERIFY(!exportButton->isEnabled());
        QCOMPARE(group->status()->text(), QString("Add a key to vary."));
        QVERIFY(message->text().startsWith("Variations: "));

        // Keys are offered from the scene: its numbers and its items by name.
        QTest::mouseClick(child<QPushButton>(dialog, "wedgeAdd"), Qt::LeftButton);
        QCOMPARE(group->rowCount(), 1);
        QComboBox *box = keyBox(group, 0);
        QVERIFY(box->findText("simulation.vorticity") >= 0);
        QVERIFY(box->findText("items[source].emitter.density") >= 0);
        QVERIFY(box->findText("items[obstacle].offset[0]") >= 0);
        box->setCurrentIndex(box->findText("simulation.vorticity"));
        QTest::keyClicks(valuesEdit(group, 0), "0.1,0.2");
        QCOMPARE(group->status()->text(), QString("2 variations"));
        QVERIFY(exportButton->isEnabled());
        QCOMPARE(exportButton->text(), QString("Export 2 Variations"));

        // A value out of range: the reader's message, inline, before anything bakes.
        typeRow(dialog, "items[source].emitter.density", "-1,1");
        QVERIFY2(group->status()->text().contains(
                     "items[source].emitter.density = -1: plume-2d.plume: "
                     "items[0].emitter.density: expected a number >= 0, got number -1"),
                 qPrintable(group->status()->text()));
        QVERIFY(!exportButton->isEnabled());
        QVERIFY(message->text().contains("expected a number >= 0"));
        valuesEdit(group, 1)->setText("1:3:3");
        QCOMPARE(group->status()->text(), QString("6 variations"));
        QCOMPARE(exportButton->text(), QString("Export 6 Variations"));

        // A typed key the format has not; an item that does not exist; bad syntax.
        keyBox(group, 1)->setCurrentText("items[source].emitter.densty");
        QVERIFY2(group->status()->text().contains("no such key"),
                 qPrintable(group->status()->text()));
        keyBox(group, 1)->setCurrentText("items[smoke].emitter.density");
        QVERIFY(group->status()->text().contains("no element of items is named 'smoke'"));
        keyBox(group, 1)->setCurrentText("items[source].emitter.density");
        valuesEdit(group, 1)->setText("1:3");
        QVERIFY(group->status()->text().contains("needs a count"));
        QVERIFY(!exportButton->isEnabled());

        // Random: A:B is enough, N variations.
        child<QCheckBox>(dialog, "wedgeRandom")->setChecked(true);
        child<QSpinBox>(dialog, "wedgeRandomCount")->setValue(5);
        QCOMPARE(group->status()->text(), QString("5 variations"));
        QVERIFY(exportButton->isEnabled());

        // Too many.
        child<QCheckBox>(dialog, "wedgeRandom")->setChecked(false);
        valuesEdit(group, 0)->setText("0:1:40");
        valuesEdit(group, 1)->setText("1:3:30");
        QVERIFY(group->status()->text().contains("1200 variations (40 x 30)"));
        QVERIFY(!exportButton->isEnabled());

        // Rows go; with the section off, the scene exports as before.
        group->table()->setCurrentCell(1, 1);
        QTest::mouseClick(child<QPushButton>(dialog, "wedgeRemove"), Qt::LeftButton);
        QCOMPARE(group->rowCount(), 1);
        QCOMPARE(group->status()->text(), QString("40 variations"));
        group->setChecked(false);
        QVERIFY(exportButton->isEnabled());
        QCOMPARE(exportButton->text(), QString("Export"));
        QCOMPARE(document.undoStack()->count(), 0);
    }

    // Remove Key removes the row being edited (the button takes no focus from it).
    // A new row starts with a setting artists wedge and no row varies yet: vorticity first.
    void newRowsOfferUnusedSettings()
    {
        Document document;
        document.reset(example(16, 3), {});
        ExportDialog dialog(&document, 1);
        WedgeGroup *group = dialog.wedgeGroup();
        group->setChecked(true);
        QPushButton *add = child<QPushButton>(dialog, "wedgeAdd");
        add->click(); // not shown: no window to activate
        QCOMPARE(keyBox(group, 0)->currentText(), QString("simulation.vorticity"));
        add->click(); // not shown: no window to activate
        QCOMPARE(keyBox(group, 1)->currentText(), QString("simulation.buoyancyTemperature"));
    }

    void removeGoesByFocus()
    {
        Document document;
        document.reset(example(16, 3), {});
        ExportDialog dialog(&document, 1);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowActive(&dialog));
        WedgeGroup *group = dialog.wedgeGroup();
        group->setChecked(true);
        typeRow(dialog, "simulation.vorticity", "0.1");
        typeRow(dialog, "items[source].emitter.density", "1,2");
        typeRow(dialog, "simulation.diffusion", "0,0.001");
        QCOMPARE(group->status()->text(), QString("4 variations"));
        QTest::mouseClick(valuesEdit(group, 0), Qt::LeftButton);
        QVERIFY(valuesEdit(group, 0)->hasFocus());
        QTest::mouseClick(child<QPushButton>(dialog, "wedgeRemove"), Qt::LeftButton);
        QCOMPARE(group->rowCount(), 2);
        QCOMPARE(keyBox(group, 0)->currentText(), QString("items[source].emitter.density"));
        QCOMPARE(group->status()->text(), QString("4 variations"));
    }

    // Export bakes every variation with the dialog's settings into <folder>/<base>_w<k>/,
    // writes the wedge's scenes and manifest, and leaves the document as it was.
    void exportBakesEachVariation()
    {
        QTemporaryDir dir;
        Document document;
        document.reset(example(16, 3), {});
        const Scene before = document.scene();
        ExportDialog dialog(&document, 1);
        smallImages(dialog, dir.path(), "smoke");
        dialog.wedgeGroup()->setChecked(true);
        typeRow(dialog, "simulation.vorticity", "0.1,0.3");
        typeRow(dialog, "items[source].emitter.density", "1,4");
        QCOMPARE(dialog.wedgeGroup()->count(), 4);
        QSignalSpy started(&dialog, &ExportDialog::variationStarted);
        QSignalSpy finished(&dialog, &ExportDialog::exportFinished);
        QVERIFY(dialog.startExport());
        QVERIFY(dialog.isExporting());
        QVERIFY(finished.wait(kWaitMs));
        QCOMPARE(finished.first().first().toBool(), true);
        QCOMPARE(started.size(), 4);
        QCOMPARE(started.last().at(0).toInt(), 3);
        QCOMPARE(started.last().at(1).toInt(), 4);
        QCOMPARE(int(dialog.lastVariations().size()), 4);

        const auto read = readWedgeManifest(dir.filePath("smoke_wedge.json"));
        QVERIFY2(read, read.error().c_str());
        const WedgeManifest &manifest = read.value();
        QCOMPARE(int(manifest.variations.size()), 4);
        QCOMPARE(manifest.keys, (std::vector<std::string>{"simulation.vorticity",
                                                          "items[source].emitter.density"}));
        for (int k = 0; k < 4; ++k) {
            const QString name = QString("smoke_w%1").arg(k);
            const ExportDialog::VariationResult &v = dialog.lastVariations()[std::size_t(k)];
            QVERIFY2(v.result.status, v.result.status.error.c_str());
            QCOMPARE(QString::fromStdString(v.name), name);
            // Its scene reads, with its values.
            const SceneReadResult scene = readSceneFile(dir.filePath(name + ".plume"));
            QVERIFY2(scene.ok, scene.error.c_str());
            QCOMPARE(scene.scene.simulation.params.vorticity, k < 2 ? 0.1f : 0.3f);
            QCOMPARE(scene.scene.items[0].emitter.density, k % 2 ? 4.f : 1.f);
            // Its bake: the dialog's outputs and frames, named after the variation.
            for (int f = 1; f <= 3; ++f) {
                const QString frame = QString(".%1").arg(f, 4, 10, QChar('0'));
                QVERIFY(QFileInfo::exists(dir.filePath(name + "/" + name + frame + ".png")));
                QVERIFY(QFileInfo::exists(dir.filePath(name + "/" + name + frame + ".vdb")));
            }
            QCOMPARE(QImage(dir.filePath(name + "/" + name + ".0003.png")).size(), QSize(16, 16));
        }
        // Different values, different smoke.
        QVERIFY(QImage(dir.filePath("smoke_w0/smoke_w0.0003.png"))
                != QImage(dir.filePath("smoke_w3/smoke_w3.0003.png")));
        QVERIFY(child<QLabel>(dialog, "message")->text().startsWith("Baked 4 variations"));
        // The document is untouched: no undo command, the same scene, unmodified.
        QCOMPARE(document.undoStack()->count(), 0);
        QVERIFY(document.scene() == before);
        QVERIFY(!document.isModified());
    }

    // A variation whose bake is refused is named with its values and why; the others bake.
    void failedVariationIsReported()
    {
        QTemporaryDir dir;
        Document document;
        document.reset(example(16, 6), {});
        ExportDialog dialog(&document, 1);
        smallImages(dialog, dir.path(), "smoke");
        child<QSpinBox>(dialog, "lastFrame")->setValue(3); // not the whole range: kept
        dialog.wedgeGroup()->setChecked(true);
        typeRow(dialog, "simulation.frameEnd", "6,2,5");
        QCOMPARE(dialog.wedgeGroup()->count(), 3);
        QSignalSpy finished(&dialog, &ExportDialog::exportFinished);
        QVERIFY(dialog.startExport());
        QVERIFY(finished.wait(kWaitMs));
        QCOMPARE(finished.first().first().toBool(), false);
        const auto &v = dialog.lastVariations();
        QCOMPARE(int(v.size()), 3);
        QVERIFY(v[0].result.status && v[2].result.status);
        QVERIFY(!v[1].result.status);
        const QString text = child<QLabel>(dialog, "message")->text();
        QVERIFY2(text.startsWith("2 of 3 variations baked; 1 failed: smoke_w1 "
                                 "(simulation.frameEnd = 2): "),
                 qPrintable(text));
        QVERIFY(QFileInfo::exists(dir.filePath("smoke_w2/smoke_w2.0003.png")));
        QVERIFY(child<QPushButton>(dialog, "exportButton")->isEnabled());
    }

    // An example opened in the app names its model inside the app (":/scenes/models/knot.obj"):
    // the wedge's scene files name a copy in the folder, so plume-cli reads them.
    void exampleModelIsCopied()
    {
        SceneReadResult r = readSceneFile(":/scenes/knot-smoke-3d.plume");
        QVERIFY2(r.ok, r.error.c_str());
        Scene scene = std::move(r.scene);
        for (Item &item : scene.items) { // as File > Examples opens it (MainWindow)
            if (item.shape.type == ShapeType::Mesh)
                item.shape.file = resolveImagePath(item.shape.file, scene.directory);
        }
        scene.directory.clear();
        scene.domain.resolution = 16;
        scene.simulation.frameEnd = scene.simulation.frameStart + 1;
        QVERIFY(scene.items[0].shape.file.rfind(":/", 0) == 0);
        Document document;
        document.reset(scene, {});
        ExportDialog dialog(&document, 1);
        QTemporaryDir dir;
        smallImages(dialog, dir.path(), "knot");
        child<QCheckBox>(dialog, "imagesEnabled")->setChecked(false);
        dialog.wedgeGroup()->setChecked(true);
        typeRow(dialog, "simulation.vorticity", "0.1,0.2");
        QSignalSpy finished(&dialog, &ExportDialog::exportFinished);
        QVERIFY2(dialog.startExport(), qPrintable(child<QLabel>(dialog, "message")->text()));
        QVERIFY(finished.wait(kWaitMs));
        QCOMPARE(finished.first().first().toBool(), true);
        QVERIFY(QFileInfo::exists(dir.filePath("knot.obj")));
        for (const char *name : {"knot_w0.plume", "knot_w1.plume"}) {
            const SceneReadResult read = readSceneFile(dir.filePath(name));
            QVERIFY2(read.ok, read.error.c_str());
            for (const Item &item : read.scene.items) {
                if (item.shape.type == ShapeType::Mesh)
                    QCOMPARE(item.shape.file, std::string("knot.obj"));
            }
        }
        // The document still names the app's file.
        QVERIFY(document.scene().items[0].shape.file.rfind(":/", 0) == 0);
        QCOMPARE(document.undoStack()->count(), 0);
    }

    // Cancel stops the variation in progress after its frame and bakes no more.
    void cancelStops()
    {
        QTemporaryDir dir;
        Document document;
        document.reset(example(64, 200), {});
        ExportDialog dialog(&document, 1);
        smallImages(dialog, dir.path(), "smoke");
        dialog.wedgeGroup()->setChecked(true);
        typeRow(dialog, "simulation.vorticity", "0.1,0.2,0.3");
        QSignalSpy progressed(&dialog, &ExportDialog::progressed);
        QSignalSpy finished(&dialog, &ExportDialog::exportFinished);
        QVERIFY(dialog.startExport());
        QVERIFY(progressed.wait(kWaitMs));
        QTest::mouseClick(child<QPushButton>(dialog, "cancelButton"), Qt::LeftButton);
        QVERIFY(finished.wait(kWaitMs));
        QCOMPARE(finished.first().first().toBool(), false);
        QCOMPARE(int(dialog.lastVariations().size()), 1);
        QVERIFY(isCancelled(dialog.lastVariations()[0].result.outcome));
        QVERIFY(child<QLabel>(dialog, "message")->text().startsWith("Cancelled: 0 of 3"));
        QVERIFY(!QDir(dir.filePath("smoke_w1")).exists());
        // The scenes and the manifest were written before the bakes began.
        QVERIFY(QFileInfo::exists(dir.filePath("smoke_w2.plume")));
        QVERIFY(QFileInfo::exists(dir.filePath("smoke_wedge.json")));
    }
};

QTEST_MAIN(TestUiWedge)
#include "tst_ui_wedge.moc"
