// SPDX-License-Identifier: Apache-2.0
#pragma once

// What the extension's files share: a scene from the package's JSON form, and the errors
// Python sees. The package (plume/__init__.py) keeps a scene as its JSON text (every key,
// core/io/scenewriter.h's sceneToJsonWithDefaults) and its folder; every edit goes back
// through the scene reader, so the same tables validate it as a .plume file.

#include <core/scene/scene.h>

#include <pybind11/pybind11.h>

#include <string>

namespace plume::python {

namespace py = pybind11;

/// Reads the package's JSON text of a scene whose relative paths resolve against `directory`;
/// raises ValueError with the reader's message (the JSON path and what was expected).
Scene sceneFromJson(const std::string &json, const std::string &directory);

/// Raised by a bake stopped from its progress callback (plume.Cancelled).
void registerErrors(py::module_ &m);
extern py::object gCancelled;

void bindScenes(py::module_ &m);
void bindSimulation(py::module_ &m);
void bindBakes(py::module_ &m);

} // namespace plume::python
