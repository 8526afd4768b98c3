// SPDX-License-Identifier: Apache-2.0
// plume-bench --mesh: what models cost (docs/meshes.md). A (2, 3) torus knot of 100,000
// triangles fills a 128^3 domain; the table gives the median time of its coverage (volume and
// shell, 1 and 2 threads, alternating), of reading it from an OBJ file, and of a frame's
// rasterisation when it stands still and when it turns.
#include "meshbench.h"

#include <core/scene/meshcoverage.h>
#include <core/scene/meshfile.h>
#include <core/scene/rasterize.h>

#include <oneapi/tbb/global_control.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <vector>

namespace plume::bench {

namespace {

using sim::Vec3;
using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double medianOf(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

/// A closed (2, 3) torus knot tube: segments * sides * 2 triangles, about 6 units across.
TriangleMesh torusKnot(int segments, int sides)
{
    const double pi = std::numbers::pi;
    auto centre = [](double t) {
        const double r = 2.0 + std::cos(3.0 * t);
        return Vec3{float(r * std::cos(2.0 * t)), float(r * std::sin(2.0 * t)),
                    float(std::sin(3.0 * t))};
    };
    auto unit = [](Vec3 v) { return v * (1.f / length(v)); };
    TriangleMesh m;
    const double h = 1e-3;
    for (int s = 0; s < segments; ++s) {
        const double t = 2.0 * pi * s / segments;
        const Vec3 c = centre(t);
        const Vec3 tangent = unit(centre(t + h) - centre(t - h));
        const Vec3 second = (centre(t + h) - c) - (c - centre(t - h));
        const Vec3 binormal = unit(cross(tangent, second));
        const Vec3 normal = cross(binormal, tangent);
        for (int k = 0; k < sides; ++k) {
            const double a = 2.0 * pi * k / sides;
            m.vertices.push_back(
                c + (normal * float(std::cos(a)) + binormal * float(std::sin(a))) * 0.45f);
        }
    }
    for (int s = 0; s < segments; ++s) {
        for (int k = 0; k < sides; ++k) {
            const auto at = [&](int ss, int kk) {
                return std::uint32_t((ss % segments) * sides + (kk % sides));
            };
            m.triangles.push_back({at(s, k), at(s + 1, k), at(s + 1, k + 1)});
            m.triangles.push_back({at(s, k), at(s + 1, k + 1), at(s, k + 1)});
        }
    }
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
        text += "v " + QByteArray::number(v.x, 'g', 8) + ' ' + QByteArray::number(v.y, 'g', 8) + ' '
                + QByteArray::number(v.z, 'g', 8) + '\n';
    for (const auto &t : m.triangles)
        text += "f " + QByteArray::number(t[0] + 1) + ' ' + QByteArray::number(t[1] + 1) + ' '
                + QByteArray::number(t[2] + 1) + '\n';
    return f.write(text) == text.size();
}

} // namespace

int runMeshBench(int repeats)
{
    const TriangleMesh knot = torusKnot(1250, 40);
    DomainSettings ds;
    ds.dimension = Dimension::ThreeD;
    ds.resolution = 128;
    const sim::Domain domain = makeDomain(ds);
    MeshCoverageSettings volume;
    volume.toWorld =
        placementTransform({{0.5f, 0.5f, 0.5f}, {20.f, 30.f, 0.f}, {0.13f, 0.13f, 0.13f}}, {});
    MeshCoverageSettings shell = volume;
    shell.fill = MeshFill::Surface;
    shell.thickness = 0.02f;
    std::printf("mesh: %zu triangles, %s, 128^3 cells\n\n", knot.triangles.size(),
                knot.closed() ? "closed" : "open");
    std::printf("| what | 1 thread ms | 2 threads ms | covered cells |\n|---|---|---|---|\n");
    for (const auto &[name, settings] :
         {std::pair{"coverage, volume", volume}, std::pair{"coverage, shell", shell}}) {
        std::vector<double> one, two;
        std::size_t cells = 0;
        for (int r = 0; r < repeats; ++r) {
            for (int threads : {1, 2}) {
                oneapi::tbb::global_control limit(
                    oneapi::tbb::global_control::max_allowed_parallelism, std::size_t(threads));
                const auto start = Clock::now();
                cells = meshCoverage(domain, knot, settings).size();
                (threads == 1 ? one : two).push_back(msSince(start));
            }
        }
        std::printf("| %s | %.0f | %.0f | %zu |\n", name, medianOf(one), medianOf(two), cells);
    }

    // Through the scene: read the OBJ, then frames standing still and turning.
    QTemporaryDir dir;
    const QString path = dir.filePath("knot.obj");
    if (!writeObj(path, knot)) {
        std::fprintf(stderr, "plume-bench: cannot write %s\n", qPrintable(path));
        return 1;
    }
    const auto readStart = Clock::now();
    if (const auto loaded = loadMesh(path.toStdString()); !loaded) {
        std::fprintf(stderr, "plume-bench: %s\n", loaded.error().c_str());
        return 1;
    }
    const double readMs = msSince(readStart);
    Scene scene;
    scene.domain = ds;
    scene.directory = dir.path().toStdString();
    Item item;
    item.name = "knot";
    item.kind = ItemKind::Obstacle;
    item.shape.type = ShapeType::Mesh;
    item.shape.file = "knot.obj";
    item.shape.meshTranslation = {0.5f, 0.5f, 0.5f};
    item.shape.meshScale = {0.13f, 0.13f, 0.13f};
    scene.items.push_back(item);
    Scene turning = scene;
    turning.items[0].rotation.keys = {{0.0, Vec3{}, {}}, {240.0, Vec3{0.f, 360.f, 0.f}, {}}};
    std::printf("\n| frame, 2 threads | median ms |\n|---|---|\n");
    std::printf("| read the OBJ (Assimp, first time) | %.0f |\n", readMs);
    for (const auto &[name, s] : {std::pair{"standing still (frames 2..)", &scene},
                                  std::pair{"turning (rasterise + velocity)", &turning}}) {
        SceneRasterizer r;
        if (sim::Status st = r.setScene(*s); !st) {
            std::fprintf(stderr, "plume-bench: %s\n", st.error.c_str());
            return 1;
        }
        r.update(1);
        std::vector<double> ms;
        for (int f = 2; f < 2 + std::max(repeats, 5); ++f) {
            const auto start = Clock::now();
            r.update(f);
            ms.push_back(msSince(start));
        }
        std::printf("| %s | %.3f |\n", name, medianOf(ms));
    }
    return 0;
}

} // namespace plume::bench
