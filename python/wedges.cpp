// SPDX-License-Identifier: Apache-2.0
// plume.wedge: variations of a scene as scene files and a manifest (core/bake/wedge.h), the
// same as plume-cli wedge writes, with the same refusals raised as ValueError.
#include <core/bake/wedge.h>

#include <python/common.h>

#include <pybind11/stl.h>

#include <QDir>
#include <QFileInfo>

#include <optional>

namespace plume::python {

namespace {

/// (manifest path, scene file paths) of the wedge written to `out`.
std::pair<std::string, std::vector<std::string>>
wedge(const std::string &json, const std::string &directory, const std::string &stem,
      const std::string &source, const std::string &out,
      const std::vector<std::pair<std::string, std::string>> &vary,
      std::optional<int> randomCount, std::uint32_t seed)
{
    const Scene scene = sceneFromJson(json, directory);
    WedgeSpec spec;
    for (const auto &[key, values] : vary) {
        if (sim::Status checked = checkWedgeKey(key); !checked)
            throw py::value_error(checked.error);
        auto axis = parseWedgeValues(key, values);
        if (!axis)
            throw py::value_error(axis.error());
        spec.axes.push_back(axis.take());
    }
    if (randomCount)
        spec.random = WedgeRandom{*randomCount, seed};
    const std::string folder = QDir(QString::fromStdString(out)).absolutePath().toStdString();
    const auto planned = planWedge(scene, source, stem, spec, folder);
    if (!planned)
        throw py::value_error(planned.error());
    const WedgePlan &plan = planned.value();
    if (sim::Status st = writeWedge(plan, stem, folder); !st)
        throw std::runtime_error(st.error);
    std::vector<std::string> scenes;
    for (const WedgeVariation &v : plan.manifest.variations)
        scenes.push_back(QDir(QString::fromStdString(folder))
                             .filePath(QString::fromStdString(v.scene))
                             .toStdString());
    return {wedgeManifestPath(folder, stem).toStdString(), scenes};
}

} // namespace

void bindWedges(py::module_ &m)
{
    m.def("wedge", &wedge, py::arg("json"), py::arg("directory"), py::arg("stem"),
          py::arg("source"), py::arg("out"), py::arg("vary"), py::arg("random_count"),
          py::arg("seed"), "Writes a wedge (the package's plume.wedge documents it).");
    m.def(
        "wedge_keys",
        [](const std::string &json, const std::string &directory) {
            return wedgeKeys(sceneFromJson(json, directory));
        },
        py::arg("json"), py::arg("directory"), "The keys a wedge can vary in a scene.");
}

} // namespace plume::python
