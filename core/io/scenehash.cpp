// SPDX-License-Identifier: Apache-2.0
#include <core/io/scenehash.h>

#include <core/io/scenewriter.h>

#include <core/scene/shapecoverage.h>

#include <QFile>

namespace plume {

namespace {

/// FNV-1a, 64 bits.
class Fnv1a
{
public:
    void add(const char *data, qsizetype n)
    {
        for (qsizetype i = 0; i < n; ++i) {
            mHash ^= std::uint8_t(data[i]);
            mHash *= 0x100000001b3ull;
        }
    }
    void add(const QByteArray &bytes) { add(bytes.constData(), bytes.size()); }
    std::uint64_t value() const { return mHash; }

private:
    std::uint64_t mHash = 0xcbf29ce484222325ull;
};

} // namespace

QByteArray simulationJson(const Scene &scene)
{
    Scene s = scene;
    s.name.clear();
    s.exports = ExportPresets{};
    s.domain.preview = PreviewResolution::Full; // the window's alone: bakes ignore it
    s.simulation.frameEnd = s.simulation.frameStart;
    return sceneToJson(s, std::string());
}

std::uint64_t sceneHash(const Scene &scene)
{
    Fnv1a hash;
    hash.add(simulationJson(scene));
    auto addFile = [&](const std::string &path) {
        QFile file(QString::fromStdString(resolveImagePath(path, scene.directory)));
        const QByteArray bytes = file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
        const QByteArray size = QByteArray::number(file.isOpen() ? bytes.size() : -1);
        hash.add(size + ':');
        hash.add(bytes);
    };
    for (const Item &item : scene.items) {
        if (item.shape.type == ShapeType::Image || item.shape.type == ShapeType::Mesh)
            addFile(item.shape.file);
    }
    // The liquid texture's image too: a resumed bake draws its flipbook with the same image.
    if (scene.simulation.liquidTexture.enabled())
        addFile(scene.simulation.liquidTexture.file);
    return hash.value();
}

} // namespace plume
