// SPDX-License-Identifier: Apache-2.0
#include <core/bake/bakeresume.h>

#include <core/bake/sinks/bakesink.h>
#include <core/bake/sinks/imagesink.h>

#include <system_error>

namespace plume {

namespace {

/// The files a finished frame left, which a resumed bake does not write again. With effect
/// framing the images come after the simulation; the baker reads the kept fields back.
std::vector<std::filesystem::path> frameFiles(const BakePlan &plan, int f)
{
    std::vector<std::filesystem::path> files;
    if (plan.vdb.has(f))
        files.push_back(framePath(plan.settings, f));
    if (plan.mesh.has(f))
        files.push_back(framePath(plan.settings, f, ".obj"));
    if (plan.images.has(f) && !plan.framed) {
        for (const auto &p : sequencePaths(plan.settings, f))
            files.push_back(p);
    }
    return files;
}

} // namespace

sim::Status prepareResume(const BakePlan &plan, const BakeRecord &record, int frameStart,
                          SceneSimulation &simulation, ResumePoint &out)
{
    const BakeSettings &settings = plan.settings;
    const std::filesystem::path dir = settings.outputDirectory / kResumeFolder;
    const std::string again = "; bake again without --resume to start over";
    std::error_code ec;
    if (!std::filesystem::exists(dir / "bake.json", ec))
        return sim::Status::failure("'" + settings.outputDirectory.string()
                                    + "' holds no interrupted bake to resume (no " + kResumeFolder
                                    + "/bake.json)");
    BakeRecord was;
    if (sim::Status st = readBakeRecord(dir, was); !st)
        return sim::Status::failure(st.error + again);
    if (const std::string diff = bakeRecordDifference(was, record); !diff.empty())
        return sim::Status::failure("cannot resume: " + diff + again);
    const std::filesystem::path checkpoint = checkpointPath(dir);
    if (std::filesystem::exists(checkpoint, ec)) {
        if (sim::Status st = simulation.restoreCheckpointFile(
                QString::fromStdString(checkpoint.string()), record.sceneHash);
            !st)
            return sim::Status::failure(st.error + again);
    }
    out.start = frameStart + simulation.simulation().frame();
    for (int f = frameStart; f < out.start; ++f) {
        for (const auto &p : frameFiles(plan, f)) {
            if (!std::filesystem::exists(p, ec))
                return sim::Status::failure(
                    p.string() + ", written before the interruption, is missing" + again);
        }
        if (plan.flipbook.has(f) && !plan.framed) {
            RenderedFrame frame;
            if (sim::Status st = loadRenderedFrame(keptFramePath(dir, f), frame); !st)
                return sim::Status::failure(st.error + again);
            out.flipbook.push_back(std::move(frame));
        }
    }
    return sim::Status::success();
}

} // namespace plume
