// SPDX-License-Identifier: Apache-2.0
#include <core/scene/shapecoverage.h>

#include <core/scene/coveragerows.h>

#include <core/sim/base/parallel.h>

#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QImageReader>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace plume {

using detail::cellRange;
using detail::coverBox;
using sim::Vec3;

namespace {

/// One piece of a shape with a signed distance: a round cone (sphere when a == b) or a box.
struct Primitive
{
    bool isBox = false;
    Vec3 a, b;         ///< round cone: end points
    float ra = 0.f;    ///< radius at a
    float rb = 0.f;    ///< radius at b
    float pa = 1.f;    ///< weight (pressure) at a
    float pb = 1.f;    ///< weight at b
    Vec3 centre, half; ///< box: centre and half size
    float cosR = 1.f;  ///< box: rotation about z
    float sinR = 0.f;
    Vec3 lo, hi; ///< world bounding box
};

Vec3 minVec(Vec3 a, Vec3 b) { return {std::min(a.x, b.x), std::min(a.y, b.y), std::min(a.z, b.z)}; }
Vec3 maxVec(Vec3 a, Vec3 b) { return {std::max(a.x, b.x), std::max(a.y, b.y), std::max(a.z, b.z)}; }

Primitive roundCone(Vec3 a, Vec3 b, float ra, float rb, float pa, float pb)
{
    Primitive p;
    p.a = a;
    p.b = b;
    p.ra = ra;
    p.rb = rb;
    p.pa = pa;
    p.pb = pb;
    const float r = std::max(ra, rb);
    p.lo = minVec(a, b) - Vec3{r, r, r};
    p.hi = maxVec(a, b) + Vec3{r, r, r};
    return p;
}

Primitive box(Vec3 centre, Vec3 half, float degrees)
{
    Primitive p;
    p.isBox = true;
    p.centre = centre;
    p.half = half;
    const float rad = degrees * float(std::numbers::pi / 180.0);
    p.cosR = std::cos(rad);
    p.sinR = std::sin(rad);
    // Extent of the rotated box along x and y.
    const float ex = std::abs(p.cosR) * half.x + std::abs(p.sinR) * half.y;
    const float ey = std::abs(p.sinR) * half.x + std::abs(p.cosR) * half.y;
    p.lo = centre - Vec3{ex, ey, half.z};
    p.hi = centre + Vec3{ex, ey, half.z};
    return p;
}

/// Signed distance from p to a round cone: distance to the segment minus the radius
/// interpolated at the closest point (exact for equal radii, a close bound otherwise);
/// `weight` receives the pressure interpolated there.
float roundConeDistance(const Primitive &c, Vec3 p, float &weight)
{
    const Vec3 ab = c.b - c.a;
    const float len2 = dot(ab, ab);
    const float t = len2 > 0.f ? std::clamp(dot(p - c.a, ab) / len2, 0.f, 1.f) : 0.f;
    weight = c.pa + (c.pb - c.pa) * t;
    return length(p - (c.a + ab * t)) - (c.ra + (c.rb - c.ra) * t);
}

/// Signed distance from p to a box rotated about z (Quilez's box distance).
float boxDistance(const Primitive &bx, Vec3 p, bool twoD)
{
    const Vec3 d = p - bx.centre;
    const float qx = std::abs(bx.cosR * d.x + bx.sinR * d.y) - bx.half.x;
    const float qy = std::abs(-bx.sinR * d.x + bx.cosR * d.y) - bx.half.y;
    const float qz = twoD ? -1e30f : std::abs(d.z) - bx.half.z;
    const Vec3 outside{std::max(qx, 0.f), std::max(qy, 0.f), std::max(qz, 0.f)};
    return length(outside) + std::min(std::max(qx, std::max(qy, qz)), 0.f);
}

/// Primitives of a sphere, box, capsule or stroke; z flattened to 0 in 2D.
std::vector<Primitive> primitives(const Shape &s, bool twoD)
{
    auto flat = [&](Vec3 v) { return twoD ? Vec3{v.x, v.y, 0.f} : v; };
    std::vector<Primitive> out;
    switch (s.type) {
    case ShapeType::Sphere:
        out.push_back(roundCone(flat(s.centre), flat(s.centre), s.radius, s.radius, 1.f, 1.f));
        break;
    case ShapeType::Capsule:
        out.push_back(roundCone(flat(s.start), flat(s.end), s.radius, s.radius, 1.f, 1.f));
        break;
    case ShapeType::Box: out.push_back(box(flat(s.centre), s.halfSize, s.rotation)); break;
    case ShapeType::Stroke:
        if (s.points.size() == 1) {
            const StrokePoint &p = s.points.front();
            out.push_back(roundCone(flat(p.position), flat(p.position), p.radius, p.radius,
                                    p.pressure, p.pressure));
        }
        for (std::size_t n = 1; n < s.points.size(); ++n) {
            const StrokePoint &p = s.points[n - 1];
            const StrokePoint &q = s.points[n];
            out.push_back(roundCone(flat(p.position), flat(q.position), p.radius, q.radius,
                                    p.pressure, q.pressure));
        }
        break;
    case ShapeType::Image:
    case ShapeType::Everywhere:
    case ShapeType::Mesh: break; // covered elsewhere (images, the whole domain, meshcoverage)
    }
    return out;
}

/// Coverage of a signed distance: one-cell ramp, widened by a smoothstep falloff outside.
float distanceWeight(float sd, float h, float falloff)
{
    float w = std::clamp(0.5f - sd / h, 0.f, 1.f);
    if (falloff > 0.f) {
        const float u = std::clamp(sd / falloff, 0.f, 1.f);
        w = std::max(w, 1.f - u * u * (3.f - 2.f * u));
    }
    return w;
}

/// Bilinear sample of an image at pixel coordinates (pixel centres at +0.5), clamped to edge.
float bilinear(const MaskImage &img, float px, float py)
{
    px = std::clamp(px - 0.5f, 0.f, float(img.width - 1));
    py = std::clamp(py - 0.5f, 0.f, float(img.height - 1));
    const int x0 = int(px);
    const int y0 = int(py);
    const int x1 = std::min(x0 + 1, img.width - 1);
    const int y1 = std::min(y0 + 1, img.height - 1);
    const float fx = px - float(x0);
    const float fy = py - float(y0);
    const float top = img.pixel(x0, y0) + (img.pixel(x1, y0) - img.pixel(x0, y0)) * fx;
    const float bottom = img.pixel(x0, y1) + (img.pixel(x1, y1) - img.pixel(x0, y1)) * fx;
    return top + (bottom - top) * fy;
}

/// The shape's frame as seen from the world: `inverse` maps a world point into the frame the
/// primitives are in, and distances there times `distanceScale` are world distances (exact
/// for uniform scales, a lower bound otherwise). Null `inverse`: the primitives are in world.
struct ShapeFrame
{
    const Affine *inverse = nullptr;
    const Affine *forward = nullptr;
    float distanceScale = 1.f;
};

/// World bounding box of the local box [lo, hi] mapped by `forward`.
void mappedBounds(const Affine &forward, Vec3 lo, Vec3 hi, Vec3 &outLo, Vec3 &outHi)
{
    for (int n = 0; n < 8; ++n) {
        const Vec3 corner{n & 1 ? hi.x : lo.x, n & 2 ? hi.y : lo.y, n & 4 ? hi.z : lo.z};
        const Vec3 w = forward.apply(corner);
        outLo = n == 0 ? w : minVec(outLo, w);
        outHi = n == 0 ? w : maxVec(outHi, w);
    }
}

sim::SparseMask distanceCoverage(const sim::Domain &d, const std::vector<Primitive> &prims,
                                 float falloff, ShapeFrame frame = {})
{
    if (prims.empty())
        return {};
    const bool twoD = d.is2D();
    const float h = d.cellSize;
    const float margin = h + falloff;
    const Vec3 m{margin, margin, margin};
    Vec3 lo = prims.front().lo;
    Vec3 hi = prims.front().hi;
    for (const Primitive &p : prims) {
        lo = minVec(lo, p.lo);
        hi = maxVec(hi, p.hi);
    }
    if (frame.inverse) {
        // Placed (rotated or scaled): every cell maps into the shape's frame; the margin is
        // converted with the smallest scale so that no covered cell is missed.
        const float s = frame.distanceScale;
        const Vec3 lm = s > 0.f ? m * (1.f / s) : m;
        Vec3 wlo, whi;
        mappedBounds(*frame.forward, lo - lm, hi + lm, wlo, whi);
        if (twoD) {
            wlo.z = d.origin.z;
            whi.z = d.origin.z + h;
        }
        const Affine &inv = *frame.inverse;
        return coverBox(d, wlo, whi, [&](int j, int k, int i0, int i1, std::vector<float> &row) {
            const float y = d.origin.y + (float(j) + 0.5f) * h;
            const float z = twoD ? 0.f : d.origin.z + (float(k) + 0.5f) * h;
            for (int i = i0; i < i1; ++i) {
                Vec3 p = inv.apply({d.origin.x + (float(i) + 0.5f) * h, y, z});
                if (twoD)
                    p.z = 0.f;
                float best = 0.f;
                for (const Primitive &prim : prims) {
                    float weight = 1.f;
                    const float sd = prim.isBox ? boxDistance(prim, p, twoD)
                                                : roundConeDistance(prim, p, weight);
                    best = std::max(best, distanceWeight(sd * s, h, falloff) * weight);
                }
                row[std::size_t(i - i0)] = best;
            }
        });
    }
    return coverBox(d, lo - m, hi + m, [&](int j, int k, int i0, int i1, std::vector<float> &row) {
        const float y = d.origin.y + (float(j) + 0.5f) * h;
        const float z = twoD ? 0.f : d.origin.z + (float(k) + 0.5f) * h;
        for (const Primitive &p : prims) {
            if (y < p.lo.y - margin || y > p.hi.y + margin)
                continue;
            if (!twoD && (z < p.lo.z - margin || z > p.hi.z + margin))
                continue;
            int a, b;
            cellRange(d, 0, p.lo.x - margin, p.hi.x + margin, a, b);
            for (int i = std::max(a, i0); i < std::min(b, i1); ++i) {
                const Vec3 c{d.origin.x + (float(i) + 0.5f) * h, y, z};
                float weight = 1.f;
                const float sd = p.isBox ? boxDistance(p, c, twoD)
                                         : roundConeDistance(p, c, weight);
                const float w = distanceWeight(sd, h, falloff) * weight;
                float &out = row[std::size_t(i - i0)];
                out = std::max(out, w);
            }
        }
    });
}

sim::SparseMask imageCoverage(const sim::Domain &d, const Shape &s, const MaskImage &img,
                              ShapeFrame frame = {})
{
    if (img.width < 1 || img.height < 1)
        return {};
    const Vec3 lo = s.imageMin;
    const Vec3 hi = s.imageMax;
    const float w = hi.x - lo.x;
    const float hgt = hi.y - lo.y;
    if (!(w > 0.f && hgt > 0.f))
        return {};
    const float h = d.cellSize;
    // Enough samples per cell that every pixel is seen, at most 4 x 4 (clamped as a float: an
    // image 1e-30 wide would ask for 3e29, more than an int holds).
    const float pixel = std::min(w / float(img.width), hgt / float(img.height));
    const int n = int(std::clamp(std::ceil(h / pixel), 1.f, 4.f));
    Vec3 zLo{lo.x, lo.y, d.origin.z};
    Vec3 zHi{hi.x, hi.y, d.origin.z + d.extent().z};
    if (frame.forward) {
        mappedBounds(*frame.forward, lo, hi, zLo, zHi);
        zLo.z = d.origin.z;
        zHi.z = d.origin.z + d.extent().z;
    }
    return coverBox(d, zLo, zHi, [&](int j, int, int i0, int i1, std::vector<float> &row) {
        for (int i = i0; i < i1; ++i) {
            float sum = 0.f;
            for (int sy = 0; sy < n; ++sy) {
                const float wy = d.origin.y + (float(j) + (float(sy) + 0.5f) / float(n)) * h;
                for (int sx = 0; sx < n; ++sx) {
                    const float wx = d.origin.x + (float(i) + (float(sx) + 0.5f) / float(n)) * h;
                    float x = wx, y = wy;
                    if (frame.inverse) {
                        const Vec3 p = frame.inverse->apply({wx, wy, 0.f});
                        x = p.x;
                        y = p.y;
                    }
                    const float v = (y - lo.y) / hgt;
                    const float u = (x - lo.x) / w;
                    if (!(u >= 0.f && u <= 1.f && v >= 0.f && v <= 1.f)) // NaN: outside
                        continue;
                    sum += bilinear(img, u * float(img.width), (1.f - v) * float(img.height));
                }
            }
            row[std::size_t(i - i0)] = sum / float(n * n);
        }
    });
}

sim::SparseMask everywhere(const sim::Domain &d)
{
    const Vec3 lo = d.origin;
    const Vec3 hi = d.origin + d.extent();
    return coverBox(d, lo, hi, [](int, int, int, int, std::vector<float> &row) {
        std::fill(row.begin(), row.end(), 1.f);
    });
}

} // namespace

std::string resolveImagePath(const std::string &file, const std::string &directory)
{
    const QString f = QString::fromStdString(file);
    const QDir dir(directory.empty() ? QDir::currentPath() : QString::fromStdString(directory));
    return QDir::cleanPath(dir.absoluteFilePath(f)).toStdString();
}

std::string rebasedImagePath(const std::string &file, const std::string &from,
                             const std::string &to)
{
    if (from.empty() || to.empty() || QFileInfo(QString::fromStdString(file)).isAbsolute())
        return file;
    const QString absolute = QString::fromStdString(resolveImagePath(file, from));
    if (absolute.startsWith(QLatin1Char(':')))
        return absolute.toStdString(); // a file inside the app (an example's model)
    return QDir(QString::fromStdString(to)).relativeFilePath(absolute).toStdString();
}

void rebaseImageShape(Shape &shape, const std::string &from, const std::string &to)
{
    if (shape.type == ShapeType::Image || shape.type == ShapeType::Mesh)
        shape.file = rebasedImagePath(shape.file, from, to);
}

sim::Result<MaskImage> loadMaskImage(const Shape &shape, const std::string &directory)
{
    const QString path = QString::fromStdString(resolveImagePath(shape.file, directory));
    QImageReader reader(path);
    QImage image = reader.read();
    if (image.isNull())
        return sim::Status::failure("cannot read image '" + path.toStdString()
                                    + "': " + reader.errorString().toStdString());
    MaskImage out;
    image = image.convertToFormat(QImage::Format_RGBA8888);
    out.width = image.width();
    out.height = image.height();
    out.values.resize(std::size_t(out.width) * out.height);
    for (int y = 0; y < out.height; ++y) {
        const uchar *line = image.constScanLine(y);
        for (int x = 0; x < out.width; ++x) {
            const uchar *px = line + 4 * x;
            // Rec. 709 luma of the stored (non-linear) values.
            const float value = shape.channel == ImageChannel::Alpha
                                    ? float(px[3])
                                    : 0.2126f * px[0] + 0.7152f * px[1] + 0.0722f * px[2];
            const float c = std::clamp(value / 255.f, 0.f, 1.f);
            out.values[std::size_t(y) * out.width + x] = shape.invert ? 1.f - c : c;
        }
    }
    return out;
}

Shape translated(const Shape &shape, Vec3 offset)
{
    Shape s = shape;
    s.centre = s.centre + offset;
    s.start = s.start + offset;
    s.end = s.end + offset;
    s.imageMin = s.imageMin + offset;
    s.imageMax = s.imageMax + offset;
    for (StrokePoint &p : s.points)
        p.position = p.position + offset;
    return s;
}

Vec3 shapePivot(const Shape &s)
{
    switch (s.type) {
    case ShapeType::Sphere:
    case ShapeType::Box: return s.centre;
    case ShapeType::Capsule: return (s.start + s.end) * 0.5f;
    case ShapeType::Stroke: {
        if (s.points.empty())
            return {};
        Vec3 lo = s.points.front().position, hi = lo;
        for (const StrokePoint &p : s.points) {
            lo = minVec(lo, p.position);
            hi = maxVec(hi, p.position);
        }
        return (lo + hi) * 0.5f;
    }
    case ShapeType::Image: return (s.imageMin + s.imageMax) * 0.5f;
    case ShapeType::Mesh: return s.meshTranslation;
    case ShapeType::Everywhere: break;
    }
    return {};
}

Placement effectivePlacement(const Placement &p, bool twoD)
{
    if (!twoD)
        return p;
    return {p.offset, {0.f, 0.f, p.rotation.z}, {p.scale.x, p.scale.y, 1.f}};
}

sim::SparseMask shapeCoverage(const sim::Domain &domain, const Shape &shape,
                              const Placement &placement, float falloff, const MaskImage *image)
{
    const Placement p = effectivePlacement(placement, domain.is2D());
    if (p.isTranslation()) {
        const Shape s = translated(shape, p.offset);
        switch (s.type) {
        case ShapeType::Everywhere: return everywhere(domain);
        case ShapeType::Image: return image ? imageCoverage(domain, s, *image) : sim::SparseMask{};
        case ShapeType::Mesh: return {}; // meshcoverage.h
        default: return distanceCoverage(domain, primitives(s, domain.is2D()), falloff);
        }
    }
    const Affine forward = placementTransform(p, shapePivot(shape));
    const Affine inverse = forward.inverse();
    const ShapeFrame frame{&inverse, &forward, minScale(p)};
    switch (shape.type) {
    case ShapeType::Everywhere: return everywhere(domain);
    case ShapeType::Image:
        return image ? imageCoverage(domain, shape, *image, frame) : sim::SparseMask{};
    case ShapeType::Mesh: return {};
    default: return distanceCoverage(domain, primitives(shape, domain.is2D()), falloff, frame);
    }
}

} // namespace plume
