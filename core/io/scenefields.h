// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to core/io: the one table of every object of a scene file (docs/scene-format.md).
// Each function below lists an object's keys once, in the order files hold them, with the
// `Param` or `EnumNames` that gives each its range or names, when the writer writes it (when.h)
// and the checks between keys. The reader (scenereader.cpp's FieldReader) and the writer
// (scenewriter.cpp's FieldWriter) both walk these tables, so a key added here is read, written
// and checked alike, and the two cannot drift (issue 48). A visitor `v` has:
//
//   number(param, value, when)   vec3(param, value, when)   animated(param, value, when)
//   boolean(key, value, when)    enumeration(key, value, names, when)
//   string(key, value, nonEmpty) require(key)               absentMeans(key, value, fallback)
//   object(key, extra, fields, when): a nested object, its unknown keys kept in `extra`
//   objects(key, what, elements, fields): a required, non-empty array of objects (`what`
//   names them in messages)
//   file(key, path, kind), shapeType(type, kind, dim), vec3OrNumber(param, value),
//   ramp(key, ramp), enumArray(key, values, names, when), choice(key, value, options)
//   check(key, ok, message()), expect(key, ok, expected(), got): a check between keys (the
//   reader fails at `key` when !ok; the writer has nothing to check)
//
// The structs are `const` for the writer, so every function takes its struct as a template.

#include <core/io/when.h>
#include <core/scene/scene.h>

#include <charconv>
#include <cmath>
#include <string>

namespace plume::scenefields {

using sim::Param;
using sim::Vec3;

/// What a file key names: an image Qt decodes, or a model file.
enum class FileKind { Image, Mesh };

/// The shortest text that reads back as `v` (as the writer writes it).
inline std::string shortest(float v)
{
    char text[32];
    return std::string(text, std::to_chars(text, text + sizeof text, v).ptr);
}

/// "domain.size" is read whole, then its components that count (z only in 3D) are checked.
inline constexpr Param kDomainSizeAny{.key = "size"};

template<class V, class D>
void domain(V &v, D &d)
{
    v.enumeration("dimension", d.dimension, kDimensionNames);
    v.vec3(kDomainSizeAny, d.size);
    for (int c = 0; c < (d.dimension == Dimension::ThreeD ? 3 : 2); ++c)
        v.expect(
            "size[" + std::to_string(c) + "]", domainParams::size.contains(d.size[c]),
            [] { return domainParams::size.describe(); }, double(d.size[c]));
    v.vec3(domainParams::origin, d.origin);
    v.number(domainParams::resolution, d.resolution);
    v.enumeration("preview", d.preview, kPreviewResolutionNames,
                  When::differs(d.preview, PreviewResolution::Full));
    v.object("boundaries", d.boundariesExtra, [&](auto &b) {
        for (int f = 0; f < 6; ++f)
            b.enumeration(sim::faceName(f), d.boundaries[f], sim::kBoundaryNames);
    });
}

/// A control mask (docs/look.md): field, from, to and the ramp as [position, value] pairs.
template<class V, class M>
void mask(V &v, M &m)
{
    namespace mp = sim::controlMaskParams;
    v.enumeration("field", m.field, sim::kControlFieldNames);
    v.number(mp::from, m.from);
    v.number(mp::to, m.to);
    v.check("to", m.from != m.to, [&] {
        return "expected a number other than from (" + shortest(m.from)
               + "): the mask remaps from..to to 0..1";
    });
    v.ramp("ramp", m.ramp);
}

template<class V, class P>
void pressure(V &v, P &p)
{
    v.number(sim::simParams::pressureTolerance, p.tolerance);
    v.number(sim::simParams::pressureMaxIterations, p.maxIterations);
    v.boolean("multigrid", p.multigrid);
}

template<class V, class C>
void combustion(V &v, C &c)
{
    namespace cp = sim::combustionParams;
    v.number(cp::ignitionTemperature, c.ignitionTemperature);
    v.number(cp::burnRate, c.burnRate);
    v.number(cp::heatRelease, c.heatRelease);
    v.number(cp::smokePerFuel, c.smokePerFuel);
    v.number(cp::flameCooling, c.flameCooling);
    v.number(cp::expansion, c.expansion);
}

template<class V, class O>
void ocean(V &v, O &o)
{
    namespace op = sim::oceanParams;
    v.number(op::windSpeed, o.windSpeed);
    v.number(op::windDirection, o.windDirection);
    v.number(op::amplitude, o.amplitude);
    v.number(op::smallWaves, o.smallWaves);
    v.number(op::choppiness, o.choppiness);
    v.number(op::loopPeriod, o.loopPeriod);
    v.number(op::seed, o.seed);
    v.number(op::gravity, o.gravity);
}

template<class V, class U>
void upres(V &v, U &u)
{
    namespace up = sim::upresParams;
    v.number(up::factor, u.factor);
    v.number(up::strength, u.strength);
    v.number(up::size, u.size);
    v.number(up::lifetime, u.lifetime);
}

template<class V, class S>
void sph(V &v, S &s)
{
    namespace sp = sim::sphParams;
    v.number(sp::restDensity, s.restDensity);
    v.number(sp::soundSpeed, s.soundSpeed);
    v.number(sp::viscosity, s.viscosity);
    v.number(sp::artificialViscosity, s.artificialViscosity);
    v.number(sp::surfaceTension, s.surfaceTension);
    v.number(sp::spacing, s.spacing);
    v.number(sp::smoothing, s.smoothing);
    v.number(sp::maxParticles, s.maxParticles);
    v.number(sp::courant, s.courant);
    v.number(sp::gravity, s.gravity);
}

/// "simulation.liquidTexture": the image (required), an even period, the blend and tiling.
template<class V, class T>
void liquidTexture(V &v, T &t)
{
    v.file("file", t.file, FileKind::Image);
    v.number(sim::kTexturePeriod, t.period);
    v.check("period", t.period % 2 == 0, [&] {
        return "expected an even number of frames (the two coordinate sets reset half a period "
               "apart); got "
               + std::to_string(t.period);
    });
    v.enumeration("blend", t.blend, sim::kTextureBlendNames);
    v.number(liquidTextureParams::tiling, t.tiling);
}

template<class V, class S>
void simulation(V &v, S &s)
{
    auto &p = s.params;
    auto &t = s.time;
    namespace sp = sim::simParams;
    namespace tp = sim::timeParams;
    v.enumeration("scheme", p.scheme, sim::kSchemeNames);
    v.number(tp::frameRate, t.frameRate);
    v.number(tp::substeps, t.substeps);
    v.number(tp::cfl, t.cfl);
    v.number(tp::maxSubsteps, t.maxSubsteps);
    v.number(simulationParams::frameStart, s.frameStart);
    v.number(simulationParams::frameEnd, s.frameEnd);
    v.expect(
        "frameEnd", !(s.frameEnd < s.frameStart),
        [&] {
        return Param::above(s.frameStart, true, true).describe() + " (not before frameStart)";
        },
        double(s.frameEnd));
    v.number(simulationParams::seed, s.seed);
    v.number(sp::viscosity, p.viscosity);
    v.number(sp::diffusion, p.diffusion);
    v.number(sp::densityDissipation, p.densityDissipation);
    v.number(sp::temperatureDissipation, p.temperatureDissipation);
    v.number(sp::velocityDissipation, p.velocityDissipation);
    v.vec3(sp::up, p.up);
    v.check("up", !(p.up == Vec3{}), [] { return std::string("expected a non-zero direction"); });
    v.number(sp::ambientTemperature, p.ambientTemperature);
    v.number(sp::buoyancyDensity, p.buoyancyDensity);
    v.number(sp::buoyancyTemperature, p.buoyancyTemperature);
    v.number(sp::vorticity, p.vorticity);
    v.number(sp::vorticityLength, p.vorticityLength, When::differs(p.vorticityLength, 0.f));
    v.object(
        "vorticityMask", s.vorticityMaskExtra, [&](auto &m) { mask(m, p.vorticityMask); },
        When::only(!(p.vorticityMask == sim::ControlMask{})));
    v.enumeration("advection", p.advection, sim::kAdvectionOrderNames);
    v.absentMeans("velocityAdvection", p.velocityAdvection, p.advection); // older files: both
    v.enumeration("velocityAdvection", p.velocityAdvection, sim::kAdvectionOrderNames,
                  When::differs(p.velocityAdvection, p.advection));
    v.boolean("accountingDensity", p.accountingDensity);
    v.boolean("adaptiveDomain", p.adaptiveDomain, When::changed(p.adaptiveDomain));
    v.object("pressure", s.pressureExtra, [&](auto &o) { pressure(o, p.pressure); });
    v.object("combustion", s.combustionExtra, [&](auto &o) { combustion(o, p.combustion); });
    // Only ocean scenes (or files that had the object) carry it, likewise sph's and upres's.
    v.object(
        "ocean", s.oceanExtra, [&](auto &o) { ocean(o, p.ocean); },
        When::changed(p.scheme == sim::Scheme::Ocean || !(p.ocean == sim::OceanSettings{})));
    v.object(
        "upres", s.upresExtra, [&](auto &o) { upres(o, p.upres); },
        When::changed(!(p.upres == sim::UpresSettings{})));
    v.object(
        "sph", s.sphExtra, [&](auto &o) { sph(o, p.sph); },
        When::changed(p.scheme == sim::Scheme::Sph || !(p.sph == sim::SphSettings{})));
    v.number(sp::stamIterations, p.stamIterations);
    v.enumeration("stamSweep", p.stamSweep, sim::kSweepOrderNames);
    v.enumeration("stamNumeric", p.stamNumeric, sim::kStamNumericNames,
                  When::differs(p.stamNumeric, sim::StamNumeric::Float));
    v.object(
        "liquidTexture", s.liquidTexture.extra, [&](auto &o) { liquidTexture(o, s.liquidTexture); },
        When::only(s.liquidTexture.enabled()));
}

template<class V, class P>
void strokePoint(V &v, P &p)
{
    v.require("position");
    v.vec3(strokeParams::position, p.position);
    v.number(strokeParams::radius, p.radius);
    v.number(strokeParams::pressure, p.pressure);
}

template<class V, class S>
void shape(V &v, S &s, ItemKind kind, Dimension dim)
{
    v.shapeType(s.type, kind, dim);
    switch (s.type) {
    case ShapeType::Sphere:
        v.vec3(shapeParams::centre, s.centre);
        v.number(shapeParams::radius, s.radius);
        break;
    case ShapeType::Box:
        v.vec3(shapeParams::centre, s.centre);
        v.vec3(shapeParams::halfSize, s.halfSize);
        v.number(shapeParams::rotation, s.rotation);
        break;
    case ShapeType::Capsule:
        v.vec3(shapeParams::start, s.start);
        v.vec3(shapeParams::end, s.end);
        v.number(shapeParams::radius, s.radius);
        break;
    case ShapeType::Stroke:
        v.objects("points", "stroke points", s.points,
                  [](auto &o, auto &point) { strokePoint(o, point); });
        break;
    case ShapeType::Image:
        v.file("file", s.file, FileKind::Image);
        v.vec3(shapeParams::imageMin, s.imageMin);
        v.vec3(shapeParams::imageMax, s.imageMax);
        v.check("max", s.imageMax.x > s.imageMin.x && s.imageMax.y > s.imageMin.y,
                [] { return std::string("expected a corner above and right of \"min\""); });
        v.enumeration("channel", s.channel, kImageChannelNames);
        v.boolean("invert", s.invert);
        break;
    case ShapeType::Mesh:
        v.file("file", s.file, FileKind::Mesh);
        v.vec3(shapeParams::meshTranslation, s.meshTranslation);
        v.vec3(shapeParams::meshRotation, s.meshRotation);
        v.vec3OrNumber(shapeParams::meshScale, s.meshScale); // a number: uniform
        v.enumeration("fill", s.fill, kMeshFillNames);
        v.number(shapeParams::thickness, s.thickness);
        break;
    case ShapeType::Everywhere: break;
    }
}

template<class V, class E>
void emitter(V &v, E &e)
{
    v.number(emitterParams::density, e.density);
    v.number(emitterParams::temperature, e.temperature);
    v.vec3(emitterParams::dye, e.dye);
    v.number(emitterParams::fuel, e.fuel);
    v.boolean("ignite", e.ignite);
    v.enumeration("velocityMode", e.velocityMode, sim::kEmitterVelocityNames);
    v.vec3(emitterParams::velocity, e.velocity);
    v.animated(emitterParams::rate, e.rate);
    v.enumeration("liquid", e.liquid, sim::kLiquidModeNames,
                  When::differs(e.liquid, sim::LiquidMode::None));
    v.object(
        "noise", e.noise.extra,
        [&](auto &n) { // a noisy source (docs/look.md)
        namespace np = emitterNoiseParams;
        n.number(np::size, e.noise.size);
        n.animated(np::amplitude, e.noise.amplitude);
        n.number(np::speed, e.noise.speed);
        n.number(np::seed, e.noise.seed);
        },
        When::only(e.noise.isSet()));
}

template<class V, class F>
void force(V &v, F &f)
{
    v.enumeration("type", f.type, sim::kForceTypeNames);
    v.animated(f.type == sim::ForceType::Drag ? forceParams::dragStrength : forceParams::strength,
               f.strength);
    v.vec3(forceParams::direction, f.direction);
    v.check("direction",
            !(f.direction == Vec3{}
              && (f.type == sim::ForceType::Directional || f.type == sim::ForceType::Vortex)),
            [] { return std::string("expected a non-zero direction"); });
    v.vec3(forceParams::centre, f.centre);
    v.number(forceParams::scale, f.scale);
    v.number(forceParams::timeScale, f.timeScale);
    v.number(forceParams::falloff, f.falloff);
    v.object(
        "mask", f.maskExtra, [&](auto &m) { mask(m, f.mask); },
        When::only(!(f.mask == sim::ControlMask{})));
}

template<class V, class I>
void item(V &v, I &item, Dimension dim)
{
    v.require("name");
    v.string("name", item.name, true);
    v.require("kind");
    v.enumeration("kind", item.kind, kItemKindNames);
    v.boolean("enabled", item.enabled);
    // Editor flags, written when set (files of scenes that use none stay as they were).
    v.boolean("hidden", item.hidden, When::changed(item.hidden));
    v.boolean("locked", item.locked, When::changed(item.locked));
    v.object("active", item.activeExtra, [&](auto &a) {
        a.number(itemParams::activeStart, item.activeStart);
        a.number(itemParams::activeEnd, item.activeEnd, When::only(std::isfinite(item.activeEnd)));
        a.expect(
            "end", !(item.activeEnd < item.activeStart),
            [&] {
            return Param::above(item.activeStart, true).describe("frame") + " (not before start)";
            },
            double(item.activeEnd));
    });
    v.require("shape");
    v.object("shape", item.shape.extra, [&](auto &s) { shape(s, item.shape, item.kind, dim); });
    v.animated(itemParams::offset, item.offset);
    // Written when set, so files of scenes that neither rotate nor scale stay as they were.
    v.animated(itemParams::rotation, item.rotation,
               When::differs(item.rotation, Animated<Vec3>{Vec3{}}));
    v.animated(itemParams::scale, item.scale,
               When::differs(item.scale, Animated<Vec3>{Vec3{1.f, 1.f, 1.f}}));
    if (item.kind == ItemKind::Obstacle)
        v.object("obstacle", item.obstacle.extra,
                 [&](auto &o) { o.boolean("noSlip", item.obstacle.noSlip); });
    if (item.kind == ItemKind::Emitter)
        v.object("emitter", item.emitter.extra, [&](auto &e) { emitter(e, item.emitter); });
    if (item.kind == ItemKind::ForceField)
        v.object("force", item.force.extra, [&](auto &f) { force(f, item.force); });
}

/// "export.render": the look of flipbooks and images. The light model's and the surface
/// look's keys are written when set, so scenes saved before them save unchanged.
template<class V, class S>
void render(V &v, S &s)
{
    namespace rp = renderParams;
    const RenderSettings d;
    v.number(rp::width, s.width);
    v.number(rp::height, s.height);
    v.enumeration("look2d", s.look2D, kLook2DNames);
    v.enumeration("field", s.field, sim::kFieldKindNames);
    v.enumeration("colorMap", s.colorMap, kColorMapNames);
    v.number(rp::fieldMin, s.fieldMin);
    v.number(rp::fieldMax, s.fieldMax);
    v.expect(
        "fieldMax", s.fieldMax > s.fieldMin,
        [&] { return Param::above(s.fieldMin, false).describe(); }, double(s.fieldMax));
    v.enumeration("projection", s.projection, kProjectionNames);
    v.number(rp::yaw, s.yaw);
    v.number(rp::pitch, s.pitch);
    v.number(rp::fov, s.fov);
    v.number(rp::zoom, s.zoom);
    v.vec3(rp::lightDirection, s.lightDirection);
    v.check("lightDirection", !(s.lightDirection == Vec3{}),
            [] { return std::string("expected a non-zero direction"); });
    v.vec3(rp::lightColor, s.lightColor);
    v.number(rp::lightIntensity, s.lightIntensity);
    v.number(rp::ambient, s.ambient);
    v.vec3(rp::smokeColor, s.smokeColor);
    v.number(rp::densityScale, s.densityScale);
    v.number(rp::stepCells, s.stepCells);
    v.number(rp::emissionIntensity, s.emissionIntensity);
    v.number(rp::emissionMin, s.emissionMin);
    v.number(rp::emissionMax, s.emissionMax);
    v.expect(
        "emissionMax", s.emissionMax > s.emissionMin,
        [&] { return Param::above(s.emissionMin, false).describe(); }, double(s.emissionMax));
    v.number(rp::flameIntensity, s.flameIntensity);
    v.vec3(rp::skyColor, s.skyColor, When::differs(s.skyColor, d.skyColor));
    v.vec3(rp::groundColor, s.groundColor, When::differs(s.groundColor, d.groundColor));
    v.number(rp::anisotropy, s.anisotropy, When::differs(s.anisotropy, d.anisotropy));
    v.number(rp::multipleScattering, s.multipleScattering,
             When::differs(s.multipleScattering, d.multipleScattering));
    v.number(rp::emissionScattering, s.emissionScattering,
             When::differs(s.emissionScattering, d.emissionScattering));
    v.number(rp::exposure, s.exposure, When::differs(s.exposure, d.exposure));
    v.enumeration("toneCurve", s.toneCurve, kToneCurveNames,
                  When::differs(s.toneCurve, d.toneCurve));
    v.enumeration("look3d", s.look3D, kLook3DNames, When::differs(s.look3D, d.look3D));
    v.number(rp::surfaceIso, s.surfaceIso, When::differs(s.surfaceIso, d.surfaceIso));
    v.vec3(rp::surfaceColor, s.surfaceColor, When::differs(s.surfaceColor, d.surfaceColor));
    v.number(rp::foamSpeed, s.foamSpeed, When::differs(s.foamSpeed, d.foamSpeed));
    v.enumeration("framing", s.framing, kFramingNames, When::differs(s.framing, d.framing));
    v.number(rp::framingPadding, s.framingPadding,
             When::differs(s.framingPadding, d.framingPadding));
}

/// "first" and "last" frames of an output (absent: the bake's range) and a bit depth.
template<class V, class S>
void frames(V &v, S &s)
{
    v.number(flipbookParams::first, s.first, When::only(s.first != kBakeRange));
    v.number(flipbookParams::last, s.last, When::only(s.last != kBakeRange));
    v.expect(
        "last", s.first == kBakeRange || s.last == kBakeRange || !(s.last < s.first),
        [&] { return Param::above(s.first, true, true).describe() + " (not before first)"; },
        double(s.last));
    v.choice("bitDepth", s.bitDepth, kBitDepths);
}

/// The passes and file format keys shared by flipbooks and image sequences, each written when
/// it differs from its default, so files from before passes existed save unchanged.
template<class V, class S>
void passes(V &v, S &s)
{
    const PassSettings d;
    v.enumeration("format", s.format, kImageFormatNames, When::differs(s.format, d.format));
    v.enumeration("exrPrecision", s.exrPrecision, kExrPrecisionNames,
                  When::differs(s.exrPrecision, d.exrPrecision));
    v.enumeration("lighting", s.lighting, kLightingNames, When::differs(s.lighting, d.lighting));
    v.boolean("normals", s.normals, When::differs(s.normals, d.normals));
    v.boolean("depthMap", s.depth, When::differs(s.depth, d.depth));
    v.boolean("alphaMap", s.alpha, When::differs(s.alpha, d.alpha));
    v.enumeration("normalConvention", s.normalConvention, kNormalConventionNames,
                  When::differs(s.normalConvention, d.normalConvention));
    v.number(passParams::depthThreshold, s.depthThreshold,
             When::differs(s.depthThreshold, d.depthThreshold));
    v.enumeration("pack", s.pack, kPackPresetNames, When::differs(s.pack, d.pack));
    v.enumArray("packChannels", s.packChannels, kPassChannelNames,
                When::differs(s.packChannels, d.packChannels));
}

template<class V, class S>
void flipbook(V &v, S &s)
{
    v.boolean("enabled", s.enabled);
    v.number(flipbookParams::rows, s.rows);
    v.number(flipbookParams::columns, s.columns);
    frames(v, s);
    v.number(flipbookParams::step, s.step);
    v.number(flipbookParams::padding, s.padding);
    v.enumeration("alpha", s.alpha, kAlphaModeNames);
    v.enumeration("emission", s.emission, kEmissionOutputNames);
    v.boolean("motionVectors", s.motionVectors);
    v.number(flipbookParams::motionRange, s.motionRange);
    v.number(flipbookParams::loopFrames, s.loopFrames);
    passes(v, s.passes);
    v.string("fileName", s.fileName, false);
}

template<class V, class S>
void images(V &v, S &s)
{
    v.boolean("enabled", s.enabled);
    frames(v, s);
    v.number(imageParams::step, s.step);
    v.enumeration("alpha", s.alpha, kAlphaModeNames);
    v.enumeration("emission", s.emission, kEmissionOutputNames);
    passes(v, s.passes);
    v.string("fileName", s.fileName, false);
}

template<class V, class S>
void openVdb(V &v, S &s)
{
    v.enumeration("up", s.up, kUpAxisNames);
    v.boolean("half", s.halfFloat);
    v.enumeration("velocityMask", s.velocityMask, kVelocityMaskNames);
}

/// "export": the presets of `plume-cli bake` (docs/flipbook.md).
template<class V, class E>
void exports(V &v, E &e)
{
    v.object("render", e.render.extra, [&](auto &o) { render(o, e.render); });
    v.object("flipbook", e.flipbook.extra, [&](auto &o) { flipbook(o, e.flipbook); });
    v.object("images", e.images.extra, [&](auto &o) { images(o, e.images); });
    v.object("openvdb", e.openvdb.extra, [&](auto &o) { openVdb(o, e.openvdb); });
}

} // namespace plume::scenefields
