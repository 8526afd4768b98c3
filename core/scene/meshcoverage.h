// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/scene/meshfile.h>
#include <core/scene/placement.h>
#include <core/scene/scene.h>

#include <core/sim/base/domain.h>
#include <core/sim/base/grid.h>

namespace plume {

/// How a mesh covers the domain's cells.
struct MeshCoverageSettings
{
    Affine toWorld;                   ///< file coordinates -> world (model transform, placement)
    MeshFill fill = MeshFill::Volume; ///< Volume needs a closed mesh; otherwise a shell
    float thickness = 0.f;            ///< shell thickness, world units (two cells at least)
    float cutZ = 0.f;                 ///< 2D: the world z plane whose section counts
};

/// Shell thickness in cells actually used: `thickness` but at least two cells, so that a
/// shell never lets fluid through between cells.
float meshShellCells(float thickness, float cellSize);

/// Anti-aliased coverage of a mesh on the domain's cells with the ramp of the analytic shapes
/// (clamp(0.5 - sd / h, 0, 1), sd the signed distance to the surface). A closed mesh filled
/// by volume uses its signed distance; a shell (fill Surface, or any mesh that is not closed)
/// uses the unsigned distance minus half the thickness. 3D distances come from OpenVDB's
/// mesh-to-volume conversion; in 2D the mesh is cut by the plane z = cutZ and the section's
/// segments give the distance and (even-odd) the inside. The result does not depend on the
/// thread count.
sim::SparseMask meshCoverage(const sim::Domain &domain, const TriangleMesh &mesh,
                             const MeshCoverageSettings &settings);

/// The segments where the plane z = cutZ cuts the mesh placed by `toWorld`, in world x, y
/// (pairs of points). For slice outlines and the 2D section.
std::vector<std::array<sim::Vec3, 2>> meshSection(const TriangleMesh &mesh, const Affine &toWorld,
                                                  int axis, float at);

} // namespace plume
