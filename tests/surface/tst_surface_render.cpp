// SPDX-License-Identifier: Apache-2.0
// The surface look of the CPU renderer (part of tst_surface).
#include <oneapi/tbb/global_control.h>

#include <core/render/renderer.h>
#include <core/surface/surface.h>

#include "surfacefixtures.h"
#include "surfacetests.h"

#include <QtTest>

#include <cmath>
#include <numbers>

using namespace plume;
using namespace plume::sim;
using namespace plume::test;

namespace {

/// Mean straight RGB luminance and alpha over a rectangle of a frame.
struct Patch
{
    float luminance = 0.f, alpha = 0.f;
};

Patch patch(const RenderedFrame &f, int x0, int y0, int x1, int y1)
{
    Patch p;
    int count = 0;
    for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x) {
            const std::size_t q = std::size_t(y) * f.width + x;
            const float a = f.color[4 * q + 3];
            p.alpha += a;
            if (a > 0.f)
                p.luminance += (0.2126f * f.color[4 * q] + 0.7152f * f.color[4 * q + 1]
                                + 0.0722f * f.color[4 * q + 2])
                               / a;
            ++count;
        }
    p.luminance /= float(count);
    p.alpha /= float(count);
    return p;
}

FrameFields ballFields(int n)
{
    FrameFields f;
    f.domain = unitDomain(n);
    f.density.reshape(f.domain.cells, kCellCentre, 0.f);
    const ParticleSet ball = particleBall(kBallCentre, kBallRadius, kParticleRadius);
    particleSurfaceField(ball, f.domain, f.surface);
    return f;
}

FrameFields discFields(int n)
{
    FrameFields f;
    f.domain.cells = {n, n, 1};
    f.domain.cellSize = 1.f / float(n);
    f.density.reshape(f.domain.cells, kCellCentre, 0.f);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            const Vec3 c = f.domain.cellCentre(i, j, 0);
            const float r = std::hypot(c.x - 0.5f, c.y - 0.5f);
            f.density(i, j, 0) = std::max(0.f, 1.f - r / 0.6f); // iso 0.5: radius 0.3
        }
    densitySurfaceField(f.density, 0.5f, f.surface);
    return f;
}

} // namespace

class TestSurfaceRender : public QObject
{
    Q_OBJECT

private slots:
    void ballIsLitFromTheLightSide();
    void flatRegion2D();
    void foamIsWhite();
    void renderDoesNotDependOnThreads();
};

// Light from +x: the ball's right half is brighter than its left; the silhouette is opaque
// inside and clear outside.
void TestSurfaceRender::ballIsLitFromTheLightSide()
{
    const FrameFields f = ballFields(48);
    RenderSettings s;
    s.look3D = Look3D::Surface;
    s.width = s.height = 96;
    s.lightDirection = {1.f, 0.f, 0.f};
    s.foamSpeed = 0.f;
    const RenderedFrame frame = renderFrame(f, s, false, 24.f);
    // The ball (radius 0.3 of the unit box) covers the middle; the corners are empty.
    const Patch left = patch(frame, 30, 44, 40, 52), right = patch(frame, 56, 44, 66, 52);
    QCOMPARE(left.alpha, 1.f);
    QCOMPARE(right.alpha, 1.f);
    QCOMPARE(patch(frame, 0, 0, 6, 6).alpha, 0.f);
    qInfo("lit from +x: left %.3f, right %.3f", left.luminance, right.luminance);
    QVERIFY(right.luminance > 2.f * left.luminance);
    // The dark side still has the ambient light on the liquid's colour.
    const float ambient = s.ambient
                          * (0.2126f * s.surfaceColor.x + 0.7152f * s.surfaceColor.y
                             + 0.0722f * s.surfaceColor.z);
    QVERIFY(left.luminance >= 0.99f * ambient);
    // Turned round (light from -x), the sides swap.
    s.lightDirection = {-1.f, 0.f, 0.f};
    const RenderedFrame other = renderFrame(f, s, false, 24.f);
    QVERIFY(patch(other, 30, 44, 40, 52).luminance > 2.f * patch(other, 56, 44, 66, 52).luminance);
    // The volume look of the same fields draws nothing (no density): the look switch works.
    s.look3D = Look3D::Volume;
    QCOMPARE(patch(renderFrame(f, s, false, 24.f), 0, 0, 96, 96).alpha, 0.f);
}

// 2D: a filled disc, flat (facing the camera) inside, its rim lit on the light's side.
void TestSurfaceRender::flatRegion2D()
{
    const FrameFields f = discFields(64);
    RenderSettings s;
    s.look2D = Look2D::Surface;
    s.width = s.height = 128;
    s.lightDirection = {1.f, 0.f, 1.f};
    const RenderedFrame frame = renderFrame(f, s, false, 24.f);
    const Patch centre = patch(frame, 60, 60, 68, 68);
    QCOMPARE(centre.alpha, 1.f);
    QCOMPARE(patch(frame, 0, 0, 8, 8).alpha, 0.f);
    // The disc has radius 0.3 (38.4 pixels): its area within a pixel's worth of the edge.
    const float area = patch(frame, 0, 0, 128, 128).alpha * 128.f * 128.f;
    const float expected = float(std::numbers::pi) * 38.4f * 38.4f;
    QVERIFY2(std::abs(area - expected) < 2.f * float(std::numbers::pi) * 38.4f,
             qPrintable(QString::number(area)));
    // Rims: just inside the edge at x = 64 +- 36 pixels.
    const Patch rimRight = patch(frame, 99, 62, 101, 66), rimLeft = patch(frame, 27, 62, 29, 66);
    qInfo("2D rims: left %.3f, right %.3f, centre %.3f", rimLeft.luminance, rimRight.luminance,
          centre.luminance);
    QVERIFY(rimRight.luminance > rimLeft.luminance * 1.5f);
    // No density: nothing drawn, and the dye look ignores the surface.
    RenderSettings dye = s;
    dye.look2D = Look2D::Dye;
    FrameFields empty = f;
    empty.density.fill(0.f);
    QCOMPARE(patch(renderFrame(empty, dye, false, 24.f), 0, 0, 128, 128).alpha, 0.f);
}

// Where the speed reaches foamSpeed the liquid turns white; below half of it, not at all.
void TestSurfaceRender::foamIsWhite()
{
    FrameFields f = discFields(32);
    RenderSettings s;
    s.look2D = Look2D::Surface;
    s.width = s.height = 32;
    s.foamSpeed = 2.f;
    f.speed.reshape(f.domain.cells, kCellCentre, 0.9f); // under half: no foam
    const Patch calm = patch(renderFrame(f, s, false, 24.f), 14, 14, 18, 18);
    f.speed.fill(2.5f);
    const Patch foam = patch(renderFrame(f, s, false, 24.f), 14, 14, 18, 18);
    s.foamSpeed = 0.f; // off
    const Patch off = patch(renderFrame(f, s, false, 24.f), 14, 14, 18, 18);
    qInfo("foam: calm %.3f, foam %.3f, off %.3f", calm.luminance, foam.luminance, off.luminance);
    QVERIFY(foam.luminance > 2.f * calm.luminance);
    QCOMPARE(off.luminance, calm.luminance);
}

void TestSurfaceRender::renderDoesNotDependOnThreads()
{
    const FrameFields f3 = ballFields(32), f2 = discFields(32);
    RenderSettings s;
    s.look2D = Look2D::Surface;
    s.look3D = Look3D::Surface;
    s.width = s.height = 64;
    PassRequest passes;
    passes.normals = true;
    passes.depth = true;
    auto render = [&](int threads, const FrameFields &f) {
        oneapi::tbb::global_control limit(oneapi::tbb::global_control::max_allowed_parallelism,
                                          std::size_t(threads));
        return renderFrame(f, s, passes, 24.f);
    };
    for (const FrameFields *f : {&f3, &f2}) {
        const RenderedFrame one = render(1, *f), two = render(2, *f);
        QVERIFY(one.color == two.color);
        QVERIFY(one.normal == two.normal);
        QVERIFY(one.depth == two.depth);
    }
}

int runSurfaceRenderTests(int argc, char **argv)
{
    TestSurfaceRender tests;
    return QTest::qExec(&tests, argc, argv);
}

#include "tst_surface_render.moc"
