// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/domain.h>
#include <core/sim/base/grid.h>
#include <core/sim/base/params.h>
#include <core/sim/base/sources.h>
#include <core/sim/base/workspace.h>
#include <core/sim/numerics/curlnoise.h>

#include <vector>

namespace plume::sim {

/// Evaluates a set of force fields at points (face centres or cell centres).
///
/// - Region weights: Everywhere is 1; Sphere and Box are 1 inside and fall to 0 with a
///   smoothstep over `falloff` world units outside (per axis, multiplied, for boxes); falloff 0
///   is a hard edge. In 2D both ignore z (a disc, a rectangle). A mask replaces the shape.
/// - Vortex and Radial have a solid-body core of one cell size h: the unit direction is scaled
///   by min(1, distance / h), so both are zero on the axis/centre and never exceed |strength|.
/// - applyToMac() computes turbulence as the discrete curl of the noise potential sampled on
///   cell edges (2D: corners), so inside full-weight regions it adds no discrete divergence;
///   it matches acceleration() to second order in h / scale.
/// - Fields with limited regions only visit the faces inside their region's bounding box.
/// All methods are const after setup() and safe to call from several threads at once.
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
        Vec3 unit;           ///< normalised direction (Directional) or axis (Vortex; z in 2D)
        Int3 lo, hi;         ///< box of grid nodes (cell coordinates) outside which weight is 0
        bool active = false; ///< false when the field cannot change anything
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
/// The end faces of an axis see their one cell (both cells across the seam when periodic);
/// closed faces are left untouched; dt * f is added along each face's axis.
void addBuoyancy(MacGrid &vel, const ScalarGrid &density, const ScalarGrid &temperature,
                 const SimParams &params, const FlagGrid &solids, const Domain &domain, float dt);

/// Vorticity confinement (Fedkiw, Stam and Jensen 2001, eq. 9-11): f = epsilon * h * (N x omega)
/// with N = grad|omega| / |grad|omega||, computed at cell centres and averaged to the open faces
/// (dt * f is added).
/// Uses the four workspace grids.
void addVorticityConfinement(MacGrid &vel, float epsilon, const FlagGrid &solids,
                             const Domain &domain, float dt, Workspace &work);

/// Magnitude of the curl of `vel` at cell centres (1/s), central differences of the
/// centre-averaged velocity (one-sided next to walls, open ends and solids, wrapped on periodic
/// axes); zero in solid cells. `out` is reshaped to the domain's cells.
void vorticityMagnitude(const MacGrid &vel, const FlagGrid &solids, const Domain &domain,
                        ScalarGrid &out);

} // namespace plume::sim
