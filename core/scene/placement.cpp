// SPDX-License-Identifier: Apache-2.0
#include <core/scene/placement.h>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace plume {

using sim::Vec3;

Affine Affine::after(const Affine &inner) const
{
    Affine out;
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
            out.m[r][c] = m[r][0] * inner.m[0][c] + m[r][1] * inner.m[1][c]
                          + m[r][2] * inner.m[2][c];
    out.t = apply(inner.t);
    return out;
}

Affine Affine::inverse() const
{
    const float a = m[0][0], b = m[0][1], c = m[0][2];
    const float d = m[1][0], e = m[1][1], f = m[1][2];
    const float g = m[2][0], h = m[2][1], i = m[2][2];
    const float A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g;
    const float det = a * A + b * B + c * C;
    if (!(std::abs(det) > 0.f) || !std::isfinite(det))
        return Affine{};
    const float s = 1.f / det;
    Affine inv;
    inv.m[0][0] = A * s;
    inv.m[0][1] = -(b * i - c * h) * s;
    inv.m[0][2] = (b * f - c * e) * s;
    inv.m[1][0] = B * s;
    inv.m[1][1] = (a * i - c * g) * s;
    inv.m[1][2] = -(a * f - c * d) * s;
    inv.m[2][0] = C * s;
    inv.m[2][1] = -(a * h - b * g) * s;
    inv.m[2][2] = (a * e - b * d) * s;
    inv.t = inv.applyLinear(t) * -1.f;
    return inv;
}

Affine rotationXYZ(Vec3 degrees)
{
    const float k = float(std::numbers::pi / 180.0);
    const float cx = std::cos(degrees.x * k), sx = std::sin(degrees.x * k);
    const float cy = std::cos(degrees.y * k), sy = std::sin(degrees.y * k);
    const float cz = std::cos(degrees.z * k), sz = std::sin(degrees.z * k);
    Affine rx, ry, rz;
    rx.m[1][1] = cx, rx.m[1][2] = -sx, rx.m[2][1] = sx, rx.m[2][2] = cx;
    ry.m[0][0] = cy, ry.m[0][2] = sy, ry.m[2][0] = -sy, ry.m[2][2] = cy;
    rz.m[0][0] = cz, rz.m[0][1] = -sz, rz.m[1][0] = sz, rz.m[1][1] = cz;
    return rz.after(ry.after(rx));
}

Affine placementTransform(const Placement &p, Vec3 pivot)
{
    Affine scale;
    scale.m[0][0] = p.scale.x;
    scale.m[1][1] = p.scale.y;
    scale.m[2][2] = p.scale.z;
    Affine a = rotationXYZ(p.rotation).after(scale);
    a.t = pivot + p.offset - a.applyLinear(pivot);
    return a;
}

float minScale(const Placement &p)
{
    return std::min({std::abs(p.scale.x), std::abs(p.scale.y), std::abs(p.scale.z)});
}

} // namespace plume
