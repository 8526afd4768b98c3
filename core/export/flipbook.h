// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/export/passes.h>

#include <core/render/renderer.h>
#include <core/settings/exportsettings.h>
#include <core/sim/base/types.h>

#include <QImage>
#include <QPoint>

#include <string>
#include <vector>

namespace plume {

/// Geometry of an atlas: rows x columns tiles; a tile is the frame plus `padding` pixels on
/// each side. Frame n sits in column n % columns, row n / columns (row 0 at the top).
struct AtlasLayout
{
    int rows = 1;
    int columns = 1;
    int frameWidth = 1;
    int frameHeight = 1;
    int padding = 0;

    int tileWidth() const { return frameWidth + 2 * padding; }
    int tileHeight() const { return frameHeight + 2 * padding; }
    int width() const { return columns * tileWidth(); }
    int height() const { return rows * tileHeight(); }
    /// Top-left pixel of frame n's image (inside its tile's gutter).
    QPoint frameOrigin(int n) const
    {
        return {(n % columns) * tileWidth() + padding, (n / columns) * tileHeight() + padding};
    }
};

/// Places same-sized frame images into an atlas of their format. Gutter pixels repeat the
/// nearest edge pixel of their frame (edge dilation), so mip-maps and bilinear filtering do not
/// bleed between frames; tiles without a frame hold `empty`.
QImage assembleAtlas(const std::vector<QImage> &frames, const AtlasLayout &layout, QRgba64 empty);

/// The same for float images (export/exrimage.h): all frames have the same channel count;
/// tiles without a frame hold `empty` (one value per channel).
FloatImage assembleAtlas(const std::vector<FloatImage> &frames, const AtlasLayout &layout,
                         const std::vector<float> &empty);

/// The frames a flipbook takes from [first, last]: first, first + step, ... with `step` from
/// the settings or, when 0, the smallest that fits rows * columns + loopFrames frames. Fails
/// when more frames are selected than fit, or none would remain after the loop.
sim::Status selectFlipbookFrames(const FlipbookSettings &settings, int first, int last,
                                 std::vector<int> &frames, int &step);

/// Seamless loop (crossfade): of F_0..F_{M-1}, returns M - N frames where frame i < N is
/// (1 - w_i) F_{M-N+i} + w_i F_i with w_i = (i + 1) / (N + 1), so the last kept frame
/// F_{M-N-1} flows into the first as F_{M-N-1} flows into F_{M-N}. Colour and emission blend
/// linearly (premultiplied), and so do six-way lightmaps; motion vectors, normals (then
/// renormalised) and depth blend weighted by each side's alpha, so they stay those of whatever
/// is visible across the seam.
std::vector<RenderedFrame> blendLoop(std::vector<RenderedFrame> frames, int loopFrames);

/// The largest motion component (pixels per frame) over the frames, rounded up to a quarter
/// pixel; 1 when nothing moves.
float autoMotionRange(const std::vector<RenderedFrame> &frames);

/// What the sidecar records besides the settings.
struct FlipbookInfo
{
    std::string sceneName;
    int firstFrame = 1;    ///< simulation frame of the first tile
    int step = 1;          ///< simulation frames between tiles
    double frameRate = 24; ///< simulation frames per second
    std::string plumeVersion;
};

/// Writes <dir>/<base>.png (colour), <base>_motion.png, <base>_emission.png (when asked), the
/// textures of the passes and pack preset (export/passes.h; .exr with format exr) and
/// <base>.json (the sidecar) from rendered frames (looped here when settings.loopFrames > 0;
/// rendered with passRequest of the settings' textures). All files appear complete or none
/// does (see writeFilesAtomically). `tone`: the PNG colour and emission's exposure and tone
/// curve (frameimage.h; the bake's imageTone). `written` gets the paths.
sim::Status writeFlipbook(std::vector<RenderedFrame> frames, const FlipbookSettings &settings,
                          const Tone &tone, const FlipbookInfo &info, const std::string &directory,
                          const std::string &baseName, std::vector<std::string> &written);

} // namespace plume
