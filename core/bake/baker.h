// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/render/rendersettings.h>
#include <core/scene/scene.h>
#include <core/settings/exportsettings.h>
#include <core/sim/base/types.h>
#include <core/surface/surface.h>

#include <filesystem>
#include <string>
#include <vector>

namespace plume {

/// Progress and cancellation for a bake (like OpenVDB's util::NullInterrupter): the CLI's
/// progress line and the GUI's dialog implement it; the core never knows which.
class BakeObserver
{
public:
    virtual ~BakeObserver() = default;
    /// Called after each written frame: `done` of `total` frames, this frame's wall time.
    virtual void frameWritten(int /*frame*/, int /*done*/, int /*total*/, double /*ms*/) {}
    /// Called just before frameWritten() for a scene with the adaptive domain: the share of
    /// the domain its box held in the frame's last step (docs/adaptive.md).
    virtual void adaptiveBox(int /*frame*/, double /*share*/) {}
    /// Called for a simulated frame whose pressure solve fell back or missed its tolerance;
    /// `note` says which (sim::pressureTrouble). The bake goes on.
    virtual void pressureTrouble(int /*frame*/, const std::string & /*note*/) {}
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
    /// > 0: keep a resume record in <outputDirectory>/.plume-bake (bakerecord.h) with a solver
    /// checkpoint every this many simulated frames; it is removed when the bake finishes.
    int checkpointEvery = 0;
    /// Continue an interrupted bake from its resume record's last checkpoint. Refused when the
    /// folder holds no record, or the scene or these settings differ from the record's.
    bool resume = false;
};

/// The outcome: success, or the reason (blow-up, I/O error, cancelled) naming the frame.
struct BakeResult
{
    sim::Status status;
    bool cancelled = false;
    bool refused = false;     ///< resume refused (no record, another scene or other settings)
    bool invalid = false;     ///< the scene or settings cannot be baked as asked; nothing written
    bool outOfMemory = false; ///< the grid does not fit in memory; refused before allocating
    /// Stopped by a cancel or a failed write with a resume record in place: resume continues.
    bool resumable = false;
    /// With resume: the frame whose checkpoint the bake continued from (frameStart - 1: none
    /// had been written, the simulation started over). Frames after it were simulated again.
    int resumedAfter = 0;
    std::vector<std::filesystem::path> files; ///< written, in frame order
};

/// Simulates `scene` from its first frame through the last frame any output needs and writes,
/// per frame, an OpenVDB file (grids density, temperature, vel and, when an emitter has dye,
/// Cd; with particles or levelSurface, `surface` and `points`; see export/vdbwriter.h), with
/// `mesh` an OBJ of the level surface, and a PNG of the image sequence, and at the end the flipbook
/// atlases and sidecar (export/flipbook.h), and with `flowMap` the flow map (export/flowmap.h).
/// With the render look "texture" the flipbook and images show the scene's liquid texture
/// (render/liquidtexture.h). Frame f is the state after simulating frames
/// frameStart..f, with the scene's inputs evaluated at f. Every file appears complete or not
/// at all. The result is the same whatever the thread count, and a resumed bake leaves the
/// same files as one that was never interrupted. A write that fails (a full disk) stops the
/// bake; the frames written before stay, and so does the resume record. Ocean scenes have no
/// volume: VDB output is refused for them (their maps: bake/oceanbake.h).
BakeResult bakeScene(const Scene &scene, const BakeSettings &settings,
                     BakeObserver *observer = nullptr);

/// Checks a frame range against the scene's (first <= last, both within
/// [frameStart, frameEnd]); the message says what is allowed.
sim::Status checkFrameRange(const Scene &scene, int first, int last);

} // namespace plume
