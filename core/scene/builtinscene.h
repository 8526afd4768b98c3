// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/scene/scene.h>

#include <string>
#include <vector>

namespace plume {

/// The built-in scenes that need no file: "plume" (a hot smoke plume rising from a disc past a
/// round obstacle, closed walls and an open top) in 2D or 3D, and "ocean" (a 100 m periodic patch
/// of the ocean scheme's waves, always 2D; docs/ocean.md). They are scene documents like any
/// file's, simulated through SceneSimulation (`plume-cli simulate`, `plume-bench`).
struct BuiltinOptions
{
    int resolution = 128; ///< cells along each axis
    bool threeD = false;
    sim::Scheme scheme = sim::Scheme::Smoke;
    bool dye = true; ///< colour the smoke (three more advected fields)
};

/// Names accepted by makeBuiltinScene.
std::vector<std::string> builtinSceneNames();

/// The noisy source (docs/look.md) an emitter painted or drawn in the window gets, so that it
/// puffs from the start: puffs half the shape's narrowest width across but never under four
/// cells (smaller ones flicker in grain), amplitude 0.6, speed 1.5. The default (no noise) for
/// schemes that ignore it (all but smoke). The built-in plume keeps a steady source: the
/// benchmarks and their recorded figures use it.
EmitterNoiseSettings newEmitterNoise(const Shape &shape, const Scene &scene);

/// Builds a built-in scene; refuses an unknown name or a resolution outside
/// domainParams::resolution.
sim::Result<Scene> makeBuiltinScene(const std::string &name, const BuiltinOptions &options);

} // namespace plume
