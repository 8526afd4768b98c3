// SPDX-License-Identifier: Apache-2.0
#include <core/bake/sinks/oceanmapsink.h>

#include <core/export/exrimage.h>
#include <core/export/frameimage.h>
#include <core/export/passes.h>
#include <core/scene/scenesimulation.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <limits>

namespace plume {

namespace {

std::string frameName(const std::string &base, OceanMap map, int frame, ImageFormat format)
{
    return base + "_" + toString(map) + "." + frameNumber(frame) + fileExtension(format);
}

/// A map's file bytes: a 16-bit PNG, or OpenEXR with the map's values as they are.
sim::Status encodeMap(const MapImage &map, const OceanBakeSettings &s, QByteArray &out)
{
    if (s.format == ImageFormat::Png) {
        out = pngBytes16(map);
        return sim::Status::success();
    }
    FloatImage image;
    image.width = map.width;
    image.height = map.height;
    image.channels = map.channels;
    image.pixels = map.values;
    return exrBytes(image, s.exrPrecision, out);
}

/// The frame's maps, in the order of `maps`.
std::vector<MapImage> frameMaps(const sim::Solver &solver, const std::vector<OceanMap> &maps,
                                float low, float high)
{
    std::vector<MapImage> out;
    sim::ScalarGrid a, b, c;
    for (OceanMap m : maps) {
        switch (m) {
        case OceanMap::Height:
            solver.sample(sim::FieldKind::Height, a);
            out.push_back(heightMap(a, low, high));
            break;
        case OceanMap::Normal:
            solver.sample(sim::FieldKind::NormalX, a);
            solver.sample(sim::FieldKind::NormalY, b);
            solver.sample(sim::FieldKind::NormalZ, c);
            out.push_back(normalMap(a, b, c));
            break;
        case OceanMap::Foam:
            solver.sample(sim::FieldKind::Foam, a);
            out.push_back(foamMap(a));
            break;
        }
    }
    return out;
}

QJsonObject sidecar(const Scene &scene, const OceanBakeSettings &s, const sim::Domain &domain,
                    float low, float high, const std::vector<std::string> &files, int columns)
{
    const sim::OceanSettings &o = scene.simulation.params.ocean;
    const double rate = scene.simulation.time.frameRate;
    QJsonObject j;
    j["format"] = "plume-ocean-maps";
    j["version"] = 1;
    j["scene"] = QString::fromStdString(scene.name);
    j["plumeVersion"] = QString::fromStdString(s.plumeVersion);
    j["firstFrame"] = s.firstFrame;
    j["lastFrame"] = s.lastFrame;
    j["frameRate"] = rate;
    j["loopPeriod"] = double(o.loopPeriod);
    j["loopFrames"] = double(o.loopPeriod) * rate;
    const sim::Vec3 e = domain.extent();
    j["patchSize"] = QJsonArray{double(e.x), double(e.y)};
    j["pixels"] = QJsonArray{domain.cells.x, domain.cells.y};
    QJsonArray maps;
    for (OceanMap m : s.maps)
        maps.append(toString(m));
    j["maps"] = maps;
    j["layout"] = s.flipbook ? "flipbook" : "sequence";
    if (s.flipbook)
        j["columns"] = columns;
    const bool exr = s.format == ImageFormat::Exr;
    j["fileFormat"] = exr ? QString("exr-") + toString(s.exrPrecision) : QString("png-16");
    j["height"] = QJsonObject{{"min", double(low)},
                              {"max", double(high)},
                              {"encoding", exr ? "Y = h, metres (linear, not scaled)"
                                               : "grey = (h - min) / (max - min), metres"}};
    j["normal"] = "rgb = 0.5 + 0.5 n; x right, y up, z out of the surface (OpenGL)";
    j["foam"] = "grey = clamp(1 - J, 0, 1); J the Jacobian of the choppy displacement";
    QJsonArray list;
    for (const std::string &f : files)
        list.append(QString::fromStdString(f));
    j["files"] = list;
    return j;
}

} // namespace

sim::Status OceanMapSink::begin()
{
    // The height range over the frames written: the simulation run ahead once.
    SceneSimulation simulation;
    if (sim::Status st = simulation.setScene(mScene); !st)
        return st;
    const OceanBakeSettings &s = mSettings;
    float low = std::numeric_limits<float>::infinity(), high = -low;
    sim::ScalarGrid height;
    for (int f = mScene.simulation.frameStart; f <= s.lastFrame; ++f) {
        if (mObserver && mObserver->cancelRequested())
            return sim::Status::failure("cancelled before frame " + std::to_string(f));
        if (sim::FrameStats st = simulation.advance(f); !st.status)
            return sim::Status::failure("frame " + std::to_string(f) + ": " + st.status.error);
        if (f < s.firstFrame)
            continue;
        simulation.solver().sample(sim::FieldKind::Height, height);
        const auto [lo, hi] = std::minmax_element(height.data(), height.data() + height.count());
        low = std::min(low, *lo);
        high = std::max(high, *hi);
    }
    if (!(high > low)) // a flat sea: any range maps it to grey 0.5
        low -= 0.5f, high += 0.5f;
    mLow = low;
    mHigh = high;
    mAtlases.assign(s.maps.size(), {});
    return sim::Status::success();
}

sim::Status OceanMapSink::frame(const BakeFrame &frame, std::vector<std::filesystem::path> &files)
{
    const OceanBakeSettings &s = mSettings;
    const int f = frame.number;
    if (f < s.firstFrame || f > s.lastFrame)
        return sim::Status::success();
    mDomain = frame.solver->domain();
    // EXR keeps the height in metres (the identity range); PNG scales it to [0, 1].
    const bool exr = s.format == ImageFormat::Exr;
    std::vector<MapImage> maps = frameMaps(*frame.solver, s.maps, exr ? 0.f : mLow,
                                           exr ? 1.f : mHigh);
    if (s.flipbook) {
        for (std::size_t m = 0; m < maps.size(); ++m)
            mAtlases[m].push_back(std::move(maps[m]));
        return sim::Status::success();
    }
    std::vector<QString> paths;
    std::vector<QByteArray> contents;
    for (std::size_t m = 0; m < maps.size(); ++m) {
        mNames.push_back(frameName(s.baseName, s.maps[m], f, s.format));
        paths.push_back(QString::fromStdString((s.outputDirectory / mNames.back()).string()));
        contents.emplace_back();
        if (sim::Status st = encodeMap(maps[m], s, contents.back()); !st)
            return sim::Status::failure(mNames.back() + ": " + st.error);
    }
    if (sim::Status st = writeFilesAtomically(paths, contents); !st)
        return st;
    for (const QString &p : paths)
        files.emplace_back(p.toStdString());
    return sim::Status::success();
}

// The atlases (flipbook) and the sidecar, all at once.
sim::Status OceanMapSink::finish(std::vector<std::filesystem::path> &files)
{
    const OceanBakeSettings &s = mSettings;
    const int total = s.lastFrame - s.firstFrame + 1;
    const std::filesystem::path &dir = s.outputDirectory;
    int columns = s.columns;
    if (columns <= 0)
        columns = int(std::ceil(std::sqrt(double(total))));
    std::vector<QString> paths;
    std::vector<QByteArray> contents;
    if (s.flipbook) {
        for (std::size_t m = 0; m < s.maps.size(); ++m) {
            mNames.push_back(s.baseName + "_" + toString(s.maps[m]) + "_flipbook"
                             + fileExtension(s.format));
            paths.push_back(QString::fromStdString((dir / mNames.back()).string()));
            contents.emplace_back();
            if (sim::Status st = encodeMap(mapAtlas(mAtlases[m], columns), s, contents.back()); !st)
                return sim::Status::failure(mNames.back() + ": " + st.error);
        }
    }
    paths.push_back(QString::fromStdString((dir / (s.baseName + "_ocean.json")).string()));
    contents.push_back(
        QJsonDocument(sidecar(mScene, s, mDomain, mLow, mHigh, mNames, columns)).toJson());
    if (sim::Status st = writeFilesAtomically(paths, contents); !st)
        return st;
    for (const QString &p : paths)
        files.emplace_back(p.toStdString());
    return sim::Status::success();
}

} // namespace plume
