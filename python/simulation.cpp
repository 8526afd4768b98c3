// SPDX-License-Identifier: Apache-2.0
// plume.Simulation: a scene simulated frame by frame through SceneSimulation, the frame loop
// of plume-cli bake, so the fields are the bytes a bake writes. The solver runs in its own
// oneTBB arena of `threads` workers with the GIL released.
#include <core/io/scenehash.h>
#include <core/scene/scenesimulation.h>
#include <core/sim/base/parallel.h>
#include <core/sim/run/memoryestimate.h>


#include <python/common.h>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstring>
#include <memory>
#include <span>

namespace plume::python {

namespace {

class PySimulation
{
public:
    PySimulation(const std::string &json, const std::string &directory, int threads)
        : mScene(sceneFromJson(json, directory))
        , mArena(threads)
    {
        if (threads < 0)
            throw py::value_error("threads must be 0 (all cores) or more, got "
                                  + std::to_string(threads));
        const sim::Domain domain = makeDomain(mScene.domain);
        if (sim::Status st = sim::checkMemory(domain, mScene.simulation.params); !st) {
            PyErr_SetString(PyExc_MemoryError, st.error.c_str());
            throw py::error_already_set();
        }
        sim::Status st;
        const FloatModeGuard mode;
        mArena.run([&] { st = mSimulation.setScene(mScene); });
        if (!st)
            throw py::value_error(st.error);
        mHash = sceneHash(mScene);
    }

    /// The scene frame last simulated (frameStart - 1 before the first).
    int frame() const
    {
        return mScene.simulation.frameStart - 1 + mSimulation.simulation().frame();
    }

    py::dict advance(int count)
    {
        if (count < 1)
            throw py::value_error("advance() needs a count of 1 or more, got "
                                  + std::to_string(count));
        sim::FrameStats stats;
        std::string sides; // smoke at the open sides, in any of the frames
        {
            const FloatModeGuard mode;
            py::gil_scoped_release release;
            for (int n = 0; n < count && stats.status.ok(); ++n) {
                mArena.run([&] { stats = mSimulation.advance(frame() + 1); });
                if (!stats.smokeAtSides.empty())
                    sides += (sides.empty() ? "frame " : "; frame ") + std::to_string(frame())
                             + ": " + stats.smokeAtSides;
            }
        }
        if (!stats.status)
            throw std::runtime_error(stats.status.error);
        mLast = stats;
        mLast.smokeAtSides = sides;
        return statsDict();
    }

    py::dict statsDict() const
    {
        py::dict d;
        d["frame"] = frame();
        d["substeps"] = mLast.substeps;
        d["pressure_iterations"] = mLast.pressureIterations;
        d["pressure_residual"] = mLast.pressureResidual;
        d["pressure_converged"] = mLast.pressureConverged;
        d["pressure_fallbacks"] = mLast.pressureFallbacks;
        d["milliseconds"] = mLast.milliseconds;
        d["note"] = sim::pressureTrouble(mLast);
        d["smoke_at_sides"] = mLast.smokeAtSides;
        return d;
    }

    /// (array, voxel size, origin): the field at cell centres over the sampled cells, shape
    /// (nx, ny, nz), index [i, j, k], Fortran order (x fastest, as the solver stores it).
    py::tuple field(const std::string &name) const
    {
        sim::FieldKind kind{};
        if (!sim::kFieldKindNames.parse(name, kind))
            throw py::value_error("no field '" + name + "'; expected "
                                  + sim::kFieldKindNames.expected());
        sim::ScalarGrid grid;
        {
            const FloatModeGuard mode;
            py::gil_scoped_release release;
            mArena.run([&] { mSimulation.solver().sample(kind, grid); });
        }
        const sim::Domain &d = mSimulation.solver().sampleDomain();
        py::array_t<float, py::array::f_style> out({std::size_t(d.cells.x),
                                                    std::size_t(d.cells.y),
                                                    std::size_t(d.cells.z)});
        std::memcpy(out.mutable_data(), grid.data(), grid.count() * sizeof(float));
        return py::make_tuple(out, d.cellSize, py::make_tuple(d.origin.x, d.origin.y, d.origin.z));
    }

    py::bytes checkpoint() const
    {
        std::vector<std::uint8_t> data;
        if (sim::Status st = mSimulation.saveCheckpoint(mHash, data); !st)
            throw std::runtime_error(st.error);
        return py::bytes(reinterpret_cast<const char *>(data.data()), data.size());
    }

    void restore(const py::bytes &data)
    {
        const std::string_view view = data;
        const std::span<const std::uint8_t> bytes(
            reinterpret_cast<const std::uint8_t *>(view.data()), view.size());
        const FloatModeGuard mode;
        if (sim::Status st = mSimulation.restoreCheckpoint(bytes, mHash); !st)
            throw py::value_error(st.error);
        mLast = {};
    }

    py::tuple cells() const
    {
        const sim::Int3 c = mSimulation.solver().sampleDomain().cells;
        return py::make_tuple(c.x, c.y, c.z);
    }

private:
    Scene mScene;
    sim::ThreadArena mArena;
    SceneSimulation mSimulation;
    std::uint64_t mHash = 0;
    sim::FrameStats mLast;
};

} // namespace

void bindSimulation(py::module_ &m)
{
    py::class_<PySimulation>(m, "Simulation")
        .def(py::init<const std::string &, const std::string &, int>(), py::arg("json"),
             py::arg("directory"), py::arg("threads"))
        .def_property_readonly("frame", &PySimulation::frame)
        .def_property_readonly("stats", &PySimulation::statsDict)
        .def_property_readonly("cells", &PySimulation::cells)
        .def("advance", &PySimulation::advance, py::arg("count") = 1)
        .def("field", &PySimulation::field, py::arg("name"))
        .def("checkpoint", &PySimulation::checkpoint)
        .def("restore", &PySimulation::restore, py::arg("data"));
    m.def("field_names", [] {
        std::vector<std::string> names;
        for (std::size_t n = 0; n < sim::kFieldKindNames.names.size(); ++n)
            names.emplace_back(sim::kFieldKindNames.names[n]);
        return names;
    });
}

} // namespace plume::python
