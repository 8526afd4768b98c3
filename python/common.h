// SPDX-License-Identifier: Apache-2.0
#pragma once

// What the extension's files share: a scene from the package's JSON form, and the errors
// Python sees. The package (plume/__init__.py) keeps a scene as its JSON text (every key,
// core/io/scenewriter.h's sceneToJsonWithDefaults) and its folder; every edit goes back
// through the scene reader, so the same tables validate it as a .plume file.

#include <core/scene/scene.h>

#include <pybind11/pybind11.h>

#include <string>

#if defined(__SSE__) || defined(__x86_64__)
#include <xmmintrin.h>
#endif

namespace plume::python {

namespace py = pybind11;

/// Keeps the calling thread's floating-point mode across a call into the core: its kernels set
/// flush-to-zero and denormals-are-zero on the thread that runs them (sim/base/parallel.h),
/// and Python's own arithmetic (numpy's) must not inherit that.
#if defined(__SSE__) || defined(__x86_64__)
inline unsigned floatMode() { return _mm_getcsr(); }
inline void setFloatMode(unsigned mode) { _mm_setcsr(mode); }
#else
inline unsigned floatMode() { return 0; }
inline void setFloatMode(unsigned) {}
#endif

class FloatModeGuard
{
public:
    FloatModeGuard()
        : mMode(floatMode())
    {}
    ~FloatModeGuard() { setFloatMode(mMode); }
    FloatModeGuard(const FloatModeGuard &) = delete;
    FloatModeGuard &operator=(const FloatModeGuard &) = delete;
    /// The mode the thread had when the guard was made (Python's).
    unsigned outer() const { return mMode; }

private:
    unsigned mMode;
};

/// Reads the package's JSON text of a scene whose relative paths resolve against `directory`;
/// raises ValueError with the reader's message (the JSON path and what was expected).
Scene sceneFromJson(const std::string &json, const std::string &directory);

/// Raised by a bake stopped from its progress callback (plume.Cancelled).
void registerErrors(py::module_ &m);
extern py::object gCancelled;

void bindScenes(py::module_ &m);
void bindSimulation(py::module_ &m);
void bindBakes(py::module_ &m);
void bindWedges(py::module_ &m);

} // namespace plume::python
