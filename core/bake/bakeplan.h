// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/bake/bakesettings.h>

#include <core/export/tone.h>
#include <core/render/liquidtexture.h>
#include <core/render/renderer.h>
#include <core/scene/scene.h>

#include <string>
#include <vector>

namespace plume {

// The bake plan (docs/architecture.md, "Data path"): every rule that decides whether a scene
// and its bake settings can bake, in one place, for plume-cli and the export dialog alike.
// planBake() either refuses with a message or says which frames each output writes; the bake
// loop (bake/baker.h) then only runs the plan.

/// Frames an output writes: first, first + step, ... up to last.
struct FrameSpan
{
    bool on = false;
    int first = 0, last = -1, step = 1;
    bool has(int f) const { return on && f >= first && f <= last && (f - first) % step == 0; }
};

/// What a bake will do, checked: each output's frames, the passes the renders need, the
/// liquid texture the "texture" look draws.
struct BakePlan
{
    BakeSettings settings;
    FrameSpan vdb, mesh, flipbook, images, flowMap, vectorField, volumeTexture, oceanMaps;
    std::vector<int> flipbookFrames; ///< the frames the flipbook atlas shows
    PassRequest passes;              ///< rendered once per frame for flipbook and images
    Tone tone;                       ///< the images' exposure and tone curve (imageTone)
    bool textureLook = false;        ///< draw the scene's liquid texture (2D "texture" look)
    LiquidTextureLook texture;       ///< loaded when textureLook
    int firstWritten = 0;            ///< the first frame any output writes
    int lastWritten = -1;            ///< the last; the simulation stops there
    bool keepRecord = false;         ///< keep a resume record (checkpointEvery > 0)
    /// Framing::Effect of a 3D look: the camera frames the smoke of every rendered frame, so
    /// the frames are rendered after the last is simulated (or, from a cache, after every
    /// rendered frame's file was read once for its box); bake/baker.h.
    bool framed = false;
    sim::Domain cacheDomain; ///< fromCache: the cells the cache's files cover

    /// Whether the frame is read from the cache (fromCache): it renders or meshes; with a
    /// chunk, which only renders, it renders and lies in the chunk.
    bool readsCache(int frame) const
    {
        const BakeSettings &s = settings;
        if (s.fromCache.empty())
            return false;
        if (s.chunk)
            return renders(frame) && frame >= s.chunkFirst && frame <= s.chunkLast;
        return renders(frame) || mesh.has(frame);
    }

    /// Whether a frame needs rendering (a flipbook tile or an image).
    bool renders(int frame) const { return flipbook.has(frame) || images.has(frame); }
};

/// A plan, or why there is none.
struct PlannedBake
{
    BakePlan plan;
    BakeOutcome outcome = BakeOutcome::Done; ///< Done: the plan holds; else why not
    std::string message;                     ///< the refusal, empty when Done
    /// The setting the refusal is about when it is the bake's own frame range: "frames" (so
    /// plume-cli can name its --frames option); empty otherwise.
    std::string setting;

    bool ok() const { return outcome == BakeOutcome::Done; }
};

/// Checks `settings` against `scene` and plans the bake. Refusals (outcome Invalid, or
/// OutOfMemory when the grid will not fit, or Failed for a look that cannot draw the passes
/// asked for) say what to change; nothing is written either way. Loads the liquid texture for
/// the "texture" look.
PlannedBake planBake(const Scene &scene, const BakeSettings &settings);

/// Whether a bake writes OpenVDB files when not told: exactly when no flipbook, images, flow
/// map or mesh are asked for (plume-cli's documented default: "the default output when no
/// flipbook or images are asked for or preset"; the export dialog opens with it too).
bool vdbByDefault(const ExportPresets &presets, bool flowMap = false, bool mesh = false);

/// "0042": the frame number in every per-frame file name.
std::string frameNumber(int frame);

/// "<baseName>.<frame:04d><extension>": every per-frame file's name (VDB files, meshes, the
/// frames effect framing keeps), the one place it is spelled.
std::string frameFileName(const std::string &baseName, int frame, const char *extension = ".vdb");

/// <fromCache>/<baseName>.<frame:04d>.vdb: the cache file a bake from a cache reads.
std::filesystem::path cacheFramePath(const BakeSettings &settings, int frame);

/// Checks a frame range against the scene's (first <= last, both within
/// [frameStart, frameEnd]); the message says what is allowed.
sim::Status checkFrameRange(const Scene &scene, int first, int last);

/// The ocean maps' own rules: an ocean scene, at least one map (their frames are the bake's).
sim::Status checkOceanMaps(const Scene &scene, const OceanBakeSettings &settings);

} // namespace plume
