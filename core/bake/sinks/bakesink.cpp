// SPDX-License-Identifier: Apache-2.0
#include <core/bake/sinks/bakesink.h>

namespace plume {

std::filesystem::path framePath(const BakeSettings &s, int frame, const char *extension)
{
    return s.outputDirectory / frameFileName(s.baseName, frame, extension);
}

} // namespace plume
