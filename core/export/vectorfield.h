// SPDX-License-Identifier: Apache-2.0
#pragma once

// Vector fields for game engines (docs/vector-fields.md): the simulation's velocity resampled to
// a small grid that pushes particles, as Unity's VFX Graph (`.vf`) and Unreal's Niagara and
// Cascade (`.fga`) read it, in the engine's own axes.

#include <core/sim/base/param.h>
#include <core/sim/base/result.h>
#include <core/sim/base/solver.h>

#include <QByteArray>

#include <string>
#include <vector>

namespace plume {

/// The engine a vector field is for, by its file format.
enum class VectorFieldFormat {
    Vf, ///< Unity's VFX Graph: binary, FourCC "VF_V", left-handed, y up
    Fga ///< Unreal (Niagara, Cascade): text, left-handed, z up, x forward
};
inline constexpr sim::EnumNames<VectorFieldFormat, 2> kVectorFieldFormatNames{{"vf", "fga"}};
inline const char *toString(VectorFieldFormat f) { return kVectorFieldFormatNames.name(f); }

/// What a bake writes as vector fields.
struct VectorFieldSettings
{
    bool enabled = false;
    VectorFieldFormat format = VectorFieldFormat::Vf;
    int size = 64;        ///< the grid's longest side in voxels (the engines take at most 128)
    bool average = false; ///< one file of the velocity averaged over the frames, not one a frame
    /// World units to the engine's: velocities (and `.fga`'s bounds) are multiplied by it
    /// (Unreal works in centimetres: 100 for a scene in metres).
    float scale = 1.f;

    friend bool operator==(const VectorFieldSettings &, const VectorFieldSettings &) = default;
};

namespace vectorFieldParams {
inline constexpr sim::Param size{.key = "size", .min = 1, .max = 128, .integer = true};
inline constexpr sim::Param scale{
    .key = "scale", .min = 0, .openMin = true, .softMax = 1e4, .decimals = 4};
} // namespace vectorFieldParams

/// How the engine's axes take Plume's (right-handed, y up, +z toward the default camera): engine
/// axis a is `sign[a]` times Plume's axis `source[a]`. Unity (left-handed, y up): x, y, -z.
/// Unreal (left-handed, z up, x forward, y right): X = -z, Y = x, Z = y.
struct EngineAxes
{
    int source[3];
    float sign[3];
};
EngineAxes engineAxes(VectorFieldFormat format);

/// A velocity field on an engine's grid: `size` voxels along the engine's axes, three floats a
/// voxel (engine axes, engine units a second), x fastest, then y, then z; `lo` and `hi` the
/// box it covers in engine axes and units.
struct VectorField
{
    sim::Int3 size{0, 0, 0};
    std::vector<float> values;
    sim::Vec3 lo, hi;

    friend bool operator==(const VectorField &, const VectorField &) = default;
};

/// Resamples a cell-centred velocity on `domain` (`velocity[a]` the component along Plume's
/// axis a, world units a second; an empty grid reads as 0) at the centres of the voxels of
/// resampledCells(domain, settings.size) (gridsample.h): trilinear between cell centres, in the
/// format's axes and multiplied by `settings.scale`.
VectorField resampleVectorField(const sim::Domain &domain, const sim::ScalarGrid (&velocity)[3],
                                const VectorFieldSettings &settings);

/// resampleVectorField() of the solver's velocity on its sampleDomain (z is 0 in 2D).
VectorField sampleVectorField(const sim::Solver &solver, const VectorFieldSettings &settings);

/// Sums vector fields frame by frame in a fixed order (the mean does not depend on the thread
/// count).
class VectorFieldAverage
{
public:
    /// Adds a frame; one of another grid is refused.
    sim::Status add(const VectorField &field);
    int frames() const { return mFrames; }
    /// The mean of the frames added (empty before the first).
    VectorField mean() const;

private:
    VectorField mGrid; ///< the first frame's size and box, without values
    std::vector<double> mSum;
    int mFrames = 0;
};

/// The file's bytes. `.vf`: "VF_V", the three sizes as little-endian uint16, then the values
/// as little-endian float32. `.fga`: "sizeX,sizeY,sizeZ,", "minX,minY,minZ,", "maxX,maxY,maxZ,"
/// and one "x,y,z," line a voxel, each number in its shortest exact form.
QByteArray vectorFieldBytes(const VectorField &field, VectorFieldFormat format);

/// ".vf" or ".fga".
const char *vectorFieldExtension(VectorFieldFormat format);

/// Writes the file atomically (complete or not at all).
sim::Status writeVectorField(const VectorField &field, VectorFieldFormat format,
                             const std::string &path);

} // namespace plume
