#pragma once

#include "scene.h"
#include "scenesetup.h"
#include "shapecoverage.h"

#include <sim/solver.h>

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
/// Caching: each item's coverage is kept with the offset it was computed at and recomputed only
/// when its keyframed offset moves, so a scene without moving items rasterises its shapes once;
/// image files are decoded once in setScene(). Animated rates and strengths only rescale
/// numbers. The solid flags are rebuilt only when the set of active obstacles or one of their
/// coverages changed. Coverage runs in parallel and gives the same bytes with any thread count.
class SceneRasterizer
{
public:
    /// Takes a copy of `scene`, checks it (domain size and limits, solver parameters, shapes
    /// allowed for each kind) and decodes its image masks. On failure the message names the
    /// item and the problem, and the rasterizer holds no scene.
    sim::Status setScene(const Scene &scene);

    /// Brings setup() to `frame` (frames, fractional allowed) and says what changed since the
    /// previous update (everything on the first one).
    InputChanges update(double frame);

    /// Domain, parameters, time settings and the inputs of the last update.
    const SceneSetup &setup() const { return mSetup; }
    const Scene &scene() const { return mScene; }

private:
    struct ItemCache
    {
        bool valid = false;
        sim::Vec3 offset; ///< the offset `coverage` was computed at
        sim::SparseMask coverage;
        std::uint64_t generation = 0;
    };
    /// What an input was built from: item, coverage generation, offset, animated scalar.
    struct Source
    {
        std::size_t item = 0;
        std::uint64_t generation = 0;
        sim::Vec3 offset;
        float scalar = 0.f;
        friend bool operator==(const Source &, const Source &) = default;
    };

    bool usesMask(const Item &item) const;
    const sim::SparseMask &coverage(std::size_t index, sim::Vec3 offset);
    void buildSolids(const std::vector<Source> &sources);
    void buildEmitters(const std::vector<Source> &sources);
    void buildForces(const std::vector<Source> &sources);

    Scene mScene;
    SceneSetup mSetup;
    std::vector<ItemCache> mCache;
    std::vector<MaskImage> mImages; ///< per item; empty unless its shape is an image
    std::uint64_t mNextGeneration = 1;
    bool mFirst = true;
    std::vector<Source> mSolidSources, mEmitterSources, mForceSources;
};

/// Hands the inputs an update changed to a solver (obstacles, emitters, force fields).
sim::Status applyInputs(const SceneSetup &setup, InputChanges changes, sim::Solver &solver);

/// One-shot: the inputs of `scene` at `frame` in `out`.
sim::Status rasterizeScene(const Scene &scene, double frame, SceneSetup &out);

/// Checks what the rasterizer needs of a scene without decoding images: domain limits,
/// solver parameters, each item's shape against its kind and the dimension. The message names
/// the item.
sim::Status checkScene(const Scene &scene);

} // namespace plume
