// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/render/rendersettings.h>

#include <core/sim/base/domain.h>
#include <core/sim/base/grid.h>
#include <core/sim/base/solver.h>

#include <algorithm>
#include <vector>

namespace plume {

/// An axis-aligned box in world units; empty unless low <= high on every axis.
struct WorldBox
{
    sim::Vec3 low{1.f, 1.f, 1.f};
    sim::Vec3 high{0.f, 0.f, 0.f};

    bool empty() const { return !(low.x <= high.x && low.y <= high.y && low.z <= high.z); }
    /// The smallest box holding both (an empty one adds nothing).
    void add(const WorldBox &b)
    {
        if (b.empty())
            return;
        if (empty()) {
            *this = b;
            return;
        }
        for (int a = 0; a < 3; ++a) {
            low[a] = std::min(low[a], b.low[a]);
            high[a] = std::max(high[a], b.high[a]);
        }
    }
    friend bool operator==(const WorldBox &, const WorldBox &) = default;
};

/// The cell-centred fields of one frame that rendering reads. Grids that a look does not need
/// may stay empty (count() == 0); dye is used when all three channels are present.
struct FrameFields
{
    sim::Domain domain;
    sim::ScalarGrid density;
    sim::ScalarGrid temperature;                     ///< above ambient
    sim::ScalarGrid velocityX, velocityY, velocityZ; ///< world units / s
    sim::ScalarGrid dyeRed, dyeGreen, dyeBlue;       ///< colour times density
    sim::ScalarGrid flame;                           ///< combustion's visible fire, or empty
    sim::ScalarGrid field;                           ///< Look2D::Field: the chosen field
    /// The surface looks: negative inside the liquid, zero on its surface (surface/surface.h:
    /// the particles' signed distance, or surfaceIso - density); speed (world units / s) for
    /// the foam, or empty.
    sim::ScalarGrid surface;
    sim::ScalarGrid speed;
    /// Framing::Effect (render/framing.h): the box the 3D camera frames, the same for every
    /// frame of a bake; empty: the frame's own visible box. Framing::Domain ignores it.
    WorldBox framed;

    bool hasDye() const { return dyeRed.count() != 0 && dyeRed.count() == density.count(); }
    bool hasFlame() const { return flame.count() != 0 && flame.count() == density.count(); }
};

/// Samples from a solver the fields that `settings` needs (velocity only when `motion`; the
/// flame when the solver has combustion; for a surface look the surface field, from the
/// solver's particles when it has them, and the speed when foamSpeed > 0).
void sampleFrameFields(const sim::Solver &solver, const RenderSettings &settings, bool motion,
                       float ambientTemperature, FrameFields &out);

/// What a render computes besides colour and emission (docs/flipbook.md, "Passes").
struct PassRequest
{
    bool motion = false;          ///< screen-space motion vectors
    bool sixWay = false;          ///< six lightmaps, one per camera-relative light direction
    bool normals = false;         ///< density-weighted gradient normals
    bool depth = false;           ///< distance to the first point over depthThreshold opacity
    float depthThreshold = 0.05f; ///< in (0, 1)
};

/// The six-way light directions, camera-relative, in the order of RenderedFrame::sixWay:
/// right, top, back (behind the smoke, away from the camera), left, bottom, front (the camera's
/// side). Unity's Six Way shader reads the first three as RGB of one texture, the last three
/// as RGB of the other.
inline constexpr int kSixWayLights = 6;

/// One rendered frame, row 0 at the top. All planes have width * height pixels; a pass that
/// was not asked for (or does not apply) is an empty vector.
struct RenderedFrame
{
    int width = 0;
    int height = 0;
    std::vector<float> color;    ///< RGBA, linear, premultiplied by alpha (emission excluded)
    std::vector<float> emission; ///< RGB, linear, additive (no alpha)
    std::vector<float> motion;   ///< XY in frame pixels per frame; +x right, +y up; 0 outside
    bool hasMotion = false;
    /// 6 per pixel (kSixWayLights order): light of a white directional light of intensity 1
    /// scattered towards the camera by smoke of albedo 1, without ambient; premultiplied like
    /// colour (at most alpha). Straight values are sixWay / alpha.
    std::vector<float> sixWay;
    /// 3 per pixel: unit normal in camera space (x right, y up, z towards the camera); (0, 0, 1)
    /// where nothing is visible.
    std::vector<float> normal;
    /// 1 per pixel in [0, 1]: (distance - depthNear) / (depthFar - depthNear) along the view ray
    /// to where opacity first reaches the threshold; 1 where it never does.
    std::vector<float> depth;
    float depthNear = 0.f; ///< world units from the camera: the domain's bounding sphere's
    float depthFar = 1.f;  ///< nearest and farthest points

    std::size_t pixels() const { return std::size_t(width) * std::size_t(height); }
};

/// Renders a frame on the CPU: in 2D the dye or a colour-mapped field, in 3D a ray-marched
/// volume lit by the light model of docs/render.md (a directional light with shadows and
/// multiple scattering, sky and ground light, emission from hot gas and flame, emissionColor,
/// and the light that emission scatters off the smoke around it; illumination.h). `motion` also
/// computes screen-space motion vectors, `frameRate` (frames per second) turns velocities into
/// pixels per frame. The result does not depend on the thread count (rows are independent). An
/// empty domain gives a transparent frame. The surface looks (Look2D::Surface in 2D,
/// Look3D::Surface in 3D) draw fields.surface instead (render/surfacerender.h); without it the
/// frame is transparent.
RenderedFrame renderFrame(const FrameFields &fields, const RenderSettings &settings, bool motion,
                          float frameRate);

/// Whether `settings` draw a surface look for a domain of this dimension.
bool surfaceLook(const RenderSettings &settings, bool is2D);

/// renderFrame with the extra passes of `passes` (docs/flipbook.md): six-way lightmaps (3D:
/// six transmittance volumes, one per camera-relative direction; 2D: the domain as a thin slab,
/// see the docs), normals (3D: the opacity-weighted mean of -grad density along the ray; 2D:
/// a puff facing the camera as much as it is opaque, tilted down the optical depth) and depth (3D
/// only; a 2D frame leaves it empty).
RenderedFrame renderFrame(const FrameFields &fields, const RenderSettings &settings,
                          const PassRequest &passes, float frameRate);

/// Hot gas glows like thin smoke: it emits kEmissionRate * densityScale * emissionColor of
/// radiance per world unit (the ray march's `glow`, and the source of emission light,
/// illumination.h).
inline constexpr float kEmissionRate = 0.5f;

/// The blackbody temperatures that emissionMin and emissionMax stand for.
inline constexpr float kEmissionMinKelvin = 1000.f; ///< dark red
inline constexpr float kEmissionMaxKelvin = 6500.f; ///< white (sRGB's D65 white point)

/// Kelvin of a temperature above ambient (docs/blackbody.md): 1000 K at emissionMin rising
/// linearly to 6500 K at emissionMax, clamped to that range.
float emissionKelvin(const RenderSettings &settings, float temperature);

/// Light (linear RGB) emitted where the gas has `temperature` (above ambient) and `flame`: hot
/// gas glows above emissionMin with blackbodyColor(emissionKelvin) * t^2 * emissionIntensity,
/// t = (temperature - emissionMin) / (emissionMax - emissionMin) clamped to [0, 1]; flame adds
/// blackbodyColor(emissionKelvin) * flameIntensity * flame. The same formula runs in the
/// volume view's shader. Non-finite inputs emit nothing.
sim::Vec3 emissionColor(const RenderSettings &settings, float temperature, float flame);

} // namespace plume
