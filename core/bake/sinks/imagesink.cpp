// SPDX-License-Identifier: Apache-2.0
#include <core/bake/sinks/imagesink.h>

#include <core/export/frameimage.h>
#include <core/export/passes.h>

namespace plume {

namespace {

/// The sequence's base name: its own when set, else the bake's.
std::string sequenceBase(const BakeSettings &s)
{
    return s.images.fileName.empty() ? s.baseName : s.images.fileName;
}

/// Writes one frame of the image sequence (and its emission image) atomically.
sim::Status writeSequenceFrame(const RenderedFrame &frame, const BakeSettings &settings,
                               const Tone &tone, int number,
                               std::vector<std::filesystem::path> &files)
{
    const ImageSequenceSettings &s = settings.images;
    if (s.bitDepth != 8 && s.bitDepth != 16)
        return sim::Status::failure("images: bit depth must be 8 or 16");
    std::vector<QString> paths;
    for (const std::filesystem::path &p : sequencePaths(settings, number))
        paths.push_back(QString::fromStdString(p.string()));
    std::vector<QByteArray> contents;
    const bool png = s.passes.format == ImageFormat::Png;
    EncodeContext ctx{s.alpha, s.emission, s.passes.format};
    ctx.motion = false;
    ctx.tone = tone;
    for (const PassTexture &t : passTextures(textureOptions(s))) {
        // PNG colour and emission: the writers that predate passes (same bytes).
        if (png && t.kind == TextureKind::Color) {
            contents.push_back(pngBytes(colorImage(frame, s.alpha, s.emission, s.bitDepth, tone)));
        } else if (png && t.kind == TextureKind::Emission) {
            contents.push_back(pngBytes(emissionImage(frame, s.bitDepth, tone)));
        } else {
            QByteArray bytes;
            if (sim::Status st = encodeTexture(textureImage(frame, t, ctx), s.passes, s.bitDepth,
                                               bytes);
                !st)
                return sim::Status::failure("images " + paths[contents.size()].toStdString() + ": "
                                            + st.error);
            contents.push_back(std::move(bytes));
        }
    }
    if (sim::Status st = writeFilesAtomically(paths, contents); !st)
        return st;
    for (const QString &p : paths)
        files.push_back(p.toStdString());
    return sim::Status::success();
}

} // namespace

std::vector<std::filesystem::path> sequencePaths(const BakeSettings &settings, int number)
{
    const ImageSequenceSettings &s = settings.images;
    const std::string base = sequenceBase(settings);
    std::vector<std::filesystem::path> paths;
    for (const PassTexture &t : passTextures(textureOptions(s)))
        paths.push_back(
            settings.outputDirectory
            / (base + t.suffix + "." + frameNumber(number) + fileExtension(s.passes.format)));
    return paths;
}

sim::Status ImageSink::frame(const BakeFrame &frame, std::vector<std::filesystem::path> &files)
{
    if (!mPlan.images.has(frame.number))
        return sim::Status::success();
    return writeSequenceFrame(*frame.image, mPlan.settings, mPlan.tone, frame.number, files);
}

} // namespace plume
