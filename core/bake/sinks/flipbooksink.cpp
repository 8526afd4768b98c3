// SPDX-License-Identifier: Apache-2.0
#include <core/bake/sinks/flipbooksink.h>

#include <core/bake/bakerecord.h>
#include <core/export/flipbook.h>

namespace plume {

sim::Status FlipbookSink::frame(const BakeFrame &frame, std::vector<std::filesystem::path> &)
{
    if (!mPlan.flipbook.has(frame.number))
        return sim::Status::success();
    // Kept on disk until the atlas is written, for a resumed bake; with effect framing the
    // frames' fields are kept instead (.plume-framing), and rendered after the simulation.
    if (mPlan.keepRecord && !mPlan.framed) {
        const std::filesystem::path dir = mPlan.settings.outputDirectory / kResumeFolder;
        if (sim::Status st = saveRenderedFrame(keptFramePath(dir, frame.number), *frame.image); !st)
            return st;
    }
    mTiles.push_back(std::move(*frame.image));
    return sim::Status::success();
}

sim::Status FlipbookSink::finish(std::vector<std::filesystem::path> &files)
{
    const BakeSettings &s = mPlan.settings;
    const FlipbookInfo info{s.baseName, mPlan.flipbook.first, mPlan.flipbook.step, mFrameRate,
                            s.plumeVersion};
    const std::string base = s.flipbook.fileName.empty() ? s.baseName + "_flipbook"
                                                         : s.flipbook.fileName;
    return appendWritten(files, [&](std::vector<std::string> &written) {
        return writeFlipbook(std::move(mTiles), s.flipbook, mPlan.tone, info,
                             s.outputDirectory.string(), base, written);
    });
}

} // namespace plume
