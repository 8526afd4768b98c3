// SPDX-License-Identifier: Apache-2.0
#include <core/render/volumemarch.h>

#include <core/render/camera.h>
#include <core/render/illumination.h>
#include <core/render/lightmodel.h>
#include <core/render/lightvolume.h>
#include <core/render/marchbounds.h>

#include <core/sim/base/parallel.h>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace plume::detail {

using sim::Int3;
using sim::Vec3;

namespace {

/// -grad density at a cell-coordinate point (central differences over one cell).
Vec3 densityGradient(const float *density, const Int3 &n, const Vec3 &p)
{
    auto at = [&](float dx, float dy, float dz) {
        return Trilinear(n, p + Vec3{dx, dy, dz})(density);
    };
    return Vec3{at(-1.f, 0.f, 0.f) - at(1.f, 0.f, 0.f), at(0.f, -1.f, 0.f) - at(0.f, 1.f, 0.f),
                at(0.f, 0.f, -1.f) - at(0.f, 0.f, 1.f)}
           * 0.5f;
}

/// Front-to-back compositing of one pixel's ray.
struct Marcher
{
    const FrameFields &f;
    const RenderSettings &s;
    const Camera &camera;
    const Illumination &light; ///< the frame's sun, sky and emission light (illumination.h)
    bool motion, dye, hot, fire;
    float frameRate;
    Vec3 sun;         ///< the light's colour times its intensity
    Vec3 towardsSun;  ///< unit
    Vec3 sky, ground; ///< half the sky's and the ground's radiance (ambient * colour / 2)
    const PassRequest &passes;
    const sim::ScalarGrid *sixLight; ///< kSixWayLights transmittances when passes.sixWay
    const Vec3 *sixToLight;          ///< their directions (towards the light)
    MarchBounds bounds;              ///< samples outside show nothing (marchbounds.h)

    void pixel(int px, int py, RenderedFrame &out) const
    {
        const float h = f.domain.cellSize;
        const Int3 n = f.domain.cells;
        Vec3 o, d;
        camera.ray(px, py, o, d);
        const Vec3 oc = f.domain.toCell(o);
        const Vec3 dc = d * (1.f / h);
        float t0, t1;
        if (!clipToBox(oc, dc, n, t0, t1))
            return;
        const float dt = s.stepCells * h; // t is in world units along the ray
        const int steps = int(std::ceil((t1 - t0) / dt));
        int first = 0, last = -1; // only the samples that can show something
        if (!marchRange(bounds, oc, dc, t0, dt, steps, first, last))
            last = -1;
        const float emissionRate = kEmissionRate * s.densityScale;
        const float ms = s.multipleScattering;
        const OctavePhases sunPhases(dot(towardsSun, d), s.anisotropy);
        OctavePhases sixPhases[kSixWayLights];
        for (int l = 0; passes.sixWay && l < kSixWayLights; ++l)
            sixPhases[l] = OctavePhases(dot(sixToLight[l], d), s.anisotropy);
        const bool lit = light.hasSun(), skyLit = light.hasSky();
        const bool emissionLit = light.hasEmission();
        const Int3 coarseN = skyLit ? light.skyUp.size()
                                    : (emissionLit ? light.emission[0].size() : Int3{});
        const float toCoarse = 1.f / float(light.coarseFactor);
        float trans = 1.f, rgb[3] = {0.f, 0.f, 0.f}, glow[3] = {0.f, 0.f, 0.f};
        float weight = 0.f, mx = 0.f, my = 0.f;
        float six[kSixWayLights] = {};
        Vec3 normal{};
        float depth = -1.f; // world distance along the ray; < 0: not reached
        for (int k = first; k <= last && trans > 1e-3f; ++k) {
            const float ta = t0 + float(k) * dt;
            const float ds = std::min(dt, t1 - ta);
            const Vec3 p = oc + dc * (ta + 0.5f * ds);
            const Trilinear w(n, p);
            if (hot) {
                // Hot gas and flame emit over (1 - exp(-emissionRate ds)) per step, so the
                // glow grows with the depth of hot gas; the smoke in front absorbs it.
                const float temp = w(f.temperature.data());
                const Vec3 e = emissionColor(s, temp, fire ? w(f.flame.data()) : 0.f);
                if (e.x > 0.f || e.y > 0.f || e.z > 0.f) {
                    const float a = trans * (1.f - std::exp(-emissionRate * ds));
                    glow[0] += a * e.x;
                    glow[1] += a * e.y;
                    glow[2] += a * e.z;
                }
            }
            const float density = w(f.density.data());
            if (!(density > kMarchDensityFloor))
                continue;
            const float a = 1.f - std::exp(-s.densityScale * density * ds);
            Vec3 albedo = s.smokeColor;
            if (dye) {
                const float inv = 1.f / density;
                albedo = {std::min(w(f.dyeRed.data()) * inv, 1.f),
                          std::min(w(f.dyeGreen.data()) * inv, 1.f),
                          std::min(w(f.dyeBlue.data()) * inv, 1.f)};
            }
            const float c = trans * a;
            // The sun, single and multiply scattered; the sky above and the ground below.
            Vec3 in{};
            if (lit) {
                const ScatterOctaves sunOctaves(w(light.sun.data()), sunPhases);
                in = {sun.x * sunOctaves(albedo.x, ms), sun.y * sunOctaves(albedo.y, ms),
                      sun.z * sunOctaves(albedo.z, ms)};
            }
            if (skyLit || emissionLit) {
                const Trilinear wc(coarseN, p * toCoarse);
                if (skyLit) {
                    const float up = wc(light.skyUp.data()), down = wc(light.skyDown.data());
                    in = in + sky * up + ground * down;
                }
                if (emissionLit) { // light from emission is emission too: it goes with the glow
                    const float e = c * s.emissionScattering;
                    glow[0] += e * albedo.x * wc(light.emission[0].data());
                    glow[1] += e * albedo.y * wc(light.emission[1].data());
                    glow[2] += e * albedo.z * wc(light.emission[2].data());
                }
            }
            rgb[0] += c * albedo.x * in.x;
            rgb[1] += c * albedo.y * in.y;
            rgb[2] += c * albedo.z * in.z;
            if (motion) {
                const Vec3 v{w(f.velocityX.data()), w(f.velocityY.data()), w(f.velocityZ.data())};
                const float ppu = camera.pixelsPerUnit(f.domain.toWorld(p)) / frameRate;
                mx += c * dot(v, camera.right) * ppu;
                my += c * dot(v, camera.up) * ppu;
                weight += c;
            }
            if (passes.sixWay) {
                // Per unit albedo, with multiple scattering at the sample's mean albedo.
                const float grey = (albedo.x + albedo.y + albedo.z) * (1.f / 3.f);
                for (int l = 0; l < kSixWayLights; ++l)
                    six[l] += c * ScatterOctaves(w(sixLight[l].data()), sixPhases[l])(grey, ms);
            }
            if (passes.normals)
                normal = normal + densityGradient(f.density.data(), n, p) * c;
            const float before = 1.f - trans;
            trans *= 1.f - a;
            const float after = 1.f - trans;
            if (passes.depth && depth < 0.f && after >= passes.depthThreshold)
                depth = ta + ds * (passes.depthThreshold - before) / (after - before);
        }
        const std::size_t q = std::size_t(py) * out.width + px;
        for (int ch = 0; ch < 3; ++ch) {
            out.color[4 * q + ch] = rgb[ch];
            out.emission[3 * q + ch] = glow[ch];
        }
        out.color[4 * q + 3] = 1.f - trans;
        if (motion && weight > 1e-4f) {
            out.motion[2 * q] = mx / weight;
            out.motion[2 * q + 1] = my / weight;
        }
        for (int l = 0; passes.sixWay && l < kSixWayLights; ++l)
            out.sixWay[kSixWayLights * q + l] = six[l];
        if (passes.normals) {
            const Vec3 c{dot(normal, camera.right), dot(normal, camera.up),
                         -dot(normal, camera.forward)};
            const float l = length(c);
            if (l > 1e-12f) {
                for (int a = 0; a < 3; ++a)
                    out.normal[3 * q + a] = c[a] / l;
            }
        }
        if (passes.depth && depth >= 0.f) {
            // Distance from the camera: t runs from the ray's origin (perspective: the camera;
            // orthographic: the camera's plane).
            const float range = camera.farDistance - camera.nearDistance;
            out.depth[q] = std::clamp((depth - camera.nearDistance) / range, 0.f, 1.f);
        }
    }
};

} // namespace

void renderVolume(const FrameFields &fields, const RenderSettings &s, const PassRequest &passes,
                  float frameRate, const WorldBox &framed, RenderedFrame &out)
{
    const Camera camera(fields.domain, s, out.width, out.height, framed);
    const bool motion = passes.motion;
    out.depthNear = camera.nearDistance;
    out.depthFar = camera.farDistance;
    // Six-way: one transmittance volume per camera-relative light direction (towards the
    // light): right, top, back (behind the smoke), left, bottom, front (the camera's side).
    const Vec3 toLight[kSixWayLights] = {camera.right,     camera.up,
                                         camera.forward,   camera.right * -1.f,
                                         camera.up * -1.f, camera.forward * -1.f};
    sim::ScalarGrid sixLight[kSixWayLights];
    if (passes.sixWay) {
        for (int l = 0; l < kSixWayLights; ++l)
            sixLight[l] = lightTransmittance(fields.density, nullptr, toLight[l], s.densityScale,
                                             fields.domain.cellSize);
    }
    const bool fire = s.flameIntensity > 0.f && fields.hasFlame();
    const bool hot = (s.emissionIntensity > 0.f || fire)
                     && fields.temperature.count() == fields.density.count();
    const Illumination light = computeIllumination({fields.density, nullptr,
                                                    hot ? &fields.temperature : nullptr,
                                                    fire ? &fields.flame : nullptr},
                                                   s, fields.domain.cellSize);
    const Marcher marcher{fields,
                          s,
                          camera,
                          light,
                          motion,
                          fields.hasDye(),
                          hot,
                          fire,
                          frameRate,
                          s.lightColor * s.lightIntensity,
                          normalized(s.lightDirection),
                          s.skyColor * (0.5f * s.ambient),
                          s.groundColor * (0.5f * s.ambient),
                          passes,
                          sixLight,
                          toLight,
                          marchBounds(
                              {fields.density,
                               hot && s.emissionIntensity > 0.f ? &fields.temperature : nullptr,
                               s.emissionMin, fire ? &fields.flame : nullptr, nullptr})};
    sim::forEachRow(Int3{out.width, out.height, 1}, [&](int py, int) {
        for (int px = 0; px < out.width; ++px)
            marcher.pixel(px, py, out);
    });
}

} // namespace plume::detail
