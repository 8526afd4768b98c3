// SPDX-License-Identifier: Apache-2.0
#include <core/io/scenewriter.h>

#include <core/io/scenereader.h>

#include <core/scene/shapecoverage.h>

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QSaveFile>

#include <charconv>
#include <cmath>
#include <utility>
#include <vector>

namespace plume {

using sim::Vec3;

namespace {

/// Which keys a write gives: those set (a key that keeps its default and older files never
/// had is left out, so those files stay byte-identical), or every key a script may read
/// (sceneToJsonWithDefaults).
enum class Keys : bool { Set, Every };

struct Member;

/// An ordered JSON tree whose scalars are already text.
struct Node
{
    enum class Type { Scalar, Object, Array } type = Type::Scalar;
    std::string text;            ///< Scalar: JSON text
    std::vector<Member> members; ///< Object, in writing order
    std::vector<Node> elements;  ///< Array

    static Node object();
    static Node array();
    Node &add(const std::string &key, Node value);
    bool has(const std::string &key) const;
};

/// A key and its value. Not a std::pair, and Node's functions are defined below: clang (14,
/// with libstdc++ 12) would otherwise need the member type complete inside Node.
struct Member
{
    std::string first;
    Node second;
};

Node Node::object() { return Node{Type::Object, {}, {}, {}}; }
Node Node::array() { return Node{Type::Array, {}, {}, {}}; }

Node &Node::add(const std::string &key, Node value)
{
    members.push_back(Member{key, std::move(value)});
    return members.back().second;
}

bool Node::has(const std::string &key) const
{
    for (const auto &m : members) {
        if (m.first == key)
            return true;
    }
    return false;
}

Node scalar(std::string text) { return Node{Node::Type::Scalar, std::move(text), {}, {}}; }

/// Shortest text that reads back as the same float (std::to_chars).
Node number(float v)
{
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return scalar(std::string(buf, r.ptr));
}

Node number(double v)
{
    char buf[40];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return scalar(std::string(buf, r.ptr));
}

Node number(std::int64_t v) { return scalar(std::to_string(v)); }
Node boolean(bool v) { return scalar(v ? "true" : "false"); }

Node string(const std::string &s)
{
    std::string out = "\"";
    for (unsigned char c : s) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\t': out += "\\t"; break;
        case '\r': out += "\\r"; break;
        default:
            if (c < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out += buf;
            } else {
                out += char(c);
            }
        }
    }
    return scalar(out + "\"");
}

Node vec(Vec3 v)
{
    Node a = Node::array();
    for (int c = 0; c < 3; ++c)
        a.elements.push_back(number(v[c]));
    return a;
}

Node fromJson(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Bool: return boolean(v.toBool());
    case QJsonValue::Double: return number(v.toDouble());
    case QJsonValue::String: return string(v.toString().toStdString());
    case QJsonValue::Array: {
        Node a = Node::array();
        for (const QJsonValue &e : v.toArray())
            a.elements.push_back(fromJson(e));
        return a;
    }
    case QJsonValue::Object: {
        Node o = Node::object();
        const QJsonObject obj = v.toObject();
        for (auto it = obj.begin(); it != obj.end(); ++it)
            o.add(it.key().toStdString(), fromJson(it.value()));
        return o;
    }
    case QJsonValue::Null:
    case QJsonValue::Undefined: break;
    }
    return scalar("null");
}

/// Appends the unknown keys kept from reading (sorted, as QJsonObject holds them).
void addExtra(Node &node, const QJsonObject &extra)
{
    for (auto it = extra.begin(); it != extra.end(); ++it) {
        const std::string key = it.key().toStdString();
        if (!node.has(key))
            node.add(key, fromJson(it.value()));
    }
}

Node value(float v) { return number(v); }
Node value(Vec3 v) { return vec(v); }

template<class T>
Node animated(const Animated<T> &a)
{
    if (!a.isAnimated())
        return value(a.value);
    Node o = Node::object();
    o.add("interpolation", string(toString(a.interpolation)));
    Node &keys = o.add("keys", Node::array());
    for (const Key<T> &k : a.keys) {
        Node key = Node::object();
        key.add("frame", number(k.frame));
        key.add("value", value(k.value));
        addExtra(key, k.extra);
        keys.elements.push_back(std::move(key));
    }
    addExtra(o, a.extra);
    return o;
}

/// A control mask: field, from, to and the ramp as [position, value] pairs.
Node maskNode(const sim::ControlMask &m, const QJsonObject &extra)
{
    Node o = Node::object();
    o.add("field", string(sim::toString(m.field)));
    o.add("from", number(m.from));
    o.add("to", number(m.to));
    Node &ramp = o.add("ramp", Node::array());
    for (const sim::RampKey &k : m.ramp.keys) {
        Node pair = Node::array();
        pair.elements.push_back(number(k.position));
        pair.elements.push_back(number(k.value));
        ramp.elements.push_back(std::move(pair));
    }
    addExtra(o, extra);
    return o;
}

/// Whether a mask is worth writing: set, or with keys this version does not know.
bool hasMask(const sim::ControlMask &m, const QJsonObject &extra)
{
    return m != sim::ControlMask{} || !extra.isEmpty();
}

Node domainNode(const DomainSettings &d, Keys keys)
{
    Node o = Node::object();
    o.add("dimension", string(toString(d.dimension)));
    o.add("size", vec(d.size));
    o.add("origin", vec(d.origin));
    o.add("resolution", number(std::int64_t(d.resolution)));
    if (keys == Keys::Every
        || d.preview != PreviewResolution::Full) // older files stay byte-identical
        o.add("preview", string(toString(d.preview)));
    Node b = Node::object();
    for (int f = 0; f < 6; ++f)
        b.add(sim::faceName(f), string(sim::toString(d.boundaries[f])));
    addExtra(b, d.boundariesExtra);
    o.add("boundaries", std::move(b));
    addExtra(o, d.extra);
    return o;
}

Node simulationNode(const SimulationSettings &s, const std::string &from, const std::string &to,
                    Keys keys)
{
    const sim::SimParams &p = s.params;
    const sim::TimeSettings &t = s.time;
    Node o = Node::object();
    o.add("scheme", string(sim::toString(p.scheme)));
    o.add("frameRate", number(t.frameRate));
    o.add("substeps", number(std::int64_t(t.substeps)));
    o.add("cfl", number(t.cfl));
    o.add("maxSubsteps", number(std::int64_t(t.maxSubsteps)));
    o.add("frameStart", number(std::int64_t(s.frameStart)));
    o.add("frameEnd", number(std::int64_t(s.frameEnd)));
    o.add("seed", number(std::int64_t(s.seed)));
    o.add("viscosity", number(p.viscosity));
    o.add("diffusion", number(p.diffusion));
    o.add("densityDissipation", number(p.densityDissipation));
    o.add("temperatureDissipation", number(p.temperatureDissipation));
    o.add("velocityDissipation", number(p.velocityDissipation));
    o.add("up", vec(p.up));
    o.add("ambientTemperature", number(p.ambientTemperature));
    o.add("buoyancyDensity", number(p.buoyancyDensity));
    o.add("buoyancyTemperature", number(p.buoyancyTemperature));
    o.add("vorticity", number(p.vorticity));
    // The shaping settings are written when set: older files stay byte-identical.
    if (keys == Keys::Every || p.vorticityLength != 0.f)
        o.add("vorticityLength", number(p.vorticityLength));
    if (hasMask(p.vorticityMask, s.vorticityMaskExtra))
        o.add("vorticityMask", maskNode(p.vorticityMask, s.vorticityMaskExtra));
    o.add("advection", string(sim::toString(p.advection)));
    if (keys == Keys::Every
        || p.velocityAdvection != p.advection) // older files stay byte-identical
        o.add("velocityAdvection", string(sim::toString(p.velocityAdvection)));
    o.add("accountingDensity", boolean(p.accountingDensity));
    if (keys == Keys::Every || p.adaptiveDomain) // older files stay byte-identical
        o.add("adaptiveDomain", boolean(p.adaptiveDomain));
    Node pr = Node::object();
    pr.add("tolerance", number(p.pressure.tolerance));
    pr.add("maxIterations", number(std::int64_t(p.pressure.maxIterations)));
    pr.add("multigrid", boolean(p.pressure.multigrid));
    addExtra(pr, s.pressureExtra);
    o.add("pressure", std::move(pr));
    const sim::CombustionSettings &c = p.combustion;
    Node cn = Node::object();
    cn.add("ignitionTemperature", number(c.ignitionTemperature));
    cn.add("burnRate", number(c.burnRate));
    cn.add("heatRelease", number(c.heatRelease));
    cn.add("smokePerFuel", number(c.smokePerFuel));
    cn.add("flameCooling", number(c.flameCooling));
    cn.add("expansion", number(c.expansion));
    addExtra(cn, s.combustionExtra);
    o.add("combustion", std::move(cn));
    // Only ocean scenes (or files that had the object) carry it, so that other scenes' canonical
    // form stays as it was.
    const sim::OceanSettings &w = p.ocean;
    if (keys == Keys::Every || p.scheme == sim::Scheme::Ocean || w != sim::OceanSettings{}
        || !s.oceanExtra.isEmpty()) {
        Node on = Node::object();
        on.add("windSpeed", number(w.windSpeed));
        on.add("windDirection", number(w.windDirection));
        on.add("amplitude", number(w.amplitude));
        on.add("smallWaves", number(w.smallWaves));
        on.add("choppiness", number(w.choppiness));
        on.add("loopPeriod", number(w.loopPeriod));
        on.add("seed", number(std::int64_t(w.seed)));
        on.add("gravity", number(w.gravity));
        addExtra(on, s.oceanExtra);
        o.add("ocean", std::move(on));
    }
    // Upres only when switched on or changed (older files stay byte-identical).
    if (const sim::UpresSettings &u = p.upres;
        keys == Keys::Every || u != sim::UpresSettings{} || !s.upresExtra.isEmpty()) {
        Node un = Node::object();
        un.add("factor", number(std::int64_t(u.factor)));
        un.add("strength", number(u.strength));
        un.add("size", number(u.size));
        un.add("lifetime", number(u.lifetime));
        addExtra(un, s.upresExtra);
        o.add("upres", std::move(un));
    }
    // Likewise the liquid's object: sph scenes only.
    const sim::SphSettings &l = p.sph;
    if (keys == Keys::Every || p.scheme == sim::Scheme::Sph || l != sim::SphSettings{}
        || !s.sphExtra.isEmpty()) {
        Node sn = Node::object();
        sn.add("restDensity", number(l.restDensity));
        sn.add("soundSpeed", number(l.soundSpeed));
        sn.add("viscosity", number(l.viscosity));
        sn.add("artificialViscosity", number(l.artificialViscosity));
        sn.add("surfaceTension", number(l.surfaceTension));
        sn.add("spacing", number(l.spacing));
        sn.add("smoothing", number(l.smoothing));
        sn.add("maxParticles", number(std::int64_t(l.maxParticles)));
        sn.add("courant", number(l.courant));
        sn.add("gravity", number(l.gravity));
        addExtra(sn, s.sphExtra);
        o.add("sph", std::move(sn));
    }
    o.add("stamIterations", number(std::int64_t(p.stamIterations)));
    o.add("stamSweep", string(sim::toString(p.stamSweep)));
    if (keys == Keys::Every
        || p.stamNumeric != sim::StamNumeric::Float) // older files stay byte-identical
        o.add("stamNumeric", string(sim::toString(p.stamNumeric)));
    if (const LiquidTextureSettings &lt = s.liquidTexture; lt.enabled()) {
        Node tn = Node::object();
        tn.add("file", string(rebasedImagePath(lt.file, from, to)));
        tn.add("period", number(std::int64_t(lt.period)));
        tn.add("blend", string(sim::toString(lt.blend)));
        tn.add("tiling", number(lt.tiling));
        addExtra(tn, lt.extra);
        o.add("liquidTexture", std::move(tn));
    }
    addExtra(o, s.extra);
    return o;
}

Node shapeNode(const Shape &s, Dimension dim, const std::string &from, const std::string &to)
{
    Node o = Node::object();
    const bool sphere = s.type == ShapeType::Sphere;
    o.add("type", string(sphere && dim == Dimension::TwoD ? "circle" : toString(s.type)));
    switch (s.type) {
    case ShapeType::Sphere:
        o.add("centre", vec(s.centre));
        o.add("radius", number(s.radius));
        break;
    case ShapeType::Box:
        o.add("centre", vec(s.centre));
        o.add("halfSize", vec(s.halfSize));
        o.add("rotation", number(s.rotation));
        break;
    case ShapeType::Capsule:
        o.add("start", vec(s.start));
        o.add("end", vec(s.end));
        o.add("radius", number(s.radius));
        break;
    case ShapeType::Stroke: {
        Node &points = o.add("points", Node::array());
        for (const StrokePoint &p : s.points) {
            Node n = Node::object();
            n.add("position", vec(p.position));
            n.add("radius", number(p.radius));
            n.add("pressure", number(p.pressure));
            addExtra(n, p.extra);
            points.elements.push_back(std::move(n));
        }
        break;
    }
    case ShapeType::Image:
        o.add("file", string(rebasedImagePath(s.file, from, to)));
        o.add("min", vec(s.imageMin));
        o.add("max", vec(s.imageMax));
        o.add("channel", string(toString(s.channel)));
        o.add("invert", boolean(s.invert));
        break;
    case ShapeType::Mesh:
        o.add("file", string(rebasedImagePath(s.file, from, to)));
        o.add("translation", vec(s.meshTranslation));
        o.add("rotation", vec(s.meshRotation));
        o.add("scale", vec(s.meshScale));
        o.add("fill", string(toString(s.fill)));
        o.add("thickness", number(s.thickness));
        break;
    case ShapeType::Everywhere: break;
    }
    addExtra(o, s.extra);
    return o;
}

Node emitterNode(const EmitterSettings &e, Keys keys)
{
    Node o = Node::object();
    o.add("density", number(e.density));
    o.add("temperature", number(e.temperature));
    o.add("dye", vec(e.dye));
    o.add("fuel", number(e.fuel));
    o.add("ignite", boolean(e.ignite));
    o.add("velocityMode", string(toString(e.velocityMode)));
    o.add("velocity", vec(e.velocity));
    o.add("rate", animated(e.rate));
    if (keys == Keys::Every
        || e.liquid != sim::LiquidMode::None) // files without liquid stay byte-identical
        o.add("liquid", string(toString(e.liquid)));
    if (e.noise.isSet()) { // files without noise stay byte-identical
        Node &n = o.add("noise", Node::object());
        n.add("size", number(e.noise.size));
        n.add("amplitude", animated(e.noise.amplitude));
        n.add("speed", number(e.noise.speed));
        n.add("seed", number(std::int64_t(e.noise.seed)));
        addExtra(n, e.noise.extra);
    }
    addExtra(o, e.extra);
    return o;
}

Node forceNode(const ForceSettings &f)
{
    Node o = Node::object();
    o.add("type", string(sim::toString(f.type)));
    o.add("strength", animated(f.strength));
    o.add("direction", vec(f.direction));
    o.add("centre", vec(f.centre));
    o.add("scale", number(f.scale));
    o.add("timeScale", number(f.timeScale));
    o.add("falloff", number(f.falloff));
    if (hasMask(f.mask, f.maskExtra)) // files without masks stay byte-identical
        o.add("mask", maskNode(f.mask, f.maskExtra));
    addExtra(o, f.extra);
    return o;
}

Node itemNode(const Item &item, Dimension dim, const std::string &from, const std::string &to,
              Keys keys)
{
    Node o = Node::object();
    o.add("name", string(item.name));
    o.add("kind", string(toString(item.kind)));
    o.add("enabled", boolean(item.enabled));
    // Editor flags, written when set (files of scenes that use none stay as they were).
    if (keys == Keys::Every || item.hidden)
        o.add("hidden", boolean(item.hidden));
    if (keys == Keys::Every || item.locked)
        o.add("locked", boolean(item.locked));
    Node active = Node::object();
    active.add("start", number(item.activeStart));
    if (std::isfinite(item.activeEnd))
        active.add("end", number(item.activeEnd));
    addExtra(active, item.activeExtra);
    o.add("active", std::move(active));
    o.add("shape", shapeNode(item.shape, dim, from, to));
    o.add("offset", animated(item.offset));
    // Written when set, so files of scenes that neither rotate nor scale stay as they were.
    if (keys == Keys::Every || item.rotation != Animated<sim::Vec3>{sim::Vec3{}})
        o.add("rotation", animated(item.rotation));
    if (keys == Keys::Every || item.scale != Animated<sim::Vec3>{sim::Vec3{1.f, 1.f, 1.f}})
        o.add("scale", animated(item.scale));
    if (item.kind == ItemKind::Obstacle) {
        Node ob = Node::object();
        ob.add("noSlip", boolean(item.obstacle.noSlip));
        addExtra(ob, item.obstacle.extra);
        o.add("obstacle", std::move(ob));
    }
    if (item.kind == ItemKind::Emitter)
        o.add("emitter", emitterNode(item.emitter, keys));
    if (item.kind == ItemKind::ForceField)
        o.add("force", forceNode(item.force));
    addExtra(o, item.extra);
    return o;
}

Node renderNode(const RenderSettings &s, Keys keys)
{
    Node o = Node::object();
    o.add("width", number(std::int64_t(s.width)));
    o.add("height", number(std::int64_t(s.height)));
    o.add("look2d", string(toString(s.look2D)));
    o.add("field", string(sim::toString(s.field)));
    o.add("colorMap", string(toString(s.colorMap)));
    o.add("fieldMin", number(s.fieldMin));
    o.add("fieldMax", number(s.fieldMax));
    o.add("projection", string(toString(s.projection)));
    o.add("yaw", number(s.yaw));
    o.add("pitch", number(s.pitch));
    o.add("fov", number(s.fov));
    o.add("zoom", number(s.zoom));
    o.add("lightDirection", vec(s.lightDirection));
    o.add("lightColor", vec(s.lightColor));
    o.add("lightIntensity", number(s.lightIntensity));
    o.add("ambient", number(s.ambient));
    o.add("smokeColor", vec(s.smokeColor));
    o.add("densityScale", number(s.densityScale));
    o.add("stepCells", number(s.stepCells));
    o.add("emissionIntensity", number(s.emissionIntensity));
    o.add("emissionMin", number(s.emissionMin));
    o.add("emissionMax", number(s.emissionMax));
    o.add("flameIntensity", number(s.flameIntensity));
    // The light model's and the surface look's keys only when set, so scenes saved before
    // them save unchanged.
    const RenderSettings defaults;
    if (keys == Keys::Every || !(s.skyColor == defaults.skyColor))
        o.add("skyColor", vec(s.skyColor));
    if (keys == Keys::Every || !(s.groundColor == defaults.groundColor))
        o.add("groundColor", vec(s.groundColor));
    if (keys == Keys::Every || s.anisotropy != defaults.anisotropy)
        o.add("anisotropy", number(s.anisotropy));
    if (keys == Keys::Every || s.multipleScattering != defaults.multipleScattering)
        o.add("multipleScattering", number(s.multipleScattering));
    if (keys == Keys::Every || s.emissionScattering != defaults.emissionScattering)
        o.add("emissionScattering", number(s.emissionScattering));
    if (keys == Keys::Every || s.exposure != defaults.exposure)
        o.add("exposure", number(s.exposure));
    if (keys == Keys::Every || s.toneCurve != defaults.toneCurve)
        o.add("toneCurve", string(toString(s.toneCurve)));
    if (keys == Keys::Every || s.look3D != defaults.look3D)
        o.add("look3d", string(toString(s.look3D)));
    if (keys == Keys::Every || s.surfaceIso != defaults.surfaceIso)
        o.add("surfaceIso", number(s.surfaceIso));
    if (keys == Keys::Every || !(s.surfaceColor == defaults.surfaceColor))
        o.add("surfaceColor", vec(s.surfaceColor));
    if (keys == Keys::Every || s.foamSpeed != defaults.foamSpeed)
        o.add("foamSpeed", number(s.foamSpeed));
    if (keys == Keys::Every || s.framing != defaults.framing)
        o.add("framing", string(toString(s.framing)));
    if (keys == Keys::Every || s.framingPadding != defaults.framingPadding)
        o.add("framingPadding", number(s.framingPadding));
    addExtra(o, s.extra);
    return o;
}

/// first/last only when set (like active.end), then the bit depth.
void addFrames(Node &o, int first, int last, int bitDepth)
{
    if (first != kBakeRange)
        o.add("first", number(std::int64_t(first)));
    if (last != kBakeRange)
        o.add("last", number(std::int64_t(last)));
    o.add("bitDepth", number(std::int64_t(bitDepth)));
}

/// The passes and file format keys shared by flipbooks and image sequences, each only when it
/// differs from its default, so files from before passes existed save unchanged.
void addPasses(Node &o, const PassSettings &s, Keys keys)
{
    const PassSettings d;
    if (keys == Keys::Every || s.format != d.format)
        o.add("format", string(toString(s.format)));
    if (keys == Keys::Every || s.exrPrecision != d.exrPrecision)
        o.add("exrPrecision", string(toString(s.exrPrecision)));
    if (keys == Keys::Every || s.lighting != d.lighting)
        o.add("lighting", string(toString(s.lighting)));
    if (keys == Keys::Every || s.normals != d.normals)
        o.add("normals", boolean(s.normals));
    if (keys == Keys::Every || s.depth != d.depth)
        o.add("depthMap", boolean(s.depth));
    if (keys == Keys::Every || s.alpha != d.alpha)
        o.add("alphaMap", boolean(s.alpha));
    if (keys == Keys::Every || s.normalConvention != d.normalConvention)
        o.add("normalConvention", string(toString(s.normalConvention)));
    if (keys == Keys::Every || s.depthThreshold != d.depthThreshold)
        o.add("depthThreshold", number(s.depthThreshold));
    if (keys == Keys::Every || s.pack != d.pack)
        o.add("pack", string(toString(s.pack)));
    if (keys == Keys::Every || s.packChannels != d.packChannels) {
        Node channels = Node::array();
        for (PassChannel c : s.packChannels)
            channels.elements.push_back(string(toString(c)));
        o.add("packChannels", channels);
    }
}

Node flipbookNode(const FlipbookSettings &s, Keys keys)
{
    Node o = Node::object();
    o.add("enabled", boolean(s.enabled));
    o.add("rows", number(std::int64_t(s.rows)));
    o.add("columns", number(std::int64_t(s.columns)));
    addFrames(o, s.first, s.last, s.bitDepth);
    o.add("step", number(std::int64_t(s.step)));
    o.add("padding", number(std::int64_t(s.padding)));
    o.add("alpha", string(toString(s.alpha)));
    o.add("emission", string(toString(s.emission)));
    o.add("motionVectors", boolean(s.motionVectors));
    o.add("motionRange", number(s.motionRange));
    o.add("loopFrames", number(std::int64_t(s.loopFrames)));
    addPasses(o, s.passes, keys);
    o.add("fileName", string(s.fileName));
    addExtra(o, s.extra);
    return o;
}

Node imagesNode(const ImageSequenceSettings &s, Keys keys)
{
    Node o = Node::object();
    o.add("enabled", boolean(s.enabled));
    addFrames(o, s.first, s.last, s.bitDepth);
    o.add("step", number(std::int64_t(s.step)));
    o.add("alpha", string(toString(s.alpha)));
    o.add("emission", string(toString(s.emission)));
    addPasses(o, s.passes, keys);
    o.add("fileName", string(s.fileName));
    addExtra(o, s.extra);
    return o;
}

Node openVdbNode(const VdbSettings &s)
{
    Node o = Node::object();
    o.add("up", string(toString(s.up)));
    o.add("half", boolean(s.halfFloat));
    o.add("velocityMask", string(toString(s.velocityMask)));
    addExtra(o, s.extra);
    return o;
}

Node exportNode(const ExportPresets &e, Keys keys)
{
    Node o = Node::object();
    o.add("render", renderNode(e.render, keys));
    o.add("flipbook", flipbookNode(e.flipbook, keys));
    o.add("images", imagesNode(e.images, keys));
    o.add("openvdb", openVdbNode(e.openvdb));
    addExtra(o, e.extra);
    return o;
}

bool allScalars(const Node &array)
{
    for (const Node &e : array.elements) {
        if (e.type != Node::Type::Scalar)
            return false;
    }
    return true;
}

/// One-line text of a flat node (scalars, arrays of scalars, objects of those), or empty.
std::string inlineText(const Node &node)
{
    switch (node.type) {
    case Node::Type::Scalar: return node.text;
    case Node::Type::Array: {
        std::string s = "[";
        for (std::size_t n = 0; n < node.elements.size(); ++n) {
            if (node.elements[n].type != Node::Type::Scalar)
                return {};
            s += (n ? ", " : "") + node.elements[n].text;
        }
        return s + "]";
    }
    case Node::Type::Object: {
        std::string s = "{";
        for (std::size_t n = 0; n < node.members.size(); ++n) {
            const Node &v = node.members[n].second;
            if (v.type == Node::Type::Object)
                return {};
            const std::string text = inlineText(v);
            if (text.empty())
                return {};
            s += (n ? ", " : "") + string(node.members[n].first).text + ": " + text;
        }
        return s + "}";
    }
    }
    return {};
}

/// Writes a node: objects one member per line, except that arrays of scalars, and objects in
/// arrays that hold only those (keyframes, stroke points), stay on one line when they fit in
/// 100 columns.
void writeNode(const Node &node, int depth, std::string &out)
{
    const std::string indent(std::size_t(4 * (depth + 1)), ' ');
    const std::string closing(std::size_t(4 * depth), ' ');
    switch (node.type) {
    case Node::Type::Scalar: out += node.text; return;
    case Node::Type::Object:
        if (node.members.empty()) {
            out += "{}";
            return;
        }
        out += "{\n";
        for (std::size_t n = 0; n < node.members.size(); ++n) {
            out += indent + string(node.members[n].first).text + ": ";
            writeNode(node.members[n].second, depth + 1, out);
            out += n + 1 < node.members.size() ? ",\n" : "\n";
        }
        out += closing + "}";
        return;
    case Node::Type::Array:
        if (node.elements.empty()) {
            out += "[]";
            return;
        }
        if (allScalars(node)) {
            out += inlineText(node);
            return;
        }
        out += "[\n";
        for (std::size_t n = 0; n < node.elements.size(); ++n) {
            out += indent;
            const std::string line = inlineText(node.elements[n]);
            if (!line.empty() && indent.size() + line.size() < 100)
                out += line;
            else
                writeNode(node.elements[n], depth + 1, out);
            out += n + 1 < node.elements.size() ? ",\n" : "\n";
        }
        out += closing + "]";
        return;
    }
}

/// The scene's JSON text with the keys `keys` asks for.
QByteArray sceneText(const Scene &scene, const std::string &directory, Keys keys)
{
    Node root = Node::object();
    root.add("format", string(kSceneFormatName));
    root.add("version", number(std::int64_t(kSceneFormatVersion)));
    root.add("name", string(scene.name));
    root.add("domain", domainNode(scene.domain, keys));
    root.add("simulation", simulationNode(scene.simulation, scene.directory, directory, keys));
    Node &items = root.add("items", Node::array());
    for (const Item &item : scene.items)
        items.elements.push_back(
            itemNode(item, scene.domain.dimension, scene.directory, directory, keys));
    // Scenes without export presets stay as they were: "export" appears once anything in it
    // differs from the defaults, and then with every key.
    if (keys == Keys::Every || !(scene.exports == ExportPresets{}))
        root.add("export", exportNode(scene.exports, keys));
    addExtra(root, scene.extra);
    std::string out;
    writeNode(root, 0, out);
    out += "\n";
    return QByteArray::fromStdString(out);
}

} // namespace

QByteArray sceneToJson(const Scene &scene, const std::string &directory)
{
    return sceneText(scene, directory, Keys::Set);
}

QByteArray sceneToJsonWithDefaults(const Scene &scene)
{
    return sceneText(scene, std::string(), Keys::Every);
}

void rebaseScene(Scene &scene, const std::string &directory)
{
    for (Item &item : scene.items)
        rebaseImageShape(item.shape, scene.directory, directory);
    LiquidTextureSettings &texture = scene.simulation.liquidTexture;
    if (texture.enabled())
        texture.file = rebasedImagePath(texture.file, scene.directory, directory);
    scene.directory = directory;
}

sim::Status writeSceneFile(const Scene &scene, const QString &path)
{
    const std::string directory = QFileInfo(path).absolutePath().toStdString();
    const QByteArray bytes = sceneToJson(scene, directory);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return sim::Status::failure(path.toStdString()
                                    + ": cannot write: " + file.errorString().toStdString());
    if (file.write(bytes) != bytes.size()) {
        const std::string why = file.errorString().toStdString();
        file.cancelWriting();
        return sim::Status::failure(path.toStdString() + ": write failed: " + why);
    }
    if (!file.commit())
        return sim::Status::failure(path.toStdString()
                                    + ": could not save: " + file.errorString().toStdString());
    return sim::Status::success();
}

} // namespace plume
