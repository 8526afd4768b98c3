// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/export/oceanmaps.h>
#include <core/export/vectorfield.h>
#include <core/export/volumetexture.h>
#include <core/render/rendersettings.h>
#include <core/settings/exportsettings.h>
#include <core/sim/base/types.h>
#include <core/surface/surface.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace plume {

/// What an ocean bake writes (docs/ocean.md): 16-bit PNG or OpenEXR maps per frame, or one
/// atlas per map.
struct OceanBakeSettings
{
    std::filesystem::path outputDirectory; ///< created when missing
    std::string baseName;
    int firstFrame = 1; ///< inclusive, within the scene's frame range
    int lastFrame = 1;
    std::vector<OceanMap> maps{OceanMap::Height, OceanMap::Normal, OceanMap::Foam};
    bool flipbook = false; ///< one atlas per map instead of an image per frame
    int columns = 0;       ///< atlas columns; 0: the smallest square that fits
    /// PNG: 16 bit, height scaled to [0, 1] by its range. OpenEXR (half or float, linear): the
    /// height in metres as it is; normal and foam encoded as in the PNGs.
    ImageFormat format = ImageFormat::Png;
    ExrPrecision exrPrecision = ExrPrecision::Half;
    std::string plumeVersion;
};

/// Progress and cancellation for a bake (like OpenVDB's util::NullInterrupter): the CLI's
/// progress line and the GUI's dialog implement it; the core never knows which.
class BakeObserver
{
public:
    virtual ~BakeObserver() = default;
    /// Called after each written frame: `done` of `total` frames, this frame's wall time.
    virtual void frameWritten(int /*frame*/, int /*done*/, int /*total*/, double /*ms*/) {}
    /// With effect framing (BakePlan::framed), called after each frame rendered once the last
    /// one is simulated: `done` of `total` frames to render, this frame's wall time.
    virtual void frameRendered(int /*frame*/, int /*done*/, int /*total*/, double /*ms*/) {}
    /// Called just before frameWritten() for a scene with the adaptive domain: the share of
    /// the domain its box held in the frame's last step (docs/adaptive.md).
    virtual void adaptiveBox(int /*frame*/, double /*share*/) {}
    /// Called for a simulated frame whose pressure solve fell back or missed its tolerance;
    /// `note` says which (sim::pressureTrouble). The bake goes on.
    virtual void pressureTrouble(int /*frame*/, const std::string & /*note*/) {}
    /// Called for a simulated frame in which smoke first reached an open side of the domain
    /// (sim::SideWatch; each side once a bake); `note` names the sides. The bake goes on.
    virtual void smokeAtSides(int /*frame*/, const std::string & /*note*/) {}
    /// Polled between frames and steps; true stops the bake. Per-frame files written so far
    /// stay; a flipbook atlas is written only after its last frame, so none appears.
    virtual bool cancelRequested() { return false; }
};

/// What to bake and where. One simulation feeds every output; each frame is rendered once
/// for the flipbook and the image sequence together.
struct BakeSettings
{
    std::filesystem::path outputDirectory; ///< created when missing
    std::string baseName;                  ///< files are <baseName>.<frame:04d>.vdb
    int firstFrame = 1;                    ///< inclusive; the simulation runs from the scene's
    int lastFrame = 1;                     ///< frameStart regardless, writing [first, last]
    std::string plumeVersion;
    bool vdb = true;     ///< write OpenVDB files for [firstFrame, lastFrame]
    VdbSettings openvdb; ///< their up axis, half floats and velocity mask
    /// Grid schemes: the VDB files also hold `surface`, the level set of the density's level
    /// surface at levelSurfaceIso (particle schemes always write their liquid's surface).
    bool levelSurface = false;
    float levelSurfaceIso = kDefaultLevelSurfaceIso; ///< also the OBJ meshes' iso value
    /// Also write <baseName>.<frame:04d>.obj for [firstFrame, lastFrame]: the liquid's surface
    /// (particle schemes) or the density's level surface at levelSurfaceIso, in the VDB
    /// files' up axis (docs/surfaces.md).
    bool mesh = false;
    RenderSettings render;        ///< the look of flipbooks and images
    FlipbookSettings flipbook;    ///< written when enabled; kBakeRange = [first, last]
    ImageSequenceSettings images; ///< written when enabled; kBakeRange likewise
    /// 2D: also write <baseName>_flowmap.png and .json, the velocity averaged over
    /// [firstFrame, lastFrame] (export/flowmap.h). Cannot be resumed.
    bool flowMap = false;
    /// Also write the velocity as game-engine vector fields for [firstFrame, lastFrame]:
    /// <baseName>.<frame:04d>.vf (or .fga), or one <baseName>_vectorfield.vf of their mean
    /// (export/vectorfield.h, docs/vector-fields.md). The mean cannot be resumed.
    VectorFieldSettings vectorField;
    /// Also write a field as slice-atlas volume textures for [firstFrame, lastFrame]:
    /// <baseName>_volume.<frame:04d>.png and <baseName>_volume.json (export/volumetexture.h,
    /// docs/volume-textures.md). Cannot be resumed (the sidecar lists every frame's range).
    VolumeTextureSettings volumeTexture;
    /// > 0: keep a resume record in <outputDirectory>/.plume-bake (bakerecord.h) with a solver
    /// checkpoint every this many simulated frames; it is removed when the bake finishes.
    int checkpointEvery = 0;
    /// Continue an interrupted bake from its resume record's last checkpoint. Refused when the
    /// folder holds no record, or the scene or these settings differ from the record's.
    bool resume = false;
    /// Render from a cache (export/vdbcache.h, docs/farm.md): read the frames from the VDB files
    /// <fromCache>/<baseName>.<frame:04d>.vdb that a bake of this scene wrote, instead of
    /// simulating, and write the flipbook, images and meshes from them. The pictures are the
    /// same, byte for byte, as those of a bake that simulates. Each frame rendered is kept in
    /// <outputDirectory>/.plume-render until the bake is complete, so a bake stopped part way
    /// continues where it stopped when run again.
    std::filesystem::path fromCache;
    /// With fromCache: render only the frames in [chunkFirst, chunkLast] and keep them in
    /// .plume-render, writing no output; the bake without a chunk then uses every kept frame
    /// (a render split over farm tasks gives the same files as one render).
    bool chunk = false;
    int chunkFirst = 0;
    int chunkLast = -1;
    /// Ocean scenes: also bake the height, normal and foam maps (bake/oceanbake.h), before the
    /// other outputs; their folder, base name, frames and version are this bake's.
    std::optional<OceanBakeSettings> oceanMaps;
};

/// How a bake ended; plume-cli maps each to an exit code (app/plume-cli/common.h).
enum class BakeOutcome {
    Done,
    /// The scene or the settings cannot be baked as asked; found before anything is written.
    Invalid,
    /// --resume refused: no record, another scene or other settings.
    ResumeRefused,
    /// The grid does not fit in memory; refused before allocating.
    OutOfMemory,
    /// Failed while running (a blow-up, a write error) with nothing to resume.
    Failed,
    /// Failed while running (a failed write) with a resume record in place: resume continues.
    FailedResumable,
    /// Cancelled between frames with nothing to resume.
    Cancelled,
    /// Cancelled between frames with a resume record in place: resume continues.
    CancelledResumable,
};

/// Whether the bake was stopped by its observer.
inline bool isCancelled(BakeOutcome o)
{
    return o == BakeOutcome::Cancelled || o == BakeOutcome::CancelledResumable;
}

/// Whether a resumed bake can continue where this one stopped.
inline bool isResumable(BakeOutcome o)
{
    return o == BakeOutcome::FailedResumable || o == BakeOutcome::CancelledResumable;
}

/// The outcome: success, or the reason (blow-up, I/O error, cancelled) naming the frame.
struct BakeResult
{
    BakeOutcome outcome = BakeOutcome::Done;
    sim::Status status; ///< failed, with the message, for every outcome but Done
    /// With resume: the frame whose checkpoint the bake continued from (frameStart - 1: none
    /// had been written, the simulation started over). Frames after it were simulated again.
    int resumedAfter = 0;
    /// Written, in frame order (with effect framing, BakePlan::framed, the images and the
    /// flipbook follow the per-frame files of the simulation: they are rendered after it).
    std::vector<std::filesystem::path> files;

    /// A result that ended with `outcome` and `message`.
    static BakeResult stopped(BakeOutcome outcome, std::string message)
    {
        BakeResult r;
        r.outcome = outcome;
        r.status = sim::Status::failure(std::move(message));
        return r;
    }
};

} // namespace plume
