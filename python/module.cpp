// SPDX-License-Identifier: Apache-2.0
// The extension module `plume._plume` (docs/python.md): scenes, simulation and bakes, each in
// its own file; plume/__init__.py is the package scripts import.
#include <python/common.h>

namespace plume::python {

py::object gCancelled;

void registerErrors(py::module_ &m)
{
    gCancelled = py::reinterpret_steal<py::object>(
        PyErr_NewExceptionWithDoc("plume._plume.Cancelled",
                                  "A bake stopped because its progress callback returned False.",
                                  PyExc_Exception, nullptr));
    m.attr("Cancelled") = gCancelled;
}

} // namespace plume::python

PYBIND11_MODULE(_plume, m)
{
    m.doc() = "Plume's core: scenes, simulation and bakes (docs/python.md).";
    m.attr("__version__") = PLUME_VERSION;
    plume::python::registerErrors(m);
    plume::python::bindScenes(m);
    plume::python::bindSimulation(m);
    plume::python::bindBakes(m);
    plume::python::bindWedges(m);
}
