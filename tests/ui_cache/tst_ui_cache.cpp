// SPDX-License-Identifier: Apache-2.0
// The app's frame cache, disk spill and autosave: frame files round-trip byte for byte and
// refuse other tags, frame numbers and damage; the cache spills its lowest frames past the
// memory budget and reads them back unchanged, deletes past the disk budget (frame 0 stays)
// and on invalidation and clearing; session folders of dead Plumes are removed; the window
// spills a 3D scene beside its file and shows every slice of an old frame; autosave writes a
// recovery file while modified, removes it when saved, and a crashed session's file is offered
// and restored as modified with its original path.
#include <core/io/scenereader.h>
#include <ui/document/document.h>
#include <ui/document/undocommands.h>
#include <ui/mainwindow/autosave.h>
#include <ui/mainwindow/mainwindow.h>
#include <ui/mainwindow/preferencesdialog.h>
#include <ui/simulation/framecache.h>
#include <ui/simulation/framefile.h>
#include <ui/simulation/simulationcontroller.h>
#include <ui/simulation/simulationrunner.h>
#include <ui/simulation/spillfolder.h>
#include <ui/viewport/sliceframe.h>

#include <QApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLockFile>
#include <QMessageBox>
#include <QPushButton>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include <cmath>
#include <cstring>

using namespace plume;

namespace {

constexpr std::size_t kMiB = std::size_t(1) << 20;

bool sameField(const sim::ScalarGrid &a, const sim::ScalarGrid &b)
{
    return a.size() == b.size() && a.count() == b.count() && a.offset().x == b.offset().x
           && a.offset().y == b.offset().y && a.offset().z == b.offset().z
           && (a.count() == 0 || std::memcmp(a.data(), b.data(), a.count() * sizeof(float)) == 0);
}

/// Every field, slice, solid cell and number of two frames are the same bytes (but the
/// milliseconds per step, without `timing`).
QString differences(const FrameData &a, const FrameData &b, bool timing = true)
{
    QStringList out;
    const sim::Domain &p = a.domain, &q = b.domain;
    if (a.frame != b.frame || a.time != b.time || !(p.cells == q.cells) || p.cellSize != q.cellSize
        || p.origin.x != q.origin.x || p.origin.y != q.origin.y || p.origin.z != q.origin.z
        || p.boundaries != q.boundaries)
        out << "frame, time or domain";
    if ((timing && a.msPerStep != b.msPerStep) || a.activeShare != b.activeShare
        || a.substeps != b.substeps || a.pressureIterations != b.pressureIterations
        || a.pressureResidual != b.pressureResidual || a.pressureTrouble != b.pressureTrouble)
        out << "solver numbers";
    for (int f = 0; f < int(DisplayField::Count); ++f) {
        if (!sameField(a.fields[f], b.fields[f]))
            out << QString("slice %1").arg(f);
        if (a.minimum[f] != b.minimum[f] || a.maximum[f] != b.maximum[f])
            out << QString("range %1").arg(f);
    }
    if (!(a.solids == b.solids))
        out << "slice solids";
    if (a.particles != b.particles || a.particleRadius != b.particleRadius
        || a.maxParticleSpeed != b.maxParticleSpeed)
        out << "particles";
    if (bool(a.volume) != bool(b.volume))
        out << "volume presence";
    else if (a.volume) {
        for (int f = 0; f < int(DisplayField::Count); ++f)
            if (!sameField(a.volume->fields[f], b.volume->fields[f]))
                out << QString("volume %1").arg(f);
        if (!(a.volume->solids == b.volume->solids))
            out << "volume solids";
    }
    return out.join(", ");
}

/// A 3D frame (or 2D with n.z == 1) whose fields depend on `seed`: smoke in a ball, zeros
/// elsewhere (as smoke is), a solid column, dye, no combustion, every slice cut as capture does.
FramePtr makeFrame(sim::Int3 n, int number, float seed)
{
    auto frame = std::make_shared<FrameData>();
    frame->frame = number;
    frame->time = number / 24.0;
    frame->domain.cells = n;
    frame->domain.cellSize = 1.f / float(n.x);
    frame->domain.boundaries[3] = sim::Boundary::Open;
    frame->msPerStep = 3.25 + seed;
    frame->activeShare = 0.125 * (1 + number % 8);
    frame->substeps = 2;
    frame->pressureIterations = 40 + number;
    frame->pressureResidual = 1e-5 * seed;
    frame->pressureTrouble = number % 2 ? "" : "slow";
    std::shared_ptr<FrameVolume> volume = n.z > 1 ? std::make_shared<FrameVolume>() : nullptr;
    for (int f = 0; f < int(DisplayField::Count); ++f) {
        const DisplayField field = DisplayField(f);
        if (field == DisplayField::Fuel || field == DisplayField::Flame)
            continue;
        sim::ScalarGrid g(n, sim::kCellCentre);
        for (int k = 0; k < n.z; ++k)
            for (int j = 0; j < n.y; ++j)
                for (int i = 0; i < n.x; ++i) {
                    const float r = std::hypot(i - n.x / 2.f, j - n.y / 3.f, k - n.z / 2.f);
                    if (r < n.x / 3.f)
                        g(i, j, k) = std::sin(seed + 0.3f * i + 0.7f * j + 1.1f * k + f);
                }
        frame->minimum[f] = -1.f;
        frame->maximum[f] = float(f) + seed;
        if (volume) {
            sim::ScalarGrid slice({n.x, n.y, 1}, sim::kCellCentre);
            std::copy_n(g.data() + g.strideZ() * (n.z / 2), g.strideZ(), slice.data());
            frame->fields[f] = std::move(slice);
            volume->fields[f] = std::move(g);
        } else {
            frame->fields[f] = std::move(g);
        }
    }
    sim::FlagGrid solids(n);
    for (int k = 0; k < n.z; ++k)
        solids.setSolid(2, 3, k, true);
    frame->solids.reshape({n.x, n.y, 1});
    frame->solids.setSolid(2, 3, 0, true);
    // The sph scheme's particles (x, y, z, speed), on odd frames.
    if (number % 2) {
        for (int p = 0; p < 50; ++p)
            frame->particles.insert(frame->particles.end(),
                                    {0.01f * p, 0.5f + seed, 0.f, 0.02f * float(p)});
        frame->particleRadius = 0.01f;
        frame->maxParticleSpeed = 0.98f;
    }
    if (volume) {
        volume->solids = solids;
        frame->volume = volume;
    }
    return frame;
}

int filesIn(const QString &folder, const QString &pattern = "*.plf")
{
    int count = 0;
    QDirIterator it(folder, {pattern}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        ++count;
    }
    return count;
}

/// Clicks the button with `text` in the next message box; stores its text.
void answerNextDialog(const QString &text, QString *shown)
{
    QTimer::singleShot(50, [text, shown] {
        auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
        if (!box) {
            answerNextDialog(text, shown);
            return;
        }
        *shown = box->text();
        for (QAbstractButton *b : box->buttons())
            if (b->text().remove('&') == text) {
                b->click();
                return;
            }
        box->reject();
    });
}

/// A lock file as a Plume that crashed leaves it: a process id that does not run.
void writeDeadLock(const QString &path)
{
    QFile lock(path);
    QVERIFY(lock.open(QIODevice::WriteOnly));
    lock.write("999999999\nplume\n\n");
}

/// A session that "crashed" in `folder`: the default scene saved at `original`, then renamed
/// without saving; its recovery files stay and their lock names a dead process. Returns the
/// edited scene.
Scene leaveCrashedSession(const QString &folder, const QString &original)
{
    Document doc;
    SceneReadResult r = readSceneFile(PLUME_SOURCE_DIR "/resources/scenes/plume-2d.plume");
    if (!r.ok)
        qFatal("%s", r.error.c_str());
    doc.reset(r.scene, {});
    if (!doc.save(original))
        qFatal("cannot save %s", qPrintable(original));
    doc.undoStack()->push(new ChangeValue<values::SceneName>(&doc, -1, "unsaved work"));
    AutoSave session(&doc, nullptr, folder);
    if (!session.saveNow())
        qFatal("no recovery file");
    const QString base = QString(session.recoveryPath()).chopped(6);
    for (const char *ext : {".plume", ".json"})
        if (!QFile::copy(base + ext, folder + "/crashed" + ext))
            qFatal("cannot copy the recovery file");
    writeDeadLock(folder + "/crashed.lock");
    return doc.scene();
}

/// plume-3d at 24 cells and 8 frames, written into `dir`; its path.
QString writeSmall3dScene(const QTemporaryDir &dir)
{
    QFile in(PLUME_SOURCE_DIR "/resources/scenes/plume-3d.plume");
    if (!in.open(QIODevice::ReadOnly))
        return {};
    QString text = QString::fromUtf8(in.readAll());
    text.replace("\"frameEnd\": 96", "\"frameEnd\": 8");
    text.replace("\"resolution\": 64", "\"resolution\": 24");
    QFile out(dir.filePath("small-3d.plume"));
    if (!out.open(QIODevice::WriteOnly) || out.write(text.toUtf8()) < 0)
        return {};
    return out.fileName();
}

/// A runner of `scene` with a checkpoint every `interval` frames (0: none), playing to `end`;
/// then an obstacle appears at frame `edit` and it plays to `end` again. Keeps every frame after
/// the edit and the frames simulated for the second part.
struct EditRun
{
    std::vector<FramePtr> frames; ///< by frame number
    int simulatedAfterEdit = 0;
    std::vector<int> checkpoints; ///< before the edit
};

EditRun runWithEdit(const Scene &scene, int interval, int edit, int end)
{
    EditRun out;
    auto cache = std::make_shared<FrameCache>(std::size_t(1) << 30, 0);
    SimulationRunner runner(cache);
    runner.setCheckpoints(interval, 64 * kMiB);
    int head = 0;
    QObject::connect(&runner, &SimulationRunner::headChanged, [&](int f) { head = f; });
    runner.load(scene);
    runner.setFrameEnd(end);
    runner.play();
    if (!QTest::qWaitFor([&] { return head == end; }, 120000))
        return out;
    out.checkpoints = runner.checkpointFrames();
    Scene edited = scene;
    Item wall;
    wall.name = "late wall";
    wall.kind = ItemKind::Obstacle;
    wall.shape.type = ShapeType::Sphere;
    wall.shape.centre = {0.5f, 0.6f, 0.5f};
    wall.shape.radius = 0.08f;
    edited.items.push_back(wall);
    const int before = runner.framesSimulated();
    runner.setScene(edited, edit);
    runner.play();
    if (!QTest::qWaitFor([&] { return head == end; }, 120000))
        return out;
    out.simulatedAfterEdit = runner.framesSimulated() - before;
    for (int f = 0; f <= end; ++f)
        out.frames.push_back(cache->at(f));
    return out;
}

} // namespace

class TestUiCache : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("Plume");
        QCoreApplication::setApplicationName("tst_ui_cache");
        QDir(AutoSave::defaultFolder()).removeRecursively();
        QDir(QStandardPaths::writableLocation(QStandardPaths::CacheLocation)).removeRecursively();
        QSettings().clear();
    }

    // A frame file gives back the same bytes, 3D (slices cut again from the volume) and 2D;
    // another tag or frame number, truncation or a wrong magic number gives no frame.
    void frameFileRoundTrip()
    {
        for (sim::Int3 n : {sim::Int3{12, 10, 8}, sim::Int3{16, 12, 1}}) {
            const FramePtr frame = makeFrame(n, 7, 0.5f);
            const QByteArray bytes = encodeFrame(*frame, 42);
            QVERIFY(!bytes.isEmpty());
            const FramePtr back = decodeFrame(bytes, 42, 7);
            QVERIFY(back);
            QCOMPARE(differences(*frame, *back), QString());
            std::string error;
            QVERIFY(!decodeFrame(bytes, 43, 7, &error));
            QVERIFY2(error.find("another scene") != std::string::npos, error.c_str());
            QVERIFY(!decodeFrame(bytes, 42, 8));
            for (qsizetype cut : {qsizetype(3), qsizetype(40), bytes.size() / 2, bytes.size() - 1})
                QVERIFY2(!decodeFrame(bytes.first(cut), 42, 7), qPrintable(QString::number(cut)));
            QVERIFY(!decodeFrame(bytes + '\0', 42, 7));
            QByteArray bad = bytes;
            bad[0] ^= 0xff;
            error.clear();
            QVERIFY(!decodeFrame(bad, 42, 7, &error));
            QVERIFY2(error.find("not a Plume frame") != std::string::npos, error.c_str());
        }
        // Smoke's empty space compresses: half the raw size or less here.
        const FramePtr frame = makeFrame({32, 32, 32}, 1, 0.f);
        const std::size_t raw = frame->volume->bytes();
        const std::size_t packed = std::size_t(encodeFrame(*frame, 1).size());
        QVERIFY2(packed * 2 < raw, qPrintable(QString("%1 of %2").arg(packed).arg(raw)));
    }

    // Past the memory budget the lowest frames spill (the newest stays), files appear in the
    // session folder, and every frame reads back with the same bytes.
    void spillsAndReadsBack()
    {
        QTemporaryDir dir;
        const sim::Int3 n{16, 16, 16};
        std::vector<FramePtr> frames;
        for (int f = 0; f < 10; ++f)
            frames.push_back(makeFrame(n, f, 0.1f * f));
        const std::size_t frameBytes = frames[0]->bytes();
        FrameCache cache(3 * frameBytes + frameBytes / 2, 64 * kMiB);
        auto folder = std::make_shared<SpillFolder>(dir.filePath("scene.plume-cache"));
        cache.setSpillFolder(folder);
        for (const FramePtr &f : frames)
            cache.insert(f);
        const CacheUsage u = cache.usage();
        QCOMPARE(u.frames, 10);
        QCOMPARE(u.onDisk, 7);
        QVERIFY(u.memoryBytes <= 3 * frameBytes + frameBytes / 2);
        QVERIFY(u.diskBytes > 0);
        QCOMPARE(filesIn(folder->path()), 7);
        QVERIFY(QFile::exists(folder->path() + ".lock"));
        for (int f = 0; f < 10; ++f) {
            QCOMPARE(cache.inMemory(f), f >= 7);
            const FramePtr back = cache.at(f);
            QVERIFY2(back, qPrintable(QString::number(f)));
            QCOMPARE(differences(*frames[std::size_t(f)], *back), QString());
        }
        // A prefetch reads on a pool thread; at() waits for it and then returns what it read.
        cache.prefetch(1);
        const FramePtr prefetched = cache.at(1);
        QVERIFY(prefetched);
        QCOMPARE(differences(*frames[1], *prefetched), QString());
        QCOMPARE(cache.at(1), prefetched); // read once
        cache.prefetch(8);                 // in memory: nothing to do
        QCOMPARE(cache.at(8), frames[8]);
        // The frames a viewer still holds stay valid after the cache lets go of them.
        const FramePtr held = cache.at(2);
        // A file replaced under the cache by another frame's is refused, not shown.
        const QString path3 = QDir(folder->path()).entryList({"frame-3-*"}).value(0);
        const QString path4 = QDir(folder->path()).entryList({"frame-4-*"}).value(0);
        QVERIFY(!path3.isEmpty() && !path4.isEmpty());
        QFile::remove(folder->path() + "/" + path3);
        QVERIFY(QFile::copy(folder->path() + "/" + path4, folder->path() + "/" + path3));
        QVERIFY(!cache.at(3));
        // Invalidation deletes the files after the frame; clearing deletes them all.
        cache.invalidateAfter(5);
        QCOMPARE(cache.count(), 6);
        QCOMPARE(filesIn(folder->path()), 6);
        QVERIFY(!cache.at(6));
        cache.clear();
        QCOMPARE(cache.count(), 0);
        QCOMPARE(filesIn(folder->path()), 0);
        QCOMPARE(cache.usage().diskBytes, std::size_t(0));
        QCOMPARE(differences(*frames[2], *held), QString());
        // The folder goes with the last owner, and its parent when empty.
        folder.reset();
        cache.setSpillFolder(nullptr);
        QVERIFY(!QFileInfo::exists(dir.filePath("scene.plume-cache")));
    }

    // Past the disk budget the lowest spilled frames go for good, frame 0 stays; without a disk
    // budget frames past the memory budget are dropped, frame 0 kept.
    void budgetsDropOldestKeepFrameZero()
    {
        QTemporaryDir dir;
        const sim::Int3 n{16, 16, 16};
        const std::size_t frameBytes = makeFrame(n, 0, 0.f)->bytes();
        const std::size_t fileBytes = std::size_t(encodeFrame(*makeFrame(n, 0, 0.f), 1).size());
        {
            FrameCache cache(2 * frameBytes + frameBytes / 2, 3 * fileBytes + fileBytes / 2);
            cache.setSpillFolder(std::make_shared<SpillFolder>(dir.filePath("a")));
            for (int f = 0; f < 10; ++f)
                cache.insert(makeFrame(n, f, 0.f));
            // Memory: 8, 9. Disk: 0 and the newest spilled two (6, 7); 1 to 5 dropped.
            for (int f = 0; f < 10; ++f)
                QCOMPARE(cache.contains(f), f == 0 || f >= 6);
            QVERIFY(cache.usage().diskBytes <= 3 * fileBytes + fileBytes / 2);
            QVERIFY(cache.at(0) && cache.at(6));
        }
        {
            FrameCache cache(2 * frameBytes + frameBytes / 2, 0);
            cache.setSpillFolder(std::make_shared<SpillFolder>(dir.filePath("b")));
            for (int f = 0; f < 10; ++f)
                cache.insert(makeFrame(n, f, 0.f));
            for (int f = 0; f < 10; ++f)
                QCOMPARE(cache.contains(f), f == 0 || f == 9);
            QVERIFY(!QFileInfo::exists(dir.filePath("b")));
        }
        QVERIFY(!QFileInfo::exists(dir.filePath("a")));
        // Smaller budgets act at the next trim.
        FrameCache cache(100 * frameBytes, 0);
        for (int f = 0; f < 5; ++f)
            cache.insert(makeFrame(n, f, 0.f));
        QCOMPARE(cache.count(), 5);
        cache.setBudgets(frameBytes, 0);
        cache.trim();
        QCOMPARE(cache.count(), 2); // 0 and the newest
    }

    // Session folders whose Plume died go when a new session starts in the same parent; live
    // ones (their lock held) stay.
    void staleSessionsAreRemoved()
    {
        QTemporaryDir dir;
        const QString parent = dir.filePath("scene.plume-cache");
        SpillFolder live(parent);
        QVERIFY(live.write("x.plf", "123"));
        QVERIFY(QDir().mkpath(parent + "/session-dead"));
        QFile(parent + "/session-dead/frame-1-1.plf").open(QIODevice::WriteOnly);
        writeDeadLock(parent + "/session-dead.lock");
        QVERIFY(QDir().mkpath(parent + "/session-nolock"));
        QCOMPARE(SpillFolder::removeStaleSessions(parent), 2);
        QVERIFY(!QFileInfo::exists(parent + "/session-dead"));
        QVERIFY(!QFileInfo::exists(parent + "/session-dead.lock"));
        QVERIFY(!QFileInfo::exists(parent + "/session-nolock"));
        QCOMPARE(live.read("x.plf").value(), QByteArray("123"));
        // A new session cleans up as it is made, before it writes anything.
        QVERIFY(QDir().mkpath(parent + "/session-dead"));
        writeDeadLock(parent + "/session-dead.lock");
        SpillFolder next(parent);
        QVERIFY(!QFileInfo::exists(parent + "/session-dead"));
        QVERIFY(QFileInfo::exists(live.path() + "/x.plf"));
        // Beside a saved scene in a writable folder; in the user's cache folder otherwise.
        QCOMPARE(spillParentFor(dir.filePath("a.plume")), dir.filePath("a.plume-cache"));
        const QString cache = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
        QCOMPARE(spillParentFor(""), cache + "/frames");
        QCOMPARE(spillParentFor(":/scenes/plume-2d.plume"), cache + "/frames");
    }

    // The window on a saved 3D scene with a small memory budget: frames spill beside the scene,
    // an old frame shows every slice and its volume, Clear Cache deletes the files, and the
    // folder goes with the window.
    void windowSpillsBesideScene()
    {
        QTemporaryDir dir;
        const QString path = writeSmall3dScene(dir);
        QVERIFY(!path.isEmpty());
        {
            MainWindow window;
            window.show();
            SimulationController *sim = window.simulation();
            CacheSettings settings = sim->cacheSettings();
            settings.memoryBytes = kMiB; // three frames of 16 x 24 x 16 cells
            settings.diskBytes = 256 * kMiB;
            sim->setCacheSettings(settings);
            QVERIFY(window.openFile(path));
            QTRY_VERIFY_WITH_TIMEOUT(sim->headFrame() == 8, 60000);
            sim->pause();
            QVERIFY(sim->spillFolder().startsWith(path + "-cache/session-"));
            QTRY_VERIFY(filesIn(path + "-cache") > 0);
            const CacheUsage u = sim->cacheUsage();
            QVERIFY2(u.onDisk >= 4, qPrintable(QString::number(u.onDisk)));
            auto *label = window.findChild<QLabel *>("cacheLabel");
            // The label follows the cache on the window's timer (and a slow build may have
            // simulated a frame more before the pause took): wait for it to show the count.
            QTRY_VERIFY(label->text().contains("on disk"));
            QTRY_VERIFY2(label->text().startsWith(
                             QString("cache: %1 frames").arg(sim->cacheUsage().frames)),
                         qPrintable(label->text()));
            QVERIFY(sim->cacheUsage().frames >= 9);
            sim->scrub(1);
            const FramePtr old = sim->currentFrame();
            QVERIFY(old && old->frame == 1 && old->volume);
            for (int axis = 0; axis < 3; ++axis) {
                FrameData slice;
                QVERIFY(sliceFrame(*old, {axis, 0.3f}, slice));
                QVERIFY(slice.field(DisplayField::Density).count() > 0);
            }
            window.action("actionClearCache")->trigger();
            QTRY_COMPARE(filesIn(path + "-cache"), 0);
            QTRY_COMPARE(sim->cacheUsage().frames, 1);
        }
        QVERIFY(!QFileInfo::exists(path + "-cache"));
    }

    // An edit at frame 80 of 100 resumes from the checkpoint at 80 (20 frames simulated, not
    // 100), one at 85 from 80 too (5 replayed, 15 new), and every frame after the edit has the
    // bytes of the replay from frame 0 (no checkpoints). A small budget thins the checkpoints out
    // over the range, the newest kept.
    void checkpointsResumeExactly()
    {
        SceneReadResult r = readSceneFile(PLUME_SOURCE_DIR "/resources/scenes/plume-2d.plume");
        QVERIFY(r.ok);
        r.scene.domain.resolution = 32;
        const EditRun replay = runWithEdit(r.scene, 0, 80, 100);
        QCOMPARE(replay.simulatedAfterEdit, 100);
        QVERIFY(replay.checkpoints.empty());
        for (int edit : {80, 85}) {
            const EditRun resumed = runWithEdit(r.scene, 10, edit, 100);
            QCOMPARE(resumed.checkpoints,
                     (std::vector<int>{10, 20, 30, 40, 50, 60, 70, 80, 90, 100}));
            QCOMPARE(resumed.simulatedAfterEdit, 100 - 80);
            const EditRun reference = edit == 80 ? replay : runWithEdit(r.scene, 0, edit, 100);
            QCOMPARE(int(resumed.frames.size()), 101);
            for (int f = 0; f <= 100; ++f) {
                QVERIFY2(resumed.frames[f] && reference.frames[f], qPrintable(QString::number(f)));
                const QString diff = differences(*resumed.frames[f], *reference.frames[f], false);
                QVERIFY2(diff.isEmpty(),
                         qPrintable(
                             QString("frame %1, edit at %2: %3").arg(f).arg(edit).arg(diff)));
            }
            // The obstacle is there from the frame after the edit.
            QVERIFY(!(resumed.frames[edit]->solids == resumed.frames[edit + 1]->solids));
        }
    }

    // Past the checkpoint budget, the one with the closest neighbours goes (the newest stays):
    // what is left spreads over the range.
    void checkpointBudgetThinsOut()
    {
        SceneReadResult r = readSceneFile(PLUME_SOURCE_DIR "/resources/scenes/plume-2d.plume");
        QVERIFY(r.ok);
        r.scene.domain.resolution = 32;
        auto cache = std::make_shared<FrameCache>();
        SimulationRunner runner(cache);
        runner.setCheckpoints(5, 64 * kMiB);
        int head = 0;
        connect(&runner, &SimulationRunner::headChanged, this, [&](int f) { head = f; });
        runner.load(r.scene);
        runner.setFrameEnd(10);
        runner.play();
        QTRY_COMPARE_WITH_TIMEOUT(head, 10, 60000);
        QCOMPARE(runner.checkpointCount(), 2);
        const std::size_t one = runner.checkpointBytes() / 2;
        runner.setCheckpoints(5, 5 * one + one / 2);
        runner.setFrameEnd(50);
        runner.play();
        QTRY_COMPARE_WITH_TIMEOUT(head, 50, 60000);
        const std::vector<int> kept = runner.checkpointFrames();
        QVERIFY(kept.size() >= 3 && kept.size() <= 5);
        QCOMPARE(kept.back(), 50);
        for (std::size_t n = 1; n < kept.size(); ++n)
            QVERIFY2(kept[n] - kept[n - 1] <= 20, qPrintable(QString::number(kept[n])));
        QVERIFY(kept.front() <= 20);
        QVERIFY(runner.checkpointBytes() <= 5 * one + one / 2);
        runner.reset();
        QCOMPARE(runner.checkpointCount(), 0);
        QCOMPARE(runner.checkpointBytes(), std::size_t(0));
    }

    // Defaults come from physical memory (a quarter for frames, a sixteenth for checkpoints,
    // clamped); stored preferences come back; the dialog shows and returns them, and Restore
    // Defaults puts the machine's defaults back.
    void settingsAndPreferencesDialog()
    {
        const CacheSettings d = CacheSettings::defaults();
        const std::size_t memory = std::size_t(physicalMemoryBytes());
        QVERIFY(memory > 0);
        QCOMPARE(d.memoryBytes, std::clamp(memory / 4, 512 * kMiB, std::size_t(32) << 30));
        QCOMPARE(d.checkpointBytes, std::clamp(memory / 16, 256 * kMiB, std::size_t(8) << 30));
        QCOMPARE(d.checkpointInterval, 10);
        QCOMPARE(CacheSettings::load(), d);
        const CacheSettings mine{300 * kMiB, 2000 * kMiB, 7, 100 * kMiB};
        mine.store();
        QCOMPARE(CacheSettings::load(), mine);
        PreferencesDialog dialog(mine);
        QCOMPARE(dialog.settings(), mine);
        dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::RestoreDefaults)->click();
        QCOMPARE(dialog.settings().checkpointInterval, 10);
        QCOMPARE(dialog.settings().diskBytes, d.diskBytes);
        QSettings().remove("cache");
        QCOMPARE(CacheSettings::load(), d);
    }

    // Autosave writes the scene and a manifest while modified, only after a change, and removes
    // them once the document is saved (or undone to its file).
    void autosaveWritesWhileModified()
    {
        QTemporaryDir dir;
        const QString folder = dir.filePath("recovery");
        Document doc;
        SceneReadResult r = readSceneFile(PLUME_SOURCE_DIR "/resources/scenes/plume-2d.plume");
        QVERIFY(r.ok);
        const QString original = dir.filePath("scene.plume");
        QVERIFY(doc.save(original));
        AutoSave autoSave(&doc, nullptr, folder);
        autoSave.setInterval(20);
        QTest::qWait(100);
        QVERIFY(!QFileInfo::exists(autoSave.recoveryPath())); // not modified
        doc.undoStack()->push(new ChangeValue<values::SceneName>(&doc, -1, "edited"));
        QTRY_VERIFY(QFileInfo::exists(autoSave.recoveryPath()));
        const QDateTime first = QFileInfo(autoSave.recoveryPath()).lastModified();
        // Running sessions' files are not orphans.
        QVERIFY(AutoSave::orphans(folder).empty());
        QFile manifest(QString(autoSave.recoveryPath()).replace(".plume", ".json"));
        QVERIFY(manifest.open(QIODevice::ReadOnly));
        QVERIFY(manifest.readAll().contains(original.toUtf8()));
        QTest::qWait(100);
        QCOMPARE(QFileInfo(autoSave.recoveryPath()).lastModified(), first); // nothing changed
        Recovery rec;
        rec.scenePath = autoSave.recoveryPath();
        rec.directory = dir.path();
        Scene back;
        QString error;
        QVERIFY2(AutoSave::read(rec, back, &error), qPrintable(error));
        QVERIFY(back == doc.scene());
        doc.undoStack()->undo();
        QVERIFY(!QFileInfo::exists(autoSave.recoveryPath()));
        doc.undoStack()->redo();
        QTRY_VERIFY(QFileInfo::exists(autoSave.recoveryPath()));
        QVERIFY(doc.save(original));
        QVERIFY(!QFileInfo::exists(autoSave.recoveryPath()));
        QCOMPARE(QDir(folder).entryList(QDir::Files), QStringList());
    }

    // At start the scene asked for opens at once; what a crashed session left is offered
    // afterwards, over it (naming it as what Restore would replace), and Discard keeps it open.
    void startOpensTheSceneFirstThenOffersRecovery()
    {
        QTemporaryDir dir;
        const QString folder = AutoSave::defaultFolder();
        leaveCrashedSession(folder, dir.filePath("crashed-work.plume"));
        QCOMPARE(AutoSave::orphans(folder).size(), std::size_t(1));
        const QString asked = writeSmall3dScene(dir);
        QVERIFY(!asked.isEmpty());
        MainWindow window;
        window.show();
        QString shown;
        answerNextDialog("Discard", &shown);
        window.start(asked);
        // Open before any question: the start-up does not wait for the answer.
        QCOMPARE(window.document()->filePath(), QFileInfo(asked).absoluteFilePath());
        QVERIFY(shown.isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty(), 30000);
        QVERIFY2(shown.contains("did not quit cleanly") && shown.contains("crashed-work.plume"),
                 qPrintable(shown));
        QCOMPARE(window.document()->filePath(), QFileInfo(asked).absoluteFilePath());
        QVERIFY(!window.document()->isModified());
        QVERIFY(AutoSave::orphans(folder).empty());
        window.simulation()->pause();
    }

    // A crashed session's recovery file (its lock's process gone) is offered at start; Restore
    // opens it modified with the original path and takes the file over; Discard deletes it;
    // a clean quit leaves nothing.
    void crashedSessionIsOfferedAndRestored()
    {
        QTemporaryDir dir;
        const QString folder = AutoSave::defaultFolder();
        const QString original = dir.filePath("scene.plume");
        Scene edited;
        edited = leaveCrashedSession(folder, original);
        QCOMPARE(AutoSave::orphans(folder).size(), std::size_t(1));
        {
            MainWindow window;
            window.show();
            QString shown;
            answerNextDialog("Restore", &shown);
            QVERIFY(window.offerRecovery());
            QVERIFY2(shown.contains("did not quit cleanly") && shown.contains("scene.plume"),
                     qPrintable(shown));
            Document *doc = window.document();
            QCOMPARE(doc->filePath(), original);
            QVERIFY(doc->isModified());
            QVERIFY(window.isWindowModified());
            QVERIFY(doc->scene() == edited);
            // Taken over: the crashed files are gone, this session's recovery file holds it.
            QVERIFY(!QFileInfo::exists(folder + "/crashed.plume"));
            QVERIFY(QFileInfo::exists(window.autoSave()->recoveryPath()));
            QVERIFY(AutoSave::orphans(folder).empty());
            window.simulation()->pause();
            answerNextDialog("Discard", &shown); // the unsaved-changes question
            QVERIFY(window.close());
            QVERIFY(!QFileInfo::exists(window.autoSave()->recoveryPath()));
        }
        QCOMPARE(QDir(folder).entryList(QDir::Files), QStringList());
        // Discard deletes the files and opens nothing.
        QVERIFY(QFile(folder + "/gone.json").open(QIODevice::WriteOnly));
        QVERIFY(QFile(folder + "/gone.plume").open(QIODevice::WriteOnly));
        MainWindow window;
        QString shown;
        answerNextDialog("Discard", &shown);
        QVERIFY(!window.offerRecovery());
        QCOMPARE(QDir(folder).entryList(QDir::Files), QStringList());
    }
};

QTEST_MAIN(TestUiCache)
#include "tst_ui_cache.moc"
