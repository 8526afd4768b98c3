// SPDX-License-Identifier: Apache-2.0
#include <ui/document/itempresets.h>

#include <ui/document/shapeedit.h>

#include <core/io/scenereader.h>
#include <core/io/scenewriter.h>
#include <core/scene/shapecoverage.h>

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>

namespace plume {

namespace {

const char *dimensionName(Dimension d) { return d == Dimension::ThreeD ? "3D" : "2D"; }

} // namespace

QString itemPresetFolder()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/presets";
}

QList<ItemPreset> itemPresets(const QString &folder)
{
    QList<ItemPreset> out;
    const QDir dir(folder);
    for (const QString &file : dir.entryList({"*.plume"}, QDir::Files, QDir::Name)) {
        const SceneReadResult r = readSceneFile(dir.filePath(file));
        if (!r.ok || r.scene.items.size() != 1)
            continue;
        out.push_back({QFileInfo(file).completeBaseName(), dir.filePath(file),
                       r.scene.items.front().kind, r.scene.domain.dimension});
    }
    return out;
}

sim::Status saveItemPreset(const Scene &scene, int index, const QString &name,
                           const QString &folder, QString *path)
{
    if (index < 0 || index >= int(scene.items.size()))
        return sim::Status::failure("no item to save as a preset");
    QString safe = name.trimmed();
    safe.replace(QRegularExpression(R"([/\\:*?"<>|\x00-\x1f])"), "_");
    if (safe.isEmpty() || safe.startsWith('.'))
        return sim::Status::failure("a preset needs a name (not starting with '.')");
    if (!QDir().mkpath(folder))
        return sim::Status::failure("cannot create the preset folder " + folder.toStdString());
    Scene preset;
    preset.name = safe.toStdString();
    preset.directory = scene.directory; // the writer rebases relative paths from here
    preset.domain = scene.domain;
    preset.items = {scene.items[std::size_t(index)]};
    const QString file = QDir(folder).filePath(safe + ".plume");
    if (path)
        *path = file;
    return writeSceneFile(preset, file);
}

sim::Status loadItemPreset(const QString &path, const Scene &scene, Item &out)
{
    const SceneReadResult r = readSceneFile(path);
    if (!r.ok)
        return sim::Status::failure(r.error);
    if (r.scene.items.size() != 1)
        return sim::Status::failure(path.toStdString() + ": a preset holds exactly one item");
    if (r.scene.domain.dimension != scene.domain.dimension)
        return sim::Status::failure(
            path.toStdString() + ": a " + dimensionName(r.scene.domain.dimension)
            + " preset does not fit a " + dimensionName(scene.domain.dimension) + " scene");
    out = r.scene.items.front();
    // Paths: from the preset's folder to the scene's (absolute when the scene has none).
    if (out.shape.type == ShapeType::Image || out.shape.type == ShapeType::Mesh)
        out.shape.file = scene.directory.empty()
                             ? resolveImagePath(out.shape.file, r.scene.directory)
                             : rebasedImagePath(out.shape.file, r.scene.directory, scene.directory);
    // The same place relative to the box.
    const DomainSettings &from = r.scene.domain, &to = scene.domain;
    const sim::Vec3 pivot = shapePivot(out.shape);
    const auto moved = [&](int a) {
        const float fraction = (pivot[a] - from.origin[a]) / from.size[a];
        return to.origin[a] + fraction * to.size[a] - pivot[a];
    };
    const bool threeD = scene.domain.dimension == Dimension::ThreeD;
    const sim::Vec3 delta{moved(0), moved(1), threeD ? moved(2) : 0.f};
    out.shape = translatedShape(out.shape, delta);
    return sim::Status::success();
}

} // namespace plume
