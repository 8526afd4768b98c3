// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace plume::bench {

/// plume-bench --reference: Plume's smoke step against Stam's published 2D solver at 512^2 and
/// Ash's 3D port at 128^3 (referencebench.cpp), alternating in one run. `only`: "2d", "3d" or
/// empty for both. Returns the exit code.
int runReferenceBench(int warmup, int steps, const std::string &only);

} // namespace plume::bench
