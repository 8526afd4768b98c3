// SPDX-License-Identifier: Apache-2.0
#pragma once

// An example scene made small for a test: resources/scenes/<name>.plume at `resolution` cells
// on its long axis, simulating `frames` frames.

#include <core/io/scenereader.h>

#include <QString>
#include <QtGlobal>

namespace plume::test {

inline Scene loadExample(const char *name, int resolution, int frames)
{
    SceneReadResult r = readSceneFile(QString(PLUME_SOURCE_DIR "/resources/scenes/") + name
                                      + ".plume");
    if (!r.ok)
        qFatal("%s", r.error.c_str());
    r.scene.domain.resolution = resolution;
    r.scene.simulation.frameEnd = r.scene.simulation.frameStart + frames - 1;
    return r.scene;
}

} // namespace plume::test
