// SPDX-License-Identifier: Apache-2.0
#include <core/scene/builtinscene.h>

#include <algorithm>

namespace plume {

using namespace sim;

std::vector<std::string> builtinSceneNames() { return {"plume", "ocean"}; }

namespace {

/// A 100 m periodic patch of ocean waves (the ocean scheme; `threeD` and `scheme` do not apply).
Scene oceanScene(int resolution)
{
    Scene s;
    s.name = "ocean";
    s.domain.dimension = Dimension::TwoD;
    s.domain.size = {100.f, 100.f, 1.f};
    s.domain.resolution = resolution;
    s.domain.boundaries = allBoundaries(Boundary::Periodic);
    s.simulation.params.scheme = Scheme::Ocean;
    s.simulation.time.frameRate = 24.f;
    return s;
}

} // namespace

sim::Result<Scene> makeBuiltinScene(const std::string &name, const BuiltinOptions &options)
{
    if (name != "plume" && name != "ocean")
        return sim::Status::failure("unknown built-in scene '" + name + "' (known: plume, ocean)");
    if (!domainParams::resolution.contains(options.resolution))
        return sim::Status::failure("resolution " + std::to_string(options.resolution) + " must be "
                                    + domainParams::resolution.describe());
    if (name == "ocean")
        return oceanScene(options.resolution);
    Scene s;
    s.name = options.threeD ? "plume3d" : "plume";
    s.domain.dimension = options.threeD ? Dimension::ThreeD : Dimension::TwoD;
    s.domain.size = {1.f, 1.f, 1.f};
    s.domain.resolution = options.resolution;
    s.domain.boundaries = allBoundaries(Boundary::Wall);
    s.domain.boundaries[int(Face::YMax)] = Boundary::Open;

    SimParams &p = s.simulation.params;
    p.scheme = options.scheme;
    p.buoyancyTemperature = 1.5f;
    p.buoyancyDensity = 0.05f;
    p.temperatureDissipation = 0.3f;
    p.vorticity = options.scheme == Scheme::Smoke ? 0.2f : 0.f;
    p.advection = AdvectionOrder::MonotoneCubic; // sharp smoke without grain (docs/advection.md)
    p.velocityAdvection = AdvectionOrder::SemiLagrangian;
    p.pressure.tolerance = 1e-5;
    s.simulation.time.frameRate = 24.f;
    s.simulation.time.substeps = 2;

    // Shapes are flattened to z = 0 in 2D; in 3D they sit in the middle.
    const float z = 0.5f;
    Item source;
    source.name = "source";
    source.kind = ItemKind::Emitter;
    source.shape.type = ShapeType::Sphere;
    source.shape.centre = {0.5f, 0.12f, z};
    source.shape.radius = 0.08f;
    source.emitter.density = 3.f;
    source.emitter.temperature = 6.f;
    if (options.dye)
        source.emitter.dye = {2.4f, 1.2f, 0.4f};
    source.emitter.velocityMode = EmitterVelocity::Force;
    source.emitter.velocity = {0.f, 2.f, 0.f};
    Item obstacle;
    obstacle.name = "obstacle";
    obstacle.kind = ItemKind::Obstacle;
    obstacle.shape.type = ShapeType::Sphere;
    obstacle.shape.centre = {0.5f, 0.55f, z};
    obstacle.shape.radius = 0.12f;
    s.items = {std::move(source), std::move(obstacle)};
    return s;
}

namespace {

/// Half the narrowest width of a shape, world units: a sphere's or capsule's radius, a box's
/// smallest half size, a stroke's widest point (0 for shapes from files).
float shapeHalfWidth(const Shape &shape)
{
    switch (shape.type) {
    case ShapeType::Sphere:
    case ShapeType::Capsule: return shape.radius;
    case ShapeType::Box: return std::min({shape.halfSize.x, shape.halfSize.y, shape.halfSize.z});
    case ShapeType::Stroke: {
        float r = 0.f;
        for (const StrokePoint &p : shape.points)
            r = std::max(r, p.radius);
        return r;
    }
    default: return 0.f;
    }
}

} // namespace

EmitterNoiseSettings newEmitterNoise(const Shape &shape, const Scene &scene)
{
    EmitterNoiseSettings noise;
    if (scene.simulation.params.scheme != Scheme::Smoke)
        return noise;
    noise.size = std::max(shapeHalfWidth(shape), 4.f * domainCellSize(scene.domain));
    noise.amplitude = Animated<float>(0.6f);
    noise.speed = 1.5f;
    return noise;
}

} // namespace plume
