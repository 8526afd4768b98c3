// SPDX-License-Identifier: Apache-2.0
#include <core/bake/bakeplan.h>

#include <core/bake/bakefields.h>
#include <core/export/flipbook.h>
#include <core/export/passes.h>
#include <core/scene/rasterize.h>
#include <core/scene/texturelook.h>
#include <core/sim/run/memoryestimate.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <functional>
#include <tuple>

namespace plume {

namespace {

/// Why a rule refuses, or nothing (outcome Done).
struct Refusal
{
    BakeOutcome outcome = BakeOutcome::Done;
    std::string message;
    std::string setting;

    explicit operator bool() const { return outcome != BakeOutcome::Done; }
};

Refusal invalid(std::string message, std::string setting = {})
{
    return {BakeOutcome::Invalid, std::move(message), std::move(setting)};
}

Refusal accept() { return {}; }

Refusal fromStatus(const sim::Status &st, const std::string &prefix = {})
{
    return st ? accept() : invalid(prefix + st.error);
}

bool isOcean(const Scene &scene) { return scene.simulation.params.scheme == sim::Scheme::Ocean; }

/// At least one output.
Refusal checkOutputs(const Scene &, BakePlan &p)
{
    const BakeSettings &s = p.settings;
    const bool none = !s.vdb && !s.mesh && !s.flipbook.enabled && !s.images.enabled && !s.flowMap
                      && !s.vectorField.enabled && !s.volumeTexture.enabled && !s.oceanMaps;
    if (none && !s.fromCache.empty())
        return invalid("nothing to render from the cache: ask for a flipbook, images or meshes "
                       "(or enable them in the scene's export presets)");
    if (none)
        return invalid("nothing to bake: no VDB, mesh, flipbook, image, flow map, vector field or "
                       "volume texture output is enabled");
    return accept();
}

/// The ocean maps' own rules; their frames are the bake's.
Refusal checkOceanMapsRule(const Scene &scene, BakePlan &p)
{
    if (!p.settings.oceanMaps)
        return accept();
    return fromStatus(checkOceanMaps(scene, *p.settings.oceanMaps));
}

/// Where the files go; plume-cli always names both, the dialog may leave them empty.
Refusal checkDestination(const Scene &, BakePlan &p)
{
    if (p.settings.outputDirectory.empty())
        return invalid("no output folder: choose one");
    if (p.settings.baseName.empty())
        return invalid("no base name: enter one");
    return accept();
}

Refusal checkBakeFrames(const Scene &scene, BakePlan &p)
{
    if (sim::Status st = checkFrameRange(scene, p.settings.firstFrame, p.settings.lastFrame); !st)
        return invalid(st.error, "frames");
    return accept();
}

/// An output's own range when set, else the bake's, checked against the scene's.
Refusal resolveSpan(const Scene &scene, const BakeSettings &b, bool on, int first, int last,
                    int step, const char *what, FrameSpan &out)
{
    out.on = on;
    out.first = first == kBakeRange ? b.firstFrame : first;
    out.last = last == kBakeRange ? b.lastFrame : last;
    out.step = std::max(step, 1);
    if (!on)
        return accept();
    return fromStatus(checkFrameRange(scene, out.first, out.last), std::string(what) + ": ");
}

Refusal resolveSpans(const Scene &scene, BakePlan &p)
{
    const BakeSettings &s = p.settings;
    const FlipbookSettings &fs = s.flipbook;
    const ImageSequenceSettings &is = s.images;
    for (const Refusal &r :
         {resolveSpan(scene, s, s.vdb, s.firstFrame, s.lastFrame, 1, "vdb", p.vdb),
          resolveSpan(scene, s, s.mesh, s.firstFrame, s.lastFrame, 1, "mesh", p.mesh),
          resolveSpan(scene, s, s.flowMap, s.firstFrame, s.lastFrame, 1, "flow map", p.flowMap),
          resolveSpan(scene, s, s.vectorField.enabled, s.firstFrame, s.lastFrame, 1, "vector field",
                      p.vectorField),
          resolveSpan(scene, s, s.volumeTexture.enabled, s.firstFrame, s.lastFrame, 1,
                      "volume texture", p.volumeTexture),
          resolveSpan(scene, s, fs.enabled, fs.first, fs.last, 1, "flipbook", p.flipbook),
          resolveSpan(scene, s, is.enabled, is.first, is.last, is.step, "images", p.images),
          resolveSpan(scene, s, bool(s.oceanMaps), s.firstFrame, s.lastFrame, 1, "ocean maps",
                      p.oceanMaps)}) {
        if (r)
            return r;
    }
    return accept();
}

/// What the scene's scheme and dimension allow.
Refusal checkSceneFits(const Scene &scene, BakePlan &p)
{
    const BakeSettings &s = p.settings;
    if (p.mesh.on && isOcean(scene))
        return invalid("an ocean scene has no volume to mesh; bake its height, normal and foam "
                       "maps instead (plume-cli bake, docs/ocean.md)");
    if ((s.mesh || s.levelSurface) && !std::isfinite(s.levelSurfaceIso))
        return invalid("level surface: the iso value must be finite");
    if (p.vdb.on && isOcean(scene))
        return invalid("an ocean scene has no volume to write as OpenVDB; bake its height, "
                       "normal and foam maps instead (plume-cli bake, docs/ocean.md), or a "
                       "flipbook or images of a field such as height");
    if (p.flowMap.on && scene.domain.dimension != Dimension::TwoD)
        return invalid("flow map: a flow map needs a 2D scene");
    if (const VectorFieldSettings &v = s.vectorField; p.vectorField.on) {
        if (isOcean(scene))
            return invalid("vector field: an ocean scene has no velocity volume; bake its maps "
                           "(docs/ocean.md)");
        if (!vectorFieldParams::size.contains(v.size))
            return invalid(
                "vector field: the size must be " + vectorFieldParams::size.describe("integer")
                + " (the engines take at most 128 voxels a side), got " + std::to_string(v.size));
        if (!vectorFieldParams::scale.contains(v.scale))
            return invalid("vector field: the scale must be " + vectorFieldParams::scale.describe()
                           + ", got " + sim::formatNumber(v.scale));
    }
    if (const VolumeTextureSettings &v = s.volumeTexture; p.volumeTexture.on) {
        if (isOcean(scene))
            return invalid("volume texture: an ocean scene has no volume; bake its maps "
                           "(docs/ocean.md)");
        if (!volumeTextureParams::size.contains(v.size))
            return invalid("volume texture: the size must be "
                           + volumeTextureParams::size.describe("integer") + ", got "
                           + std::to_string(v.size));
        if (!validBitDepth(v.bitDepth))
            return invalid("volume texture: the bit depth must be 8 or 16, got "
                           + std::to_string(v.bitDepth));
        if (!volumeTextureParams::range.contains(v.range))
            return invalid("volume texture: the range must be "
                           + volumeTextureParams::range.describe()
                           + " (0: each frame's largest "
                             "value), got "
                           + sim::formatNumber(v.range));
    }
    return accept();
}

/// Past 512^3 cells (the adaptive domain's) only the VDB files sample the box alone; the other
/// outputs would sample whole-domain grids of several GiB each.
Refusal checkLargeDomain(const Scene &scene, BakePlan &p)
{
    const sim::Int3 n = domainCells(scene.domain);
    if (n.volume() <= kMaxCells)
        return accept();
    const char *what = p.mesh.on                             ? "meshes"
                       : p.flipbook.on                       ? "a flipbook"
                       : p.images.on                         ? "images"
                       : p.flowMap.on                        ? "a flow map"
                       : p.vectorField.on                    ? "a vector field"
                       : p.volumeTexture.on                  ? "a volume texture"
                       : p.settings.levelSurface && p.vdb.on ? "a level surface"
                                                             : nullptr;
    if (!what)
        return accept();
    return invalid(std::string(what) + " of a domain above 512^3 cells (this one has "
                   + std::to_string(n.x) + " x " + std::to_string(n.y) + " x " + std::to_string(n.z)
                   + ") would need whole-domain grids; bake its VDB files, or lower the "
                     "resolution for "
                   + what);
}

/// Outputs that sum over every frame cannot continue from a checkpoint.
Refusal checkResume(const Scene &, BakePlan &p)
{
    if (p.flowMap.on && p.settings.resume)
        return invalid("flow map: a bake with a flow map cannot resume (the running average is "
                       "not in the resume record); bake again without resuming");
    if (p.vectorField.on && p.settings.vectorField.average && p.settings.resume)
        return invalid("vector field: a bake of an averaged vector field cannot resume (the "
                       "running average is not in the resume record); bake again without "
                       "resuming, or write one vector field a frame");
    if (p.volumeTexture.on && p.settings.resume)
        return invalid("volume texture: a bake of volume textures cannot resume (the sidecar "
                       "lists every frame's range); bake again without resuming");
    if (p.oceanMaps.on && p.settings.resume)
        return invalid("ocean maps: a bake of ocean maps cannot resume (their height range "
                       "spans every frame); bake again without resuming");
    return accept();
}

Refusal planFlipbookFrames(const Scene &, BakePlan &p)
{
    if (!p.flipbook.on)
        return accept();
    if (sim::Status st = selectFlipbookFrames(p.settings.flipbook, p.flipbook.first,
                                              p.flipbook.last, p.flipbookFrames, p.flipbook.step);
        !st)
        return invalid(st.error);
    p.flipbook.last = p.flipbookFrames.back();
    return accept();
}

/// The passes both image outputs need, rendered once per frame.
Refusal planPasses(const Scene &scene, BakePlan &p)
{
    if (!p.flipbook.on && !p.images.on)
        return accept();
    const BakeSettings &s = p.settings;
    if (sim::Status st = checkRenderSettings(s.render); !st)
        return invalid(st.error);
    const bool is2D = scene.domain.dimension == Dimension::TwoD;
    p.tone = imageTone(s.render, is2D);
    PassRequest &request = p.passes;
    // Images last, so a flipbook's depth threshold wins when both have depth.
    for (auto [on, options, what] :
         {std::tuple{p.images.on, textureOptions(s.images), "images: "},
          std::tuple{p.flipbook.on, textureOptions(s.flipbook), "flipbook: "}}) {
        if (!on)
            continue;
        const std::vector<PassTexture> textures = passTextures(options);
        if (sim::Status st = checkPasses(textures, is2D); !st)
            return invalid(std::string(what).append(st.error));
        const PassRequest r = passRequest(textures, options.passes);
        request.motion = request.motion || (r.motion && options.motionVectors);
        request.sixWay = request.sixWay || r.sixWay;
        request.normals = request.normals || r.normals;
        if (r.depth) {
            request.depth = true;
            request.depthThreshold = r.depthThreshold;
        }
    }
    if (request.sixWay && surfaceLook(s.render, is2D))
        return {BakeOutcome::Failed,
                "six-way lighting is for smoke volumes; the surface look is lit by the render "
                "settings' light (choose standard lighting)",
                {}};
    return accept();
}

/// The "texture" look draws the scene's liquid texture instead of the 2D renderer's look.
Refusal planTextureLook(const Scene &scene, BakePlan &p)
{
    p.textureLook = (p.flipbook.on || p.images.on) && p.settings.render.look2D == Look2D::Texture
                    && scene.domain.dimension == Dimension::TwoD;
    if (!p.textureLook)
        return accept();
    if (!scene.simulation.liquidTexture.enabled())
        return invalid("the render look is \"texture\", but the scene has no liquid texture "
                       "(simulation.liquidTexture)");
    auto look = loadLiquidTextureLook(scene.simulation.liquidTexture, scene.directory);
    if (!look)
        return invalid(look.error());
    p.texture = look.take();
    return accept();
}

/// Effect framing renders after the simulation, from the frames' fields as VDB files hold them,
/// which the particle schemes' surfaces and the ocean are not.
Refusal planFraming(const Scene &scene, BakePlan &p)
{
    p.framed = (p.flipbook.on || p.images.on) && p.settings.render.framing == Framing::Effect
               && scene.domain.dimension == Dimension::ThreeD;
    if (!p.framed)
        return accept();
    const sim::Scheme scheme = scene.simulation.params.scheme;
    if (scheme == sim::Scheme::Sph || isOcean(scene))
        return invalid(std::string("render.framing \"effect\" frames smoke from its grid fields; ")
                       + "a scene of the " + sim::toString(scheme)
                       + " scheme renders from its particles or waves: use \"domain\"");
    return accept();
}

/// The frames written (the simulation runs from the scene's first frame to the last of them)
/// and the resume record.
Refusal planFrames(const Scene &, BakePlan &p)
{
    p.firstWritten = INT_MAX;
    p.lastWritten = INT_MIN;
    for (const FrameSpan &span : {p.vdb, p.mesh, p.flipbook, p.images, p.flowMap, p.vectorField,
                                  p.volumeTexture, p.oceanMaps}) {
        if (span.on) {
            p.firstWritten = std::min(p.firstWritten, span.first);
            p.lastWritten = std::max(p.lastWritten, span.last);
        }
    }
    if (p.settings.checkpointEvery < 0)
        return invalid("checkpoint interval must be 0 (none) or more frames, got "
                       + std::to_string(p.settings.checkpointEvery));
    // A bake from a cache keeps its rendered frames instead (.plume-render): no checkpoints.
    p.keepRecord = p.settings.checkpointEvery > 0 && p.settings.fromCache.empty();
    return accept();
}

/// A bake from a cache: the outputs it can make, the chunk, and every file it reads.
Refusal planCache(const Scene &scene, BakePlan &p)
{
    const BakeSettings &s = p.settings;
    if (s.fromCache.empty())
        return s.chunk ? invalid("a chunk renders part of a bake from a cache: name the cache "
                                 "folder (--from-cache DIR)")
                       : accept();
    if (p.vdb.on)
        return invalid("a bake from a cache reads the VDB files: it writes flipbooks, images and "
                       "meshes, not VDB files (the cache is the VDB sequence)");
    if (p.flowMap.on)
        return invalid("flow map: a bake from a cache cannot average the simulation's velocity; "
                       "bake the flow map with the simulation");
    if (p.vectorField.on || p.volumeTexture.on)
        return invalid(std::string(p.vectorField.on ? "vector field" : "volume texture")
                       + ": a bake from a cache renders pictures and meshes; bake it with the "
                         "simulation");
    if (isOcean(scene))
        return invalid("an ocean scene has no VDB cache: bake its maps with the simulation");
    if (scene.simulation.params.scheme == sim::Scheme::Sph)
        return invalid("a liquid (sph) scene's pictures and meshes come from its particles, "
                       "which a VDB cache holds only as points: bake them with the simulation");
    if (p.textureLook)
        return invalid("the \"texture\" look follows the liquid texture's coordinates, which "
                       "VDB files do not hold: bake it with the simulation");
    if (s.resume)
        return invalid("a bake from a cache continues by itself from the frames it kept in "
                       ".plume-render: run the same command again, without --resume");
    const RenderSettings &r = s.render;
    if ((p.flipbook.on || p.images.on) && scene.domain.dimension == Dimension::TwoD
        && r.look2D == Look2D::Field && !cachedField(r.field))
        return invalid(std::string("the field look's field '") + sim::toString(r.field)
                       + "' is not in VDB files (they hold density, temperature, flame and "
                         "fuel): choose one of those, or bake with the simulation");
    if (s.chunk) {
        if (s.chunkFirst > s.chunkLast)
            return invalid("chunk " + std::to_string(s.chunkFirst) + ":"
                           + std::to_string(s.chunkLast) + " is empty (first > last)");
        bool any = false;
        for (int f = std::max(s.chunkFirst, p.firstWritten);
             f <= std::min(s.chunkLast, p.lastWritten) && !any; ++f)
            any = p.renders(f);
        if (!any)
            return invalid(
                "chunk " + std::to_string(s.chunkFirst) + ":" + std::to_string(s.chunkLast)
                + " holds no frame this bake renders (it renders frames within "
                + std::to_string(p.firstWritten) + ":" + std::to_string(p.lastWritten) + ")");
    }
    p.cacheDomain = sampledDomain(scene);
    int missing = 0, first = 0;
    for (int f = p.firstWritten; f <= p.lastWritten; ++f) {
        std::error_code ec;
        const bool reads = p.readsCache(f) || (p.framed && p.renders(f)); // framing: all
        if (reads && !std::filesystem::is_regular_file(cacheFramePath(s, f), ec)) {
            if (missing++ == 0)
                first = f;
        }
    }
    if (missing > 0)
        return invalid(
            "the cache folder '" + s.fromCache.string() + "' has no frame " + std::to_string(first)
            + " ('" + cacheFramePath(s, first).filename().string() + "'"
            + (missing > 1 ? ", and " + std::to_string(missing - 1) + " more are missing" : "")
            + "): bake the cache first (plume-cli bake --cache-only) over these frames");
    return accept();
}

/// A scene or a grid that will not fit is refused before anything is allocated or written.
Refusal checkResources(const Scene &scene, BakePlan &p)
{
    if (sim::Status st = checkScene(scene); !st)
        return invalid(st.error);
    if (!p.settings.fromCache.empty()) // nothing is simulated
        return accept();
    if (sim::Status st = sim::checkMemory(makeDomain(scene.domain), scene.simulation.params); !st)
        return {BakeOutcome::OutOfMemory, st.error, {}};
    return accept();
}

} // namespace

sim::Status checkFrameRange(const Scene &scene, int first, int last)
{
    const int lo = scene.simulation.frameStart;
    const int hi = scene.simulation.frameEnd;
    if (first > last)
        return sim::Status::failure("frame range " + std::to_string(first) + ":"
                                    + std::to_string(last) + " is empty (first > last)");
    if (first < lo || last > hi)
        return sim::Status::failure("frame range " + std::to_string(first) + ":"
                                    + std::to_string(last) + " lies outside the scene's frames "
                                    + std::to_string(lo) + ":" + std::to_string(hi));
    return sim::Status::success();
}

sim::Status checkOceanMaps(const Scene &scene, const OceanBakeSettings &s)
{
    if (!isOcean(scene))
        return sim::Status::failure(
            std::string("ocean maps need a scene of the ocean scheme; this one is ")
            + sim::toString(scene.simulation.params.scheme));
    if (s.maps.empty())
        return sim::Status::failure("no ocean maps asked for (height, normal, foam)");
    return sim::Status::success();
}

std::string frameNumber(int frame)
{
    char number[16];
    std::snprintf(number, sizeof number, "%04d", frame);
    return number;
}

std::string frameFileName(const std::string &baseName, int frame, const char *extension)
{
    return baseName + "." + frameNumber(frame) + extension;
}

std::filesystem::path cacheFramePath(const BakeSettings &settings, int frame)
{
    return settings.fromCache / frameFileName(settings.baseName, frame);
}

bool vdbByDefault(const ExportPresets &presets, bool flowMap, bool mesh)
{
    return !presets.flipbook.enabled && !presets.images.enabled && !flowMap && !mesh;
}

PlannedBake planBake(const Scene &scene, const BakeSettings &settings)
{
    PlannedBake out;
    out.plan.settings = settings;
    if (OceanBakeSettings *o = out.plan.settings.oceanMaps ? &*out.plan.settings.oceanMaps
                                                           : nullptr) {
        // The maps go where the other outputs go, over the same frames.
        o->outputDirectory = settings.outputDirectory;
        o->baseName = settings.baseName;
        o->firstFrame = settings.firstFrame;
        o->lastFrame = settings.lastFrame;
        o->plumeVersion = settings.plumeVersion;
    }
    // In this order: the first refusal is the one reported.
    using Rule = Refusal (*)(const Scene &, BakePlan &);
    for (Rule rule :
         {checkOutputs, checkOceanMapsRule, checkDestination, checkBakeFrames, resolveSpans,
          checkSceneFits, checkLargeDomain, checkResume, planFlipbookFrames, planPasses,
          planTextureLook, planFraming, planFrames, planCache, checkResources}) {
        if (Refusal r = rule(scene, out.plan)) {
            out.outcome = r.outcome;
            out.message = std::move(r.message);
            out.setting = std::move(r.setting);
            return out;
        }
    }
    return out;
}

} // namespace plume
