// SPDX-License-Identifier: Apache-2.0
#include <core/export/passes.h>

#include <core/export/flipbook.h>
#include <core/export/frameimage.h>

#include <core/render/colormap.h>
#include <core/sim/base/parallel.h>

#include <algorithm>
#include <cmath>

namespace plume {

namespace {

using C = PassChannel;

PassTexture packed(std::string suffix, std::string purpose, int channels,
                   std::array<PassChannel, 4> sources,
                   NormalConvention normals = NormalConvention::OpenGL)
{
    return {TextureKind::Packed, std::move(suffix), std::move(purpose), channels, sources, normals};
}

PassTexture sixWayPositive()
{
    return packed("_sixway_rtb",
                  "six-way lightmaps (Unity Six Way 'Right Top Back'): light from the right, "
                  "top and back in RGB, alpha in A",
                  4, {C::Right, C::Top, C::Back, C::Alpha});
}

PassTexture sixWayNegative()
{
    return packed("_sixway_lbf",
                  "six-way lightmaps (Unity Six Way 'Left Bottom Front'): light from the left, "
                  "bottom and front in RGB, emission in A",
                  4, {C::Left, C::Bottom, C::Front, C::Emission});
}

PassTexture normalTexture(NormalConvention convention)
{
    return packed("_normal", "tangent-space normal map", 3,
                  {C::NormalX, C::NormalY, C::NormalZ, C::One}, convention);
}

PassTexture emissionTexture()
{
    return {TextureKind::Emission,
            "_emission",
            "emission alone (additive light)",
            3,
            {C::EmissionRed, C::EmissionGreen, C::EmissionBlue, C::One},
            NormalConvention::OpenGL};
}

bool uses(const std::vector<PassTexture> &textures, PassChannel channel)
{
    for (const PassTexture &t : textures) {
        for (int c = 0; c < t.channels; ++c) {
            if (t.sources[std::size_t(c)] == channel)
                return true;
        }
    }
    return false;
}

bool hasSuffix(const std::vector<PassTexture> &textures, const std::string &suffix)
{
    return std::any_of(textures.begin(), textures.end(),
                       [&](const PassTexture &t) { return t.suffix == suffix; });
}

bool isSixWay(PassChannel c) { return c >= C::Right && c <= C::Front; }
bool isNormal(PassChannel c) { return c >= C::NormalX && c <= C::NormalZ; }

float luminance(const float *rgb) { return 0.2126f * rgb[0] + 0.7152f * rgb[1] + 0.0722f * rgb[2]; }

} // namespace

TextureOptions textureOptions(const FlipbookSettings &s)
{
    return {s.alpha, s.emission, s.motionVectors, s.bitDepth, s.passes};
}

TextureOptions textureOptions(const ImageSequenceSettings &s)
{
    return {s.alpha, s.emission, false, s.bitDepth, s.passes};
}

std::vector<PassTexture> passTextures(const TextureOptions &o)
{
    const PassSettings &p = o.passes;
    std::vector<PassTexture> out;
    out.push_back({TextureKind::Color,
                   "",
                   "colour and alpha",
                   4,
                   {C::Red, C::Green, C::Blue, C::Alpha},
                   NormalConvention::OpenGL});
    if (o.motionVectors)
        out.push_back({TextureKind::Motion,
                       "_motion",
                       "motion vectors",
                       4,
                       {C::MotionX, C::MotionY, C::Zero, C::One},
                       NormalConvention::OpenGL});
    if (o.emission == EmissionOutput::Separate)
        out.push_back(emissionTexture());
    switch (p.pack) {
    case PackPreset::Separate: break;
    case PackPreset::UnitySixWay:
        out.push_back(sixWayPositive());
        out.push_back(sixWayNegative());
        break;
    case PackPreset::UnrealSubUV:
        out.push_back(normalTexture(NormalConvention::DirectX));
        if (!hasSuffix(out, "_emission"))
            out.push_back(emissionTexture());
        break;
    case PackPreset::Godot:
        out.push_back(normalTexture(NormalConvention::OpenGL));
        if (!hasSuffix(out, "_emission"))
            out.push_back(emissionTexture());
        break;
    case PackPreset::Custom:
        out.push_back(packed("_packed", "custom packing", 4, p.packChannels, p.normalConvention));
        break;
    }
    if (p.lighting == Lighting::SixWay && !hasSuffix(out, "_sixway_rtb")) {
        out.push_back(sixWayPositive());
        out.push_back(sixWayNegative());
    }
    if (p.normals && !hasSuffix(out, "_normal"))
        out.push_back(normalTexture(p.normalConvention));
    if (p.depth && !uses(out, C::Depth))
        out.push_back(
            packed("_depth", "depth from the camera", 1, {C::Depth, C::Zero, C::Zero, C::One}));
    if (p.alpha && !hasSuffix(out, "_alpha"))
        out.push_back(packed("_alpha", "alpha alone", 1, {C::Alpha, C::Zero, C::Zero, C::One}));
    return out;
}

PassRequest passRequest(const std::vector<PassTexture> &textures, const PassSettings &passes)
{
    PassRequest r;
    for (const PassTexture &t : textures) {
        for (int c = 0; c < t.channels; ++c) {
            const PassChannel ch = t.sources[std::size_t(c)];
            r.motion = r.motion || ch == C::MotionX || ch == C::MotionY;
            r.sixWay = r.sixWay || isSixWay(ch);
            r.normals = r.normals || isNormal(ch);
            r.depth = r.depth || ch == C::Depth;
        }
    }
    r.depthThreshold = passes.depthThreshold;
    return r;
}

sim::Status checkPasses(const std::vector<PassTexture> &textures, bool is2D)
{
    for (const PassTexture &t : textures) {
        for (int c = 0; c < t.channels; ++c) {
            if (std::size_t(t.sources[std::size_t(c)]) >= kPassChannelNames.size())
                return sim::Status::failure("passes: texture '" + t.suffix
                                            + "' has an unknown channel");
        }
    }
    if (is2D && uses(textures, C::Depth))
        return sim::Status::failure(
            "depth map: a 2D domain is a flat slab at one distance from the camera, so it has no "
            "depth; the depth pass needs a 3D domain (turn off depthMap or --depth-map, or pack "
            "no depth channel)");
    return sim::Status::success();
}

float channelValue(const RenderedFrame &f, PassChannel channel, std::size_t p,
                   NormalConvention normals, const EncodeContext &ctx)
{
    const bool png = ctx.format == ImageFormat::Png;
    const float a = f.color[4 * p + 3];
    switch (channel) {
    case C::Zero: return 0.f;
    case C::One: return 1.f;
    case C::Red:
    case C::Green:
    case C::Blue: {
        // As colorImage (PNG) or its linear counterpart (EXR): premultiplied adds emission as
        // light, straight adds it before dividing by alpha.
        const int c = int(channel) - int(C::Red);
        const float v = f.color[4 * p + c];
        const float e = ctx.emission == EmissionOutput::Combined ? f.emission[3 * p + c] : 0.f;
        const Tone &tone = ctx.tone;
        if (ctx.alpha == AlphaMode::Premultiplied)
            return png ? detail::linearToSrgb(tone(a > 0.f ? v / a : 0.f)) * a
                             + detail::linearToSrgb(tone(e))
                       : v + e;
        if (!(a > 0.f))
            return 0.f;
        return png ? detail::linearToSrgb(tone((v + e) / a)) : (v + e) / a;
    }
    case C::Alpha: return a;
    case C::EmissionRed:
    case C::EmissionGreen:
    case C::EmissionBlue: {
        const float e = f.emission[3 * p + (int(channel) - int(C::EmissionRed))];
        return png ? detail::linearToSrgb(ctx.tone(e)) : e;
    }
    case C::Emission: return luminance(&f.emission[3 * p]); // data: linear, never toned
    case C::Right:
    case C::Top:
    case C::Back:
    case C::Left:
    case C::Bottom:
    case C::Front: {
        // Straight: the light per unit of opacity; linear in PNG too, where it clips at 1
        // (multiple scattering in white smoke lights its lit side above 1: EXR keeps that).
        if (f.sixWay.empty() || !(a > 1e-6f))
            return 0.f;
        const float v = f.sixWay[kSixWayLights * p + (int(channel) - int(C::Right))];
        return png ? std::clamp(v / a, 0.f, 1.f) : std::max(v / a, 0.f);
    }
    case C::NormalX:
    case C::NormalY:
    case C::NormalZ: {
        const int c = int(channel) - int(C::NormalX);
        float n = f.normal.empty() ? (c == 2 ? 1.f : 0.f) : f.normal[3 * p + c];
        if (c == 1 && normals == NormalConvention::DirectX)
            n = -n;
        return 0.5f + 0.5f * n;
    }
    case C::Depth: return f.depth.empty() ? 1.f : f.depth[p];
    case C::MotionX:
    case C::MotionY: {
        const float v = f.hasMotion && ctx.motion
                            ? f.motion[2 * p + (channel == C::MotionY ? 1 : 0)]
                            : 0.f;
        return png ? encodeMotion(v, ctx.motionRange) : 0.5f + v / (2.f * ctx.motionRange);
    }
    }
    return 0.f;
}

float emptyChannelValue(PassChannel channel, NormalConvention normals, const EncodeContext &ctx)
{
    static const RenderedFrame empty = [] {
        RenderedFrame f;
        f.width = f.height = 1;
        f.color.assign(4, 0.f);
        f.emission.assign(3, 0.f);
        return f;
    }();
    return channelValue(empty, channel, 0, normals, ctx);
}

FloatImage textureImage(const RenderedFrame &frame, const PassTexture &t, const EncodeContext &ctx)
{
    FloatImage image;
    image.width = frame.width;
    image.height = frame.height;
    image.channels = t.channels;
    image.pixels.resize(frame.pixels() * std::size_t(t.channels));
    sim::forEachIndex(std::int64_t(frame.pixels()), [&](std::int64_t p) {
        for (int c = 0; c < t.channels; ++c)
            image.pixels[std::size_t(p) * t.channels + c] =
                channelValue(frame, t.sources[std::size_t(c)], std::size_t(p), t.normals, ctx);
    });
    return image;
}

std::vector<PassImage> renderPasses(const FrameFields &fields, const RenderSettings &render,
                                    const TextureOptions &options, float frameRate)
{
    const std::vector<PassTexture> textures = passTextures(options);
    const RenderedFrame frame = renderFrame(fields, render, passRequest(textures, options.passes),
                                            frameRate);
    EncodeContext ctx{options.alpha, options.emission, options.passes.format,
                      autoMotionRange({frame})};
    ctx.tone = imageTone(render, fields.domain.is2D());
    std::vector<PassImage> out;
    for (const PassTexture &t : textures)
        out.push_back({t, textureImage(frame, t, ctx)});
    return out;
}

QImage quantizedImage(const FloatImage &image, int bitDepth)
{
    const bool wide = bitDepth == 16;
    const bool grey = image.channels == 1;
    const QImage::Format format = grey ? (wide ? QImage::Format_Grayscale16
                                               : QImage::Format_Grayscale8)
                                       : (wide ? QImage::Format_RGBA64 : QImage::Format_RGBA8888);
    QImage out(image.width, image.height, format);
    const int lanes = grey ? 1 : 4;
    const float scale = wide ? 65535.f : 255.f;
    sim::forEachRow(sim::Int3{image.width, image.height, 1}, [&](int y, int) {
        uchar *line = out.scanLine(y);
        for (int x = 0; x < image.width; ++x) {
            for (int c = 0; c < lanes; ++c) {
                const float v = c < image.channels ? image.at(x, y, c) : 1.f;
                const long q = std::lround(std::clamp(v, 0.f, 1.f) * scale);
                if (wide)
                    reinterpret_cast<quint16 *>(line)[lanes * x + c] = quint16(q);
                else
                    line[lanes * x + c] = uchar(q);
            }
        }
    });
    return out;
}

sim::Status encodeTexture(const FloatImage &image, const PassSettings &passes, int bitDepth,
                          QByteArray &out)
{
    if (passes.format == ImageFormat::Exr)
        return exrBytes(image, passes.exrPrecision, out);
    out = pngBytes(quantizedImage(image, bitDepth));
    return sim::Status::success();
}

std::string fileExtension(ImageFormat format)
{
    return format == ImageFormat::Exr ? ".exr" : ".png";
}

namespace {

/// How a channel's stored value reads back (docs/flipbook.md, "Channel encodings").
QString encodingOf(PassChannel c, NormalConvention normals, bool png)
{
    switch (c) {
    case C::Zero: return "0";
    case C::One: return "1";
    case C::Red:
    case C::Green:
    case C::Blue:
        return png ? "colour, exposure and tone curve, sRGB-encoded (alpha mode as 'alpha')"
                   : "colour, linear (alpha mode as 'alpha')";
    case C::Alpha: return "alpha (opacity), linear";
    case C::EmissionRed:
    case C::EmissionGreen:
    case C::EmissionBlue:
        return png ? "emission, exposure and tone curve, sRGB-encoded" : "emission, linear, HDR";
    case C::Emission:
        return png ? "emission luminance (Rec. 709), linear, clipped at 1"
                   : "emission luminance (Rec. 709), linear, HDR";
    case C::Right:
    case C::Top:
    case C::Back:
    case C::Left:
    case C::Bottom:
    case C::Front:
        return png ? "six-way light per unit opacity, linear, clipped at 1"
                   : "six-way light per unit opacity, linear, HDR";
    case C::NormalX: return "0.5 + 0.5 * n.x (x right)";
    case C::NormalY:
        return normals == NormalConvention::DirectX ? "0.5 - 0.5 * n.y (DirectX: green down)"
                                                    : "0.5 + 0.5 * n.y (OpenGL: green up)";
    case C::NormalZ: return "0.5 + 0.5 * n.z (z towards the camera)";
    case C::Depth: return "(distance - near) / (far - near), linear; 1: nothing";
    case C::MotionX:
    case C::MotionY: return png ? "0.5 + v / (2 * range), clamped" : "0.5 + v / (2 * range)";
    }
    return {};
}

} // namespace

QJsonObject textureJson(const PassTexture &t, const std::string &file, const PassSettings &passes,
                        int bitDepth)
{
    const bool png = passes.format == ImageFormat::Png;
    QJsonObject channels;
    const char *names[] = {"r", "g", "b", "a"};
    for (int c = 0; c < t.channels; ++c) {
        const PassChannel ch = t.sources[std::size_t(c)];
        channels[t.channels == 1 ? "y" : names[c]] = QJsonObject{{"pass", toString(ch)},
                                                                 {"encoding",
                                                                  encodingOf(ch, t.normals, png)}};
    }
    QJsonObject o{{"file", QString::fromStdString(file)},
                  {"purpose", QString::fromStdString(t.purpose)},
                  {"format", toString(passes.format)},
                  {"channels", channels}};
    if (png)
        o["bitDepth"] = bitDepth;
    else
        o["exrPrecision"] = toString(passes.exrPrecision);
    return o;
}

QJsonObject passConventionsJson(const std::vector<PassTexture> &textures,
                                const PassSettings &passes, float depthNear, float depthFar)
{
    QJsonObject o;
    bool sixWay = false, normals = false, depth = false;
    NormalConvention convention = passes.normalConvention;
    for (const PassTexture &t : textures) {
        for (int c = 0; c < t.channels; ++c) {
            sixWay = sixWay || isSixWay(t.sources[std::size_t(c)]);
            if (isNormal(t.sources[std::size_t(c)]) && !normals) {
                normals = true;
                convention = t.normals; // a preset's own (Unreal: DirectX)
            }
            depth = depth || t.sources[std::size_t(c)] == C::Depth;
        }
    }
    if (sixWay)
        o["sixWay"] = QJsonObject{
            {"convention", "Unity Six Way (also EmberGen, Houdini Labs)"},
            {"directions", "camera-relative: right = camera right, top = camera up, back = "
                           "light behind the smoke (away from the camera), front = light on the "
                           "camera's side"},
            {"positive", "RGB = right (+X), top (+Y), back (-Z); A = alpha"},
            {"negative", "RGB = left (-X), bottom (-Y), front (+Z); A = emission luminance"},
            {"values", "light scattered towards the camera per unit opacity and per unit albedo "
                       "under a white light of intensity 1, single and multiple scattering "
                       "(docs/render.md), no sky light; linear"}};
    if (normals)
        o["normals"] = QJsonObject{
            {"source", "opacity-weighted mean of -grad density along the view ray (3D); "
                       "2D: a puff facing the camera as much as it is opaque (z = alpha), tilted "
                       "down the gradient of the optical depth"},
            {"space", "tangent space of a camera-facing quad: x right, y up, z towards the "
                      "camera"},
            {"convention", toString(convention)},
            {"encoding", "rgb = 0.5 + 0.5 * n (DirectX: g = 0.5 - 0.5 * n.y)"}};
    if (depth)
        o["depth"] = QJsonObject{
            {"near", double(depthNear)},
            {"far", double(depthFar)},
            {"units", "world units of distance from the camera along the view ray"},
            {"threshold", double(passes.depthThreshold)},
            {"meaning", "where the accumulated opacity first reaches the threshold; 1 where it "
                        "never does"},
            {"decode", "distance = near + value * (far - near)"}};
    return o;
}

} // namespace plume
