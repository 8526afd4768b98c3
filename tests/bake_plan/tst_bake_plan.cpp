// SPDX-License-Identifier: Apache-2.0
// The bake plan (core/bake/bakeplan.h): each of its rules refuses with its message and the
// outcome plume-cli maps to an exit code, and plume-cli's option path and the export dialog
// accept and refuse the same settings with the same message, because both ask the plan.
#include <app/plume-cli/bakeoptions.h>
#include <app/plume-cli/common.h>
#include <core/bake/bakeplan.h>
#include <core/bake/baker.h>
#include <core/io/scenereader.h>
#include <ui/document/document.h>
#include <ui/export/exportdialog.h>

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <functional>

using namespace plume;

namespace {

const QString kScenes = PLUME_SOURCE_DIR "/resources/scenes/";

Scene readScene(const QString &path)
{
    SceneReadResult r = readSceneFile(path);
    if (!r.ok)
        qFatal("%s", r.error.c_str());
    return r.scene;
}

template<class W>
W *child(const QWidget &parent, const QString &name)
{
    W *w = parent.findChild<W *>(name);
    if (!w)
        qFatal("no widget %s", qPrintable(name));
    return w;
}

void choose(const QWidget &parent, const QString &name, int value)
{
    auto *box = child<QComboBox>(parent, name);
    const int index = box->findData(value);
    if (index < 0)
        qFatal("%s has no entry %d", qPrintable(name), value);
    box->setCurrentIndex(index);
}

/// Settings that a user can give both ways: plume-cli's arguments and the same choices made in
/// the export dialog's widgets.
struct Case
{
    const char *name;
    const char *scene; ///< in resources/scenes
    QStringList arguments;
    std::function<void(const ExportDialog &)> widgets;
    bool accepted;
    const char *message; ///< a part of the refusal
};

void flipbook2x2(const ExportDialog &d)
{
    child<QCheckBox>(d, "flipbookEnabled")->setChecked(true);
    child<QCheckBox>(d, "vdbEnabled")->setChecked(false);
    child<QSpinBox>(d, "rows")->setValue(2);
    child<QSpinBox>(d, "columns")->setValue(2);
}

const std::vector<Case> &cases()
{
    static const std::vector<Case> table{
        {"vdb by default", "plume-2d.plume", {}, [](const ExportDialog &) {}, true, ""},
        {"flipbook", "plume-2d.plume", {"--flipbook", "2x2"}, flipbook2x2, true, ""},
        {"images",
         "plume-2d.plume",
         {"--images"},
         [](const ExportDialog &d) {
        child<QCheckBox>(d, "imagesEnabled")->setChecked(true);
        child<QCheckBox>(d, "vdbEnabled")->setChecked(false);
         },
         true,
         ""},
        {"empty frame range",
         "plume-2d.plume",
         {"--frames", "5:2"},
         [](const ExportDialog &d) {
        child<QSpinBox>(d, "lastFrame")->setValue(2);
        child<QSpinBox>(d, "firstFrame")->setValue(5);
         },
         false,
         "frame range 5:2 is empty"},
        {"custom pack with depth in 2D",
         "plume-2d.plume",
         {"--flipbook", "2x2", "--pack", "custom"},
         [](const ExportDialog &d) {
        flipbook2x2(d);
        choose(d, "flipbookPack", int(PackPreset::Custom));
         },
         false,
         "flipbook: "},
        {"six-way lighting of the surface look",
         "plume-2d.plume",
         {"--flipbook", "2x2", "--lighting", "six-way", "--look", "surface"},
         [](const ExportDialog &d) {
        flipbook2x2(d);
        choose(d, "flipbookLighting", int(Lighting::SixWay));
        choose(d, "look", int(Look2D::Surface));
         },
         false,
         "six-way lighting is for smoke volumes"},
        {"texture look without a liquid texture",
         "plume-2d.plume",
         {"--images", "--look", "texture"},
         [](const ExportDialog &d) {
        child<QCheckBox>(d, "imagesEnabled")->setChecked(true);
        child<QCheckBox>(d, "vdbEnabled")->setChecked(false);
        choose(d, "look", int(Look2D::Texture));
         },
         false,
         "has no liquid texture"},
        {"ocean maps", "ocean-tile.plume", {}, [](const ExportDialog &) {}, true, ""},
        {"ocean maps as atlases",
         "ocean-tile.plume",
         {"--ocean-flipbook", "0", "--frames", "1:4"},
         [](const ExportDialog &d) {
        child<QComboBox>(d, "oceanLayout")->setCurrentIndex(1);
        child<QSpinBox>(d, "lastFrame")->setValue(4);
         },
         true,
         ""},
        };
    return table;
}

/// plume-cli bake's path: the parsed options, the settings they make, the plan.
PlannedBake cliPlan(const Case &c, const QString &dir)
{
    const QString path = kScenes + c.scene;
    QCommandLineParser parser;
    const cli::BakeOptions options;
    options.addTo(parser);
    if (!parser.parse(QStringList{"plume-cli", "bake", path, "-o", dir} + c.arguments))
        qFatal("%s", qPrintable(parser.errorText()));
    const Scene scene = readScene(path);
    BakeSettings settings;
    if (const QString error = cli::bakeSettingsFromOptions(parser, options, scene, path, settings);
        !error.isEmpty())
        qFatal("%s", qPrintable(error));
    return planBake(scene, settings);
}

/// A plan that refuses nothing: a 2D scene of 32 cells and frames 1..4 into `dir`.
struct Fixture
{
    Scene scene = readScene(kScenes + "plume-2d.plume");
    BakeSettings settings;

    explicit Fixture(const QString &dir)
    {
        scene.domain.resolution = 32;
        scene.simulation.frameEnd = scene.simulation.frameStart + 3;
        settings.outputDirectory = dir.toStdString();
        settings.baseName = "test";
        settings.firstFrame = scene.simulation.frameStart;
        settings.lastFrame = scene.simulation.frameEnd;
    }
};

} // namespace

class TestBakePlan : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("plume-tests");
        QCoreApplication::setApplicationName("tst_bake_plan");
    }

    // Each rule of the plan: its refusal, its outcome, and that nothing was written.
    void rules_data()
    {
        QTest::addColumn<int>("rule");
        QTest::addColumn<int>("outcome");
        QTest::addColumn<QString>("message");
        const auto row = [](const char *name, int rule, BakeOutcome o, const char *m) {
            QTest::newRow(name) << rule << int(o) << QString(m);
        };
        row("accepted", 0, BakeOutcome::Done, "");
        row("nothing to bake", 1, BakeOutcome::Invalid, "nothing to bake");
        row("no folder", 2, BakeOutcome::Invalid, "no output folder");
        row("no base name", 3, BakeOutcome::Invalid, "no base name");
        row("frames outside", 4, BakeOutcome::Invalid, "lies outside the scene's frames");
        row("images outside", 5, BakeOutcome::Invalid, "images: frame range");
        row("iso not finite", 6, BakeOutcome::Invalid, "iso value must be finite");
        row("flow map in 3D", 7, BakeOutcome::Invalid, "flow map needs a 2D scene");
        row("flow map resumed", 8, BakeOutcome::Invalid, "cannot resume");
        row("negative checkpoints", 9, BakeOutcome::Invalid, "checkpoint interval");
        row("ocean maps of smoke", 10, BakeOutcome::Invalid, "ocean maps need a scene");
        row("bad render size", 11, BakeOutcome::Invalid,
            "render: width is 0; expected an integer in [1, 8192]");
    }

    void rules()
    {
        QFETCH(int, rule);
        QFETCH(int, outcome);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString out = dir.filePath("out");
        Fixture f(out);
        BakeSettings &s = f.settings;
        switch (rule) {
        case 1: s.vdb = false; break;
        case 2: s.outputDirectory.clear(); break;
        case 3: s.baseName.clear(); break;
        case 4: s.lastFrame = f.scene.simulation.frameEnd + 1; break;
        case 5:
            s.images.enabled = true;
            s.images.first = 0;
            s.images.last = 2;
            break;
        case 6:
            s.levelSurface = true;
            s.levelSurfaceIso = std::numeric_limits<float>::infinity();
            break;
        case 7:
            f.scene.domain.dimension = Dimension::ThreeD;
            s.flowMap = true;
            break;
        case 8:
            s.flowMap = true;
            s.resume = true;
            break;
        case 9: s.checkpointEvery = -1; break;
        case 10: s.oceanMaps = OceanBakeSettings{}; break;
        case 11:
            s.images.enabled = true;
            s.render.width = 0;
            break;
        default: break;
        }
        const PlannedBake planned = planBake(f.scene, s);
        QCOMPARE(int(planned.outcome), outcome);
        // The accepted row expects no message; every refusal names its own.
        QCOMPARE(message.isEmpty(), outcome == int(BakeOutcome::Done));
        QVERIFY2(QString::fromStdString(planned.message).contains(message),
                 planned.message.c_str());
        QCOMPARE(planned.ok(), planned.message.empty());
        QCOMPARE(planned.setting, std::string(rule == 4 ? "frames" : ""));
        if (!planned.ok()) {
            // The bake refuses the same way, before writing anything.
            const BakeResult r = bakeScene(f.scene, s);
            QCOMPARE(int(r.outcome), outcome);
            QCOMPARE(r.status.error, planned.message);
            QVERIFY(!QFileInfo::exists(out));
        }
    }

    // What the plan works out: each output's frames, the frames simulated, the passes.
    void spans()
    {
        QTemporaryDir dir;
        Fixture f(dir.path());
        f.settings.images.enabled = true;
        f.settings.images.first = 2;
        f.settings.images.last = 4;
        f.settings.images.step = 2;
        f.settings.flipbook.enabled = true;
        f.settings.flipbook.rows = 1;
        f.settings.flipbook.columns = 2;
        f.settings.flipbook.passes.normals = true;
        f.settings.vdb = false;
        f.settings.checkpointEvery = 3;
        const PlannedBake planned = planBake(f.scene, f.settings);
        QVERIFY2(planned.ok(), planned.message.c_str());
        const BakePlan &p = planned.plan;
        QVERIFY(!p.vdb.on && !p.mesh.on && !p.flowMap.on && !p.oceanMaps.on);
        QVERIFY(p.images.has(2) && !p.images.has(3) && p.images.has(4) && !p.images.has(1));
        QCOMPARE(int(p.flipbookFrames.size()), 2);
        QCOMPARE(p.flipbook.last, p.flipbookFrames.back());
        QCOMPARE(p.firstWritten, 1);
        QCOMPARE(p.lastWritten, 4);
        QVERIFY(p.passes.normals && !p.passes.sixWay);
        QVERIFY(p.keepRecord);
        QVERIFY(p.renders(1) && p.renders(2) && p.renders(4));
    }

    // plume-cli's documented default: OpenVDB when no flipbook, images, flow map or mesh are
    // asked for or preset; the dialog opens with it.
    void vdbByDefault_data()
    {
        QTest::addColumn<bool>("flipbook");
        QTest::addColumn<bool>("images");
        QTest::newRow("none") << false << false;
        QTest::newRow("flipbook") << true << false;
        QTest::newRow("images") << false << true;
        QTest::newRow("both") << true << true;
    }

    void vdbByDefault()
    {
        QFETCH(bool, flipbook);
        QFETCH(bool, images);
        Scene scene = readScene(kScenes + "plume-2d.plume");
        scene.exports.flipbook.enabled = flipbook;
        scene.exports.images.enabled = images;
        const bool expected = !flipbook && !images;
        QCOMPARE(plume::vdbByDefault(scene.exports), expected);
        QVERIFY(!plume::vdbByDefault(scene.exports, true, false));
        QVERIFY(!plume::vdbByDefault(scene.exports, false, true));
        Document document;
        document.reset(scene, {});
        ExportDialog dialog(&document, 1);
        QCOMPARE(child<QCheckBox>(dialog, "vdbEnabled")->isChecked(), expected);
        QCOMPARE(dialog.bakeSettings().vdb, expected);
    }

    // plume-cli and the dialog: the same verdict and the same message for the same settings.
    void cliAndDialogAgree_data()
    {
        QTest::addColumn<int>("index");
        for (std::size_t i = 0; i < cases().size(); ++i)
            QTest::newRow(cases()[i].name) << int(i);
    }

    void cliAndDialogAgree()
    {
        QFETCH(int, index);
        const Case &c = cases()[std::size_t(index)];
        QTemporaryDir dir;
        const PlannedBake cli = cliPlan(c, dir.path());

        Document document;
        document.reset(readScene(kScenes + c.scene), {});
        ExportDialog dialog(&document, 1);
        child<QLineEdit>(dialog, "outputDirectory")->setText(dir.path());
        c.widgets(dialog);
        const QString shown = child<QLabel>(dialog, "message")->text();

        QCOMPARE(cli.ok(), c.accepted);
        QVERIFY2(QString::fromStdString(cli.message).contains(c.message), cli.message.c_str());
        QCOMPARE(shown, QString::fromStdString(cli.message));
        QCOMPARE(child<QPushButton>(dialog, "exportButton")->isEnabled(), c.accepted);
        if (!c.accepted)
            QVERIFY(!dialog.startExport()); // refused before anything is baked
        // The outcome plume-cli exits with: 0 accepted, 2 refused settings (1 for a look that
        // cannot draw the passes asked for, as before the plan).
        const int code = cli::exitCode(cli.outcome);
        QVERIFY(c.accepted ? code == cli::kExitOk
                           : code == cli::kExitUsage || code == cli::kExitFailure);
    }

    // The outcome's exit codes (plume-cli bake --help): 0 done; 1 failed or interrupted;
    // 2 bad usage, scene or refused resume; 3 out of memory.
    void exitCodes()
    {
        QCOMPARE(cli::exitCode(BakeOutcome::Done), 0);
        QCOMPARE(cli::exitCode(BakeOutcome::Failed), 1);
        QCOMPARE(cli::exitCode(BakeOutcome::FailedResumable), 1);
        QCOMPARE(cli::exitCode(BakeOutcome::Cancelled), 1);
        QCOMPARE(cli::exitCode(BakeOutcome::CancelledResumable), 1);
        QCOMPARE(cli::exitCode(BakeOutcome::Invalid), 2);
        QCOMPARE(cli::exitCode(BakeOutcome::ResumeRefused), 2);
        QCOMPARE(cli::exitCode(BakeOutcome::OutOfMemory), 3);
        QVERIFY(isResumable(BakeOutcome::CancelledResumable) && !isResumable(BakeOutcome::Failed));
        QVERIFY(isCancelled(BakeOutcome::Cancelled) && !isCancelled(BakeOutcome::FailedResumable));
    }
};

QTEST_MAIN(TestBakePlan)
#include "tst_bake_plan.moc"
