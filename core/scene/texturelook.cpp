// SPDX-License-Identifier: Apache-2.0
#include <core/scene/texturelook.h>

#include <core/scene/shapecoverage.h>

#include <QImageReader>

namespace plume {

bool loadLiquidTextureLook(const LiquidTextureSettings &settings, const std::string &directory,
                           LiquidTextureLook &out, std::string *error)
{
    out = LiquidTextureLook{};
    out.period = settings.period;
    out.blend = settings.blend;
    out.tiling = settings.tiling;
    if (!settings.enabled())
        return true;
    const std::string path = resolveImagePath(settings.file, directory);
    QImageReader reader(QString::fromStdString(path));
    const QImage image = reader.read();
    if (image.isNull()) {
        if (error)
            *error = path
                     + ": cannot read the liquid texture: " + reader.errorString().toStdString();
        return false;
    }
    out.image = image.convertToFormat(QImage::Format_ARGB32);
    return true;
}

} // namespace plume
