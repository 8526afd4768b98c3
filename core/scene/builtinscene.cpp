#include "builtinscene.h"

#include <sim/parallel.h>

#include <algorithm>
#include <cmath>

namespace plume {

using namespace sim;

std::vector<std::string> builtinSceneNames() { return {"plume"}; }

ScalarGrid sphereCoverage(const Domain &domain, Vec3 centre, float radius)
{
    ScalarGrid g(domain.cells, kCellCentre);
    const float h = domain.cellSize;
    forEachRow(domain.cells, [&](int j, int k) {
        for (int i = 0; i < domain.cells.x; ++i) {
            Vec3 d = domain.cellCentre(i, j, k) - centre;
            if (domain.is2D())
                d.z = 0.f;
            // Signed distance to the surface in cells, turned into a one-cell ramp.
            const float s = (length(d) - radius) / h;
            g(i, j, k) = std::clamp(0.5f - s, 0.f, 1.f);
        }
    });
    return g;
}

bool makeBuiltinScene(const std::string &name, const BuiltinOptions &options, SceneSetup &out,
                      std::string *error)
{
    if (name != "plume") {
        if (error)
            *error = "unknown built-in scene '" + name + "' (known: plume)";
        return false;
    }
    if (options.resolution < 8 || options.resolution > 4096) {
        if (error)
            *error = "resolution " + std::to_string(options.resolution)
                     + " must lie in [8, 4096]";
        return false;
    }
    const int n = options.resolution;
    SceneSetup s;
    s.name = options.threeD ? "plume3d" : "plume";
    s.domain.cells = {n, n, options.threeD ? n : 1};
    s.domain.cellSize = 1.f / float(n);
    s.domain.boundaries = allBoundaries(Boundary::Wall);
    s.domain.boundaries[int(Face::YMax)] = Boundary::Open;

    s.params.scheme = options.scheme;
    s.params.buoyancyTemperature = 1.5f;
    s.params.buoyancyDensity = 0.05f;
    s.params.temperatureDissipation = 0.3f;
    s.params.vorticity = options.scheme == Scheme::Smoke ? 0.2f : 0.f;
    s.params.advection = AdvectionOrder::MacCormack;
    s.params.pressure.tolerance = 1e-5;
    if (options.scheme == Scheme::Stam) {
        // Stam's unit box, a little diffusion as in the paper's demo.
        s.params.viscosity = 0.f;
        s.params.diffusion = 0.f;
    }
    s.time.frameRate = 24.f;
    s.time.substeps = 2;

    const float z = options.threeD ? 0.5f : 0.5f / float(n);
    const Vec3 source{0.5f, 0.12f, z};
    const Vec3 obstacle{0.5f, 0.55f, z};
    const ScalarGrid emit = sphereCoverage(s.domain, source, 0.08f);
    const ScalarGrid solid = sphereCoverage(s.domain, obstacle, 0.12f);

    s.solids.reshape(s.domain.cells);
    for (std::size_t c = 0; c < solid.count(); ++c) {
        if (solid[c] >= 0.5f)
            s.solids.data()[c] = std::uint8_t(CellType::Solid);
    }
    Emitter e;
    e.mask = SparseMask::fromDense(emit);
    e.density = 3.f;
    e.temperature = 6.f;
    if (options.dye)
        e.dye = {2.4f, 1.2f, 0.4f};
    e.velocityMode = EmitterVelocity::Force;
    e.velocity = {0.f, 2.f, 0.f};
    s.emitters.push_back(std::move(e));
    out = std::move(s);
    return true;
}

} // namespace plume
