#pragma once

#include "domain.h"
#include "grid.h"
#include "params.h"
#include "sources.h"
#include "workspace.h"

#include <vector>

namespace plume::sim {

/// Divergence-free curl noise (Bridson, Hourihan and Nordenstam 2007): the curl of a smooth
/// vector potential made of gradient noise, evolving with time. Unit-free: positions are in
/// noise periods; the result has magnitude of order 1. In 2D the potential is a scalar
/// (the z component) and the result lies in the xy plane.
Vec3 curlNoise(Vec3 p, float time, std::uint32_t seed, bool is2D);

/// Evaluates a set of force fields at points (face centres or cell centres).
class ForceEvaluator
{
public:
    /// Keeps the fields and turns mask regions into dense coverage for fast lookup.
    void setup(const Domain &domain, std::vector<ForceField> fields);
    bool empty() const { return mFields.empty(); }

    /// Weight of field `n`'s region at a world position: 1 inside, smooth falloff outside.
    float regionWeight(std::size_t n, Vec3 world) const;

    /// Acceleration (world units / s^2) at a world position where the fluid moves with
    /// `velocity`, summed over all fields, at simulation time `time`.
    Vec3 acceleration(Vec3 world, Vec3 velocity, double time) const;

    /// Adds dt * acceleration to every open face of the MAC grid (closed faces are skipped).
    /// Drag uses each face's own velocity component.
    void applyToMac(MacGrid &vel, const FlagGrid &solids, float dt, double time) const;

private:
    /// What setup() derives from a field once, so that the per-face loops stay cheap.
    struct Prepared
    {
        Vec3 unit;          ///< normalised direction (Directional) or axis (Vortex; z in 2D)
        Int3 lo, hi;        ///< box of grid nodes (cell coordinates) outside which weight is 0
        bool active = false;///< false when the field cannot change anything
    };
    /// Rows [j0, j0 + kBlockRows) and slabs [k0, k0 + kBlockSlabs) of the largest face grid.
    struct Block
    {
        int j0 = 0, k0 = 0, rows = 1, slabs = 1;
    };
    struct BlockScratch;

    /// Face index range of field `n` on the face grid of `axis`, limited to `block`: [lo, hi].
    bool faceRange(std::size_t n, int axis, const Block &block, Int3 &lo, Int3 &hi) const;
    /// Adds field `n`'s weighted acceleration at the faces of `block` to the block's sums.
    void accumulateField(std::size_t n, const MacGrid &vel, const Block &block, double time,
                         BlockScratch &s) const;
    /// Turbulence on the MAC grid: the discrete curl of an edge-sampled curl-noise potential.
    void accumulateTurbulence(std::size_t n, const Block &block, double time,
                              BlockScratch &s) const;

    Domain mDomain;
    std::vector<ForceField> mFields;
    std::vector<ScalarGrid> mMasks; ///< dense coverage per field; empty grid when shape-based
    std::vector<Prepared> mPrepared;
};

/// Buoyancy (Fedkiw, Stam and Jensen 2001, eq. 8): f = (-alpha * density
/// + beta * (temperature - ambient)) * up, sampled at faces from the two adjacent cells.
void addBuoyancy(MacGrid &vel, const ScalarGrid &density, const ScalarGrid &temperature,
                 const SimParams &params, const FlagGrid &solids, const Domain &domain, float dt);

/// Vorticity confinement (Fedkiw, Stam and Jensen 2001, eq. 9-11): f = epsilon * h * (N x omega)
/// with N = grad|omega| / |grad|omega||, computed at cell centres and averaged to faces.
/// Uses the four workspace grids.
void addVorticityConfinement(MacGrid &vel, float epsilon, const FlagGrid &solids,
                             const Domain &domain, float dt, Workspace &work);

/// Magnitude of the curl of `vel` at cell centres (1/s), central differences of the
/// centre-averaged velocity; zero in solid cells.
void vorticityMagnitude(const MacGrid &vel, const FlagGrid &solids, const Domain &domain,
                        ScalarGrid &out);

} // namespace plume::sim
