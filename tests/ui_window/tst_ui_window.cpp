// The first window: it shows a running 2D simulation and stays responsive while it runs.
#include <mainwindow.h>
#include <simulationview.h>

#include <QtTest>

class TestUiWindow : public QObject
{
    Q_OBJECT

private slots:
    // The plume appears: after some frames the view holds smoke-coloured pixels above the
    // source, and the event loop kept turning while the solver worked on its own thread.
    void showsRunningPlume()
    {
        plume::BuiltinOptions options;
        options.resolution = 64;
        plume::SceneSetup scene;
        std::string error;
        QVERIFY(plume::makeBuiltinScene("plume", options, scene, &error));
        plume::MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.start(scene);

        int timerTicks = 0;
        QTimer ticker;
        connect(&ticker, &QTimer::timeout, [&] { ++timerTicks; });
        ticker.start(10);
        QTRY_VERIFY_WITH_TIMEOUT(window.lastFrame() >= 30, 60000);
        QVERIFY2(timerTicks > 10, "the GUI thread was blocked while the solver ran");

        const QImage image = window.view()->image();
        QCOMPARE(image.size(), QSize(64, 64));
        // Smoke pixels: the plume's orange dye over the dark background (the obstacle is a
        // blue-grey and the background near black, so neither counts).
        auto isSmoke = [](QRgb p) { return qRed(p) > 60 && qRed(p) > qBlue(p) + 25; };
        int lower = 0, upper = 0, left = 0, right = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x) {
                if (!isSmoke(image.pixel(x, y)))
                    continue;
                (y >= 32 ? lower : upper) += 1; // image row 0 is the top of the domain
                (x < 32 ? left : right) += 1;
            }
        QVERIFY2(lower > 40, qPrintable(QString("%1 smoke pixels near the source").arg(lower)));
        // The plume has risen past the obstacle's centre line within 30 frames (1.25 s).
        QVERIFY2(upper > 10, qPrintable(QString("%1 smoke pixels in the upper half").arg(upper)));
        // The scene is mirror-symmetric, so the smoke is centred horizontally.
        QVERIFY2(std::abs(left - right) <= std::max(8, (left + right) / 4),
                 qPrintable(QString("left %1 right %2").arg(left).arg(right)));
    }
};

QTEST_MAIN(TestUiWindow)
#include "tst_ui_window.moc"
