// SPDX-License-Identifier: Apache-2.0
#include <core/render/colormap.h>

#include <core/sim/base/parallel.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace plume {

namespace detail {

float srgbToLinear(float c)
{
    c = std::clamp(c, 0.f, 1.f);
    return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f);
}

float linearToSrgb(float c)
{
    c = std::clamp(c, 0.f, 1.f);
    return c <= 0.0031308f ? 12.92f * c : 1.055f * std::pow(c, 1.f / 2.4f) - 0.055f;
}

} // namespace detail

namespace {

struct Stop
{
    float t, r, g, b;
};

/// Piecewise-linear colour ramp through the stops (t ascending, 0 to 1).
template<std::size_t N>
QRgb ramp(const std::array<Stop, N> &stops, float t)
{
    t = std::clamp(std::isfinite(t) ? t : 0.f, 0.f, 1.f);
    std::size_t n = 1;
    while (n + 1 < N && t > stops[n].t)
        ++n;
    const Stop &a = stops[n - 1];
    const Stop &b = stops[n];
    const float f = (t - a.t) / std::max(b.t - a.t, 1e-6f);
    auto mix = [f](float x, float y) { return int(std::lround(255.f * (x + f * (y - x)))); };
    return qRgb(mix(a.r, b.r), mix(a.g, b.g), mix(a.b, b.b));
}

constexpr std::array<Stop, 4> kSmoke{{{0.f, 0.05f, 0.05f, 0.07f},
                                      {0.35f, 0.35f, 0.33f, 0.32f},
                                      {0.7f, 0.75f, 0.72f, 0.68f},
                                      {1.f, 1.f, 1.f, 1.f}}};
constexpr std::array<Stop, 5> kInferno{{{0.f, 0.0f, 0.0f, 0.02f},
                                        {0.25f, 0.34f, 0.06f, 0.43f},
                                        {0.5f, 0.73f, 0.21f, 0.33f},
                                        {0.75f, 0.98f, 0.55f, 0.04f},
                                        {1.f, 0.99f, 1.0f, 0.64f}}};
constexpr std::array<Stop, 3> kDiverging{
    {{0.f, 0.17f, 0.35f, 0.8f}, {0.5f, 0.95f, 0.95f, 0.95f}, {1.f, 0.8f, 0.15f, 0.15f}}};
const QRgb kSolidColor = qRgb(110, 118, 130);

} // namespace

QRgb mapColor(ColorMap map, float t)
{
    switch (map) {
    case ColorMap::Smoke: return ramp(kSmoke, t);
    case ColorMap::Inferno: return ramp(kInferno, t);
    case ColorMap::Diverging: return ramp(kDiverging, t);
    }
    return ramp(kSmoke, t);
}

QImage fieldImage(const sim::ScalarGrid &field, int slice, ColorMap map, float lo, float hi,
                  const sim::FlagGrid *solids)
{
    const sim::Int3 n = field.size();
    QImage image(n.x, n.y, QImage::Format_RGB32);
    const float scale = hi > lo ? 1.f / (hi - lo) : 0.f;
    sim::forEachRow(sim::Int3{n.x, n.y, 1}, [&](int j, int) {
        auto *line = reinterpret_cast<QRgb *>(image.scanLine(n.y - 1 - j));
        for (int i = 0; i < n.x; ++i) {
            if (solids && solids->isSolid(i, j, slice))
                line[i] = kSolidColor;
            else
                line[i] = mapColor(map, (field(i, j, slice) - lo) * scale);
        }
    });
    return image;
}

QImage dyeImage(const sim::ScalarGrid &density, const sim::ScalarGrid &red,
                const sim::ScalarGrid &green, const sim::ScalarGrid &blue, int slice,
                const sim::FlagGrid *solids, sim::Vec3 smokeColor)
{
    const float smoke[3] = {detail::linearToSrgb(smokeColor.x), detail::linearToSrgb(smokeColor.y),
                            detail::linearToSrgb(smokeColor.z)};
    const sim::Int3 n = density.size();
    QImage image(n.x, n.y, QImage::Format_RGB32);
    const bool hasDye = red.count() == density.count();
    const float background[3] = {0.06f, 0.065f, 0.08f};
    sim::forEachRow(sim::Int3{n.x, n.y, 1}, [&](int j, int) {
        auto *line = reinterpret_cast<QRgb *>(image.scanLine(n.y - 1 - j));
        for (int i = 0; i < n.x; ++i) {
            if (solids && solids->isSolid(i, j, slice)) {
                line[i] = kSolidColor;
                continue;
            }
            const float d = std::max(density(i, j, slice), 0.f);
            const float alpha = 1.f - std::exp(-2.f * d);
            float c[3] = {smoke[0], smoke[1], smoke[2]};
            if (hasDye && d > 1e-6f) {
                // Dye amounts are colour times density: divide to get the colour.
                c[0] = red(i, j, slice) / d;
                c[1] = green(i, j, slice) / d;
                c[2] = blue(i, j, slice) / d;
            }
            int rgb[3];
            for (int ch = 0; ch < 3; ++ch) {
                const float v = background[ch]
                                + alpha * (std::clamp(c[ch], 0.f, 1.f) - background[ch]);
                rgb[ch] = int(std::lround(255.f * std::clamp(v, 0.f, 1.f)));
            }
            line[i] = qRgb(rgb[0], rgb[1], rgb[2]);
        }
    });
    return image;
}

} // namespace plume
