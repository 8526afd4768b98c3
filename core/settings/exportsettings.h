#pragma once

#include <render/rendersettings.h>
#include <settings/vdboptions.h>

#include <QJsonObject>

#include <cstdint>
#include <string>

// Plain settings: the export presets a scene holds (scene/scene.h) and the exporters read
// (export/, bake/). They live here, not in export/, so the scene model does not depend on the
// exporters.

namespace plume {

/// How colour and alpha are stored. Stored as "straight" and "premultiplied".
enum class AlphaMode : std::uint8_t {
    Straight,      ///< RGB is the colour as seen where alpha > 0
    Premultiplied, ///< RGB is the sRGB-encoded colour times alpha
};

/// Where emission goes. Stored as "none", "combined" and "separate".
enum class EmissionOutput : std::uint8_t {
    None,     ///< not written
    Combined, ///< added to the colour (for additive or premultiplied blending)
    Separate, ///< its own image, RGB, sRGB-encoded, opaque
};

inline constexpr sim::EnumNames<AlphaMode, 2> kAlphaModeNames{{"straight", "premultiplied"}};
inline constexpr sim::EnumNames<EmissionOutput, 3> kEmissionOutputNames{
    {"none", "combined", "separate"}};
inline const char *toString(AlphaMode v) { return kAlphaModeNames.name(v); }
inline const char *toString(EmissionOutput v) { return kEmissionOutputNames.name(v); }

/// A frame number that is not set: the bake's range is used.
inline constexpr int kBakeRange = -1;

/// PNG bits per channel: 8 or 16 (bitDepth of both presets).
inline constexpr int kBitDepths[] = {8, 16};
inline bool validBitDepth(double bits) { return bits == kBitDepths[0] || bits == kBitDepths[1]; }

/// Keys and ranges of FlipbookSettings' numbers (sim/param.h); the defaults are its member
/// initialisers. first and last (frames) are also in imageParams; last is at least first.
namespace flipbookParams {
inline constexpr sim::Param rows{.key = "rows", .min = 1, .max = 256, .integer = true};
inline constexpr sim::Param columns{.key = "columns", .min = 1, .max = 256, .integer = true};
inline constexpr sim::Param first{.key = "first", .min = 0, .max = 1e7, .integer = true};
inline constexpr sim::Param last{.key = "last", .min = 0, .max = 1e7, .integer = true};
inline constexpr sim::Param step{.key = "step", .min = 0, .max = 100000, .integer = true};
inline constexpr sim::Param padding{.key = "padding", .min = 0, .max = 256, .integer = true};
inline constexpr sim::Param motionRange{.key = "motionRange",
                                        .min = 0,
                                        .softMax = 10000,
                                        .decimals = 2};
inline constexpr sim::Param loopFrames{.key = "loopFrames",
                                       .min = 0,
                                       .max = 100000,
                                       .integer = true};
} // namespace flipbookParams

/// Keys and ranges of ImageSequenceSettings' numbers; the defaults are its initialisers.
namespace imageParams {
inline constexpr sim::Param first = flipbookParams::first;
inline constexpr sim::Param last = flipbookParams::last;
inline constexpr sim::Param step{.key = "step", .min = 1, .max = 100000, .integer = true};
} // namespace imageParams

/// A flipbook atlas preset (docs/flipbook.md). Frames first, first + step, ... up to last,
/// placed left-to-right, top-to-bottom in rows x columns tiles of the render's frame size plus
/// `padding` pixels of edge dilation on every side.
struct FlipbookSettings
{
    bool enabled = false;
    int rows = 8;
    int columns = 8;
    int first = kBakeRange; ///< first frame, or kBakeRange
    int last = kBakeRange;  ///< last frame (inclusive), or kBakeRange
    int step = 0;           ///< frames between tiles; 0: the smallest step that fits the tiles
    int padding = 2;        ///< gutter pixels on each side of a frame, filled by its edge
    AlphaMode alpha = AlphaMode::Premultiplied;
    int bitDepth = 8; ///< 8 or 16 bits per channel (PNG)
    EmissionOutput emission = EmissionOutput::None;
    bool motionVectors = true; ///< also write the motion-vector atlas
    float motionRange = 0.f;   ///< pixels per frame at RG = 0 or 1; 0: from the largest motion
    int loopFrames = 0;        ///< frames crossfaded into the start for a seamless loop
    std::string fileName;      ///< base name; empty: "<scene>_flipbook"
    QJsonObject extra;

    friend bool operator==(const FlipbookSettings &, const FlipbookSettings &) = default;
};

/// An image sequence preset: one PNG per frame, <fileName>.<frame:04d>.png.
struct ImageSequenceSettings
{
    bool enabled = false;
    int first = kBakeRange;
    int last = kBakeRange;
    int step = 1;
    AlphaMode alpha = AlphaMode::Straight;
    int bitDepth = 8;
    EmissionOutput emission = EmissionOutput::None; ///< separate: <fileName>_emission.<frame>
    std::string fileName;                           ///< base name; empty: the scene's
    QJsonObject extra;

    friend bool operator==(const ImageSequenceSettings &, const ImageSequenceSettings &) = default;
};

/// The OpenVDB preset: how the per-frame VDB files are written (export/vdbwriter.h,
/// docs/using-exports.md). Whether they are written at all is the bake's choice.
struct VdbSettings
{
    UpAxis up = UpAxis::Y;                             ///< Z: rotated for Blender and Unreal
    bool halfFloat = false;                            ///< 16-bit grids (smaller files)
    VelocityMask velocityMask = VelocityMask::Density; ///< where `vel` is stored
    QJsonObject extra;

    friend bool operator==(const VdbSettings &, const VdbSettings &) = default;
};

/// The export presets a scene remembers, so a bake needs no flags.
struct ExportPresets
{
    RenderSettings render;
    FlipbookSettings flipbook;
    ImageSequenceSettings images;
    VdbSettings openvdb; ///< the "openvdb" object
    QJsonObject extra;

    friend bool operator==(const ExportPresets &, const ExportPresets &) = default;
};

} // namespace plume
