// SPDX-License-Identifier: Apache-2.0
#include <core/bake/wedgemanifest.h>

#include <core/export/frameimage.h>

#include <core/bake/wedge.h>
#include <core/io/jsonpath.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <set>

namespace plume {

namespace {

std::string jsonString(const std::string &s)
{
    const QByteArray array =
        QJsonDocument(QJsonArray{QString::fromStdString(s)}).toJson(QJsonDocument::Compact);
    return array.mid(1, array.size() - 2).toStdString();
}

std::string jsonValue(const WedgeValue &value)
{
    if (const std::string *s = std::get_if<std::string>(&value))
        return jsonString(*s);
    return formatWedgeValue(value);
}

} // namespace

std::string formatWedgeValue(const WedgeValue &value)
{
    if (const double *d = std::get_if<double>(&value))
        return formatJsonNumber(*d);
    if (const bool *b = std::get_if<bool>(&value))
        return *b ? "true" : "false";
    return std::get<std::string>(value);
}

std::string wedgeVariationName(const std::string &stem, int index)
{
    return stem + "_w" + std::to_string(index);
}

QString wedgeManifestPath(const std::string &directory, const std::string &stem)
{
    return QDir(QString::fromStdString(directory))
        .filePath(QString::fromStdString(stem) + "_wedge.json");
}

QByteArray wedgeManifestToJson(const WedgeManifest &m)
{
    std::string out = "{\n";
    out += "    \"format\": " + jsonString(kWedgeFormatName) + ",\n";
    out += "    \"version\": " + std::to_string(kWedgeFormatVersion) + ",\n";
    out += "    \"source\": " + jsonString(m.source) + ",\n";
    out += "    \"keys\": [";
    for (std::size_t n = 0; n < m.keys.size(); ++n)
        out += (n ? ", " : "") + jsonString(m.keys[n]);
    out += "],\n";
    out += "    \"random\": ";
    out += m.random ? "{\"count\": " + std::to_string(m.random->count)
                          + ", \"seed\": " + std::to_string(m.random->seed) + "}"
                    : std::string("null");
    out += ",\n    \"variations\": [";
    for (std::size_t k = 0; k < m.variations.size(); ++k) {
        const WedgeVariation &v = m.variations[k];
        out += k ? ",\n" : "\n";
        out += "        {\"index\": " + std::to_string(v.index) + ", \"name\": "
               + jsonString(v.name) + ", \"scene\": " + jsonString(v.scene) + ", \"values\": {";
        for (std::size_t n = 0; n < v.values.size(); ++n)
            out += (n ? ", " : "") + jsonString(v.values[n].first) + ": "
                   + jsonValue(v.values[n].second);
        out += "}}";
    }
    out += m.variations.empty() ? "]\n}\n" : "\n    ]\n}\n";
    return QByteArray::fromStdString(out);
}

sim::Status writeWedgeManifest(const WedgeManifest &manifest, const QString &path)
{
    return writeFilesAtomically({path}, {wedgeManifestToJson(manifest)});
}

sim::Result<WedgeManifest> readWedgeManifest(const QString &path)
{
    WedgeManifest out;
    const std::string file = path.toStdString();
    const auto fail =
        [&](const std::string &at, const std::string &expected, const QJsonValue &got) {
        return sim::Status::failure(file + ": " + at + ": expected " + expected + ", got "
                                    + describeJson(got));
    };
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return sim::Status::failure(file + ": cannot open: " + f.errorString().toStdString());
    }
    const QByteArray bytes = f.readAll();
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        const JsonLocation loc = jsonLocation(bytes, parseError.offset);
        return sim::Status::failure(file + ": line " + std::to_string(loc.line) + ", column "
                                    + std::to_string(loc.column) + ": JSON parse error: "
                                    + parseError.errorString().toStdString());
    }
    if (!doc.isObject()) {
        return sim::Status::failure(file + ": expected a JSON object at the top level");
    }
    const QJsonObject root = doc.object();
    if (root.value("format").toString() != QLatin1String(kWedgeFormatName))
        return fail("format", std::string("\"") + kWedgeFormatName + "\"", root.value("format"));
    const QJsonValue version = root.value("version");
    if (!version.isDouble() || version.toDouble() != std::floor(version.toDouble())
        || version.toDouble() < 1)
        return fail("version", "an integer >= 1", version);
    if (version.toDouble() > kWedgeFormatVersion) {
        return sim::Status::failure(
            file + ": version: format version " + formatJsonNumber(version.toDouble())
            + " is newer than this Plume reads (version " + std::to_string(kWedgeFormatVersion)
            + "); read it with a newer Plume");
    }
    const QJsonValue source = root.value("source");
    if (!source.isString())
        return fail("source", "a string (the scene file varied)", source);
    out.source = source.toString().toStdString();

    const QJsonValue keys = root.value("keys");
    if (!keys.isArray() || keys.toArray().isEmpty())
        return fail("keys", "a non-empty array of key strings", keys);
    std::set<std::string> keySet;
    for (int n = 0; n < int(keys.toArray().size()); ++n) {
        const QJsonValue k = keys.toArray()[n];
        const std::string at = "keys[" + std::to_string(n) + "]";
        if (!k.isString() || !checkWedgeKey(k.toString().toStdString()))
            return fail(at, "a scene-format key such as \"simulation.vorticity\"", k);
        if (!keySet.insert(k.toString().toStdString()).second)
            return fail(at, "a key not listed before", k);
        out.keys.push_back(k.toString().toStdString());
    }

    const QJsonValue random = root.value("random");
    if (random.isObject()) {
        const QJsonObject r = random.toObject();
        const QJsonValue count = r.value("count"), seed = r.value("seed");
        const double c = count.toDouble(), s = seed.toDouble();
        if (!count.isDouble() || c != std::floor(c) || c < 1 || c > kMaxWedgeVariations)
            return fail("random.count",
                        "an integer in [1, " + std::to_string(kMaxWedgeVariations) + "]", count);
        if (!seed.isDouble() || s != std::floor(s) || s < 0 || s > 4294967295.0)
            return fail("random.seed", "an integer in [0, 4294967295]", seed);
        out.random = WedgeRandom{int(c), std::uint32_t(s)};
    } else if (!random.isNull()) {
        return fail("random", "null or {\"count\": N, \"seed\": S}", random);
    }

    const QJsonValue variations = root.value("variations");
    if (!variations.isArray())
        return fail("variations", "an array of variations", variations);
    const QJsonArray array = variations.toArray();
    if (array.size() > kMaxWedgeVariations)
        return fail("variations", "at most " + std::to_string(kMaxWedgeVariations) + " variations",
                    variations);
    if (out.random && out.random->count != int(array.size()))
        return fail("variations",
                    "random.count = " + std::to_string(out.random->count) + " variations",
                    variations);
    std::set<std::string> names;
    for (int k = 0; k < int(array.size()); ++k) {
        const std::string at = "variations[" + std::to_string(k) + "]";
        if (!array[k].isObject())
            return fail(at, "an object", array[k]);
        const QJsonObject v = array[k].toObject();
        WedgeVariation variation;
        const QJsonValue index = v.value("index");
        if (!index.isDouble() || index.toDouble() != k)
            return fail(at + ".index", std::to_string(k) + " (the variation's position)", index);
        variation.index = k;
        const QJsonValue name = v.value("name");
        if (!name.isString() || name.toString().isEmpty())
            return fail(at + ".name", "a non-empty string", name);
        if (!names.insert(name.toString().toStdString()).second)
            return fail(at + ".name", "a name no other variation has", name);
        variation.name = name.toString().toStdString();
        const QJsonValue scene = v.value("scene");
        if (!scene.isString() || scene.toString().isEmpty()
            || QFileInfo(scene.toString()).isAbsolute())
            return fail(at + ".scene", "a scene file relative to the manifest's folder", scene);
        variation.scene = scene.toString().toStdString();
        const QJsonValue values = v.value("values");
        if (!values.isObject())
            return fail(at + ".values", "an object with a value for each key", values);
        const QJsonObject object = values.toObject();
        for (auto it = object.begin(); it != object.end(); ++it) {
            if (!keySet.count(it.key().toStdString()))
                return fail(at + ".values." + it.key().toStdString(), "one of the keys", it.key());
        }
        for (const std::string &key : out.keys) {
            const QJsonValue value = object.value(QString::fromStdString(key));
            const std::string valueAt = at + ".values." + key;
            if (value.isDouble())
                variation.values.emplace_back(key, value.toDouble());
            else if (value.isBool())
                variation.values.emplace_back(key, value.toBool());
            else if (value.isString())
                variation.values.emplace_back(key, value.toString().toStdString());
            else
                return fail(valueAt, "a number, a boolean or a string", value);
        }
        out.variations.push_back(std::move(variation));
    }
    return out;
}

} // namespace plume
