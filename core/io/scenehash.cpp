#include "scenehash.h"

#include "scenewriter.h"

#include <scene/shapecoverage.h>

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
    s.simulation.frameEnd = s.simulation.frameStart;
    return sceneToJson(s, std::string());
}

std::uint64_t sceneHash(const Scene &scene)
{
    Fnv1a hash;
    hash.add(simulationJson(scene));
    for (const Item &item : scene.items) {
        if (item.shape.type != ShapeType::Image)
            continue;
        QFile file(QString::fromStdString(resolveImagePath(item.shape.file, scene.directory)));
        const QByteArray bytes = file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
        const QByteArray size = QByteArray::number(file.isOpen() ? bytes.size() : -1);
        hash.add(size + ':');
        hash.add(bytes);
    }
    return hash.value();
}

} // namespace plume
