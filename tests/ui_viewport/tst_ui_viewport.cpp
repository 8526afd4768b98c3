// SPDX-License-Identifier: Apache-2.0
// Screenshot tests: grab the real viewport widget and look at its pixels. The plume shows up
// above its source, and a wall painted across its path while it runs sends it round the side.
#include <ui/document/document.h>
#include <ui/document/undocommands.h>
#include <ui/mainwindow/mainwindow.h>
#include <ui/simulation/simulationcontroller.h>
#include <ui/tools/tooloptions.h>
#include <ui/viewport/viewport.h>

#include <QAction>
#include <QtTest>

#include <tests/common/uitest.h>

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

/// Particle pixels: the slow end of the particles' colour ramp (deep blue), or the fast end
/// (near white with a blue tint).
bool isSlowParticle(QRgb p) { return qBlue(p) > 180 && qRed(p) < 90 && qGreen(p) < 150; }
bool isFastParticle(QRgb p) { return qRed(p) > 180 && qGreen(p) > 200 && qBlue(p) > 230; }

int countIn(const QImage &grab, const Viewport &view, float x0, float x1, float y0, float y1,
            bool (*test)(QRgb))
{
    const QPoint a = view.toWidget({x0, y1, 0.f}).toPoint();
    const QPoint b = view.toWidget({x1, y0, 0.f}).toPoint();
    int count = 0;
    for (int y = a.y(); y < b.y(); ++y)
        for (int x = a.x(); x < b.x(); ++x)
            count += test(grab.pixel(x, y)) ? 1 : 0;
    return count;
}

/// A frame of the document's domain, every field zero, with a block of particles at rest in
/// [0.2, 0.4]^2 and a block at full speed in [0.6, 0.8] x [0.2, 0.4], at z.
FramePtr particleFrame(const Document &document, float z)
{
    auto frame = std::make_shared<FrameData>();
    frame->domain = makeDomain(document.scene().domain);
    const sim::Int3 n = frame->domain.cells;
    for (sim::ScalarGrid &g : frame->fields)
        g.reshape({n.x, n.y, 1}, sim::kCellCentre);
    frame->solids.reshape({n.x, n.y, 1});
    frame->particleRadius = 0.005f;
    frame->maxParticleSpeed = 2.f;
    for (int j = 0; j < 20; ++j)
        for (int i = 0; i < 20; ++i)
            for (float x0 : {0.2f, 0.6f})
                frame->particles.insert(frame->particles.end(),
                                        {x0 + 0.01f * (i + 0.5f), 0.2f + 0.01f * (j + 0.5f), z,
                                         x0 > 0.5f ? 2.f : 0.f});
    return frame;
}

} // namespace

// Waiting budgets (not timing checks): an instrumented build simulates several times slower,
// ThreadSanitizer's most (docs/sanitizers.md), so it waits longer for the same frames.
#if defined(__SANITIZE_THREAD__)
constexpr int kWaitScale = 5;
#elif defined(__SANITIZE_ADDRESS__)
constexpr int kWaitScale = 3;
#else
constexpr int kWaitScale = 1;
#endif

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

    // The sph scheme's particles show as points coloured by speed (the View > Particles
    // overlay); in 3D only those within half a cell of the slice plane.
    void particlesAreDrawnBySpeed()
    {
        Document document;
        ToolOptions options;
        Viewport view(&document, &options);
        view.resize(500, 500);
        view.setOverlay(Viewport::Outlines, false);
        view.setOverlay(Viewport::Obstacles, false);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.fitToView();
        view.showFrame(particleFrame(document, 0.f));
        QImage grab = view.grab().toImage();
        grab.save(QDir::temp().filePath("plume-viewport-particles.png"));
        const int slow = countIn(grab, view, 0.2f, 0.4f, 0.2f, 0.4f, isSlowParticle);
        const int fast = countIn(grab, view, 0.6f, 0.8f, 0.2f, 0.4f, isFastParticle);
        QVERIFY2(slow > 1000 && fast > 1000, qPrintable(QString("%1 %2").arg(slow).arg(fast)));
        QCOMPARE(countIn(grab, view, 0.6f, 0.8f, 0.2f, 0.4f, isSlowParticle), 0);
        QCOMPARE(countIn(grab, view, 0.2f, 0.4f, 0.6f, 0.8f, isSlowParticle), 0);
        view.setOverlay(Viewport::Particles, false);
        grab = view.grab().toImage();
        QCOMPARE(countIn(grab, view, 0.2f, 0.4f, 0.2f, 0.4f, isSlowParticle), 0);
        view.setOverlay(Viewport::Particles, true);

        // 3D: the Z slice through 0.5 shows particles at z = 0.5, not those at z = 0.9.
        Scene scene;
        scene.domain.dimension = Dimension::ThreeD;
        scene.domain.resolution = 32;
        document.reset(scene, {});
        view.setSlicePlane({2, 0.5f});
        view.fitToView();
        for (float z : {0.5f, 0.9f}) {
            view.showFrame(particleFrame(document, z));
            grab = view.grab().toImage();
            const int shown = countIn(grab, view, 0.2f, 0.4f, 0.2f, 0.4f, isSlowParticle);
            QVERIFY2(z < 0.6f ? shown > 1000 : shown == 0, qPrintable(QString::number(shown)));
        }
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
        QTRY_VERIFY_WITH_TIMEOUT(sim->currentFrameNumber() >= 36, 60000 * kWaitScale);
        // Pause and go back to frame 36: at 80 cells the solver runs well ahead of the test,
        // and both the checks and the wall are about the young plume.
        sim->pause();
        QTRY_VERIFY_WITH_TIMEOUT(!sim->isPlaying(), 10000 * kWaitScale);
        QTest::qWait(200);
        sim->scrub(36);
        QCOMPARE(sim->currentFrameNumber(), 36);
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

        // Paint a wall across the left and middle of its path, with a gap on
        // the right: the smoke must go round the right end.
        window.toolAction("Obstacle Brush")->trigger();
        window.toolOptions()->setRadius(0.02f);
        const QPoint a = view->toWidget({0.15f, 0.3f, 0.f}).toPoint();
        const QPoint b = view->toWidget({0.58f, 0.3f, 0.f}).toPoint();
        plume::test::stroke(view, a, b, 30);
        QCOMPARE(doc->scene().items.back().kind, ItemKind::Obstacle);
        // The edit re-simulates from the frame shown, not from the start.
        const int edited = sim->currentFrameNumber();
        QCOMPARE(edited, 36);
        QTRY_VERIFY_WITH_TIMEOUT(sim->headFrame() == edited, 10000 * kWaitScale);
        sim->play();
        QTRY_VERIFY_WITH_TIMEOUT(sim->currentFrameNumber() >= edited + 60, 60000 * kWaitScale);
        // Look at frame edited + 60 itself: the solver may already be past it.
        sim->pause();
        sim->scrub(edited + 60);
        QCOMPARE(sim->currentFrameNumber(), edited + 60);
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
