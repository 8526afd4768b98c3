// SPDX-License-Identifier: Apache-2.0
// The ocean scheme (docs/ocean.md): Phillips statistics, the FFT against a direct sum, the
// dispersion relation, exact loops, tiling, folding foam, determinism and refusals.
#include <core/sim/base/memory.h>
#include <core/sim/base/parallel.h>
#include <core/sim/ocean/oceansolver.h>
#include <core/sim/ocean/oceanspectrum.h>
#include <core/sim/ocean/oceansurface.h>
#include <core/sim/run/memoryestimate.h>
#include <core/sim/run/simulation.h>
#include <core/sim/run/solverfactory.h>

#include <oneapi/tbb/global_control.h>

#include <QtTest>

#include <cmath>
#include <complex>
#include <numbers>

using namespace plume::sim;

namespace {

constexpr double kPi = std::numbers::pi;

Domain patch(int nx, int ny, float metres)
{
    Domain d;
    d.cells = {nx, ny, 1};
    d.cellSize = metres / float(nx);
    d.boundaries = allBoundaries(Boundary::Periodic);
    return d;
}

SimParams ocean(float choppiness = 1.f)
{
    SimParams p;
    p.scheme = Scheme::Ocean;
    p.ocean.choppiness = choppiness;
    return p;
}

OceanFields evaluate(const OceanSpectrum &s, double t, float choppiness)
{
    OceanSynthesis synthesis(s.nx, s.ny);
    OceanFields f;
    synthesis.evaluate(s, t, choppiness, f);
    return f;
}

bool identical(const OceanFields &a, const OceanFields &b)
{
    return a.height.identical(b.height) && a.displacementX.identical(b.displacementX)
           && a.displacementY.identical(b.displacementY) && a.normalX.identical(b.normalX)
           && a.normalY.identical(b.normalY) && a.normalZ.identical(b.normalZ)
           && a.foam.identical(b.foam);
}

/// Phase of the Fourier coefficient of mode (mx, my) of a field: arg sum f(x) exp(-i k . x).
std::complex<double> coefficient(const ScalarGrid &f, int mx, int my)
{
    std::complex<double> sum = 0.0;
    const Int3 n = f.size();
    for (int j = 0; j < n.y; ++j) {
        for (int i = 0; i < n.x; ++i) {
            const double phase = 2.0 * kPi * (double(mx) * i / n.x + double(my) * j / n.y);
            sum += double(f(i, j, 0)) * std::polar(1.0, -phase);
        }
    }
    return sum / double(n.x * n.y);
}

} // namespace

class TestSimOcean : public QObject
{
    Q_OBJECT

private slots:
    // Over a large grid, |h0(k)|^2 / (P(k) dk^2) averages to 1 (an exponential variable) and
    // its real part squared to 1/2; over many seeds, single modes do the same.
    void phillipsStatistics()
    {
        OceanSettings s;
        s.windSpeed = 12.f;
        s.windDirection = 30.f;
        const int n = 256;
        const double length = 400.0;
        const OceanSpectrum spectrum = OceanSpectrum::phillipsWaves(n, n, length, length, s);
        const double cell = std::pow(2.0 * kPi / length, 2.0);
        double ratio = 0.0, real = 0.0;
        int modes = 0;
        for (int j = 0; j < n; ++j) {
            for (int i = 0; i < n; ++i) {
                const double p = phillips(s, spectrum.kx(i), spectrum.ky(j)) * cell;
                const std::complex<float> h = spectrum.h0[spectrum.index(i, j)];
                if (i == n / 2 || j == n / 2) {
                    QCOMPARE(std::abs(h), 0.f); // Nyquist modes are empty
                    continue;
                }
                if (p < 1e-12)
                    continue;
                ratio += std::norm(h) / p;
                real += double(h.real()) * h.real() / p;
                ++modes;
            }
        }
        QVERIFY(modes > 30000);
        QVERIFY2(std::abs(ratio / modes - 1.0) < 0.02, qPrintable(QString::number(ratio / modes)));
        QVERIFY2(std::abs(real / modes - 0.5) < 0.02, qPrintable(QString::number(real / modes)));

        const int seeds = 3000;
        for (auto [mx, my] : {std::pair{1, 0}, std::pair{2, 1}, std::pair{-3, 2}}) {
            double mean = 0.0;
            double p = 0.0;
            for (int seed = 0; seed < seeds; ++seed) {
                s.seed = std::uint32_t(seed);
                const OceanSpectrum one = OceanSpectrum::phillipsWaves(8, 8, 100.0, 100.0, s);
                const int i = (mx + 8) % 8, j = (my + 8) % 8;
                p = phillips(s, one.kx(i), one.ky(j)) * std::pow(2.0 * kPi / 100.0, 2.0);
                mean += std::norm(one.h0[one.index(i, j)]);
            }
            mean /= seeds;
            QVERIFY2(std::abs(mean / p - 1.0) < 0.08, qPrintable(QString::number(mean / p)));
        }
    }

    // The Phillips density: A exp(-1/(kL)^2) / k^4 cos^2 exp(-k^2 l^2), zero across the wind.
    void phillipsFormula()
    {
        OceanSettings s;
        s.windSpeed = 9.81f;
        s.gravity = 9.81f; // L = 9.81 m
        s.amplitude = 2.f;
        s.windDirection = 90.f;
        s.smallWaves = 0.5f;
        const double k = 0.25, bigL = double(s.windSpeed) * s.windSpeed / s.gravity;
        const double expected = 2.0 * std::exp(-1.0 / (k * k * bigL * bigL)) / std::pow(k, 4)
                                * std::exp(-k * k * 0.25);
        QVERIFY(std::abs(phillips(s, 0.0, k) / expected - 1.0) < 1e-5);
        QVERIFY(std::abs(phillips(s, 0.0, -k) / expected - 1.0) < 1e-5);
        QVERIFY(phillips(s, k, 0.0) < 1e-12 * expected);
        QCOMPARE(phillips(s, 0.0, 0.0), 0.0);
    }

    // Four packed FFTs give what the defining sums give, on a grid whose sides are not powers
    // of two, with chop: height, displacement, the normal and the foam.
    void fftMatchesDirectSum()
    {
        OceanSettings s;
        s.windSpeed = 6.f;
        s.loopPeriod = 7.f;
        const int nx = 12, ny = 10;
        const double lx = 30.0, ly = 25.0;
        const OceanSpectrum spectrum = OceanSpectrum::phillipsWaves(nx, ny, lx, ly, s);
        const double t = 1.3;
        const float lambda = 0.8f;
        const OceanFields f = evaluate(spectrum, t, lambda);
        const double cycle = loopCycle(t, s.loopPeriod);
        double scale = 0.0;
        for (std::size_t n = 0; n < f.height.count(); ++n)
            scale = std::max(scale, double(std::abs(f.height[n])));
        QVERIFY(scale > 0.0);
        for (int y = 0; y < ny; ++y) {
            for (int x = 0; x < nx; ++x) {
                std::complex<double> h, dx, dy, hx, hy, dxx, dyy, dxy;
                const std::complex<double> i1(0.0, 1.0);
                for (int j = 0; j < ny; ++j) {
                    for (int i = 0; i < nx; ++i) {
                        const std::size_t m = spectrum.index(i, j);
                        const double kx = spectrum.kx(i), ky = spectrum.ky(j);
                        const double k = std::hypot(kx, ky);
                        const double w = 2.0 * kPi * spectrum.multiple[m] * cycle;
                        const std::complex<double> hk = std::complex<double>(spectrum.h0[m])
                                                            * std::polar(1.0, -w)
                                                        + std::complex<double>(spectrum.h0Mirror[m])
                                                              * std::polar(1.0, w);
                        const std::complex<double> e = std::polar(1.0, kx * x * lx / nx
                                                                           + ky * y * ly / ny);
                        const double ux = k > 0 ? kx / k : 0, uy = k > 0 ? ky / k : 0;
                        h += hk * e;
                        dx += i1 * ux * hk * e;
                        dy += i1 * uy * hk * e;
                        hx += i1 * kx * hk * e;
                        hy += i1 * ky * hk * e;
                        dxx += -kx * ux * hk * e;
                        dyy += -ky * uy * hk * e;
                        dxy += -ky * ux * hk * e;
                    }
                }
                QVERIFY(std::abs(h.imag()) < 1e-6 * scale);
                const double tol = 1e-5 * scale;
                QVERIFY(std::abs(f.height(x, y, 0) - h.real()) < tol);
                QVERIFY(std::abs(f.displacementX(x, y, 0) - lambda * dx.real()) < tol);
                QVERIFY(std::abs(f.displacementY(x, y, 0) - lambda * dy.real()) < tol);
                const double txx = 1 + lambda * dxx.real(), tyy = 1 + lambda * dyy.real();
                const double txy = lambda * dxy.real();
                const double jac = txx * tyy - txy * txy;
                double n[3] = {txy * hy.real() - hx.real() * tyy, hx.real() * txy - txx * hy.real(),
                               jac};
                const double len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
                QVERIFY(std::abs(f.normalX(x, y, 0) - n[0] / len) < 1e-4);
                QVERIFY(std::abs(f.normalY(x, y, 0) - n[1] / len) < 1e-4);
                QVERIFY(std::abs(f.normalZ(x, y, 0) - n[2] / len) < 1e-4);
                QVERIFY(std::abs(f.foam(x, y, 0) - std::clamp(1.0 - jac, 0.0, 1.0)) < 1e-4);
            }
        }
    }

    // One mode: the height is 2 a cos(k . x - w t), and its crest moves along k at the phase
    // speed w / k = sqrt(g / k) (the loop period is chosen so that w is a whole multiple of
    // 2 pi / T; otherwise the quantisation moves w by at most pi / T).
    void dispersion_data()
    {
        QTest::addColumn<int>("mx");
        QTest::addColumn<int>("my");
        QTest::newRow("along x") << 4 << 0;
        QTest::newRow("diagonal") << -3 << 2;
        QTest::newRow("short wave") << 20 << 0;
    }
    void dispersion()
    {
        QFETCH(int, mx);
        QFETCH(int, my);
        const int n = 64;
        const double length = 64.0;
        OceanSettings s;
        const double k = 2.0 * kPi * std::hypot(mx, my) / length;
        const double omega = std::sqrt(double(s.gravity) * k);
        s.loopPeriod = float(2.0 * kPi * 40.0 / omega); // about 40 periods of this wave
        const float a = 0.05f;
        const OceanSpectrum spectrum = OceanSpectrum::singleWave(n, n, length, length, s, mx, my,
                                                                 {a, 0.f});
        const double omegaQ = spectrum.multiple[spectrum.index((mx + n) % n, (my + n) % n)] * 2.0
                              * kPi / s.loopPeriod;
        QVERIFY(std::abs(omegaQ - omega) <= kPi / s.loopPeriod * 1.0001);

        const OceanFields start = evaluate(spectrum, 0.0, 0.f);
        QVERIFY(std::abs(start.height(0, 0, 0) - 2.f * a) < 1e-6f); // a crest at x = 0
        const double t = 0.37;
        const OceanFields later = evaluate(spectrum, t, 0.f);
        const std::complex<double> c0 = coefficient(start.height, mx, my);
        const std::complex<double> c1 = coefficient(later.height, mx, my);
        QVERIFY(std::abs(std::abs(c1) - a) < 1e-5); // the amplitude stays
        // The crest moved by d along k^: the phase fell by k d.
        double dphase = std::arg(c0) - std::arg(c1);
        dphase -= 2.0 * kPi * std::floor(dphase / (2.0 * kPi));
        const double speed = dphase / k / t;
        const double expected = std::sqrt(double(s.gravity) / k);
        QVERIFY2(std::abs(speed / expected - 1.0) < 2e-4,
                 qPrintable(QString("%1 vs %2").arg(speed).arg(expected)));
        // Every other mode stays empty: the wave keeps its shape.
        for (std::size_t m = 0; m < later.height.count(); ++m) {
            const int i = int(m % n), j = int(m / n);
            const double x = 2.0 * kPi * (double(mx) * i + double(my) * j) / n;
            QVERIFY(std::abs(later.height[m] - 2.0 * a * std::cos(x - omegaQ * t)) < 1e-5);
        }
    }

    // With frames at T / N, frame N holds the bytes of frame 0 and N + 1 those of frame 1
    // (also with substeps); frame N / 2 differs.
    void loopsExactly()
    {
        for (int substeps : {1, 3}) {
            SimParams p = ocean();
            p.ocean.loopPeriod = 2.f;
            TimeSettings t;
            t.frameRate = 24.f;
            t.substeps = substeps;
            auto sim = Simulation::create(patch(32, 32, 50.f), p, t);
            QVERIFY2(sim, sim.error().c_str());
            auto fields = [&] { return static_cast<const OceanSolver &>(sim->solver()).fields(); };
            const OceanFields first = fields();
            QVERIFY(sim->advanceFrame().status.ok());
            const OceanFields second = fields();
            QVERIFY(!identical(first, second));
            OceanFields middle;
            for (int f = 2; f <= 48; ++f) {
                QVERIFY(sim->advanceFrame().status.ok());
                if (f == 24)
                    middle = fields();
            }
            QVERIFY(!identical(first, middle));
            QVERIFY(identical(first, fields()));
            QVERIFY(sim->advanceFrame().status.ok());
            QVERIFY(identical(second, fields()));
        }
        QCOMPARE(loopCycle(6.0, 2.0), 0.0);
        QCOMPARE(loopCycle(2.5, 2.0), 0.25);
    }

    // The surface is periodic: across the left-right (and bottom-top) seam the step is like
    // any interior step, and the first sample past the edge (by the direct sum) is sample 0.
    void tiles()
    {
        SimParams p = ocean();
        auto solver = createSolver(patch(64, 48, 80.f), p);
        QVERIFY2(solver, solver.error().c_str());
        ScalarGrid h;
        solver->sample(FieldKind::Height, h);
        const Int3 n = h.size();
        double seamX = 0.0, insideX = 0.0, seamY = 0.0, insideY = 0.0;
        for (int j = 0; j < n.y; ++j) {
            seamX += std::abs(h(0, j, 0) - h(n.x - 1, j, 0));
            for (int i = 0; i + 1 < n.x; ++i)
                insideX += std::abs(h(i + 1, j, 0) - h(i, j, 0)) / (n.x - 1);
        }
        for (int i = 0; i < n.x; ++i) {
            seamY += std::abs(h(i, 0, 0) - h(i, n.y - 1, 0));
            for (int j = 0; j + 1 < n.y; ++j)
                insideY += std::abs(h(i, j + 1, 0) - h(i, j, 0)) / (n.y - 1);
        }
        QVERIFY2(seamX > 0.6 * insideX && seamX < 1.6 * insideX,
                 qPrintable(QString("%1 %2").arg(seamX).arg(insideX)));
        QVERIFY2(seamY > 0.6 * insideY && seamY < 1.6 * insideY,
                 qPrintable(QString("%1 %2").arg(seamY).arg(insideY)));
        // Analytically: exp(i k (x + L)) = exp(i k x) for every k of the grid.
        const OceanSpectrum &s = static_cast<const OceanSolver &>(*solver).spectrum();
        for (int j = 0; j < 3; ++j) {
            std::complex<double> wrapped = 0.0;
            for (int b = 0; b < n.y; ++b) {
                for (int a = 0; a < n.x; ++a) {
                    const std::size_t m = s.index(a, b);
                    const std::complex<double> hk = std::complex<double>(s.h0[m])
                                                    + std::complex<double>(s.h0Mirror[m]);
                    wrapped += hk * std::polar(1.0, s.kx(a) * 80.0 + s.ky(b) * j * 80.0 / 64);
                }
            }
            QVERIFY(std::abs(wrapped.real() - h(0, j, 0)) < 1e-5);
        }
    }

    // A wave of height 2a and chop lambda folds where lambda 2 a k > 1: J = 1 - lambda 2 a k
    // at the crest, so the foam there is lambda 2 a k, clamped to 1; no chop, no foam.
    void foldingFoam()
    {
        const int n = 64;
        const double length = 32.0;
        OceanSettings s;
        const float a = 0.25f;
        const OceanSpectrum one = OceanSpectrum::singleWave(n, n, length, length, s, 2, 0,
                                                            {a, 0.f});
        const double k = 2.0 * kPi * 2 / length;
        for (double fold : {0.5, 1.5}) {
            const float lambda = float(fold / (2.0 * a * k));
            const OceanFields f = evaluate(one, 0.0, lambda);
            float most = 0.f;
            for (std::size_t m = 0; m < f.foam.count(); ++m)
                most = std::max(most, f.foam[m]);
            QVERIFY(std::abs(f.foam(0, 5, 0) - std::min(fold, 1.0)) < 1e-5);
            QVERIFY(std::abs(most - std::min(fold, 1.0)) < 1e-5);
            QVERIFY(std::abs(f.normalZ(0, 5, 0) - (fold < 1 ? 1.f : -1.f)) < 1e-5);
            // Crests sharpen: the crest's surface point moves towards it from both sides.
            QVERIFY(f.displacementX(2, 0, 0) < 0.f && f.displacementX(n - 2, 0, 0) > 0.f);
        }
        SimParams calm = ocean(0.f);
        SimParams rough = ocean(4.f);
        rough.ocean.amplitude = 0.01f;
        std::string error;
        auto flat = createSolver(patch(64, 64, 100.f), calm);
        auto folded = createSolver(patch(64, 64, 100.f), rough);
        QVERIFY(flat && folded);
        ScalarGrid foam;
        flat->sample(FieldKind::Foam, foam);
        for (std::size_t m = 0; m < foam.count(); ++m)
            QCOMPARE(foam[m], 0.f);
        folded->sample(FieldKind::Foam, foam);
        int full = 0;
        for (std::size_t m = 0; m < foam.count(); ++m)
            full += foam[m] == 1.f ? 1 : 0;
        QVERIFY2(full > 0 && full < int(foam.count()) / 2, qPrintable(QString::number(full)));
    }

    // Same seed, same bytes; another seed, another sea; one thread or many, same bytes.
    void deterministic()
    {
        auto heights = [](std::uint32_t seed) {
            SimParams p = ocean();
            p.ocean.seed = seed;
            auto solver = createSolver(patch(96, 64, 100.f), p);
            solver->step(0.1f, 2.0);
            std::vector<ScalarGrid> out(7);
            for (int f = 0; f < 7; ++f)
                solver->sample(FieldKind(int(FieldKind::Height) + f), out[std::size_t(f)]);
            return out;
        };
        const auto parallel = heights(7);
        const auto again = heights(7);
        const auto other = heights(8);
        std::vector<ScalarGrid> serial, oneThread;
        {
            SerialScope scope;
            serial = heights(7);
        }
        {
            oneapi::tbb::global_control limit(oneapi::tbb::global_control::max_allowed_parallelism,
                                              1);
            oneThread = heights(7);
        }
        for (std::size_t f = 0; f < 7; ++f) {
            QVERIFY(parallel[f].identical(again[f]));
            QVERIFY(parallel[f].identical(serial[f]));
            QVERIFY(parallel[f].identical(oneThread[f]));
            QVERIFY(!parallel[f].identical(other[f]));
        }
    }

    // The other schemes' fields are zero; the solver holds the time as its only state.
    void fluidFieldsAreZero()
    {
        auto solver = createSolver(patch(16, 16, 10.f), ocean());
        QVERIFY(solver);
        ScalarGrid g;
        for (FieldKind f : {FieldKind::Density, FieldKind::VelocityX, FieldKind::Pressure}) {
            solver->sample(f, g);
            QCOMPARE(g.size(), (Int3{16, 16, 1}));
            for (std::size_t m = 0; m < g.count(); ++m)
                QCOMPARE(g[m], 0.f);
        }
        QCOMPARE(solver->maxVelocity(), 0.f);
        QVERIFY(solver->firstNonFiniteField().empty());
        // What the solver holds is what the memory check estimates (memory.h), within 10 %.
        const double estimate = double(solverMemoryBytes(solver->domain(), Scheme::Ocean));
        QVERIFY2(std::abs(double(solver->memoryBytes()) / estimate - 1.0) < 0.1,
                 qPrintable(QString("%1 vs %2").arg(solver->memoryBytes()).arg(estimate)));
    }

    void refusals_data()
    {
        QTest::addColumn<int>("case_");
        QTest::addColumn<QString>("expected");
        QTest::newRow("3D") << 0 << "needs a 2D domain";
        QTest::newRow("walls") << 1 << "x faces must be periodic";
        QTest::newRow("open top") << 2 << "y faces must be periodic";
        QTest::newRow("loop period") << 3 << "ocean.loopPeriod is 0";
        QTest::newRow("wind") << 4 << "ocean.windSpeed is -1";
        QTest::newRow("NaN chop") << 5 << "ocean.choppiness is nan";
    }
    void refusals()
    {
        QFETCH(int, case_);
        QFETCH(QString, expected);
        Domain d = patch(16, 16, 10.f);
        SimParams p = ocean();
        switch (case_) {
        case 0: d.cells.z = 4; break;
        case 1: d.boundaries = allBoundaries(Boundary::Wall); break;
        case 2:
            d.boundaries[int(Face::YMax)] = d.boundaries[int(Face::YMin)] = Boundary::Open;
            break;
        case 3: p.ocean.loopPeriod = 0.f; break;
        case 4: p.ocean.windSpeed = -1.f; break;
        case 5: p.ocean.choppiness = std::nanf(""); break;
        }
        const std::string error = createSolver(d, p).error();
        QVERIFY2(QString::fromStdString(error).contains(expected), error.c_str());
        // A running ocean refuses bad settings and keeps its own.
        auto solver = createSolver(patch(16, 16, 10.f), ocean());
        QVERIFY(solver);
        if (case_ >= 3)
            QVERIFY(!solver->setParams(p).ok());
        SimParams smoke;
        QVERIFY(!solver->setParams(smoke).ok());
    }

    // New settings take effect at once, at the same time.
    void setParamsReevaluates()
    {
        auto solver = createSolver(patch(32, 32, 40.f), ocean());
        solver->step(0.5f, 1.0);
        ScalarGrid before, after;
        solver->sample(FieldKind::Height, before);
        SimParams p = ocean();
        p.ocean.amplitude *= 4.f; // heights double
        QVERIFY(solver->setParams(p).ok());
        solver->sample(FieldKind::Height, after);
        for (std::size_t m = 0; m < after.count(); ++m)
            QVERIFY(std::abs(after[m] - 2.f * before[m]) <= 1e-5f * (1.f + std::abs(after[m])));
    }
};

QTEST_GUILESS_MAIN(TestSimOcean)
#include "tst_sim_ocean.moc"
