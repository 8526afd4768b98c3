// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/render/colormap.h>

#include <core/sim/base/solver.h>
#include <core/sim/base/types.h>

#include <QJsonObject>

#include <cstdint>
#include <string>

namespace plume {

/// What a 2D frame shows. Stored as "dye", "field", "texture" and "surface".
enum class Look2D : std::uint8_t {
    Dye,     ///< dye colour (white without dye) with density as alpha, like the window's view
    Field,   ///< `field` through `colorMap`, opaque inside the domain
    Texture, ///< the scene's liquid texture flowing (render/liquidtexture.h; the bake draws it)
    Surface, ///< the level surface: a filled, shaded liquid region (docs/surfaces.md)
};

/// How exported 8- and 16-bit images (PNG) and the window map linear light to [0, 1] after the
/// exposure. Stored as "filmic" and "clip". EXR stays linear and unclipped.
enum class ToneCurve : std::uint8_t {
    Filmic, ///< linear up to kFilmicKnee, then a smooth shoulder towards 1 (docs/render.md)
    Clip,   ///< linear, clipped at 1 (Plume before the light model of docs/render.md)
};

/// What a 3D frame shows. Stored as "volume" and "surface".
enum class Look3D : std::uint8_t {
    Volume,  ///< ray-marched smoke with shadows and emission
    Surface, ///< the lit level surface (liquid's, or the density's at surfaceIso)
};

/// How a 3D camera projects. Stored as "orthographic" and "perspective".
enum class Projection : std::uint8_t { Orthographic, Perspective };

/// What a 3D camera is fitted to (render/framing.h). Stored as "domain" and "effect".
enum class Framing : std::uint8_t {
    Domain, ///< the whole simulation domain, as Plume always did
    Effect, ///< the box of the visible smoke over every frame the bake renders, plus padding
};

inline constexpr sim::EnumNames<Look2D, 4> kLook2DNames{{"dye", "field", "texture", "surface"}};
inline constexpr sim::EnumNames<Look3D, 2> kLook3DNames{{"volume", "surface"}};
inline constexpr sim::EnumNames<Projection, 2> kProjectionNames{{"orthographic", "perspective"}};
inline constexpr sim::EnumNames<ToneCurve, 2> kToneCurveNames{{"filmic", "clip"}};
inline constexpr sim::EnumNames<Framing, 2> kFramingNames{{"domain", "effect"}};
inline const char *toString(Look2D v) { return kLook2DNames.name(v); }
inline const char *toString(Look3D v) { return kLook3DNames.name(v); }
inline const char *toString(Projection v) { return kProjectionNames.name(v); }
inline const char *toString(ToneCurve v) { return kToneCurveNames.name(v); }
inline const char *toString(Framing v) { return kFramingNames.name(v); }

/// Keys and ranges of RenderSettings' numbers (sim/base/param.h); the defaults are its member
/// initialisers. Colours and directions give each component's range.
namespace renderParams {
inline constexpr sim::Param width{.key = "width", .min = 1, .max = 8192, .integer = true};
inline constexpr sim::Param height{.key = "height", .min = 1, .max = 8192, .integer = true};
/// fieldMax is also > fieldMin.
inline constexpr sim::Param fieldMin{.key = "fieldMin", .softMin = -1e6, .softMax = 1e6};
inline constexpr sim::Param fieldMax{.key = "fieldMax", .softMin = -1e6, .softMax = 1e6};
inline constexpr sim::Param yaw{.key = "yaw", .softMin = -360, .softMax = 360, .decimals = 1};
inline constexpr sim::Param pitch{.key = "pitch", .min = -89, .max = 89, .decimals = 1};
inline constexpr sim::Param fov{
    .key = "fov", .min = 0, .max = 180, .openMin = true, .openMax = true, .decimals = 1};
inline constexpr sim::Param zoom{
    .key = "zoom", .min = 0, .openMin = true, .softMax = 100, .decimals = 2};
/// Framing::Effect: the share of the frame's width and height left empty on each side.
inline constexpr sim::Param framingPadding{.key = "framingPadding",
                                           .min = 0,
                                           .max = 0.45,
                                           .decimals = 3};
inline constexpr sim::Param lightDirection{.key = "lightDirection"};
inline constexpr sim::Param lightColor{.key = "lightColor", .min = 0};
inline constexpr sim::Param lightIntensity{.key = "lightIntensity", .min = 0};
inline constexpr sim::Param ambient{.key = "ambient", .min = 0};
inline constexpr sim::Param skyColor{.key = "skyColor", .min = 0};
inline constexpr sim::Param groundColor{.key = "groundColor", .min = 0};
inline constexpr sim::Param anisotropy{
    .key = "anisotropy", .min = -1, .max = 1, .openMin = true, .openMax = true, .decimals = 2};
inline constexpr sim::Param multipleScattering{.key = "multipleScattering",
                                               .min = 0,
                                               .softMax = 4,
                                               .decimals = 2};
inline constexpr sim::Param emissionScattering{.key = "emissionScattering",
                                               .min = 0,
                                               .softMax = 10,
                                               .decimals = 2};
inline constexpr sim::Param exposure{.key = "exposure",
                                     .softMin = -10,
                                     .softMax = 10,
                                     .decimals = 2};
inline constexpr sim::Param smokeColor{.key = "smokeColor", .min = 0};
inline constexpr sim::Param densityScale{.key = "densityScale", .min = 0};
inline constexpr sim::Param stepCells{.key = "stepCells", .min = 0, .max = 4, .openMin = true};
inline constexpr sim::Param emissionIntensity{.key = "emissionIntensity",
                                              .min = 0,
                                              .softMax = 1000,
                                              .decimals = 2};
/// emissionMax is also > emissionMin.
inline constexpr sim::Param emissionMin{.key = "emissionMin"};
inline constexpr sim::Param emissionMax{.key = "emissionMax"};
inline constexpr sim::Param flameIntensity{.key = "flameIntensity",
                                           .min = 0,
                                           .softMax = 1000,
                                           .decimals = 2};
inline constexpr sim::Param surfaceIso{.key = "surfaceIso",
                                       .softMin = 0,
                                       .softMax = 10,
                                       .decimals = 3};
inline constexpr sim::Param surfaceColor{.key = "surfaceColor", .min = 0};
inline constexpr sim::Param foamSpeed{.key = "foamSpeed", .min = 0, .softMax = 100, .decimals = 2};
} // namespace renderParams

/// How the renderer turns simulation fields into images (docs/flipbook.md). Plain data kept in
/// the scene's export presets. Colours are linear RGB; lengths in world units.
struct RenderSettings
{
    int width = 256;  ///< frame width in pixels
    int height = 256; ///< frame height in pixels

    // 2D
    Look2D look2D = Look2D::Dye;
    sim::FieldKind field = sim::FieldKind::Density; ///< Look2D::Field only
    ColorMap colorMap = ColorMap::Inferno;
    float fieldMin = 0.f; ///< maps to the colour map's start
    float fieldMax = 1.f; ///< maps to its end

    // 3D camera: it looks at the domain's centre. yaw 0, pitch 0 is the front view (looking
    // along -z, x right, y up); yaw turns about +y, pitch raises the camera. The domain is
    // fitted into the frame; `zoom` > 1 magnifies.
    Projection projection = Projection::Orthographic;
    float yaw = 0.f;   ///< degrees
    float pitch = 0.f; ///< degrees (renderParams::pitch)
    float fov = 40.f;  ///< perspective: vertical field of view in degrees
    float zoom = 1.f;
    /// Domain: the camera frames the domain. Effect: it frames the box of the visible smoke
    /// over every frame a bake renders (one camera for all of them), grown so that
    /// framingPadding of the frame is left empty on each side, except where the box meets the
    /// domain's side (nothing lies beyond it); yaw, pitch, projection and zoom
    /// mean what they mean for the domain. A single frame (the window's preview) frames its
    /// own smoke.
    Framing framing = Framing::Domain;
    float framingPadding = 0.04f;

    // 3D lighting (docs/render.md): a directional light (the sun) with shadows, multiple
    // scattering, light from the sky above and the ground below, and emission that lights the
    // smoke around it.
    sim::Vec3 lightDirection{-0.5f, 1.f, 0.5f}; ///< towards the light (normalised on use)
    sim::Vec3 lightColor{1.f, 0.97f, 0.92f};
    float lightIntensity = 1.f;
    /// Sky and ground light: the sky's radiance is ambient * skyColor from above, the ground's
    /// ambient * groundColor from below; smoke in the open scatters their mean, smoke shaded by
    /// smoke above or below it less (the surface look keeps a plain ambient term).
    float ambient = 0.25f;
    sim::Vec3 skyColor{1.1f, 1.15f, 1.25f};
    sim::Vec3 groundColor{0.6f, 0.55f, 0.5f};
    sim::Vec3 smokeColor{0.9f, 0.9f, 0.9f}; ///< albedo (2D: colour) where there is no dye
    float densityScale = 20.f;              ///< extinction per unit density per world unit
    float stepCells = 0.75f;                ///< ray-march step in cells
    /// Henyey-Greenstein phase g: > 0 scatters forwards (bright towards a light behind the
    /// smoke), < 0 backwards, 0 evenly.
    float anisotropy = 0.f;
    /// Multiple scattering's strength: 0 is single scattering; 1 follows a path tracer.
    float multipleScattering = 1.f;
    /// How strongly emission (fire, hot gas) lights the smoke around it; 0 turns it off, 1
    /// follows a path tracer.
    float emissionScattering = 1.f;
    /// Images (PNG, the window): the linear light times 2^exposure, then the tone curve.
    float exposure = 0.f;
    ToneCurve toneCurve = ToneCurve::Filmic;

    // Emission (2D and 3D, docs/blackbody.md): blackbody colour from temperature, mapped to
    // 1000 K at emissionMin and 6500 K at emissionMax. Hot gas glows from emissionMin on,
    // brightening as the square of the way to emissionMax; the flame field of combustion
    // glows in its temperature's colour, as bright as flame times flameIntensity. 0
    // intensity turns either off.
    float emissionIntensity = 1.f;
    float emissionMin = 0.5f;   ///< temperature above ambient where glowing starts (1000 K)
    float emissionMax = 6.f;    ///< temperature of full, white-hot glow (6500 K)
    float flameIntensity = 4.f; ///< brightness per unit of flame

    // The surface looks (Look2D::Surface, Look3D::Surface; docs/surfaces.md): the liquid's
    // surface from its particles, or for grid schemes the level surface density == surfaceIso,
    // lit by the light above (diffuse and specular) plus ambient; foam-white where the speed
    // approaches foamSpeed.
    Look3D look3D = Look3D::Volume;
    float surfaceIso = 0.5f;                   ///< density of the level surface (grid schemes)
    sim::Vec3 surfaceColor{0.1f, 0.35f, 0.7f}; ///< the liquid's albedo
    float foamSpeed = 2.f;                     ///< world units / s of fully white foam; 0: no foam

    QJsonObject extra; ///< unknown keys kept from the scene file

    friend bool operator==(const RenderSettings &, const RenderSettings &) = default;
};

/// Refuses a value outside its renderParams range, a field or emission range with max <= min
/// and a zero light direction; the message names the setting.
sim::Status checkRenderSettings(const RenderSettings &s);

} // namespace plume
