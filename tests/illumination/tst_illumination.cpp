// SPDX-License-Identifier: Apache-2.0
// The light model's parts (core/render/lightmodel.h, illumination.h): the phase function's
// normalisation, the scattering octaves, emission light against its integral where that is
// exact (a uniform medium) and against the inverse square law (a small source), sky light
// shaded by smoke above, the tone curve, and the same bytes with any thread count.
#include <core/sim/base/parallel.h>

#include <oneapi/tbb/task_arena.h> // before Qt: TBB declares members named emit()

#include <core/render/illumination.h>
#include <core/render/lightmodel.h>

#include <QTest>

#include <array>
#include <cmath>
#include <cstring>
#include <numbers>

using namespace plume;
using sim::Int3;
using sim::ScalarGrid;

namespace {

constexpr float kPi = std::numbers::pi_v<float>;

std::array<ScalarGrid, 3> grey(const ScalarGrid &g) { return {g, g, g}; }

} // namespace

class TestIllumination : public QObject
{
    Q_OBJECT

private slots:
    // phaseHG is 4 pi times a probability density over the sphere: its mean over directions
    // is 1 for every g (midpoint rule in cos theta, 20000 intervals).
    void phaseIsNormalised_data()
    {
        QTest::addColumn<float>("g");
        for (float g : {-0.8f, -0.3f, 0.f, 0.3f, 0.6f, 0.9f})
            QTest::newRow(qPrintable(QString::number(g))) << g;
    }
    void phaseIsNormalised()
    {
        QFETCH(float, g);
        constexpr int n = 20000;
        double sum = 0.0;
        for (int i = 0; i < n; ++i)
            sum += phaseHG(-1.f + 2.f * (float(i) + 0.5f) / float(n), g);
        QVERIFY2(std::abs(sum / n - 1.0) < 2e-3, qPrintable(QString::number(sum / n)));
        QCOMPARE(phaseHG(0.3f, 0.f), 1.f);
    }

    // scatteredLight: single scattering alone at strength 0; the octaves' closed form
    // otherwise (isotropic: sum over i of (albedo b)^i t^(2^-i)); nothing without light.
    void octavesFollowTheirFormula()
    {
        const OctavePhases iso;
        const float t = 0.2f, albedo = 0.9f;
        QCOMPARE(scatteredLight(t, albedo, 0.f, iso), t);
        float expected = t;
        for (int i = 1; i < kScatterOctaves; ++i)
            expected += std::pow(albedo * kOctaveContribution, float(i))
                        * std::pow(t, std::pow(kOctaveExtinction, float(i)));
        QVERIFY(std::abs(scatteredLight(t, albedo, 1.f, iso) - expected) < 1e-6f);
        QCOMPARE(scatteredLight(0.f, albedo, 1.f, iso), 0.f);
        // Fully lit, dark soot scatters little more than once, white steam much more.
        QVERIFY(scatteredLight(1.f, 0.1f, 1.f, iso) < 1.1f);
        QVERIFY(scatteredLight(1.f, 0.9f, 1.f, iso) > 1.4f);
    }

    // In a uniform medium that emits j and has extinction kappa everywhere, the light reaching
    // a point is j / kappa (1 - exp(-kappa R)) out to distance R; the Gaussian widths' terms
    // telescope to that exactly, so far from the faces (kappa R >> 1) it is j / kappa.
    void uniformMediumIsExact()
    {
        const Int3 n{64, 64, 64};
        const float cell = 0.05f, densityScale = 20.f, rho = 0.5f, j = 3.f;
        const ScalarGrid density(n, sim::kCellCentre, rho);
        const auto light = emissionLight(grey(ScalarGrid(n, sim::kCellCentre, j)), density,
                                         densityScale, cell);
        const float kappa = densityScale * rho; // 10 per unit: 1/kappa is 2 cells
        const float centre = light[0](32, 32, 32);
        qInfo("uniform medium: %.5f of j / kappa", double(centre * kappa / j));
        QVERIFY2(std::abs(centre - j / kappa) < 1e-3f * j / kappa,
                 qPrintable(QString::number(centre / (j / kappa))));
        QCOMPARE(light[1](32, 32, 32), centre);
        // Without smoke the light grows with the distance to the faces: more at the centre
        // than at a corner.
        const auto clear = emissionLight(grey(ScalarGrid(n, sim::kCellCentre, j)),
                                         ScalarGrid(n, sim::kCellCentre, 0.f), densityScale, cell);
        QVERIFY(clear[0](32, 32, 32) > 1.5f * clear[0](0, 0, 0));
    }

    // A small source of power P = j V in clear air lights a point r away with P / (4 pi r^2);
    // the sum over Gaussian widths, a quadrature of that kernel on a pyramid, follows it within
    // 35 % from 3 to 24 cells away, and falls with distance.
    void smallSourceFollowsTheInverseSquare()
    {
        const Int3 n{64, 64, 64};
        const float cell = 0.1f;
        ScalarGrid emitted(n, sim::kCellCentre, 0.f);
        const float j = 100.f;
        for (int k = 31; k <= 32; ++k)
            for (int y = 31; y <= 32; ++y)
                for (int i = 31; i <= 32; ++i)
                    emitted(i, y, k) = j; // a 2^3 source centred on (32, 32, 32)
        const float power = j * 8.f * cell * cell * cell;
        const auto light = emissionLight(grey(emitted), ScalarGrid(n, sim::kCellCentre, 0.f), 20.f,
                                         cell);
        float previous = 1e30f;
        for (int d : {3, 5, 8, 12, 16, 24}) {
            const float r = (float(d) + 0.5f) * cell; // cell 32 + d's centre to the source's
            const float expected = power / (4.f * kPi * r * r);
            const float got = light[0](32 + d, 32, 32);
            qInfo("%d cells: %.3f of the inverse square", d, double(got / expected));
            QVERIFY2(got > 0.65f * expected && got < 1.35f * expected,
                     qPrintable(QString("%1 cells: %2 of the inverse square")
                                    .arg(d)
                                    .arg(double(got / expected))));
            QVERIFY(got < previous);
            previous = got;
        }
    }

    // Smoke between the source and a point dims its light: a slab of smoke halves it at least.
    void smokeShadowsEmissionLight()
    {
        const Int3 n{48, 48, 48};
        const float cell = 0.05f;
        ScalarGrid emitted(n, sim::kCellCentre, 0.f), density(n, sim::kCellCentre, 0.f);
        for (int k = 22; k < 26; ++k)
            for (int y = 22; y < 26; ++y)
                for (int i = 22; i < 26; ++i)
                    emitted(i, y, k) = 50.f;
        const auto clear = emissionLight(grey(emitted), density, 20.f, cell);
        for (int k = 0; k < n.z; ++k)
            for (int y = 0; y < n.y; ++y)
                for (int i = 30; i < 34; ++i)
                    density(i, y, k) = 1.f; // optical depth 4 across the slab
        const auto shaded = emissionLight(grey(emitted), density, 20.f, cell);
        QVERIFY(shaded[0](40, 24, 24) < 0.5f * clear[0](40, 24, 24));
        QVERIFY(shaded[0](8, 24, 24) > 0.8f * clear[0](8, 24, 24)); // the other side: clear
    }

    // Sky light: smoke under a dense layer sees less of the sky and as much of the ground;
    // a clear domain sees all of both.
    void skyIsShadedBySmokeAbove()
    {
        const Int3 n{32, 32, 32};
        ScalarGrid density(n, sim::kCellCentre, 0.01f);
        for (int k = 0; k < n.z; ++k)
            for (int j = 24; j < 28; ++j)
                for (int i = 0; i < n.x; ++i)
                    density(i, j, k) = 1.f;
        RenderSettings s;
        s.lightIntensity = 0.f;
        const Illumination light = computeIllumination({density}, s, 1.f / 32.f);
        QVERIFY(light.hasSky() && !light.hasSun() && !light.hasEmission());
        QCOMPARE(light.coarseFactor, 1);
        QVERIFY(light.skyUp(16, 10, 16) < 0.3f);
        QVERIFY(light.skyDown(16, 10, 16) > 0.9f);
        QVERIFY(light.skyUp(16, 30, 16) > 0.9f);
        s.ambient = 0.f;
        QVERIFY(!computeIllumination({density}, s, 1.f / 32.f).hasSky());
        // Grids over kCoarseCells along an axis are coarsened.
        QCOMPARE(coarseFactor({200, 64, 64}), 7);
        QCOMPARE(coarseFactor({64, 64, 64}), 2);
        QCOMPARE(coarseFactor({32, 16, 8}), 1);
    }

    // Filmic is the identity to the knee and a shoulder beyond, continuous with slope 1 there,
    // below 1 everywhere; Clip clips.
    void toneCurve()
    {
        QCOMPARE(toneMap(0.3f, ToneCurve::Filmic), 0.3f);
        QCOMPARE(toneMap(kFilmicKnee, ToneCurve::Filmic), kFilmicKnee);
        const float e = 1e-3f;
        const float slope = (toneMap(kFilmicKnee + e, ToneCurve::Filmic) - kFilmicKnee) / e;
        QVERIFY(std::abs(slope - 1.f) < 2e-3f);
        QVERIFY(std::abs(toneMap(2.f, ToneCurve::Filmic)
                         - (1.f - 0.4f * std::exp(-(2.f - 0.6f) / 0.4f)))
                < 1e-6f);
        QVERIFY(toneMap(100.f, ToneCurve::Filmic) <= 1.f);
        QCOMPARE(toneMap(2.f, ToneCurve::Clip), 1.f);
        QCOMPARE(toneMap(-1.f, ToneCurve::Filmic), 0.f);
        QCOMPARE(toneMap(std::nanf(""), ToneCurve::Clip), 0.f);
        QCOMPARE(exposureScale(1.f), 2.f);
    }

    void deterministicAcrossThreads()
    {
        const Int3 n{80, 40, 40}; // coarsened by 2
        ScalarGrid density(n, sim::kCellCentre, 0.f), temperature(n, sim::kCellCentre, 0.f);
        for (int k = 0; k < n.z; ++k)
            for (int j = 0; j < n.y; ++j)
                for (int i = 0; i < n.x; ++i) {
                    density(i, j, k) = 0.5f + 0.5f * std::sin(0.3f * float(i + 2 * j + 3 * k));
                    temperature(i, j,
                                k) = 8.f
                                     * std::exp(-0.01f
                                                * float((i - 40) * (i - 40) + (j - 10) * (j - 10)
                                                        + (k - 20) * (k - 20)));
                }
        const RenderSettings s;
        auto run = [&](int threads) {
            oneapi::tbb::task_arena arena(threads);
            Illumination out;
            arena.execute([&] {
                out = computeIllumination({density, nullptr, &temperature}, s, 0.02f);
            });
            return out;
        };
        const Illumination one = run(1), two = run(2);
        QVERIFY(one.hasSun() && one.hasSky() && one.hasEmission());
        auto same = [](const ScalarGrid &a, const ScalarGrid &b) {
            return a.count() == b.count()
                   && std::memcmp(a.data(), b.data(), a.count() * sizeof(float)) == 0;
        };
        QVERIFY(same(one.sun, two.sun));
        QVERIFY(same(one.skyUp, two.skyUp) && same(one.skyDown, two.skyDown));
        for (int c = 0; c < 3; ++c)
            QVERIFY(same(one.emission[std::size_t(c)], two.emission[std::size_t(c)]));
    }
};

QTEST_GUILESS_MAIN(TestIllumination)
#include "tst_illumination.moc"
