// SPDX-License-Identifier: Apache-2.0
#include <core/io/scenereader.h>

#include <core/io/jsonpath.h>
#include <core/io/objectreader.h>
#include <core/io/scenefields.h>

#include <core/scene/rasterize.h>
#include <core/scene/shapecoverage.h>

#include <QFile>
#include <QFileInfo>
#include <QImageReader>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <map>
#include <utility>

namespace plume {

using sim::Vec3;

namespace {

using sim::Param;
using namespace objectreader;

/// Fails at domain.resolution: the domain has more cells than `limit`.
void failCellLimit(Context &ctx, const DomainSettings &d, std::int64_t limit)
{
    const sim::Int3 cells = domainCells(d);
    char gib[32];
    std::snprintf(gib, sizeof gib, "%.1f", double(estimateMemoryBytes(d)) / (1 << 30));
    const bool adaptive = limit == kMaxAdaptiveCells;
    ctx.failMessage("domain.resolution",
                    "expected a resolution giving at most " + std::to_string(limit) + " cells ("
                        + (adaptive ? "1024^3 with the adaptive domain" : "512^3") + "); "
                        + std::to_string(d.resolution) + " gives " + std::to_string(cells.x) + " x "
                        + std::to_string(cells.y) + " x " + std::to_string(cells.z) + " = "
                        + std::to_string(cells.volume()) + " cells, about " + gib
                        + " GiB of solver memory"
                        + (adaptive ? ""
                                    : "; the smoke scheme's adaptive domain "
                                      "(simulation.adaptiveDomain) takes up to 1024^3"));
}

/// Whether the image file at `key` exists and Qt can decode it (image masks, liquid textures).
void checkImageFile(ObjectReader &r, const char *key, const std::string &file)
{
    const std::string resolved = resolveImagePath(file, r.context().directory);
    const QString qpath = QString::fromStdString(resolved);
    if (!QFileInfo(qpath).isFile())
        return r.context().failMessage(r.path(key), "expected an image file; '" + file
                                                        + "' (resolved to '" + resolved
                                                        + "') does not exist");
    QImageReader reader(qpath);
    if (!reader.canRead())
        return r.context().failMessage(r.path(key),
                                       "expected an image file Qt can decode; '" + resolved
                                           + "': " + reader.errorString().toStdString());
}

/// Reads an object by its table in scenefields.h: each key within its range or names, the
/// checks between keys, the unknown keys kept by finish(). The first error stops the reading.
class FieldReader : public ObjectReader
{
public:
    using ObjectReader::ObjectReader;

    template<class T>
    void number(const Param &p, T &out, When = {})
    {
        ObjectReader::number(p, out);
    }
    void vec3(const Param &p, Vec3 &out, When = {}) { ObjectReader::vec3(p, out); }
    void boolean(const char *key, bool &out, When = {}) { ObjectReader::boolean(key, out); }
    template<class E, std::size_t N>
    void enumeration(const char *key, E &out, const sim::EnumNames<E, N> &names, When = {})
    {
        ObjectReader::enumeration(key, out, names);
    }
    template<class T>
    void animated(const Param &p, Animated<T> &out, When = {})
    {
        readAnimated(*this, p, out);
    }
    template<class T>
    void absentMeans(const char *key, T &out, const T &fallback)
    {
        if (ok() && !has(key))
            out = fallback;
    }

    template<class F>
    void object(const char *key, QJsonObject &extra, F fields, When = {})
    {
        if (!ok() || !has(key))
            return;
        FieldReader o(context(), take(key), path(key));
        fields(o);
        extra = o.finish();
    }

    template<class T, class F>
    void objects(const char *key, const char *what, std::vector<T> &elements, F fields)
    {
        require(key);
        const QJsonValue v = take(key);
        if (!ok())
            return;
        if (!v.isArray() || v.toArray().isEmpty())
            return context().fail(path(key), std::string("a non-empty array of ") + what, v);
        const QJsonArray array = v.toArray();
        elements.clear();
        for (int n = 0; n < int(array.size()) && ok(); ++n) {
            FieldReader o(context(), array[n], path(key) + "[" + std::to_string(n) + "]");
            T element;
            fields(o, element);
            element.extra = o.finish();
            elements.push_back(std::move(element));
        }
    }

    template<class F>
    void check(const std::string &key, bool good, F message)
    {
        if (ok() && !good)
            context().failMessage(path(key.c_str()), message());
    }
    template<class F>
    void expect(const std::string &key, bool good, F expected, double got)
    {
        if (ok() && !good)
            context().fail(path(key.c_str()), expected(), got);
    }

    /// A required file name: an image Qt decodes, or a model file loadMesh reads.
    void file(const char *key, std::string &out, scenefields::FileKind kind)
    {
        require(key);
        string(key, out, true);
        if (!ok())
            return;
        if (kind == scenefields::FileKind::Image)
            return checkImageFile(*this, key, out);
        if (const auto mesh = loadMesh(resolveImagePath(out, context().directory)); !mesh)
            context().failMessage(path(key), "expected a model file (" + mesh.error() + ")");
    }

    /// "type": a shape type this kind of item takes ("everywhere" is for force items; image
    /// masks are 2D).
    void shapeType(ShapeType &type, ItemKind kind, Dimension dim)
    {
        require("type");
        if (!ok() || !has("type"))
            return;
        const ShapeType everywhere = ShapeType::Everywhere;
        const QJsonValue v = take("type");
        if (!v.isString() || !kShapeTypeNames.parse(v.toString().toStdString(), type)
            || (type == everywhere && kind != ItemKind::ForceField))
            return context().fail(path("type"),
                                  kind == ItemKind::ForceField
                                      ? kShapeTypeNames.expected()
                                      : "one of " + kShapeTypeNames.list(", ", &everywhere)
                                            + " (\"everywhere\" is for force items only)",
                                  v);
        if (type == ShapeType::Image && dim != Dimension::TwoD)
            context().failMessage(path("type"), "image masks need a 2d domain (this one is 3d)");
    }

    /// A number (the same on every axis) or [x, y, z].
    void vec3OrNumber(const Param &p, Vec3 &out)
    {
        if (!ok() || !has(p.key))
            return;
        const QJsonValue v = take(p.key);
        double uniform = 1.0;
        if (!v.isDouble())
            readVec3(v, path(p.key), out, p);
        else if (readNumber(v, path(p.key), uniform, p))
            out = {float(uniform), float(uniform), float(uniform)};
    }

    /// A control mask's ramp: 1 to Ramp::kMaxKeys [position, value] pairs, positions
    /// increasing strictly.
    void ramp(const char *key, sim::Ramp &out)
    {
        if (!ok() || !has(key))
            return;
        namespace mp = sim::controlMaskParams;
        const std::string at = path(key);
        const QJsonValue v = take(key);
        const QJsonArray keys = v.toArray();
        const std::string expected = "an array of 1 to " + std::to_string(sim::Ramp::kMaxKeys)
                                     + " [position, value] pairs";
        if (!v.isArray() || keys.isEmpty() || keys.size() > qsizetype(sim::Ramp::kMaxKeys))
            return context().fail(at, expected, v);
        sim::Ramp ramp;
        ramp.keys.clear();
        for (int n = 0; n < int(keys.size()); ++n) {
            const std::string keyAt = at + "[" + std::to_string(n) + "]";
            const QJsonArray pair = keys[n].toArray();
            if (!keys[n].isArray() || pair.size() != 2)
                return context().fail(keyAt, "a [position, value] pair of numbers", keys[n]);
            sim::RampKey k;
            if (!readNumber(pair[0], keyAt + "[0]", k.position, mp::rampPosition)
                || !readNumber(pair[1], keyAt + "[1]", k.value, mp::rampValue))
                return;
            if (!ramp.keys.empty() && !(k.position > ramp.keys.back().position))
                return context().fail(
                    keyAt + "[0]",
                    Param::above(ramp.keys.back().position, false).describe("position")
                        + " (ramp keys are sorted by position)",
                    pair[0]);
            ramp.keys.push_back(k);
        }
        out = std::move(ramp);
    }

    /// An array of exactly M names of `names`.
    template<class E, std::size_t N, std::size_t M>
    void enumArray(const char *key, std::array<E, M> &out, const sim::EnumNames<E, N> &names,
                   When = {})
    {
        if (!ok() || !has(key))
            return;
        const QJsonValue v = take(key);
        const QJsonArray a = v.toArray();
        if (!v.isArray() || a.size() != qsizetype(M))
            return context().fail(path(key),
                                  "an array of " + std::to_string(M) + " channel names, each "
                                      + names.expected(),
                                  v);
        std::array<E, M> values = out;
        for (std::size_t c = 0; c < M; ++c) {
            if (!a[qsizetype(c)].isString()
                || !names.parse(a[qsizetype(c)].toString().toStdString(), values[c]))
                return context().fail(path(key) + "[" + std::to_string(c) + "]", names.expected(),
                                      a[qsizetype(c)]);
        }
        out = values;
    }

    /// One of a few whole numbers ("8 or 16").
    template<std::size_t N>
    void choice(const char *key, int &out, const int (&options)[N])
    {
        if (!ok() || !has(key))
            return;
        const QJsonValue v = take(key);
        std::string expected;
        for (std::size_t n = 0; n < N; ++n) {
            if (v.isDouble() && v.toDouble() == options[n]) {
                out = options[n];
                return;
            }
            expected += (n == 0 ? "" : n + 1 == N ? " or " : ", ") + std::to_string(options[n]);
        }
        context().fail(path(key), expected, v);
    }
};

/// The domain's table, then its size against the cell limits and the solver's own checks.
void readDomain(FieldReader &r, DomainSettings &d)
{
    scenefields::domain(r, d);
    if (!r.ok())
        return;
    // Above the largest limit here; against the scheme's own once the simulation is read.
    if (domainCells(d).volume() > kMaxAdaptiveCells)
        return failCellLimit(r.context(), d, kMaxAdaptiveCells);
    // The grid first (blamed on the size), then the boundaries (periodic on both faces).
    sim::Domain grid = makeDomain(d);
    grid.boundaries = sim::allBoundaries(sim::Boundary::Wall);
    sim::Status s = grid.validate(kMaxAdaptiveCells);
    const bool boundaries = s.ok();
    if (boundaries)
        s = makeDomain(d).validate(kMaxAdaptiveCells);
    if (!s) {
        // The solver's messages start with "domain: ", which the path already says.
        const std::string message = s.error.substr(s.error.rfind("domain: ", 0) == 0 ? 8 : 0);
        r.context().failMessage(r.path(boundaries ? "boundaries" : "size"), message);
    }
}

void readItems(FieldReader &root, Scene &scene)
{
    if (!root.has("items"))
        return;
    const QJsonValue items = root.take("items");
    if (!items.isArray())
        return root.context().fail("items", "an array of items", items);
    const QJsonArray array = items.toArray();
    std::map<std::string, int> names;
    for (int n = 0; n < int(array.size()) && root.ok(); ++n) {
        const std::string at = "items[" + std::to_string(n) + "]";
        FieldReader r(root.context(), array[n], at);
        Item item;
        scenefields::item(r, item, scene.domain.dimension);
        item.extra = r.finish();
        if (!root.ok())
            return;
        if (const auto it = names.find(item.name); it != names.end()) {
            const std::string used = "items[" + std::to_string(it->second) + "]";
            return root.context().fail(at + ".name",
                                       "a unique name ('" + item.name + "' is already used by "
                                           + used + ")",
                                       QString::fromStdString(item.name));
        }
        names.emplace(item.name, n);
        scene.items.push_back(std::move(item));
    }
}

void readRoot(FieldReader &root, Scene &scene)
{
    root.require("format");
    const QJsonValue format = root.take("format");
    if (root.ok() && format.toString() != QLatin1String(kSceneFormatName))
        return root.context().fail("format", std::string("\"") + kSceneFormatName + "\"", format);
    root.require("version");
    double version = 0.0;
    if (root.ok()
        && !root.readNumber(root.take("version"), "version", version,
                            Param{.min = 1, .max = 1e9, .integer = true}))
        return;
    if (root.ok() && version > kSceneFormatVersion)
        return root.context().failMessage("version",
                                          "format version " + std::to_string(int(version))
                                              + " is newer than this Plume reads (version "
                                              + std::to_string(kSceneFormatVersion)
                                              + " and older); open it with a newer Plume");
    root.string("name", scene.name, true);
    root.object("domain", scene.domain.extra, [&](FieldReader &d) { readDomain(d, scene.domain); });
    if (root.ok() && root.has("simulation")) {
        root.object("simulation", scene.simulation.extra,
                    [&](FieldReader &s) { scenefields::simulation(s, scene.simulation); });
        if (root.ok() && scene.simulation.liquidTexture.enabled()
            && scene.domain.dimension != Dimension::TwoD)
            return root.context().failMessage("simulation.liquidTexture",
                                              "a liquid texture needs a 2D domain; this one is "
                                              "3D");
    }
    const std::int64_t limit = sim::maxCells(scene.simulation.params);
    if (root.ok() && domainCells(scene.domain).volume() > limit)
        return failCellLimit(root.context(), scene.domain, limit);
    if (root.ok())
        readItems(root, scene);
    root.object("export", scene.exports.extra,
                [&](FieldReader &e) { scenefields::exports(e, scene.exports); });
    scene.extra = root.finish();
}

} // namespace

SceneReadResult readSceneJson(const QByteArray &json, const QString &fileName,
                              const std::string &directory)
{
    const KeepDenormals keepDenormals;
    SceneReadResult result;
    Context ctx;
    ctx.file = fileName;
    ctx.directory = directory;
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        const JsonLocation loc = jsonLocation(json, parseError.offset);
        result.error = fileName.toStdString() + ": line " + std::to_string(loc.line) + ", column "
                       + std::to_string(loc.column) + " (offset "
                       + std::to_string(parseError.offset) + ", in "
                       + (loc.path.empty() ? std::string("the top level") : loc.path)
                       + "): JSON parse error: " + parseError.errorString().toStdString();
        return result;
    }
    if (!doc.isObject()) {
        result.error = fileName.toStdString() + ": expected a JSON object at the top level";
        return result;
    }
    Scene scene;
    scene.directory = directory;
    FieldReader root(ctx, doc.object(), "");
    readRoot(root, scene);
    if (!ctx.failed()) {
        if (sim::Status s = checkScene(scene); !s)
            ctx.error = fileName.toStdString() + ": " + s.error;
    }
    // Upres is the smoke scheme's (docs/upres.md).
    if (const sim::Scheme scheme = scene.simulation.params.scheme;
        !ctx.failed() && scheme != sim::Scheme::Smoke && scene.simulation.params.upres.active())
        ctx.warn(ReadWarningKind::IgnoredByScheme, "simulation.upres.factor",
                 "the " + std::string(sim::toString(scheme))
                     + " scheme has no upres (it refines the smoke scheme's fields), so the "
                       "simulation keeps its resolution");
    // Fuel that cannot burn: combustion is the smoke scheme's (docs/fire.md).
    for (std::size_t n = 0; !ctx.failed() && n < scene.items.size(); ++n) {
        const Item &item = scene.items[n];
        if (scene.simulation.params.scheme == sim::Scheme::Stam && item.kind == ItemKind::Emitter
            && item.emitter.fuel > 0.f)
            ctx.warn(ReadWarningKind::IgnoredByScheme,
                     "items[" + std::to_string(n) + "].emitter.fuel",
                     "the stam scheme has no combustion, so this fuel does nothing (scheme "
                     "\"smoke\" burns it)");
        // Control masks read the smoke scheme's fields (docs/look.md).
        const sim::Scheme scheme = scene.simulation.params.scheme;
        if (scheme != sim::Scheme::Smoke && item.kind == ItemKind::ForceField
            && item.force.type == sim::ForceType::Shredding)
            ctx.warn(ReadWarningKind::IgnoredByScheme,
                     "items[" + std::to_string(n) + "].force.type",
                     "the " + std::string(sim::toString(scheme))
                         + " scheme has no shredding (it reads the smoke scheme's temperature), "
                           "so this field does nothing");
        // Noisy sources are the smoke scheme's too.
        if (scheme != sim::Scheme::Smoke && item.kind == ItemKind::Emitter
            && item.emitter.noise.active())
            ctx.warn(ReadWarningKind::IgnoredByScheme,
                     "items[" + std::to_string(n) + "].emitter.noise",
                     "the " + std::string(sim::toString(scheme))
                         + " scheme ignores an emitter's noise (its rates stay steady); scheme "
                           "\"smoke\" applies it");
        if (scheme != sim::Scheme::Smoke && item.kind == ItemKind::ForceField
            && item.force.mask.active())
            ctx.warn(ReadWarningKind::IgnoredByScheme,
                     "items[" + std::to_string(n) + "].force.mask",
                     "the " + std::string(sim::toString(scheme))
                         + " scheme ignores control masks (the field acts everywhere in its "
                           "shape); scheme \"smoke\" applies them");
    }
    result.warnings = std::move(ctx.warnings);
    if (ctx.failed()) {
        result.error = ctx.error;
        return result;
    }
    result.ok = true;
    result.scene = std::move(scene);
    return result;
}

SceneReadResult readSceneFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        SceneReadResult result;
        result.error = path.toStdString() + ": cannot open: " + file.errorString().toStdString();
        return result;
    }
    const QByteArray bytes = file.readAll();
    return readSceneJson(bytes, path, QFileInfo(path).absolutePath().toStdString());
}

} // namespace plume
