// SPDX-License-Identifier: Apache-2.0
#include <core/render/surfacerender.h>

#include <core/render/camera.h>

#include <core/sim/base/parallel.h>

#include <algorithm>
#include <cmath>

namespace plume::detail {

namespace {

constexpr float kShininess = 48.f; ///< Blinn-Phong exponent: a wet, glossy highlight
constexpr float kSpecular = 0.6f;  ///< highlight strength
constexpr float kRimCells = 3.f;   ///< 2D: width of the rounded rim
constexpr Vec3 kFoam{0.95f, 0.97f, 1.f};

/// Foam: none below half of foamSpeed, fully white at foamSpeed (smoothstep between).
float foamAmount(const RenderSettings &s, float speed)
{
    if (!(s.foamSpeed > 0.f) || !(speed > 0.f))
        return 0.f;
    const float x = std::clamp((speed / s.foamSpeed - 0.5f) * 2.f, 0.f, 1.f);
    return x * x * (3.f - 2.f * x);
}

/// Lit colour of a surface point with outward unit normal n seen along the unit vector
/// `toEye`.
Vec3 shade(const RenderSettings &s, const Vec3 &n, const Vec3 &toEye, float foam)
{
    const Vec3 l = normalized(s.lightDirection);
    const Vec3 light = s.lightColor * s.lightIntensity;
    const Vec3 albedo = s.surfaceColor + (kFoam - s.surfaceColor) * foam;
    const float diffuse = std::max(dot(n, l), 0.f);
    const Vec3 h = normalized(l + toEye);
    const float specular = diffuse > 0.f
                               ? kSpecular * std::pow(std::max(dot(n, h), 0.f), kShininess)
                               : 0.f;
    return Vec3{albedo.x * (s.ambient + diffuse * light.x) + specular * light.x,
                albedo.y * (s.ambient + diffuse * light.y) + specular * light.y,
                albedo.z * (s.ambient + diffuse * light.z) + specular * light.z};
}

/// Bilinear sample of a cell-centred 2D grid at cell coordinates (clamped).
float bilinear(const sim::ScalarGrid &g, float x, float y)
{
    const Int3 n = g.size();
    const float qx = std::clamp(x - 0.5f, 0.f, float(n.x - 1));
    const float qy = std::clamp(y - 0.5f, 0.f, float(n.y - 1));
    const int i0 = std::min(int(qx), n.x - 1), j0 = std::min(int(qy), n.y - 1);
    const int i1 = std::min(i0 + 1, n.x - 1), j1 = std::min(j0 + 1, n.y - 1);
    const float fx = qx - float(i0), fy = qy - float(j0);
    const float a = g(i0, j0, 0) + fx * (g(i1, j0, 0) - g(i0, j0, 0));
    const float b = g(i0, j1, 0) + fx * (g(i1, j1, 0) - g(i0, j1, 0));
    return a + fy * (b - a);
}

/// Outward gradient of the field at a cell-coordinate point (per cell, central differences).
Vec3 gradient3(const float *phi, const Int3 &n, const Vec3 &p)
{
    auto at = [&](float dx, float dy, float dz) { return Trilinear(n, p + Vec3{dx, dy, dz})(phi); };
    return Vec3{at(0.5f, 0.f, 0.f) - at(-0.5f, 0.f, 0.f), at(0.f, 0.5f, 0.f) - at(0.f, -0.5f, 0.f),
                at(0.f, 0.f, 0.5f) - at(0.f, 0.f, -0.5f)};
}

} // namespace

void renderSurface2D(const FrameFields &f, const RenderSettings &s, const PassRequest &passes,
                     float frameRate, RenderedFrame &out)
{
    const Int3 n = f.domain.cells;
    const float scale = std::min(float(out.width) / n.x, float(out.height) / n.y) * s.zoom;
    const float ox = 0.5f * (float(out.width) - n.x * scale);
    const float oy = 0.5f * (float(out.height) - n.y * scale);
    const float toPixels = scale / f.domain.cellSize / frameRate;
    const bool foam = f.speed.count() == f.surface.count() && s.foamSpeed > 0.f;
    sim::forEachRow(Int3{out.width, out.height, 1}, [&](int py, int) {
        for (int px = 0; px < out.width; ++px) {
            const float x = (float(px) + 0.5f - ox) / scale;
            const float y = float(n.y) - (float(py) + 0.5f - oy) / scale;
            if (x < 0.f || y < 0.f || x > float(n.x) || y > float(n.y))
                continue;
            // Distance to the surface in cells: the field over its gradient's length.
            const float phi = bilinear(f.surface, x, y);
            const float gx = 0.5f
                             * (bilinear(f.surface, x + 1.f, y) - bilinear(f.surface, x - 1.f, y));
            const float gy = 0.5f
                             * (bilinear(f.surface, x, y + 1.f) - bilinear(f.surface, x, y - 1.f));
            const float g = std::sqrt(gx * gx + gy * gy);
            const float distance = g > 1e-12f ? phi / g : (phi < 0.f ? -1e6f : 1e6f);
            // Antialiased over one pixel (1 / scale cells).
            const float alpha = std::clamp(0.5f - distance * scale, 0.f, 1.f);
            if (!(alpha > 0.f))
                continue;
            // The rim rounds over kRimCells: the normal tilts out along the gradient.
            const float tilt = 1.f - std::clamp(-distance / kRimCells, 0.f, 1.f);
            const Vec3 outward = g > 1e-12f ? Vec3{gx / g, gy / g, 0.f} : Vec3{};
            const Vec3 normal = outward * tilt
                                + Vec3{0.f, 0.f, std::sqrt(std::max(1.f - tilt * tilt, 0.f))};
            const float speed = foam ? bilinear(f.speed, x, y) : 0.f;
            const Vec3 c = shade(s, normal, Vec3{0.f, 0.f, 1.f}, foamAmount(s, speed));
            const std::size_t p = std::size_t(py) * out.width + px;
            for (int ch = 0; ch < 3; ++ch)
                out.color[4 * p + ch] = c[ch] * alpha;
            out.color[4 * p + 3] = alpha;
            if (passes.motion) {
                out.motion[2 * p] = bilinear(f.velocityX, x, y) * toPixels;
                out.motion[2 * p + 1] = bilinear(f.velocityY, x, y) * toPixels;
            }
            if (passes.normals) {
                for (int a = 0; a < 3; ++a)
                    out.normal[3 * p + a] = normal[a];
            }
        }
    });
}

void renderSurface3D(const FrameFields &f, const RenderSettings &s, const PassRequest &passes,
                     float frameRate, const WorldBox &framed, RenderedFrame &out)
{
    const Camera camera(f.domain, s, out.width, out.height, framed);
    out.depthNear = camera.nearDistance;
    out.depthFar = camera.farDistance;
    const float h = f.domain.cellSize;
    const Int3 n = f.domain.cells;
    const float *phi = f.surface.data();
    const bool foam = f.speed.count() == f.surface.count() && s.foamSpeed > 0.f;
    sim::forEachRow(Int3{out.width, out.height, 1}, [&](int py, int) {
        for (int px = 0; px < out.width; ++px) {
            Vec3 o, d;
            camera.ray(px, py, o, d);
            const Vec3 oc = f.domain.toCell(o);
            const Vec3 dc = d * (1.f / h);
            float t0, t1;
            if (!clipToBox(oc, dc, n, t0, t1))
                continue;
            // t in world units along the ray; half-cell steps to the first sign change.
            const float dt = 0.5f * h;
            float ta = t0, va = Trilinear(n, oc + dc * t0)(phi);
            float hit = -1.f;
            Vec3 normal{};
            if (va <= 0.f) {
                // Liquid at the box's face: the cut face, facing the camera along its axis.
                hit = t0;
                const Vec3 p = oc + dc * t0;
                int axis = 0;
                float best = 1e30f;
                for (int a = 0; a < 3; ++a) {
                    const float gap = std::min(std::abs(p[a]), std::abs(p[a] - float(n[a])));
                    if (gap < best) {
                        best = gap;
                        axis = a;
                    }
                }
                normal[axis] = d[axis] > 0.f ? -1.f : 1.f;
            } else {
                for (float tb = t0 + dt; ta < t1; ta = tb, tb += dt) {
                    tb = std::min(tb, t1);
                    const float vb = Trilinear(n, oc + dc * tb)(phi);
                    if (vb <= 0.f) {
                        float lo = ta, hi = tb;
                        for (int it = 0; it < 8; ++it) {
                            const float mid = 0.5f * (lo + hi);
                            (Trilinear(n, oc + dc * mid)(phi) > 0.f ? lo : hi) = mid;
                        }
                        hit = 0.5f * (lo + hi);
                        normal = normalized(gradient3(phi, n, oc + dc * hit));
                        break;
                    }
                    va = vb;
                    if (tb >= t1)
                        break;
                }
            }
            if (hit < 0.f)
                continue;
            const Vec3 pc = oc + dc * hit;
            const Trilinear w(n, pc);
            const float speed = foam ? w(f.speed.data()) : 0.f;
            const Vec3 c = shade(s, normal, d * -1.f, foamAmount(s, speed));
            const std::size_t q = std::size_t(py) * out.width + px;
            for (int ch = 0; ch < 3; ++ch)
                out.color[4 * q + ch] = c[ch];
            out.color[4 * q + 3] = 1.f;
            if (passes.motion) {
                const Vec3 v{w(f.velocityX.data()), w(f.velocityY.data()), w(f.velocityZ.data())};
                const float ppu = camera.pixelsPerUnit(f.domain.toWorld(pc)) / frameRate;
                out.motion[2 * q] = dot(v, camera.right) * ppu;
                out.motion[2 * q + 1] = dot(v, camera.up) * ppu;
            }
            if (passes.normals) {
                out.normal[3 * q] = dot(normal, camera.right);
                out.normal[3 * q + 1] = dot(normal, camera.up);
                out.normal[3 * q + 2] = -dot(normal, camera.forward);
            }
            if (passes.depth) {
                const float range = camera.farDistance - camera.nearDistance;
                out.depth[q] = std::clamp((hit - camera.nearDistance) / range, 0.f, 1.f);
            }
        }
    });
}

} // namespace plume::detail
