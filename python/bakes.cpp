// SPDX-License-Identifier: Apache-2.0
// plume.bake: the bake plan (core/bake/bakeplan.h) and loop (baker.h) plume-cli runs, with the
// same refusals, raised as exceptions with the plan's message; progress through a callback
// that can stop the bake.
#include <core/bake/bakeplan.h>
#include <core/bake/baker.h>
#include <core/sim/base/parallel.h>

#include <python/common.h>

#include <pybind11/stl.h>

#include <optional>

namespace plume::python {

namespace {

/// Calls the Python progress callback (with the GIL) after every frame; False or an exception
/// from it stops the bake between frames.
class Progress : public BakeObserver
{
public:
    Progress(py::object callback, unsigned pythonFloatMode)
        : mCallback(std::move(callback))
        , mPythonMode(pythonFloatMode)
    {}
    void frameWritten(int frame, int done, int total, double ms) override
    {
        if (mCallback.is_none() || mStop)
            return;
        py::gil_scoped_acquire gil;
        const FloatModeGuard core; // the callback runs in Python's mode, the bake in its own
        setFloatMode(mPythonMode);
        try {
            const py::object r = mCallback(frame, done, total, ms);
            mStop = !r.is_none() && !r.cast<bool>();
        } catch (py::error_already_set &e) {
            mError = std::move(e);
            mStop = true;
        }
    }
    bool cancelRequested() override { return mStop; }

    std::optional<py::error_already_set> mError;
    bool mStop = false;

private:
    py::object mCallback;
    unsigned mPythonMode;
};

template<class T>
std::optional<T> optionalArg(const py::object &o)
{
    return o.is_none() ? std::nullopt : std::optional<T>(o.cast<T>());
}

[[noreturn]] void raise(PyObject *type, const std::string &message)
{
    PyErr_SetString(type, message.c_str());
    throw py::error_already_set();
}

py::list bake(const std::string &json, const std::string &directory, const std::string &name,
              const std::string &out, py::dict o, py::object progress, int threads)
{
    const Scene scene = sceneFromJson(json, directory);
    BakeSettings s;
    s.outputDirectory = out;
    s.baseName = name;
    s.plumeVersion = PLUME_VERSION;
    s.firstFrame = scene.simulation.frameStart;
    s.lastFrame = scene.simulation.frameEnd;
    ExportPresets presets = scene.exports;
    if (auto frames = optionalArg<std::pair<int, int>>(o["frames"])) {
        s.firstFrame = frames->first;
        s.lastFrame = frames->second;
        presets.flipbook.first = presets.flipbook.last = kBakeRange;
        presets.images.first = presets.images.last = kBakeRange;
    }
    if (auto flipbook = optionalArg<std::pair<int, int>>(o["flipbook"])) {
        presets.flipbook.enabled = true;
        presets.flipbook.rows = flipbook->first;
        presets.flipbook.columns = flipbook->second;
    }
    if (auto images = optionalArg<bool>(o["images"]))
        presets.images.enabled = *images;
    if (auto size = optionalArg<std::pair<int, int>>(o["size"])) {
        presets.render.width = size->first;
        presets.render.height = size->second;
    }
    s.render = presets.render;
    s.flipbook = presets.flipbook;
    s.images = presets.images;
    s.openvdb = presets.openvdb;
    s.mesh = optionalArg<bool>(o["mesh"]).value_or(false);
    const std::optional<bool> vdb = optionalArg<bool>(o["vdb"]);
    if (auto cache = optionalArg<std::string>(o["from_cache"]))
        s.fromCache = *cache;
    if (auto chunk = optionalArg<std::pair<int, int>>(o["chunk"])) {
        s.chunk = true;
        s.chunkFirst = chunk->first;
        s.chunkLast = chunk->second;
    }
    if (optionalArg<bool>(o["cache_only"]).value_or(false)) {
        s.flipbook.enabled = s.images.enabled = false;
        s.vdb = true;
    } else {
        s.vdb = vdb.value_or(s.fromCache.empty() && vdbByDefault(presets, false, s.mesh));
    }
    s.checkpointEvery = s.fromCache.empty() ? optionalArg<int>(o["checkpoint_every"]).value_or(0) : 0;
    s.resume = optionalArg<bool>(o["resume"]).value_or(false);

    const PlannedBake planned = planBake(scene, s);
    if (!planned.ok())
        raise(planned.outcome == BakeOutcome::OutOfMemory ? PyExc_MemoryError : PyExc_ValueError,
              planned.message);
    const FloatModeGuard mode;
    Progress observer(std::move(progress), mode.outer());
    BakeResult result;
    {
        py::gil_scoped_release release;
        const sim::ThreadArena arena(threads);
        arena.run([&] { result = runBake(scene, planned.plan, &observer); });
    }
    if (observer.mError)
        throw std::move(*observer.mError);
    if (isCancelled(result.outcome))
        raise(gCancelled.ptr(), result.status.error);
    if (!result.status)
        raise(result.outcome == BakeOutcome::ResumeRefused ? PyExc_ValueError : PyExc_RuntimeError,
              result.status.error);
    py::list files;
    for (const std::filesystem::path &f : result.files)
        files.append(f.string());
    return files;
}

} // namespace

void bindBakes(py::module_ &m)
{
    m.def("bake", &bake, py::arg("json"), py::arg("directory"), py::arg("name"), py::arg("out"),
          py::arg("options"), py::arg("progress"), py::arg("threads"),
          "Plans and runs a bake (the package's plume.bake documents the options).");
}

} // namespace plume::python
