// SPDX-License-Identifier: Apache-2.0
#include <core/export/oceanmaps.h>

#include <core/export/frameimage.h>

#include <QImage>

#include <algorithm>
#include <cmath>

namespace plume {

namespace {

/// A map the size of a 2D grid, filled by f(i, j, c) for cell (i, j).
template<class F>
MapImage fromGrid(const sim::ScalarGrid &g, int channels, F &&f)
{
    MapImage m;
    m.width = g.size().x;
    m.height = g.size().y;
    m.channels = channels;
    m.values.resize(std::size_t(m.width) * std::size_t(m.height) * std::size_t(channels));
    for (int y = 0; y < m.height; ++y) {
        const int j = m.height - 1 - y;
        for (int x = 0; x < m.width; ++x) {
            for (int c = 0; c < channels; ++c)
                m.at(x, y, c) = f(x, j, c);
        }
    }
    return m;
}

quint16 toUnorm16(float v)
{
    return quint16(std::lround(double(std::clamp(v, 0.f, 1.f)) * 65535.0));
}

} // namespace

MapImage heightMap(const sim::ScalarGrid &height, float low, float high)
{
    const float scale = 1.f / (high - low);
    return fromGrid(height, 1, [&](int i, int j, int) { return (height(i, j, 0) - low) * scale; });
}

MapImage normalMap(const sim::ScalarGrid &nx, const sim::ScalarGrid &ny, const sim::ScalarGrid &nz)
{
    const sim::ScalarGrid *n[3] = {&nx, &ny, &nz};
    return fromGrid(nx, 3, [&](int i, int j, int c) { return 0.5f + 0.5f * (*n[c])(i, j, 0); });
}

MapImage foamMap(const sim::ScalarGrid &foam)
{
    return fromGrid(foam, 1, [&](int i, int j, int) { return foam(i, j, 0); });
}

QByteArray pngBytes16(const MapImage &m)
{
    const bool grey = m.channels == 1;
    QImage image(m.width, m.height, grey ? QImage::Format_Grayscale16 : QImage::Format_RGBA64);
    for (int y = 0; y < m.height; ++y) {
        if (grey) {
            auto *row = reinterpret_cast<quint16 *>(image.scanLine(y));
            for (int x = 0; x < m.width; ++x)
                row[x] = toUnorm16(m.at(x, y, 0));
        } else {
            auto *row = reinterpret_cast<QRgba64 *>(image.scanLine(y));
            for (int x = 0; x < m.width; ++x)
                row[x] = QRgba64::fromRgba64(toUnorm16(m.at(x, y, 0)), toUnorm16(m.at(x, y, 1)),
                                             toUnorm16(m.at(x, y, 2)), 65535);
        }
    }
    return pngBytes(image);
}

MapImage mapAtlas(const std::vector<MapImage> &frames, int columns)
{
    MapImage atlas;
    if (frames.empty() || columns < 1)
        return atlas;
    const MapImage &first = frames.front();
    const int rows = (int(frames.size()) + columns - 1) / columns;
    atlas.width = first.width * columns;
    atlas.height = first.height * rows;
    atlas.channels = first.channels;
    atlas.values.assign(std::size_t(atlas.width) * std::size_t(atlas.height) * atlas.channels, 0.f);
    for (std::size_t n = 0; n < frames.size(); ++n) {
        const int x0 = int(n % std::size_t(columns)) * first.width;
        const int y0 = int(n / std::size_t(columns)) * first.height;
        for (int y = 0; y < first.height; ++y) {
            for (int x = 0; x < first.width; ++x) {
                for (int c = 0; c < first.channels; ++c)
                    atlas.at(x0 + x, y0 + y, c) = frames[n].at(x, y, c);
            }
        }
    }
    return atlas;
}

} // namespace plume
