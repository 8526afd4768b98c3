// SPDX-License-Identifier: Apache-2.0
#include "renderbench.h"

#include <core/render/renderer.h>
#include <core/scene/builtinscene.h>
#include <core/scene/scenesimulation.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

namespace plume::bench {

int runRenderBench(int resolution, int frames, int repeats)
{
    BuiltinOptions options;
    options.resolution = resolution;
    options.threeD = true;
    options.dye = false;
    Scene scene;
    auto builtin = makeBuiltinScene("plume", options);
    if (!builtin) {
        std::fprintf(stderr, "plume-bench: %s\n", builtin.error().c_str());
        return 1;
    }
    scene = builtin.take();
    SceneSimulation simulation;
    if (sim::Status st = simulation.setScene(scene); !st) {
        std::fprintf(stderr, "plume-bench: %s\n", st.error.c_str());
        return 1;
    }
    for (int f = 1; f <= frames; ++f)
        if (const sim::FrameStats s = simulation.advance(f); !s.status) {
            std::fprintf(stderr, "plume-bench: %s\n", s.status.error.c_str());
            return 1;
        }
    RenderSettings defaults;
    defaults.width = defaults.height = 384;
    FrameFields fields;
    sampleFrameFields(simulation.solver(), defaults, false,
                      simulation.solver().params().ambientTemperature, fields);

    struct Mode
    {
        const char *name;
        RenderSettings settings;
        bool sixWay;
    };
    RenderSettings single = defaults, multiple = defaults, sky = defaults, glow = defaults;
    single.multipleScattering = 0.f;
    single.ambient = 0.f;
    single.emissionScattering = 0.f;
    multiple.ambient = 0.f;
    multiple.emissionScattering = 0.f;
    sky.emissionScattering = 0.f;
    glow.emissionMin = 0.1f; // the built-in plume is warm, not hot: make it glow
    const Mode modes[] = {{"single scattering (the model before)", single, false},
                          {"+ multiple scattering", multiple, false},
                          {"+ sky and ground", sky, false},
                          {"+ emission light (glowing plume)", glow, false},
                          {"defaults + six-way lightmaps", defaults, true}};
    std::printf("| %d^3 plume, frame %d, 384 x 384 | median ms | of %d runs |\n|---|---|---|\n",
                resolution, frames, repeats);
    for (const Mode &m : modes) {
        PassRequest passes;
        passes.sixWay = m.sixWay;
        std::vector<double> ms;
        for (int r = 0; r < repeats; ++r) {
            const auto start = std::chrono::steady_clock::now();
            const RenderedFrame frame = renderFrame(fields, m.settings, passes, 24.f);
            ms.push_back(
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                    .count());
            if (frame.color.empty())
                return 1;
        }
        std::sort(ms.begin(), ms.end());
        std::printf("| %s | %.0f | %d |\n", m.name, ms[ms.size() / 2], repeats);
        std::fflush(stdout);
    }
    return 0;
}

} // namespace plume::bench
