// SPDX-License-Identifier: Apache-2.0
#include <core/render/liquidtexture.h>

#include <core/render/colormap.h>
#include <core/sim/base/parallel.h>

#include <algorithm>
#include <cmath>

namespace plume {

namespace {

/// Neighbouring samples and the fraction between them at continuous index s of n samples.
struct Span
{
    int i0 = 0, i1 = 0;
    float t = 0.f;
};

Span wrapped(float s, int n)
{
    const float f = std::floor(s);
    Span a;
    a.t = s - f;
    a.i0 = int(std::fmod(double(f), double(n)));
    if (a.i0 < 0)
        a.i0 += n;
    a.i1 = a.i0 + 1 == n ? 0 : a.i0 + 1;
    return a;
}

Span clamped(float s, int n)
{
    s = std::clamp(s, 0.f, float(n - 1));
    Span a;
    a.i0 = std::min(int(std::floor(s)), n - 1);
    a.i1 = std::min(a.i0 + 1, n - 1);
    a.t = s - float(a.i0);
    return a;
}

inline float lerp(float a, float b, float t) { return a + t * (b - a); }

float bilinear(const sim::ScalarGrid &g, const Span &x, const Span &y)
{
    return lerp(lerp(g(x.i0, y.i0, 0), g(x.i1, y.i0, 0), x.t),
                lerp(g(x.i0, y.i1, 0), g(x.i1, y.i1, 0), x.t), y.t);
}

struct Rgba
{
    float c[4] = {};
};

/// The repeating image at pixel coordinates (u, v), v down, bilinear between pixel centres.
Rgba sampleRepeat(const QImage &img, float u, float v)
{
    const Span x = wrapped(u - 0.5f, img.width());
    const Span y = wrapped(v - 0.5f, img.height());
    const auto *row0 = reinterpret_cast<const QRgb *>(img.constScanLine(y.i0));
    const auto *row1 = reinterpret_cast<const QRgb *>(img.constScanLine(y.i1));
    const QRgb p[4] = {row0[x.i0], row0[x.i1], row1[x.i0], row1[x.i1]};
    Rgba out;
    for (int ch = 0; ch < 4; ++ch) {
        auto channel = [ch](QRgb c) {
            return float(ch == 0 ? qRed(c) : ch == 1 ? qGreen(c) : ch == 2 ? qBlue(c) : qAlpha(c));
        };
        out.c[ch] = lerp(lerp(channel(p[0]), channel(p[1]), x.t),
                         lerp(channel(p[2]), channel(p[3]), x.t), y.t);
    }
    return out;
}

} // namespace

TextureOffsets textureOffsets(const sim::AdvectedCoordinates &coords)
{
    return {&coords.offset(0, 0), &coords.offset(0, 1), &coords.offset(1, 0), &coords.offset(1, 1)};
}

namespace {

QImage renderSized(const TextureOffsets &offsets, const sim::Boundaries &boundaries, int frame,
                   const LiquidTextureLook &look, int width, int height)
{
    for (const sim::ScalarGrid *g : offsets) {
        if (!g || g->count() == 0 || g->size() != offsets[0]->size())
            return {};
    }
    if (look.image.isNull() || width < 1 || height < 1 || !(look.tiling > 0.f))
        return {};
    const QImage img = look.image.convertToFormat(QImage::Format_ARGB32);
    const sim::Int3 n = offsets[0]->size();
    QImage out(width, height, QImage::Format_ARGB32);
    if (out.isNull())
        return {};
    const bool periodicX = boundaries[0] == sim::Boundary::Periodic;
    const bool periodicY = boundaries[2] == sim::Boundary::Periodic;
    // Image pixels per cell edge: the width repeats `tiling` times across the domain.
    const float k = look.tiling * float(img.width()) / float(n.x);
    const float w0 = sim::textureWeight0(frame, look.period, look.blend);
    // Cell coordinates per pixel: exactly 1 / pixelsPerCell for whole multiples of the cells.
    const float cellsPerPixelX = float(n.x) / float(width);
    const float cellsPerPixelY = float(n.y) / float(height);
    sim::forEachRow(sim::Int3{width, height, 1}, [&](int py, int) {
        auto *line = reinterpret_cast<QRgb *>(out.scanLine(py));
        // Cell coordinates of the pixel centre; y up from the domain's bottom.
        const float y = (float(height - 1 - py) + 0.5f) * cellsPerPixelY;
        const Span sy = periodicY ? wrapped(y - 0.5f, n.y) : clamped(y - 0.5f, n.y);
        for (int px = 0; px < width; ++px) {
            const float x = (float(px) + 0.5f) * cellsPerPixelX;
            const Span sx = periodicX ? wrapped(x - 0.5f, n.x) : clamped(x - 0.5f, n.x);
            Rgba mixed;
            for (int set = 0; set < 2; ++set) {
                const float cx = x + bilinear(*offsets[2 * set], sx, sy);
                const float cy = y + bilinear(*offsets[2 * set + 1], sx, sy);
                const Rgba c = sampleRepeat(img, cx * k, float(img.height()) - cy * k);
                const float w = set == 0 ? w0 : 1.f - w0;
                for (int ch = 0; ch < 4; ++ch)
                    mixed.c[ch] += w * c.c[ch];
            }
            auto byte = [](float v) { return std::clamp(int(std::lround(v)), 0, 255); };
            line[px] = qRgba(byte(mixed.c[0]), byte(mixed.c[1]), byte(mixed.c[2]),
                             byte(mixed.c[3]));
        }
    });
    return out;
}

} // namespace

QImage renderLiquidTexture(const TextureOffsets &offsets, const sim::Boundaries &boundaries,
                           int frame, const LiquidTextureLook &look, int pixelsPerCell)
{
    if (pixelsPerCell < 1 || !offsets[0])
        return {};
    const sim::Int3 n = offsets[0]->size();
    return renderSized(offsets, boundaries, frame, look, n.x * pixelsPerCell, n.y * pixelsPerCell);
}

RenderedFrame liquidTextureFrame(const TextureOffsets &offsets, const sim::Boundaries &boundaries,
                                 int frame, const LiquidTextureLook &look, int width, int height)
{
    RenderedFrame out;
    if (!offsets[0] || offsets[0]->count() == 0 || width < 1 || height < 1)
        return out;
    // The domain fitted into the frame and centred, as the 2D renderer places it.
    const sim::Int3 n = offsets[0]->size();
    const float scale = std::min(float(width) / float(n.x), float(height) / float(n.y));
    const int dw = std::clamp(int(std::lround(float(n.x) * scale)), 1, width);
    const int dh = std::clamp(int(std::lround(float(n.y) * scale)), 1, height);
    const int ox = (width - dw) / 2, oy = (height - dh) / 2;
    const QImage img = renderSized(offsets, boundaries, frame, look, dw, dh);
    if (img.isNull())
        return out;
    out.width = width;
    out.height = height;
    out.color.assign(out.pixels() * 4, 0.f);
    out.emission.assign(out.pixels() * 3, 0.f);
    for (int y = 0; y < dh; ++y) {
        const auto *line = reinterpret_cast<const QRgb *>(img.constScanLine(y));
        for (int x = 0; x < dw; ++x) {
            float *c = &out.color[(std::size_t(y + oy) * width + std::size_t(x + ox)) * 4];
            const float a = float(qAlpha(line[x])) / 255.f;
            c[0] = detail::srgbToLinear(float(qRed(line[x])) / 255.f) * a;
            c[1] = detail::srgbToLinear(float(qGreen(line[x])) / 255.f) * a;
            c[2] = detail::srgbToLinear(float(qBlue(line[x])) / 255.f) * a;
            c[3] = a;
        }
    }
    return out;
}

} // namespace plume
