// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/export/exrimage.h>
#include <core/export/tone.h>

#include <core/render/renderer.h>
#include <core/settings/exportsettings.h>
#include <core/sim/base/types.h>

#include <QByteArray>
#include <QImage>
#include <QJsonObject>

#include <array>
#include <string>
#include <vector>

// The textures a flipbook or an image sequence writes for one frame, and how each channel is
// encoded (docs/flipbook.md, "Passes" and "Packing presets"). The export dialog's preview calls
// renderPasses() for one frame and shows each PassImage; the baker writes them.

namespace plume {

/// Textures whose PNG encoding predates passes keep their own writers (frameimage.h), so
/// default exports stay byte-identical; Packed textures are built channel by channel.
enum class TextureKind : std::uint8_t { Color, Motion, Emission, Packed };

/// One texture of an export: the file is <base><suffix>.<ext> (flipbook) or
/// <base><suffix>.<frame>.<ext> (image sequence).
struct PassTexture
{
    TextureKind kind = TextureKind::Packed;
    std::string suffix;  ///< "" for the colour texture, else e.g. "_sixway_rtb"
    std::string purpose; ///< what it is for, written to the sidecar
    int channels = 4;    ///< 1 (grey), 3 (RGB) or 4 (RGBA)
    std::array<PassChannel, 4> sources{PassChannel::Zero, PassChannel::Zero, PassChannel::Zero,
                                       PassChannel::One};
    NormalConvention normals = NormalConvention::OpenGL; ///< of normal.y
};

/// What decides the textures and their encodings.
struct TextureOptions
{
    AlphaMode alpha = AlphaMode::Premultiplied;
    EmissionOutput emission = EmissionOutput::None;
    bool motionVectors = false; ///< the motion-vector texture (flipbooks)
    int bitDepth = 8;           ///< PNG: 8 or 16
    PassSettings passes;
};

/// The options of a flipbook and of an image sequence preset.
TextureOptions textureOptions(const FlipbookSettings &settings);
TextureOptions textureOptions(const ImageSequenceSettings &settings);

/// The textures in file order: colour, motion vectors, emission (when separate), then those of
/// the pack preset, then a texture for each pass that is on and not already packed.
std::vector<PassTexture> passTextures(const TextureOptions &options);

/// The passes the renderer must compute for `textures`.
PassRequest passRequest(const std::vector<PassTexture> &textures, const PassSettings &passes);

/// Refuses what cannot be written: a depth channel for a 2D domain (a flat slab at one
/// distance) and a pack preset or channel out of range. The message names the setting.
sim::Status checkPasses(const std::vector<PassTexture> &textures, bool is2D);

/// How a frame's values turn into stored channel values.
struct EncodeContext
{
    AlphaMode alpha = AlphaMode::Premultiplied;
    EmissionOutput emission = EmissionOutput::None;
    ImageFormat format = ImageFormat::Png;
    float motionRange = 1.f; ///< pixels per frame at motion 0 or 1 (frameimage.h encodeMotion)
    bool motion = true;      ///< false: motion channels read still (0.5), as image sequences
    /// PNG colour and emission RGB channels: exposure and tone curve, as colorImage (EXR and
    /// the data channels are never toned).
    Tone tone;
};

/// The stored value of one channel at pixel p (docs/flipbook.md, "Channel encodings"): for
/// PNG in [0, 1] before quantising (colour and emission RGB toned and sRGB-encoded, as
/// colorImage and emissionImage), for EXR linear and not clamped.
float channelValue(const RenderedFrame &frame, PassChannel channel, std::size_t p,
                   NormalConvention normals, const EncodeContext &context);

/// The value of a channel where no frame is (atlas tiles without a frame): that of an empty
/// pixel (normals face the camera, depth is far, motion is still).
float emptyChannelValue(PassChannel channel, NormalConvention normals,
                        const EncodeContext &context);

/// A texture of one frame as stored values (channelValue per channel).
FloatImage textureImage(const RenderedFrame &frame, const PassTexture &texture,
                        const EncodeContext &context);

/// One texture of a frame, ready to show or write.
struct PassImage
{
    PassTexture texture;
    FloatImage image; ///< stored values (see channelValue)
};

/// Renders one frame with every pass `options` needs and returns its textures (the export
/// dialog's preview; the motion range is the frame's largest motion, as autoMotionRange; the
/// tone is imageTone of `render` and the fields' dimension).
std::vector<PassImage> renderPasses(const FrameFields &fields, const RenderSettings &render,
                                    const TextureOptions &options, float frameRate);

/// An 8- or 16-bit image of stored values in [0, 1] (Grayscale for one channel, RGBA
/// otherwise with A = 1 for three channels), e.g. to preview or write as PNG.
QImage quantizedImage(const FloatImage &image, int bitDepth);

/// The file bytes of a texture: PNG (quantized to bitDepth) or EXR (half or float).
sim::Status encodeTexture(const FloatImage &image, const PassSettings &passes, int bitDepth,
                          QByteArray &out);

/// ".png" or ".exr".
std::string fileExtension(ImageFormat format);

/// The sidecar entry of a texture: file, channels with their contents and encodings, colour
/// space, format.
QJsonObject textureJson(const PassTexture &texture, const std::string &file,
                        const PassSettings &passes, int bitDepth);

/// The conventions the sidecar records when passes are on: six-way directions, normal space,
/// depth range (frame's depthNear/depthFar) and threshold.
QJsonObject passConventionsJson(const std::vector<PassTexture> &textures,
                                const PassSettings &passes, float depthNear, float depthFar);

} // namespace plume
