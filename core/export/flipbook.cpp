#include "flipbook.h"

#include "frameimage.h"

#include <sim/parallel.h>

#include <QColor>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace plume {

QImage assembleAtlas(const std::vector<QImage> &frames, const AtlasLayout &layout, QRgba64 empty)
{
    const QImage::Format format = frames.empty() ? QImage::Format_RGBA8888 : frames[0].format();
    QImage atlas(layout.width(), layout.height(), format);
    atlas.fill(QColor::fromRgba64(empty));
    const int bpp = atlas.depth() / 8;
    const int count = std::min(int(frames.size()), layout.rows * layout.columns);
    const int w = layout.frameWidth, h = layout.frameHeight, pad = layout.padding;
    // Each atlas row copies from one frame row: clamping the source gives edge dilation.
    sim::forEachRow(sim::Int3{layout.width(), layout.height(), 1}, [&](int y, int) {
        const int row = y / layout.tileHeight();
        const int sy = std::clamp(y - row * layout.tileHeight() - pad, 0, h - 1);
        uchar *out = atlas.scanLine(y);
        for (int col = 0; col < layout.columns; ++col) {
            const int n = row * layout.columns + col;
            if (n >= count)
                break;
            const uchar *in = frames[std::size_t(n)].constScanLine(sy);
            uchar *tile = out + std::size_t(col) * layout.tileWidth() * bpp;
            for (int x = 0; x < layout.tileWidth(); ++x) {
                const int sx = std::clamp(x - pad, 0, w - 1);
                std::memcpy(tile + std::size_t(x) * bpp, in + std::size_t(sx) * bpp,
                            std::size_t(bpp));
            }
        }
    });
    return atlas;
}

sim::Status selectFlipbookFrames(const FlipbookSettings &settings, int first, int last,
                                 std::vector<int> &frames, int &step)
{
    frames.clear();
    const int tiles = settings.rows * settings.columns;
    const int loop = std::max(settings.loopFrames, 0);
    const int span = last - first + 1;
    if (span < 1 || tiles < 1)
        return sim::Status::failure("flipbook: no frames in " + std::to_string(first) + ":"
                                    + std::to_string(last));
    const int fit = tiles + loop; // frames to select before the loop consumes `loop`
    step = settings.step > 0 ? settings.step : std::max(1, (span + fit - 1) / fit);
    for (int f = first; f <= last; f += step)
        frames.push_back(f);
    const int count = int(frames.size());
    if (count - loop > tiles)
        return sim::Status::failure(
            "flipbook: " + std::to_string(count) + " frames (" + std::to_string(first) + ":"
            + std::to_string(last) + " step " + std::to_string(step) + ") minus "
            + std::to_string(loop) + " loop frames do not fit " + std::to_string(settings.rows)
            + " x " + std::to_string(settings.columns) + " tiles; raise the step or the layout");
    if (count - loop < 1)
        return sim::Status::failure("flipbook: " + std::to_string(loop)
                                    + " loop frames need at "
                                      "least "
                                    + std::to_string(loop + 1)
                                    + " selected frames, "
                                      "got "
                                    + std::to_string(count));
    return sim::Status::success();
}

std::vector<RenderedFrame> blendLoop(std::vector<RenderedFrame> frames, int loopFrames)
{
    const int m = int(frames.size());
    const int n = std::clamp(loopFrames, 0, m - 1);
    for (int i = 0; i < n; ++i) {
        RenderedFrame &head = frames[std::size_t(i)];
        const RenderedFrame &tail = frames[std::size_t(m - n + i)];
        const float w = float(i + 1) / float(n + 1); // weight of the head frame
        const std::size_t pixels = head.pixels();
        sim::forEachIndex(std::int64_t(pixels), [&](std::int64_t p) {
            const float ah = head.color[4 * p + 3], at = tail.color[4 * p + 3];
            if (head.hasMotion && tail.hasMotion) {
                const float wh = w * ah, wt = (1.f - w) * at;
                for (int c = 0; c < 2; ++c) {
                    const float mh = head.motion[2 * p + c], mt = tail.motion[2 * p + c];
                    head.motion[2 * p + c] = wh + wt > 0.f ? (wh * mh + wt * mt) / (wh + wt) : 0.f;
                }
            }
            for (int c = 0; c < 4; ++c)
                head.color[4 * p + c] = w * head.color[4 * p + c]
                                        + (1.f - w) * tail.color[4 * p + c];
            for (int c = 0; c < 3; ++c)
                head.emission[3 * p + c] = w * head.emission[3 * p + c]
                                           + (1.f - w) * tail.emission[3 * p + c];
        });
    }
    frames.resize(std::size_t(m - n));
    return frames;
}

float autoMotionRange(const std::vector<RenderedFrame> &frames)
{
    float largest = 0.f;
    for (const RenderedFrame &f : frames) {
        for (float v : f.motion)
            largest = std::max(largest, std::abs(v));
    }
    return largest > 0.f ? std::ceil(largest * 4.f) / 4.f : 1.f;
}

namespace {

QJsonObject sidecar(const FlipbookSettings &s, const FlipbookInfo &info, const AtlasLayout &l,
                    int frameCount, float range, const QString &base)
{
    QJsonObject atlas{{"width", l.width()},
                      {"height", l.height()},
                      {"rows", l.rows},
                      {"columns", l.columns},
                      {"tileWidth", l.tileWidth()},
                      {"tileHeight", l.tileHeight()},
                      {"padding", l.padding},
                      {"order", "left-to-right, top-to-bottom"}};
    QJsonObject frames{{"count", frameCount},
                       {"width", l.frameWidth},
                       {"height", l.frameHeight},
                       {"fps", info.frameRate / info.step},
                       {"firstSimulationFrame", info.firstFrame},
                       {"simulationStep", info.step}};
    QJsonObject color{{"file", base + ".png"},
                      {"colorSpace", "sRGB"},
                      {"alpha", toString(s.alpha)},
                      {"bitDepth", s.bitDepth},
                      {"emission", s.emission == EmissionOutput::Combined ? "added" : "none"}};
    QJsonObject out{{"format", "plume-flipbook"},
                    {"version", 1},
                    {"scene", QString::fromStdString(info.sceneName)},
                    {"plumeVersion", QString::fromStdString(info.plumeVersion)},
                    {"atlas", atlas},
                    {"frames", frames},
                    {"color", color},
                    {"loop",
                     QJsonObject{{"enabled", s.loopFrames > 0}, {"blendFrames", s.loopFrames}}}};
    if (s.emission == EmissionOutput::Separate)
        out["emission"] = QJsonObject{{"file", base + "_emission.png"},
                                      {"colorSpace", "sRGB"},
                                      {"bitDepth", s.bitDepth}};
    if (s.motionVectors)
        out["motionVectors"] = QJsonObject{
            {"file", base + "_motion.png"},
            {"colorSpace", "linear"},
            {"bitDepth", s.bitDepth},
            {"channels", "rg"},
            {"encoding", "rg = 0.5 + v / (2 * range); v = (rg - 0.5) * 2 * range"},
            {"range", double(range)},
            {"units", "frame pixels per frame"},
            {"xAxis", "right"},
            {"yAxis", "up"},
            {"direction", "forward: where the content at this pixel moves by the next frame"}};
    return out;
}

} // namespace

sim::Status writeFlipbook(std::vector<RenderedFrame> frames, const FlipbookSettings &s,
                          const FlipbookInfo &info, const std::string &directory,
                          const std::string &baseName, std::vector<std::string> &written)
{
    if (frames.empty())
        return sim::Status::failure("flipbook: no frames to write");
    if (s.bitDepth != 8 && s.bitDepth != 16)
        return sim::Status::failure("flipbook: bit depth must be 8 or 16");
    frames = blendLoop(std::move(frames), s.loopFrames);
    AtlasLayout layout{s.rows, s.columns, frames[0].width, frames[0].height, s.padding};
    const int count = int(frames.size());
    const float range = s.motionRange > 0.f ? s.motionRange : autoMotionRange(frames);
    auto atlasOf = [&](auto &&encode, QRgba64 empty) {
        std::vector<QImage> images;
        for (const RenderedFrame &f : frames)
            images.push_back(encode(f));
        return pngBytes(assembleAtlas(images, layout, empty));
    };
    const QDir dir(QString::fromStdString(directory));
    const QString base = QString::fromStdString(baseName);
    std::vector<QString> paths;
    std::vector<QByteArray> contents;
    paths.push_back(dir.filePath(base + ".png"));
    contents.push_back(atlasOf(
        [&](const RenderedFrame &f) { return colorImage(f, s.alpha, s.emission, s.bitDepth); },
        QRgba64::fromRgba64(0, 0, 0, 0)));
    if (s.motionVectors) {
        paths.push_back(dir.filePath(base + "_motion.png"));
        contents.push_back(
            atlasOf([&](const RenderedFrame &f) { return motionImage(f, range, s.bitDepth); },
                    QRgba64::fromRgba64(32768, 32768, 0, 65535)));
    }
    if (s.emission == EmissionOutput::Separate) {
        paths.push_back(dir.filePath(base + "_emission.png"));
        contents.push_back(
            atlasOf([&](const RenderedFrame &f) { return emissionImage(f, s.bitDepth); },
                    QRgba64::fromRgba64(0, 0, 0, 65535)));
    }
    paths.push_back(dir.filePath(base + ".json"));
    const QJsonDocument json(sidecar(s, info, layout, count, range, base));
    contents.push_back(json.toJson(QJsonDocument::Indented));
    if (sim::Status st = writeFilesAtomically(paths, contents); !st)
        return st;
    for (const QString &p : paths)
        written.push_back(p.toStdString());
    return sim::Status::success();
}

} // namespace plume
