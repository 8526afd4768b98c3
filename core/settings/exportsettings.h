// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/render/rendersettings.h>
#include <core/settings/vdboptions.h>

#include <QJsonObject>

#include <array>
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

/// How flipbook and image files are encoded. Stored as "png" and "exr".
enum class ImageFormat : std::uint8_t {
    Png, ///< 8 or 16 bits per channel (bitDepth), sRGB colour, values clamped to [0, 1]
    Exr, ///< OpenEXR, half or float (exrPrecision), linear, values not clamped (HDR emission)
};

/// Bits of an OpenEXR channel. Stored as "half" and "float".
enum class ExrPrecision : std::uint8_t { Half, Float };

/// How the colour atlas is lit. Stored as "standard" and "six-way".
enum class Lighting : std::uint8_t {
    Standard, ///< the render settings' light only
    SixWay,   ///< also two six-way lightmap textures (docs/flipbook.md, "Six-way lighting")
};

/// Which way a normal map's green channel points. Stored as "opengl" and "directx".
enum class NormalConvention : std::uint8_t {
    OpenGL,  ///< green is +Y, up (Unity, Godot, Blender)
    DirectX, ///< green is -Y, down (Unreal)
};

/// Which textures the passes go into (docs/flipbook.md, "Packing presets"). Stored as
/// "separate", "unity-six-way", "unreal-subuv", "godot" and "custom".
enum class PackPreset : std::uint8_t {
    Separate,    ///< each pass that is on in its own texture
    UnitySixWay, ///< Unity's Six Way shader: RGB right/top/back + A alpha; left/bottom/front + A
                 ///< emission
    UnrealSubUV, ///< Unreal SubUV: colour, motion vectors, normal (DirectX) + A depth, emission
    Godot,       ///< Godot particles: colour, normal (OpenGL), emission
    Custom,      ///< one texture whose four channels are packChannels
};

/// What one channel of a packed texture holds (docs/flipbook.md lists the encodings). Stored as
/// the names in kPassChannelNames.
enum class PassChannel : std::uint8_t {
    Zero,
    One,
    Red, ///< colour, encoded like the colour atlas (alpha mode, combined emission)
    Green,
    Blue,
    Alpha,
    EmissionRed,
    EmissionGreen,
    EmissionBlue,
    Emission, ///< the emission's luminance (Rec. 709), linear
    Right,    ///< six-way lightmaps: light from the camera's right, ...
    Top,
    Back, ///< light from behind the smoke (away from the camera)
    Left,
    Bottom,
    Front, ///< light from the camera's side
    NormalX,
    NormalY,
    NormalZ,
    Depth,
    MotionX,
    MotionY,
};

inline constexpr sim::EnumNames<ImageFormat, 2> kImageFormatNames{{"png", "exr"}};
inline constexpr sim::EnumNames<ExrPrecision, 2> kExrPrecisionNames{{"half", "float"}};
inline constexpr sim::EnumNames<Lighting, 2> kLightingNames{{"standard", "six-way"}};
inline constexpr sim::EnumNames<NormalConvention, 2> kNormalConventionNames{{"opengl", "directx"}};
inline constexpr sim::EnumNames<PackPreset, 5> kPackPresetNames{
    {"separate", "unity-six-way", "unreal-subuv", "godot", "custom"}};
inline constexpr sim::EnumNames<PassChannel, 22> kPassChannelNames{
    {"zero",       "one",        "color.r",      "color.g",     "color.b",     "alpha",
     "emission.r", "emission.g", "emission.b",   "emission",    "light.right", "light.top",
     "light.back", "light.left", "light.bottom", "light.front", "normal.x",    "normal.y",
     "normal.z",   "depth",      "motion.x",     "motion.y"}};
inline const char *toString(ImageFormat v) { return kImageFormatNames.name(v); }
inline const char *toString(ExrPrecision v) { return kExrPrecisionNames.name(v); }
inline const char *toString(Lighting v) { return kLightingNames.name(v); }
inline const char *toString(NormalConvention v) { return kNormalConventionNames.name(v); }
inline const char *toString(PackPreset v) { return kPackPresetNames.name(v); }
inline const char *toString(PassChannel v) { return kPassChannelNames.name(v); }

/// Keys and ranges of PassSettings' numbers; the defaults are its initialisers.
namespace passParams {
inline constexpr sim::Param depthThreshold{
    .key = "depthThreshold", .min = 0, .max = 1, .openMin = true, .openMax = true, .decimals = 3};
} // namespace passParams

/// The passes beyond colour, emission and motion vectors, and how files are encoded
/// (docs/flipbook.md). Shared by flipbooks and image sequences; the defaults add nothing, so a
/// preset without these keys writes the same files as before they existed.
struct PassSettings
{
    ImageFormat format = ImageFormat::Png;
    ExrPrecision exrPrecision = ExrPrecision::Half;
    Lighting lighting = Lighting::Standard;
    bool normals = false; ///< a normal map (density-weighted gradient, camera tangent space)
    bool depth = false;   ///< a depth map (3D only)
    bool alpha = false;   ///< the alpha alone, one channel
    NormalConvention normalConvention = NormalConvention::OpenGL; ///< separate and custom
    float depthThreshold = 0.05f; ///< opacity at which the depth pass finds the surface
    PackPreset pack = PackPreset::Separate;
    /// PackPreset::Custom: the four channels (RGBA) of the "_packed" texture.
    std::array<PassChannel, 4> packChannels{PassChannel::NormalX, PassChannel::NormalY,
                                            PassChannel::Depth, PassChannel::Alpha};

    friend bool operator==(const PassSettings &, const PassSettings &) = default;
};

/// A frame number that is not set: the bake's range is used.
inline constexpr int kBakeRange = -1;

/// PNG bits per channel: 8 or 16 (bitDepth of both presets).
inline constexpr int kBitDepths[] = {8, 16};
inline bool validBitDepth(double bits) { return bits == kBitDepths[0] || bits == kBitDepths[1]; }

/// Keys and ranges of FlipbookSettings' numbers (sim/base/param.h); the defaults are its member
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
    PassSettings passes;       ///< six-way, normals, depth, alpha, packing, PNG or EXR
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
    PassSettings passes;  ///< as the flipbook's; motion-vector channels are 0.5 (still)
    std::string fileName; ///< base name; empty: the scene's
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
