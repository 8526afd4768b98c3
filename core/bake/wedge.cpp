// SPDX-License-Identifier: Apache-2.0
#include <core/bake/wedge.h>

#include <core/io/scenenumbers.h>

#include <core/io/jsonpath.h>
#include <core/io/scenewriter.h>

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <random>
#include <set>

namespace plume {

namespace {

std::string trimmed(const std::string &s)
{
    const auto first = s.find_first_not_of(" \t");
    if (first == std::string::npos)
        return {};
    return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

/// The whole of `text` as a finite number.
bool parseNumber(const std::string &text, double &out)
{
    const char *begin = text.data(), *end = text.data() + text.size();
    if (begin != end && *begin == '+')
        ++begin;
    double v = 0.0;
    const auto [ptr, ec] = std::from_chars(begin, end, v);
    if (ec != std::errc() || ptr != end || !std::isfinite(v))
        return false;
    out = v == 0.0 ? 0.0 : v; // no -0
    return true;
}

/// A number with the binary noise of a computed range value removed: the double nearest its
/// 15 significant digits (0.30000000000000004 -> 0.3).
double tidy(double v)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.15g", v);
    double out = v;
    parseNumber(text, out);
    return out;
}

/// One step of a key: a member name, or a selector in brackets (an index or an item's name).
struct KeyStep
{
    bool member = true;
    std::string text;
};

bool isNameChar(char c, bool first)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'
           || (!first && c >= '0' && c <= '9');
}

/// Splits "items[charge].emitter.fuel" into items, [charge], emitter, fuel.
bool parseKey(const std::string &key, std::vector<KeyStep> &steps, std::string &error)
{
    steps.clear();
    const auto fail = [&](std::size_t at, const std::string &what) {
        error = key + ": " + what + " at character " + std::to_string(at + 1)
                + " (a key is a scene-format path such as simulation.vorticity or "
                  "items[name].emitter.fuel)";
        return false;
    };
    if (key.empty()) {
        error = "an empty key (a key is a scene-format path such as simulation.vorticity or "
                "items[name].emitter.fuel)";
        return false;
    }
    std::size_t n = 0;
    bool wantMember = true;
    while (n < key.size()) {
        if (wantMember) {
            const std::size_t start = n;
            while (n < key.size() && isNameChar(key[n], n == start))
                ++n;
            if (n == start)
                return fail(n, "expected a name");
            steps.push_back({true, key.substr(start, n - start)});
            wantMember = false;
        } else if (key[n] == '.') {
            ++n;
            wantMember = true;
            if (n == key.size())
                return fail(n - 1, "expected a name after '.'");
        } else if (key[n] == '[') {
            const std::size_t close = key.find(']', n);
            if (close == std::string::npos)
                return fail(n, "'[' without ']'");
            if (close == n + 1)
                return fail(n, "empty brackets");
            steps.push_back({false, key.substr(n + 1, close - n - 1)});
            n = close + 1;
        } else {
            return fail(n, std::string("unexpected '") + key[n] + "'");
        }
    }
    return true;
}

bool allDigits(const std::string &s)
{
    if (s.empty())
        return false;
    for (char c : s) {
        if (c < '0' || c > '9')
            return false;
    }
    return true;
}

/// The value as JSON where `existing` stands: numbers and booleans become text where the
/// format has a string, so that enums and names take any list value.
QJsonValue toJson(const WedgeValue &value, const QJsonValue &existing)
{
    if (existing.isString())
        return QString::fromStdString(formatWedgeValue(value));
    if (const double *d = std::get_if<double>(&value))
        return *d;
    if (const bool *b = std::get_if<bool>(&value))
        return *b;
    return QString::fromStdString(std::get<std::string>(value));
}

/// Sets steps[i..] below `node` to `value`; `resolved` grows into the path with indices
/// (the reader's form: items[0].emitter.fuel).
bool setAt(QJsonValue &node, const std::vector<KeyStep> &steps, std::size_t i,
           const WedgeValue &value, const std::string &key, std::string &resolved,
           std::string &error)
{
    const KeyStep &step = steps[i];
    const bool last = i + 1 == steps.size();
    const std::string here = resolved.empty() ? std::string("the top level") : resolved;
    if (step.member) {
        if (!node.isObject()) {
            error = key + ": no such key: " + here + " is not an object";
            return false;
        }
        QJsonObject object = node.toObject();
        resolved += (resolved.empty() ? "" : ".") + step.text;
        const QString name = QString::fromStdString(step.text);
        QJsonValue child = object.value(name);
        if (last) {
            child = toJson(value, child);
        } else {
            // A section the writer leaves out while it has its defaults (simulation.upres):
            // created, and the reader says whether the format has it.
            if (child.isUndefined() && steps[i + 1].member)
                child = QJsonObject();
            if (!setAt(child, steps, i + 1, value, key, resolved, error))
                return false;
        }
        object.insert(name, child);
        node = object;
        return true;
    }
    if (!node.isArray()) {
        error = key + ": no such key: " + here + " is not an array, so [" + step.text
                + "] selects nothing";
        return false;
    }
    QJsonArray array = node.toArray();
    int index = -1;
    if (allDigits(step.text)) {
        index = step.text.size() > 9 ? int(array.size()) : std::stoi(step.text);
        if (index >= int(array.size())) {
            error = key + ": index " + step.text + " is out of range: " + here + " has "
                    + std::to_string(array.size()) + " element" + (array.size() == 1 ? "" : "s");
            return false;
        }
    } else {
        std::string names;
        for (int n = 0; n < int(array.size()) && index < 0; ++n) {
            const QString name = array[n].toObject().value("name").toString();
            if (name.toStdString() == step.text)
                index = n;
            else if (!name.isEmpty())
                names += (names.empty() ? "" : ", ") + name.toStdString();
        }
        if (index < 0) {
            error = key + ": no element of " + here + " is named '" + step.text + "'"
                    + (names.empty() ? std::string(" (it has none with a name)")
                                     : " (names: " + names + ")");
            return false;
        }
    }
    resolved += "[" + std::to_string(index) + "]";
    QJsonValue child = array[index];
    if (last) {
        child = toJson(value, child);
    } else if (!setAt(child, steps, i + 1, value, key, resolved, error)) {
        return false;
    }
    array[index] = child;
    node = array;
    return true;
}

/// Whether the reader reported `resolved` or a section above it as an unknown key.
bool unknownToReader(const std::vector<ReadWarning> &warnings, const std::string &resolved,
                     std::string &section)
{
    for (const ReadWarning &w : warnings) {
        if (w.kind != ReadWarningKind::UnknownKey)
            continue;
        const std::string &path = w.path;
        if (resolved == path
            || (resolved.rfind(path, 0) == 0
                && (resolved[path.size()] == '.' || resolved[path.size()] == '['))) {
            section = path;
            return true;
        }
    }
    return false;
}

std::string describeValues(const std::vector<WedgeAssignment> &values)
{
    std::string s;
    for (const auto &[key, value] : values)
        s += (s.empty() ? "" : ", ") + key + " = " + formatWedgeValue(value);
    return s;
}

/// Uniform in [0, 1) from the top 53 bits: the same on every platform.
double uniform(std::mt19937_64 &generator) { return double(generator() >> 11) * 0x1.0p-53; }

WedgeValue draw(const WedgeAxis &axis, std::mt19937_64 &generator)
{
    const double u = uniform(generator);
    if (!axis.range)
        return axis.list[std::min(std::size_t(u * double(axis.list.size())), axis.list.size() - 1)];
    if (axis.integral) {
        const double lo = std::ceil(axis.from),
                     span = std::max(std::floor(axis.to) - lo + 1.0, 1.0);
        return lo + std::min(std::floor(u * span), span - 1.0);
    }
    // Six significant digits, as an artist would type it, and what a float keeps exactly.
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", axis.from + (axis.to - axis.from) * u);
    double v = axis.from;
    parseNumber(text, v);
    return std::clamp(v, axis.from, axis.to);
}

} // namespace

std::vector<WedgeValue> WedgeAxis::values() const
{
    if (!range)
        return list;
    std::vector<WedgeValue> out;
    for (int n = 0; n < count; ++n) {
        if (count == 1 || n == 0)
            out.push_back(from);
        else if (n == count - 1)
            out.push_back(to);
        else
            out.push_back(tidy((double(count - 1 - n) * from + double(n) * to) / (count - 1)));
    }
    return out;
}

sim::Result<WedgeAxis> parseWedgeValues(const std::string &key, const std::string &values)
{
    WedgeAxis out;
    out.key = key;
    const std::string text = trimmed(values);
    if (text.empty()) {
        return sim::Status::failure(key + ": no values (a list a,b,c or a range A:B:N)");
    }
    if (text.find(':') != std::string::npos) {
        if (text.find(',') != std::string::npos) {
            return sim::Status::failure(key + ": '" + text
                                        + "' mixes a list and a range (a list a,b,c or a range "
                                          "A:B:N)");
        }
        std::vector<std::string> parts;
        for (std::size_t start = 0;;) {
            const std::size_t colon = text.find(':', start);
            parts.push_back(trimmed(text.substr(start, colon - start)));
            if (colon == std::string::npos)
                break;
            start = colon + 1;
        }
        const std::string syntax = key + ": '" + text
                                   + "' is not a range A:B:N (N values from "
                                     "A to B inclusive";
        if (parts.size() < 2 || parts.size() > 3 || !parseNumber(parts[0], out.from)
            || !parseNumber(parts[1], out.to)) {
            return sim::Status::failure(syntax + ", A and B numbers)");
        }
        if (parts.size() == 3) {
            double n = 0.0;
            if (!parseNumber(parts[2], n) || n != std::floor(n) || n < 1
                || n > kMaxWedgeVariations) {
                return sim::Status::failure(syntax + "; N an integer in [1, "
                                            + std::to_string(kMaxWedgeVariations) + "], got '"
                                            + parts[2] + "')");
            }
            out.count = int(n);
        }
        out.range = true;
        return out;
    }
    for (std::size_t start = 0;;) {
        const std::size_t comma = text.find(',', start);
        const std::string item = trimmed(text.substr(start, comma - start));
        if (item.empty()) {
            return sim::Status::failure(key + ": an empty value in the list '" + text + "'");
        }
        double number = 0.0;
        if (parseNumber(item, number))
            out.list.push_back(number);
        else if (item == "true" || item == "false")
            out.list.push_back(item == "true");
        else
            out.list.push_back(item);
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    return out;
}

sim::Status checkWedgeKey(const std::string &key)
{
    std::vector<KeyStep> steps;
    std::string error;
    if (!parseKey(key, steps, error))
        return sim::Status::failure(error);
    return sim::Status::success();
}

sim::Result<WedgeAxis> parseWedgeAxis(const std::string &text)
{
    const std::size_t equals = text.find('=');
    if (equals == std::string::npos) {
        return sim::Status::failure(
            "'" + text
            + "' is not KEY=VALUES (e.g. simulation.vorticity=0.1,0.2,0.4 or "
              "items[name].emitter.fuel=4:12:3)");
    }
    const std::string key = trimmed(text.substr(0, equals));
    if (sim::Status s = checkWedgeKey(key); !s)
        return s;
    return parseWedgeValues(key, text.substr(equals + 1));
}

long long wedgeCount(const WedgeSpec &spec)
{
    if (spec.axes.empty())
        return -1;
    if (spec.random)
        return spec.random->count >= 1 && spec.random->count <= kMaxWedgeVariations
                   ? spec.random->count
                   : -1;
    long long count = 1;
    for (const WedgeAxis &axis : spec.axes) {
        count *= axis.range ? axis.count : (long long)axis.list.size();
        if (count > kMaxWedgeVariations || count < 1)
            return -1;
    }
    return count;
}

sim::Result<std::vector<std::vector<WedgeValue>>> wedgeValues(const WedgeSpec &spec)
{
    std::vector<std::vector<WedgeValue>> out;
    if (spec.axes.empty()) {
        return sim::Status::failure("a wedge needs at least one key to vary");
    }
    std::set<std::string> keys;
    for (const WedgeAxis &axis : spec.axes) {
        if (!keys.insert(axis.key).second) {
            return sim::Status::failure(axis.key + ": the key is varied twice");
        }
        if (!axis.range && axis.list.empty()) {
            return sim::Status::failure(axis.key + ": no values");
        }
        if (axis.range && !spec.random && axis.count == 0) {
            return sim::Status::failure(axis.key + ": the range " + formatJsonNumber(axis.from)
                                        + ":" + formatJsonNumber(axis.to)
                                        + " needs a count, A:B:N, except in a random wedge");
        }
        if (axis.range && spec.random && axis.from > axis.to) {
            return sim::Status::failure(
                axis.key + ": a random wedge draws from A:B with A <= B, got "
                + formatJsonNumber(axis.from) + ":" + formatJsonNumber(axis.to));
        }
    }
    if (spec.random) {
        const int n = spec.random->count;
        if (n < 1 || n > kMaxWedgeVariations) {
            return sim::Status::failure("a random wedge of " + std::to_string(n)
                                        + " variations: the count must be "
                                          "in [1, "
                                        + std::to_string(kMaxWedgeVariations)
                                        + "] (kMaxWedgeVariations)");
        }
        std::mt19937_64 generator(spec.random->seed);
        for (int k = 0; k < n; ++k) {
            std::vector<WedgeValue> row;
            for (const WedgeAxis &axis : spec.axes)
                row.push_back(draw(axis, generator));
            out.push_back(std::move(row));
        }
        return out;
    }
    // The product, counted without overflow.
    long double total = 1;
    std::string factors;
    std::vector<std::vector<WedgeValue>> axisValues;
    for (const WedgeAxis &axis : spec.axes) {
        axisValues.push_back(axis.values());
        total *= (long double)axisValues.back().size();
        factors += (factors.empty() ? "" : " x ") + std::to_string(axisValues.back().size());
    }
    if (total > kMaxWedgeVariations) {
        char count[48];
        std::snprintf(count, sizeof count, "%.0Lf", total);
        return sim::Status::failure(
            std::string("the wedge makes ") + count + " variations (" + factors + "); at most "
            + std::to_string(kMaxWedgeVariations)
            + " are allowed (kMaxWedgeVariations): vary fewer values or use --random N");
    }
    std::vector<std::size_t> digit(spec.axes.size(), 0);
    for (long long k = 0; k < (long long)total; ++k) {
        std::vector<WedgeValue> row;
        for (std::size_t a = 0; a < spec.axes.size(); ++a)
            row.push_back(axisValues[a][digit[a]]);
        out.push_back(std::move(row));
        for (std::size_t a = spec.axes.size(); a-- > 0;) { // the last key fastest
            if (++digit[a] < axisValues[a].size())
                break;
            digit[a] = 0;
        }
    }
    return out;
}

SceneReadResult applyWedgeValues(const Scene &scene, const std::vector<WedgeAssignment> &values,
                                 const std::string &directory, const QString &fileName)
{
    SceneReadResult result;
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(sceneToJson(scene, directory), &parseError);
    QJsonValue root = doc.object();
    std::vector<std::string> resolved;
    std::set<std::string> seen;
    for (const auto &[key, value] : values) {
        std::vector<KeyStep> steps;
        std::string path;
        if (!parseKey(key, steps, result.error)
            || !setAt(root, steps, 0, value, key, path, result.error))
            return result;
        if (!seen.insert(path).second) {
            result.error = key + ": sets " + path + ", which another key of the wedge sets too";
            return result;
        }
        resolved.push_back(path);
    }
    const QByteArray json = QJsonDocument(root.toObject()).toJson(QJsonDocument::Compact);
    result = readSceneJson(json, fileName, directory);
    for (std::size_t n = 0; n < values.size(); ++n) {
        std::string section;
        if (unknownToReader(result.warnings, resolved[n], section)) {
            result.ok = false;
            result.scene = Scene{};
            result.error = values[n].first
                           + ": no such key in this scene (the reader does not "
                             "read "
                           + section + "; docs/scene-format.md lists the keys)";
            return result;
        }
    }
    if (!result.ok)
        result.error = describeValues(values) + ": " + result.error;
    return result;
}

namespace {

/// The reader's path of `key` in `scene` ("items[charge].offset[1]" is "items[0].offset[1]"),
/// or empty when the key selects nothing there.
std::string readerPath(const Scene &scene, const std::string &key)
{
    std::vector<KeyStep> steps;
    std::string error, path;
    if (!parseKey(key, steps, error))
        return {};
    QJsonValue root = QJsonDocument::fromJson(sceneToJson(scene, scene.directory)).object();
    if (!setAt(root, steps, 0, WedgeValue{0.0}, key, path, error))
        return {};
    return path;
}

/// The spec with `integral` set on each range whose key the reader takes only integers at
/// (from the scene file's tables: scenenumbers.h).
WedgeSpec withIntegerKeys(const Scene &scene, WedgeSpec spec)
{
    for (WedgeAxis &axis : spec.axes) {
        if (!axis.range)
            continue;
        const auto number = sceneNumberKey(scene, readerPath(scene, axis.key));
        axis.integral = number && number->integer;
    }
    return spec;
}

} // namespace

sim::Status checkWedge(const Scene &scene, const WedgeSpec &given, const QString &fileName)
{
    const WedgeSpec spec = withIntegerKeys(scene, given);
    const auto rows = wedgeValues(spec);
    if (!rows)
        return rows.status();
    for (const WedgeAxis &axis : spec.axes) {
        std::vector<WedgeValue> tried = axis.list;
        if (axis.range)
            tried = spec.random ? std::vector<WedgeValue>{axis.from, axis.to} : axis.values();
        for (const WedgeValue &value : tried) {
            const SceneReadResult r = applyWedgeValues(scene, {{axis.key, value}}, scene.directory,
                                                       fileName);
            if (!r.ok)
                return sim::Status::failure(r.error);
        }
    }
    // All keys at once: two keys that set the same value, values that only refuse together.
    std::vector<WedgeAssignment> first;
    for (std::size_t a = 0; a < spec.axes.size(); ++a)
        first.emplace_back(spec.axes[a].key, rows.value()[0][a]);
    if (const SceneReadResult r = applyWedgeValues(scene, first, scene.directory, fileName); !r.ok)
        return sim::Status::failure(r.error);
    return sim::Status::success();
}

sim::Result<WedgePlan> planWedge(const Scene &scene, const std::string &source,
                                 const std::string &stem, const WedgeSpec &given,
                                 const std::string &directory)
{
    const WedgeSpec spec = withIntegerKeys(scene, given);
    if (sim::Status s = checkWedge(scene, given,
                                   QString::fromStdString(stem + "." + kSceneFileExtension));
        !s)
        return s;
    const auto rows = wedgeValues(spec);
    if (!rows)
        return rows.status();
    if (stem.empty())
        return sim::Status::failure("a wedge needs a scene name for its files");
    const std::string dir = QDir(QString::fromStdString(directory)).absolutePath().toStdString();
    WedgePlan plan;
    plan.manifest.source = source;
    plan.manifest.random = spec.random;
    for (const WedgeAxis &axis : spec.axes)
        plan.manifest.keys.push_back(axis.key);
    for (std::size_t k = 0; k < rows.value().size(); ++k) {
        WedgeVariation v;
        v.index = int(k);
        v.name = wedgeVariationName(stem, v.index);
        v.scene = v.name + "." + kSceneFileExtension;
        for (std::size_t a = 0; a < spec.axes.size(); ++a)
            v.values.emplace_back(spec.axes[a].key, rows.value()[k][a]);
        SceneReadResult r = applyWedgeValues(scene, v.values, dir, QString::fromStdString(v.scene));
        if (!r.ok)
            return sim::Status::failure("variation " + std::to_string(k) + " (" + v.name
                                        + "): " + r.error);
        plan.scenes.push_back(std::move(r.scene));
        plan.manifest.variations.push_back(std::move(v));
    }
    return plan;
}

sim::Status writeWedge(const WedgePlan &plan, const std::string &stem, const std::string &directory)
{
    const QDir dir(QString::fromStdString(directory));
    if (!QDir().mkpath(dir.absolutePath()))
        return sim::Status::failure(directory + ": cannot create the folder");
    for (std::size_t k = 0; k < plan.scenes.size(); ++k) {
        const QString path = dir.filePath(
            QString::fromStdString(plan.manifest.variations[k].scene));
        if (sim::Status s = writeSceneFile(plan.scenes[k], path); !s)
            return s;
    }
    return writeWedgeManifest(plan.manifest, wedgeManifestPath(directory, stem));
}

namespace {

/// Collects the numbers below `value` at `path`.
void collectKeys(const QJsonValue &value, const std::string &path, std::vector<std::string> &out)
{
    if (value.isDouble()) {
        out.push_back(path);
        return;
    }
    if (value.isArray()) {
        const QJsonArray array = value.toArray();
        bool numbers = !array.isEmpty();
        for (const QJsonValue &e : array)
            numbers = numbers && e.isDouble();
        if (numbers) { // a vector: each component
            for (int n = 0; n < int(array.size()); ++n)
                out.push_back(path + "[" + std::to_string(n) + "]");
        }
        return; // arrays of objects (stroke points, packing rows) are not offered
    }
    if (!value.isObject())
        return;
    const QJsonObject object = value.toObject();
    if (object.contains("keys") && object.contains("interpolation")) {
        // An animated number (not a vector): a plain value replaces its keys.
        if (object.value("keys").toArray().first().toObject().value("value").isDouble())
            out.push_back(path);
        return;
    }
    for (auto it = object.begin(); it != object.end(); ++it)
        collectKeys(it.value(), path + "." + it.key().toStdString(), out);
}

} // namespace

std::vector<std::string> wedgeKeys(const Scene &scene)
{
    const QJsonObject root = QJsonDocument::fromJson(sceneToJson(scene, std::string())).object();
    std::vector<std::string> out;
    for (const char *section : {"domain", "simulation"})
        collectKeys(root.value(section), section, out);
    for (const Item &item : scene.items) {
        for (const QJsonValue &v : root.value("items").toArray()) {
            if (v.toObject().value("name").toString().toStdString() == item.name)
                collectKeys(v, "items[" + item.name + "]", out);
        }
    }
    collectKeys(root.value("export"), "export", out);
    return out;
}

} // namespace plume
