// SPDX-License-Identifier: Apache-2.0
#include <core/io/scenereader.h>

#include <core/io/exportreader.h>
#include <core/io/jsonpath.h>
#include <core/io/objectreader.h>

#include <core/scene/rasterize.h>
#include <core/scene/shapecoverage.h>

#include <QFile>
#include <QFileInfo>
#include <QImageReader>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cfloat>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <type_traits>
#include <utility>

namespace plume {

using sim::Vec3;

namespace {

using sim::Param;
using namespace objectreader;

const Param kAny{};

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

void readDomain(ObjectReader &r, DomainSettings &d)
{
    r.enumeration("dimension", d.dimension, kDimensionNames);
    const bool threeD = d.dimension == Dimension::ThreeD;
    if (r.has("size")) {
        // z must be > 0 only in 3D: check the components that count.
        const std::string at = r.path("size");
        Vec3 size = d.size;
        if (r.readVec3(r.take("size"), at, size, kAny)) {
            for (int c = 0; c < (threeD ? 3 : 2); ++c) {
                if (!domainParams::size.contains(size[c]))
                    return r.context().fail(at + "[" + std::to_string(c) + "]",
                                            domainParams::size.describe(), double(size[c]));
            }
            d.size = size;
        }
    }
    r.vec3(domainParams::origin, d.origin);
    r.number(domainParams::resolution, d.resolution);
    r.enumeration("preview", d.preview, kPreviewResolutionNames);
    if (r.has("boundaries")) {
        ObjectReader b(r.context(), r.take("boundaries"), r.path("boundaries"));
        for (int f = 0; f < 6; ++f)
            b.enumeration(sim::faceName(f), d.boundaries[f], sim::kBoundaryNames);
        d.boundariesExtra = b.finish();
    }
    if (!r.ok())
        return;
    // Above the largest limit here; against the scheme's own once the simulation is read.
    if (domainCells(d).volume() > kMaxAdaptiveCells)
        return failCellLimit(r.context(), d, kMaxAdaptiveCells);
    if (sim::Status s = makeDomain(d).validate(kMaxAdaptiveCells); !s) {
        // The solver's messages start with "domain: ", which the path already says.
        const std::string message = s.error.substr(s.error.rfind("domain: ", 0) == 0 ? 8 : 0);
        const bool periodic = message.find("periodic") != std::string::npos;
        r.context().failMessage(r.path(periodic ? "boundaries" : "size"), message);
    }
}

void readPressure(ObjectReader &r, sim::PressureSettings &p)
{
    r.number(sim::simParams::pressureTolerance, p.tolerance);
    r.number(sim::simParams::pressureMaxIterations, p.maxIterations);
    r.boolean("multigrid", p.multigrid);
}

void readCombustion(ObjectReader &r, sim::CombustionSettings &c)
{
    namespace cp = sim::combustionParams;
    for (auto [param, value] : {std::pair{&cp::ignitionTemperature, &c.ignitionTemperature},
                                {&cp::burnRate, &c.burnRate},
                                {&cp::heatRelease, &c.heatRelease},
                                {&cp::smokePerFuel, &c.smokePerFuel},
                                {&cp::flameCooling, &c.flameCooling},
                                {&cp::expansion, &c.expansion}})
        r.number(*param, *value);
}

void readUpres(ObjectReader &r, sim::UpresSettings &u)
{
    namespace up = sim::upresParams;
    r.number(up::factor, u.factor);
    for (auto [param, value] : {std::pair{&up::strength, &u.strength},
                                {&up::size, &u.size},
                                {&up::lifetime, &u.lifetime}})
        r.number(*param, *value);
}

void readSph(ObjectReader &r, sim::SphSettings &s)
{
    namespace sp = sim::sphParams;
    for (auto [param, value] : {std::pair{&sp::restDensity, &s.restDensity},
                                {&sp::soundSpeed, &s.soundSpeed},
                                {&sp::viscosity, &s.viscosity},
                                {&sp::artificialViscosity, &s.artificialViscosity},
                                {&sp::surfaceTension, &s.surfaceTension},
                                {&sp::spacing, &s.spacing},
                                {&sp::smoothing, &s.smoothing},
                                {&sp::courant, &s.courant},
                                {&sp::gravity, &s.gravity}})
        r.number(*param, *value);
    r.number(sp::maxParticles, s.maxParticles);
}

void readOcean(ObjectReader &r, sim::OceanSettings &o)
{
    namespace op = sim::oceanParams;
    for (auto [param, value] : {std::pair{&op::windSpeed, &o.windSpeed},
                                {&op::windDirection, &o.windDirection},
                                {&op::amplitude, &o.amplitude},
                                {&op::smallWaves, &o.smallWaves},
                                {&op::choppiness, &o.choppiness},
                                {&op::loopPeriod, &o.loopPeriod},
                                {&op::gravity, &o.gravity}})
        r.number(*param, *value);
    r.number(op::seed, o.seed);
}

/// Whether the image file at `key` exists and Qt can decode it (image masks, liquid textures).
void checkImageFile(ObjectReader &r, const char *key, const std::string &file)
{
    if (!r.ok())
        return;
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

/// "simulation.liquidTexture": the image (required), an even period, the blend and tiling.
void readLiquidTexture(ObjectReader &r, LiquidTextureSettings &t)
{
    r.require("file");
    r.string("file", t.file, true);
    checkImageFile(r, "file", t.file);
    r.number(sim::kTexturePeriod, t.period);
    if (r.ok() && t.period % 2 != 0)
        return r.context().failMessage(r.path("period"),
                                       "expected an even number of frames (the two coordinate "
                                       "sets reset half a period apart); got "
                                           + std::to_string(t.period));
    r.enumeration("blend", t.blend, sim::kTextureBlendNames);
    r.number(liquidTextureParams::tiling, t.tiling);
}

/// A control mask at `key` (docs/look.md): {"field", "from", "to", "ramp": [[position, value],
/// ...]}; `to` differs from `from`, ramp positions increase strictly.
void readMask(ObjectReader &parent, const char *key, sim::ControlMask &m, QJsonObject &extra)
{
    if (!parent.ok() || !parent.has(key))
        return;
    namespace mp = sim::controlMaskParams;
    ObjectReader r(parent.context(), parent.take(key), parent.path(key));
    r.enumeration("field", m.field, sim::kControlFieldNames);
    r.number(mp::from, m.from);
    r.number(mp::to, m.to);
    if (r.ok() && m.from == m.to) {
        char from[32];
        const auto end = std::to_chars(from, from + sizeof from, m.from).ptr; // shortest float
        return r.context().failMessage(r.path("to"), "expected a number other than from ("
                                                         + std::string(from, end)
                                                         + "): the mask remaps from..to to 0..1");
    }
    if (r.ok() && r.has("ramp")) {
        const std::string at = r.path("ramp");
        const QJsonValue v = r.take("ramp");
        const QJsonArray keys = v.toArray();
        const std::string expected = "an array of 1 to " + std::to_string(sim::Ramp::kMaxKeys)
                                     + " [position, value] pairs";
        if (!v.isArray() || keys.isEmpty() || keys.size() > qsizetype(sim::Ramp::kMaxKeys))
            return r.context().fail(at, expected, v);
        sim::Ramp ramp;
        ramp.keys.clear();
        for (int n = 0; n < int(keys.size()); ++n) {
            const std::string keyAt = at + "[" + std::to_string(n) + "]";
            const QJsonArray pair = keys[n].toArray();
            if (!keys[n].isArray() || pair.size() != 2)
                return r.context().fail(keyAt, "a [position, value] pair of numbers", keys[n]);
            sim::RampKey k;
            if (!r.readNumber(pair[0], keyAt + "[0]", k.position, mp::rampPosition)
                || !r.readNumber(pair[1], keyAt + "[1]", k.value, mp::rampValue))
                return;
            if (!ramp.keys.empty() && !(k.position > ramp.keys.back().position))
                return r.context().fail(
                    keyAt + "[0]",
                    Param::above(ramp.keys.back().position, false).describe("position")
                        + " (ramp keys are sorted by position)",
                    pair[0]);
            ramp.keys.push_back(k);
        }
        m.ramp = std::move(ramp);
    }
    extra = r.finish();
}

void readSimulation(ObjectReader &r, SimulationSettings &s)
{
    sim::SimParams &p = s.params;
    sim::TimeSettings &t = s.time;
    namespace sp = sim::simParams;
    r.enumeration("scheme", p.scheme, sim::kSchemeNames);
    r.number(sim::timeParams::frameRate, t.frameRate);
    r.number(sim::timeParams::substeps, t.substeps);
    r.number(sim::timeParams::cfl, t.cfl);
    r.number(sim::timeParams::maxSubsteps, t.maxSubsteps);
    r.number(simulationParams::frameStart, s.frameStart);
    r.number(simulationParams::frameEnd, s.frameEnd);
    if (r.ok() && s.frameEnd < s.frameStart)
        return r.context().fail(r.path("frameEnd"),
                                Param::above(s.frameStart, true, true).describe()
                                    + " (not before frameStart)",
                                s.frameEnd);
    r.number(simulationParams::seed, s.seed);
    for (auto [param, value] : {std::pair{&sp::viscosity, &p.viscosity},
                                {&sp::diffusion, &p.diffusion},
                                {&sp::densityDissipation, &p.densityDissipation},
                                {&sp::temperatureDissipation, &p.temperatureDissipation},
                                {&sp::velocityDissipation, &p.velocityDissipation}})
        r.number(*param, *value);
    r.vec3(sp::up, p.up);
    if (r.ok() && p.up == Vec3{})
        return r.context().failMessage(r.path("up"), "expected a non-zero direction");
    r.number(sp::ambientTemperature, p.ambientTemperature);
    r.number(sp::buoyancyDensity, p.buoyancyDensity);
    r.number(sp::buoyancyTemperature, p.buoyancyTemperature);
    r.number(sp::vorticity, p.vorticity);
    r.number(sp::vorticityLength, p.vorticityLength);
    readMask(r, "vorticityMask", p.vorticityMask, s.vorticityMaskExtra);
    r.enumeration("advection", p.advection, sim::kAdvectionOrderNames);
    p.velocityAdvection = p.advection; // files from before the key meant both
    r.enumeration("velocityAdvection", p.velocityAdvection, sim::kAdvectionOrderNames);
    r.boolean("accountingDensity", p.accountingDensity);
    r.boolean("adaptiveDomain", p.adaptiveDomain);
    if (r.has("pressure")) {
        ObjectReader pr(r.context(), r.take("pressure"), r.path("pressure"));
        readPressure(pr, p.pressure);
        s.pressureExtra = pr.finish();
    }
    if (r.has("combustion")) {
        ObjectReader cr(r.context(), r.take("combustion"), r.path("combustion"));
        readCombustion(cr, p.combustion);
        s.combustionExtra = cr.finish();
    }
    if (r.has("ocean")) {
        ObjectReader orr(r.context(), r.take("ocean"), r.path("ocean"));
        readOcean(orr, p.ocean);
        s.oceanExtra = orr.finish();
    }
    if (r.has("upres")) {
        ObjectReader ur(r.context(), r.take("upres"), r.path("upres"));
        readUpres(ur, p.upres);
        s.upresExtra = ur.finish();
    }
    if (r.has("sph")) {
        ObjectReader sr(r.context(), r.take("sph"), r.path("sph"));
        readSph(sr, p.sph);
        s.sphExtra = sr.finish();
    }
    r.number(sp::stamIterations, p.stamIterations);
    r.enumeration("stamSweep", p.stamSweep, sim::kSweepOrderNames);
    r.enumeration("stamNumeric", p.stamNumeric, sim::kStamNumericNames);
    if (r.ok() && r.has("liquidTexture")) {
        ObjectReader tr(r.context(), r.take("liquidTexture"), r.path("liquidTexture"));
        readLiquidTexture(tr, s.liquidTexture);
        s.liquidTexture.extra = tr.finish();
    }
}

void readImageShape(ObjectReader &r, Shape &s)
{
    r.require("file");
    r.string("file", s.file, true);
    checkImageFile(r, "file", s.file);
    r.vec3(shapeParams::imageMin, s.imageMin);
    r.vec3(shapeParams::imageMax, s.imageMax);
    if (r.ok() && !(s.imageMax.x > s.imageMin.x && s.imageMax.y > s.imageMin.y))
        return r.context().failMessage(r.path("max"),
                                       "expected a corner above and right of \"min\"");
    r.enumeration("channel", s.channel, kImageChannelNames);
    r.boolean("invert", s.invert);
}

void readMeshShape(ObjectReader &r, Shape &s)
{
    r.require("file");
    r.string("file", s.file, true);
    if (r.ok()) {
        std::string error;
        const std::string resolved = resolveImagePath(s.file, r.context().directory);
        if (!loadMesh(resolved, &error))
            return r.context().failMessage(r.path("file"), "expected a model file (" + error + ")");
    }
    r.vec3(shapeParams::meshTranslation, s.meshTranslation);
    r.vec3(shapeParams::meshRotation, s.meshRotation);
    if (r.ok() && r.has("scale")) {
        // A number (uniform) or [x, y, z].
        const QJsonValue v = r.take("scale");
        const std::string at = r.path("scale");
        if (v.isDouble()) {
            double uniform = 1.0;
            if (r.readNumber(v, at, uniform, shapeParams::meshScale))
                s.meshScale = {float(uniform), float(uniform), float(uniform)};
        } else {
            r.readVec3(v, at, s.meshScale, shapeParams::meshScale);
        }
    }
    r.enumeration("fill", s.fill, kMeshFillNames);
    r.number(shapeParams::thickness, s.thickness);
}

void readStroke(ObjectReader &r, Shape &s)
{
    r.require("points");
    const QJsonValue points = r.take("points");
    if (!r.ok())
        return;
    if (!points.isArray() || points.toArray().isEmpty())
        return r.context().fail(r.path("points"), "a non-empty array of stroke points", points);
    const QJsonArray array = points.toArray();
    s.points.clear();
    for (int n = 0; n < int(array.size()) && r.ok(); ++n) {
        ObjectReader p(r.context(), array[n], r.path("points") + "[" + std::to_string(n) + "]");
        StrokePoint point;
        p.require("position");
        p.vec3(strokeParams::position, point.position);
        p.number(strokeParams::radius, point.radius);
        p.number(strokeParams::pressure, point.pressure);
        point.extra = p.finish();
        s.points.push_back(std::move(point));
    }
}

void readShape(ObjectReader &r, Shape &s, ItemKind kind, Dimension dim)
{
    r.require("type");
    const ShapeType everywhere = ShapeType::Everywhere;
    const std::string known = kind == ItemKind::ForceField
                                  ? kShapeTypeNames.expected()
                                  : "one of " + kShapeTypeNames.list(", ", &everywhere)
                                        + " (\"everywhere\" is for force items only)";
    if (r.ok() && r.has("type")) {
        const QJsonValue v = r.take("type");
        if (!v.isString() || !kShapeTypeNames.parse(v.toString().toStdString(), s.type)
            || (s.type == everywhere && kind != ItemKind::ForceField))
            return r.context().fail(r.path("type"), known, v);
        if (s.type == ShapeType::Image && dim != Dimension::TwoD)
            return r.context().failMessage(r.path("type"),
                                           "image masks need a 2d domain (this one is 3d)");
    }
    switch (s.type) {
    case ShapeType::Sphere:
        r.vec3(shapeParams::centre, s.centre);
        r.number(shapeParams::radius, s.radius);
        break;
    case ShapeType::Box:
        r.vec3(shapeParams::centre, s.centre);
        r.vec3(shapeParams::halfSize, s.halfSize);
        r.number(shapeParams::rotation, s.rotation);
        break;
    case ShapeType::Capsule:
        r.vec3(shapeParams::start, s.start);
        r.vec3(shapeParams::end, s.end);
        r.number(shapeParams::radius, s.radius);
        break;
    case ShapeType::Stroke: readStroke(r, s); break;
    case ShapeType::Image: readImageShape(r, s); break;
    case ShapeType::Mesh: readMeshShape(r, s); break;
    case ShapeType::Everywhere: break;
    }
}

void readEmitter(ObjectReader &r, EmitterSettings &e)
{
    r.number(emitterParams::density, e.density);
    r.number(emitterParams::temperature, e.temperature);
    r.vec3(emitterParams::dye, e.dye);
    r.number(emitterParams::fuel, e.fuel);
    r.boolean("ignite", e.ignite);
    r.enumeration("velocityMode", e.velocityMode, sim::kEmitterVelocityNames);
    r.vec3(emitterParams::velocity, e.velocity);
    readAnimated(r, emitterParams::rate, e.rate);
    r.enumeration("liquid", e.liquid, sim::kLiquidModeNames);
    if (r.ok() && r.has("noise")) { // a noisy source (docs/look.md)
        namespace np = emitterNoiseParams;
        ObjectReader n(r.context(), r.take("noise"), r.path("noise"));
        n.number(np::size, e.noise.size);
        readAnimated(n, np::amplitude, e.noise.amplitude);
        n.number(np::speed, e.noise.speed);
        n.number(np::seed, e.noise.seed);
        e.noise.extra = n.finish();
    }
}

void readForce(ObjectReader &r, ForceSettings &f)
{
    r.enumeration("type", f.type, sim::kForceTypeNames);
    readAnimated(r,
                 f.type == sim::ForceType::Drag ? forceParams::dragStrength : forceParams::strength,
                 f.strength);
    r.vec3(forceParams::direction, f.direction);
    if (r.ok() && f.direction == Vec3{}
        && (f.type == sim::ForceType::Directional || f.type == sim::ForceType::Vortex))
        return r.context().failMessage(r.path("direction"), "expected a non-zero direction");
    r.vec3(forceParams::centre, f.centre);
    r.number(forceParams::scale, f.scale);
    r.number(forceParams::timeScale, f.timeScale);
    r.number(forceParams::falloff, f.falloff);
    readMask(r, "mask", f.mask, f.maskExtra);
}

void readItem(ObjectReader &r, Item &item, Dimension dim)
{
    r.require("name");
    r.string("name", item.name, true);
    r.require("kind");
    r.enumeration("kind", item.kind, kItemKindNames);
    r.boolean("enabled", item.enabled);
    r.boolean("hidden", item.hidden);
    r.boolean("locked", item.locked);
    if (r.ok() && r.has("active")) {
        ObjectReader a(r.context(), r.take("active"), r.path("active"));
        a.number(itemParams::activeStart, item.activeStart);
        a.number(itemParams::activeEnd, item.activeEnd);
        if (a.ok() && item.activeEnd < item.activeStart)
            return a.context().fail(a.path("end"),
                                    Param::above(item.activeStart, true).describe("frame")
                                        + " (not before start)",
                                    item.activeEnd);
        item.activeExtra = a.finish();
    }
    r.require("shape");
    if (r.ok()) {
        ObjectReader s(r.context(), r.take("shape"), r.path("shape"));
        readShape(s, item.shape, item.kind, dim);
        item.shape.extra = s.finish();
    }
    readAnimated(r, itemParams::offset, item.offset);
    readAnimated(r, itemParams::rotation, item.rotation);
    readAnimated(r, itemParams::scale, item.scale);
    if (r.ok() && item.kind == ItemKind::Obstacle && r.has("obstacle")) {
        ObjectReader o(r.context(), r.take("obstacle"), r.path("obstacle"));
        o.boolean("noSlip", item.obstacle.noSlip);
        item.obstacle.extra = o.finish();
    }
    if (r.ok() && item.kind == ItemKind::Emitter && r.has("emitter")) {
        ObjectReader e(r.context(), r.take("emitter"), r.path("emitter"));
        readEmitter(e, item.emitter);
        item.emitter.extra = e.finish();
    }
    if (r.ok() && item.kind == ItemKind::ForceField && r.has("force")) {
        ObjectReader f(r.context(), r.take("force"), r.path("force"));
        readForce(f, item.force);
        item.force.extra = f.finish();
    }
}

void readItems(ObjectReader &root, Scene &scene)
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
        ObjectReader r(root.context(), array[n], at);
        Item item;
        readItem(r, item, scene.domain.dimension);
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

void readRoot(ObjectReader &root, Scene &scene)
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
    if (root.ok() && root.has("domain")) {
        ObjectReader d(root.context(), root.take("domain"), "domain");
        readDomain(d, scene.domain);
        scene.domain.extra = d.finish();
    }
    if (root.ok() && root.has("simulation")) {
        ObjectReader s(root.context(), root.take("simulation"), "simulation");
        readSimulation(s, scene.simulation);
        scene.simulation.extra = s.finish();
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
    if (root.ok() && root.has("export")) {
        ObjectReader e(root.context(), root.take("export"), "export");
        readExport(e, scene.exports);
        scene.exports.extra = e.finish();
    }
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
    ObjectReader root(ctx, doc.object(), "");
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
