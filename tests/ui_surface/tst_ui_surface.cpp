// SPDX-License-Identifier: Apache-2.0
// The ocean's lit surface view under Xvfb with Mesa: a surface facing the sun is brighter than
// one facing away, foam whitens it, frames upload once each, the camera follows drags and the
// wheel, the layout offers the view for ocean scenes only, and with OpenGL forced off it says
// why.
#include <tests/common/uitest.h>
#include <ui/document/document.h>
#include <ui/tools/tooloptions.h>
#include <ui/viewport/glprobe.h>
#include <ui/viewport/surfaceview.h>
#include <ui/viewport/viewlayout.h>
#include <ui/viewport/viewport.h>

#include <QAction>
#include <QLabel>
#include <QtTest>

#include <cmath>

using namespace plume;

namespace {

constexpr int kCells = 16;

Scene oceanScene()
{
    Scene s;
    s.domain.size = {10.f, 10.f, 1.f};
    s.domain.resolution = kCells;
    s.domain.boundaries = sim::allBoundaries(sim::Boundary::Periodic);
    s.simulation.params.scheme = sim::Scheme::Ocean;
    return s;
}

/// A flat ocean frame whose every normal is `normal` (unit) and foam `foam`.
FramePtr flatFrame(sim::Vec3 normal, float foam, int number = 1)
{
    auto frame = std::make_shared<FrameData>();
    frame->frame = number;
    frame->domain = makeDomain(oceanScene().domain);
    const sim::Int3 n{kCells, kCells, 1};
    const std::pair<DisplayField, float> values[] = {
        {DisplayField::Density, 0.f},       {DisplayField::Height, 0.f},
        {DisplayField::DisplacementX, 0.f}, {DisplayField::DisplacementY, 0.f},
        {DisplayField::NormalX, normal.x},  {DisplayField::NormalY, normal.y},
        {DisplayField::NormalZ, normal.z},  {DisplayField::Foam, foam}};
    for (const auto &[field, v] : values)
        frame->fields[int(field)].reshape(n, sim::kCellCentre, v);
    frame->solids.reshape(n);
    return frame;
}

sim::Vec3 unit(sim::Vec3 v) { return v * (1.f / std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z)); }

/// Mean grey of the view's centre (the surface, seen from above at 60 degrees).
double centreGrey(SurfaceView &view)
{
    const QImage image = view.grabFramebuffer();
    double sum = 0.0;
    int count = 0;
    for (int y = image.height() / 2 - 4; y <= image.height() / 2 + 4; ++y)
        for (int x = image.width() / 2 - 4; x <= image.width() / 2 + 4; ++x, ++count)
            sum += qGray(image.pixel(x, y));
    return sum / count;
}

} // namespace

using plume::test::drag;
using plume::test::wheel;

class TestUiSurface : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // This test needs OpenGL 3.3 core (Mesa llvmpipe under Xvfb): fail, never skip.
        const QString reason = openGLUnavailableReason();
        if (!reason.isEmpty())
            QFAIL(qPrintable("no OpenGL 3.3 core: " + reason));
    }

    // The sun comes from (-0.35, 0.55, 0.75). Seen from straight above, normals tilted 10
    // degrees towards it and away from it reflect the same sky (the same Fresnel term, no glint
    // in view), so the sun alone makes the first brighter; foam whitens and shows the sun more.
    void litAndFoam()
    {
        SurfaceView view;
        view.resize(160, 160);
        view.setCamera(0.f, 89.f, 0.6f);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const sim::Vec3 azimuth = unit({-0.35f, 0.55f, 0.f});
        const float s = std::sin(0.1745f), c = std::cos(0.1745f);
        const sim::Vec3 towards{s * azimuth.x, s * azimuth.y, c};
        const sim::Vec3 away{-s * azimuth.x, -s * azimuth.y, c};
        view.showFrame(flatFrame(towards, 0.f, 1));
        const double lit = centreGrey(view);
        view.showFrame(flatFrame(away, 0.f, 2));
        const double dark = centreGrey(view);
        view.showFrame(flatFrame(towards, 1.f, 3));
        const double litFoam = centreGrey(view);
        view.showFrame(flatFrame(away, 1.f, 4));
        const double darkFoam = centreGrey(view);
        QVERIFY(view.failure().isEmpty());
        const QString values =
            QString("water %1 / %2, foam %3 / %4").arg(lit).arg(dark).arg(litFoam).arg(darkFoam);
        QVERIFY2(lit > dark, qPrintable(values));
        QVERIFY2(litFoam > darkFoam + 10.0, qPrintable(values));
        QVERIFY2(darkFoam > lit + 60.0, qPrintable(values));
        QCOMPARE(view.uploads(), 4);
        view.showFrame(nullptr); // no frame: the sky only
        const QImage sky = view.grabFramebuffer();
        QCOMPARE(sky.pixel(80, 80), sky.pixel(5, 5));
    }

    // The orbit camera (OrbitCamera): a left drag turns it 0.4 degrees per pixel with the scene
    // following the pointer (right: the yaw grows about +z; down: the eye rises), the pitch
    // between 2 and 89 degrees; the wheel moves nearer or further (0.999 per eighth of a
    // degree), between 0.05 and 20 diagonals.
    void cameraFollowsThePointer()
    {
        SurfaceView view;
        view.resize(160, 160);
        view.setCamera(0.f, 30.f, 1.2f);
        drag(&view, {50, 50}, {60, 45});
        QCOMPARE(view.yaw(), 4.f);
        QCOMPARE(view.pitch(), 28.f);
        drag(&view, {50, 50}, {50, 500});
        QCOMPARE(view.pitch(), 89.f);
        drag(&view, {50, 500}, {50, 0});
        QCOMPARE(view.pitch(), 2.f);
        wheel(&view, 120);
        QCOMPARE(view.distance(), float(1.2 * std::pow(0.999, 120)));
        for (int n = 0; n < 100; ++n)
            wheel(&view, 120);
        QCOMPARE(view.distance(), 0.05f);
        for (int n = 0; n < 100; ++n)
            wheel(&view, -120);
        QCOMPARE(view.distance(), 20.f);
    }

    // The layout offers Surface View for ocean scenes only and shows the view in place of the
    // main viewport.
    void layoutOffersItForOceans()
    {
        Document doc;
        ToolOptions tools;
        auto *main = new Viewport(&doc, &tools); // the layout takes it
        ViewLayout layout(main);
        QAction *action = layout.findChild<QAction *>("actionSurfaceView");
        QVERIFY(action);
        doc.reset(Scene{}, {});
        QVERIFY(!action->isEnabled());
        doc.reset(oceanScene(), {});
        QVERIFY(action->isEnabled());
        layout.resize(300, 300);
        layout.show();
        QVERIFY(QTest::qWaitForWindowExposed(&layout));
        action->trigger();
        QVERIFY(layout.isSurfaceShown());
        QVERIFY(layout.surfaceView() && layout.surfaceView()->isVisible());
        QVERIFY(!main->isVisible());
        layout.showFrame(flatFrame({0.f, 0.f, 1.f}, 0.f));
        QVERIFY(layout.surfaceView()->uploads() <= 1);
        doc.reset(Scene{}, {});
        QVERIFY(main->isVisible());
    }

    // Without OpenGL the surface view's place says why.
    void fallbackMessage()
    {
        qputenv("PLUME_NO_OPENGL", "1");
        Document doc;
        ToolOptions tools;
        ViewLayout layout(new Viewport(&doc, &tools));
        qunsetenv("PLUME_NO_OPENGL");
        doc.reset(oceanScene(), {});
        QVERIFY(!layout.surfaceView());
        layout.setSurfaceShown(true);
        layout.show();
        QLabel *message = layout.findChild<QLabel *>("surfaceOffMessage");
        QVERIFY(message && message->isVisible());
        QVERIFY2(message->text().startsWith("The surface view is off"),
                 qPrintable(message->text()));
    }
};

QTEST_MAIN(TestUiSurface)
#include "tst_ui_surface.moc"
