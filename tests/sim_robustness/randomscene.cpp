// SPDX-License-Identifier: Apache-2.0
#include "randomscene.h"

#include <cmath>
#include <string>

namespace plume::testing {

namespace {

/// SplitMix64 (Steele, Lea and Flood 2014): small, fast, and the same everywhere.
class Random
{
public:
    explicit Random(std::uint64_t seed)
        : mState(seed)
    {}

    std::uint64_t next()
    {
        std::uint64_t z = (mState += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    /// Uniform in [lo, hi).
    float uniform(float lo, float hi) { return lo + (hi - lo) * float(next() >> 40) / 16777216.f; }
    /// Uniform in [0, n).
    int below(int n) { return int(next() % std::uint64_t(n)); }
    bool chance(float p) { return uniform(0.f, 1.f) < p; }

private:
    std::uint64_t mState;
};

sim::Vec3 point(Random &r, bool threeD)
{
    return {r.uniform(0.05f, 0.95f), r.uniform(0.05f, 0.95f),
            threeD ? r.uniform(0.05f, 0.95f) : 0.5f};
}

sim::Vec3 direction(Random &r, bool threeD, float length)
{
    sim::Vec3 d{r.uniform(-1.f, 1.f), r.uniform(-1.f, 1.f), threeD ? r.uniform(-1.f, 1.f) : 0.f};
    const float n = std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
    if (n < 1e-3f)
        return {0.f, length, 0.f};
    return {d.x * length / n, d.y * length / n, d.z * length / n};
}

// A stroke: a wandering line of points, or (closed) a ring that seals off what it surrounds.
Shape stroke(Random &r, bool threeD, bool closed, sim::Vec3 around)
{
    Shape s;
    s.type = ShapeType::Stroke;
    const float width = r.uniform(0.008f, 0.03f);
    if (closed) {
        const float radius = r.uniform(0.06f, 0.16f);
        const int count = 24;
        for (int n = 0; n <= count; ++n) {
            const float a = 6.2831853f * float(n) / float(count);
            s.points.push_back(
                {{around.x + radius * std::cos(a), around.y + radius * std::sin(a), around.z},
                 width,
                 1.f,
                 {}});
        }
        return s;
    }
    sim::Vec3 p = point(r, threeD);
    const int count = 3 + r.below(12);
    for (int n = 0; n < count; ++n) {
        s.points.push_back({p, width * r.uniform(0.5f, 1.5f), r.uniform(0.3f, 1.f), {}});
        const sim::Vec3 step = direction(r, threeD, r.uniform(0.02f, 0.08f));
        p = {p.x + step.x, p.y + step.y, p.z + step.z};
    }
    return s;
}

Shape shape(Random &r, bool threeD, bool forStrokes)
{
    Shape s;
    switch (r.below(forStrokes ? 4 : 3)) {
    case 0:
        s.type = ShapeType::Sphere;
        s.centre = point(r, threeD);
        s.radius = r.uniform(0.01f, 0.09f);
        break;
    case 1:
        s.type = ShapeType::Box;
        s.centre = point(r, threeD);
        s.halfSize = {r.uniform(0.005f, 0.12f), r.uniform(0.005f, 0.12f), r.uniform(0.01f, 0.1f)};
        s.rotation = r.uniform(-180.f, 180.f);
        break;
    case 2:
        s.type = ShapeType::Capsule;
        s.start = point(r, threeD);
        s.end = point(r, threeD);
        s.radius = r.uniform(0.006f, 0.05f);
        break;
    default: s = stroke(r, threeD, false, {}); break;
    }
    return s;
}

Item item(std::string name, ItemKind kind, Shape s)
{
    Item i;
    i.name = std::move(name);
    i.kind = kind;
    i.shape = std::move(s);
    return i;
}

void randomEmitter(Random &r, bool threeD, Item &i)
{
    EmitterSettings &e = i.emitter;
    e.density = r.uniform(0.f, 5.f);
    e.temperature = r.uniform(0.f, 8.f);
    if (r.chance(0.4f))
        e.dye = {r.uniform(0.f, 3.f), r.uniform(0.f, 3.f), r.uniform(0.f, 3.f)};
    e.velocityMode = sim::EmitterVelocity(r.below(3));
    e.velocity = direction(r, threeD, r.uniform(0.f, 4.f));
}

} // namespace

Scene randomScene(std::uint32_t seed, bool threeD)
{
    Random r(0x5eedull * 1000003ull + seed);
    Scene scene;
    scene.name = "random-" + std::to_string(seed);
    DomainSettings &d = scene.domain;
    d.dimension = threeD ? Dimension::ThreeD : Dimension::TwoD;
    d.resolution = threeD ? 24 + 4 * r.below(3) : 64 + 16 * r.below(3);
    d.size = {1.f, r.uniform(0.7f, 1.3f), threeD ? r.uniform(0.7f, 1.f) : 1.f};
    // A quarter are closed boxes (the whole system singular), the rest mix every mode.
    const bool closedBox = r.chance(0.25f);
    for (int axis = 0; axis < (threeD ? 3 : 2); ++axis) {
        const int mode = closedBox ? 0 : r.below(4);
        auto &b = d.boundaries;
        if (mode == 3) {
            b[std::size_t(2 * axis)] = b[std::size_t(2 * axis + 1)] = sim::Boundary::Periodic;
        } else {
            b[std::size_t(2 * axis)] = mode == 1 ? sim::Boundary::Open : sim::Boundary::Wall;
            b[std::size_t(2 * axis + 1)] = r.chance(0.5f) ? sim::Boundary::Open
                                                          : sim::Boundary::Wall;
            if (closedBox)
                b[std::size_t(2 * axis + 1)] = sim::Boundary::Wall;
        }
    }
    SimulationSettings &s = scene.simulation;
    s.frameStart = 1;
    s.frameEnd = 30;
    s.seed = seed;
    s.time.substeps = 1 + r.below(3);
    s.params.vorticity = r.chance(0.5f) ? r.uniform(0.f, 0.6f) : 0.f;
    s.params.buoyancyTemperature = r.uniform(0.f, 3.f);
    s.params.buoyancyDensity = r.uniform(0.f, 0.5f);
    s.params.accountingDensity = r.chance(0.3f);

    int n = 0;
    auto name = [&n](const char *prefix) { return prefix + std::to_string(n++); };
    const int obstacles = 8 + r.below(48);
    for (int o = 0; o < obstacles; ++o)
        scene.items.push_back(item(name("obstacle"), ItemKind::Obstacle, shape(r, threeD, true)));
    const int emitters = 1 + r.below(6);
    for (int e = 0; e < emitters; ++e) {
        Item i = item(name("emitter"), ItemKind::Emitter, shape(r, threeD, true));
        randomEmitter(r, threeD, i);
        scene.items.push_back(std::move(i));
    }
    // Sealed pockets: rings of obstacle around an emitter (some pushing fluid in).
    const int rings = r.below(4);
    for (int p = 0; p < rings; ++p) {
        const sim::Vec3 c = point(r, threeD);
        Shape inside;
        inside.type = ShapeType::Sphere;
        inside.centre = c;
        inside.radius = 0.03f;
        Item e = item(name("sealed"), ItemKind::Emitter, inside);
        randomEmitter(r, threeD, e);
        scene.items.push_back(std::move(e));
        if (threeD) {
            // A hollow box of six slabs seals a volume.
            const float h = r.uniform(0.06f, 0.14f), t = 0.03f;
            for (int axis = 0; axis < 3; ++axis) {
                for (int side = -1; side <= 1; side += 2) {
                    Shape slab;
                    slab.type = ShapeType::Box;
                    slab.centre = c;
                    slab.halfSize = {h + t, h + t, h + t};
                    (&slab.centre.x)[axis] += float(side) * h;
                    (&slab.halfSize.x)[axis] = t;
                    scene.items.push_back(item(name("wall"), ItemKind::Obstacle, slab));
                }
            }
        } else {
            scene.items.push_back(
                item(name("ring"), ItemKind::Obstacle, stroke(r, threeD, true, c)));
        }
    }
    const int forces = r.below(9);
    for (int f = 0; f < forces; ++f) {
        Shape region = r.chance(0.3f) ? Shape{} : shape(r, threeD, true);
        if (r.chance(0.3f))
            region.type = ShapeType::Everywhere;
        Item i = item(name("force"), ItemKind::ForceField, region);
        ForceSettings &fs = i.force;
        fs.type = sim::ForceType(r.below(5));
        fs.strength = r.uniform(-6.f, 10.f);
        if (fs.type == sim::ForceType::Drag)
            fs.strength = r.uniform(0.f, 4.f);
        fs.direction = direction(r, threeD, 1.f);
        fs.centre = point(r, threeD);
        fs.scale = r.uniform(0.05f, 0.4f);
        fs.falloff = r.uniform(0.f, 0.1f);
        scene.items.push_back(std::move(i));
    }
    return scene;
}

} // namespace plume::testing
