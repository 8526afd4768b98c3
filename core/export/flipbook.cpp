// SPDX-License-Identifier: Apache-2.0
#include <core/export/flipbook.h>

#include <core/export/frameimage.h>

#include <core/sim/base/parallel.h>

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

FloatImage assembleAtlas(const std::vector<FloatImage> &frames, const AtlasLayout &layout,
                         const std::vector<float> &empty)
{
    FloatImage atlas;
    atlas.width = layout.width();
    atlas.height = layout.height();
    atlas.channels = frames.empty() ? int(empty.size()) : frames[0].channels;
    const int n = atlas.channels;
    atlas.pixels.resize(std::size_t(atlas.width) * atlas.height * n);
    const int count = std::min(int(frames.size()), layout.rows * layout.columns);
    const int w = layout.frameWidth, h = layout.frameHeight, pad = layout.padding;
    sim::forEachRow(sim::Int3{atlas.width, atlas.height, 1}, [&](int y, int) {
        const int row = y / layout.tileHeight();
        const int sy = std::clamp(y - row * layout.tileHeight() - pad, 0, h - 1);
        for (int x = 0; x < atlas.width; ++x) {
            const int col = x / layout.tileWidth();
            const int f = row * layout.columns + col;
            const int sx = std::clamp(x - col * layout.tileWidth() - pad, 0, w - 1);
            for (int c = 0; c < n; ++c)
                atlas.at(x, y, c) = f < count ? frames[std::size_t(f)].at(sx, sy, c)
                                              : empty[std::size_t(c)];
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
            if (!head.sixWay.empty() && !tail.sixWay.empty()) {
                for (int c = 0; c < kSixWayLights; ++c) {
                    float &v = head.sixWay[kSixWayLights * p + c];
                    v = w * v + (1.f - w) * tail.sixWay[kSixWayLights * p + c];
                }
            }
            // Normals and depth follow what is visible: weighted by each side's alpha.
            const float wh = w * ah, wt = (1.f - w) * at;
            if (!head.normal.empty() && !tail.normal.empty() && wh + wt > 0.f) {
                float n[3], l = 0.f;
                for (int c = 0; c < 3; ++c) {
                    n[c] = wh * head.normal[3 * p + c] + wt * tail.normal[3 * p + c];
                    l += n[c] * n[c];
                }
                l = std::sqrt(l);
                for (int c = 0; c < 3; ++c)
                    head.normal[3 * p + c] = l > 0.f ? n[c] / l : (c == 2 ? 1.f : 0.f);
            }
            if (!head.depth.empty() && !tail.depth.empty() && wh + wt > 0.f)
                head.depth[p] = (wh * head.depth[p] + wt * tail.depth[p]) / (wh + wt);
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

QJsonObject sidecar(const FlipbookSettings &s, const Tone &tone, const FlipbookInfo &info,
                    const AtlasLayout &l, int frameCount, float range, const QString &base,
                    const std::vector<PassTexture> &textures, const RenderedFrame &first)
{
    const bool exr = s.passes.format == ImageFormat::Exr;
    const QString ext = QString::fromStdString(fileExtension(s.passes.format));
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
    QJsonObject color{{"file", base + ext},
                      {"colorSpace", "sRGB"},
                      {"alpha", toString(s.alpha)},
                      {"bitDepth", s.bitDepth},
                      {"emission", s.emission == EmissionOutput::Combined ? "added" : "none"}};
    // PNG colour and emission went through the exposure and tone curve (docs/render.md); the
    // default tone (colours as rendered, clipped) keeps sidecars as they were.
    if (!exr && !(tone == Tone{})) {
        color["exposure"] = double(tone.exposure);
        color["toneCurve"] = toString(tone.curve);
    }
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
        out["emission"] = QJsonObject{{"file", base + "_emission" + ext},
                                      {"colorSpace", "sRGB"},
                                      {"bitDepth", s.bitDepth}};
    if (s.motionVectors)
        out["motionVectors"] = QJsonObject{
            {"file", base + "_motion" + ext},
            {"colorSpace", "linear"},
            {"bitDepth", s.bitDepth},
            {"channels", "rg"},
            {"encoding", "rg = 0.5 + v / (2 * range); v = (rg - 0.5) * 2 * range"},
            {"range", double(range)},
            {"units", "frame pixels per frame"},
            {"xAxis", "right"},
            {"yAxis", "up"},
            {"direction", "forward: where the content at this pixel moves by the next frame"}};
    const bool packed = std::any_of(textures.begin(), textures.end(), [](const PassTexture &t) {
        return t.kind == TextureKind::Packed;
    });
    if (!exr && !packed)
        return out; // as before passes existed
    // EXR: linear, unclamped, half or float instead of bits.
    for (const char *key : {"color", "emission", "motionVectors"}) {
        if (!exr || !out.contains(key))
            continue;
        QJsonObject o = out[key].toObject();
        o.remove("bitDepth");
        o["colorSpace"] = "linear";
        o["exrPrecision"] = toString(s.passes.exrPrecision);
        out[key] = o;
    }
    QJsonArray list;
    for (const PassTexture &t : textures)
        list.append(textureJson(t, (base + QString::fromStdString(t.suffix) + ext).toStdString(),
                                s.passes, s.bitDepth));
    out["textures"] = list;
    const QJsonObject conventions = passConventionsJson(textures, s.passes, first.depthNear,
                                                        first.depthFar);
    for (auto it = conventions.begin(); it != conventions.end(); ++it)
        out[it.key()] = it.value();
    return out;
}

} // namespace

sim::Status writeFlipbook(std::vector<RenderedFrame> frames, const FlipbookSettings &s,
                          const Tone &tone, const FlipbookInfo &info, const std::string &directory,
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
    const std::vector<PassTexture> textures = passTextures(textureOptions(s));
    const bool png = s.passes.format == ImageFormat::Png;
    EncodeContext ctx{s.alpha, s.emission, s.passes.format, range};
    ctx.tone = tone;
    std::vector<QString> paths;
    std::vector<QByteArray> contents;
    for (const PassTexture &t : textures) {
        paths.push_back(
            dir.filePath(base + QString::fromStdString(t.suffix + fileExtension(s.passes.format))));
        // PNG colour, motion and emission: the writers that predate passes (same bytes).
        if (png && t.kind == TextureKind::Color) {
            contents.push_back(atlasOf(
                [&](const RenderedFrame &f) {
                return colorImage(f, s.alpha, s.emission, s.bitDepth, tone);
                },
                QRgba64::fromRgba64(0, 0, 0, 0)));
        } else if (png && t.kind == TextureKind::Motion) {
            contents.push_back(
                atlasOf([&](const RenderedFrame &f) { return motionImage(f, range, s.bitDepth); },
                        QRgba64::fromRgba64(32768, 32768, 0, 65535)));
        } else if (png && t.kind == TextureKind::Emission) {
            contents.push_back(
                atlasOf([&](const RenderedFrame &f) { return emissionImage(f, s.bitDepth, tone); },
                        QRgba64::fromRgba64(0, 0, 0, 65535)));
        } else {
            std::vector<FloatImage> images;
            for (const RenderedFrame &f : frames)
                images.push_back(textureImage(f, t, ctx));
            std::vector<float> empty;
            for (int c = 0; c < t.channels; ++c)
                empty.push_back(emptyChannelValue(t.sources[std::size_t(c)], t.normals, ctx));
            QByteArray bytes;
            if (sim::Status st = encodeTexture(assembleAtlas(images, layout, empty), s.passes,
                                               s.bitDepth, bytes);
                !st)
                return sim::Status::failure("flipbook " + paths.back().toStdString() + ": "
                                            + st.error);
            contents.push_back(std::move(bytes));
        }
    }
    paths.push_back(dir.filePath(base + ".json"));
    const QJsonDocument json(
        sidecar(s, tone, info, layout, count, range, base, textures, frames[0]));
    contents.push_back(json.toJson(QJsonDocument::Indented));
    if (sim::Status st = writeFilesAtomically(paths, contents); !st)
        return st;
    for (const QString &p : paths)
        written.push_back(p.toStdString());
    return sim::Status::success();
}

} // namespace plume
