// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/scene/meshfile.h>
#include <core/scene/scene.h>
#include <core/scene/scenesetup.h>
#include <core/scene/shapecoverage.h>

#include <core/sim/base/solver.h>

#include <cstdint>
#include <vector>

namespace plume {

/// Which inputs an update changed (the caller re-applies only those to the solver).
struct InputChanges
{
    bool solids = false;
    bool emitters = false;
    bool forces = false;

    bool any() const { return solids || emitters || forces; }
};

/// Turns a scene into solver inputs at a given frame, at the scene's resolution.
///
/// Obstacles become solid cells where their coverage is >= 0.5; emitters get their coverage as
/// a sparse mask and their rates times the keyframed `rate`; force fields get an analytic
/// region for spheres, unrotated boxes and "everywhere" (falloff applied by the solver), and a
/// coverage mask (falloff baked in) for every other shape.
///
/// Caching: each item's coverage is kept with the placement (offset, rotation, scale) it was
/// computed at and recomputed only when its keyframed placement changes, so a scene without
/// moving items rasterises its shapes once; image and model files are read once in setScene()
/// (models through a process-wide cache, so an edit does not parse them again). Animated rates
/// and strengths only rescale numbers. The solid flags are rebuilt only when the set of active
/// obstacles or one of their coverages changed. Coverage runs in parallel and gives the same
/// bytes with any thread count.
///
/// Moving obstacles (items whose placement is keyframed) also give the solid cells they cover
/// a velocity: the rigid motion of the item between `frame - motionFrames` and `frame`
/// (setup().obstacleMotion; docs/meshes.md). Where obstacles overlap, the one covering a cell
/// most gives its velocity.
class SceneRasterizer
{
public:
    /// Takes a copy of `scene`, checks it (domain size and limits, solver parameters, shapes
    /// allowed for each kind) and decodes its image masks. On failure the message names the
    /// item and the problem, and the rasterizer holds no scene.
    sim::Status setScene(const Scene &scene);

    /// Brings setup() to `frame` (frames, fractional allowed) and says what changed since the
    /// previous update (everything on the first one). Obstacle velocities are the motion over
    /// the last `motionFrames` frames (a frame, or a substep's share of one).
    InputChanges update(double frame, double motionFrames = 1.0);
    /// Like update(), for the obstacles only (per substep, when obstacles move).
    InputChanges updateObstacles(double frame, double motionFrames);
    /// Whether an active-able obstacle's placement is keyframed.
    bool hasMovingObstacles() const { return mMovingObstacles; }
    /// The model of item `index` (null unless its shape is a mesh).
    const MeshPtr &mesh(std::size_t index) const { return mMeshes[index]; }

    /// Domain, parameters, time settings and the inputs of the last update.
    const SceneSetup &setup() const { return mSetup; }
    const Scene &scene() const { return mScene; }

private:
    struct ItemCache
    {
        bool valid = false;
        Placement placement; ///< the placement `coverage` was computed at
        sim::SparseMask coverage;
        std::uint64_t generation = 0;
    };
    /// What an input was built from: item, coverage generation, offset, animated scalar.
    struct Source
    {
        std::size_t item = 0;
        std::uint64_t generation = 0;
        Placement placement;
        Placement previous; ///< moving obstacles: the placement motionFrames before
        float scalar = 0.f;
        float amplitude = 0.f; ///< emitters: the noise's amplitude at the frame
        friend bool operator==(const Source &, const Source &) = default;
    };

    bool usesMask(const Item &item) const;
    const sim::SparseMask &coverage(std::size_t index, const Placement &placement);
    Source source(std::size_t index, double frame);
    std::vector<Source> obstacleSources(double frame, double motionFrames);
    void buildSolids(const std::vector<Source> &sources, double motionFrames);
    void buildObstacleMotion(const std::vector<Source> &sources, double motionFrames);
    void buildEmitters(const std::vector<Source> &sources);
    void buildForces(const std::vector<Source> &sources);

    Scene mScene;
    SceneSetup mSetup;
    std::vector<ItemCache> mCache;
    std::vector<MaskImage> mImages; ///< per item; empty unless its shape is an image
    std::vector<MeshPtr> mMeshes;   ///< per item; null unless its shape is a mesh
    bool mMovingObstacles = false;
    double mMotionFrames = 1.0; ///< of the solids last built
    std::uint64_t mNextGeneration = 1;
    bool mFirst = true;
    std::vector<Source> mSolidSources, mEmitterSources, mForceSources;
};

/// The map from a mesh file's coordinates to the world for a shape at a placement: the
/// shape's model transform, then the placement about its pivot.
Affine meshToWorld(const Shape &shape, const Placement &placement);
/// The map from a shape's own frame to the world at a placement: meshToWorld for meshes, the
/// placement about the shape's pivot for the others.
Affine shapeToWorld(const Shape &shape, const Placement &placement);

/// Hands the inputs an update changed to a solver (obstacles, emitters, force fields).
sim::Status applyInputs(const SceneSetup &setup, InputChanges changes, sim::Solver &solver);

/// One-shot: the inputs of `scene` at `frame` in `out`.
sim::Status rasterizeScene(const Scene &scene, double frame, SceneSetup &out);

/// Checks what the rasterizer needs of a scene without decoding images: domain limits,
/// solver parameters, each item's shape against its kind and the dimension. The message names
/// the item.
sim::Status checkScene(const Scene &scene);

} // namespace plume
