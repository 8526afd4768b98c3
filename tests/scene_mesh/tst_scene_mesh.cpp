// SPDX-License-Identifier: Apache-2.0
// Meshes and placements (issue 11): model files read through Assimp, their coverage from
// OpenVDB's mesh-to-volume (3D) and the section (2D), rotated and scaled shapes, moving
// obstacles' velocities, and bad model files refused with their message.

#include <core/io/scenehash.h>
#include <core/io/scenereader.h>
#include <core/io/scenewriter.h>
#include <core/scene/meshcoverage.h>
#include <core/scene/meshfile.h>
#include <core/scene/rasterize.h>
#include <core/scene/scene.h>
#include <core/scene/scenesimulation.h>
#include <core/scene/shapecoverage.h>

#include <oneapi/tbb/global_control.h> // before Qt: TBB declares members named emit()

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <numbers>
#include <tuple>

using namespace plume;
using sim::Vec3;

namespace {

constexpr double kPi = std::numbers::pi;

sim::Domain cubeDomain(int n, bool threeD = true)
{
    DomainSettings d;
    d.dimension = threeD ? Dimension::ThreeD : Dimension::TwoD;
    d.resolution = n;
    return makeDomain(d);
}

double coveredMeasure(const sim::SparseMask &m, const sim::Domain &d)
{
    double sum = 0.0;
    for (float w : m.weights)
        sum += w;
    return sum * std::pow(double(d.cellSize), d.dimensions());
}

/// Solid flags (weight >= 0.5) of a mask, as the rasterizer makes them.
std::vector<std::uint32_t> solidCells(const sim::SparseMask &m)
{
    std::vector<std::uint32_t> out;
    for (std::size_t n = 0; n < m.size(); ++n)
        if (m.weights[n] >= 0.5f)
            out.push_back(m.cells[n]);
    return out;
}

/// A unit sphere (radius 1 at the origin) as an icosphere subdivided `levels` times.
TriangleMesh icosphere(int levels)
{
    TriangleMesh m;
    const float t = float((1.0 + std::sqrt(5.0)) / 2.0);
    const Vec3 v0[12] = {{-1, t, 0},  {1, t, 0},  {-1, -t, 0}, {1, -t, 0}, {0, -1, t},  {0, 1, t},
                         {0, -1, -t}, {0, 1, -t}, {t, 0, -1},  {t, 0, 1},  {-t, 0, -1}, {-t, 0, 1}};
    for (Vec3 v : v0)
        m.vertices.push_back(v * (1.f / length(v)));
    m.triangles = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                   {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                   {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                   {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
    for (int l = 0; l < levels; ++l) {
        std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> mid;
        auto middle = [&](std::uint32_t a, std::uint32_t b) {
            const auto key = std::make_pair(std::min(a, b), std::max(a, b));
            if (auto it = mid.find(key); it != mid.end())
                return it->second;
            const Vec3 p = (m.vertices[a] + m.vertices[b]) * 0.5f;
            m.vertices.push_back(p * (1.f / length(p)));
            return mid[key] = std::uint32_t(m.vertices.size() - 1);
        };
        std::vector<std::array<std::uint32_t, 3>> next;
        for (const auto &tr : m.triangles) {
            const std::uint32_t a = middle(tr[0], tr[1]), b = middle(tr[1], tr[2]),
                                c = middle(tr[2], tr[0]);
            next.push_back({tr[0], a, c});
            next.push_back({tr[1], b, a});
            next.push_back({tr[2], c, b});
            next.push_back({a, b, c});
        }
        m.triangles = std::move(next);
    }
    measureMesh(m);
    return m;
}

/// A closed axis-aligned cube [-1, 1]^3 (12 triangles).
TriangleMesh cube()
{
    TriangleMesh m;
    for (int n = 0; n < 8; ++n)
        m.vertices.push_back({n & 1 ? 1.f : -1.f, n & 2 ? 1.f : -1.f, n & 4 ? 1.f : -1.f});
    m.triangles = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 4}, {1, 5, 4},
                   {2, 6, 3}, {3, 6, 7}, {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};
    measureMesh(m);
    return m;
}

bool writeObj(const QString &path, const TriangleMesh &m)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return false;
    QByteArray text;
    for (const Vec3 &v : m.vertices)
        text += QByteArray("v ") + QByteArray::number(v.x, 'g', 9) + ' '
                + QByteArray::number(v.y, 'g', 9) + ' ' + QByteArray::number(v.z, 'g', 9) + '\n';
    for (const auto &t : m.triangles)
        text += "f " + QByteArray::number(t[0] + 1) + ' ' + QByteArray::number(t[1] + 1) + ' '
                + QByteArray::number(t[2] + 1) + '\n';
    return f.write(text) == text.size();
}

Affine placeAt(Vec3 centre, float scale)
{
    return placementTransform({centre, {}, {scale, scale, scale}}, {});
}

/// An empty scene of the given dimension and resolution, its files in `directory`.
Scene emptyScene(Dimension dimension, int resolution, const QString &directory = {})
{
    Scene scene;
    scene.domain.dimension = dimension;
    scene.domain.resolution = resolution;
    scene.directory = directory.toStdString();
    return scene;
}

/// An obstacle item; a mesh shape when `file` is given.
Item obstacle(const char *name, const char *file = nullptr)
{
    Item item;
    item.name = name;
    item.kind = ItemKind::Obstacle;
    if (file) {
        item.shape.type = ShapeType::Mesh;
        item.shape.file = file;
    }
    return item;
}

} // namespace

class TestSceneMesh : public QObject
{
    Q_OBJECT

private slots:
    void objSphereVolumeAt64();
    void sphereSectionIn2D();
    void closedCubeMatchesAnalyticBox();
    void openMeshIsAShell();
    void surfaceShellOfAClosedMesh();
    void serialEqualsParallel();
    void gltfAndStlFilesRead();
    void badFilesAreRefused_data();
    void badFilesAreRefused();
    void readerNamesTheKeyOfABadModel();
    void meshShapeRoundTripsAndRebases();
    void rotatedAndScaledShapes();
    void staticMeshIsRasterisedOnce();
    void movingObstacleVelocity();
    void rotatingObstacleVelocity();
    void movingMeshPushesTheFluid();
    void sceneHashCoversTheModelFile();
};

void TestSceneMesh::objSphereVolumeAt64()
{
    // Issue 11: a sphere OBJ rasterised at 64^3 has the analytic volume within 2 %.
    QTemporaryDir dir;
    const QString path = dir.filePath("sphere.obj");
    QVERIFY(writeObj(path, icosphere(5)));
    const auto mesh = loadMesh(path.toStdString());
    QVERIFY2(mesh, mesh.error().c_str());
    QVERIFY(mesh->closed());
    QCOMPARE(mesh->triangles.size(), std::size_t(20 * 1024));
    const sim::Domain d = cubeDomain(64);
    const float r = 0.3f;
    MeshCoverageSettings s;
    s.toWorld = placeAt({0.5f, 0.5f, 0.5f}, r);
    const sim::SparseMask m = meshCoverage(d, *mesh, s);
    // The icosphere's own volume is slightly below the sphere's: compare with both.
    const double sphere = 4.0 / 3.0 * kPi * r * r * r;
    const double covered = coveredMeasure(m, d);
    QVERIFY2(std::abs(covered / sphere - 1.0) < 0.02,
             qPrintable(QString::number(covered / sphere)));
    const double solid = double(solidCells(m).size()) * std::pow(d.cellSize, 3.0);
    QVERIFY2(std::abs(solid / sphere - 1.0) < 0.02, qPrintable(QString::number(solid / sphere)));
}

void TestSceneMesh::sphereSectionIn2D()
{
    // In 2D the section by the middle z plane counts: a sphere cut through its centre is a
    // disc of its radius; cut off-centre, a smaller disc.
    const TriangleMesh mesh = icosphere(5);
    const sim::Domain d = cubeDomain(128, false);
    const float r = 0.3f;
    MeshCoverageSettings s;
    s.toWorld = placeAt({0.5f, 0.5f, 0.5f}, r);
    s.cutZ = 0.5f;
    const double area = coveredMeasure(meshCoverage(d, mesh, s), d);
    QVERIFY2(std::abs(area / (kPi * r * r) - 1.0) < 0.01, qPrintable(QString::number(area)));
    s.cutZ = 0.5f + 0.18f; // section radius 0.24
    const double small = coveredMeasure(meshCoverage(d, mesh, s), d);
    const double expected = kPi * (r * r - 0.18 * 0.18);
    QVERIFY2(std::abs(small / expected - 1.0) < 0.02, qPrintable(QString::number(small)));
    s.cutZ = 0.5f + 0.31f; // misses the sphere
    QVERIFY(meshCoverage(d, mesh, s).empty());
}

void TestSceneMesh::closedCubeMatchesAnalyticBox()
{
    // Issue 11: a closed cube mesh and the analytic box give the same solid cells.
    const sim::Domain d = cubeDomain(64);
    const Vec3 centre{0.503f, 0.47f, 0.52f};
    const Vec3 half{0.2f, 0.13f, 0.17f};
    MeshCoverageSettings s;
    s.toWorld = placementTransform({centre, {}, half}, {});
    const sim::SparseMask mesh = meshCoverage(d, cube(), s);
    Shape box;
    box.type = ShapeType::Box;
    box.centre = centre;
    box.halfSize = half;
    const sim::SparseMask analytic = shapeCoverage(d, box, {});
    QVERIFY(!analytic.empty());
    QCOMPARE(solidCells(mesh), solidCells(analytic));
    // The ramps agree too, to float rounding.
    QCOMPARE(mesh.size(), analytic.size());
    for (std::size_t n = 0; n < mesh.size(); ++n)
        QVERIFY(std::abs(mesh.weights[n] - analytic.weights[n]) < 1e-3f);
}

void TestSceneMesh::openMeshIsAShell()
{
    // A single square (open) still works as an obstacle: a wall at least two cells thick with
    // no gap, whatever the fill says.
    TriangleMesh quad;
    quad.vertices = {{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}};
    quad.triangles = {{0, 1, 2}, {0, 2, 3}};
    measureMesh(quad);
    QCOMPARE(quad.openEdges, std::size_t(4));
    const sim::Domain d = cubeDomain(32);
    MeshCoverageSettings s;
    // Tilted about x so that the wall crosses cells at an angle.
    s.toWorld = placementTransform({{0.5f, 0.5f, 0.5f}, {30.f, 0.f, 0.f}, {0.6f, 0.6f, 0.6f}}, {});
    s.fill = MeshFill::Volume;
    const sim::SparseMask m = meshCoverage(d, quad, s);
    const std::vector<std::uint32_t> solid = solidCells(m);
    QVERIFY(!solid.empty());
    std::vector<std::uint8_t> flags(std::size_t(d.cellCount()), 0);
    for (std::uint32_t c : solid)
        flags[c] = 1;
    // Along every z column through the wall's middle there is a solid run of >= 2 cells.
    for (int j = 12; j < 20; ++j) {
        for (int i = 12; i < 20; ++i) {
            int run = 0, best = 0;
            for (int k = 0; k < d.cells.z; ++k) {
                run = flags[std::size_t(i + d.cells.x * (j + d.cells.y * k))] ? run + 1 : 0;
                best = std::max(best, run);
            }
            QVERIFY2(best >= 2, qPrintable(QString("column %1 %2").arg(i).arg(j)));
        }
    }
}

void TestSceneMesh::surfaceShellOfAClosedMesh()
{
    // fill = surface: a hollow shell of the given thickness; its volume is about area * t.
    const TriangleMesh mesh = icosphere(4);
    const sim::Domain d = cubeDomain(64);
    const float r = 0.3f, t = 0.05f;
    MeshCoverageSettings s;
    s.toWorld = placeAt({0.5f, 0.5f, 0.5f}, r);
    s.fill = MeshFill::Surface;
    s.thickness = t;
    const sim::SparseMask m = meshCoverage(d, mesh, s);
    const double shell = 4.0 / 3.0 * kPi * (std::pow(r + t / 2, 3.0) - std::pow(r - t / 2, 3.0));
    const double covered = coveredMeasure(m, d);
    QVERIFY2(std::abs(covered / shell - 1.0) < 0.05, qPrintable(QString::number(covered / shell)));
    // The centre is empty.
    const std::uint32_t centre = std::uint32_t(32 + 64 * (32 + 64 * 32));
    QVERIFY(!std::binary_search(m.cells.begin(), m.cells.end(), centre));
}

void TestSceneMesh::serialEqualsParallel()
{
    const TriangleMesh mesh = icosphere(4);
    const sim::Domain d3 = cubeDomain(48);
    const sim::Domain d2 = cubeDomain(96, false);
    MeshCoverageSettings s;
    s.toWorld = placementTransform({{0.47f, 0.52f, 0.5f}, {10.f, 20.f, 30.f}, {0.3f, 0.2f, 0.25f}},
                                   {});
    s.cutZ = 0.53f;
    sim::SparseMask a3, a2, b3, b2;
    {
        tbb::global_control one(tbb::global_control::max_allowed_parallelism, 1);
        a3 = meshCoverage(d3, mesh, s);
        a2 = meshCoverage(d2, mesh, s);
    }
    b3 = meshCoverage(d3, mesh, s);
    b2 = meshCoverage(d2, mesh, s);
    QVERIFY(!a3.empty() && !a2.empty());
    QCOMPARE(a3.cells, b3.cells);
    QVERIFY(std::memcmp(a3.weights.data(), b3.weights.data(), a3.weights.size() * 4) == 0);
    QCOMPARE(a2.cells, b2.cells);
    QVERIFY(std::memcmp(a2.weights.data(), b2.weights.data(), a2.weights.size() * 4) == 0);
}

void TestSceneMesh::gltfAndStlFilesRead()
{
    // The cube as glTF 2.0 (one mesh, its buffer embedded as a data URI, under a node that
    // moves it by +2 in x: node transforms apply) and as ASCII STL: both read as the same
    // closed 12-triangle cube.
    const TriangleMesh c = cube();
    QByteArray buffer;
    for (const Vec3 &v : c.vertices)
        for (float x : {v.x, v.y, v.z})
            buffer.append(reinterpret_cast<const char *>(&x), 4);
    const int indexOffset = int(buffer.size());
    for (const auto &t : c.triangles)
        for (std::uint32_t i : t) {
            const std::uint16_t s = std::uint16_t(i);
            buffer.append(reinterpret_cast<const char *>(&s), 2);
        }
    const QByteArray gltf =
        QByteArray(R"({"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
        "nodes": [{"mesh": 0, "translation": [2, 0, 0]}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
        "buffers": [{"byteLength": )")
        + QByteArray::number(buffer.size()) + R"(, "uri": "data:application/octet-stream;base64,)"
        + buffer.toBase64() + R"("}],
        "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": )"
        + QByteArray::number(indexOffset) + R"(},
                        {"buffer": 0, "byteOffset": )"
        + QByteArray::number(indexOffset) + R"(, "byteLength": )"
        + QByteArray::number(buffer.size() - indexOffset) + R"(}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 8, "type": "VEC3",
                       "min": [-1, -1, -1], "max": [1, 1, 1]},
                      {"bufferView": 1, "componentType": 5123, "count": 36, "type": "SCALAR"}]})";
    QByteArray stl = "solid cube\n";
    for (const auto &t : c.triangles) {
        stl += "facet normal 0 0 0\nouter loop\n";
        for (std::uint32_t i : t) {
            const Vec3 v = c.vertices[i];
            stl += "vertex " + QByteArray::number(v.x) + ' ' + QByteArray::number(v.y) + ' '
                   + QByteArray::number(v.z) + '\n';
        }
        stl += "endloop\nendfacet\n";
    }
    stl += "endsolid cube\n";
    QTemporaryDir dir;
    for (const auto &[name, bytes, shift] :
         {std::tuple{"cube.gltf", gltf, 2.f}, std::tuple{"cube.stl", stl, 0.f}}) {
        const QString path = dir.filePath(name);
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
        f.close();
        const auto m = loadMesh(path.toStdString());
        QVERIFY2(m, m.error().c_str());
        QCOMPARE(m->triangles.size(), std::size_t(12));
        QVERIFY2(m->closed(), name);
        QVERIFY(m->lo == (Vec3{shift - 1.f, -1.f, -1.f}));
        QVERIFY(m->hi == (Vec3{shift + 1.f, 1.f, 1.f}));
    }
}

void TestSceneMesh::badFilesAreRefused_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("content"); // "<dir>": a folder; "<none>": no file
    QTest::addColumn<QString>("message");
    QTest::newRow("missing") << "missing.obj" << QByteArray("<none>") << "does not exist";
    QTest::newRow("folder") << "folder.obj" << QByteArray("<dir>") << "it is not a file";
    QTest::newRow("empty") << "empty.obj" << QByteArray() << "the file is empty";
    QTest::newRow("points only") << "points.obj"
                                 << QByteArray("v 0 0 0\nv 1 0 0\nv 0 1 0\np 1 2 3\n")
                                 << "holds no triangles";
    QTest::newRow("lines only") << "lines.obj" << QByteArray("v 0 0 0\nv 1 0 0\nl 1 2\n")
                                << "holds no triangles";
    QTest::newRow("not a model") << "noise.glb" << QByteArray("\x01\x02garbage\xff\xfe", 12)
                                 << "not a model file Plume can read";
    QTest::newRow("unknown format") << "notes.txt" << QByteArray("hello, this is not a model\n")
                                    << "not a model file Plume can read";
}

void TestSceneMesh::badFilesAreRefused()
{
    QFETCH(QString, name);
    QFETCH(QByteArray, content);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const QString path = dir.filePath(name);
    if (content == "<dir>") {
        QVERIFY(QDir(dir.path()).mkdir(name));
    } else if (content != "<none>") {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(content);
    }
    const std::string error = loadMesh(path.toStdString()).error();
    QVERIFY(!error.empty());
    QVERIFY2(QString::fromStdString(error).contains(path), error.c_str());
    QVERIFY2(QString::fromStdString(error).contains(message), error.c_str());
}

void TestSceneMesh::readerNamesTheKeyOfABadModel()
{
    QTemporaryDir dir;
    QFile f(dir.filePath("scene.plume"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"format": "plume-scene", "version": 1,
               "domain": {"dimension": "3d", "resolution": 32},
               "items": [{"name": "rock", "kind": "obstacle",
                          "shape": {"type": "mesh", "file": "nowhere.obj"}}]})");
    f.close();
    const SceneReadResult r = readSceneFile(f.fileName());
    QVERIFY(!r.ok);
    QVERIFY2(QString::fromStdString(r.error).contains("items[0].shape.file"), r.error.c_str());
    QVERIFY2(QString::fromStdString(r.error).contains("nowhere.obj"), r.error.c_str());
    QVERIFY2(QString::fromStdString(r.error).contains("does not exist"), r.error.c_str());
}

void TestSceneMesh::meshShapeRoundTripsAndRebases()
{
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkpath("models"));
    QVERIFY(QDir(dir.path()).mkpath("elsewhere"));
    QVERIFY(writeObj(dir.filePath("models/cube.obj"), cube()));
    Scene scene = emptyScene(Dimension::ThreeD, 32, dir.path());
    Item item = obstacle("box", "models/cube.obj");
    item.shape.meshTranslation = {0.5f, 0.4f, 0.5f};
    item.shape.meshRotation = {0.f, 45.f, 0.f};
    item.shape.meshScale = {0.1f, 0.2f, 0.1f};
    item.shape.fill = MeshFill::Surface;
    item.shape.thickness = 0.03f;
    item.rotation.keys = {{1.0, {0.f, 0.f, 0.f}, {}}, {24.0, {0.f, 90.f, 0.f}, {}}};
    item.scale.value = {1.f, 2.f, 1.f};
    item.obstacle.noSlip = true;
    scene.items.push_back(item);
    const QString first = dir.filePath("scene.plume");
    QVERIFY(writeSceneFile(scene, first));
    SceneReadResult r = readSceneFile(first);
    QVERIFY2(r.ok, r.error.c_str());
    r.scene.directory = scene.directory;
    QVERIFY(r.scene == scene);
    // Saved into another folder, the path is rewritten to name the same file.
    const QString second = dir.filePath("elsewhere/copy.plume");
    QVERIFY(writeSceneFile(r.scene, second));
    const SceneReadResult again = readSceneFile(second);
    QVERIFY2(again.ok, again.error.c_str());
    QCOMPARE(QString::fromStdString(again.scene.items[0].shape.file),
             QString("../models/cube.obj"));
    // A uniform scale may be written as one number.
    QFile f(dir.filePath("uniform.plume"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"format": "plume-scene", "version": 1, "domain": {"dimension": "3d"},
               "items": [{"name": "m", "kind": "emitter",
                          "shape": {"type": "mesh", "file": "models/cube.obj", "scale": 0.25}}]})");
    f.close();
    const SceneReadResult u = readSceneFile(f.fileName());
    QVERIFY2(u.ok, u.error.c_str());
    QVERIFY(u.scene.items[0].shape.meshScale == (Vec3{0.25f, 0.25f, 0.25f}));
}

void TestSceneMesh::rotatedAndScaledShapes()
{
    // Rotating a box by the item's rotation about z gives the box's own rotation; a sphere
    // scaled by 1.5 covers 1.5^3 the volume; scaling an ellipsoid per axis scales the volume
    // by the product.
    const sim::Domain d2 = cubeDomain(128, false);
    Shape box;
    box.type = ShapeType::Box;
    box.centre = {0.5f, 0.5f, 0.f};
    box.halfSize = {0.2f, 0.1f, 0.1f};
    Shape turned = box;
    turned.rotation = 30.f;
    const sim::SparseMask a = shapeCoverage(d2, turned, {});
    const sim::SparseMask b = shapeCoverage(d2, box, Placement{{}, {0.f, 0.f, 30.f}, {1, 1, 1}});
    QCOMPARE(solidCells(a), solidCells(b));
    const sim::Domain d3 = cubeDomain(64);
    Shape sphere;
    sphere.type = ShapeType::Sphere;
    sphere.centre = {0.5f, 0.5f, 0.5f};
    sphere.radius = 0.15f;
    const double v1 = coveredMeasure(shapeCoverage(d3, sphere, {}), d3);
    const double v2 = coveredMeasure(
        shapeCoverage(d3, sphere, Placement{{}, {10.f, 20.f, 0.f}, {1.5f, 1.5f, 1.5f}}), d3);
    QVERIFY2(std::abs(v2 / v1 / 3.375 - 1.0) < 0.02, qPrintable(QString::number(v2 / v1)));
    const double v3 = coveredMeasure(shapeCoverage(d3, sphere,
                                                   Placement{{}, {0.f, 0.f, 0.f}, {2.f, 1.f, 1.f}}),
                                     d3);
    QVERIFY2(std::abs(v3 / v1 / 2.0 - 1.0) < 0.05, qPrintable(QString::number(v3 / v1)));
    // Rotation and scale act about the pivot (the centre): the covered centroid stays put.
    const sim::SparseMask m = shapeCoverage(d3, sphere,
                                            Placement{{0.1f, 0.f, 0.f}, {0, 0, 45}, {2, 1, 1}});
    double cx = 0, wsum = 0;
    for (std::size_t n = 0; n < m.size(); ++n) {
        cx += (double(m.cells[n] % 64) + 0.5) / 64.0 * m.weights[n];
        wsum += m.weights[n];
    }
    QVERIFY(std::abs(cx / wsum - 0.6) < 2e-3);
}

void TestSceneMesh::staticMeshIsRasterisedOnce()
{
    // Issue 11: a mesh that does not move costs nothing per frame.
    QTemporaryDir dir;
    QVERIFY(writeObj(dir.filePath("ball.obj"), icosphere(3)));
    Scene scene = emptyScene(Dimension::ThreeD, 32, dir.path());
    Item item = obstacle("ball", "ball.obj");
    item.shape.meshTranslation = {0.5f, 0.5f, 0.5f};
    item.shape.meshScale = {0.2f, 0.2f, 0.2f};
    scene.items.push_back(item);
    SceneRasterizer r;
    const sim::Status st = r.setScene(scene);
    QVERIFY2(st.ok(), st.error.c_str());
    QVERIFY(r.update(1).solids);
    const sim::FlagGrid first = r.setup().solids;
    int solid = 0;
    for (std::size_t n = 0; n < first.count(); ++n)
        solid += first.data()[n] != 0;
    QVERIFY(solid > 100);
    for (int f = 2; f < 6; ++f)
        QVERIFY(!r.update(f).any());
    QVERIFY(r.setup().obstacleMotion.empty());
    // The process-wide cache hands the same model to a second rasterizer.
    SceneRasterizer again;
    QVERIFY(again.setScene(scene).ok());
    QCOMPARE(again.mesh(0).get(), r.mesh(0).get());
}

void TestSceneMesh::movingObstacleVelocity()
{
    // An obstacle keyed to move 0.5 units in 12 frames at 24 fps moves at 1 unit/s: every
    // solid cell gets exactly that velocity, computed from the last frame's motion.
    Scene scene = emptyScene(Dimension::ThreeD, 32);
    Item item = obstacle("pusher");
    item.shape.type = ShapeType::Box;
    item.shape.centre = {0.2f, 0.5f, 0.5f};
    item.shape.halfSize = {0.05f, 0.1f, 0.1f};
    item.offset.keys = {{0.0, {0.f, 0.f, 0.f}, {}}, {12.0, {0.5f, 0.f, 0.f}, {}}};
    scene.items.push_back(item);
    SceneRasterizer r;
    QVERIFY(r.setScene(scene).ok());
    QVERIFY(r.hasMovingObstacles());
    r.update(6);
    const SceneSetup &s = r.setup();
    QVERIFY(!s.obstacleMotion.empty());
    int solid = 0;
    for (std::size_t n = 0; n < s.solids.count(); ++n) {
        const float vx = s.obstacleMotion.velocity[0].data()[n];
        if (s.solids.data()[n]) {
            ++solid;
            QVERIFY2(std::abs(vx - 1.f) < 1e-4f, qPrintable(QString::number(vx)));
            QVERIFY(std::abs(s.obstacleMotion.velocity[1].data()[n]) < 1e-5f);
        } else {
            QCOMPARE(vx, 0.f);
        }
    }
    QVERIFY(solid > 50);
    // Half a frame's motion (a substep of two) gives the same velocity.
    QVERIFY(r.updateObstacles(6.5, 0.5).solids);
    for (std::size_t n = 0; n < s.solids.count(); ++n)
        if (s.solids.data()[n])
            QVERIFY(std::abs(s.obstacleMotion.velocity[0].data()[n] - 1.f) < 1e-3f);
    // After the last key it rests: no motion.
    r.update(14);
    r.update(15);
    QVERIFY(r.setup().obstacleMotion.empty());
}

void TestSceneMesh::rotatingObstacleVelocity()
{
    // A paddle turning about z at 90 degrees per second (keys 0 -> 90 over 24 frames): a cell
    // at distance rho from the pivot moves at about rho * pi / 2 units/s (the chord of one
    // frame's turn: within 0.1 %), nearly perpendicular to the radius.
    Scene scene = emptyScene(Dimension::TwoD, 64);
    Item item = obstacle("paddle");
    item.shape.type = ShapeType::Box;
    item.shape.centre = {0.5f, 0.5f, 0.f};
    item.shape.halfSize = {0.3f, 0.03f, 0.1f};
    item.rotation.keys = {{0.0, {0.f, 0.f, 0.f}, {}}, {24.0, {0.f, 0.f, 90.f}, {}}};
    scene.items.push_back(item);
    SceneRasterizer r;
    QVERIFY(r.setScene(scene).ok());
    r.update(12);
    const SceneSetup &s = r.setup();
    const sim::Domain &d = s.domain;
    int checked = 0;
    for (int j = 0; j < d.cells.y; ++j) {
        for (int i = 0; i < d.cells.x; ++i) {
            const std::size_t c = std::size_t(i + d.cells.x * j);
            if (!s.solids.data()[c])
                continue;
            const float x = (i + 0.5f) * d.cellSize - 0.5f, y = (j + 0.5f) * d.cellSize - 0.5f;
            const float rho = std::sqrt(x * x + y * y);
            const float vx = s.obstacleMotion.velocity[0].data()[c];
            const float vy = s.obstacleMotion.velocity[1].data()[c];
            const float speed = std::sqrt(vx * vx + vy * vy);
            QVERIFY(std::abs(speed - rho * float(kPi / 2)) < 1e-3f * std::max(rho, 0.05f) + 1e-4f);
            // Along the chord of one frame's turn (3.75 degrees): radial part sin(1.875 deg).
            QVERIFY(std::abs(vx * x + vy * y) / std::max(rho, 1e-3f) < 0.034f * speed + 1e-4f);
            ++checked;
        }
    }
    QVERIFY(checked > 40);
}

void TestSceneMesh::movingMeshPushesTheFluid()
{
    // Through the frame loop, with two substeps (the obstacle moves per substep): a cube mesh
    // keyed to move right at 0.5 units/s through still fluid in a closed 2D box drags the fluid
    // ahead of it right; standing still, it leaves the fluid at rest. The same bytes with 1 and
    // 2 threads.
    QTemporaryDir dir;
    QVERIFY(writeObj(dir.filePath("cube.obj"), cube()));
    Scene scene = emptyScene(Dimension::TwoD, 48, dir.path());
    scene.simulation.time.substeps = 2;
    Item item = obstacle("pusher", "cube.obj");
    item.shape.meshTranslation = {0.3f, 0.5f, 0.5f};
    item.shape.meshScale = {0.06f, 0.15f, 0.2f};
    item.offset.keys = {{0.0, Vec3{}, {}}, {24.0, Vec3{0.5f, 0.f, 0.f}, {}}};
    scene.items.push_back(item);
    // `split`: the app's runner's way, applyInputs(f) then the Simulation's advanceFrame().
    auto run = [&](const Scene &s, sim::ScalarGrid &u, bool split = false) {
        SceneSimulation loop;
        if (sim::Status st = loop.setScene(s); !st)
            return st;
        for (int f = 1; f <= 8; ++f) {
            if (split) {
                if (sim::Status st = loop.applyInputs(f); !st)
                    return st;
            }
            const sim::FrameStats stats = split ? loop.simulation().advanceFrame()
                                                : loop.advance(f);
            if (!stats.status)
                return stats.status;
        }
        loop.solver().sample(sim::FieldKind::VelocityX, u);
        return sim::Status::success();
    };
    sim::ScalarGrid moving, serial, still, runnerWay;
    QVERIFY(run(scene, moving).ok());
    QVERIFY(run(scene, runnerWay, true).ok());
    QVERIFY(moving.identical(runnerWay));
    {
        tbb::global_control one(tbb::global_control::max_allowed_parallelism, 1);
        QVERIFY(run(scene, serial).ok());
    }
    QVERIFY(moving.identical(serial));
    // Just ahead of the cube at frame 8 (x = 0.3 + 0.5 * 8 / 24 + 0.06 = 0.527).
    const sim::Domain d = makeDomain(scene.domain);
    const int i = int(0.56f / d.cellSize), j = int(0.5f / d.cellSize);
    const float ahead = moving.data()[std::size_t(i + d.cells.x * j)];
    QVERIFY2(ahead > 0.2f, qPrintable(QString::number(ahead)));
    // The box is closed and the flow incompressible: across the column ahead of the cube as
    // much comes back as is pushed on (the sum of all u was tested here once, but it is zero
    // up to rounding, and its sign changed with the pressure solver's).
    double net = 0.0, moved = 0.0;
    for (int jj = 0; jj < d.cells.y; ++jj) {
        const float u = moving.data()[std::size_t(i + d.cells.x * jj)];
        net += u;
        moved += std::abs(u);
    }
    QVERIFY2(moved > 1.0 && std::abs(net) < 1e-3 * moved,
             qPrintable(QString("net %1 of %2").arg(net).arg(moved)));
    scene.items[0].offset = Animated<Vec3>{Vec3{}};
    QVERIFY(run(scene, still).ok());
    float largest = 0.f;
    for (std::size_t n = 0; n < still.count(); ++n)
        largest = std::max(largest, std::abs(still.data()[n]));
    QCOMPARE(largest, 0.f);
}

void TestSceneMesh::sceneHashCoversTheModelFile()
{
    // A model edited on disk changes the scene hash: a bake must not resume with it.
    QTemporaryDir dir;
    QVERIFY(writeObj(dir.filePath("m.obj"), cube()));
    Scene scene = emptyScene(Dimension::ThreeD, 128, dir.path());
    Item item = obstacle("m", "m.obj");
    scene.items.push_back(item);
    const std::uint64_t before = sceneHash(scene);
    QCOMPARE(sceneHash(scene), before);
    TriangleMesh bigger = cube();
    for (Vec3 &v : bigger.vertices)
        v = v * 2.f;
    QVERIFY(writeObj(dir.filePath("m.obj"), bigger));
    QVERIFY(sceneHash(scene) != before);
}

QTEST_GUILESS_MAIN(TestSceneMesh)
#include "tst_scene_mesh.moc"
