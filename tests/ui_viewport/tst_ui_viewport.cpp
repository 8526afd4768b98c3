// Screenshot tests: grab the real viewport widget and look at its pixels. The plume shows up
// above its source, and a wall painted across its path while it runs sends it round the side.
#include <document/document.h>
#include <document/undocommands.h>
#include <mainwindow/mainwindow.h>
#include <simulation/simulationcontroller.h>
#include <tools/tooloptions.h>
#include <viewport/viewport.h>

#include <QAction>
#include <QtTest>

using namespace plume;

namespace {

/// Smoke pixels: the plume's orange dye over the near-black background (outlines are thin
/// and excluded by drawing without them).
bool isSmoke(QRgb p) { return qRed(p) > 70 && qRed(p) > qBlue(p) + 30; }

/// Smoke pixels of a grab inside a world rectangle [x0, x1] x [y0, y1].
int smokeIn(const QImage &grab, const Viewport &view, float x0, float x1, float y0, float y1)
{
    const QPoint a = view.toWidget({x0, y1, 0.f}).toPoint();
    const QPoint b = view.toWidget({x1, y0, 0.f}).toPoint();
    int count = 0;
    for (int y = a.y(); y < b.y(); ++y)
        for (int x = a.x(); x < b.x(); ++x)
            count += isSmoke(grab.pixel(x, y)) ? 1 : 0;
    return count;
}

} // namespace

class TestUiViewport : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("PlumeTests");
        QCoreApplication::setApplicationName("tst_ui_viewport");
        QSettings().clear();
    }

    void plumeIsDivertedByPaintedWall()
    {
        MainWindow window;
        window.resize(1100, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.openDefaultScene();
        Viewport *view = window.viewport();
        view->setOverlay(Viewport::Outlines, false);
        view->setOverlay(Viewport::Obstacles, false);
        Document *doc = window.document();
        SimulationController *sim = window.simulation();
        // A clean plume: delete the round obstacle (item 1), at frame 0.
        doc->setSelectedItem(1);
        window.action("actionDelete")->trigger();
        // 80 cells keep the test short on two cores; the plume looks the same, coarser.
        DomainSettings domain = doc->scene().domain;
        domain.resolution = 80;
        doc->undoStack()->push(new ChangeValue<values::SceneDomain>(doc, -1, domain));
        QTRY_VERIFY_WITH_TIMEOUT(sim->headFrame() >= 36, 60000);
        QImage grab = view->grab().toImage();
        grab.save(QDir::temp().filePath("plume-viewport-before.png"));

        // The plume: smoke above the source (disc at 0.5, 0.12) within the column it rises
        // in, none in the lower corners beside it.
        const int column = smokeIn(grab, *view, 0.35f, 0.65f, 0.2f, 0.7f);
        const int corners = smokeIn(grab, *view, 0.02f, 0.2f, 0.02f, 0.2f)
                            + smokeIn(grab, *view, 0.8f, 0.98f, 0.02f, 0.2f);
        QVERIFY2(column > 2000, qPrintable(QString("column %1").arg(column)));
        QVERIFY2(corners < column / 50, qPrintable(QString("corners %1").arg(corners)));
        // Symmetric scene: the plume rises straight (left and right halves within 40%).
        const int left0 = smokeIn(grab, *view, 0.2f, 0.5f, 0.3f, 0.6f);
        const int right0 = smokeIn(grab, *view, 0.5f, 0.8f, 0.3f, 0.6f);
        QVERIFY2(std::abs(left0 - right0) < 0.4 * std::max(left0, right0),
                 qPrintable(QString("left %1 right %2").arg(left0).arg(right0)));

        // Pause and let the worker settle, so the frame the wall lands on is the one shown.
        sim->pause();
        QTRY_VERIFY_WITH_TIMEOUT(sim->currentFrameNumber() == sim->headFrame() && !sim->isPlaying(),
                                 10000);
        QTest::qWait(200);
        // Paint a wall across the left and middle of its path, with a gap on
        // the right: the smoke must go round the right end.
        window.toolAction("Obstacle Brush")->trigger();
        window.toolOptions()->setRadius(0.02f);
        const QPoint a = view->toWidget({0.15f, 0.3f, 0.f}).toPoint();
        const QPoint b = view->toWidget({0.58f, 0.3f, 0.f}).toPoint();
        QTest::mousePress(view, Qt::LeftButton, {}, a);
        for (int s = 1; s <= 30; ++s)
            QTest::mouseMove(view, a + (b - a) * s / 30);
        QTest::mouseRelease(view, Qt::LeftButton, {}, b);
        QCOMPARE(doc->scene().items.back().kind, ItemKind::Obstacle);
        const int edited = sim->headFrame();
        QVERIFY(edited >= 36); // no reset
        sim->play();
        QTRY_VERIFY_WITH_TIMEOUT(sim->headFrame() >= edited + 60, 60000);
        grab = view->grab().toImage();
        grab.save(QDir::temp().filePath("plume-viewport-after.png"));
        // Above the wall, left of the gap vs right of it.
        const int left = smokeIn(grab, *view, 0.2f, 0.5f, 0.34f, 0.6f);
        const int right = smokeIn(grab, *view, 0.6f, 0.9f, 0.34f, 0.6f);
        qInfo("smoke pixels above the wall: left %d, right %d", left, right);
        QVERIFY2(right > 3 * std::max(left, 50),
                 qPrintable(QString("left %1 right %2").arg(left).arg(right)));
        // The wall itself is drawn as solid (grey), not smoke.
        QCOMPARE(smokeIn(grab, *view, 0.25f, 0.5f, 0.295f, 0.305f), 0);
    }
};

QTEST_MAIN(TestUiViewport)
#include "tst_ui_viewport.moc"
