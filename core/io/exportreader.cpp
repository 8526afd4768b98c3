// SPDX-License-Identifier: Apache-2.0
// The scene file's "export" object: the render look and the flipbook, image-sequence and OpenVDB
// presets (docs/scene-format.md, "export"). The rest of the file is scenereader.cpp's.
#include <core/io/exportreader.h>

#include <QJsonArray>
#include <QJsonValue>

#include <string>
#include <utility>

namespace plume {

using sim::Param;
using sim::Vec3;
using namespace objectreader;

namespace {

void readRender(ObjectReader &r, RenderSettings &s)
{
    namespace rp = renderParams;
    r.number(rp::width, s.width);
    r.number(rp::height, s.height);
    r.enumeration("look2d", s.look2D, kLook2DNames);
    r.enumeration("field", s.field, sim::kFieldKindNames);
    r.enumeration("colorMap", s.colorMap, kColorMapNames);
    r.number(rp::fieldMin, s.fieldMin);
    r.number(rp::fieldMax, s.fieldMax);
    if (r.ok() && !(s.fieldMax > s.fieldMin))
        return r.context().fail(r.path("fieldMax"), Param::above(s.fieldMin, false).describe(),
                                double(s.fieldMax));
    r.enumeration("projection", s.projection, kProjectionNames);
    for (auto [param, value] : {std::pair{&rp::yaw, &s.yaw},
                                {&rp::pitch, &s.pitch},
                                {&rp::fov, &s.fov},
                                {&rp::zoom, &s.zoom}})
        r.number(*param, *value);
    r.enumeration("framing", s.framing, kFramingNames);
    r.number(rp::framingPadding, s.framingPadding);
    r.vec3(rp::lightDirection, s.lightDirection);
    if (r.ok() && s.lightDirection == Vec3{})
        return r.context().failMessage(r.path("lightDirection"), "expected a non-zero direction");
    r.vec3(rp::lightColor, s.lightColor);
    r.number(rp::lightIntensity, s.lightIntensity);
    r.number(rp::ambient, s.ambient);
    r.vec3(rp::skyColor, s.skyColor);
    r.vec3(rp::groundColor, s.groundColor);
    r.vec3(rp::smokeColor, s.smokeColor);
    for (auto [param, value] : {std::pair{&rp::densityScale, &s.densityScale},
                                {&rp::stepCells, &s.stepCells},
                                {&rp::anisotropy, &s.anisotropy},
                                {&rp::multipleScattering, &s.multipleScattering},
                                {&rp::emissionScattering, &s.emissionScattering},
                                {&rp::exposure, &s.exposure},
                                {&rp::emissionIntensity, &s.emissionIntensity},
                                {&rp::emissionMin, &s.emissionMin},
                                {&rp::emissionMax, &s.emissionMax},
                                {&rp::flameIntensity, &s.flameIntensity}})
        r.number(*param, *value);
    if (r.ok() && !(s.emissionMax > s.emissionMin))
        return r.context().fail(r.path("emissionMax"),
                                Param::above(s.emissionMin, false).describe(),
                                double(s.emissionMax));
    r.enumeration("toneCurve", s.toneCurve, kToneCurveNames);
    r.enumeration("look3d", s.look3D, kLook3DNames);
    r.number(rp::surfaceIso, s.surfaceIso);
    r.vec3(rp::surfaceColor, s.surfaceColor);
    r.number(rp::foamSpeed, s.foamSpeed);
}

/// "first" and "last" frames of an output (absent: the bake's range) and a bit depth.
void readFrames(ObjectReader &r, int &first, int &last, int &bitDepth)
{
    r.number(flipbookParams::first, first);
    r.number(flipbookParams::last, last);
    if (r.ok() && first != kBakeRange && last != kBakeRange && last < first)
        return r.context().fail(r.path("last"),
                                Param::above(first, true, true).describe() + " (not before first)",
                                last);
    if (r.ok() && r.has("bitDepth")) {
        const QJsonValue v = r.take("bitDepth");
        if (!(v.isDouble() && validBitDepth(v.toDouble())))
            return r.context().fail(r.path("bitDepth"), "8 or 16", v);
        bitDepth = v.toInt();
    }
}

/// The passes and file format keys shared by flipbooks and image sequences.
void readPasses(ObjectReader &r, PassSettings &s)
{
    r.enumeration("format", s.format, kImageFormatNames);
    r.enumeration("exrPrecision", s.exrPrecision, kExrPrecisionNames);
    r.enumeration("lighting", s.lighting, kLightingNames);
    r.boolean("normals", s.normals);
    r.boolean("depthMap", s.depth);
    r.boolean("alphaMap", s.alpha);
    r.enumeration("normalConvention", s.normalConvention, kNormalConventionNames);
    r.number(passParams::depthThreshold, s.depthThreshold);
    r.enumeration("pack", s.pack, kPackPresetNames);
    if (!r.ok() || !r.has("packChannels"))
        return;
    const QJsonValue v = r.take("packChannels");
    const std::string expected = "an array of 4 channel names, each "
                                 + std::string(kPassChannelNames.expected());
    const QJsonArray a = v.toArray();
    if (!v.isArray() || a.size() != 4)
        return r.context().fail(r.path("packChannels"), expected, v);
    for (int c = 0; c < 4; ++c) {
        if (!a[c].isString()
            || !kPassChannelNames.parse(a[c].toString().toStdString(),
                                        s.packChannels[std::size_t(c)]))
            return r.context().fail(r.path("packChannels") + "[" + std::to_string(c) + "]",
                                    kPassChannelNames.expected(), a[c]);
    }
}

void readFlipbook(ObjectReader &r, FlipbookSettings &s)
{
    r.boolean("enabled", s.enabled);
    r.number(flipbookParams::rows, s.rows);
    r.number(flipbookParams::columns, s.columns);
    readFrames(r, s.first, s.last, s.bitDepth);
    r.number(flipbookParams::step, s.step);
    r.number(flipbookParams::padding, s.padding);
    r.enumeration("alpha", s.alpha, kAlphaModeNames);
    r.enumeration("emission", s.emission, kEmissionOutputNames);
    r.boolean("motionVectors", s.motionVectors);
    r.number(flipbookParams::motionRange, s.motionRange);
    r.number(flipbookParams::loopFrames, s.loopFrames);
    readPasses(r, s.passes);
    r.string("fileName", s.fileName, false);
}

void readImages(ObjectReader &r, ImageSequenceSettings &s)
{
    r.boolean("enabled", s.enabled);
    readFrames(r, s.first, s.last, s.bitDepth);
    r.number(imageParams::step, s.step);
    r.enumeration("alpha", s.alpha, kAlphaModeNames);
    r.enumeration("emission", s.emission, kEmissionOutputNames);
    readPasses(r, s.passes);
    r.string("fileName", s.fileName, false);
}

void readOpenVdb(ObjectReader &r, VdbSettings &s)
{
    r.enumeration("up", s.up, kUpAxisNames);
    r.boolean("half", s.halfFloat);
    r.enumeration("velocityMask", s.velocityMask, kVelocityMaskNames);
}

} // namespace

void readExport(ObjectReader &r, ExportPresets &e)
{
    if (r.ok() && r.has("render")) {
        ObjectReader o(r.context(), r.take("render"), r.path("render"));
        readRender(o, e.render);
        e.render.extra = o.finish();
    }
    if (r.ok() && r.has("flipbook")) {
        ObjectReader o(r.context(), r.take("flipbook"), r.path("flipbook"));
        readFlipbook(o, e.flipbook);
        e.flipbook.extra = o.finish();
    }
    if (r.ok() && r.has("images")) {
        ObjectReader o(r.context(), r.take("images"), r.path("images"));
        readImages(o, e.images);
        e.images.extra = o.finish();
    }
    if (r.ok() && r.has("openvdb")) {
        ObjectReader o(r.context(), r.take("openvdb"), r.path("openvdb"));
        readOpenVdb(o, e.openvdb);
        e.openvdb.extra = o.finish();
    }
}

} // namespace plume
