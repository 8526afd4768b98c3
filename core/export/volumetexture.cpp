// SPDX-License-Identifier: Apache-2.0
#include <core/export/volumetexture.h>

#include <core/export/gridsample.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>

namespace plume {

sim::FieldKind fieldOf(VolumeChannel channel)
{
    switch (channel) {
    case VolumeChannel::Temperature: return sim::FieldKind::Temperature;
    case VolumeChannel::Flame: return sim::FieldKind::Flame;
    case VolumeChannel::Density: break;
    }
    return sim::FieldKind::Density;
}

int volumeAtlasColumns(int slices)
{
    int columns = 1;
    while (columns * columns < slices)
        ++columns;
    return columns;
}

VolumeAtlas makeVolumeAtlas(const sim::Domain &domain, const sim::ScalarGrid &field,
                            const VolumeTextureSettings &settings)
{
    VolumeAtlas atlas;
    const sim::Int3 m = resampledCells(domain, settings.size);
    const sim::Int3 n = domain.cells;
    const int columns = volumeAtlasColumns(m.z);
    const int rows = (m.z + columns - 1) / columns;
    atlas.layout = {m, columns, rows};
    std::vector<float> values(std::size_t(m.volume()));
    float largest = 0.f;
    std::size_t at = 0;
    for (int k = 0; k < m.z; ++k)
        for (int j = 0; j < m.y; ++j)
            for (int i = 0; i < m.x; ++i, ++at) {
                const double c[3] = {(i + 0.5) * n.x / m.x - 0.5, (j + 0.5) * n.y / m.y - 0.5,
                                     (k + 0.5) * n.z / m.z - 0.5};
                values[at] = trilinear(field, c);
                largest = std::max(largest, values[at]);
            }
    atlas.range = settings.range > 0.f ? settings.range : largest;
    const bool sixteen = settings.bitDepth == 16;
    const double top = sixteen ? 65535.0 : 255.0;
    atlas.image = QImage(columns * m.x, rows * m.y,
                         sixteen ? QImage::Format_Grayscale16 : QImage::Format_Grayscale8);
    atlas.image.fill(0);
    for (int k = 0; k < m.z; ++k) {
        const int x0 = (k % columns) * m.x, y0 = (k / columns) * m.y;
        for (int j = 0; j < m.y; ++j) {
            uchar *line = atlas.image.scanLine(y0 + m.y - 1 - j);
            for (int i = 0; i < m.x; ++i) {
                const float v = values[std::size_t(i + m.x * (j + std::size_t(m.y) * k))];
                const double unit = atlas.range > 0.f
                                        ? std::clamp(double(v) / atlas.range, 0.0, 1.0)
                                        : 0.0;
                const auto pixel = std::uint16_t(std::lround(unit * top));
                if (sixteen)
                    reinterpret_cast<quint16 *>(line)[x0 + i] = pixel;
                else
                    line[x0 + i] = uchar(pixel);
            }
        }
    }
    return atlas;
}

QByteArray volumeTextureSidecar(const VolumeTextureSettings &settings, const VolumeLayout &layout,
                                const sim::Domain &domain, const std::vector<VolumeFrame> &frames)
{
    const sim::Int3 m = layout.voxels;
    QJsonObject o;
    o["format"] = "plume-volume-texture";
    o["version"] = 1;
    o["channel"] = toString(settings.channel);
    o["bitDepth"] = settings.bitDepth;
    o["voxels"] = QJsonArray{m.x, m.y, m.z};
    o["slices"] = m.z;
    o["columns"] = layout.columns;
    o["rows"] = layout.rows;
    o["tileWidth"] = m.x;
    o["tileHeight"] = m.y;
    o["order"] = "slice k (along z, from the domain's low z) is the tile in column k % columns "
                 "and row k / columns, tiles left to right then top to bottom; in a tile x runs "
                 "right and y up (its top row is the highest y)";
    o["encoding"] = "value = pixel / (2^bitDepth - 1) * range";
    const sim::Vec3 hi = domain.origin + domain.extent();
    o["box"] = QJsonObject{{"min", QJsonArray{domain.origin.x, domain.origin.y, domain.origin.z}},
                           {"max", QJsonArray{hi.x, hi.y, hi.z}}};
    QJsonArray list;
    for (const VolumeFrame &f : frames)
        list.append(QJsonObject{{"frame", f.frame},
                                {"file", QString::fromStdString(f.file)},
                                {"range", double(f.range)}});
    o["frames"] = list;
    return QJsonDocument(o).toJson(QJsonDocument::Indented);
}

} // namespace plume
