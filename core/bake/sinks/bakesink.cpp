// SPDX-License-Identifier: Apache-2.0
#include <core/bake/sinks/bakesink.h>

#include <cstdio>

namespace plume {

std::string frameNumber(int frame)
{
    char number[16];
    std::snprintf(number, sizeof number, "%04d", frame);
    return number;
}

std::filesystem::path framePath(const BakeSettings &s, int frame, const char *extension)
{
    return s.outputDirectory / (s.baseName + "." + frameNumber(frame) + extension);
}

} // namespace plume
