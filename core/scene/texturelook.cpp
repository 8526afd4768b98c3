// SPDX-License-Identifier: Apache-2.0
#include <core/scene/texturelook.h>

#include <core/scene/shapecoverage.h>

#include <QImageReader>

namespace plume {

sim::Result<LiquidTextureLook> loadLiquidTextureLook(const LiquidTextureSettings &settings,
                                                     const std::string &directory)
{
    LiquidTextureLook out;
    out.period = settings.period;
    out.blend = settings.blend;
    out.tiling = settings.tiling;
    if (!settings.enabled())
        return out;
    const std::string path = resolveImagePath(settings.file, directory);
    QImageReader reader(QString::fromStdString(path));
    const QImage image = reader.read();
    if (image.isNull())
        return sim::Status::failure(
            path + ": cannot read the liquid texture: " + reader.errorString().toStdString());
    out.image = image.convertToFormat(QImage::Format_ARGB32);
    return out;
}

} // namespace plume
