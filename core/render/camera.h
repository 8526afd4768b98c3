// SPDX-License-Identifier: Apache-2.0
#pragma once

// The 3D renderer's camera and sampling helpers, shared by the volume march (volumemarch.cpp)
// and the surface look (surfacerender.cpp).

#include <core/render/renderer.h>
#include <core/render/rendersettings.h>

#include <core/sim/base/domain.h>
#include <core/sim/base/types.h>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace plume::detail {

using sim::Int3;
using sim::Vec3;

inline constexpr float kDegrees = std::numbers::pi_v<float> / 180.f;

inline Vec3 normalized(Vec3 v)
{
    const float l = length(v);
    return l > 0.f ? v * (1.f / l) : Vec3{0.f, 1.f, 0.f};
}

/// Trilinear weights at a cell-coordinate position of a cell-centred grid (clamped to the
/// outermost centres), reused for every field sampled there.
struct Trilinear
{
    std::size_t base, dx, dy, dz;
    float fx, fy, fz;

    Trilinear(const Int3 &n, const Vec3 &p)
    {
        const float q[3] = {std::clamp(p.x - 0.5f, 0.f, float(n.x - 1)),
                            std::clamp(p.y - 0.5f, 0.f, float(n.y - 1)),
                            std::clamp(p.z - 0.5f, 0.f, float(n.z - 1))};
        int i[3], d[3];
        float f[3];
        for (int a = 0; a < 3; ++a) {
            i[a] = std::min(int(q[a]), n[a] - 1);
            d[a] = i[a] + 1 < n[a] ? 1 : 0;
            f[a] = q[a] - float(i[a]);
        }
        const std::size_t sy = std::size_t(n.x), sz = std::size_t(n.x) * n.y;
        base = std::size_t(i[0]) + sy * i[1] + sz * i[2];
        dx = std::size_t(d[0]);
        dy = sy * d[1];
        dz = sz * d[2];
        fx = f[0];
        fy = f[1];
        fz = f[2];
    }
    float operator()(const float *g) const
    {
        const float *a = g + base;
        const float c00 = a[0] + fx * (a[dx] - a[0]);
        const float c10 = a[dy] + fx * (a[dy + dx] - a[dy]);
        const float c01 = a[dz] + fx * (a[dz + dx] - a[dz]);
        const float c11 = a[dz + dy] + fx * (a[dz + dy + dx] - a[dz + dy]);
        const float c0 = c00 + fy * (c10 - c00);
        const float c1 = c01 + fy * (c11 - c01);
        return c0 + fz * (c1 - c0);
    }
};

/// Orbit camera around the centre of the box it frames (see RenderSettings): the domain, or
/// with Framing::Effect the box `framed` (when not empty) grown by framingPadding but not past
/// the domain's sides.
struct Camera
{
    Vec3 position, forward, right, up;
    bool perspective = false;
    float scale = 1.f; ///< orthographic: pixels per world unit
    float focal = 1.f; ///< perspective: focal length in pixels
    float halfW = 0.f, halfH = 0.f;
    float nearDistance = 0.f, farDistance = 1.f; ///< the framed box's bounding sphere along a ray

    Camera(const sim::Domain &domain, const RenderSettings &s, int width, int height,
           const WorldBox &framed = {})
    {
        const sim::Param &pitchRange = renderParams::pitch;
        const float yaw = s.yaw * kDegrees;
        const float pitch = std::clamp(s.pitch, float(pitchRange.min), float(pitchRange.max))
                            * kDegrees;
        const Vec3 toCamera{std::sin(yaw) * std::cos(pitch), std::sin(pitch),
                            std::cos(yaw) * std::cos(pitch)};
        forward = toCamera * -1.f;
        right = normalized(cross(forward, Vec3{0.f, 1.f, 0.f}));
        up = cross(right, forward);
        halfW = 0.5f * float(width);
        halfH = 0.5f * float(height);
        const bool effect = s.framing == Framing::Effect && !framed.empty();
        Vec3 extent = domain.extent();
        Vec3 centre = domain.origin + extent * 0.5f;
        // Orthographic rays start on a plane this far behind the centre: outside the domain.
        float behind = 0.5f * length(extent);
        if (effect) {
            // The padding, but never past the domain's sides: nothing shows beyond them.
            const float grow = 1.f / (1.f - 2.f * std::clamp(s.framingPadding, 0.f, 0.45f));
            const Vec3 domainCentre = centre, domainLow = domain.origin;
            const Vec3 domainHigh = domain.origin + domain.extent();
            const Vec3 middle = (framed.low + framed.high) * 0.5f;
            const Vec3 half = (framed.high - framed.low) * (0.5f * grow);
            Vec3 low, high;
            for (int a = 0; a < 3; ++a) {
                low[a] = std::max(middle[a] - half[a], domainLow[a]);
                high[a] = std::min(middle[a] + half[a], domainHigh[a]);
            }
            extent = high - low;
            centre = (low + high) * 0.5f;
            behind += length(centre - domainCentre);
        }
        const float radius = 0.5f * length(extent);
        perspective = s.projection == Projection::Perspective;
        if (perspective) {
            const float half = 0.5f * std::clamp(s.fov, 1.f, 170.f) * kDegrees;
            const float distance = radius / std::sin(half);
            position = centre + toCamera * distance;
            focal = halfH / std::tan(half) * s.zoom;
            nearDistance = distance - radius;
            farDistance = distance + radius;
            return;
        }
        // The box's projected half extents along right and up.
        float ex = 0.f, ey = 0.f;
        for (int c = 0; c < 8; ++c) {
            const Vec3 corner{(c & 1 ? 0.5f : -0.5f) * extent.x, (c & 2 ? 0.5f : -0.5f) * extent.y,
                              (c & 4 ? 0.5f : -0.5f) * extent.z};
            ex = std::max(ex, std::abs(dot(corner, right)));
            ey = std::max(ey, std::abs(dot(corner, up)));
        }
        scale = std::min(halfW / std::max(ex, 1e-6f), halfH / std::max(ey, 1e-6f)) * s.zoom;
        if (!effect) {
            position = centre - forward * (2.f * radius);
            nearDistance = radius;
            farDistance = 3.f * radius;
            return;
        }
        position = centre - forward * (radius + behind);
        nearDistance = behind;
        farDistance = behind + 2.f * radius;
    }

    /// Origin and unit direction of the ray through the centre of pixel (px, py).
    void ray(int px, int py, Vec3 &origin, Vec3 &direction) const
    {
        const float sx = float(px) + 0.5f - halfW;
        const float sy = halfH - (float(py) + 0.5f);
        if (perspective) {
            origin = position;
            direction = normalized(forward * focal + right * sx + up * sy);
        } else {
            origin = position + right * (sx / scale) + up * (sy / scale);
            direction = forward;
        }
    }

    /// Pixels per world unit of motion at world point x (perspective: focal / depth).
    float pixelsPerUnit(const Vec3 &x) const
    {
        return perspective ? focal / std::max(dot(x - position, forward), 1e-4f) : scale;
    }
};

/// Entry and exit distances of a ray through the box [0, n] in cell coordinates.
inline bool clipToBox(const Vec3 &o, const Vec3 &d, const Int3 &n, float &t0, float &t1)
{
    t0 = 0.f;
    t1 = 1e30f;
    for (int a = 0; a < 3; ++a) {
        if (std::abs(d[a]) < 1e-12f) {
            if (o[a] < 0.f || o[a] > float(n[a]))
                return false;
            continue;
        }
        float ta = (0.f - o[a]) / d[a], tb = (float(n[a]) - o[a]) / d[a];
        if (ta > tb)
            std::swap(ta, tb);
        t0 = std::max(t0, ta);
        t1 = std::min(t1, tb);
    }
    return t1 > t0;
}

} // namespace plume::detail
