// SPDX-License-Identifier: Apache-2.0
// plume-cli as a render farm runs it: exit codes, messages, files, progress, interruption.
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

namespace {

const QString kCli = PLUME_BINARY_DIR "/bin/plume-cli";
const QString kScenes = PLUME_SOURCE_DIR "/resources/scenes/";
const QString kBad = PLUME_SOURCE_DIR "/tests/scene_io/bad/";

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

Run run(const QStringList &args, int timeoutMs = 120000)
{
    QProcess p;
    p.start(kCli, args);
    if (!p.waitForFinished(timeoutMs))
        qFatal("plume-cli did not finish: %s", qPrintable(args.join(' ')));
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

/// A copy of an example scene with a small resolution and frame range, for fast bakes.
QString smallScene(const QTemporaryDir &dir, const QString &example, int resolution, int frames)
{
    QFile in(kScenes + example + ".plume");
    in.open(QIODevice::ReadOnly);
    QString text = QString::fromUtf8(in.readAll());
    text.replace(QRegularExpression("\"resolution\": \\d+"),
                 QString("\"resolution\": %1").arg(resolution));
    text.replace(QRegularExpression("\"frameEnd\": \\d+"), QString("\"frameEnd\": %1").arg(frames));
    const QString path = dir.filePath(example + ".plume");
    QFile out(path);
    out.open(QIODevice::WriteOnly);
    out.write(text.toUtf8());
    return path;
}

/// plume-cli run by sh after `limits` (e.g. "ulimit -f 200"), with SIGXFSZ ignored so that a
/// write over the file size limit fails with EFBIG instead of killing the process.
Run runLimited(const QString &limits, const QStringList &args)
{
    QStringList shell{"-c", limits + "; trap '' XFSZ; exec \"$0\" \"$@\"", kCli};
    QProcess p;
    p.start("sh", shell + args);
    if (!p.waitForFinished(120000))
        qFatal("plume-cli did not finish: %s", qPrintable(args.join(' ')));
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

/// Starts a bake with a progress line and kills it with SIGKILL as soon as frame `frame` is
/// reported, that is while it works on the next one, as a crashing farm node would.
void bakeKilledAfter(const QStringList &args, int frame)
{
    QProcess p;
    p.setReadChannel(QProcess::StandardError); // waitForReadyRead waits on this channel
    p.start(kCli, args + QStringList{"--progress"});
    QByteArray err;
    const QByteArray mark = "frame " + QByteArray::number(frame) + " ";
    while (!err.contains(mark)) {
        if (!p.waitForReadyRead(60000))
            qFatal("the bake ended before frame %d: %s", frame, err.constData());
        err += p.readAllStandardError();
    }
    ::kill(pid_t(p.processId()), SIGKILL);
    p.waitForFinished(60000);
    if (p.exitStatus() != QProcess::CrashExit)
        qFatal("the bake was not killed: %s", err.constData());
}

/// Every file under `dir` (hidden ones too) by relative path, with its bytes.
QMap<QString, QByteArray> folderContents(const QString &dir)
{
    QMap<QString, QByteArray> files;
    QDirIterator it(dir, QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot | QDir::AllDirs,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        if (!it.fileInfo().isFile()) {
            files[QDir(dir).relativeFilePath(path) + "/"] = {};
            continue;
        }
        QFile f(path);
        f.open(QIODevice::ReadOnly);
        files[QDir(dir).relativeFilePath(path)] = f.readAll();
    }
    return files;
}

/// Lists where two folders differ, or nothing.
QString folderDifference(const QString &a, const QString &b)
{
    const QMap<QString, QByteArray> x = folderContents(a), y = folderContents(b);
    if (x.keys() != y.keys())
        return "files " + x.keys().join(' ') + " vs " + y.keys().join(' ');
    for (auto it = x.begin(); it != x.end(); ++it) {
        if (it.value() != y.value(it.key()))
            return it.key() + " differs";
    }
    return {};
}

} // namespace

class TestCli : public QObject
{
    Q_OBJECT

private slots:
    void usage()
    {
        QCOMPARE(run({}).exitCode, 2);
        const Run help = run({"--help"});
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains("bake"));
        for (const char *command : {"validate", "info", "bake", "simulate"}) {
            const Run r = run({command, "--help"});
            QCOMPARE(r.exitCode, 0);
            QVERIFY2(r.out.contains("Usage"), command);
        }
        const Run unknown = run({"frobnicate"});
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY(unknown.err.contains("unknown command 'frobnicate'"));
        QCOMPARE(run({"bake", kScenes + "plume-2d.plume"}).exitCode, 2); // no -o
        QCOMPARE(run({"validate"}).exitCode, 2);
    }

    void validate_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        for (const char *s : {"plume-2d", "cylinder-2d", "logo-2d", "plume-3d", "vortex-3d"})
            QTest::newRow(s) << kScenes + s + ".plume" << 0 << "valid";
        QTest::newRow("truncated") << kBad + "truncated.plume" << 2 << "truncated.plume";
        QTest::newRow("negative radius") << kBad + "negative-radius.plume" << 2 << "radius";
        QTest::newRow("unknown scheme") << kBad + "unknown-scheme.plume" << 2 << "scheme";
        QTest::newRow("missing file") << kScenes + "nope.plume" << 2 << "nope.plume";
    }

    void validate()
    {
        QFETCH(QString, file);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const Run r = run({"validate", file});
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2((exitCode == 0 ? r.out : r.err).contains(message), qPrintable(r.out + r.err));
    }

    void info()
    {
        const Run r = run({"info", kScenes + "plume-3d.plume"});
        QCOMPARE(r.exitCode, 0);
        for (const char *s : {"dimension:  3d", "cells:", "memory:", "items:", "obstacle"})
            QVERIFY2(r.out.contains(s), qPrintable(r.out));
        QVERIFY2(!r.out.contains("adaptive:"), qPrintable(r.out));
        QVERIFY2(!r.out.contains("preview:"), qPrintable(r.out));
        // A scene that opens at a preview resolution says what the window simulates.
        const Run preview = run({"info", kScenes + "fireball-3d.plume"});
        QCOMPARE(preview.exitCode, 0);
        QVERIFY2(preview.out.contains("preview:    half: the window simulates 64 x 64 x 64; "
                                      "bakes use the cells above"),
                 qPrintable(preview.out));
        // An adaptive scene says so, and estimates its memory from a coarse preview of where
        // the box goes, next to what the whole domain in the box would need.
        const Run adaptive = run({"info", kScenes + "plume-room-3d.plume"});
        QCOMPARE(adaptive.exitCode, 0);
        for (const char *s : {"adaptive:   on", "a preview at 64 cells over 120 frames",
                              "to bake with the adaptive domain", "the whole domain in the box"})
            QVERIFY2(adaptive.out.contains(s), qPrintable(adaptive.out));
        // A long range is previewed over its first 480 frames, and says so.
        QTemporaryDir dir;
        const Run longRange = run({"info", smallScene(dir, "plume-room-3d", 16, 2000)});
        QCOMPARE(longRange.exitCode, 0);
        for (const char *s :
             {"a preview at 16 cells over the first 480 frames", "the box may grow after them"})
            QVERIFY2(longRange.out.contains(s), qPrintable(longRange.out));
    }

    // An ocean scene: info shows the waves and the loop, bake writes the maps asked for (not
    // VDB files), refuses the fluid outputs, and other scenes refuse the ocean options.
    void ocean()
    {
        QTemporaryDir dir;
        const QString scene = smallScene(dir, "ocean-tile", 32, 10);
        const Run info = run({"info", scene});
        QCOMPARE(info.exitCode, 0);
        for (const char *s : {"scheme:     ocean", "100 x 100 m patch, wind 12 m/s",
                              "loop:       every 10 s = 240 frames"})
            QVERIFY2(info.out.contains(s), qPrintable(info.out));
        const QString out = dir.filePath("out");
        const Run r = run(
            {"bake", scene, "-o", out, "--frames", "2:3", "--ocean-maps", "foam,height"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(QDir(out).entryList(QDir::Files),
                 QStringList({"ocean-tile_foam.0002.png", "ocean-tile_foam.0003.png",
                              "ocean-tile_height.0002.png", "ocean-tile_height.0003.png",
                              "ocean-tile_ocean.json"}));
        const Run bad = run({"bake", scene, "-o", out, "--ocean-maps", "height,waves"});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("expected one of height, normal, foam, got 'waves'"),
                 qPrintable(bad.err));
        const Run vdb = run({"bake", scene, "-o", out, "--vdb"});
        QCOMPARE(vdb.exitCode, 2);
        QVERIFY2(vdb.err.contains("--vdb does not apply to an ocean scene"), qPrintable(vdb.err));
        const Run smoke = run(
            {"bake", smallScene(dir, "plume-2d", 32, 4), "-o", out, "--ocean-flipbook", "0"});
        QCOMPARE(smoke.exitCode, 2);
        QVERIFY2(smoke.err.contains("are for scenes of the ocean scheme"), qPrintable(smoke.err));
        const Run sim = run(
            {"simulate", "--scene", "ocean", "--resolution", "64", "--frames", "2", "--quiet"});
        QCOMPARE(sim.exitCode, 0);
        QVERIFY2(sim.out.contains("ocean scheme, 64 x 64 x 1 cells"), qPrintable(sim.out));
    }

    // Frames A:B inclusive, one complete file per frame, quiet when stderr is a pipe.
    void bake()
    {
        QTemporaryDir dir;
        const QString scene = smallScene(dir, "plume-2d", 32, 10);
        const QString out = dir.filePath("out");
        const Run r = run({"bake", scene, "-o", out, "--frames", "3:5"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.isEmpty(), qPrintable(r.err));
        QCOMPARE(QDir(out).entryList(QDir::Files),
                 QStringList({"plume-2d.0003.vdb", "plume-2d.0004.vdb", "plume-2d.0005.vdb"}));
        const Run progress = run({"bake", scene, "-o", out, "--frames", "1:2", "--progress"});
        QCOMPARE(progress.exitCode, 0);
        QVERIFY(progress.err.contains("ETA"));
        QVERIFY(progress.err.contains("100%"));
        QVERIFY(!progress.err.contains("box"));
        // An adaptive scene's line says how much of the domain its box covers.
        const QString room = smallScene(dir, "plume-room-3d", 48, 4);
        const Run boxed = run({"bake", room, "-o", dir.filePath("room"), "--progress"});
        QCOMPARE(boxed.exitCode, 0);
        QVERIFY2(
            QRegularExpression("frame 4  4/4  100%.* box [0-9.]+ %").match(boxed.err).hasMatch(),
            qPrintable(boxed.err));
        const Run quiet = run({"bake", scene, "-o", out, "--frames", "1:2", "--quiet"});
        QCOMPARE(quiet.exitCode, 0);
        QVERIFY(quiet.out.isEmpty() && quiet.err.isEmpty());
        // The OpenVDB options (their effect on the grids: tst_bake, tests/readers).
        const QString zUp = dir.filePath("z");
        const Run z = run({"bake", scene, "-o", zUp, "--frames", "3:3", "--up", "z", "--half",
                           "--velocity-mask", "speed"});
        QCOMPARE(z.exitCode, 0);
        auto bytes = [](const QString &path) {
            QFile f(path);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        };
        const QByteArray zBytes = bytes(zUp + "/plume-2d.0003.vdb");
        QVERIFY(!zBytes.isEmpty() && zBytes != bytes(out + "/plume-2d.0003.vdb"));
    }

    // Smoke that reaches an open side is cut off there: the bake warns once, naming the side
    // and the frame, and goes on; --quiet keeps it quiet. (plume-2d: walls but an open top.)
    void bakeWarnsOfSmokeAtSides()
    {
        QTemporaryDir dir;
        const QString scene = smallScene(dir, "plume-2d", 16, 120);
        const Run r = run({"bake", scene, "-o", dir.filePath("out")});
        QCOMPARE(r.exitCode, 0);
        const QRegularExpression warning(
            "warning: frame (\\d+): smoke reached the open side ymax \\(\\d+ %\\) of the domain");
        const QRegularExpressionMatch m = warning.match(r.err);
        QVERIFY2(m.hasMatch(), qPrintable(r.err));
        QVERIFY2(m.captured(1).toInt() > 1 && m.captured(1).toInt() <= 120, qPrintable(r.err));
        QCOMPARE(r.err.count("smoke reached"), 1); // once; walls never
        const Run quiet = run({"bake", scene, "-o", dir.filePath("quiet"), "--quiet"});
        QCOMPARE(quiet.exitCode, 0);
        QVERIFY2(quiet.err.isEmpty(), qPrintable(quiet.err));
    }

    void bakeRefusesBadInput()
    {
        QTemporaryDir dir;
        const QString scene = smallScene(dir, "plume-2d", 32, 10);
        const Run range = run({"bake", scene, "-o", dir.path(), "--frames", "5:2"});
        QCOMPARE(range.exitCode, 2);
        QVERIFY(range.err.contains("5:2"));
        const Run outside = run({"bake", scene, "-o", dir.path(), "--frames", "1:500"});
        QCOMPARE(outside.exitCode, 2);
        const Run threads = run({"bake", scene, "-o", dir.path(), "--threads", "zero"});
        QCOMPARE(threads.exitCode, 2);
        // Option checks read the scene reader's tables (flipbookParams, renderParams, names).
        const Run padding = run({"bake", scene, "-o", dir.path(), "--padding", "257"});
        QCOMPARE(padding.exitCode, 2);
        QVERIFY2(padding.err.contains("--padding must be an integer in [0, 256]"),
                 qPrintable(padding.err));
        const Run pitch = run({"bake", scene, "-o", dir.path(), "--camera", "0,89.5"});
        QCOMPARE(pitch.exitCode, 2);
        QVERIFY2(pitch.err.contains("[-89, 89]"), qPrintable(pitch.err));
        const Run alpha = run({"bake", scene, "-o", dir.path(), "--alpha", "opaque"});
        QCOMPARE(alpha.exitCode, 2);
        QVERIFY2(alpha.err.contains("one of straight, premultiplied"), qPrintable(alpha.err));
        const Run up = run({"bake", scene, "-o", dir.path(), "--up", "x"});
        QCOMPARE(up.exitCode, 2);
        QVERIFY2(up.err.contains("--up must be one of y, z, got 'x'"), qPrintable(up.err));
        const Run mask = run({"bake", scene, "-o", dir.path(), "--velocity-mask", "all"});
        QCOMPARE(mask.exitCode, 2);
        QVERIFY2(mask.err.contains("one of density, speed"), qPrintable(mask.err));
        // Options the scene cannot have are found by the baker before anything is written:
        // still bad input, exit code 2, and the folder stays empty.
        const QString empty = dir.filePath("empty");
        const Run depth = run({"bake", scene, "-o", empty, "--flipbook", "2x2", "--depth-map"});
        QCOMPARE(depth.exitCode, 2);
        QVERIFY2(depth.err.contains("needs a 3D domain"), qPrintable(depth.err));
        QVERIFY(QDir(empty).isEmpty());
        const Run bad = run({"bake", kBad + "huge-resolution.plume", "-o", dir.path()});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY(bad.err.contains("huge-resolution.plume"));
        // The output folder cannot be made: a failure while running, exit code 1.
        QFile blocker(dir.filePath("file"));
        blocker.open(QIODevice::WriteOnly);
        blocker.close();
        const Run io = run({"bake", scene, "-o", dir.filePath("file/sub"), "--frames", "1:1"});
        QCOMPARE(io.exitCode, 1);
        QVERIFY2(io.err.contains("file/sub"), qPrintable(io.err));
    }

    // --exposure and --tone-curve override the scene's render settings for the PNG colour
    // (what they do to the pixels: tst_flipbook): clip differs from the filmic default where
    // the light passes the knee (the 2D dye's orange one stop up), the field look keeps its
    // colours; bad values are refused naming what is expected.
    void bakeExposureAndToneCurve()
    {
        QTemporaryDir dir;
        const QString scene = smallScene(dir, "plume-2d", 32, 4);
        int runs = 0;
        auto image = [&](const QStringList &options) {
            const QString out = dir.filePath(QString("out%1").arg(++runs));
            const Run r = run(QStringList{"bake", scene, "-o", out, "--images", "--frames", "3:3",
                                          "--size", "32x32"}
                              + options);
            if (r.exitCode != 0)
                qFatal("%s", qPrintable(r.err));
            QFile f(out + "/plume-2d.0003.png");
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        };
        const QByteArray plain = image({});
        QVERIFY(plain.startsWith("\x89PNG"));
        QCOMPARE(image({"--exposure", "0", "--tone-curve", "filmic"}), plain); // the defaults
        const QByteArray brighter = image({"--exposure", "1"});
        QVERIFY(brighter.startsWith("\x89PNG") && brighter != plain);
        const QByteArray darker = image({"--exposure", "-1.5"});
        QVERIFY(darker.startsWith("\x89PNG") && darker != plain && darker != brighter);
        QVERIFY(image({"--exposure", "1", "--tone-curve", "clip"}) != brighter);
        const QByteArray field = image({"--look", "field"});
        QCOMPARE(image({"--look", "field", "--exposure", "2", "--tone-curve", "clip"}), field);

        const Run stops = run({"bake", scene, "-o", dir.path(), "--exposure", "bright"});
        QCOMPARE(stops.exitCode, 2);
        QVERIFY2(stops.err.contains("--exposure must be a finite number of stops, got 'bright'"),
                 qPrintable(stops.err));
        const Run curve = run({"bake", scene, "-o", dir.path(), "--tone-curve", "aces"});
        QCOMPARE(curve.exitCode, 2);
        QVERIFY2(curve.err.contains("--tone-curve must be one of filmic, clip, got 'aces'"),
                 qPrintable(curve.err));
    }

    // The stam scheme in fixed point (docs/fixed-point.md): simulate --numeric, the example
    // scene, and a scene driven out of the fixed-point range stops naming field and cell.
    void fixedPoint()
    {
        const Run sim = run({"simulate", "--scheme", "stam", "--numeric", "fixed", "--resolution",
                             "32", "--frames", "2", "--quiet"});
        QCOMPARE(sim.exitCode, 0);
        QVERIFY2(sim.out.contains("stam scheme (fixed point)"), qPrintable(sim.out));
        const Run smoke = run({"simulate", "--numeric", "fixed", "--frames", "1"});
        QCOMPARE(smoke.exitCode, 2);
        QVERIFY2(smoke.err.contains("--numeric fixed needs --scheme stam"), qPrintable(smoke.err));
        const Run bad = run({"simulate", "--scheme", "stam", "--numeric", "double"});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("--numeric must be"), qPrintable(bad.err));

        QTemporaryDir dir;
        const QString example = smallScene(dir, "stam-fixed-2d", 32, 3);
        QCOMPARE(run({"bake", example, "-o", dir.filePath("ok")}).exitCode, 0);
        // 2000 per second into the source cells and no force to carry it away: 200 a frame,
        // past 2048 in about ten frames.
        QFile in(example);
        QVERIFY(in.open(QIODevice::ReadOnly));
        QString text = QString::fromUtf8(in.readAll());
        in.close();
        text.replace("\"density\": 100", "\"density\": 2000");
        text.replace("\"frameEnd\": 3", "\"frameEnd\": 60");
        text.replace("\"velocity\": [0, 5, 0]", "\"velocity\": [0, 0, 0]");
        QFile out(dir.filePath("hot.plume"));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(text.toUtf8());
        out.close();
        const Run hot = run({"bake", out.fileName(), "-o", dir.filePath("hot")});
        QCOMPARE(hot.exitCode, 1);
        QVERIFY2(hot.err.contains(QRegularExpression(
                     "simulation blew up at frame \\d+.*: density out of fixed-point range at "
                     "cell \\(\\d+, \\d+\\)")),
                 qPrintable(hot.err));
    }

    // --threads 1 and --threads 2 write identical files.
    // --cache-only writes the VDB files alone; --from-cache renders them, in --chunk parts
    // (as a farm's render tasks do) then the bake that writes the outputs: the same flipbook
    // and sidecar bytes as a bake that simulates and renders in one process.
    void renderFromCacheInChunks()
    {
        QTemporaryDir dir;
        const QString scene = smallScene(dir, "fireball-3d", 16, 6);
        const QStringList look{"--frames", "1:6",   "--flipbook", "2x3",
                               "--size",   "32x32", "--quiet"};
        QCOMPARE(run(QStringList{"bake", scene, "-o", dir.filePath("one")} + look).exitCode, 0);
        const QString cache = dir.filePath("cache");
        const Run only = run(
            {"bake", scene, "-o", cache, "--cache-only", "--frames", "1:6", "--quiet"});
        QCOMPARE(only.exitCode, 0);
        QCOMPARE(QDir(cache).entryList({"*.vdb"}).size(), 6);
        QCOMPARE(QDir(cache).entryList({"*.png"}).size(), 0);
        for (const QString &chunk : {"1:2", "3:4", "5:6"})
            QCOMPARE(run(QStringList{"bake", scene, "--from-cache", cache, "-o", cache, "--chunk",
                                     chunk}
                         + look)
                         .exitCode,
                     0);
        QCOMPARE(
            run(QStringList{"bake", scene, "--from-cache", cache, "-o", cache} + look).exitCode, 0);
        for (const QString &name : {"fireball-3d_flipbook.png", "fireball-3d_flipbook.json",
                                    "fireball-3d_flipbook_motion.png"}) {
            QFile a(dir.filePath("one/" + name)), b(cache + "/" + name);
            QVERIFY2(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly), qPrintable(name));
            QVERIFY2(a.readAll() == b.readAll(), qPrintable(name));
        }
        QVERIFY(!QDir(cache + "/.plume-render").exists());

        const Run both = run({"bake", scene, "-o", cache, "--cache-only", "--flipbook", "2x3"});
        QCOMPARE(both.exitCode, 2);
        QVERIFY2(both.err.contains("--cache-only writes the VDB cache alone: not with --flipbook"),
                 qPrintable(both.err));
        const Run lone = run({"bake", scene, "-o", cache, "--chunk", "1:2"});
        QCOMPARE(lone.exitCode, 2);
        QVERIFY2(lone.err.contains("add --from-cache DIR"), qPrintable(lone.err));
        const Run missing = run(QStringList{"bake", scene, "--from-cache", dir.filePath("none"),
                                            "-o", dir.filePath("x")}
                                + look);
        QCOMPARE(missing.exitCode, 2);
        QVERIFY2(missing.err.contains("has no frame 1"), qPrintable(missing.err));
    }

    void threadsGiveSameBytes()
    {
        QTemporaryDir dir;
        const QString scene = smallScene(dir, "vortex-3d", 20, 3);
        QCOMPARE(run({"bake", scene, "-o", dir.filePath("a"), "--frames", "3:3", "--threads", "1"})
                     .exitCode,
                 0);
        QCOMPARE(run({"bake", scene, "-o", dir.filePath("b"), "--frames", "3:3", "--threads", "2"})
                     .exitCode,
                 0);
        QFile a(dir.filePath("a/vortex-3d.0003.vdb")), b(dir.filePath("b/vortex-3d.0003.vdb"));
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        const QByteArray x = a.readAll();
        QVERIFY(x.size() > 1000);
        QVERIFY(x == b.readAll());
    }

    // SIGINT stops the bake between frames with exit code 1; every file present is complete
    // (no temporary files are left, and none is shorter than a finished frame's header).
    void interruptLeavesCompleteFiles()
    {
        QTemporaryDir dir;
        const QString scene = smallScene(dir, "plume-3d", 32, 200);
        const QString out = dir.filePath("out");
        QProcess p;
        p.start(kCli, {"bake", scene, "-o", out});
        QTRY_VERIFY_WITH_TIMEOUT(QDir(out).entryList({"*.vdb"}, QDir::Files).size() >= 2, 60000);
        ::kill(pid_t(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 1);
        QVERIFY(QString::fromUtf8(p.readAllStandardError()).contains("interrupted"));
        const QStringList files = QDir(out).entryList(QDir::Files);
        QVERIFY(files.size() < 200);
        for (const QString &f : files) {
            QVERIFY2(f.endsWith(".vdb"), qPrintable(f)); // no leftover temporary files
            QFile file(QDir(out).filePath(f));
            QVERIFY(file.size() > 100);
        }
    }

    // Issue 48: a rendered output named on the command line replaces the scene's rendered
    // presets. campfire-3d presets a looping flipbook, which 12 frames at step 12 cannot fill;
    // `--images --step 12` asks for images alone, and gets them (it was refused over the
    // flipbook nobody asked for). With no output named, the presets still decide; --vdb adds
    // the VDB files to the preset flipbook (the farm's local bake relies on it).
    void namedOutputsReplaceThePresets()
    {
        QTemporaryDir dir;
        const QString scene = smallScene(dir, "campfire-3d", 16, 24);
        const QString images = dir.filePath("images");
        const Run asked = run({"bake", scene, "-o", images, "--images", "--step", "12", "--frames",
                               "1:12", "--size", "32x32", "--quiet"});
        QVERIFY2(asked.exitCode == 0, qPrintable(asked.err));
        const QStringList written = QDir(images).entryList(QDir::Files, QDir::Name);
        QCOMPARE(written, QStringList({"campfire-3d.0001.png"}));
        // No output named: the presets' flipbook, which step 12 cannot fill, is refused with
        // the reason.
        const Run presets = run({"bake", scene, "-o", dir.filePath("presets"), "--step", "12",
                                 "--frames", "1:12", "--quiet"});
        QCOMPARE(presets.exitCode, 2);
        QVERIFY2(presets.err.contains("flipbook: 8 loop frames"), qPrintable(presets.err));

        const QString both = dir.filePath("both");
        const Run vdb = run(
            {"bake", scene, "-o", both, "--vdb", "--frames", "1:24", "--size", "32x32", "--quiet"});
        QVERIFY2(vdb.exitCode == 0, qPrintable(vdb.err));
        const QStringList bothWritten = QDir(both).entryList(QDir::Files, QDir::Name);
        QCOMPARE(bothWritten.size(), 24 + 3);
        QVERIFY(bothWritten.contains("campfire-3d.0024.vdb"));
        QVERIFY(bothWritten.contains("campfire-3d_flipbook.png"));
        QVERIFY(bothWritten.contains("campfire-3d_flipbook_motion.png"));
        QVERIFY(bothWritten.contains("campfire-3d_flipbook.json"));
    }

    void killAndResume_data()
    {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<int>("killAfter");
        QTest::newRow("vdb") << QStringList{"--checkpoint-every", "4"} << 10;
        QTest::newRow("flipbook, images and vdb")
            << QStringList{"--checkpoint-every", "3",     "--flipbook", "3x3",
                           "--images",           "--vdb", "--size",     "48x48"}
            << 13;
        QTest::newRow("before the first checkpoint") << QStringList{"--checkpoint-every", "8"} << 5;
        QTest::newRow("vector fields and vdb")
            << QStringList{"--checkpoint-every",  "4", "--vdb", "--vector-field", "fga",
                           "--vector-field-size", "16"}
            << 10;
    }

    // kill -9 in the middle of a frame, then --resume: the folder ends byte-identical to an
    // uninterrupted bake of the same command, resume record gone.
    void killAndResume()
    {
        QFETCH(QStringList, options);
        QFETCH(int, killAfter);
        QTemporaryDir dir;
        const QString scene = smallScene(dir, "plume-3d", 32, 24);
        const QString ref = dir.filePath("ref"), cut = dir.filePath("cut");
        QCOMPARE(run(QStringList{"bake", scene, "-o", ref} + options).exitCode, 0);
        bakeKilledAfter(QStringList{"bake", scene, "-o", cut} + options, killAfter);
        QVERIFY(QFile::exists(cut + "/.plume-bake/bake.json"));
        QVERIFY(folderDifference(ref, cut) != QString()); // it did stop early
        const Run resumed = run(QStringList{"bake", scene, "-o", cut, "--resume"} + options);
        QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.err));
        const int every = options[1].toInt();
        const int checkpoint = killAfter / every * every;
        QVERIFY2(resumed.out.contains(QString("resumed after frame %1").arg(checkpoint)),
                 qPrintable(resumed.out));
        const QString diff = folderDifference(ref, cut);
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
        QVERIFY(!QDir(cut + "/.plume-bake").exists());
    }

    // --resume refuses what it cannot continue, saying why, and leaves the record usable.
    void resumeRefusals()
    {
        QTemporaryDir dir;
        const QString scene = smallScene(dir, "plume-3d", 24, 16);
        const QString out = dir.filePath("out");
        const QStringList bake{"bake", scene, "-o", out, "--checkpoint-every", "2"};
        bakeKilledAfter(bake, 6);

        const Run nothing = run({"bake", scene, "-o", dir.filePath("empty"), "--resume"});
        QCOMPARE(nothing.exitCode, 2);
        QVERIFY2(nothing.err.contains("holds no interrupted bake to resume"),
                 qPrintable(nothing.err));
        const Run frames = run(bake + QStringList{"--resume", "--frames", "1:12"});
        QCOMPARE(frames.exitCode, 2);
        QVERIFY2(frames.err.contains("the bake's options changed: frames \"1:16\" -> \"1:12\""),
                 qPrintable(frames.err));
        // The same scene file, edited.
        QFile file(scene);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray original = file.readAll();
        file.close();
        QByteArray edited = original;
        edited.replace("\"vorticity\": 0.25", "\"vorticity\": 0.3");
        QVERIFY(edited != original);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(edited);
        file.close();
        const Run changed = run(bake + QStringList{"--resume"});
        QCOMPARE(changed.exitCode, 2);
        QVERIFY2(changed.err.contains("the scene changed: simulation.vorticity 0.25 -> 0.3"),
                 qPrintable(changed.err));
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(original);
        file.close();
        // A damaged checkpoint is never loaded.
        QFile checkpoint(out + "/.plume-bake/checkpoint.plumeckpt");
        QVERIFY(checkpoint.open(QIODevice::ReadWrite));
        const QByteArray bytes = checkpoint.readAll();
        checkpoint.seek(bytes.size() / 2);
        checkpoint.write(QByteArray(1, char(bytes[bytes.size() / 2] ^ 1)));
        checkpoint.close();
        const Run damaged = run(bake + QStringList{"--resume"});
        QCOMPARE(damaged.exitCode, 2);
        QVERIFY2(damaged.err.contains("the checkpoint is damaged"), qPrintable(damaged.err));
        QVERIFY(QFile::exists(out + "/.plume-bake/bake.json"));
    }

    // A write that fails (here the file size limit, as a full disk would) stops the bake with
    // exit code 1 and a message; the frames written stay complete and --resume finishes it.
    void fullDiskStopsResumably()
    {
        QTemporaryDir dir;
        const QString scene = smallScene(dir, "plume-3d", 32, 12);
        const QString ref = dir.filePath("ref"), out = dir.filePath("out");
        const QStringList bake{"bake", scene, "--checkpoint-every", "4", "-o"};
        QCOMPARE(run(bake + QStringList{ref}).exitCode, 0);
        // Frames (about 50 KiB) fit; the first checkpoint (about 500 KiB) does not.
        const Run full = runLimited("ulimit -f 200", bake + QStringList{out});
        QCOMPARE(full.exitCode, 1);
        QVERIFY2(full.err.contains("cannot write the checkpoint: File too large"),
                 qPrintable(full.err));
        QVERIFY2(full.err.contains("--resume continues"), qPrintable(full.err));
        const QStringList written = QDir(out).entryList(QDir::Files);
        QCOMPARE(written.size(), 4);
        for (const QString &f : written) {
            QFile a(QDir(ref).filePath(f)), b(QDir(out).filePath(f));
            QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
            QVERIFY2(a.readAll() == b.readAll(), qPrintable(f));
        }
        const Run resumed = run(bake + QStringList{out, "--resume"});
        QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.err));
        const QString diff = folderDifference(ref, out);
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
    }

    // A grid that will not fit is refused before anything is allocated or written, with the
    // figure needed and the figure available (exit code 3).
    void refusesGridBeyondMemory()
    {
#if defined(__SANITIZE_ADDRESS__)
        QSKIP("AddressSanitizer reserves terabytes of address space: under ulimit -v the "
              "sanitized plume-cli cannot start, so the limit cannot be tested here");
#endif
        QTemporaryDir dir;
        const QString scene = smallScene(dir, "plume-3d", 512, 10);
        const Run r = runLimited("ulimit -v 2000000", {"bake", scene, "-o", dir.filePath("out")});
        QCOMPARE(r.exitCode, 3);
        const QRegularExpression message(
            "cells need about [0-9.]+ GiB for the smoke scheme; only [0-9.]+ GiB is available "
            "\\(the address-space limit\\)");
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY(!QDir(dir.filePath("out")).exists());
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
