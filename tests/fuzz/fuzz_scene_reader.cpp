// SPDX-License-Identifier: Apache-2.0
// libFuzzer harness for the scene reader (docs/fuzzing.md): every input is read as a .plume
// file, with the same result on a thread that flushes denormals to zero; what the reader
// accepts goes where a hostile file goes next: the rasterizer's checks, rasterisation (small
// domains only, to keep each run short), and writing the scene back, which must read again as
// the same scene and write the same bytes. Image paths resolve
// against a fresh temporary folder holding only "mask.png" (written here, so image shapes are
// reachable); nothing outside it is named unless a file gives an absolute path or "..", and
// then the reader only checks that the file exists and has an image header.
#include <core/sim/base/parallel.h>

#include <core/io/scenereader.h>
#include <core/io/scenewriter.h>
#include <core/scene/rasterize.h>

#include <QByteArray>
#include <QCoreApplication>
#include <QDir>
#include <QImage>
#include <QTemporaryDir>

#if defined(__SSE__)
#include <xmmintrin.h>
#endif

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace plume;

namespace {

/// Domains up to this many cells are rasterised too (bigger ones only checked).
constexpr std::int64_t kRasterizeCells = 64 * 64;

QTemporaryDir *gDir = nullptr;

[[noreturn]] void fail(const char *what, const std::string &detail, const QByteArray &json)
{
    std::fprintf(stderr, "fuzz_scene_reader: %s\n%s\n--- written scene ---\n%s\n", what,
                 detail.c_str(), json.constData());
    std::abort();
}

template<class T>
void clearExtras(Animated<T> &a)
{
    a.extra = {};
    for (Key<T> &k : a.keys)
        k.extra = {};
}

/// The scene without the unknown keys kept from reading (see the round trip below).
Scene withoutExtras(Scene s)
{
    s.extra = {};
    s.domain.extra = s.domain.boundariesExtra = {};
    s.simulation.extra = s.simulation.pressureExtra = s.simulation.combustionExtra = {};
    s.exports.extra = s.exports.render.extra = s.exports.flipbook.extra = {};
    s.exports.images.extra = s.exports.openvdb.extra = {};
    for (Item &item : s.items) {
        item.extra = item.activeExtra = item.shape.extra = {};
        item.emitter.extra = item.force.extra = {};
        for (StrokePoint &p : item.shape.points)
            p.extra = {};
        clearExtras(item.offset);
        clearExtras(item.emitter.rate);
        clearExtras(item.force.strength);
    }
    return s;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    // The app and plume-cli read scenes with a QCoreApplication alive (locale, image plugins).
    static QCoreApplication app(*argc, *argv);
    // Qt's warnings about what a fuzzed file names ("Broken filename passed to function" for
    // a NUL in an image path) would flood the log; fatal messages still abort.
    qInstallMessageHandler([](QtMsgType type, const QMessageLogContext &, const QString &msg) {
        if (type == QtFatalMsg) {
            std::fprintf(stderr, "%s\n", qPrintable(msg));
            std::abort();
        }
    });
    gDir = new QTemporaryDir(QDir::tempPath() + "/plume-fuzz-XXXXXX");
    if (!gDir->isValid()) {
        std::fprintf(stderr, "fuzz_scene_reader: cannot create a temporary folder\n");
        std::exit(1);
    }
    std::atexit([] { delete gDir; });
    // A 5 x 3 mask with a gradient in colour and alpha: both channels give varied coverage.
    QImage mask(5, 3, QImage::Format_ARGB32);
    for (int y = 0; y < mask.height(); ++y) {
        for (int x = 0; x < mask.width(); ++x)
            mask.setPixel(x, y, qRgba(60 * x, 120 * y, 255, 255 - 50 * x));
    }
    if (!mask.save(gDir->filePath("mask.png"))) {
        std::fprintf(stderr, "fuzz_scene_reader: cannot write mask.png\n");
        std::exit(1);
    }
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const sim::SerialScope serial; // no TBB threads: one input, one thread, repeatable
    const std::string directory = gDir->path().toStdString();
    const QByteArray json(reinterpret_cast<const char *>(data), qsizetype(size));
    const SceneReadResult first = readSceneJson(json, QStringLiteral("fuzz.plume"), directory);
#if defined(__SSE__)
    {
        // Read on a thread that flushes denormals to zero (as solver kernels leave theirs), it
        // gives the same result.
        const unsigned int csr = _mm_getcsr();
        _mm_setcsr(csr | 0x8040u); // FTZ, DAZ
        const SceneReadResult flushed = readSceneJson(json, QStringLiteral("fuzz.plume"),
                                                      directory);
        _mm_setcsr(csr);
        if (flushed.ok != first.ok || flushed.error != first.error
            || (first.ok && !(flushed.scene == first.scene)))
            fail("reading with flush-to-zero on gives a different result",
                 first.error + " / " + flushed.error, {});
    }
#endif
    if (!first.ok) {
        if (first.error.rfind("fuzz.plume", 0) != 0)
            fail("an error that does not name the file", first.error, {});
        return 0;
    }
    const Scene &scene = first.scene;
    if (sim::Status s = checkScene(scene); !s)
        fail("the reader accepted a scene checkScene refuses", s.error, {});

    if (domainCells(scene.domain).volume() <= kRasterizeCells) {
#if defined(__SSE__)
        // Kernels turn on flush-to-zero for their thread; put it back, so that every input
        // starts in the same floating-point mode.
        const unsigned int csr = _mm_getcsr();
#endif
        SceneRasterizer raster;
        if (raster.setScene(scene)) {
            raster.update(double(scene.simulation.frameStart));
            raster.update(double(scene.simulation.frameEnd) + 0.5);
        }
#if defined(__SSE__)
        _mm_setcsr(csr);
#endif
    }

    // Written back, it reads again as the same scene and writes the same bytes. Unknown keys
    // are compared through the bytes only: the writer stores a few values it cannot keep
    // exactly in their nearest form (integers beyond 2^53 as doubles, lone UTF-16
    // surrogates as '?'), once, after which they are stable.
    const QByteArray written = sceneToJson(scene, directory);
    const SceneReadResult second = readSceneJson(written, QStringLiteral("fuzz.plume"), directory);
    if (!second.ok)
        fail("the written scene does not read back", second.error, written);
    if (!(withoutExtras(second.scene) == withoutExtras(scene)))
        fail("the written scene reads back as a different scene", "", written);
    const QByteArray again = sceneToJson(second.scene, directory);
    if (again != written)
        fail("writing the re-read scene gives different bytes", again.toStdString(), written);
    return 0;
}
