#pragma once

#include <render/rendersettings.h>

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

/// A frame number that is not set: the bake's range is used.
inline constexpr int kBakeRange = -1;

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
    std::string fileName; ///< base name; empty: the scene's
    QJsonObject extra;

    friend bool operator==(const ImageSequenceSettings &, const ImageSequenceSettings &) = default;
};

/// The export presets a scene remembers, so a bake needs no flags.
struct ExportPresets
{
    RenderSettings render;
    FlipbookSettings flipbook;
    ImageSequenceSettings images;
    QJsonObject extra;

    friend bool operator==(const ExportPresets &, const ExportPresets &) = default;
};

const char *toString(AlphaMode v);
const char *toString(EmissionOutput v);
bool alphaModeFromString(const std::string &s, AlphaMode &out);
bool emissionOutputFromString(const std::string &s, EmissionOutput &out);

} // namespace plume
