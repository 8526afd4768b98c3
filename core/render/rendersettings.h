#pragma once

#include "colormap.h"

#include <sim/solver.h>
#include <sim/types.h>

#include <QJsonObject>

#include <cstdint>
#include <string>

namespace plume {

/// What a 2D frame shows. Stored as "dye" and "field".
enum class Look2D : std::uint8_t {
    Dye,   ///< dye colour (white without dye) with density as alpha, like the window's view
    Field, ///< `field` through `colorMap`, opaque inside the domain
};

/// How a 3D camera projects. Stored as "orthographic" and "perspective".
enum class Projection : std::uint8_t { Orthographic, Perspective };

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
    float pitch = 0.f; ///< degrees, in [-89, 89]
    float fov = 40.f;  ///< perspective: vertical field of view in degrees
    float zoom = 1.f;

    // 3D lighting: a directional light with shadows, an ambient term and emission.
    sim::Vec3 lightDirection{-0.5f, 1.f, 0.5f}; ///< towards the light (normalised on use)
    sim::Vec3 lightColor{1.f, 0.97f, 0.92f};
    float lightIntensity = 1.f;
    float ambient = 0.25f;     ///< light reaching every point regardless of shadows
    sim::Vec3 smokeColor{0.9f, 0.9f, 0.9f}; ///< albedo where there is no dye
    float densityScale = 20.f; ///< extinction per unit density per world unit
    float stepCells = 0.75f;   ///< ray-march step in cells, in (0, 4]

    // Emission (2D and 3D): blackbody-style colour from temperature. Below emissionMin
    // nothing glows; at emissionMax the colour is white-hot. 0 intensity turns it off.
    float emissionIntensity = 1.f;
    float emissionMin = 0.5f; ///< temperature above ambient where glowing starts
    float emissionMax = 6.f;  ///< temperature of full, white-hot glow

    QJsonObject extra; ///< unknown keys kept from the scene file

    friend bool operator==(const RenderSettings &, const RenderSettings &) = default;
};

const char *toString(Look2D v);
const char *toString(Projection v);
bool look2DFromString(const std::string &s, Look2D &out);
bool projectionFromString(const std::string &s, Projection &out);

/// Refuses sizes outside [1, 8192], non-positive steps, a field range with max <= min, and
/// out-of-range camera values; the message names the setting.
sim::Status checkRenderSettings(const RenderSettings &s);

} // namespace plume
