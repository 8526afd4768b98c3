// SPDX-License-Identifier: Apache-2.0
// The liquid texture in the app: View > Field > Liquid texture shows the scene's image flowing
// (screenshot pixels), and the Properties dock's Liquid texture section edits the period as an
// undo step, typed into its spin box with real key events.
#include <ui/document/document.h>
#include <ui/document/undocommands.h>
#include <ui/mainwindow/mainwindow.h>
#include <ui/simulation/simulationcontroller.h>
#include <ui/viewport/viewport.h>

#include <QAction>
#include <QGroupBox>
#include <QMenu>
#include <QMenuBar>
#include <QSpinBox>
#include <QtTest>

using namespace plume;

namespace {

/// Glowing lava pixels: bright red-orange (the texture's veins), far from the grey and blue
/// of the window's background and outlines.
bool isLava(QRgb p) { return qRed(p) > 150 && qRed(p) > qBlue(p) + 100; }

int lavaIn(const QImage &grab)
{
    int count = 0;
    for (int y = 0; y < grab.height(); ++y)
        for (int x = 0; x < grab.width(); ++x)
            count += isLava(grab.pixel(x, y)) ? 1 : 0;
    return count;
}

QAction *menuAction(QWidget *window, const QString &text)
{
    for (QAction *a : window->findChildren<QAction *>())
        if (a->text() == text)
            return a;
    return nullptr;
}

} // namespace

class TestUiTexture : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("PlumeTests");
        QCoreApplication::setApplicationName("tst_ui_texture");
        QSettings().clear();
    }

    void textureFlowsInTheView()
    {
        MainWindow window;
        window.resize(1100, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openFile(PLUME_SOURCE_DIR "/resources/scenes/lava-2d.plume"));
        Viewport *view = window.viewport();
        view->setOverlay(Viewport::Outlines, false);
        view->setOverlay(Viewport::Obstacles, false);
        Document *doc = window.document();
        SimulationController *sim = window.simulation();
        DomainSettings domain = doc->scene().domain;
        domain.resolution = 48; // short on two cores
        doc->undoStack()->push(new ChangeValue<values::SceneDomain>(doc, -1, domain));
        QTRY_VERIFY_WITH_TIMEOUT(sim->headFrame() >= 12, 60000);

        // The dye view: no smoke in this scene, no lava colours.
        QCOMPARE(view->field(), ViewField::Dye);
        QCOMPARE(lavaIn(view->grab().toImage()), 0);

        QAction *texture = menuAction(&window, "Liquid texture");
        QVERIFY(texture);
        texture->trigger();
        QCOMPARE(view->field(), ViewField::LiquidTexture);
        QTest::qWait(100);
        const QImage first = view->grab().toImage();
        first.save(QDir::temp().filePath("plume-liquid-texture.png"));
        const int lava = lavaIn(first);
        QVERIFY2(lava > 2000, qPrintable(QString("lava pixels %1").arg(lava)));

        // It flows: a later frame differs. Playback loops over the scene's range, and at 48
        // cells the simulation reaches its end within a second, so count frames around the loop.
        const int shown = sim->currentFrameNumber();
        const int loop = doc->scene().simulation.frameEnd + 1; // frames 0 .. frameEnd
        const auto played = [&] { return (sim->currentFrameNumber() - shown + loop) % loop; };
        QTRY_VERIFY_WITH_TIMEOUT(played() >= 6, 60000);
        sim->pause();
        QTest::qWait(100);
        const QImage later = view->grab().toImage();
        int changed = 0;
        for (int y = 0; y < later.height(); ++y)
            for (int x = 0; x < later.width(); ++x)
                changed += later.pixel(x, y) != first.pixel(x, y) ? 1 : 0;
        QVERIFY2(changed > 2000, qPrintable(QString("changed pixels %1").arg(changed)));
    }

    void periodIsAnUndoableEdit()
    {
        MainWindow window;
        window.resize(1100, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openFile(PLUME_SOURCE_DIR "/resources/scenes/lava-2d.plume"));
        Document *doc = window.document();
        auto *section = window.findChild<QGroupBox *>("liquidTextureSection");
        QVERIFY(section);
        auto *period = section->findChild<QSpinBox *>("period");
        QVERIFY(period);
        QCOMPARE(period->value(), 32);
        period->setFocus();
        period->selectAll();
        QTest::keyClicks(period, "20");
        QTest::keyClick(period, Qt::Key_Return);
        QCOMPARE(doc->scene().simulation.liquidTexture.period, 20);
        // An odd period rounds up to even.
        period->selectAll();
        QTest::keyClicks(period, "27");
        QTest::keyClick(period, Qt::Key_Return);
        QCOMPARE(doc->scene().simulation.liquidTexture.period, 28);
        doc->undoStack()->undo();
        QCOMPARE(doc->scene().simulation.liquidTexture.period, 20);
        doc->undoStack()->undo();
        QCOMPARE(doc->scene().simulation.liquidTexture.period, 32);
        QCOMPARE(period->value(), 32);
    }
};

QTEST_MAIN(TestUiTexture)
#include "tst_ui_texture.moc"
