// SPDX-License-Identifier: Apache-2.0
#include <core/sim/base/assert.h>
#include <core/sim/base/domain.h>
#include <core/sim/base/grid.h>
#include <core/sim/base/parallel.h>
#include <core/sim/base/params.h>
#include <core/sim/ops/pressure.h>

#include <oneapi/tbb/task_arena.h>

#include <QtTest>

#include <sys/resource.h>

#include <cstring>

using namespace plume::sim;

namespace {

/// The argument that makes this executable run brokenContract() instead of the tests.
constexpr const char *kBrokenContractArgument = "--plume-broken-contract";

/// An internal stage handed grids that do not match its domain: the divergence of an 8x8
/// velocity on a 16x16 domain. With PLUME_ASSERT compiled in it aborts; a product build
/// returns with `out` zero.
int brokenContract()
{
    const rlimit noCore{0, 0}; // the abort is expected: no core file
    setrlimit(RLIMIT_CORE, &noCore);
    const Domain domain{Int3{16, 16, 1}, 1.f / 16.f};
    const MacGrid vel(Int3{8, 8, 1});
    ScalarGrid out;
    PressureSolver::divergence(vel, FlagGrid(domain.cells), domain, out);
    return 0;
}

} // namespace

class TestSimGrid : public QObject
{
    Q_OBJECT

private slots:
    void staggering()
    {
        MacGrid m(Int3{4, 3, 1});
        QCOMPARE(m.u.size(), (Int3{5, 3, 1}));
        QCOMPARE(m.v.size(), (Int3{4, 4, 1}));
        QCOMPARE(m.w.count(), std::size_t(0));
        QCOMPARE(m.u.offset(), kFaceX);
        MacGrid m3(Int3{4, 3, 2});
        QCOMPARE(m3.w.size(), (Int3{4, 3, 3}));
        m3.u(1, 0, 0) = 2.f;
        m3.u(2, 0, 0) = 4.f;
        QCOMPARE(m3.atCentre(1, 0, 0).x, 3.f);
    }

    void orderedSumIsThreadIndependent()
    {
        // Values chosen so that float addition order matters: the ordered row reduction
        // must give the same bits whatever the thread count.
        const Int3 size{97, 61, 13};
        std::vector<float> v(std::size_t(size.volume()));
        for (std::size_t n = 0; n < v.size(); ++n)
            v[n] = float((n * 2654435761u) % 1000003) * 1e-3f - 400.f;
        auto rowSum = [&](int j, int k) {
            double s = 0;
            const std::size_t base = std::size_t(size.x) * (j + std::size_t(size.y) * k);
            for (int i = 0; i < size.x; ++i)
                s += v[base + i];
            return s;
        };
        double serial;
        {
            SerialScope scope;
            serial = sumRows(size, rowSum);
        }
        for (int threads : {1, 2, 3, 4, 8}) {
            oneapi::tbb::task_arena arena(threads);
            double parallel = 0;
            arena.execute([&] { parallel = sumRows(size, rowSum); });
            QCOMPARE(std::memcmp(&parallel, &serial, sizeof(double)), 0);
        }
    }

    void domainValidation_data()
    {
        QTest::addColumn<int>("nx");
        QTest::addColumn<int>("ny");
        QTest::addColumn<int>("nz");
        QTest::addColumn<float>("h");
        QTest::addColumn<QString>("expected");
        QTest::newRow("ok 2D") << 64 << 64 << 1 << 0.1f << QString();
        QTest::newRow("negative") << -4 << 64 << 1 << 0.1f << QString("along x is -4");
        QTest::newRow("zero") << 64 << 0 << 1 << 0.1f << QString("along y is 0");
        QTest::newRow("huge") << 4096 << 4096 << 4096 << 0.1f << QString("more than the limit");
        QTest::newRow("nan size") << 64 << 64 << 1 << std::nanf("") << QString("cell size");
        QTest::newRow("zero size") << 64 << 64 << 1 << 0.f << QString("cell size");
    }

    void domainValidation()
    {
        QFETCH(int, nx);
        QFETCH(int, ny);
        QFETCH(int, nz);
        QFETCH(float, h);
        QFETCH(QString, expected);
        Domain d;
        d.cells = {nx, ny, nz};
        d.cellSize = h;
        const Status s = d.validate();
        if (expected.isEmpty()) {
            QVERIFY2(s.ok(), s.error.c_str());
        } else {
            QVERIFY(!s.ok());
            QVERIFY2(QString::fromStdString(s.error).contains(expected), s.error.c_str());
        }
    }

    // anySolid scans in blocks of 64 flags: one solid cell anywhere, in a whole block or in
    // the tail after the last block, is found; none is none.
    void anySolidFindsEveryCell()
    {
        for (const Int3 n : {Int3{7, 5, 3}, Int3{64, 2, 1}, Int3{13, 11, 1}, Int3{1, 1, 1}}) {
            FlagGrid flags(n);
            QVERIFY(!flags.anySolid());
            for (std::size_t c = 0; c < flags.count(); ++c) {
                flags.data()[c] = 1;
                QVERIFY2(flags.anySolid(),
                         qPrintable(QString("cell %1 of %2").arg(c).arg(flags.count())));
                flags.data()[c] = 0;
            }
            QVERIFY(!flags.anySolid());
        }
        QVERIFY(!FlagGrid().anySolid());
    }

    void periodicNeedsBothFaces()
    {
        Domain d;
        d.boundaries[int(Face::XMin)] = Boundary::Periodic;
        QVERIFY(!d.validate().ok());
        d.boundaries[int(Face::XMax)] = Boundary::Periodic;
        QVERIFY(d.validate().ok());
    }

    void paramsValidation()
    {
        SimParams p;
        QVERIFY(p.validate().ok());
        p.viscosity = -1.f;
        QVERIFY(QString::fromStdString(p.validate().error).contains("viscosity"));
        p = SimParams{};
        p.vorticity = std::nanf("");
        QVERIFY(QString::fromStdString(p.validate().error).contains("vorticity"));
        Scheme s;
        QVERIFY(kSchemeNames.parse("stam", s) && s == Scheme::Stam);
        QVERIFY(!kSchemeNames.parse("navier", s));
        AdvectionOrder a;
        QVERIFY(kAdvectionOrderNames.parse("bfecc", a) && a == AdvectionOrder::Bfecc);
    }

    // A broken internal contract aborts a test build with file:line, the condition and the
    // message (PLUME_ASSERT, core/sim/base/assert.h). Run in a child process: this executable
    // again, with kBrokenContractArgument.
    void brokenContractAborts()
    {
        if (!kAssertsEnabled)
            QSKIP("PLUME_ASSERT is compiled out (configured with -DPLUME_ASSERTS=OFF)");
        QProcess child;
        child.start(QCoreApplication::applicationFilePath(), {kBrokenContractArgument});
        QVERIFY(child.waitForFinished(60000));
        const QByteArray err = child.readAllStandardError();
        QCOMPARE(child.exitStatus(), QProcess::CrashExit); // SIGABRT
        QVERIFY2(err.contains("core/sim/ops/pressure.cpp:"), err.constData());
        QVERIFY2(err.contains("PLUME_ASSERT(vel.cells() == n) failed: divergence: the velocity "
                              "does not match the domain"),
                 err.constData());
    }
};

int main(int argc, char **argv)
{
    if (argc == 2 && std::strcmp(argv[1], kBrokenContractArgument) == 0)
        return brokenContract();
    QCoreApplication app(argc, argv);
    TestSimGrid test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_sim_grid.moc"
