// SPDX-License-Identifier: Apache-2.0
// Scene model: domain sizing, shape coverage at several resolutions, keyframes, the
// rasterizer's determinism and caching, and what an edit changes. Only the last test simulates
// (a few frames), to hold the "does this edit change the simulation" rule to the solver.
#include <core/sim/base/parallel.h>

#include <core/scene/rasterize.h>
#include <core/scene/scene.h>
#include <core/scene/scenechanges.h>
#include <core/scene/scenesimulation.h>
#include <core/scene/shapecoverage.h>

#include <oneapi/tbb/task_arena.h> // before Qt: TBB declares members named emit()

#include <QImage>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstring>
#include <functional>
#include <numbers>

using namespace plume;
using sim::Vec3;

Q_DECLARE_METATYPE(plume::sim::Vec3)
Q_DECLARE_METATYPE(plume::sim::Int3)
Q_DECLARE_METATYPE(plume::Shape)

namespace {

constexpr double kPi = std::numbers::pi;

sim::Domain squareDomain(int n, bool threeD = false)
{
    DomainSettings d;
    d.dimension = threeD ? Dimension::ThreeD : Dimension::TwoD;
    d.resolution = n;
    return makeDomain(d);
}

/// Sum of coverage weights in world area (2D) or volume (3D).
double coveredMeasure(const sim::SparseMask &m, const sim::Domain &d)
{
    double sum = 0.0;
    for (float w : m.weights)
        sum += w;
    return sum * std::pow(double(d.cellSize), d.dimensions());
}

/// Coverage weight at cell (i, j, k), 0 when absent.
float weightAt(const sim::SparseMask &m, const sim::Domain &d, int i, int j, int k = 0)
{
    const std::uint32_t cell = std::uint32_t(i + d.cells.x * (j + d.cells.y * k));
    const auto it = std::lower_bound(m.cells.begin(), m.cells.end(), cell);
    return it != m.cells.end() && *it == cell ? m.weights[std::size_t(it - m.cells.begin())] : 0.f;
}

/// Weight of the cell containing world point p (2D).
float weightAtPoint(const sim::SparseMask &m, const sim::Domain &d, Vec3 p)
{
    const Vec3 c = d.toCell(p);
    return weightAt(m, d, int(c.x), int(c.y));
}

Shape circle(Vec3 c, float r)
{
    Shape s;
    s.type = ShapeType::Sphere;
    s.centre = c;
    s.radius = r;
    return s;
}

/// A stroke of a few sparse points along an arc: far apart compared with the radius.
Shape sparseStroke()
{
    Shape s;
    s.type = ShapeType::Stroke;
    for (int n = 0; n < 5; ++n) {
        const float a = float(n) / 4.f * float(kPi) * 0.8f;
        s.points.push_back(
            {Vec3{0.5f + 0.3f * std::cos(a), 0.3f + 0.3f * std::sin(a), 0.f}, 0.03f, 1.f, {}});
    }
    return s;
}

bool sameMask(const sim::SparseMask &a, const sim::SparseMask &b)
{
    return a.cells == b.cells && a.weights.size() == b.weights.size()
           && std::memcmp(a.weights.data(), b.weights.data(), a.weights.size() * sizeof(float))
                  == 0;
}

/// A 2D or 3D scene using every shape and kind, with animated values.
Scene everythingScene(bool threeD)
{
    Scene s;
    s.name = "everything";
    s.domain.dimension = threeD ? Dimension::ThreeD : Dimension::TwoD;
    s.domain.size = {1.f, 0.8f, 0.6f};
    s.domain.resolution = threeD ? 40 : 160;
    Item a;
    a.name = "disc";
    a.shape = circle({0.3f, 0.2f, 0.3f}, 0.1f);
    a.offset.keys = {{0.0, {0.f, 0.f, 0.f}, {}}, {10.0, {0.2f, 0.1f, 0.f}, {}}};
    a.emitter.rate.keys = {{0.0, 1.f, {}}, {10.0, 3.f, {}}};
    s.items.push_back(a);
    Item b;
    b.name = "wall";
    b.kind = ItemKind::Obstacle;
    b.shape.type = ShapeType::Box;
    b.shape.centre = {0.6f, 0.4f, 0.3f};
    b.shape.halfSize = {0.1f, 0.05f, 0.1f};
    b.shape.rotation = 30.f;
    s.items.push_back(b);
    Item c;
    c.name = "rod";
    c.kind = ItemKind::ForceField;
    c.shape.type = ShapeType::Capsule;
    c.shape.start = {0.2f, 0.6f, 0.2f};
    c.shape.end = {0.8f, 0.65f, 0.4f};
    c.shape.radius = 0.05f;
    c.force.falloff = 0.05f;
    s.items.push_back(c);
    Item d;
    d.name = "stroke";
    d.shape = sparseStroke();
    s.items.push_back(d);
    return s;
}

} // namespace

class TestSceneModel : public QObject
{
    Q_OBJECT

private slots:
    void domainCells_data();
    void domainCells();
    void circleArea_data();
    void circleArea();
    void sphereVolume_data();
    void sphereVolume();
    void boxAndCapsuleArea_data();
    void boxAndCapsuleArea();
    void coverageProfile();
    void strokeHasNoGaps_data();
    void strokeHasNoGaps();
    void strokeRadiusAndPressure();
    void imageMask_data();
    void imageMask();
    void keyframes_data();
    void keyframes();
    void keyframesVec3();
    void rasterizeDeterministic_data();
    void rasterizeDeterministic();
    void rasterizerCaching();
    void activityAndForces();
    void changedPropertiesNameEachEdit();
    void editsThatDoNotChangeTheSimulation();
};

void TestSceneModel::domainCells_data()
{
    QTest::addColumn<bool>("threeD");
    QTest::addColumn<Vec3>("size");
    QTest::addColumn<int>("resolution");
    QTest::addColumn<sim::Int3>("cells");
    QTest::newRow("2d square") << false << Vec3{1, 1, 1} << 64 << sim::Int3{64, 64, 1};
    QTest::newRow("2d wide") << false << Vec3{2, 1, 1} << 256 << sim::Int3{256, 128, 1};
    QTest::newRow("2d tall") << false << Vec3{1, 3, 9} << 90 << sim::Int3{30, 90, 1};
    QTest::newRow("2d sliver keeps one cell")
        << false << Vec3{1, 0.001f, 1} << 100 << sim::Int3{100, 1, 1};
    QTest::newRow("3d rounds") << true << Vec3{1, 1.5f, 1} << 64 << sim::Int3{43, 64, 43};
    QTest::newRow("3d deep") << true << Vec3{1, 1, 2} << 48 << sim::Int3{24, 24, 48};
}

void TestSceneModel::domainCells()
{
    QFETCH(bool, threeD);
    QFETCH(Vec3, size);
    QFETCH(int, resolution);
    QFETCH(sim::Int3, cells);
    DomainSettings d;
    d.dimension = threeD ? Dimension::ThreeD : Dimension::TwoD;
    d.size = size;
    d.resolution = resolution;
    const sim::Domain dom = makeDomain(d);
    QCOMPARE(dom.cells, cells);
    const float longest = std::max({size.x, size.y, threeD ? size.z : 0.f});
    QCOMPARE(dom.cellSize, longest / float(resolution));
    QCOMPARE(estimateMemoryBytes(d), cells.volume() * kBytesPerCellEstimate);
}

void TestSceneModel::circleArea_data()
{
    QTest::addColumn<int>("resolution");
    for (int n : {32, 64, 128, 256})
        QTest::addRow("%d cells", n) << n;
}

void TestSceneModel::circleArea()
{
    // The one-cell ramp integrates exactly across a straight edge; curvature leaves an error
    // of order (h / r)^2 / 24, under 0.1% for r >= 6 cells. 1% also covers float rounding.
    QFETCH(int, resolution);
    const sim::Domain d = squareDomain(resolution);
    const float r = 0.23f;
    const sim::SparseMask m = shapeCoverage(d, circle({0.503f, 0.489f, 0.f}, r), {});
    QVERIFY(m.validate(std::size_t(d.cellCount())).ok());
    const double area = kPi * r * r;
    QVERIFY2(std::abs(coveredMeasure(m, d) - area) < 0.01 * area,
             qPrintable(QString("covered %1, disc %2").arg(coveredMeasure(m, d)).arg(area)));
}

void TestSceneModel::sphereVolume_data()
{
    QTest::addColumn<int>("resolution");
    for (int n : {24, 48, 64})
        QTest::addRow("%d cells", n) << n;
}

void TestSceneModel::sphereVolume()
{
    // Same ramp argument as circleArea; r = 0.3 is 7 cells at 24: allow 2%.
    QFETCH(int, resolution);
    const sim::Domain d = squareDomain(resolution, true);
    const float r = 0.3f;
    const sim::SparseMask m = shapeCoverage(d, circle({0.48f, 0.51f, 0.5f}, r), {});
    const double volume = 4.0 / 3.0 * kPi * r * r * r;
    QVERIFY2(std::abs(coveredMeasure(m, d) - volume) < 0.02 * volume,
             qPrintable(QString("covered %1, ball %2").arg(coveredMeasure(m, d)).arg(volume)));
}

void TestSceneModel::boxAndCapsuleArea_data()
{
    QTest::addColumn<Shape>("shape");
    QTest::addColumn<double>("area");
    QTest::addColumn<double>("tolerance");
    Shape box;
    box.type = ShapeType::Box;
    box.centre = {0.51f, 0.47f, 0.f};
    box.halfSize = {0.2f, 0.1f, 0.1f};
    // Straight edges are exact; only the four corners lose a little (rounded distance).
    QTest::newRow("box") << box << 0.4 * 0.2 << 0.005;
    box.rotation = 30.f;
    QTest::newRow("box rotated 30") << box << 0.4 * 0.2 << 0.01;
    Shape cap;
    cap.type = ShapeType::Capsule;
    cap.start = {0.2f, 0.3f, 0.f};
    cap.end = {0.7f, 0.6f, 0.f};
    cap.radius = 0.08f;
    const double len = std::hypot(0.5, 0.3);
    QTest::newRow("capsule") << cap << (kPi * 0.08 * 0.08 + 2 * 0.08 * len) << 0.01;
}

void TestSceneModel::boxAndCapsuleArea()
{
    QFETCH(Shape, shape);
    QFETCH(double, area);
    QFETCH(double, tolerance);
    for (int n : {64, 128, 256}) {
        const sim::Domain d = squareDomain(n);
        const double covered = coveredMeasure(shapeCoverage(d, shape, {}), d);
        QVERIFY2(std::abs(covered - area) < tolerance * area,
                 qPrintable(
                     QString("%1 cells: covered %2, exact %3").arg(n).arg(covered).arg(area)));
    }
}

void TestSceneModel::coverageProfile()
{
    // Box [0.25, 0.75] on 8 cells of 1/8: x-edges fall on cell centres (weight 0.5), cells
    // fully inside are 1, cells a cell beyond the edge are absent.
    const sim::Domain d = squareDomain(8);
    Shape box;
    box.type = ShapeType::Box;
    box.centre = {0.5f, 0.5f, 0.f};
    box.halfSize = {0.25f - 0.0625f, 0.4f, 0.f};
    const sim::SparseMask m = shapeCoverage(d, box, {});
    QCOMPARE(weightAt(m, d, 2, 4), 0.5f);
    QCOMPARE(weightAt(m, d, 3, 4), 1.f);
    QCOMPARE(weightAt(m, d, 5, 4), 0.5f);
    QCOMPARE(weightAt(m, d, 1, 4), 0.f);
    QCOMPARE(weightAt(m, d, 6, 4), 0.f);
    // Only the bounding box (plus one cell) is touched: no cell of column 0 or 7 is listed.
    for (std::uint32_t c : m.cells)
        QVERIFY(c % 8 != 0 && c % 8 != 7);
}

void TestSceneModel::strokeHasNoGaps_data()
{
    QTest::addColumn<int>("resolution");
    for (int n : {32, 64, 128, 256})
        QTest::addRow("%d cells", n) << n;
}

void TestSceneModel::strokeHasNoGaps()
{
    // Five points 0.19 apart with radius 0.03: as dots they would leave gaps. Along the
    // polyline every cell is covered; the covered area matches the swept capsules at every
    // resolution (within 3%: the ramp at 32 cells spans 0.03, the stroke's radius).
    QFETCH(int, resolution);
    const sim::Domain d = squareDomain(resolution);
    const Shape s = sparseStroke();
    const sim::SparseMask m = shapeCoverage(d, s, {});
    for (std::size_t n = 1; n < s.points.size(); ++n) {
        const Vec3 a = s.points[n - 1].position;
        const Vec3 b = s.points[n].position;
        for (int t = 0; t <= 20; ++t) {
            const Vec3 p = a + (b - a) * (float(t) / 20.f);
            QVERIFY2(weightAtPoint(m, d, p) >= 0.5f,
                     qPrintable(QString("gap at segment %1, t = %2").arg(n).arg(t)));
        }
    }
    double total = 0.0;
    for (std::size_t n = 1; n < s.points.size(); ++n)
        total += double(length(s.points[n].position - s.points[n - 1].position));
    // Union of the capsules: a band of width 2r plus the two end caps, minus small overlaps at
    // the (gentle) joints.
    const double area = 2 * 0.03 * total + kPi * 0.03 * 0.03;
    const double covered = coveredMeasure(m, d);
    QVERIFY2(std::abs(covered - area) < 0.03 * area,
             qPrintable(QString("covered %1, swept %2").arg(covered).arg(area)));
}

void TestSceneModel::strokeRadiusAndPressure()
{
    // A horizontal stroke whose radius grows from 0.02 to 0.06 and pressure falls to 0.5:
    // at the middle the radius is 0.04 and the weight 0.75.
    // The middle lies on the centre of cell column 128.
    const sim::Domain d = squareDomain(256);
    const float h = d.cellSize;
    Shape s;
    s.type = ShapeType::Stroke;
    s.points = {{Vec3{0.2f + h / 2, 0.5f, 0.f}, 0.02f, 1.f, {}},
                {Vec3{0.8f + h / 2, 0.5f, 0.f}, 0.06f, 0.5f, {}}};
    const sim::SparseMask m = shapeCoverage(d, s, {});
    QCOMPARE(weightAtPoint(m, d, {0.5f + h / 2, 0.5f + 0.03f, 0.f}), 0.75f);
    QCOMPARE(weightAtPoint(m, d, {0.5f + h / 2, 0.5f + 0.05f, 0.f}), 0.f);
    QCOMPARE(weightAtPoint(m, d, {0.25f, 0.5f + 0.03f, 0.f}), 0.f);
}

void TestSceneModel::imageMask_data()
{
    QTest::addColumn<int>("resolution");
    QTest::addColumn<int>("channel");
    QTest::addColumn<bool>("invert");
    QTest::addColumn<double>("area");
    // A 40 x 40 image, left half white and opaque, right half black and transparent, placed
    // on [0.2, 0.6] x [0.2, 0.6]: the white half covers 0.2 x 0.4.
    QTest::newRow("luminance 64") << 64 << int(ImageChannel::Luminance) << false << 0.08;
    QTest::newRow("luminance 200") << 200 << int(ImageChannel::Luminance) << false << 0.08;
    QTest::newRow("alpha 128") << 128 << int(ImageChannel::Alpha) << false << 0.08;
    QTest::newRow("inverted 128") << 128 << int(ImageChannel::Luminance) << true << 0.08;
}

void TestSceneModel::imageMask()
{
    // Bilinear sampling blurs the edge symmetrically, so the sum stays the white area; the
    // rectangle's outer edges cut at cell centres. 3% covers both at 64 cells.
    QFETCH(int, resolution);
    QFETCH(int, channel);
    QFETCH(bool, invert);
    QFETCH(double, area);
    QTemporaryDir dir;
    QImage img(40, 40, QImage::Format_ARGB32);
    for (int y = 0; y < 40; ++y)
        for (int x = 0; x < 40; ++x)
            img.setPixel(x, y, x < 20 ? qRgba(255, 255, 255, 255) : qRgba(0, 0, 0, 0));
    QVERIFY(img.save(dir.filePath("half.png")));
    Shape s;
    s.type = ShapeType::Image;
    s.file = "half.png";
    s.imageMin = {0.2f, 0.2f, 0.f};
    s.imageMax = {0.6f, 0.6f, 0.f};
    s.channel = ImageChannel(channel);
    s.invert = invert;
    const auto loaded = loadMaskImage(s, dir.path().toStdString());
    QVERIFY2(loaded, loaded.error().c_str());
    const MaskImage &mask = loaded.value();
    const sim::Domain d = squareDomain(resolution);
    const sim::SparseMask m = shapeCoverage(d, s, {}, 0.f, &mask);
    QVERIFY(m.validate(std::size_t(d.cellCount())).ok());
    const double covered = coveredMeasure(m, d);
    QVERIFY2(std::abs(covered - area) < 0.03 * area,
             qPrintable(QString("covered %1, white %2").arg(covered).arg(area)));
    const float left = weightAtPoint(m, d, {0.3f, 0.4f, 0.f});
    const float right = weightAtPoint(m, d, {0.5f, 0.4f, 0.f});
    QCOMPARE(invert ? right : left, 1.f);
    QCOMPARE(invert ? left : right, 0.f);
}

void TestSceneModel::keyframes_data()
{
    QTest::addColumn<int>("interpolation");
    QTest::addColumn<double>("frame");
    QTest::addColumn<float>("expected");
    // Keys (0, 0), (10, 10), (20, 0). Smooth: 10 * (3u^2 - 2u^3).
    const int lin = int(Interpolation::Linear);
    const int smo = int(Interpolation::Smooth);
    QTest::newRow("linear before") << lin << -5.0 << 0.f;
    QTest::newRow("linear at key") << lin << 10.0 << 10.f;
    QTest::newRow("linear quarter") << lin << 2.5 << 2.5f;
    QTest::newRow("linear falling") << lin << 15.0 << 5.f;
    QTest::newRow("linear after") << lin << 25.0 << 0.f;
    QTest::newRow("smooth quarter") << smo << 2.5 << 1.5625f;
    QTest::newRow("smooth half") << smo << 5.0 << 5.f;
    QTest::newRow("smooth three quarters down") << smo << 17.5 << 1.5625f;
    QTest::newRow("smooth at last key") << smo << 20.0 << 0.f;
    QTest::newRow("smooth before") << smo << -1.0 << 0.f;
}

void TestSceneModel::keyframes()
{
    QFETCH(int, interpolation);
    QFETCH(double, frame);
    QFETCH(float, expected);
    Animated<float> a(7.f);
    QCOMPARE(a.at(frame), 7.f); // constant
    a.interpolation = Interpolation(interpolation);
    a.keys = {{0.0, 0.f, {}}, {10.0, 10.f, {}}, {20.0, 0.f, {}}};
    QCOMPARE(a.at(frame), expected);
}

void TestSceneModel::keyframesVec3()
{
    Animated<Vec3> a;
    a.keys = {{2.0, {0.f, 0.f, 0.f}, {}}, {6.0, {4.f, -8.f, 2.f}, {}}};
    QCOMPARE(a.at(3.0), (Vec3{1.f, -2.f, 0.5f}));
    QCOMPARE(a.at(100.0), (Vec3{4.f, -8.f, 2.f}));
}

void TestSceneModel::rasterizeDeterministic_data()
{
    QTest::addColumn<bool>("threeD");
    QTest::newRow("2d") << false;
    QTest::newRow("3d") << true;
}

void TestSceneModel::rasterizeDeterministic()
{
    QFETCH(bool, threeD);
    const Scene scene = everythingScene(threeD);
    SceneSetup serial;
    {
        sim::SerialScope s;
        QVERIFY(rasterizeScene(scene, 4.0, serial).ok());
    }
    QCOMPARE(serial.emitters.size(), std::size_t(2));
    QCOMPARE(serial.forces.size(), std::size_t(1));
    QVERIFY(serial.solids.anySolid());
    QVERIFY(!serial.forces[0].region.mask.empty());
    for (int threads : {1, 2, 4}) {
        oneapi::tbb::task_arena arena(threads);
        SceneSetup parallel;
        arena.execute([&] { QVERIFY(rasterizeScene(scene, 4.0, parallel).ok()); });
        QVERIFY(parallel.solids == serial.solids);
        for (std::size_t e = 0; e < serial.emitters.size(); ++e)
            QVERIFY(sameMask(parallel.emitters[e].mask, serial.emitters[e].mask));
        QVERIFY(sameMask(parallel.forces[0].region.mask, serial.forces[0].region.mask));
    }
    for (const sim::Emitter &e : serial.emitters)
        QVERIFY(sim::validate(e, std::size_t(serial.domain.cellCount())).ok());
    QVERIFY(sim::validate(serial.forces[0]).ok());
}

void TestSceneModel::rasterizerCaching()
{
    Scene scene = everythingScene(false);
    scene.domain.size = {1.f, 1.f, 1.f};
    scene.domain.resolution = 100; // h = 0.01: an offset of 0.02 moves two cells
    scene.items[0].offset.keys = {{0.0, {0.f, 0.f, 0.f}, {}}, {10.0, {0.2f, 0.f, 0.f}, {}}};
    SceneRasterizer r;
    QVERIFY(r.setScene(scene).ok());
    InputChanges c = r.update(0.0);
    QVERIFY(c.solids && c.emitters && c.forces);
    const sim::SparseMask before = r.setup().emitters[0].mask;
    c = r.update(0.0);
    QVERIFY(!c.any());
    c = r.update(1.0);
    QVERIFY(c.emitters);
    QVERIFY(!c.solids);
    QVERIFY(!c.forces);
    const sim::SparseMask &after = r.setup().emitters[0].mask;
    // Rate 1 -> 1.2 linearly over 10 frames.
    QCOMPARE(r.setup().emitters[0].density, 1.2f);
    // Moved by two cells along x: same weights, cell indices + 2 (rounding may differ by a
    // float ulp in the distances, so compare weights with a tolerance).
    QCOMPARE(after.size(), before.size());
    for (std::size_t n = 0; n < before.size(); ++n) {
        QCOMPARE(after.cells[n], before.cells[n] + 2);
        QVERIFY(std::abs(after.weights[n] - before.weights[n]) < 1e-4f);
    }
}

void TestSceneModel::activityAndForces()
{
    Scene scene = everythingScene(false);
    scene.items[0].activeStart = 5.0;
    scene.items[0].activeEnd = 8.0;
    scene.items[3].enabled = false;
    Item sphere;
    sphere.name = "pull";
    sphere.kind = ItemKind::ForceField;
    sphere.shape = circle({0.5f, 0.5f, 0.f}, 0.2f);
    sphere.offset = Vec3{0.1f, 0.f, 0.f};
    sphere.force.type = sim::ForceType::Radial;
    sphere.force.centre = {0.5f, 0.5f, 0.f};
    sphere.force.strength.keys = {{0.0, 0.f, {}}, {10.0, 5.f, {}}};
    scene.items.push_back(sphere);
    Item all;
    all.name = "wind";
    all.kind = ItemKind::ForceField;
    all.shape.type = ShapeType::Everywhere;
    scene.items.push_back(all);
    SceneSetup at4, at6;
    QVERIFY(rasterizeScene(scene, 4.0, at4).ok());
    QVERIFY(rasterizeScene(scene, 6.0, at6).ok());
    QCOMPARE(at4.emitters.size(), std::size_t(0)); // disc not yet active, stroke disabled
    QCOMPARE(at6.emitters.size(), std::size_t(1));
    QCOMPARE(at6.forces.size(), std::size_t(3));
    const sim::ForceField &pull = at6.forces[1];
    QCOMPARE(int(pull.region.shape), int(sim::RegionShape::Sphere));
    QVERIFY(pull.region.mask.empty());
    QCOMPARE(pull.region.centre, (Vec3{0.6f, 0.5f, 0.f}));
    QCOMPARE(pull.centre, (Vec3{0.6f, 0.5f, 0.f}));
    QCOMPARE(pull.strength, 3.f);
    QCOMPARE(int(at6.forces[2].region.shape), int(sim::RegionShape::Everywhere));
    QCOMPARE(at6.forces[2].seed, itemSeed(0, "wind"));
    // An emitter shape may not be "everywhere"; an image needs 2D.
    scene.items[0].shape.type = ShapeType::Everywhere;
    QVERIFY(!checkScene(scene).ok());
    QVERIFY(QString::fromStdString(checkScene(scene).error).contains("disc"));
}

// Each edit reports exactly the properties it touched, whatever field inside them it was.
void TestSceneModel::changedPropertiesNameEachEdit()
{
    using P = Item::Property;
    const Item base = everythingScene(false).items[0];
    const auto item = [&](auto edit) {
        Item after = base;
        edit(after);
        return changedProperties(base, after);
    };
    QVERIFY(item([](Item &) {}).empty());
    QVERIFY(item([](Item &i) { i.name = "renamed"; }) == ItemChanges{P::Name});
    QVERIFY(item([](Item &i) { i.enabled = false; }) == ItemChanges{P::Enabled});
    QVERIFY(item([](Item &i) { i.activeStart = 3; }) == ItemChanges{P::Active});
    QVERIFY(item([](Item &i) { i.activeEnd = 9; }) == ItemChanges{P::Active});
    QVERIFY(item([](Item &i) { i.kind = ItemKind::Obstacle; }) == ItemChanges{P::Kind});
    QVERIFY(item([](Item &i) { i.shape.radius = 0.3f; }) == ItemChanges{P::Shape});
    QVERIFY(item([](Item &i) { i.shape.points.push_back({}); }) == ItemChanges{P::Shape});
    QVERIFY(item([](Item &i) { i.offset.keys[1].value.x = 0.5f; }) == ItemChanges{P::Offset});
    QVERIFY(item([](Item &i) { i.emitter.rate.keys[0].value = 2.f; }) == ItemChanges{P::Emitter});
    QVERIFY(item([](Item &i) { i.emitter.fuel = 4.f; }) == ItemChanges{P::Emitter});
    QVERIFY(item([](Item &i) { i.emitter.ignite = false; }) == ItemChanges{P::Emitter});
    QVERIFY(item([](Item &i) { i.force.falloff = 0.1f; }) == ItemChanges{P::Force});
    // Hiding and locking are editor flags: named, and never a change to what is simulated.
    QVERIFY(item([](Item &i) { i.hidden = true; }) == ItemChanges{P::Hidden});
    QVERIFY(item([](Item &i) { i.locked = true; }) == ItemChanges{P::Locked});
    QVERIFY(!changesSimulation(base, ItemChanges{P::Hidden, P::Locked}));
    QVERIFY(changesSimulation(base, ItemChanges{P::Hidden, P::Enabled}));
    QVERIFY((item([](Item &i) {
                 i.name = "moved";
                 i.shape.centre.x = 0.1f;
             })
             == ItemChanges{P::Name, P::Shape}));

    using D = DomainSettings::Property;
    const DomainSettings domain;
    const auto dom = [&](auto edit) {
        DomainSettings after = domain;
        edit(after);
        return changedProperties(domain, after);
    };
    QVERIFY(dom([](DomainSettings &) {}).empty());
    QVERIFY(dom([](DomainSettings &d) { d.dimension = Dimension::ThreeD; })
            == DomainChanges{D::Dimension});
    QVERIFY(dom([](DomainSettings &d) { d.size.y = 2.f; }) == DomainChanges{D::Size});
    QVERIFY(dom([](DomainSettings &d) { d.origin.z = 1.f; }) == DomainChanges{D::Origin});
    QVERIFY(dom([](DomainSettings &d) { d.resolution = 64; }) == DomainChanges{D::Resolution});
    QVERIFY(dom([](DomainSettings &d) { d.boundaries[3] = sim::Boundary::Open; })
            == DomainChanges{D::Boundaries});

    using S = SimulationSettings::Property;
    const SimulationSettings simulation;
    const auto sim = [&](auto edit) {
        SimulationSettings after = simulation;
        edit(after);
        return changedProperties(simulation, after);
    };
    QVERIFY(sim([](SimulationSettings &) {}).empty());
    QVERIFY(sim([](SimulationSettings &s) { s.params.vorticity = 1.f; })
            == SimulationChanges{S::Params});
    QVERIFY(sim([](SimulationSettings &s) { s.params.pressure.tolerance = 1e-3; })
            == SimulationChanges{S::Params});
    QVERIFY(sim([](SimulationSettings &s) { s.params.combustion.expansion = 2.f; })
            == SimulationChanges{S::Params});
    QVERIFY(sim([](SimulationSettings &s) { s.combustionExtra["futureKey"] = 1; })
            == SimulationChanges{S::Params});
    QVERIFY(sim([](SimulationSettings &s) { s.time.cfl = 2.f; }) == SimulationChanges{S::Time});
    QVERIFY(sim([](SimulationSettings &s) { s.frameStart = 4; })
            == SimulationChanges{S::FrameStart});
    QVERIFY(sim([](SimulationSettings &s) { s.frameEnd = 40; }) == SimulationChanges{S::FrameEnd});
    QVERIFY(sim([](SimulationSettings &s) { s.seed = 7; }) == SimulationChanges{S::Seed});
}

// The rule the app uses to keep its frames (changesSimulation) holds for the solver: the edits
// it lets through simulate to the same bytes, the ones it stops change them.
void TestSceneModel::editsThatDoNotChangeTheSimulation()
{
    Scene scene = everythingScene(false);
    scene.domain.resolution = 40;
    Item swirl;
    swirl.name = "swirl";
    swirl.kind = ItemKind::ForceField;
    swirl.shape.type = ShapeType::Everywhere;
    swirl.force.type = sim::ForceType::Turbulence;
    swirl.force.strength = Animated<float>(20.f);
    scene.items.push_back(swirl);
    const auto simulate = [](const Scene &s) {
        SceneSimulation run;
        QByteArray bytes;
        if (!run.setScene(s).ok())
            return bytes;
        sim::ScalarGrid field;
        for (int frame = 1; frame <= 4; ++frame) {
            run.advance(frame);
            for (sim::FieldKind kind : {sim::FieldKind::Density, sim::FieldKind::VelocityX}) {
                run.solver().sample(kind, field);
                bytes.append(reinterpret_cast<const char *>(field.data()),
                             qsizetype(field.count() * sizeof(float)));
            }
        }
        return bytes;
    };
    const QByteArray before = simulate(scene);
    QVERIFY(!before.isEmpty());

    struct Edit
    {
        const char *what;
        std::size_t item; // the item edited, or npos for the simulation settings
        std::function<void(Scene &)> apply;
        bool changes;
    };
    const std::size_t none = std::size_t(-1);
    const std::vector<Edit> edits =
        {
            {"rename an emitter", 0, [](Scene &s) { s.items[0].name = "plume"; }, false},
            {"rename an obstacle", 1, [](Scene &s) { s.items[1].name = "pillar"; }, false},
            {"rename a capsule field", 2, [](Scene &s) { s.items[2].name = "push"; }, false},
            {"rename a turbulence field", 4, [](Scene &s) { s.items[4].name = "eddies"; }, true},
            {"move the frame range", none,
             [](Scene &s) {
        s.simulation.frameStart = 3;
        s.simulation.frameEnd = 9;
             },
             false},
            {"change the seed", none, [](Scene &s) { s.simulation.seed = 99; }, true},
            {"move an emitter", 0, [](Scene &s) { s.items[0].shape.centre.x += 0.1f; }, true},
    };
    for (const Edit &e : edits) {
        Scene after = scene;
        e.apply(after);
        const bool predicted =
            e.item == none
                ? changesSimulation(changedProperties(scene.simulation, after.simulation))
                : changesSimulation(after.items[e.item],
                                    changedProperties(scene.items[e.item], after.items[e.item]));
        QVERIFY2(predicted == e.changes, e.what);
        QVERIFY2((simulate(after) != before) == e.changes, e.what);
    }
    // Names of the scene and export presets are not simulated at all.
    Scene renamed = scene;
    renamed.name = "another";
    renamed.exports.render.densityScale += 1.f;
    QCOMPARE(simulate(renamed), before);
}

QTEST_GUILESS_MAIN(TestSceneModel)
#include "tst_scene_model.moc"
