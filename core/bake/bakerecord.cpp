// SPDX-License-Identifier: Apache-2.0
#include <core/bake/bakerecord.h>

#include <core/bake/sinks/bakesink.h>

#include <core/export/frameimage.h>
#include <core/io/scenehash.h>
#include <core/io/scenewriter.h>

#include <QDataStream>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

#include <cstring>
#include <vector>

namespace plume {

std::filesystem::path checkpointPath(const std::filesystem::path &resumeDir)
{
    return resumeDir / "checkpoint.plumeckpt";
}

std::filesystem::path keptFramePath(const std::filesystem::path &resumeDir, int frame)
{
    return resumeDir / ("flipbook." + frameNumber(frame) + ".frame");
}

namespace {

constexpr int kRecordFormat = 1;
constexpr char kFrameMagic[8] = {'P', 'L', 'U', 'M', 'E', 'F', 'R', 'M'};

QString qPath(const std::filesystem::path &p) { return QString::fromStdString(p.string()); }

std::string hexText(std::uint64_t v) { return QString::number(v, 16).toStdString(); }

/// A JSON value in a message: compact, numbers in their shortest form.
std::string valueText(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Undefined: return "(none)";
    case QJsonValue::Null: return "null";
    case QJsonValue::Bool: return v.toBool() ? "true" : "false";
    case QJsonValue::Double: return QString::number(v.toDouble(), 'g', 9).toStdString();
    case QJsonValue::String: return "\"" + v.toString().toStdString() + "\"";
    case QJsonValue::Array:
        return QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact).toStdString();
    case QJsonValue::Object:
        return QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact).toStdString();
    }
    return {};
}

/// The key paths where two JSON values differ ("a.b[2].c old -> new"), at most `limit`.
void differences(const QJsonValue &was, const QJsonValue &now, const std::string &path,
                 std::vector<std::string> &out, std::size_t limit)
{
    if (out.size() >= limit || was == now)
        return;
    if (was.isObject() && now.isObject()) {
        const QJsonObject a = was.toObject(), b = now.toObject();
        QStringList keys = a.keys() + b.keys();
        keys.removeDuplicates();
        keys.sort();
        for (const QString &k : keys)
            differences(a.value(k), b.value(k),
                        path.empty() ? k.toStdString() : path + "." + k.toStdString(), out, limit);
        return;
    }
    if (was.isArray() && now.isArray() && was.toArray().size() == now.toArray().size()) {
        const QJsonArray a = was.toArray(), b = now.toArray();
        for (qsizetype n = 0; n < a.size(); ++n)
            differences(a[n], b[n], path + "[" + std::to_string(n) + "]", out, limit);
        return;
    }
    out.push_back(path + " " + valueText(was) + " -> " + valueText(now));
}

std::string join(const std::vector<std::string> &parts)
{
    std::string s;
    for (const std::string &p : parts)
        s += (s.empty() ? "" : "; ") + p;
    return s;
}

QJsonObject parseObject(const QByteArray &json) { return QJsonDocument::fromJson(json).object(); }

} // namespace

BakeRecord makeBakeRecord(const Scene &scene, const BakeSettings &settings)
{
    return {parseObject(simulationJson(scene)), bakeOptionsJson(settings), sceneHash(scene)};
}

QJsonObject bakeOptionsJson(const BakeSettings &settings)
{
    Scene looks;
    looks.exports.render = settings.render;
    looks.exports.flipbook = settings.flipbook;
    looks.exports.images = settings.images;
    looks.exports.openvdb = settings.openvdb;
    QJsonObject o;
    o["baseName"] = QString::fromStdString(settings.baseName);
    o["frames"] = QString("%1:%2").arg(settings.firstFrame).arg(settings.lastFrame);
    o["vdb"] = settings.vdb;
    // Only when on, so that the records of bakes without them read as before.
    if (settings.mesh)
        o["mesh"] = true;
    if (settings.levelSurface)
        o["levelSurface"] = true;
    if (settings.levelSurface || settings.mesh)
        o["levelSurfaceIso"] = double(settings.levelSurfaceIso);
    if (const VolumeTextureSettings &v = settings.volumeTexture; v.enabled)
        o["volumeTexture"] = QJsonObject{{"channel", toString(v.channel)},
                                         {"bitDepth", v.bitDepth},
                                         {"size", v.size},
                                         {"range", double(v.range)}};
    if (const VectorFieldSettings &v = settings.vectorField; v.enabled)
        o["vectorField"] = QJsonObject{{"format", toString(v.format)},
                                       {"size", v.size},
                                       {"average", v.average},
                                       {"scale", double(v.scale)}};
    o["export"] = parseObject(sceneToJson(looks, std::string())).value("export");
    o["plumeVersion"] = QString::fromStdString(settings.plumeVersion);
    return o;
}

sim::Status writeBakeRecord(const std::filesystem::path &folder, const BakeRecord &record)
{
    QJsonObject root;
    root["format"] = kRecordFormat;
    root["sceneHash"] = QString::fromStdString(hexText(record.sceneHash));
    root["scene"] = record.scene;
    root["options"] = record.options;
    return writeFilesAtomically({qPath(folder / "bake.json")},
                                {QJsonDocument(root).toJson(QJsonDocument::Indented)});
}

sim::Status readBakeRecord(const std::filesystem::path &folder, BakeRecord &record)
{
    const QString path = qPath(folder / "bake.json");
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return sim::Status::failure(path.toStdString() + ": " + file.errorString().toStdString());
    QJsonParseError error;
    const QJsonObject root = QJsonDocument::fromJson(file.readAll(), &error).object();
    bool hashOk = false;
    record.sceneHash = root.value("sceneHash").toString().toULongLong(&hashOk, 16);
    if (error.error != QJsonParseError::NoError || root.value("format").toInt() != kRecordFormat
        || !hashOk || !root.value("scene").isObject() || !root.value("options").isObject())
        return sim::Status::failure(path.toStdString()
                                    + ": not a resume record this version of Plume reads");
    record.scene = root.value("scene").toObject();
    record.options = root.value("options").toObject();
    return sim::Status::success();
}

std::string bakeRecordDifference(const BakeRecord &was, const BakeRecord &now)
{
    std::vector<std::string> scene, options;
    differences(was.scene, now.scene, std::string(), scene, 3);
    differences(was.options, now.options, std::string(), options, 3);
    if (!scene.empty())
        return "the scene changed: " + join(scene);
    if (!options.empty())
        return "the bake's options changed: " + join(options);
    if (was.sceneHash != now.sceneHash)
        return "the scene's image files changed";
    return {};
}

sim::Status saveRenderedFrame(const std::filesystem::path &path, const RenderedFrame &frame)
{
    QByteArray raw;
    QDataStream out(&raw, QIODevice::WriteOnly);
    out.setByteOrder(QDataStream::LittleEndian);
    out.writeRawData(kFrameMagic, sizeof kFrameMagic);
    out << qint32(frame.width) << qint32(frame.height) << bool(frame.hasMotion) << frame.depthNear
        << frame.depthFar;
    for (const std::vector<float> *v : {&frame.color, &frame.emission, &frame.motion, &frame.sixWay,
                                        &frame.normal, &frame.depth}) {
        out << quint64(v->size());
        out.writeRawData(reinterpret_cast<const char *>(v->data()), int(v->size() * sizeof(float)));
    }
    return writeFilesAtomically({qPath(path)}, {qCompress(raw, 1)});
}

sim::Status loadRenderedFrame(const std::filesystem::path &path, RenderedFrame &frame)
{
    QFile file(qPath(path));
    if (!file.open(QIODevice::ReadOnly))
        return sim::Status::failure(path.string() + ": " + file.errorString().toStdString());
    const QByteArray raw = qUncompress(file.readAll());
    QDataStream in(raw);
    in.setByteOrder(QDataStream::LittleEndian);
    char magic[sizeof kFrameMagic] = {};
    in.readRawData(magic, sizeof magic);
    qint32 width = 0, height = 0;
    bool motion = false;
    float depthNear = 0.f, depthFar = 1.f;
    in >> width >> height >> motion >> depthNear >> depthFar;
    bool ok = std::memcmp(magic, kFrameMagic, sizeof magic) == 0 && width >= 0 && height >= 0;
    RenderedFrame f;
    f.width = width;
    f.height = height;
    f.hasMotion = motion;
    f.depthNear = depthNear;
    f.depthFar = depthFar;
    for (std::vector<float> *v :
         {&f.color, &f.emission, &f.motion, &f.sixWay, &f.normal, &f.depth}) {
        quint64 count = 0;
        in >> count;
        ok = ok && in.status() == QDataStream::Ok && count <= quint64(raw.size()) / sizeof(float);
        if (!ok)
            break;
        v->resize(std::size_t(count));
        ok = in.readRawData(reinterpret_cast<char *>(v->data()), int(count * sizeof(float)))
             == int(count * sizeof(float));
    }
    if (!ok || !in.atEnd())
        return sim::Status::failure(path.string() + ": damaged flipbook frame");
    frame = std::move(f);
    return sim::Status::success();
}

} // namespace plume
