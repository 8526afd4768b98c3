// SPDX-License-Identifier: Apache-2.0
#include <ui/mainwindow/filedrop.h>

#include <core/scene/meshfile.h>

#include <QFileInfo>
#include <QMimeData>
#include <QStringList>
#include <QUrl>

#include <algorithm>

namespace plume {

namespace {

const QStringList kImageSuffixes{"png", "jpg", "jpeg"};

} // namespace

DropKind dropKind(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == "plume")
        return DropKind::Scene;
    if (kImageSuffixes.contains(suffix))
        return DropKind::Image;
    if (isMeshFile(path.toStdString()))
        return DropKind::Model;
    return DropKind::None;
}

QString droppedFile(const QMimeData *mime)
{
    if (!mime || !mime->hasUrls())
        return {};
    for (const QUrl &url : mime->urls())
        if (url.isLocalFile())
            return url.toLocalFile();
    return {};
}

QString droppableSuffixes()
{
    QStringList all{"plume"};
    all << kImageSuffixes;
    for (const std::string &s : meshFileSuffixes())
        all << QString::fromStdString(s);
    return all.join(", ");
}

Item imageItem(const Scene &scene, const QString &path, QSize imageSize, const std::string &name)
{
    const sim::Domain d = makeDomain(scene.domain);
    const sim::Vec3 e = d.extent();
    const float aspect = imageSize.height() > 0
                             ? float(imageSize.width()) / float(imageSize.height())
                             : 1.f;
    // The largest rectangle of the image's aspect inside the domain's x-y.
    const float w = std::min(e.x, e.y * aspect);
    const float h = w / aspect;
    const sim::Vec3 centre = d.origin + e * 0.5f;
    Item item;
    item.name = name;
    item.kind = ItemKind::Emitter;
    item.shape.type = ShapeType::Image;
    item.shape.file = QFileInfo(path).absoluteFilePath().toStdString();
    item.shape.imageMin = {centre.x - 0.5f * w, centre.y - 0.5f * h, 0.f};
    item.shape.imageMax = {centre.x + 0.5f * w, centre.y + 0.5f * h, 0.f};
    item.shape.channel = ImageChannel::Luminance;
    return item;
}

} // namespace plume
