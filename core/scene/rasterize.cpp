#include "rasterize.h"

#include <algorithm>

namespace plume {

namespace {

std::string itemLabel(const Item &item) { return "item '" + item.name + "'"; }

} // namespace

sim::Status checkScene(const Scene &scene)
{
    const DomainSettings &ds = scene.domain;
    if (!domainParams::resolution.contains(ds.resolution))
        return sim::Status::failure("domain: resolution is " + std::to_string(ds.resolution)
                                    + "; expected " + domainParams::resolution.describe());
    if (sim::Status s = makeDomain(ds).validate(kMaxCells); !s)
        return s;
    if (sim::Status s = scene.simulation.params.validate(); !s)
        return sim::Status::failure("simulation: " + s.error);
    const bool twoD = ds.dimension == Dimension::TwoD;
    for (const Item &item : scene.items) {
        const ShapeType t = item.shape.type;
        if (t == ShapeType::Everywhere && item.kind != ItemKind::ForceField)
            return sim::Status::failure(itemLabel(item)
                                        + ": shape 'everywhere' is for force fields only");
        if (t == ShapeType::Image && !twoD)
            return sim::Status::failure(itemLabel(item) + ": image masks need a 2d domain");
        if (t == ShapeType::Stroke && item.shape.points.empty())
            return sim::Status::failure(itemLabel(item) + ": a stroke needs at least one point");
    }
    return sim::Status::success();
}

sim::Status SceneRasterizer::setScene(const Scene &scene)
{
    mScene = Scene{};
    mSetup = SceneSetup{};
    mCache.clear();
    mImages.clear();
    if (sim::Status s = checkScene(scene); !s)
        return s;
    std::vector<MaskImage> images(scene.items.size());
    for (std::size_t n = 0; n < scene.items.size(); ++n) {
        const Item &item = scene.items[n];
        std::string error;
        if (item.shape.type == ShapeType::Image
            && !loadMaskImage(item.shape, scene.directory, images[n], &error))
            return sim::Status::failure(itemLabel(item) + ": " + error);
    }
    mScene = scene;
    mImages = std::move(images);
    mCache.assign(scene.items.size(), ItemCache{});
    mSetup.name = scene.name;
    mSetup.domain = makeDomain(scene.domain);
    mSetup.params = scene.simulation.params;
    mSetup.time = scene.simulation.time;
    mSetup.solids.reshape(mSetup.domain.cells);
    mFirst = true;
    mSolidSources.clear();
    mEmitterSources.clear();
    mForceSources.clear();
    return sim::Status::success();
}

bool SceneRasterizer::usesMask(const Item &item) const
{
    if (item.kind != ItemKind::ForceField)
        return true;
    const ShapeType t = item.shape.type;
    const bool analytic = t == ShapeType::Sphere || t == ShapeType::Everywhere
                          || (t == ShapeType::Box && item.shape.rotation == 0.f);
    return !analytic;
}

const sim::SparseMask &SceneRasterizer::coverage(std::size_t index, sim::Vec3 offset)
{
    ItemCache &c = mCache[index];
    if (!c.valid || !(c.offset == offset)) {
        const Item &item = mScene.items[index];
        const float falloff = item.kind == ItemKind::ForceField ? item.force.falloff : 0.f;
        c.coverage = shapeCoverage(mSetup.domain, item.shape, offset, falloff, &mImages[index]);
        c.offset = offset;
        c.valid = true;
        c.generation = mNextGeneration++;
    }
    return c.coverage;
}

InputChanges SceneRasterizer::update(double frame)
{
    std::vector<Source> solids, emitters, forces;
    for (std::size_t n = 0; n < mScene.items.size(); ++n) {
        const Item &item = mScene.items[n];
        if (!item.activeAt(frame))
            continue;
        Source src;
        src.item = n;
        src.offset = item.offset.at(frame);
        if (usesMask(item)) {
            coverage(n, src.offset);
            src.generation = mCache[n].generation;
        }
        switch (item.kind) {
        case ItemKind::Obstacle: solids.push_back(src); break;
        case ItemKind::Emitter:
            src.scalar = item.emitter.rate.at(frame);
            emitters.push_back(src);
            break;
        case ItemKind::ForceField:
            src.scalar = item.force.strength.at(frame);
            forces.push_back(src);
            break;
        }
    }
    InputChanges changes;
    changes.solids = mFirst || solids != mSolidSources;
    changes.emitters = mFirst || emitters != mEmitterSources;
    changes.forces = mFirst || forces != mForceSources;
    if (changes.solids)
        buildSolids(solids);
    if (changes.emitters)
        buildEmitters(emitters);
    if (changes.forces)
        buildForces(forces);
    mSolidSources = std::move(solids);
    mEmitterSources = std::move(emitters);
    mForceSources = std::move(forces);
    mFirst = false;
    return changes;
}

void SceneRasterizer::buildSolids(const std::vector<Source> &sources)
{
    mSetup.solids.reshape(mSetup.domain.cells);
    std::uint8_t *flags = mSetup.solids.data();
    for (const Source &s : sources) {
        const sim::SparseMask &m = mCache[s.item].coverage;
        for (std::size_t n = 0; n < m.size(); ++n) {
            if (m.weights[n] >= 0.5f)
                flags[m.cells[n]] = std::uint8_t(sim::CellType::Solid);
        }
    }
}

void SceneRasterizer::buildEmitters(const std::vector<Source> &sources)
{
    mSetup.emitters.clear();
    for (const Source &s : sources) {
        const EmitterSettings &es = mScene.items[s.item].emitter;
        const sim::SparseMask &m = mCache[s.item].coverage;
        if (m.empty())
            continue;
        sim::Emitter e;
        e.mask = m;
        e.density = es.density * s.scalar;
        e.temperature = es.temperature * s.scalar;
        e.dye = es.dye * s.scalar;
        e.fuel = es.fuel * s.scalar;
        e.ignite = es.ignite;
        e.velocityMode = es.velocityMode;
        e.velocity = es.velocity;
        mSetup.emitters.push_back(std::move(e));
    }
}

void SceneRasterizer::buildForces(const std::vector<Source> &sources)
{
    mSetup.forces.clear();
    for (const Source &s : sources) {
        const Item &item = mScene.items[s.item];
        const ForceSettings &fs = item.force;
        const sim::Vec3 offset = s.offset;
        sim::ForceField f;
        f.type = fs.type;
        f.strength = s.scalar;
        f.direction = fs.direction;
        f.centre = fs.centre + offset;
        f.scale = fs.scale;
        f.timeScale = fs.timeScale;
        f.seed = itemSeed(mScene.simulation.seed, item.name);
        f.region.falloff = fs.falloff;
        const Shape &shape = item.shape;
        if (usesMask(item)) {
            f.region.mask = mCache[s.item].coverage;
            if (f.region.mask.empty())
                continue;
        } else if (shape.type == ShapeType::Sphere) {
            f.region.shape = sim::RegionShape::Sphere;
            f.region.centre = shape.centre + offset;
            f.region.radius = shape.radius;
        } else if (shape.type == ShapeType::Box) {
            f.region.shape = sim::RegionShape::Box;
            f.region.centre = shape.centre + offset;
            f.region.halfSize = shape.halfSize;
        }
        mSetup.forces.push_back(std::move(f));
    }
}

sim::Status rasterizeScene(const Scene &scene, double frame, SceneSetup &out)
{
    SceneRasterizer r;
    if (sim::Status s = r.setScene(scene); !s)
        return s;
    r.update(frame);
    out = r.setup();
    return sim::Status::success();
}

sim::Status applyInputs(const SceneSetup &setup, InputChanges changes, sim::Solver &solver)
{
    if (changes.solids) {
        if (sim::Status st = solver.setObstacles(setup.solids); !st)
            return st;
    }
    if (changes.emitters) {
        if (sim::Status st = solver.setEmitters(setup.emitters); !st)
            return st;
    }
    if (changes.forces)
        return solver.setForceFields(setup.forces);
    return sim::Status::success();
}

} // namespace plume
