// SPDX-License-Identifier: Apache-2.0
// Slice views of 3D scenes: the slice of a known volume lands on the expected cells and pixels,
// shapes are cut by the plane, tools paint and place items lying in the plane (undo removes
// them), the frame cache keeps every frame's volume, and fire glows in the dye view and has
// flame and fuel views.
#include <ui/document/document.h>
#include <ui/document/sliceplane.h>
#include <ui/tools/brushtool.h>
#include <ui/tools/selecttool.h>
#include <ui/tools/shapetool.h>
#include <ui/tools/tooloptions.h>
#include <ui/viewport/fieldrender.h>
#include <ui/viewport/sliceframe.h>
#include <ui/viewport/viewport.h>

#include <QtTest>

#include <cmath>

using namespace plume;

namespace {

constexpr int kCells = 32;

/// A unit cube of 32^3 cells, no items.
Scene cubeScene()
{
    Scene s;
    s.domain.dimension = Dimension::ThreeD;
    s.domain.resolution = kCells;
    return s;
}

/// A frame whose density is a known function of the cell: i + 100 j + 10000 k, except that
/// `box` fields put density 1 in z > 0.5 (k >= 16) and 0 elsewhere. VelocityZ is 3 everywhere.
FramePtr knownFrame(bool halfSpace)
{
    auto frame = std::make_shared<FrameData>();
    frame->domain = makeDomain(cubeScene().domain);
    auto volume = std::make_shared<FrameVolume>();
    const sim::Int3 n{kCells, kCells, kCells};
    for (sim::ScalarGrid &g : volume->fields)
        g.reshape(n, {0.5f, 0.5f, 0.5f});
    sim::ScalarGrid &rho = volume->fields[int(DisplayField::Density)];
    for (int k = 0; k < kCells; ++k)
        for (int j = 0; j < kCells; ++j)
            for (int i = 0; i < kCells; ++i)
                rho(i, j, k) = halfSpace ? (k >= kCells / 2 ? 1.f : 0.f)
                                         : float(i + 100 * j + 10000 * k);
    volume->fields[int(DisplayField::DyeRed)] = sim::ScalarGrid(); // no dye
    volume->fields[int(DisplayField::DyeGreen)] = sim::ScalarGrid();
    volume->fields[int(DisplayField::DyeBlue)] = sim::ScalarGrid();
    volume->fields[int(DisplayField::VelocityZ)].fill(3.f);
    volume->solids.reshape(n);
    frame->maximum[int(DisplayField::Density)] = halfSpace ? 1.f : 320000.f;
    frame->volume = volume;
    return frame;
}

/// Whether a pixel is bright smoke (the Smoke map's top) rather than the dark empty end.
bool bright(QRgb p) { return qGray(p) > 180; }
bool dark(QRgb p) { return qGray(p) < 60; }

/// The pixel under a world point of a grabbed view.
QRgb pixelAt(const QImage &image, const Viewport &view, sim::Vec3 world)
{
    return image.pixel(view.toWidget(world).toPoint());
}

} // namespace

class TestUiSlices : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("PlumeTests");
        QCoreApplication::setApplicationName("tst_ui_slices");
        QSettings().clear();
    }

    // sliceFrame takes layer `layer` along `axis` and lays it out in plane order: value
    // (i, j) of the slice is the volume's cell with u = i, v = j, axis = layer. Exact.
    void sliceHoldsTheLayer_data()
    {
        QTest::addColumn<int>("axis");
        QTest::addColumn<int>("layer");
        QTest::newRow("X layer 5") << 0 << 5;
        QTest::newRow("Y layer 31") << 1 << 31;
        QTest::newRow("Z layer 0") << 2 << 0;
        QTest::newRow("Z layer 17") << 2 << 17;
    }
    void sliceHoldsTheLayer()
    {
        QFETCH(int, axis);
        QFETCH(int, layer);
        const FramePtr frame = knownFrame(false);
        SlicePlane plane{axis, (float(layer) + 0.5f) / kCells};
        FrameData slice;
        QVERIFY(sliceFrame(*frame, plane, slice));
        const sim::ScalarGrid &rho = slice.field(DisplayField::Density);
        QCOMPARE(rho.size(), (sim::Int3{kCells, kCells, 1}));
        for (int j = 0; j < kCells; j += 7)
            for (int i = 0; i < kCells; i += 5) {
                sim::Int3 c;
                c[plane.u()] = i;
                c[plane.v()] = j;
                c[axis] = layer;
                QCOMPARE(rho(i, j, 0), float(c.x + 100 * c.y + 10000 * c.z));
            }
        // The plane's velocity: along u it is VelocityZ (3) in the X slice, 0 otherwise.
        const float u = slice.field(DisplayField::VelocityX)(3, 4, 0);
        QCOMPARE(u, axis == 0 ? 3.f : 0.f);
        QCOMPARE(slice.domain.cells.z, 1);
        QCOMPARE(slice.domain.origin.z, float(layer) / kCells);
    }

    // A frame without its volume (scrubbed back) only has the middle Z slice.
    void sliceWithoutVolume()
    {
        auto frame = std::make_shared<FrameData>(*knownFrame(false));
        frame->volume.reset();
        frame->fields[int(DisplayField::Density)].reshape({kCells, kCells, 1}, {});
        FrameData slice;
        QVERIFY(sliceFrame(*frame, SlicePlane{2, 16.5f / kCells}, slice));
        QVERIFY(!sliceFrame(*frame, SlicePlane{2, 3.5f / kCells}, slice));
        QVERIFY(!sliceFrame(*frame, SlicePlane{0, 0.5f}, slice));
    }

    // The view shows the slice at the expected pixels: density 1 for z > 0.5. In the X slice
    // (right = z) the right half is bright; in the Y slice (up = z) the upper half; a Z slice
    // above 0.5 is bright everywhere, below it dark.
    void viewShowsSliceAtPixels_data()
    {
        QTest::addColumn<int>("axis");
        QTest::addColumn<float>("position");
        QTest::addColumn<float>("brightU"); // a plane point (u, v) that must be bright
        QTest::addColumn<float>("brightV");
        QTest::addColumn<float>("darkU"); // and one that must be dark (-1: none)
        QTest::addColumn<float>("darkV");
        QTest::newRow("X") << 0 << 0.3f << 0.8f << 0.5f << 0.2f << 0.5f;
        QTest::newRow("Y") << 1 << 0.6f << 0.5f << 0.8f << 0.5f << 0.2f;
        QTest::newRow("Z above") << 2 << 0.7f << 0.2f << 0.2f << -1.f << -1.f;
        QTest::newRow("Z below") << 2 << 0.3f << -1.f << -1.f << 0.7f << 0.7f;
    }
    void viewShowsSliceAtPixels()
    {
        QFETCH(int, axis);
        QFETCH(float, position);
        QFETCH(float, brightU);
        QFETCH(float, brightV);
        QFETCH(float, darkU);
        QFETCH(float, darkV);
        Document doc;
        doc.reset(cubeScene(), {});
        ToolOptions options;
        Viewport view(&doc, &options);
        view.setOverlay(Viewport::Outlines, false);
        view.resize(300, 300);
        view.setField(ViewField::Density);
        const SlicePlane plane{axis, position};
        view.setSlicePlane(plane);
        view.showFrame(knownFrame(true));
        view.fitToView();
        QVERIFY(view.sliceData());
        const QImage image = view.grab().toImage();
        if (brightU >= 0.f)
            QVERIFY(bright(pixelAt(image, view, plane.toWorld({brightU, brightV, 0.f}))));
        if (darkU >= 0.f)
            QVERIFY(dark(pixelAt(image, view, plane.toWorld({darkU, darkV, 0.f}))));
        // Outside the domain is the background, never smoke.
        QVERIFY(dark(image.pixel(2, image.height() - 3)));
    }

    // Cross-sections: a sphere at distance d from the plane is a disc of radius
    // sqrt(r^2 - d^2); a plane past it misses it; a box cut by an X plane is its z-y rectangle.
    void crossSections()
    {
        Shape sphere;
        sphere.centre = {0.4f, 0.5f, 0.6f};
        sphere.radius = 0.2f;
        const SlicePlane x{0, 0.52f};
        std::vector<Shape> cut = crossSection(sphere, {}, x, true);
        QCOMPARE(cut.size(), std::size_t(1));
        QCOMPARE(cut[0].radius, std::sqrt(0.2f * 0.2f - 0.12f * 0.12f));
        QCOMPARE(cut[0].centre.x, 0.6f); // u = z
        QCOMPARE(cut[0].centre.y, 0.5f); // v = y
        QVERIFY(crossSection(sphere, {}, SlicePlane{0, 0.61f}, true).empty());
        // The offset moves it: the same plane now misses.
        QVERIFY(crossSection(sphere, {0.5f, 0.f, 0.f}, x, true).empty());

        Shape box;
        box.type = ShapeType::Box;
        box.centre = {0.5f, 0.5f, 0.5f};
        box.halfSize = {0.1f, 0.2f, 0.3f};
        cut = crossSection(box, {}, SlicePlane{0, 0.55f}, true);
        QCOMPARE(cut.size(), std::size_t(1));
        QCOMPARE(cut[0].halfSize.x, 0.3f);                   // z half size along u
        QVERIFY(std::abs(cut[0].halfSize.y - 0.2f) < 1e-6f); // y half size along v
        QVERIFY(crossSection(box, {}, SlicePlane{0, 0.65f}, true).empty());
        // A 45-degree box cut through its centre by an X plane spans |y| <= (hx + hy) / sqrt 2
        // ... the narrower of the two bands: hx / sin 45 = 0.1414.
        box.rotation = 45.f;
        cut = crossSection(box, {}, SlicePlane{0, 0.5f}, true);
        QCOMPARE(cut.size(), std::size_t(1));
        QVERIFY(std::abs(cut[0].halfSize.y - 0.1f * std::sqrt(2.f)) < 1e-5f);
    }

    // A brush stroke dragged in an X slice lies in that plane (every point at x = position,
    // with the brush radius in 3D); undo removes it.
    void paintingLiesInSlicePlane_data()
    {
        QTest::addColumn<int>("axis");
        QTest::addColumn<float>("position");
        QTest::newRow("X") << 0 << 0.25f;
        QTest::newRow("Y") << 1 << 0.7f;
        QTest::newRow("Z") << 2 << 0.4f;
    }
    void paintingLiesInSlicePlane()
    {
        QFETCH(int, axis);
        QFETCH(float, position);
        Document doc;
        doc.reset(cubeScene(), {});
        ToolOptions options;
        options.setRadius(0.05f);
        Viewport view(&doc, &options);
        view.resize(400, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        BrushTool brush(&view, ItemKind::Emitter);
        view.setTool(&brush);
        const SlicePlane plane{axis, position};
        view.setSlicePlane(plane);
        view.fitToView();
        const QPoint a = view.toWidget(plane.toWorld({0.3f, 0.3f, 0.f})).toPoint();
        const QPoint b = view.toWidget(plane.toWorld({0.7f, 0.6f, 0.f})).toPoint();
        QTest::mousePress(&view, Qt::LeftButton, {}, a);
        for (int s = 1; s <= 10; ++s)
            QTest::mouseMove(&view, a + (b - a) * s / 10);
        QTest::mouseRelease(&view, Qt::LeftButton, {}, b);
        QCOMPARE(int(doc.scene().items.size()), 1);
        const Shape &stroke = doc.scene().items[0].shape;
        QCOMPARE(stroke.type, ShapeType::Stroke);
        QVERIFY(stroke.points.size() >= 4);
        for (const StrokePoint &p : stroke.points) {
            QCOMPARE(p.position[axis], position);
            QCOMPARE(p.radius, 0.05f);
        }
        // It spans the drag in the plane (one pixel of slack: 1 / zoom world units).
        const float slack = float(1.5 / view.pixelsPerUnit());
        const sim::Vec3 first = plane.toPlane(stroke.points.front().position);
        QVERIFY(std::abs(first.x - 0.3f) < slack && std::abs(first.y - 0.3f) < slack);
        const sim::Vec3 last = plane.toPlane(stroke.points.back().position);
        QVERIFY(std::abs(last.x - 0.7f) < slack && std::abs(last.y - 0.6f) < slack);
        doc.undoStack()->undo();
        QVERIFY(doc.scene().items.empty());
    }

    // A box placed in a Y slice is centred in the plane and the brush radius deep along y;
    // the select tool then moves it within the plane of an X slice view (x never changes).
    void shapePlacedAndMovedInSlices()
    {
        Document doc;
        doc.reset(cubeScene(), {});
        ToolOptions options;
        options.setRadius(0.04f);
        Viewport top(&doc, &options), side(&doc, &options);
        for (Viewport *v : {&top, &side}) {
            v->resize(400, 400);
            v->show();
            QVERIFY(QTest::qWaitForWindowExposed(v));
        }
        ShapeTool boxTool(&top, ShapeType::Box);
        SelectTool select(&top);
        top.setTool(&boxTool);
        const SlicePlane yPlane{1, 0.6f};
        top.setSlicePlane(yPlane);
        top.fitToView();
        QTest::mousePress(&top, Qt::LeftButton, {}, top.toWidget({0.2f, 0.6f, 0.3f}).toPoint());
        QTest::mouseMove(&top, top.toWidget({0.4f, 0.6f, 0.5f}).toPoint());
        QTest::mouseRelease(&top, Qt::LeftButton, {}, top.toWidget({0.4f, 0.6f, 0.5f}).toPoint());
        QCOMPARE(int(doc.scene().items.size()), 1);
        const Shape box = doc.scene().items[0].shape;
        QCOMPARE(box.type, ShapeType::Box);
        const float slack = float(1.5 / top.pixelsPerUnit());
        QCOMPARE(box.centre.y, 0.6f);
        QCOMPARE(box.halfSize.y, 0.04f);
        QVERIFY(std::abs(box.centre.x - 0.3f) < slack && std::abs(box.centre.z - 0.4f) < slack);
        QVERIFY(std::abs(box.halfSize.x - 0.1f) < slack);

        // The X slice through the box's centre shows it; drag it by (dz, dy) = (0.1, 0.05).
        const SlicePlane xPlane{0, box.centre.x};
        side.setSlicePlane(xPlane);
        side.fitToView();
        side.setTool(&select);
        const sim::Vec3 grab = xPlane.toWorld({box.centre.z, box.centre.y, 0.f});
        const sim::Vec3 to = grab + sim::Vec3{0.f, 0.05f, 0.1f};
        QCOMPARE(side.itemAt(side.toWidget(grab)), 0);
        QTest::mousePress(&side, Qt::LeftButton, {}, side.toWidget(grab).toPoint());
        QTest::mouseMove(&side, side.toWidget(to).toPoint());
        QTest::mouseRelease(&side, Qt::LeftButton, {}, side.toWidget(to).toPoint());
        const Shape moved = doc.scene().items[0].shape;
        const float sideSlack = float(1.5 / side.pixelsPerUnit());
        QCOMPARE(moved.centre.x, box.centre.x);
        QVERIFY(std::abs(moved.centre.y - box.centre.y - 0.05f) < sideSlack);
        QVERIFY(std::abs(moved.centre.z - box.centre.z - 0.1f) < sideSlack);
        doc.undoStack()->undo();
        QCOMPARE(doc.scene().items[0].shape, box);
        doc.undoStack()->undo();
        QVERIFY(doc.scene().items.empty());
    }

    // The dye view of a burning frame adds the flame's blackbody light over the smoke: warm
    // (red > green > blue) and brighter where the flame is, the smoke unchanged elsewhere and
    // everywhere without combustion. The flame and fuel views map their fields.
    void fireGlowsInDyeView()
    {
        FrameData frame;
        frame.domain = makeDomain(cubeScene().domain);
        frame.domain.cells.z = 1;
        const sim::Int3 n{kCells, kCells, 1};
        for (DisplayField f : {DisplayField::Density, DisplayField::Temperature,
                               DisplayField::Flame, DisplayField::Fuel})
            frame.fields[int(f)].reshape(n, {0.5f, 0.5f, 0.5f});
        frame.solids.reshape(n);
        frame.fields[int(DisplayField::Density)].fill(0.3f);
        // Flame and heat in the left half (x < 16): 0.3 flame at 1.5 above ambient (1800 K).
        for (int j = 0; j < kCells; ++j)
            for (int i = 0; i < kCells / 2; ++i) {
                frame.fields[int(DisplayField::Flame)](i, j, 0) = 0.3f;
                frame.fields[int(DisplayField::Temperature)](i, j, 0) = 1.5f;
                frame.fields[int(DisplayField::Fuel)](i, j, 0) = 0.5f;
            }
        frame.maximum[int(DisplayField::Flame)] = 0.3f;
        frame.maximum[int(DisplayField::Fuel)] = 0.5f;
        const FireLook fire;
        const QImage lit = renderField(frame, ViewField::Dye, fire).image;
        FrameData noFire = frame;
        noFire.fields[int(DisplayField::Flame)] = sim::ScalarGrid();
        const QImage plain = renderField(noFire, ViewField::Dye, fire).image;
        const QRgb burning = lit.pixel(4, 16), smoke = plain.pixel(4, 16);
        const QString both = QString("burning (%1, %2, %3), smoke (%4, %5, %6)")
                                 .arg(qRed(burning))
                                 .arg(qGreen(burning))
                                 .arg(qBlue(burning))
                                 .arg(qRed(smoke))
                                 .arg(qGreen(smoke))
                                 .arg(qBlue(smoke));
        QVERIFY2(qRed(burning) > qGreen(burning) && qGreen(burning) > qBlue(burning),
                 qPrintable(both));
        QVERIFY2(qRed(burning) > qRed(smoke) + 40, qPrintable(both));
        QCOMPARE(lit.pixel(28, 16), plain.pixel(28, 16)); // no flame there
        // Without combustion the dye view is the plain smoke picture in the look's smoke colour,
        // hot or not.
        QCOMPARE(plain, dyeImage(frame.field(DisplayField::Density), {}, {}, {}, 0, &frame.solids,
                                 RenderSettings{}.smokeColor));
        FireLook off;
        off.look.flameIntensity = 0.f;
        off.look.emissionIntensity = 0.f;
        QCOMPARE(renderField(frame, ViewField::Dye, off).image, plain);
        // Flame and fuel views: the fields on their maps, 0 to the frame's maximum.
        const FieldPicture flame = renderField(frame, ViewField::Flame, fire);
        QCOMPARE(flame.hi, 0.3f);
        QCOMPARE(flame.image.pixel(4, 16), mapColor(ColorMap::Inferno, 1.f));
        QCOMPARE(flame.image.pixel(28, 16), mapColor(ColorMap::Inferno, 0.f));
        const FieldPicture fuel = renderField(frame, ViewField::Fuel, fire);
        QCOMPARE(fuel.image.pixel(4, 16), mapColor(ColorMap::Smoke, 1.f));
        QCOMPARE(toDisplayName(ViewField::Flame), QString("Flame"));
        QCOMPARE(toDisplayName(ViewField::Fuel), QString("Fuel"));
    }

    // Every frame keeps its volume, so old frames show every slice (tests/ui_cache has the rest).
    void cacheKeepsEveryVolume()
    {
        FrameCache cache;
        for (int f = 0; f < 3; ++f) {
            auto frame = std::make_shared<FrameData>(*knownFrame(true));
            frame->frame = f;
            cache.insert(frame);
        }
        for (int f = 0; f < 3; ++f) {
            QVERIFY(cache.at(f)->volume);
            FrameData slice;
            QVERIFY(sliceFrame(*cache.at(f), {0, 0.1f}, slice));
        }
    }
};

QTEST_MAIN(TestUiSlices)
#include "tst_ui_slices.moc"
