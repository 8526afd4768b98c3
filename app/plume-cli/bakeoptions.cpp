// SPDX-License-Identifier: Apache-2.0
#include <app/plume-cli/bakeoptions.h>

#include <app/plume-cli/common.h>

#include <core/bake/bakeplan.h>
#include <core/render/rendersettings.h>

#include <QFileInfo>

#include <algorithm>
#include <cmath>

namespace plume::cli {

namespace {

/// Applies the pass options to both presets; returns an error message or empty.
QString applyPassOptions(const QCommandLineParser &p, const ExportOptions &o,
                         plume::ExportPresets &e)
{
    plume::PassSettings &f = e.flipbook.passes;
    auto bad = [&p](const QCommandLineOption &opt, const std::string &expected) {
        return "--" + opt.names()[0] + " must be " + QString::fromStdString(expected) + ", got '"
               + p.value(opt) + "'";
    };
    if (p.isSet(o.lighting) && !parseName(p.value(o.lighting), plume::kLightingNames, f.lighting))
        return bad(o.lighting, plume::kLightingNames.expected());
    if (p.isSet(o.normals))
        f.normals = true;
    if (p.isSet(o.normalConvention)
        && !parseName(p.value(o.normalConvention), plume::kNormalConventionNames,
                      f.normalConvention))
        return bad(o.normalConvention, plume::kNormalConventionNames.expected());
    if (p.isSet(o.depthMap))
        f.depth = true;
    if (p.isSet(o.alphaMap))
        f.alpha = true;
    if (p.isSet(o.format) && !parseName(p.value(o.format), plume::kImageFormatNames, f.format))
        return bad(o.format, plume::kImageFormatNames.expected());
    if (p.isSet(o.exr) && !parseName(p.value(o.exr), plume::kExrPrecisionNames, f.exrPrecision))
        return bad(o.exr, plume::kExrPrecisionNames.expected());
    if (p.isSet(o.pack) && !parseName(p.value(o.pack), plume::kPackPresetNames, f.pack))
        return bad(o.pack, plume::kPackPresetNames.expected());
    if (p.isSet(o.packChannels)) {
        const QStringList names = p.value(o.packChannels).split(',');
        if (names.size() != 4)
            return bad(o.packChannels, "four channel names separated by commas");
        for (int c = 0; c < 4; ++c) {
            if (!parseName(names[c].trimmed(), plume::kPassChannelNames,
                           f.packChannels[std::size_t(c)]))
                return bad(o.packChannels,
                           "four of " + std::string(plume::kPassChannelNames.expected()));
        }
        f.pack = plume::PackPreset::Custom;
    }
    // The options set both presets; what a scene preset had and no option names stays.
    plume::PassSettings &im = e.images.passes;
    auto copy = [&](const QCommandLineOption &opt, auto member) {
        if (p.isSet(opt))
            im.*member = f.*member;
    };
    copy(o.lighting, &plume::PassSettings::lighting);
    copy(o.normals, &plume::PassSettings::normals);
    copy(o.normalConvention, &plume::PassSettings::normalConvention);
    copy(o.depthMap, &plume::PassSettings::depth);
    copy(o.alphaMap, &plume::PassSettings::alpha);
    copy(o.format, &plume::PassSettings::format);
    copy(o.exr, &plume::PassSettings::exrPrecision);
    copy(o.pack, &plume::PassSettings::pack);
    copy(o.packChannels, &plume::PassSettings::pack);
    copy(o.packChannels, &plume::PassSettings::packChannels);
    return {};
}

/// Applies the export options to the scene's presets; returns an error message or empty.
QString applyExportOptions(const QCommandLineParser &p, const ExportOptions &o,
                           plume::ExportPresets &e)
{
    namespace fp = plume::flipbookParams;
    namespace rp = plume::renderParams;
    plume::FlipbookSettings &f = e.flipbook;
    plume::ImageSequenceSettings &im = e.images;
    plume::RenderSettings &r = e.render;
    auto bad = [&p](const QCommandLineOption &opt, const std::string &expected) {
        return "--" + opt.names()[0] + " must be " + QString::fromStdString(expected) + ", got '"
               + p.value(opt) + "'";
    };
    if (p.isSet(o.flipbook)) {
        if (!parsePair(p.value(o.flipbook), fp::rows, f.rows, fp::columns, f.columns))
            return bad(o.flipbook, "ROWSxCOLUMNS, each " + fp::rows.describe());
        f.enabled = true;
    }
    if (p.isSet(o.images))
        im.enabled = true;
    if (p.isSet(o.size) && !parsePair(p.value(o.size), rp::width, r.width, rp::height, r.height))
        return bad(o.size, "WIDTHxHEIGHT, each " + rp::width.describe());
    if (p.isSet(o.step)) {
        // One step for both: the flipbook's 0 (fit the tiles) is 1 for images.
        if (!parseParam(p.value(o.step), fp::step, f.step))
            return bad(o.step, fp::step.describe());
        im.step = std::max(f.step, int(plume::imageParams::step.min));
    }
    if (p.isSet(o.padding) && !parseParam(p.value(o.padding), fp::padding, f.padding))
        return bad(o.padding, fp::padding.describe());
    if (p.isSet(o.alpha)) {
        if (!parseName(p.value(o.alpha), plume::kAlphaModeNames, f.alpha))
            return bad(o.alpha, plume::kAlphaModeNames.expected());
        im.alpha = f.alpha;
    }
    if (p.isSet(o.depth)) {
        bool ok = false;
        const int bits = p.value(o.depth).toInt(&ok);
        if (!ok || !plume::validBitDepth(bits))
            return bad(o.depth, "8 or 16");
        f.bitDepth = im.bitDepth = bits;
    }
    if (p.isSet(o.emission)) {
        if (!parseName(p.value(o.emission), plume::kEmissionOutputNames, f.emission))
            return bad(o.emission, plume::kEmissionOutputNames.expected());
        im.emission = f.emission;
    }
    if (p.isSet(o.noMotion))
        f.motionVectors = false;
    if (p.isSet(o.motionRange)
        && !parseParam(p.value(o.motionRange), fp::motionRange, f.motionRange))
        return bad(o.motionRange, fp::motionRange.describe() + " (0: the largest motion)");
    if (p.isSet(o.loop) && !parseParam(p.value(o.loop), fp::loopFrames, f.loopFrames))
        return bad(o.loop, fp::loopFrames.describe());
    if (p.isSet(o.camera)) {
        const QStringList parts = p.value(o.camera).split(',');
        if (parts.size() != 2 || !parseParam(parts[0], rp::yaw, r.yaw)
            || !parseParam(parts[1], rp::pitch, r.pitch))
            return bad(o.camera, "YAW,PITCH with pitch " + rp::pitch.describe());
    }
    if (p.isSet(o.perspective)) {
        r.projection = plume::Projection::Perspective;
        if (!parseParam(p.value(o.perspective), rp::fov, r.fov))
            return bad(o.perspective, rp::fov.describe("angle"));
    }
    if (p.isSet(o.framing)) {
        const QStringList parts = p.value(o.framing).split(':');
        if (parts.size() > 2 || !parseName(parts[0], plume::kFramingNames, r.framing)
            || (parts.size() == 2
                && (r.framing != plume::Framing::Effect
                    || !parseParam(parts[1], rp::framingPadding, r.framingPadding))))
            return bad(o.framing, "domain, effect or effect:PADDING with PADDING "
                                      + rp::framingPadding.describe());
    }
    if (p.isSet(o.look)) {
        // surface is both a 2D and a 3D look; volume is the 3D default.
        const QString look = p.value(o.look);
        if (look == "volume") {
            r.look3D = plume::Look3D::Volume;
        } else if (!parseName(look, plume::kLook2DNames, r.look2D)) {
            return bad(o.look, plume::kLook2DNames.expected() + " (or volume in 3D)");
        } else if (r.look2D == plume::Look2D::Surface) {
            r.look3D = plume::Look3D::Surface;
        }
    }
    if (p.isSet(o.field)) {
        if (!parseName(p.value(o.field), plume::sim::kFieldKindNames, r.field))
            return bad(o.field, plume::sim::kFieldKindNames.expected());
        r.look2D = plume::Look2D::Field;
    }
    if (p.isSet(o.exposure) && !parseParam(p.value(o.exposure), rp::exposure, r.exposure))
        return bad(o.exposure, rp::exposure.describe("number of stops"));
    if (p.isSet(o.toneCurve)
        && !parseName(p.value(o.toneCurve), plume::kToneCurveNames, r.toneCurve))
        return bad(o.toneCurve, plume::kToneCurveNames.expected());
    if (const QString error = applyPassOptions(p, o, e); !error.isEmpty())
        return error;
    if (plume::sim::Status st = plume::checkRenderSettings(r); !st)
        return QString::fromStdString(st.error);
    return {};
}

/// Applies the OpenVDB options to the scene's preset; returns an error message or empty.
QString applyVdbOptions(const QCommandLineParser &p, const VdbOptions &o, plume::VdbSettings &v)
{
    if (p.isSet(o.up) && !parseName(p.value(o.up), plume::kUpAxisNames, v.up))
        return "--up must be " + QString::fromStdString(plume::kUpAxisNames.expected()) + ", got '"
               + p.value(o.up) + "'";
    if (p.isSet(o.half))
        v.halfFloat = true;
    if (p.isSet(o.velocityMask)
        && !parseName(p.value(o.velocityMask), plume::kVelocityMaskNames, v.velocityMask))
        return "--velocity-mask must be "
               + QString::fromStdString(plume::kVelocityMaskNames.expected()) + ", got '"
               + p.value(o.velocityMask) + "'";
    return {};
}

/// Applies --level-surface and --mesh to the bake; returns an error message or empty.
QString applySurfaceOptions(const QCommandLineParser &p, const VdbOptions &o,
                            plume::BakeSettings &settings)
{
    if (p.isSet(o.levelSurface)) {
        bool ok = false;
        const double iso = p.value(o.levelSurface).toDouble(&ok);
        if (!ok || !std::isfinite(iso))
            return "--level-surface must be a number (the density's iso value), got '"
                   + p.value(o.levelSurface) + "'";
        settings.levelSurface = true;
        settings.levelSurfaceIso = float(iso);
        settings.render.surfaceIso = float(iso);
    } else {
        settings.levelSurfaceIso = settings.render.surfaceIso; // the scene's preset
    }
    settings.mesh = p.isSet(o.mesh);
    return {};
}

/// The option named "--NAME must be EXPECTED, got 'VALUE'".
QString badValue(const QCommandLineParser &p, const QCommandLineOption &o,
                 const std::string &expected)
{
    return "--" + o.names().front() + " must be " + QString::fromStdString(expected) + ", got '"
           + p.value(o) + "'";
}

/// What every bake names: folder, base name, version, frames, checkpoints.
QString applyCommonOptions(const QCommandLineParser &parser, const BakeOptions &o,
                           const Scene &scene, const QString &path, BakeSettings &settings)
{
    bool everyOk = false;
    settings.checkpointEvery = parser.value(o.checkpointEvery).toInt(&everyOk);
    if (!everyOk || settings.checkpointEvery < 0)
        return "--checkpoint-every must be 0 or a positive integer, got '"
               + parser.value(o.checkpointEvery) + "'";
    settings.outputDirectory = parser.value(o.output).toStdString();
    settings.baseName = QFileInfo(path).completeBaseName().toStdString();
    settings.plumeVersion = PLUME_VERSION;
    settings.firstFrame = scene.simulation.frameStart;
    settings.lastFrame = scene.simulation.frameEnd;
    if (parser.isSet(o.frames)
        && !parseFrames(parser.value(o.frames), settings.firstFrame, settings.lastFrame))
        return "--frames must be A:B or A, got '" + parser.value(o.frames) + "'";
    return {};
}

/// An ocean scene bakes its maps (core/bake/oceanbake.h) instead of VDB files or renders.
QString applyOceanOptions(const QCommandLineParser &parser, const BakeOptions &o,
                          BakeSettings &settings)
{
    const VdbOptions &v = o.vdbOptions;
    const ExportOptions &e = o.exportOptions;
    for (const QCommandLineOption &refused :
         {o.vdb,          o.resume,        e.flipbook,  e.images,    o.flowMap,
          o.vectorField,  o.volumeTexture, v.up,        v.half,      v.velocityMask,
          v.levelSurface, v.mesh,          e.lighting,  e.normals,   e.depthMap,
          e.alphaMap,     e.pack,          o.cacheOnly, o.fromCache, o.chunk}) {
        if (parser.isSet(refused))
            return "--" + refused.names().front()
                   + " does not apply to an ocean scene: it writes maps "
                     "(--ocean-maps, --ocean-flipbook)";
    }
    OceanBakeSettings ocean;
    if (parser.isSet(e.format)
        && !parseName(parser.value(e.format), kImageFormatNames, ocean.format))
        return badValue(parser, e.format, kImageFormatNames.expected());
    if (parser.isSet(e.exr)
        && !parseName(parser.value(e.exr), kExrPrecisionNames, ocean.exrPrecision))
        return badValue(parser, e.exr, kExrPrecisionNames.expected());
    if (parser.isSet(o.oceanMaps)) {
        ocean.maps.clear();
        for (const QString &name : parser.value(o.oceanMaps).split(',')) {
            OceanMap map{};
            if (!parseName(name.trimmed(), kOceanMapNames, map))
                return "--ocean-maps: expected " + QString::fromStdString(kOceanMapNames.expected())
                       + ", got '" + name + "'";
            if (std::find(ocean.maps.begin(), ocean.maps.end(), map) == ocean.maps.end())
                ocean.maps.push_back(map);
        }
    }
    if (parser.isSet(o.oceanFlipbook)) {
        bool ok = false;
        ocean.columns = parser.value(o.oceanFlipbook).toInt(&ok);
        if (!ok || ocean.columns < 0 || ocean.columns > 256)
            return "--ocean-flipbook: expected columns from 0 to 256, got '"
                   + parser.value(o.oceanFlipbook) + "'";
        ocean.flipbook = true;
    }
    settings.vdb = false;
    settings.checkpointEvery = 0; // an ocean bake cannot resume: no record to keep
    settings.oceanMaps = ocean;
    return {};
}

/// --cache-only, --from-cache and --chunk (core/bake/bakesettings.h's fromCache).
QString applyCacheOptions(const QCommandLineParser &parser, const BakeOptions &o,
                          BakeSettings &settings)
{
    const ExportOptions &e = o.exportOptions;
    if (parser.isSet(o.cacheOnly)) {
        for (const QCommandLineOption &other :
             {o.fromCache, o.chunk, e.flipbook, e.images, o.flowMap, o.vectorField, o.volumeTexture,
              o.vdbOptions.mesh}) {
            if (parser.isSet(other))
                return "--cache-only writes the VDB cache alone: not with --"
                       + other.names().front();
        }
        settings.vdb = true;
        settings.flipbook.enabled = false;
        settings.images.enabled = false;
        return {};
    }
    if (parser.isSet(o.chunk)) {
        if (!parser.isSet(o.fromCache))
            return "--chunk renders part of a bake from a cache: add --from-cache DIR";
        if (!parseFrames(parser.value(o.chunk), settings.chunkFirst, settings.chunkLast))
            return "--chunk must be A:B or A, got '" + parser.value(o.chunk) + "'";
        settings.chunk = true;
    }
    if (parser.isSet(o.fromCache)) {
        if (parser.value(o.fromCache).isEmpty())
            return "--from-cache needs the cache folder";
        settings.fromCache = parser.value(o.fromCache).toStdString();
        // The cache is the VDB files: they are written only when asked (and then refused).
        settings.vdb = parser.isSet(o.vdb);
        settings.checkpointEvery = 0;
    }
    return {};
}

/// --vector-field and its size, average and scale (export/vectorfield.h).
QString applyVectorFieldOptions(const QCommandLineParser &parser, const BakeOptions &o,
                                VectorFieldSettings &v)
{
    if (!parser.isSet(o.vectorField)) {
        for (const QCommandLineOption &needs :
             {o.vectorFieldSize, o.vectorFieldAverage, o.vectorFieldScale}) {
            if (parser.isSet(needs))
                return "--" + needs.names().front() + " goes with --vector-field vf|fga";
        }
        return {};
    }
    v.enabled = true;
    if (!parseName(parser.value(o.vectorField), kVectorFieldFormatNames, v.format))
        return badValue(parser, o.vectorField, kVectorFieldFormatNames.expected());
    if (parser.isSet(o.vectorFieldSize)
        && !parseParam(parser.value(o.vectorFieldSize), vectorFieldParams::size, v.size))
        return badValue(parser, o.vectorFieldSize,
                        vectorFieldParams::size.describe() + " (the engines' limit)");
    if (parser.isSet(o.vectorFieldScale)
        && !parseParam(parser.value(o.vectorFieldScale), vectorFieldParams::scale, v.scale))
        return badValue(parser, o.vectorFieldScale, vectorFieldParams::scale.describe());
    v.average = parser.isSet(o.vectorFieldAverage);
    return {};
}

/// --volume-texture and its size, bits and range (export/volumetexture.h).
QString applyVolumeTextureOptions(const QCommandLineParser &parser, const BakeOptions &o,
                                  VolumeTextureSettings &v)
{
    if (!parser.isSet(o.volumeTexture)) {
        for (const QCommandLineOption &needs :
             {o.volumeTextureSize, o.volumeTextureBits, o.volumeTextureRange}) {
            if (parser.isSet(needs))
                return "--" + needs.names().front()
                       + " goes with --volume-texture density|temperature|flame";
        }
        return {};
    }
    v.enabled = true;
    if (!parseName(parser.value(o.volumeTexture), kVolumeChannelNames, v.channel))
        return badValue(parser, o.volumeTexture, kVolumeChannelNames.expected());
    if (parser.isSet(o.volumeTextureSize)
        && !parseParam(parser.value(o.volumeTextureSize), volumeTextureParams::size, v.size))
        return badValue(parser, o.volumeTextureSize, volumeTextureParams::size.describe());
    if (parser.isSet(o.volumeTextureBits)) {
        bool ok = false;
        const int bits = parser.value(o.volumeTextureBits).toInt(&ok);
        if (!ok || !validBitDepth(bits))
            return badValue(parser, o.volumeTextureBits, "8 or 16");
        v.bitDepth = bits;
    }
    if (parser.isSet(o.volumeTextureRange)
        && !parseParam(parser.value(o.volumeTextureRange), volumeTextureParams::range, v.range))
        return badValue(parser, o.volumeTextureRange, volumeTextureParams::range.describe());
    return {};
}

/// Any other scene: the scene's export presets with the options applied.
QString applyFrameOptions(const QCommandLineParser &parser, const BakeOptions &o,
                          const Scene &scene, BakeSettings &settings)
{
    if (parser.isSet(o.oceanMaps) || parser.isSet(o.oceanFlipbook))
        return "--ocean-maps and --ocean-flipbook are for scenes of the ocean scheme; this one is "
               + QString(sim::toString(scene.simulation.params.scheme));
    settings.resume = parser.isSet(o.resume);
    ExportPresets presets = scene.exports;
    if (parser.isSet(o.frames)) {
        presets.flipbook.first = presets.flipbook.last = kBakeRange;
        presets.images.first = presets.images.last = kBakeRange;
    }
    if (const QString error = applyExportOptions(parser, o.exportOptions, presets);
        !error.isEmpty())
        return error;
    // A rendered output named on the command line replaces the scene's rendered presets:
    // `--images` of a scene that presets a flipbook bakes the images alone (the presets' look,
    // frames and passes still apply to what is named). --vdb, --mesh and --flow-map add to the
    // presets (`--vdb` keeps the VDB cache next to a preset flipbook, as the farm does).
    const ExportOptions &e = o.exportOptions;
    if (parser.isSet(e.flipbook) || parser.isSet(e.images)) {
        presets.flipbook.enabled = parser.isSet(e.flipbook);
        presets.images.enabled = parser.isSet(e.images);
    }
    if (const QString error = applyVdbOptions(parser, o.vdbOptions, presets.openvdb);
        !error.isEmpty())
        return error;
    settings.render = presets.render;
    settings.flipbook = presets.flipbook;
    settings.images = presets.images;
    settings.openvdb = presets.openvdb;
    settings.flowMap = parser.isSet(o.flowMap);
    if (const QString error = applyVectorFieldOptions(parser, o, settings.vectorField);
        !error.isEmpty())
        return error;
    if (const QString error = applyVolumeTextureOptions(parser, o, settings.volumeTexture);
        !error.isEmpty())
        return error;
    if (const QString error = applySurfaceOptions(parser, o.vdbOptions, settings); !error.isEmpty())
        return error;
    settings.vdb = parser.isSet(o.vdb)
                   || vdbByDefault(presets,
                                   settings.flowMap || settings.vectorField.enabled
                                       || settings.volumeTexture.enabled,
                                   settings.mesh);
    return applyCacheOptions(parser, o, settings);
}

} // namespace

void BakeOptions::addTo(QCommandLineParser &parser) const
{
    parser.addOptions(
        {output, frames, threads, vdb, flowMap, quiet, progress, resume, checkpointEvery, upres});
    parser.addOptions({vectorField, vectorFieldSize, vectorFieldAverage, vectorFieldScale});
    parser.addOptions({volumeTexture, volumeTextureSize, volumeTextureBits, volumeTextureRange});
    parser.addOptions({cacheOnly, fromCache, chunk});
    parser.addOptions(vdbOptions.all());
    parser.addOptions(exportOptions.all());
    parser.addOptions({oceanMaps, oceanFlipbook});
}

QString bakeSettingsFromOptions(const QCommandLineParser &parser, const BakeOptions &options,
                                const Scene &scene, const QString &path, BakeSettings &settings)
{
    if (const QString error = applyCommonOptions(parser, options, scene, path, settings);
        !error.isEmpty())
        return error;
    if (scene.simulation.params.scheme == sim::Scheme::Ocean)
        return applyOceanOptions(parser, options, settings);
    return applyFrameOptions(parser, options, scene, settings);
}

} // namespace plume::cli
