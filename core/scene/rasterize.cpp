// SPDX-License-Identifier: Apache-2.0
#include <core/scene/rasterize.h>

#include <core/scene/meshcoverage.h>

#include <algorithm>

namespace plume {

namespace {

std::string itemLabel(const Item &item) { return "item '" + item.name + "'"; }

/// Whether the item is ever rotated or scaled (then force regions need a mask).
bool rotatesOrScales(const Item &item)
{
    return item.rotation.isAnimated() || item.scale.isAnimated()
           || !(item.rotation.value == sim::Vec3{})
           || !(item.scale.value == sim::Vec3{1.f, 1.f, 1.f});
}

Placement modelPlacement(const Shape &shape)
{
    return {shape.meshTranslation, shape.meshRotation, shape.meshScale};
}

} // namespace

sim::Status checkScene(const Scene &scene)
{
    const DomainSettings &ds = scene.domain;
    if (!domainParams::resolution.contains(ds.resolution))
        return sim::Status::failure("domain: resolution is " + std::to_string(ds.resolution)
                                    + "; expected " + domainParams::resolution.describe());
    if (sim::Status s = makeDomain(ds).validate(sim::maxCells(scene.simulation.params)); !s)
        return s;
    if (sim::Status s = scene.simulation.params.validate(); !s)
        return sim::Status::failure("simulation: " + s.error);
    const bool twoD = ds.dimension == Dimension::TwoD;
    if (scene.simulation.params.scheme == sim::Scheme::Ocean) {
        // The waves are a function of time alone (docs/ocean.md): nothing else acts on them.
        if (!twoD)
            return sim::Status::failure(
                "domain: the ocean scheme needs dimension \"2d\" (a periodic patch)");
        for (int f = 0; f < 4; ++f) {
            if (ds.boundaries[f] != sim::Boundary::Periodic)
                return sim::Status::failure(std::string("domain: boundaries.") + sim::faceName(f)
                                            + " is \"" + sim::toString(ds.boundaries[f])
                                            + "\"; the ocean scheme tiles, so every x and y face"
                                              " must be \"periodic\"");
        }
        if (!scene.items.empty())
            return sim::Status::failure(itemLabel(scene.items.front())
                                        + ": the ocean scheme has no emitters, obstacles or "
                                          "force fields (its waves are a function of time alone)");
    }
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

Affine meshToWorld(const Shape &shape, const Placement &placement)
{
    return placementTransform(placement, shapePivot(shape))
        .after(placementTransform(modelPlacement(shape), {}));
}

Affine shapeToWorld(const Shape &shape, const Placement &placement)
{
    return shape.type == ShapeType::Mesh ? meshToWorld(shape, placement)
                                         : placementTransform(placement, shapePivot(shape));
}

sim::Status SceneRasterizer::setScene(const Scene &scene)
{
    // Models are read before the old ones are let go, so that the process-wide model cache
    // still holds the ones this scene shares with the previous version.
    std::vector<MaskImage> images(scene.items.size());
    std::vector<MeshPtr> meshes(scene.items.size());
    sim::Status status = checkScene(scene);
    for (std::size_t n = 0; status && n < scene.items.size(); ++n) {
        const Item &item = scene.items[n];
        if (item.shape.type == ShapeType::Image) {
            auto image = loadMaskImage(item.shape, scene.directory);
            if (image)
                images[n] = image.take();
            else
                status = sim::Status::failure(itemLabel(item) + ": " + image.error());
        }
        if (item.shape.type == ShapeType::Mesh) {
            auto mesh = loadMesh(resolveImagePath(item.shape.file, scene.directory));
            if (mesh)
                meshes[n] = mesh.value();
            else
                status = sim::Status::failure(itemLabel(item) + ": " + mesh.error());
        }
    }
    mScene = Scene{};
    mSetup = SceneSetup{};
    mCache.clear();
    mImages.clear();
    mMeshes.clear();
    mMovingObstacles = false;
    if (!status)
        return status;
    mScene = scene;
    mImages = std::move(images);
    mMeshes = std::move(meshes);
    for (const Item &item : scene.items)
        mMovingObstacles = mMovingObstacles || (item.kind == ItemKind::Obstacle && item.moves());
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
    return !analytic || rotatesOrScales(item);
}

const sim::SparseMask &SceneRasterizer::coverage(std::size_t index, const Placement &placement)
{
    ItemCache &c = mCache[index];
    if (!c.valid || !(c.placement == placement)) {
        const Item &item = mScene.items[index];
        const float falloff = item.kind == ItemKind::ForceField ? item.force.falloff : 0.f;
        if (item.shape.type == ShapeType::Mesh) {
            MeshCoverageSettings ms;
            ms.toWorld = meshToWorld(item.shape, placement);
            ms.fill = item.shape.fill;
            ms.thickness = item.shape.thickness;
            ms.cutZ = mScene.domain.origin.z + 0.5f * mScene.domain.size.z;
            c.coverage = meshCoverage(mSetup.domain, *mMeshes[index], ms);
        } else {
            c.coverage = shapeCoverage(mSetup.domain, item.shape, placement, falloff,
                                       &mImages[index]);
        }
        c.placement = placement;
        c.valid = true;
        c.generation = mNextGeneration++;
    }
    return c.coverage;
}

SceneRasterizer::Source SceneRasterizer::source(std::size_t index, double frame)
{
    const Item &item = mScene.items[index];
    Source src;
    src.item = index;
    src.placement = item.placementAt(frame);
    if (usesMask(item)) {
        coverage(index, src.placement);
        src.generation = mCache[index].generation;
    }
    return src;
}

std::vector<SceneRasterizer::Source> SceneRasterizer::obstacleSources(double frame,
                                                                      double motionFrames)
{
    std::vector<Source> solids;
    for (std::size_t n = 0; n < mScene.items.size(); ++n) {
        const Item &item = mScene.items[n];
        if (item.kind != ItemKind::Obstacle || !item.activeAt(frame))
            continue;
        Source src = source(n, frame);
        src.previous = item.moves() ? item.placementAt(frame - motionFrames) : src.placement;
        solids.push_back(src);
    }
    return solids;
}

InputChanges SceneRasterizer::updateObstacles(double frame, double motionFrames)
{
    std::vector<Source> solids = obstacleSources(frame, motionFrames);
    InputChanges changes;
    changes.solids = mFirst || solids != mSolidSources
                     || (mMovingObstacles && motionFrames != mMotionFrames);
    if (changes.solids)
        buildSolids(solids, motionFrames);
    mSolidSources = std::move(solids);
    return changes;
}

InputChanges SceneRasterizer::update(double frame, double motionFrames)
{
    std::vector<Source> solids = obstacleSources(frame, motionFrames);
    std::vector<Source> emitters, forces;
    for (std::size_t n = 0; n < mScene.items.size(); ++n) {
        const Item &item = mScene.items[n];
        if (item.kind == ItemKind::Obstacle || !item.activeAt(frame))
            continue;
        Source src = source(n, frame);
        switch (item.kind) {
        case ItemKind::Obstacle: break;
        case ItemKind::Emitter:
            // A liquid fill acts once: only in the first simulated frame the item is active
            // (the frame that ends after its start, or the first frame of the simulation).
            if (item.emitter.liquid == sim::LiquidMode::Fill
                && frame - 1.0 >= std::max(item.activeStart, double(mScene.simulation.frameStart)))
                break;
            src.scalar = item.emitter.rate.at(frame);
            src.amplitude = item.emitter.noise.amplitude.at(frame);
            emitters.push_back(src);
            break;
        case ItemKind::ForceField:
            src.scalar = item.force.strength.at(frame);
            forces.push_back(src);
            break;
        }
    }
    InputChanges changes;
    changes.solids = mFirst || solids != mSolidSources
                     || (mMovingObstacles && motionFrames != mMotionFrames);
    changes.emitters = mFirst || emitters != mEmitterSources;
    changes.forces = mFirst || forces != mForceSources;
    if (changes.solids)
        buildSolids(solids, motionFrames);
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

void SceneRasterizer::buildSolids(const std::vector<Source> &sources, double motionFrames)
{
    mMotionFrames = motionFrames;
    mSetup.solids.reshape(mSetup.domain.cells);
    std::uint8_t *flags = mSetup.solids.data();
    for (const Source &s : sources) {
        const sim::SparseMask &m = mCache[s.item].coverage;
        for (std::size_t n = 0; n < m.size(); ++n) {
            if (m.weights[n] >= 0.5f)
                flags[m.cells[n]] = std::uint8_t(sim::CellType::Solid);
        }
    }
    buildObstacleMotion(sources, motionFrames);
}

void SceneRasterizer::buildObstacleMotion(const std::vector<Source> &sources, double motionFrames)
{
    sim::ObstacleMotion &motion = mSetup.obstacleMotion;
    motion = {};
    const bool moving = std::any_of(sources.begin(), sources.end(),
                                    [](const Source &s) { return !(s.placement == s.previous); });
    const bool anyNoSlip = std::any_of(sources.begin(), sources.end(), [&](const Source &s) {
        return mScene.items[s.item].obstacle.noSlip;
    });
    if (!moving)
        return;
    const sim::Domain &d = mSetup.domain;
    for (sim::ScalarGrid &g : motion.velocity)
        g.reshape(d.cells, sim::kCellCentre);
    if (anyNoSlip)
        motion.noSlip.assign(std::size_t(d.cellCount()), 0);
    // The obstacle covering a cell most gives it its velocity (the first one on a tie).
    std::vector<float> best(std::size_t(d.cellCount()), 0.f);
    const float seconds = float(motionFrames / double(mSetup.time.frameRate));
    for (const Source &s : sources) {
        const Item &item = mScene.items[s.item];
        const sim::SparseMask &m = mCache[s.item].coverage;
        const bool still = s.placement == s.previous;
        // World now -> the same material point one step before.
        const Affine back = shapeToWorld(item.shape, s.previous)
                                .after(shapeToWorld(item.shape, s.placement).inverse());
        for (std::size_t n = 0; n < m.size(); ++n) {
            const std::uint32_t cell = m.cells[n];
            if (m.weights[n] < 0.5f || m.weights[n] <= best[cell])
                continue;
            best[cell] = m.weights[n];
            sim::Vec3 v{};
            if (!still && seconds > 0.f) {
                const int i = int(cell % std::uint32_t(d.cells.x));
                const int j = int((cell / std::uint32_t(d.cells.x)) % std::uint32_t(d.cells.y));
                const int k = int(cell / (std::uint32_t(d.cells.x) * std::uint32_t(d.cells.y)));
                sim::Vec3 x{d.origin.x + (float(i) + 0.5f) * d.cellSize,
                            d.origin.y + (float(j) + 0.5f) * d.cellSize,
                            d.origin.z + (float(k) + 0.5f) * d.cellSize};
                if (d.is2D())
                    x.z = mScene.domain.origin.z + 0.5f * mScene.domain.size.z;
                v = (x - back.apply(x)) * (1.f / seconds);
                if (d.is2D())
                    v.z = 0.f;
            }
            for (int a = 0; a < 3; ++a)
                motion.velocity[a].data()[cell] = v[a];
            if (anyNoSlip)
                motion.noSlip[cell] = item.obstacle.noSlip ? 1 : 0;
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
        e.liquid = es.liquid;
        e.liquidRate = s.scalar;
        e.noise.size = es.noise.size;
        e.noise.amplitude = s.amplitude;
        e.noise.speed = es.noise.speed;
        e.noise.seed = emitterNoiseSeed(mScene.simulation.seed, es.noise.seed);
        mSetup.emitters.push_back(std::move(e));
    }
}

void SceneRasterizer::buildForces(const std::vector<Source> &sources)
{
    mSetup.forces.clear();
    for (const Source &s : sources) {
        const Item &item = mScene.items[s.item];
        const ForceSettings &fs = item.force;
        const sim::Vec3 offset = s.placement.offset;
        sim::ForceField f;
        f.type = fs.type;
        f.strength = s.scalar;
        f.direction = fs.direction;
        f.centre = fs.centre + offset;
        f.scale = fs.scale;
        f.timeScale = fs.timeScale;
        f.seed = itemSeed(mScene.simulation.seed, item.name);
        f.mask = fs.mask;
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
        if (sim::Status st = solver.setObstacles(setup.solids, setup.obstacleMotion); !st)
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
