// SPDX-License-Identifier: Apache-2.0
#include <core/bake/sinks/volumetexturesink.h>

#include <core/export/frameimage.h>

namespace plume {

sim::Status VolumeTextureSink::frame(const BakeFrame &frame,
                                     std::vector<std::filesystem::path> &files)
{
    if (!mPlan.volumeTexture.has(frame.number))
        return sim::Status::success();
    const BakeSettings &s = mPlan.settings;
    const VolumeTextureSettings &v = s.volumeTexture;
    mDomain = frame.solver->sampleDomain();
    frame.solver->sample(fieldOf(v.channel), mField);
    const VolumeAtlas atlas = makeVolumeAtlas(mDomain, mField, v);
    const std::string name = frameFileName(s.baseName + "_volume", frame.number, ".png");
    const std::filesystem::path path = s.outputDirectory / name;
    if (sim::Status st = writeFilesAtomically({QString::fromStdString(path.string())},
                                              {pngBytes(atlas.image)});
        !st)
        return st;
    files.push_back(path);
    mFrames.push_back({frame.number, name, atlas.range});
    mLayout = atlas.layout;
    return sim::Status::success();
}

sim::Status VolumeTextureSink::finish(std::vector<std::filesystem::path> &files)
{
    const BakeSettings &s = mPlan.settings;
    const std::filesystem::path path = s.outputDirectory / (s.baseName + "_volume.json");
    if (sim::Status st = writeFilesAtomically({QString::fromStdString(path.string())},
                                              {volumeTextureSidecar(s.volumeTexture, mLayout,
                                                                    mDomain, mFrames)});
        !st)
        return st;
    files.push_back(path);
    return sim::Status::success();
}

} // namespace plume
