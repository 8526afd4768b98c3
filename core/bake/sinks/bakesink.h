// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/bake/bakeplan.h>

#include <core/render/renderer.h>
#include <core/sim/base/solver.h>

#include <filesystem>
#include <string>
#include <vector>

namespace plume {

/// One simulated frame as the bake loop hands it to the sinks.
struct BakeFrame
{
    int number = 0;
    /// The simulation; null in a bake from a cache (BakeSettings::fromCache), whose plan
    /// allows only the outputs that need no solver (images, flipbook, meshes).
    const sim::Solver *solver = nullptr;
    /// The frame's fields as the VDB files hold them (bake/bakefields.h), when the frame is
    /// rendered or meshed; else null.
    const FrameFields *fields = nullptr;
    /// The frame rendered for the flipbook and the images (plan.renders(number)), else null.
    /// The flipbook sink, the last to see it, may take it.
    RenderedFrame *image = nullptr;
};

/// An output of the bake loop (bake/baker.h): VDB files, meshes, images, the flipbook, the
/// flow map. The loop calls begin() once, frame() for every frame the plan writes (a sink
/// skips those it does not want), finish() after the last; each appends the files it wrote,
/// every one complete (written atomically), to `files`. A failed status stops the bake.
class BakeSink
{
public:
    virtual ~BakeSink() = default;
    virtual sim::Status begin() { return sim::Status::success(); }
    virtual sim::Status frame(const BakeFrame &frame,
                              std::vector<std::filesystem::path> &files) = 0;
    virtual sim::Status finish(std::vector<std::filesystem::path> & /*files*/)
    {
        return sim::Status::success();
    }
    /// Whether the sink writes rendered frames (the images, the flipbook). With effect
    /// framing (BakePlan::framed) the loop hands them their frames after the simulation, all
    /// with one camera, rather than as each is simulated.
    virtual bool takesImages() const { return false; }
};

/// Runs `write(written)`, a writer that lists the files it wrote as strings (the flipbook's and
/// flow map's), and on success appends them to `files`.
template<class Write>
sim::Status appendWritten(std::vector<std::filesystem::path> &files, Write &&write)
{
    std::vector<std::string> written;
    if (sim::Status st = write(written); !st)
        return st;
    files.insert(files.end(), written.begin(), written.end());
    return sim::Status::success();
}

/// <dir>/<baseName>.<frame:04d><extension>: the VDB files and meshes.
std::filesystem::path framePath(const BakeSettings &settings, int frame,
                                const char *extension = ".vdb");

} // namespace plume
