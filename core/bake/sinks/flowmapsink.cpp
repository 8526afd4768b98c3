// SPDX-License-Identifier: Apache-2.0
#include <core/bake/sinks/flowmapsink.h>

namespace plume {

sim::Status FlowMapSink::frame(const BakeFrame &frame, std::vector<std::filesystem::path> &)
{
    if (!mPlan.flowMap.has(frame.number))
        return sim::Status::success();
    return mSum.add(*frame.solver);
}

sim::Status FlowMapSink::finish(std::vector<std::filesystem::path> &files)
{
    const BakeSettings &s = mPlan.settings;
    const FlowMapInfo info{s.baseName, mPlan.flowMap.first, mPlan.flowMap.last, mCellSize,
                           s.plumeVersion};
    return appendWritten(files, [&](std::vector<std::string> &written) {
        return writeFlowMap(mSum, info, s.outputDirectory.string(), s.baseName + "_flowmap",
                            written);
    });
}

} // namespace plume
