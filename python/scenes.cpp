// SPDX-License-Identifier: Apache-2.0
// Scenes: read, checked, written, built in. The JSON text is the scene format's own, so an
// attribute of a plume.Scene is a key of docs/scene-format.md.
#include <python/common.h>

#include <core/io/scenereader.h>
#include <core/io/scenewriter.h>
#include <core/scene/builtinscene.h>

#include <QFileInfo>

#include <pybind11/stl.h>

#include <tuple>
#include <vector>

namespace plume::python {

namespace {

/// A reader warning for Python: (kind, JSON path, message); the kind is toString(ReadWarningKind).
using Warning = std::tuple<std::string, std::string, std::string>;
/// (JSON with every key, folder, warnings) of a read scene.
using ReadScene = std::tuple<std::string, std::string, std::vector<Warning>>;

ReadScene result(const SceneReadResult &r)
{
    if (!r.ok)
        throw py::value_error(r.error);
    std::vector<Warning> warnings;
    for (const ReadWarning &w : r.warnings)
        warnings.emplace_back(toString(w.kind), w.path, w.message);
    return {sceneToJsonWithDefaults(r.scene).toStdString(), r.scene.directory, warnings};
}

} // namespace

Scene sceneFromJson(const std::string &json, const std::string &directory)
{
    SceneReadResult r = readSceneJson(QByteArray::fromStdString(json), "scene", directory);
    if (!r.ok)
        throw py::value_error(r.error);
    return std::move(r.scene);
}

void bindScenes(py::module_ &m)
{
    m.def(
        "read_scene",
        [](const std::string &path) {
            const QString file = QString::fromStdString(path);
            if (!QFileInfo(file).isFile())
                throw py::value_error(path + ": no such scene file");
            return result(readSceneFile(file));
        },
        py::arg("path"),
        "Reads a .plume file: (JSON with every key, its folder, warnings as (kind, path, "
        "message)); ValueError names the file, the JSON path and what was expected.");
    m.def(
        "check_scene",
        [](const std::string &json, const std::string &directory) {
            return result(readSceneJson(QByteArray::fromStdString(json), "scene", directory));
        },
        py::arg("json"), py::arg("directory"),
        "Validates scene JSON as the reader does: (JSON with every key, folder, warnings as "
        "(kind, path, message)).");
    m.def(
        "write_scene",
        [](const std::string &json, const std::string &directory, const std::string &path) {
            const Scene scene = sceneFromJson(json, directory);
            if (sim::Status st = writeSceneFile(scene, QString::fromStdString(path)); !st)
                throw py::value_error(st.error);
            // The scene as the file holds it: relative paths now resolve from its folder.
            return result(readSceneFile(QString::fromStdString(path)));
        },
        py::arg("json"), py::arg("directory"), py::arg("path"),
        "Writes a .plume file atomically (relative image and model paths rewritten for its "
        "folder); returns the scene as read back from it.");
    m.def(
        "builtin_scene",
        [](const std::string &name, int dimension, int resolution) {
            if (dimension != 2 && dimension != 3)
                throw py::value_error("dimension must be 2 or 3, got "
                                      + std::to_string(dimension));
            BuiltinOptions options;
            options.threeD = dimension == 3;
            options.resolution = resolution;
            const auto scene = makeBuiltinScene(name, options);
            if (!scene)
                throw py::value_error(scene.error());
            return sceneToJsonWithDefaults(scene.value()).toStdString();
        },
        py::arg("name"), py::arg("dimension"), py::arg("resolution"),
        "The JSON of a built-in scene (names: builtin_names()).");
    m.def("builtin_names", &builtinSceneNames, "The built-in scenes' names.");
}

} // namespace plume::python
