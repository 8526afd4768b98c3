#pragma once

#include "scenesetup.h"

#include <string>
#include <vector>

namespace plume {

/// The built-in scenes that need no file: "plume" (a hot smoke plume rising from a disc past a
/// round obstacle, closed walls and an open top) in 2D or 3D.
struct BuiltinOptions
{
    int resolution = 128;        ///< cells along each axis
    bool threeD = false;
    sim::Scheme scheme = sim::Scheme::Smoke;
    bool dye = true;             ///< colour the smoke (three more advected fields)
};

/// Names accepted by makeBuiltinScene.
std::vector<std::string> builtinSceneNames();

/// Builds a built-in scene. Returns false and sets `error` for an unknown name or a bad
/// resolution.
bool makeBuiltinScene(const std::string &name, const BuiltinOptions &options, SceneSetup &out,
                      std::string *error);

/// Anti-aliased coverage of a sphere (a disc in 2D, where z is ignored) on the domain's cells:
/// 1 well inside, 0 outside, linear across one cell at the edge.
sim::ScalarGrid sphereCoverage(const sim::Domain &domain, sim::Vec3 centre, float radius);

} // namespace plume
