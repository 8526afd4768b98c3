// SPDX-License-Identifier: Apache-2.0
#include <core/bake/sinks/vectorfieldsink.h>

namespace plume {

sim::Status VectorFieldSink::frame(const BakeFrame &frame,
                                   std::vector<std::filesystem::path> &files)
{
    if (!mPlan.vectorField.has(frame.number))
        return sim::Status::success();
    const VectorFieldSettings &v = mPlan.settings.vectorField;
    const VectorField field = sampleVectorField(*frame.solver, v);
    if (v.average)
        return mAverage.add(field);
    const std::filesystem::path path = framePath(mPlan.settings, frame.number,
                                                 vectorFieldExtension(v.format));
    if (sim::Status st = writeVectorField(field, v.format, path.string()); !st)
        return st;
    files.push_back(path);
    return sim::Status::success();
}

sim::Status VectorFieldSink::finish(std::vector<std::filesystem::path> &files)
{
    const VectorFieldSettings &v = mPlan.settings.vectorField;
    if (!v.average)
        return sim::Status::success();
    const BakeSettings &s = mPlan.settings;
    const std::filesystem::path path = s.outputDirectory
                                       / (s.baseName + "_vectorfield"
                                          + vectorFieldExtension(v.format));
    if (sim::Status st = writeVectorField(mAverage.mean(), v.format, path.string()); !st)
        return st;
    files.push_back(path);
    return sim::Status::success();
}

} // namespace plume
