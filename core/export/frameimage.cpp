// SPDX-License-Identifier: Apache-2.0
#include <core/export/frameimage.h>

#include <core/export/savefile.h>
#include <core/sim/base/parallel.h>

#include <QBuffer>
#include <QFile>
#include <QImageWriter>
#include <QSaveFile>

#include <algorithm>
#include <cmath>
#include <memory>

namespace plume {

namespace {

/// Writes a pixel of 4 channels in [0, 1] into an RGBA8888 or RGBA64 scanline.
void store(uchar *line, int x, int bitDepth, const float (&c)[4])
{
    if (bitDepth == 16) {
        auto *p = reinterpret_cast<quint16 *>(line) + 4 * x;
        for (int ch = 0; ch < 4; ++ch)
            p[ch] = quint16(std::lround(std::clamp(c[ch], 0.f, 1.f) * 65535.f));
    } else {
        uchar *p = line + 4 * x;
        for (int ch = 0; ch < 4; ++ch)
            p[ch] = uchar(std::lround(std::clamp(c[ch], 0.f, 1.f) * 255.f));
    }
}

/// An image of the frame's size where pixel(p, c) fills the 4 channels of pixel p.
template<class F>
QImage makeImage(const RenderedFrame &frame, int bitDepth, F &&pixel)
{
    QImage image(frame.width, frame.height,
                 bitDepth == 16 ? QImage::Format_RGBA64 : QImage::Format_RGBA8888);
    sim::forEachRow(sim::Int3{frame.width, frame.height, 1}, [&](int y, int) {
        uchar *line = image.scanLine(y);
        for (int x = 0; x < frame.width; ++x) {
            float c[4];
            pixel(std::size_t(y) * frame.width + x, c);
            store(line, x, bitDepth, c);
        }
    });
    return image;
}

} // namespace

float encodeMotion(float pixelsPerFrame, float range)
{
    return std::clamp(0.5f + pixelsPerFrame / (2.f * range), 0.f, 1.f);
}

float decodeMotion(float encoded, float range) { return (encoded - 0.5f) * 2.f * range; }

QImage colorImage(const RenderedFrame &frame, AlphaMode alpha, EmissionOutput emission,
                  int bitDepth, const Tone &tone)
{
    const bool add = emission == EmissionOutput::Combined;
    const bool premultiplied = alpha == AlphaMode::Premultiplied;
    return makeImage(frame, bitDepth, [&](std::size_t p, float(&c)[4]) {
        const float a = frame.color[4 * p + 3];
        c[3] = a;
        for (int ch = 0; ch < 3; ++ch) {
            const float v = frame.color[4 * p + ch];
            const float e = add ? frame.emission[3 * p + ch] : 0.f;
            // Straight colour is the premultiplied one over alpha; premultiplied files hold
            // the sRGB-encoded straight colour times alpha (what sRGB engines expect), plus the
            // sRGB-encoded emission: light that One, OneMinusSrcAlpha blending adds whatever
            // the alpha, so a flame in thin smoke stays as bright as it is (clipped per
            // channel: bright orange turns yellow-white).
            if (premultiplied)
                c[ch] = detail::linearToSrgb(tone(a > 0.f ? v / a : 0.f)) * a
                        + detail::linearToSrgb(tone(e));
            else
                c[ch] = a > 0.f ? detail::linearToSrgb(tone((v + e) / a)) : 0.f;
        }
    });
}

QImage emissionImage(const RenderedFrame &frame, int bitDepth, const Tone &tone)
{
    return makeImage(frame, bitDepth, [&](std::size_t p, float(&c)[4]) {
        for (int ch = 0; ch < 3; ++ch)
            c[ch] = detail::linearToSrgb(tone(frame.emission[3 * p + ch]));
        c[3] = 1.f;
    });
}

QImage motionImage(const RenderedFrame &frame, float range, int bitDepth)
{
    return makeImage(frame, bitDepth, [&](std::size_t p, float(&c)[4]) {
        const bool has = frame.hasMotion;
        c[0] = encodeMotion(has ? frame.motion[2 * p] : 0.f, range);
        c[1] = encodeMotion(has ? frame.motion[2 * p + 1] : 0.f, range);
        c[2] = 0.f;
        c[3] = 1.f;
    });
}

QByteArray pngBytes(const QImage &image)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    // Qt's default zlib level; setCompression() would store the data uncompressed.
    QImageWriter writer(&buffer, "png");
    writer.write(image);
    return bytes;
}

sim::Status writeFilesAtomically(const std::vector<QString> &paths,
                                 const std::vector<QByteArray> &contents)
{
    std::vector<std::unique_ptr<QSaveFile>> files;
    for (std::size_t n = 0; n < paths.size(); ++n) {
        files.push_back(std::make_unique<QSaveFile>(paths[n]));
        const QByteArray &bytes = contents[n];
        if (sim::Status st = writeSaveFile(*files.back(), bytes.constData(), bytes.size()); !st) {
            for (auto &g : files)
                g->cancelWriting();
            return sim::Status::failure(paths[n].toStdString() + ": cannot write: " + st.error);
        }
    }
    for (std::size_t n = 0; n < files.size(); ++n) {
        if (!files[n]->commit()) {
            const std::string why = files[n]->errorString().toStdString();
            for (std::size_t m = 0; m < n; ++m)
                QFile::remove(paths[m]);
            for (std::size_t m = n + 1; m < files.size(); ++m)
                files[m]->cancelWriting();
            return sim::Status::failure(paths[n].toStdString() + ": could not save: " + why);
        }
    }
    return sim::Status::success();
}

} // namespace plume
