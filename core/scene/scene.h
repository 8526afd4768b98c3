// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/scene/animated.h>
#include <core/scene/placement.h>

#include <core/settings/exportsettings.h>
#include <core/sim/base/domain.h>
#include <core/sim/base/params.h>
#include <core/sim/base/sources.h>
#include <core/sim/run/simulation.h>

#include <QJsonObject>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace plume {

// The scene document: plain parameter structs with defaults. Shapes are vector data in world
// units (never cells), so one scene rasterises at any resolution (see rasterize.h). Every struct
// that maps to a JSON object keeps the keys this version does not know in `extra`, so a file
// from a newer version loses nothing when it is saved again (see docs/scene-format.md).
// Times of items and keys are in frames: frame f is simulation time f / frameRate seconds.

/// 2D (one cell deep, z ignored by shapes) or 3D. Stored as "2d" and "3d".
enum class Dimension : std::uint8_t { TwoD, ThreeD };

/// How finely the window simulates while authoring (docs/preview.md): at the scene's resolution,
/// or at 1/2 or 1/4 of it. Bakes, plume-cli and the Python module always simulate at the
/// resolution; every control is in world units, so the effect keeps its large shapes.
enum class PreviewResolution : std::uint8_t { Full, Half, Quarter };

/// The simulated box in world units and its resolution.
struct DomainSettings
{
    /// What an edit can change (scenechanges.h): `Boundaries` includes their unknown keys.
    enum class Property { Dimension, Size, Origin, Resolution, Boundaries, Preview };

    Dimension dimension = Dimension::TwoD;
    sim::Vec3 size{1.f, 1.f, 1.f};   ///< world size of the box; z is ignored in 2D
    sim::Vec3 origin{0.f, 0.f, 0.f}; ///< world position of the box's low corner
    int resolution = 128;            ///< cells along the longest axis (x, y, and z in 3D)
    sim::Boundaries boundaries = sim::allBoundaries(sim::Boundary::Wall);
    PreviewResolution preview = PreviewResolution::Full; ///< the window's; bakes ignore it
    QJsonObject extra;
    QJsonObject boundariesExtra;

    friend bool operator==(const DomainSettings &, const DomainSettings &) = default;
};

/// The cells of the resolution per preview cell along each axis: 1, 2 or 4.
inline int previewDivisor(PreviewResolution p)
{
    return p == PreviewResolution::Half ? 2 : (p == PreviewResolution::Quarter ? 4 : 1);
}

/// The domain the window simulates: `d` at its preview resolution (the resolution divided by 2
/// or 4, rounded, at least domainParams::resolution's minimum of 8), marked Full. Unchanged
/// when the preview is Full.
DomainSettings previewDomain(const DomainSettings &d);

/// Cells in all at most (the resolution's range is domainParams::resolution): 512^3, and
/// 1024^3 with the smoke scheme's adaptive domain (sim::maxCells).
inline constexpr std::int64_t kMaxCells = sim::Domain::kDefaultMaxCells;
inline constexpr std::int64_t kMaxAdaptiveCells = sim::Domain::kAdaptiveMaxCells;
/// Bytes per cell assumed by memory estimates: the smoke scheme's state, scratch and dye
/// stay under this (docs/architecture.md).
inline constexpr std::int64_t kBytesPerCellEstimate = 64;

/// Cells per axis: `resolution` along the longest axis, the other axes rounded to the same
/// cell size (at least 1 cell; z is 1 in 2D).
sim::Int3 domainCells(const DomainSettings &d);
/// Cell edge in world units: the longest axis divided by the resolution.
float domainCellSize(const DomainSettings &d);
/// The solver's domain. Its extent is cells * cellSize, which differs from `size` by less than
/// half a cell on the shorter axes.
sim::Domain makeDomain(const DomainSettings &d);
/// Estimated solver memory in bytes (cells * kBytesPerCellEstimate).
std::int64_t estimateMemoryBytes(const DomainSettings &d);

/// Solver and time stepping. `params` holds every solver parameter; `time` the frame rate and
/// substeps (fixed, or from a CFL number when time.cfl > 0).
/// A liquid texture (docs/liquid-textures.md): an image carried by the flow in a 2D scene,
/// through two advected coordinate sets reset in turn every `period` frames. On when `file` is
/// set; stored as "simulation": {"liquidTexture": {...}} only then.
struct LiquidTextureSettings
{
    std::string file; ///< image path relative to the scene file, like image masks
    int period = 24;  ///< frames between resets of one set (even)
    sim::TextureBlend blend = sim::TextureBlend::Linear;
    float tiling = 1.f; ///< times the image repeats across the domain's width
    QJsonObject extra;

    bool enabled() const { return !file.empty(); }
    friend bool operator==(const LiquidTextureSettings &, const LiquidTextureSettings &) = default;
};

struct SimulationSettings
{
    /// What an edit can change (scenechanges.h): `Params` includes the unknown keys of the
    /// pressure, combustion, ocean, sph and upres objects. `TextureCoordinates`: the liquid texture
    /// switched on or off or its period (the advected coordinates change); `TextureLook`: its
    /// image, blend or tiling (only the picture changes).
    enum class Property {
        Params,
        Time,
        FrameStart,
        FrameEnd,
        Seed,
        TextureCoordinates,
        TextureLook
    };

    sim::SimParams params;
    sim::TimeSettings time;
    int frameStart = 1;     ///< first frame to bake (frame 1 ends at 1 / frameRate seconds)
    int frameEnd = 120;     ///< last frame to bake, inclusive
    std::uint32_t seed = 0; ///< seeds turbulence noise (mixed with each item's name)
    LiquidTextureSettings liquidTexture;
    QJsonObject extra;
    QJsonObject pressureExtra;
    QJsonObject combustionExtra;
    QJsonObject oceanExtra;
    QJsonObject sphExtra;
    QJsonObject upresExtra;
    QJsonObject vorticityMaskExtra;

    friend bool operator==(const SimulationSettings &, const SimulationSettings &) = default;
};

/// What an item is. Stored as "emitter", "obstacle", "force".
enum class ItemKind : std::uint8_t { Emitter, Obstacle, ForceField };

/// Shape kinds. Stored as "sphere" (alias "circle"; a disc in 2D), "box", "capsule", "stroke",
/// "image" (2D only), "everywhere" (force fields only: the whole domain) and "mesh" (a model
/// file; in 2D its section by the domain's middle z plane; docs/meshes.md).
enum class ShapeType : std::uint8_t { Sphere, Box, Capsule, Stroke, Image, Everywhere, Mesh };

/// What part of a mesh counts: its inside ("volume", closed meshes only) or a shell of
/// `thickness` around its surface ("surface"). A mesh that is not closed is always a shell.
enum class MeshFill : std::uint8_t { Volume, Surface };

/// Which image channel gives an image mask's coverage. Stored as "luminance", "alpha".
enum class ImageChannel : std::uint8_t { Luminance, Alpha };

/// A point of a painted stroke: world position, radius and pressure (a weight in [0, 1] that
/// scales the coverage). Between points both are interpolated linearly.
struct StrokePoint
{
    sim::Vec3 position;
    float radius = 0.02f; ///< world units
    float pressure = 1.f; ///< coverage weight, [0, 1]
    QJsonObject extra;

    friend bool operator==(const StrokePoint &, const StrokePoint &) = default;
};

/// A shape in world units. Only the fields of `type` are used (and written).
struct Shape
{
    ShapeType type = ShapeType::Sphere;
    sim::Vec3 centre{0.5f, 0.5f, 0.5f};   ///< sphere, box
    float radius = 0.1f;                  ///< sphere, capsule
    sim::Vec3 halfSize{0.1f, 0.1f, 0.1f}; ///< box
    float rotation = 0.f;                 ///< box: degrees, counter-clockwise about z
    sim::Vec3 start{0.4f, 0.5f, 0.5f};    ///< capsule
    sim::Vec3 end{0.6f, 0.5f, 0.5f};      ///< capsule
    std::vector<StrokePoint> points;      ///< stroke
    std::string file;                     ///< image, mesh: path relative to the scene file
    sim::Vec3 imageMin{0.f, 0.f, 0.f};    ///< image: world rectangle, low corner (x, y)
    sim::Vec3 imageMax{1.f, 1.f, 0.f};    ///< image: high corner (x, y)
    ImageChannel channel = ImageChannel::Luminance;
    bool invert = false; ///< image: coverage = 1 - channel
    /// mesh: the model's own transform, applied to the file's vertices before the item's
    /// placement: scale, then rotate (degrees about x, y, z), then translate.
    sim::Vec3 meshTranslation{0.f, 0.f, 0.f};
    sim::Vec3 meshRotation{0.f, 0.f, 0.f};
    sim::Vec3 meshScale{1.f, 1.f, 1.f};
    MeshFill fill = MeshFill::Volume; ///< mesh
    float thickness = 0.f;            ///< mesh shell, world units (at least two cells are used)
    QJsonObject extra;

    friend bool operator==(const Shape &, const Shape &) = default;
};

/// Emitter parameters. Rates are per second; `rate` multiplies density, temperature, dye and
/// fuel.
/// An emitter's noise (docs/look.md): its rates and velocity are multiplied by
/// max(0, 1 + amplitude * n(x, t)), n a smooth noise in [-1, 1] of feature size `size` that
/// evolves `speed` periods a second. Written only when set, so older files stay as they were.
struct EmitterNoiseSettings
{
    float size = 0.1f;              ///< feature size, world units
    Animated<float> amplitude{0.f}; ///< 0..1, a fraction of the rate; keyframable; 0: off
    float speed = 1.f;              ///< noise periods per second of simulation time
    std::uint32_t seed = 0;         ///< mixed with the scene's seed
    QJsonObject extra;              ///< unknown keys of the "noise" object

    /// Whether it differs from the default (and so is written).
    bool isSet() const { return !(*this == EmitterNoiseSettings{}); }
    /// Whether it modulates the rates at some frame (an amplitude above 0).
    bool active() const
    {
        if (!amplitude.isAnimated())
            return amplitude.value > 0.f;
        return std::any_of(amplitude.keys.begin(), amplitude.keys.end(),
                           [](const Key<float> &k) { return k.value > 0.f; });
    }
    friend bool operator==(const EmitterNoiseSettings &, const EmitterNoiseSettings &) = default;
};

struct EmitterSettings
{
    float density = 1.f;          ///< density per second
    float temperature = 0.f;      ///< temperature above ambient per second
    sim::Vec3 dye{0.f, 0.f, 0.f}; ///< linear RGB dye per second
    float fuel = 0.f;             ///< fuel per second (smoke scheme; docs/fire.md)
    bool ignite = true;           ///< emitted fuel burns at once, whatever its temperature
    sim::EmitterVelocity velocityMode = sim::EmitterVelocity::None;
    sim::Vec3 velocity{0.f, 0.f, 0.f}; ///< units/s^2 (force) or units/s (inflow)
    Animated<float> rate{1.f};         ///< keyframable multiplier, >= 0
    /// The sph scheme's liquid (docs/sph.md): "fill" fills the shape once when the item becomes
    /// active, "emit" pours `rate` shape volumes per second with the inflow velocity. The grid
    /// schemes ignore it; the sph scheme ignores emitters without it.
    sim::LiquidMode liquid = sim::LiquidMode::None;
    EmitterNoiseSettings noise; ///< a puffy, flickering source (smoke scheme; docs/look.md)
    QJsonObject extra;

    friend bool operator==(const EmitterSettings &, const EmitterSettings &) = default;
};

/// Force field parameters; the item's shape is the region where it acts.
struct ForceSettings
{
    sim::ForceType type = sim::ForceType::Directional;
    Animated<float> strength{1.f};      ///< units/s^2 (drag: 1/s), keyframable
    sim::Vec3 direction{0.f, 1.f, 0.f}; ///< directional: push; vortex: axis (3D)
    sim::Vec3 centre{0.5f, 0.5f, 0.5f}; ///< vortex, radial: centre (moves with offset)
    float scale = 0.25f;   ///< turbulence feature size; disturbance block size (world units)
    float timeScale = 1.f; ///< turbulence: periods per second; disturbance: refreshes per second
    float falloff = 0.f;   ///< soft edge outside the shape, world units
    /// Where it acts, read from a simulated field (smoke scheme; docs/look.md). Written when
    /// set, so files of scenes without masks stay as they were.
    sim::ControlMask mask;
    QJsonObject maskExtra; ///< unknown keys of the "mask" object
    QJsonObject extra;

    friend bool operator==(const ForceSettings &, const ForceSettings &) = default;
};

/// The mask a shredding field gets when the editor makes one (docs/look.md): temperature above
/// ambient from 0.1 to 1, where the flame is.
inline sim::ControlMask shreddingDefaultMask()
{
    sim::ControlMask m;
    m.field = sim::ControlField::Temperature;
    m.from = 0.1f;
    m.to = 1.f;
    return m;
}

/// Obstacle parameters: how a moving obstacle drags the fluid (docs/meshes.md).
struct ObstacleSettings
{
    /// false (free-slip): a moving obstacle pushes the fluid along its surface normal only;
    /// true (no-slip): the fluid next to it also takes its tangential velocity.
    bool noSlip = false;
    QJsonObject extra;

    friend bool operator==(const ObstacleSettings &, const ObstacleSettings &) = default;
};

/// "Forever" as the end of an activity range.
inline constexpr double kForever = std::numeric_limits<double>::infinity();

/// A scene item: an emitter, an obstacle or a force field with a shape. It acts while enabled
/// and while the frame lies in [activeStart, activeEnd] (frames, inclusive).
struct Item
{
    /// What an edit can change (scenechanges.h).
    enum class Property {
        Name,
        Enabled,
        Active,
        Kind,
        Shape,
        Offset,
        Rotation,
        Scale,
        Emitter,
        Obstacle,
        Force,
        Hidden,
        Locked
    };

    std::string name;
    bool enabled = true;
    /// Editor flags, kept in the file and ignored by the simulation: a hidden item is not
    /// drawn in the app's views (it still simulates, as a hidden object does in Blender and
    /// Maya); a locked one cannot be picked or moved in the views (the properties panel still
    /// edits it).
    bool hidden = false;
    bool locked = false;
    double activeStart = 0.0;    ///< frames
    double activeEnd = kForever; ///< frames; kForever: no end
    ItemKind kind = ItemKind::Emitter;
    Shape shape;
    Animated<sim::Vec3> offset; ///< keyframable translation of the shape
    /// Keyframable rotation (degrees about x, y, z) and scale of the shape about its pivot
    /// (placement.h, shapePivot). In 2D, analytic shapes use rotation z and scale x, y.
    Animated<sim::Vec3> rotation{sim::Vec3{0.f, 0.f, 0.f}};
    Animated<sim::Vec3> scale{sim::Vec3{1.f, 1.f, 1.f}};
    EmitterSettings emitter;   ///< used when kind == Emitter
    ObstacleSettings obstacle; ///< used when kind == Obstacle
    ForceSettings force;       ///< used when kind == ForceField
    QJsonObject extra;
    QJsonObject activeExtra;

    bool activeAt(double frame) const
    {
        return enabled && frame >= activeStart && frame <= activeEnd;
    }
    Placement placementAt(double frame) const
    {
        return {offset.at(frame), rotation.at(frame), scale.at(frame)};
    }
    /// Whether the placement changes over time (some of offset, rotation, scale has keys).
    bool moves() const
    {
        return offset.isAnimated() || rotation.isAnimated() || scale.isAnimated();
    }

    friend bool operator==(const Item &, const Item &) = default;
};

/// A scene document.
struct Scene
{
    std::string name = "untitled";
    DomainSettings domain;
    SimulationSettings simulation;
    std::vector<Item> items;
    ExportPresets exports; ///< render look, flipbook and image-sequence presets ("export")
    QJsonObject extra;
    /// Directory that relative image paths resolve against (the scene file's folder). Set by
    /// the reader, not written; empty means the current directory.
    std::string directory;

    const Item *findItem(const std::string &itemName) const;

    /// Document equality: everything but `directory`.
    friend bool operator==(const Scene &a, const Scene &b);
};

/// Stable strings of the scene enums (sim/base/param.h). A sphere is also read as "circle".
inline constexpr sim::EnumNames<Dimension, 2> kDimensionNames{{"2d", "3d"}};
inline constexpr sim::EnumNames<PreviewResolution, 3> kPreviewResolutionNames{
    {"full", "half", "quarter"}};
inline constexpr sim::EnumNames<ItemKind, 3> kItemKindNames{{"emitter", "obstacle", "force"}};
inline constexpr sim::EnumNames<ShapeType, 7> kShapeTypeNames{{"sphere", "box", "capsule", "stroke",
                                                               "image", "everywhere", "mesh"},
                                                              "circle",
                                                              ShapeType::Sphere};
inline constexpr sim::EnumNames<MeshFill, 2> kMeshFillNames{{"volume", "surface"}};
inline constexpr sim::EnumNames<ImageChannel, 2> kImageChannelNames{{"luminance", "alpha"}};
inline const char *toString(Dimension d) { return kDimensionNames.name(d); }
inline const char *toString(PreviewResolution p) { return kPreviewResolutionNames.name(p); }
inline const char *toString(ItemKind k) { return kItemKindNames.name(k); }
inline const char *toString(ShapeType t) { return kShapeTypeNames.name(t); }
inline const char *toString(ImageChannel c) { return kImageChannelNames.name(c); }
inline const char *toString(MeshFill f) { return kMeshFillNames.name(f); }

// Keys and ranges of the scene's numbers (sim/base/param.h), one namespace per struct above; the
// defaults are the structs' member initialisers. Vector settings give each component's range.

namespace domainParams {
inline constexpr sim::Param size{.key = "size", .min = 0, .openMin = true, .softMax = 1e4};
inline constexpr sim::Param origin{.key = "origin"};
inline constexpr sim::Param resolution{.key = "resolution",
                                       .min = 8,
                                       .max = 16384,
                                       .integer = true};
} // namespace domainParams

namespace simulationParams {
inline constexpr sim::Param frameStart{.key = "frameStart", .min = 0, .max = 1e7, .integer = true};
/// Also at least frameStart.
inline constexpr sim::Param frameEnd{.key = "frameEnd", .min = 0, .max = 1e7, .integer = true};
inline constexpr sim::Param seed{.key = "seed", .min = 0, .max = 4294967295.0, .integer = true};
} // namespace simulationParams

namespace liquidTextureParams {
inline constexpr sim::Param tiling{
    .key = "tiling", .min = 0, .max = 1e4, .openMin = true, .softMax = 100, .decimals = 3};
} // namespace liquidTextureParams

namespace itemParams {
/// In the "active" object, in frames; end is also at least start.
inline constexpr sim::Param activeStart{.key = "start",
                                        .softMin = -1e6,
                                        .softMax = 1e6,
                                        .decimals = 1};
inline constexpr sim::Param activeEnd{.key = "end", .softMin = -1e6, .softMax = 1e6, .decimals = 1};
inline constexpr sim::Param offset{.key = "offset", .softMin = -100, .softMax = 100};
inline constexpr sim::Param rotation{.key = "rotation",
                                     .softMin = -3600,
                                     .softMax = 3600,
                                     .decimals = 1};
/// Per axis; a zero scale would flatten the shape away.
inline constexpr sim::Param scale{
    .key = "scale", .min = 1e-3, .max = 1e4, .softMax = 1000, .decimals = 3};
} // namespace itemParams

namespace shapeParams {
inline constexpr sim::Param centre{.key = "centre", .softMin = -100, .softMax = 100};
inline constexpr sim::Param start{.key = "start", .softMin = -100, .softMax = 100};
inline constexpr sim::Param end{.key = "end", .softMin = -100, .softMax = 100};
inline constexpr sim::Param imageMin{.key = "min", .softMin = -100, .softMax = 100};
inline constexpr sim::Param imageMax{.key = "max", .softMin = -100, .softMax = 100};
inline constexpr sim::Param radius{
    .key = "radius", .min = 0, .openMin = true, .softMax = 100, .decimals = 4};
inline constexpr sim::Param halfSize{
    .key = "halfSize", .min = 0, .openMin = true, .softMax = 100, .decimals = 4};
inline constexpr sim::Param rotation{.key = "rotation",
                                     .softMin = -360,
                                     .softMax = 360,
                                     .decimals = 1};
inline constexpr sim::Param meshTranslation{.key = "translation", .softMin = -100, .softMax = 100};
inline constexpr sim::Param meshRotation{.key = "rotation",
                                         .softMin = -360,
                                         .softMax = 360,
                                         .decimals = 1};
/// Six decimals, so that an editor reaches the lowest scale (a model in micrometres).
inline constexpr sim::Param meshScale{
    .key = "scale", .min = 1e-6, .max = 1e6, .softMax = 1e4, .decimals = 6};
inline constexpr sim::Param thickness{.key = "thickness", .min = 0, .softMax = 10, .decimals = 4};
} // namespace shapeParams

namespace strokeParams {
inline constexpr sim::Param position{.key = "position", .softMin = -100, .softMax = 100};
inline constexpr sim::Param radius{
    .key = "radius", .min = 0, .openMin = true, .softMax = 100, .decimals = 4};
inline constexpr sim::Param pressure{.key = "pressure", .min = 0, .max = 1};
} // namespace strokeParams

namespace emitterParams {
inline constexpr sim::Param density{.key = "density", .min = 0};
inline constexpr sim::Param temperature{.key = "temperature"};
inline constexpr sim::Param dye{.key = "dye", .min = 0};
inline constexpr sim::Param fuel{.key = "fuel", .min = 0};
inline constexpr sim::Param velocity{.key = "velocity"};
inline constexpr sim::Param rate{.key = "rate", .min = 0};
} // namespace emitterParams

/// An emitter's "noise" object (docs/look.md).
namespace emitterNoiseParams {
inline constexpr sim::Param size{
    .key = "size", .min = 0, .openMin = true, .softMax = 100, .decimals = 4};
inline constexpr sim::Param amplitude{.key = "amplitude", .min = 0, .max = 1};
inline constexpr sim::Param speed{.key = "speed", .min = 0, .softMax = 100};
inline constexpr sim::Param seed{.key = "seed", .min = 0, .max = 4294967295.0, .integer = true};
} // namespace emitterNoiseParams

namespace forceParams {
/// Drag's strength is also >= 0 (dragStrength).
inline constexpr sim::Param strength{.key = "strength"};
inline constexpr sim::Param dragStrength{.key = "strength", .min = 0};
inline constexpr sim::Param direction{.key = "direction", .softMin = -1, .softMax = 1};
inline constexpr sim::Param centre{.key = "centre", .softMin = -100, .softMax = 100};
inline constexpr sim::Param scale{
    .key = "scale", .min = 0, .openMin = true, .softMax = 100, .decimals = 4};
inline constexpr sim::Param timeScale{.key = "timeScale", .min = 0, .softMax = 100};
inline constexpr sim::Param falloff{.key = "falloff", .min = 0, .softMax = 100, .decimals = 4};
} // namespace forceParams

/// Stable seed of an item's turbulence: the scene seed mixed with the item name (FNV-1a), so
/// reordering items does not change the noise.
std::uint32_t itemSeed(std::uint32_t sceneSeed, const std::string &itemName);

/// Seed of an emitter's noise: the scene seed mixed with the noise's own seed (not the item's
/// name, so that renaming keeps the flicker and equal seeds flicker alike).
std::uint32_t emitterNoiseSeed(std::uint32_t sceneSeed, std::uint32_t noiseSeed);

} // namespace plume
