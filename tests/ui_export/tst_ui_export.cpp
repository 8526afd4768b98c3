// SPDX-License-Identifier: Apache-2.0
// The export dialog with real widgets (offscreen): it opens with the scene's presets, its
// atlas preview is the layout core writes, Export bakes flipbook, images and OpenVDB on a
// worker thread, Cancel leaves no atlas, and the settings are remembered as one undoable
// scene edit.
#include <core/export/exrimage.h>
#include <core/export/flipbook.h>
#include <core/io/scenereader.h>
#include <ui/document/document.h>
#include <ui/export/atlaspreview.h>
#include <ui/export/exportdialog.h>
#include <ui/export/framepreview.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSet>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QWheelEvent>
#include <core/export/vectorfield.h>

#include <QtTest>

using namespace plume;

Q_DECLARE_METATYPE(plume::ExportPresets)

namespace {

constexpr int kWaitMs = 30000; ///< generous: the machine may be busy with other builds

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

bool exists(const QString &path) { return QFileInfo::exists(path); }

} // namespace

class TestUiExport : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("plume-tests");
        QCoreApplication::setApplicationName("tst_ui_export");
    }

    void opensWithScenePresets_data()
    {
        QTest::addColumn<ExportPresets>("presets");
        QTest::newRow("defaults") << ExportPresets{};
        ExportPresets p;
        p.flipbook.enabled = true;
        p.flipbook.rows = 3;
        p.flipbook.columns = 5;
        p.flipbook.padding = 4;
        p.flipbook.step = 2;
        p.flipbook.alpha = AlphaMode::Straight;
        p.flipbook.bitDepth = 16;
        p.flipbook.emission = EmissionOutput::Separate;
        p.flipbook.motionVectors = false;
        p.flipbook.motionRange = 2.5f;
        p.flipbook.loopFrames = 2;
        p.flipbook.first = 3;
        p.flipbook.last = 20;
        p.flipbook.fileName = "smoke_flipbook";
        p.images.enabled = true;
        p.images.first = 3;
        p.images.last = 20;
        p.images.step = 3;
        p.images.bitDepth = 16;
        p.images.alpha = AlphaMode::Premultiplied;
        p.images.fileName = "smoke";
        p.render.width = 48;
        p.render.height = 32;
        p.render.look2D = Look2D::Field;
        p.render.field = sim::FieldKind::Temperature;
        p.render.colorMap = ColorMap::Diverging;
        p.render.fieldMin = -0.5f;
        p.render.fieldMax = 2.f;
        p.render.lightIntensity = 0.25f;
        p.render.skyColor = {0.5f, 0.625f, 0.75f};
        p.render.anisotropy = 0.45f;
        p.render.exposure = -1.5f;
        p.render.toneCurve = ToneCurve::Clip;
        p.render.stepCells = 0.5f;   // not in the dialog: kept as it is
        p.extra.insert("vdb", true); // OpenVDB as well as flipbook and images
        p.openvdb.up = UpAxis::Z;
        p.openvdb.halfFloat = true;
        p.openvdb.velocityMask = VelocityMask::Speed; // not in the dialog: kept as it is
        QTest::newRow("everything set") << p;
    }

    // Every option shows the scene's value, and reading them back gives the presets unchanged.
    void opensWithScenePresets()
    {
        QFETCH(ExportPresets, presets);
        Scene scene = example(24, 30);
        scene.exports = presets;
        Document document;
        document.reset(scene, {});
        ExportDialog dialog(&document, 1);
        QCOMPARE(child<QSpinBox>(dialog, "rows")->value(), presets.flipbook.rows);
        QCOMPARE(child<QSpinBox>(dialog, "columns")->value(), presets.flipbook.columns);
        QCOMPARE(child<QSpinBox>(dialog, "padding")->value(), presets.flipbook.padding);
        QCOMPARE(child<QSpinBox>(dialog, "frameWidth")->value(), presets.render.width);
        QCOMPARE(child<QCheckBox>(dialog, "flipbookEnabled")->isChecked(),
                 presets.flipbook.enabled);
        QCOMPARE(child<QCheckBox>(dialog, "imagesEnabled")->isChecked(), presets.images.enabled);
        QCOMPARE(child<QCheckBox>(dialog, "vdbEnabled")->isChecked(),
                 presets.extra.value("vdb").toBool(!presets.flipbook.enabled));
        QCOMPARE(child<QComboBox>(dialog, "vdbUpAxis")->currentData().toInt(),
                 int(presets.openvdb.up));
        QCOMPARE(child<QCheckBox>(dialog, "vdbHalfFloat")->isChecked(), presets.openvdb.halfFloat);
        QCOMPARE(child<QSpinBox>(dialog, "firstFrame")->value(),
                 presets.flipbook.first == kBakeRange ? 1 : presets.flipbook.first);
        QCOMPARE(child<QLineEdit>(dialog, "baseName")->text(),
                 presets.images.fileName.empty() ? QString::fromStdString(scene.name)
                                                 : QString("smoke"));
        QVERIFY(dialog.presets() == presets);
    }

    void layoutFollowsOptions_data()
    {
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("columns");
        QTest::addColumn<int>("padding");
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("height");
        QTest::newRow("4x4 pad 2") << 4 << 4 << 2 << 64 << 64;
        QTest::newRow("2x8 no pad") << 2 << 8 << 0 << 32 << 48;
        QTest::newRow("5x3 pad 7") << 5 << 3 << 7 << 100 << 30;
        QTest::newRow("1x1 pad 1") << 1 << 1 << 1 << 16 << 16;
    }

    // The preview's atlas is core's AtlasLayout for the options, its tiles the frames core
    // selects (the loop's frames folded away).
    void layoutFollowsOptions()
    {
        QFETCH(int, rows);
        QFETCH(int, columns);
        QFETCH(int, padding);
        QFETCH(int, width);
        QFETCH(int, height);
        Document document;
        document.reset(example(24, 40), {});
        ExportDialog dialog(&document, 1);
        dialog.show();
        child<QCheckBox>(dialog, "flipbookEnabled")->setChecked(true);
        child<QSpinBox>(dialog, "rows")->setValue(rows);
        child<QSpinBox>(dialog, "columns")->setValue(columns);
        child<QSpinBox>(dialog, "padding")->setValue(padding);
        child<QSpinBox>(dialog, "frameWidth")->setValue(width);
        child<QSpinBox>(dialog, "frameHeight")->setValue(height);
        child<QSpinBox>(dialog, "loopFrames")->setValue(1);

        const AtlasLayout expected{rows, columns, width, height, padding};
        const AtlasLayout &shown = dialog.atlasPreview()->atlasLayout();
        QCOMPARE(shown.width(), expected.width());
        QCOMPARE(shown.height(), expected.height());
        QCOMPARE(shown.frameOrigin(rows * columns - 1), expected.frameOrigin(rows * columns - 1));
        std::vector<int> frames;
        int step = 0;
        QVERIFY(selectFlipbookFrames(dialog.presets().flipbook, 1, 40, frames, step));
        frames.pop_back(); // the loop blends the last selected frame into the first
        QCOMPARE(dialog.atlasPreview()->frames(), frames);
        // Drawn to scale: the on-screen rectangle keeps the atlas's aspect ratio (to a pixel).
        const QRectF r = dialog.atlasPreview()->atlasRect();
        QVERIFY(std::abs(r.width() / r.height() - double(expected.width()) / expected.height())
                < 1.0 / std::min(r.width(), r.height()));
    }

    // Flipbook (atlas, motion, sidecar), images and OpenVDB from one export; the atlas has the
    // previewed size and the previewed frame equals the exported image of that frame.
    void exportWritesFiles()
    {
        QTemporaryDir dir;
        Document document;
        document.reset(example(24, 6), {});
        ExportDialog dialog(&document, 4);
        child<QLineEdit>(dialog, "outputDirectory")->setText(dir.path());
        child<QLineEdit>(dialog, "baseName")->setText("test");
        child<QCheckBox>(dialog, "flipbookEnabled")->setChecked(true);
        child<QCheckBox>(dialog, "imagesEnabled")->setChecked(true);
        child<QCheckBox>(dialog, "vdbEnabled")->setChecked(true);
        child<QSpinBox>(dialog, "rows")->setValue(2);
        child<QSpinBox>(dialog, "columns")->setValue(3);
        child<QSpinBox>(dialog, "padding")->setValue(1);
        child<QSpinBox>(dialog, "frameWidth")->setValue(16);
        child<QSpinBox>(dialog, "frameHeight")->setValue(20);
        QSignalSpy rendered(dialog.framePreview(), &FramePreview::frameReady);
        QSignalSpy finished(&dialog, &ExportDialog::exportFinished);
        QVERIFY(dialog.startExport());
        QVERIFY(dialog.isExporting());
        QVERIFY(finished.wait(kWaitMs));
        QVERIFY2(dialog.lastResult().status, dialog.lastResult().status.error.c_str());
        QCOMPARE(finished.first().first().toBool(), true);

        const QString base = dir.filePath("test");
        QImage atlas(base + "_flipbook.png");
        QVERIFY(!atlas.isNull());
        const AtlasLayout &layout = dialog.atlasPreview()->atlasLayout();
        QCOMPARE(atlas.size(), QSize(layout.width(), layout.height()));
        QCOMPARE(atlas.size(), QSize(3 * 18, 2 * 22));
        QVERIFY(exists(base + "_flipbook_motion.png"));
        QFile sidecar(base + "_flipbook.json");
        QVERIFY(sidecar.open(QIODevice::ReadOnly));
        const QJsonObject json = QJsonDocument::fromJson(sidecar.readAll()).object();
        QCOMPARE(json["atlas"].toObject()["rows"].toInt(), 2);
        QCOMPARE(json["atlas"].toObject()["columns"].toInt(), 3);
        QCOMPARE(json["frames"].toObject()["count"].toInt(), 6);
        for (int f = 1; f <= 6; ++f) {
            QVERIFY(exists(QString("%1.%2.png").arg(base).arg(f, 4, 10, QChar('0'))));
            QVERIFY(exists(QString("%1.%2.vdb").arg(base).arg(f, 4, 10, QChar('0'))));
        }
        QCOMPARE(dialog.lastResult().files.size(), std::size_t(6 + 6 + 3));

        // Images are straight alpha, 8 bit, no emission: what the preview shows.
        QTRY_VERIFY_WITH_TIMEOUT(!rendered.isEmpty() && !dialog.framePreview()->isBusy(), kWaitMs);
        QCOMPARE(dialog.framePreview()->imageFrame(), 4);
        const QImage exported(base + ".0004.png");
        int visible = 0; // the comparison means something only where there is smoke
        for (int y = 0; y < exported.height(); ++y)
            for (int x = 0; x < exported.width(); ++x)
                visible += qAlpha(exported.pixel(x, y)) > 16;
        QVERIFY2(visible > 10, qPrintable(QString::number(visible)));
        QCOMPARE(dialog.framePreview()->image().convertToFormat(QImage::Format_RGBA8888),
                 exported.convertToFormat(QImage::Format_RGBA8888));
    }

    // The passes (issue 13): each output has its own pass options, stored in the presets; the
    // preview lists every pass texture and shows it; a 2D scene has no depth map (the box is
    // disabled and a preset that packs depth is refused with the reason); the export writes
    // the normal map as OpenEXR, which reads back with the preview's values.
    void passesPreviewAndExport()
    {
        QTemporaryDir dir;
        Document document;
        document.reset(example(24, 6), {});
        ExportDialog dialog(&document, 4);
        child<QLineEdit>(dialog, "outputDirectory")->setText(dir.path());
        child<QLineEdit>(dialog, "baseName")->setText("test");
        child<QCheckBox>(dialog, "flipbookEnabled")->setChecked(true);
        child<QCheckBox>(dialog, "vdbEnabled")->setChecked(false);
        child<QCheckBox>(dialog, "flowMapEnabled")->setChecked(true); // 2D: offered
        child<QSpinBox>(dialog, "rows")->setValue(2);
        child<QSpinBox>(dialog, "columns")->setValue(3);
        child<QSpinBox>(dialog, "frameWidth")->setValue(24);
        child<QSpinBox>(dialog, "frameHeight")->setValue(24);
        QVERIFY(!child<QCheckBox>(dialog, "flipbookDepth")->isEnabled());

        // A custom pack with depth in B (the default channels): not for a 2D scene.
        auto *pack = child<QComboBox>(dialog, "flipbookPack");
        QVERIFY(!child<QComboBox>(dialog, "flipbookChannelB")->isEnabled());
        pack->setCurrentIndex(pack->findData(int(PackPreset::Custom)));
        QVERIFY(child<QComboBox>(dialog, "flipbookChannelB")->isEnabled());
        QCOMPARE(child<QComboBox>(dialog, "flipbookChannelB")->currentText(), QString("depth"));
        QVERIFY2(dialog.findChild<QLabel *>("message")->text().contains("depth"),
                 qPrintable(dialog.findChild<QLabel *>("message")->text()));
        QVERIFY(!child<QPushButton>(dialog, "exportButton")->isEnabled());

        pack->setCurrentIndex(pack->findData(int(PackPreset::Separate)));
        child<QCheckBox>(dialog, "flipbookNormals")->setChecked(true);
        auto *format = child<QComboBox>(dialog, "flipbookFormat");
        format->setCurrentIndex(2); // OpenEXR, float
        QVERIFY(child<QPushButton>(dialog, "exportButton")->isEnabled());
        const PassSettings passes = dialog.presets().flipbook.passes;
        QVERIFY(passes.normals);
        QCOMPARE(passes.format, ImageFormat::Exr);
        QCOMPARE(passes.exrPrecision, ExrPrecision::Float);
        QCOMPARE(dialog.presets().images.passes, PassSettings{}); // the images keep their own

        // The preview offers the normal map and shows it: in the smoke, normals vary.
        auto *channel = child<QComboBox>(dialog, "previewChannel");
        const int normal = channel->findText("normal", Qt::MatchContains);
        QVERIFY2(normal >= 3, qPrintable(QString::number(channel->count())));
        QSignalSpy rendered(dialog.framePreview(), &FramePreview::frameReady);
        channel->setCurrentIndex(normal);
        QTRY_VERIFY_WITH_TIMEOUT(!rendered.isEmpty() && !dialog.framePreview()->isBusy(), kWaitMs);
        const QImage preview = dialog.framePreview()->image();
        QCOMPARE(preview.size(), QSize(24, 24));
        QSet<QRgb> colours;
        for (int y = 0; y < preview.height(); ++y)
            for (int x = 0; x < preview.width(); ++x)
                colours.insert(preview.pixel(x, y));
        QVERIFY2(colours.size() > 8, qPrintable(QString::number(colours.size())));

        QSignalSpy finished(&dialog, &ExportDialog::exportFinished);
        QVERIFY(dialog.startExport());
        QVERIFY(finished.wait(kWaitMs));
        QVERIFY2(dialog.lastResult().status, dialog.lastResult().status.error.c_str());
        QVERIFY(exists(dir.filePath("test_flipbook.exr")));
        QVERIFY(exists(dir.filePath("test_flowmap.png")));
        FloatImage normals;
        const sim::Status read = readExr(dir.filePath("test_flipbook_normal.exr"), normals);
        QVERIFY2(read, read.error.c_str());
        QCOMPARE(normals.width, 3 * (24 + 2 * dialog.presets().flipbook.padding));
        QCOMPARE(document.scene().exports.flipbook.passes, passes); // remembered, undoably
    }

    // Cancel stops the bake between frames; the images written are complete and no atlas or
    // sidecar exists.
    void vectorFieldExports()
    {
        // Issue 49: the dialog bakes what plume-cli --vector-field does; an ocean cannot.
        QTemporaryDir dir;
        Document document;
        document.reset(example(24, 6), {});
        ExportDialog dialog(&document, 1);
        child<QLineEdit>(dialog, "outputDirectory")->setText(dir.path());
        child<QLineEdit>(dialog, "baseName")->setText("wind");
        child<QCheckBox>(dialog, "vdbEnabled")->setChecked(false);
        child<QCheckBox>(dialog, "flipbookEnabled")->setChecked(false);
        child<QCheckBox>(dialog, "imagesEnabled")->setChecked(false);
        auto *on = child<QCheckBox>(dialog, "vectorFieldEnabled");
        QVERIFY(on->isEnabled());
        on->setChecked(true);
        auto *format = child<QComboBox>(dialog, "vectorFieldFormat");
        format->setCurrentIndex(format->findData(int(VectorFieldFormat::Fga)));
        child<QSpinBox>(dialog, "vectorFieldSize")->setValue(8);
        child<QSpinBox>(dialog, "firstFrame")->setValue(2);
        child<QSpinBox>(dialog, "lastFrame")->setValue(3);
        QSignalSpy finished(&dialog, &ExportDialog::exportFinished);
        QVERIFY(dialog.startExport());
        QVERIFY(finished.wait(kWaitMs));
        QVERIFY2(finished.first().first().toBool(), dialog.lastResult().status.error.c_str());
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files, QDir::Name),
                 QStringList({"wind.0002.fga", "wind.0003.fga"}));
        QFile fga(dir.filePath("wind.0003.fga"));
        QVERIFY(fga.open(QIODevice::ReadOnly));
        QCOMPARE(fga.readLine(), QByteArray("1,8,8,\n")); // 2D: one deep along Unreal's x

        SceneReadResult r = readSceneFile(PLUME_SOURCE_DIR "/resources/scenes/ocean-tile.plume");
        QVERIFY2(r.ok, r.error.c_str());
        Document ocean;
        ocean.reset(r.scene, {});
        ExportDialog oceanDialog(&ocean, 1);
        QVERIFY(!child<QCheckBox>(oceanDialog, "vectorFieldEnabled")->isEnabled());
        QVERIFY(!child<QCheckBox>(oceanDialog, "volumeTextureEnabled")->isEnabled());
    }

    void volumeTextureExports()
    {
        // Issue 49: the dialog bakes what plume-cli --volume-texture does.
        QTemporaryDir dir;
        Document document;
        document.reset(example(24, 6), {});
        ExportDialog dialog(&document, 1);
        child<QLineEdit>(dialog, "outputDirectory")->setText(dir.path());
        child<QLineEdit>(dialog, "baseName")->setText("smoke");
        child<QCheckBox>(dialog, "vdbEnabled")->setChecked(false);
        child<QCheckBox>(dialog, "flipbookEnabled")->setChecked(false);
        child<QCheckBox>(dialog, "imagesEnabled")->setChecked(false);
        child<QCheckBox>(dialog, "volumeTextureEnabled")->setChecked(true);
        auto *bits = child<QComboBox>(dialog, "volumeTextureBits");
        bits->setCurrentIndex(bits->findData(16));
        child<QSpinBox>(dialog, "firstFrame")->setValue(3);
        child<QSpinBox>(dialog, "lastFrame")->setValue(4);
        QSignalSpy finished(&dialog, &ExportDialog::exportFinished);
        QVERIFY(dialog.startExport());
        QVERIFY(finished.wait(kWaitMs));
        QVERIFY2(finished.first().first().toBool(), dialog.lastResult().status.error.c_str());
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files, QDir::Name),
                 QStringList(
                     {"smoke_volume.0003.png", "smoke_volume.0004.png", "smoke_volume.json"}));
        QCOMPARE(QImage(dir.filePath("smoke_volume.0004.png")).depth(), 16);
    }

    void cancelLeavesNoAtlas()
    {
        QTemporaryDir dir;
        Document document;
        document.reset(example(64, 300), {});
        ExportDialog dialog(&document, 1);
        child<QLineEdit>(dialog, "outputDirectory")->setText(dir.path());
        child<QLineEdit>(dialog, "baseName")->setText("cancel");
        child<QCheckBox>(dialog, "flipbookEnabled")->setChecked(true);
        child<QCheckBox>(dialog, "imagesEnabled")->setChecked(true);
        child<QCheckBox>(dialog, "vdbEnabled")->setChecked(false);
        child<QSpinBox>(dialog, "frameWidth")->setValue(32);
        child<QSpinBox>(dialog, "frameHeight")->setValue(32);
        QSignalSpy progressed(&dialog, &ExportDialog::progressed);
        QSignalSpy finished(&dialog, &ExportDialog::exportFinished);
        QVERIFY(dialog.startExport());
        QVERIFY(progressed.wait(kWaitMs));
        dialog.cancelExport();
        QVERIFY(finished.wait(kWaitMs));
        QCOMPARE(finished.first().first().toBool(), false);
        QVERIFY(isCancelled(dialog.lastResult().outcome));
        QVERIFY(dialog.lastResult().files.size() < 300);
        QVERIFY(!exists(dir.filePath("cancel_flipbook.png")));
        QVERIFY(!exists(dir.filePath("cancel_flipbook.json")));
        QVERIFY(!exists(dir.filePath("cancel_flipbook_motion.png")));
        const QStringList left = QDir(dir.path()).entryList(QDir::Files);
        QCOMPARE(left.size(), int(dialog.lastResult().files.size()));
        for (const QString &name : left) {
            QVERIFY2(name.startsWith("cancel.") && name.endsWith(".png"), qPrintable(name));
            QCOMPARE(QImage(dir.filePath(name)).size(), QSize(32, 32));
        }
    }

    // The OpenVDB section: its options apply only while OpenVDB is chosen, reach the bake, and
    // Export stores them in the scene's preset as one undoable edit.
    void vdbOptions()
    {
        QTemporaryDir dir;
        Document document;
        document.reset(example(16, 2), {});
        ExportDialog dialog(&document, 1);
        auto *vdbOn = child<QCheckBox>(dialog, "vdbEnabled");
        auto *up = child<QComboBox>(dialog, "vdbUpAxis");
        auto *half = child<QCheckBox>(dialog, "vdbHalfFloat");
        QVERIFY(vdbOn->isChecked());
        QCOMPARE(up->currentData().toInt(), int(UpAxis::Y));
        QVERIFY(!half->isChecked());
        vdbOn->setChecked(false);
        child<QCheckBox>(dialog, "imagesEnabled")->setChecked(true);
        QVERIFY(!up->isEnabled() && !half->isEnabled());
        vdbOn->setChecked(true);
        QVERIFY(up->isEnabled() && half->isEnabled());
        up->setCurrentIndex(up->findData(int(UpAxis::Z)));
        half->setChecked(true);
        const BakeSettings s = dialog.bakeSettings();
        QVERIFY(s.vdb);
        QCOMPARE(s.openvdb.up, UpAxis::Z);
        QVERIFY(s.openvdb.halfFloat);

        child<QCheckBox>(dialog, "imagesEnabled")->setChecked(false);
        child<QLineEdit>(dialog, "outputDirectory")->setText(dir.path());
        QSignalSpy finished(&dialog, &ExportDialog::exportFinished);
        QVERIFY(dialog.startExport());
        QVERIFY(finished.wait(kWaitMs));
        QVERIFY2(dialog.lastResult().status, dialog.lastResult().status.error.c_str());
        QCOMPARE(dialog.lastResult().files.size(), std::size_t(2));
        QCOMPARE(document.scene().exports.openvdb.up, UpAxis::Z);
        QVERIFY(document.scene().exports.openvdb.halfFloat);
        QCOMPARE(document.undoStack()->count(), 1);
        document.undoStack()->undo();
        QVERIFY(document.scene().exports.openvdb == VdbSettings{});
    }

    // An ocean scene exports its height, normal and foam maps from the dialog as plume-cli
    // bake does: OpenVDB is off (an ocean has no volume), no map chosen is refused with the
    // reason, and the maps chosen are written with the sidecar, as images or atlases, PNG or
    // OpenEXR.
    void oceanMaps()
    {
        QTemporaryDir dir;
        SceneReadResult r = readSceneFile(PLUME_SOURCE_DIR "/resources/scenes/ocean-tile.plume");
        QVERIFY2(r.ok, r.error.c_str());
        r.scene.domain.resolution = 32;
        r.scene.simulation.frameEnd = r.scene.simulation.frameStart + 2;
        Document document;
        document.reset(r.scene, {});
        ExportDialog dialog(&document, 1);
        auto *oceanOn = child<QCheckBox>(dialog, "oceanMapsEnabled");
        QVERIFY(oceanOn->isEnabled() && oceanOn->isChecked());
        QVERIFY(!child<QCheckBox>(dialog, "vdbEnabled")->isEnabled());
        QVERIFY(!child<QCheckBox>(dialog, "vdbEnabled")->isChecked());
        child<QLineEdit>(dialog, "outputDirectory")->setText(dir.path());
        child<QLineEdit>(dialog, "baseName")->setText("sea");

        for (const char *map : {"oceanMap_height", "oceanMap_normal", "oceanMap_foam"})
            child<QCheckBox>(dialog, map)->setChecked(false);
        QVERIFY(!dialog.startExport());
        QVERIFY(!child<QPushButton>(dialog, "exportButton")->isEnabled());
        child<QCheckBox>(dialog, "oceanMap_height")->setChecked(true);
        child<QCheckBox>(dialog, "oceanMap_foam")->setChecked(true);

        QSignalSpy finished(&dialog, &ExportDialog::exportFinished);
        QVERIFY(dialog.startExport());
        QVERIFY(finished.wait(kWaitMs));
        QVERIFY2(dialog.lastResult().status, dialog.lastResult().status.error.c_str());
        for (int f = 1; f <= 3; ++f) {
            const QString n = QString("%1").arg(f, 4, 10, QChar('0'));
            const QImage height(dir.filePath("sea_height." + n + ".png"));
            QVERIFY(!height.isNull());
            QCOMPARE(height.format(), QImage::Format_Grayscale16);
            QVERIFY(exists(dir.filePath("sea_foam." + n + ".png")));
            QVERIFY(!exists(dir.filePath("sea_normal." + n + ".png")));
        }
        QVERIFY(exists(dir.filePath("sea_ocean.json")));

        // One OpenEXR atlas per map.
        child<QComboBox>(dialog, "oceanLayout")->setCurrentIndex(1);
        child<QComboBox>(dialog, "oceanFormat")->setCurrentIndex(2);
        child<QLineEdit>(dialog, "baseName")->setText("atlas");
        QVERIFY(dialog.startExport());
        QVERIFY(finished.wait(kWaitMs));
        QVERIFY2(dialog.lastResult().status, dialog.lastResult().status.error.c_str());
        QVERIFY(exists(dir.filePath("atlas_height_flipbook.exr")));
        QVERIFY(exists(dir.filePath("atlas_foam_flipbook.exr")));
        QVERIFY(!exists(dir.filePath("atlas_normal_flipbook.exr")));
    }

    // The wheel over an option the pointer happens to cross while scrolling the options does
    // not change it (it scrolls instead); once the option has the focus, the wheel changes it.
    void wheelScrollsPastOptions()
    {
        Document document;
        document.reset(example(24, 30), {});
        ExportDialog dialog(&document, 1);
        dialog.resize(900, 420); // the options scroll
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        auto *scroll = dialog.findChild<QScrollArea *>();
        QVERIFY(scroll && scroll->verticalScrollBar()->maximum() > 0);
        // An enabled spin box and combo box among the options (a disabled one takes no wheel).
        auto enabled = [&](auto *kind) {
            using T = std::remove_pointer_t<decltype(kind)>;
            for (T *w : scroll->widget()->findChildren<T *>())
                if (w->isEnabled() && w->isVisible())
                    return w;
            return static_cast<T *>(nullptr);
        };
        QSpinBox *rows = enabled(static_cast<QSpinBox *>(nullptr));
        QComboBox *up = enabled(static_cast<QComboBox *>(nullptr));
        QVERIFY(rows && up);
        rows->setMaximum(std::max(rows->maximum(), rows->value() + 10));
        rows->setMinimum(std::min(rows->minimum(), rows->value() - 10));
        if (up->currentIndex() == up->count() - 1)
            up->setCurrentIndex(0);
        auto wheel = [](QWidget *w) {
            const QPointF at(w->width() / 2.0, w->height() / 2.0);
            QWheelEvent e(at, w->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
            QCoreApplication::sendEvent(w, &e);
        };
        const int rowsBefore = rows->value(), upBefore = up->currentIndex();
        const int scrolled = scroll->verticalScrollBar()->value();
        wheel(rows);
        wheel(up);
        QCOMPARE(rows->value(), rowsBefore);
        QCOMPARE(up->currentIndex(), upBefore);
        QVERIFY(scroll->verticalScrollBar()->value() > scrolled);
        dialog.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&dialog));
        rows->setFocus();
        QTRY_VERIFY(rows->hasFocus());
        wheel(rows);
        QVERIFY(rows->value() != rowsBefore);
    }

    // The light model's editors (docs/render.md), in the sections Light, Smoke and Image: each
    // shows the scene's value, explains itself in a tooltip and edits the presets (stored on
    // Export as one undoable edit, presetsStoredWithUndo). Editors a look does not use are off:
    // exposure and tone curve for the field look (exact colours), the sky, ground and
    // scattering for all but the 3D smoke volume.
    void lightEditors()
    {
        Scene scene = example(16, 2);
        RenderSettings &r = scene.exports.render;
        r.lightDirection = {0.f, 1.f, 0.f};
        r.skyColor = {0.5f, 0.625f, 0.75f};
        r.groundColor = {0.25f, 0.2f, 0.125f};
        r.densityScale = 12.f;
        r.anisotropy = 0.45f;
        r.multipleScattering = 0.5f;
        r.emissionScattering = 2.f;
        r.exposure = -1.5f;
        r.toneCurve = ToneCurve::Clip;
        Document document;
        document.reset(scene, {});
        ExportDialog dialog(&document, 1);
        QVERIFY(dialog.presets() == scene.exports);
        const auto boxes = [&](const char *name) {
            return dialog.findChildren<QDoubleSpinBox *>(name);
        };
        QCOMPARE(boxes("skyColor").size(), 3);
        QCOMPARE(boxes("skyColor")[2]->value(), 0.75);
        QCOMPARE(boxes("lightDirection")[1]->value(), 1.0);
        QCOMPARE(child<QDoubleSpinBox>(dialog, "anisotropy")->value(), 0.45);
        QCOMPARE(child<QDoubleSpinBox>(dialog, "anisotropy")->maximum(), 0.99); // open at 1
        QCOMPARE(child<QDoubleSpinBox>(dialog, "exposure")->value(), -1.5);
        QCOMPARE(child<QComboBox>(dialog, "toneCurve")->currentData().toInt(),
                 int(ToneCurve::Clip));
        for (const char *section : {"lightSection", "smokeSection", "imageSection"})
            QVERIFY(child<QLabel>(dialog, section)->isVisibleTo(&dialog));
        for (const char *name :
             {"lightDirection", "lightColor", "lightIntensity", "skyColor", "groundColor",
              "ambient", "smokeColor", "densityScale", "anisotropy", "multipleScattering",
              "emissionIntensity", "flameIntensity", "emissionScattering", "exposure"}) {
            QVERIFY2(!boxes(name).isEmpty(), name);
            for (QDoubleSpinBox *box : boxes(name))
                QVERIFY2(!box->toolTip().isEmpty(), name);
        }
        QVERIFY(!child<QComboBox>(dialog, "toneCurve")->toolTip().isEmpty());

        child<QDoubleSpinBox>(dialog, "exposure")->setValue(2.0);
        child<QComboBox>(dialog, "toneCurve")
            ->setCurrentIndex(
                child<QComboBox>(dialog, "toneCurve")->findData(int(ToneCurve::Filmic)));
        boxes("groundColor")[0]->setValue(0.9);
        child<QDoubleSpinBox>(dialog, "anisotropy")->setValue(-0.2);
        child<QDoubleSpinBox>(dialog, "emissionScattering")->setValue(0.0);
        const RenderSettings edited = dialog.presets().render;
        QCOMPARE(edited.exposure, 2.f);
        QCOMPARE(edited.toneCurve, ToneCurve::Filmic);
        QCOMPARE(edited.groundColor, (sim::Vec3{0.9f, 0.2f, 0.125f}));
        QCOMPARE(edited.anisotropy, -0.2f);
        QCOMPARE(edited.emissionScattering, 0.f);
        QVERIFY(dialog.bakeSettings().render == edited);

        // 2D: the dye look is toned, the field look is not; no sky, ground or scattering.
        auto *look = child<QComboBox>(dialog, "look");
        auto *exposure = child<QDoubleSpinBox>(dialog, "exposure");
        auto *tone = child<QComboBox>(dialog, "toneCurve");
        look->setCurrentIndex(look->findData(int(Look2D::Dye)));
        QVERIFY(exposure->isEnabled() && tone->isEnabled());
        look->setCurrentIndex(look->findData(int(Look2D::Field)));
        QVERIFY(!exposure->isEnabled() && !tone->isEnabled());
        QVERIFY(!boxes("skyColor")[0]->isEnabled());
        QVERIFY(!child<QDoubleSpinBox>(dialog, "anisotropy")->isEnabled());

        // 3D: the smoke volume uses them all; the surface look the sun and ambient only.
        SceneReadResult threeD = readSceneFile(PLUME_SOURCE_DIR "/resources/scenes/plume-3d.plume");
        QVERIFY2(threeD.ok, threeD.error.c_str());
        threeD.scene.domain.resolution = 16;
        Document document3D;
        document3D.reset(threeD.scene, {});
        ExportDialog dialog3D(&document3D, 1);
        const auto enabled = [&](const char *name) {
            return dialog3D.findChild<QWidget *>(name)->isEnabled();
        };
        for (const char *name : {"lightDirection", "skyColor", "groundColor", "anisotropy",
                                 "multipleScattering", "emissionScattering", "exposure"})
            QVERIFY2(enabled(name), name);
        auto *look3D = child<QComboBox>(dialog3D, "look3d");
        look3D->setCurrentIndex(look3D->findData(int(Look3D::Surface)));
        for (const char *name : {"lightDirection", "lightIntensity", "ambient", "exposure"})
            QVERIFY2(enabled(name), name);
        for (const char *name : {"skyColor", "groundColor", "anisotropy", "multipleScattering"})
            QVERIFY2(!enabled(name), name);
    }

    // The camera's framing (docs/flipbook.md, "Framing"): the dialog shows the scene's, edits
    // the presets with it (stored on Export as one undoable edit, presetsStoredWithUndo), offers
    // the padding only for effect framing and neither for a 2D scene.
    void framingEditors()
    {
        SceneReadResult threeD = readSceneFile(PLUME_SOURCE_DIR "/resources/scenes/plume-3d.plume");
        QVERIFY2(threeD.ok, threeD.error.c_str());
        threeD.scene.domain.resolution = 16;
        threeD.scene.exports.render.framing = Framing::Effect;
        threeD.scene.exports.render.framingPadding = 0.1f;
        Document document;
        document.reset(threeD.scene, {});
        ExportDialog dialog(&document, 1);
        QVERIFY(dialog.presets() == threeD.scene.exports);
        auto *framing = child<QComboBox>(dialog, "framing");
        auto *padding = child<QDoubleSpinBox>(dialog, "framingPadding");
        QCOMPARE(framing->currentData().toInt(), int(Framing::Effect));
        QCOMPARE(padding->value(), 0.1);
        QVERIFY(framing->isEnabled() && padding->isEnabled());
        QVERIFY(!framing->toolTip().isEmpty() && !padding->toolTip().isEmpty());
        padding->setValue(0.2);
        QCOMPARE(dialog.presets().render.framingPadding, 0.2f);
        framing->setCurrentIndex(framing->findData(int(Framing::Domain)));
        QCOMPARE(dialog.presets().render.framing, Framing::Domain);
        QVERIFY(!padding->isEnabled());
        QVERIFY(dialog.bakeSettings().render == dialog.presets().render);

        Document flat;
        flat.reset(example(16, 2), {});
        ExportDialog dialog2D(&flat, 1);
        QVERIFY(!child<QComboBox>(dialog2D, "framing")->isEnabled());
        QVERIFY(!child<QDoubleSpinBox>(dialog2D, "framingPadding")->isEnabled());
    }

    // Export stores the options in the scene as one undo step; undo restores the old presets,
    // redo the new ones, and the dialog opens with what is stored.
    void presetsStoredWithUndo()
    {
        QTemporaryDir dir;
        Document document;
        document.reset(example(16, 2), {});
        const ExportPresets before = document.scene().exports;
        QVERIFY(!document.isModified());
        ExportPresets after;
        {
            ExportDialog dialog(&document, 1);
            child<QLineEdit>(dialog, "outputDirectory")->setText(dir.path());
            child<QCheckBox>(dialog, "imagesEnabled")->setChecked(true);
            child<QCheckBox>(dialog, "vdbEnabled")->setChecked(false);
            child<QSpinBox>(dialog, "frameWidth")->setValue(8);
            child<QSpinBox>(dialog, "frameHeight")->setValue(8);
            child<QSpinBox>(dialog, "rows")->setValue(3);
            child<QComboBox>(dialog, "imageBitDepth")->setCurrentIndex(1);
            after = dialog.presets();
            QSignalSpy finished(&dialog, &ExportDialog::exportFinished);
            QVERIFY(dialog.startExport());
            QVERIFY(finished.wait(kWaitMs));
            QVERIFY2(dialog.lastResult().status, dialog.lastResult().status.error.c_str());
        }
        QVERIFY(!(after == before));
        QVERIFY(document.scene().exports == after);
        QCOMPARE(document.scene().exports.images.bitDepth, 16);
        QVERIFY(document.isModified());
        QCOMPARE(document.undoStack()->count(), 1);
        {
            ExportDialog reopened(&document, 1);
            QCOMPARE(child<QSpinBox>(reopened, "rows")->value(), 3);
            QCOMPARE(child<QCheckBox>(reopened, "imagesEnabled")->isChecked(), true);
            QCOMPARE(child<QCheckBox>(reopened, "vdbEnabled")->isChecked(), false);
            QVERIFY(reopened.presets() == after);
        }
        document.undoStack()->undo();
        QVERIFY(document.scene().exports == before);
        QVERIFY(!document.isModified());
        document.undoStack()->redo();
        QVERIFY(document.scene().exports == after);
    }
};

QTEST_MAIN(TestUiExport)
#include "tst_ui_export.moc"
