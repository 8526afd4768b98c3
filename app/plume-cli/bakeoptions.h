// SPDX-License-Identifier: Apache-2.0
#pragma once

// plume-cli bake's options and the one function that turns them into bake settings: the CLI's
// half of the bake plan (core/bake/bakeplan.h). A library of its own, so the tests can hold
// the CLI and the export dialog to the same refusals.

#include <core/bake/bakesettings.h>
#include <core/scene/scene.h>

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QList>
#include <QString>

namespace plume::cli {

/// Checkpoints of a bake, in frames: resuming repeats at most this many frames less one, plus
/// the one that was cut short; the cost is measured in docs/performance.md.
constexpr int kDefaultCheckpointEvery = 5;

/// The export options of bake; each one overrides the scene's preset.
struct ExportOptions
{
    QCommandLineOption flipbook{"flipbook",
                                "Write a flipbook atlas of ROWSxCOLUMNS frames, its motion-vector "
                                "atlas and a JSON sidecar (docs/flipbook.md).",
                                "RxC"};
    QCommandLineOption images{"images", "Write an image sequence: one PNG per frame."};
    QCommandLineOption size{"size", "Frame size in pixels.", "WxH"};
    QCommandLineOption step{"step", "Frames between flipbook tiles and images (flipbook 0: fit).",
                            "N"};
    QCommandLineOption padding{"padding", "Flipbook gutter pixels per frame side.", "N"};
    QCommandLineOption alpha{"alpha", "straight or premultiplied.", "mode"};
    QCommandLineOption depth{"depth", "Bits per PNG channel: 8 or 16.", "bits"};
    QCommandLineOption emission{"emission", "none, combined or separate.", "mode"};
    QCommandLineOption noMotion{"no-motion", "No motion-vector atlas."};
    QCommandLineOption motionRange{"motion-range",
                                   "Pixels per frame at motion RG 0 or 1 (default: largest).",
                                   "px"};
    QCommandLineOption loop{"loop", "Crossfade N frames into the start for a seamless loop.", "N"};
    QCommandLineOption camera{"camera", "3D camera yaw and pitch in degrees (0,0 = front).",
                              "yaw,pitch"};
    QCommandLineOption perspective{"perspective",
                                   "3D perspective camera with this vertical "
                                   "field of view (default orthographic).",
                                   "degrees"};
    QCommandLineOption framing{"framing",
                               "3D camera: domain (fit the whole domain) or effect (fit the smoke "
                               "of every rendered frame, one camera for all, leaving PADDING of "
                               "the frame empty on each side, default 0.04; the frames are "
                               "rendered after the simulation). Default: the scene's preset "
                               "(docs/flipbook.md, \"Framing\").",
                               "domain|effect[:PADDING]"};
    QCommandLineOption look{"look",
                            "Look: dye, field or texture (2D; texture is the scene's liquid "
                            "texture, docs/liquid-textures.md), volume (3D smoke, the default) or "
                            "surface (2D and 3D: the lit liquid surface, or for grid smoke the "
                            "level surface at --level-surface ISO; docs/surfaces.md).",
                            "name"};
    QCommandLineOption field{"field", "2D field for --look field (density, speed, ...).", "name"};
    QCommandLineOption exposure{"exposure",
                                "PNG colour and emission: multiply the light by 2^STOPS before "
                                "the tone curve (not the field or texture look; EXR stays "
                                "linear).",
                                "stops"};
    QCommandLineOption toneCurve{"tone-curve",
                                 "PNG colour and emission: filmic (a soft shoulder above 0.6, the "
                                 "default) or clip (clipped at 1); docs/render.md.",
                                 "name"};
    // Passes (docs/flipbook.md), for the flipbook and the images alike.
    QCommandLineOption lighting{"lighting",
                                "standard, or six-way: also the two six-way lightmap textures "
                                "(Unity's Six Way layout).",
                                "mode"};
    QCommandLineOption normals{"normals", "Also a normal map (see --normal-convention)."};
    QCommandLineOption normalConvention{"normal-convention",
                                        "opengl (green up, default) or directx (green down).",
                                        "name"};
    QCommandLineOption depthMap{"depth-map", "Also a depth map (3D only)."};
    QCommandLineOption alphaMap{"alpha-map", "Also the alpha alone, one channel."};
    QCommandLineOption format{"format", "png (default) or exr (OpenEXR, linear, HDR; see --exr).",
                              "name"};
    QCommandLineOption exr{"exr", "EXR channels: half (default) or float.", "precision"};
    QCommandLineOption pack{"pack",
                            "Packing preset: separate, unity-six-way, unreal-subuv, godot or "
                            "custom (see --pack-channels).",
                            "preset"};
    QCommandLineOption packChannels{"pack-channels",
                                    "custom packing: four channel names R,G,B,A, e.g. "
                                    "normal.x,normal.y,depth,alpha (docs/flipbook.md).",
                                    "r,g,b,a"};

    QList<QCommandLineOption> all() const
    {
        return {flipbook, images,   size,        step,      padding,  alpha,       depth,
                emission, noMotion, motionRange, loop,      camera,   perspective, framing,
                look,     field,    exposure,    toneCurve, lighting, normals,     normalConvention,
                depthMap, alphaMap, format,      exr,       pack,     packChannels};
    }
};

/// The OpenVDB options of bake (docs/using-exports.md).
struct VdbOptions
{
    QCommandLineOption up{"up",
                          "OpenVDB up axis: y (as simulated; Houdini, Maya, Unity) or z (rotated "
                          "for Blender and Unreal).",
                          "y|z"};
    QCommandLineOption half{"half", "Store the OpenVDB grids as 16-bit half floats."};
    QCommandLineOption velocityMask{"velocity-mask",
                                    "Where OpenVDB vel is stored: density (inside the smoke) or "
                                    "speed (wherever the air moves).",
                                    "mode"};

    QCommandLineOption levelSurface{
        "level-surface",
        "Grid smoke: also write `surface`, the level set where density = ISO (a level surface), "
        "into each VDB file; ISO is also --mesh's iso value (default 0.5). Liquid (particle) "
        "scenes always write their surface and points (docs/surfaces.md).",
        "ISO"};
    QCommandLineOption mesh{"mesh",
                            "Write DIR/<scene>.<frame>.obj: the liquid's surface, or for grid "
                            "smoke the density's level surface at --level-surface ISO (default "
                            "0.5); world units, axes as --up; add --vdb for the VDB files too "
                            "(docs/surfaces.md)."};

    QList<QCommandLineOption> all() const { return {up, half, velocityMask, levelSurface, mesh}; }
};

/// Every option of plume-cli bake.
struct BakeOptions
{
    QCommandLineOption output{{"o", "output"}, "Output folder (created when missing).", "dir"};
    QCommandLineOption frames{"frames", "Frames to write, inclusive (default: the scene's range).",
                              "A:B"};
    QCommandLineOption threads{"threads", "Worker threads (default: all cores).", "N"};
    QCommandLineOption vdb{"vdb", "Write OpenVDB files (the default output when no "
                                  "flipbook or images are asked for or preset)."};
    QCommandLineOption flowMap{
        "flow-map", "2D: also write DIR/<scene>_flowmap.png and .json, the velocity averaged over "
                    "the frames as RG = 0.5 + 0.5 v / vmax, B = speed / vmax "
                    "(docs/liquid-textures.md). Not with --resume."};
    QCommandLineOption vectorField{
        "vector-field",
        "Also write the velocity as game-engine vector fields, one a frame: "
        "DIR/<scene>.<frame>.vf for Unity's VFX Graph (binary VF_V, y up, z negated for its "
        "left-handed axes) or .fga for Unreal's Niagara and Cascade (text, z up, x forward) "
        "(docs/vector-fields.md).",
        "vf|fga"};
    QCommandLineOption vectorFieldSize{
        "vector-field-size",
        "With --vector-field: voxels along the grid's longest side, 1 to 128 "
        "(default 64); the other sides in proportion.",
        "N"};
    QCommandLineOption vectorFieldAverage{
        "vector-field-average", "With --vector-field: one file, DIR/<scene>_vectorfield.vf "
                                "(.fga), of the velocity averaged over the frames. Not with "
                                "--resume."};
    QCommandLineOption vectorFieldScale{
        "vector-field-scale",
        "With --vector-field: multiply the velocity (and .fga's bounds) by S, "
        "world units to the engine's (Unreal: 100 for a scene in metres; "
        "default 1).",
        "S"};
    QCommandLineOption volumeTexture{
        "volume-texture",
        "Also write a field as volume textures, one a frame: DIR/<scene>_volume.<frame>.png, its "
        "z slices in a grid of tiles (Unreal's pseudo-volume and Niagara volume textures, "
        "Unity's Texture3D from a flipbook), and DIR/<scene>_volume.json with the layout and "
        "each frame's value range (docs/volume-textures.md). Not with --resume.",
        "density|temperature|flame"};
    QCommandLineOption volumeTextureSize{
        "volume-texture-size",
        "With --volume-texture: voxels along the longest side, 1 to 256 "
        "(default 64); the others in proportion.",
        "N"};
    QCommandLineOption volumeTextureBits{"volume-texture-bits",
                                         "With --volume-texture: 8 (default) or 16 bits a pixel.",
                                         "8|16"};
    QCommandLineOption volumeTextureRange{
        "volume-texture-range",
        "With --volume-texture: the value of a full pixel, the same for "
        "every frame (default: each frame's largest value).",
        "V"};
    QCommandLineOption quiet{"quiet", "Print nothing but errors."};
    QCommandLineOption progress{"progress", "Show the progress line even when stderr is not a "
                                            "terminal."};
    QCommandLineOption resume{
        "resume", "Continue an interrupted bake into the same folder from its last checkpoint; "
                  "the scene and options must be the same (docs/checkpoints.md)."};
    QCommandLineOption checkpointEvery{
        "checkpoint-every",
        "Checkpoint the simulation every N frames so that --resume can continue (0: no resume "
        "record; default "
            + QString::number(kDefaultCheckpointEvery) + ").",
        "N", QString::number(kDefaultCheckpointEvery)};
    QCommandLineOption upres{"upres",
                             "Smoke scenes: bake density, temperature, dye and fire N times finer "
                             "per axis (2, 3 or 4; 1: off) with sub-grid turbulence, overriding "
                             "the scene's simulation.upres.factor (docs/upres.md).",
                             "N"};
    QCommandLineOption cacheOnly{"cache-only",
                                 "Write the OpenVDB cache alone, whatever the scene's flipbook "
                                 "and image presets say; render it later with --from-cache."};
    QCommandLineOption fromCache{
        "from-cache",
        "Render from a cache instead of simulating: read DIR/<scene>.<frame>.vdb (a bake of this "
        "scene with --cache-only or --vdb) and write the flipbook, images and meshes, the same "
        "bytes as a bake that simulates. Frames rendered are kept in the output folder's "
        ".plume-render until the bake completes: run again, it continues (docs/farm.md).",
        "dir"};
    QCommandLineOption chunk{"chunk",
                             "With --from-cache: render only frames A to B and keep them for "
                             "the bake without --chunk, which writes the outputs (a render "
                             "split over farm tasks).",
                             "A:B"};
    VdbOptions vdbOptions;
    ExportOptions exportOptions;
    QCommandLineOption oceanMaps{
        "ocean-maps",
        "Ocean scenes: the maps to write, comma-separated: height, normal, foam (default all).",
        "list"};
    QCommandLineOption oceanFlipbook{"ocean-flipbook",
                                     "Ocean scenes: one atlas per map with C columns (0: square) "
                                     "instead of an image per frame.",
                                     "C"};

    /// Adds them to `parser` in the order --help lists them.
    void addTo(QCommandLineParser &parser) const;
};

/// Turns bake's parsed options into the settings for baking `scene`, read from `path` (its
/// base name names the files): the scene's export presets with the options applied, OpenVDB
/// by default as core/bake/bakeplan.h's vdbByDefault() says, an ocean scene's maps. Returns
/// a usage error, or empty; the rules that need the scene as well are the plan's.
QString bakeSettingsFromOptions(const QCommandLineParser &parser, const BakeOptions &options,
                                const Scene &scene, const QString &path, BakeSettings &settings);

} // namespace plume::cli
