// SPDX-License-Identifier: Apache-2.0
#include <core/render/renderer.h>

#include <core/render/blackbody.h>
#include <core/render/framing.h>
#include <core/render/surfacerender.h>
#include <core/render/volumemarch.h>

#include <core/sim/base/parallel.h>
#include <core/surface/surface.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace plume {

namespace {

/// How far `temperature` is from emissionMin to emissionMax, clamped to [0, 1] (NaN: 0).
float emissionFraction(const RenderSettings &s, float temperature)
{
    const float t = (temperature - s.emissionMin) / (s.emissionMax - s.emissionMin);
    return t > 0.f ? std::min(t, 1.f) : 0.f;
}

/// Kelvin at fraction t of the way from emissionMin to emissionMax.
float kelvinAt(float t)
{
    return kEmissionMinKelvin + (kEmissionMaxKelvin - kEmissionMinKelvin) * t;
}

} // namespace

float emissionKelvin(const RenderSettings &s, float temperature)
{
    return kelvinAt(emissionFraction(s, temperature));
}

sim::Vec3 emissionColor(const RenderSettings &s, float temperature, float flame)
{
    if (!std::isfinite(temperature))
        return {};
    const float t = emissionFraction(s, temperature);
    float brightness = 0.f;
    if (s.emissionIntensity > 0.f)
        brightness += t * t * s.emissionIntensity;
    if (s.flameIntensity > 0.f && flame > 0.f && std::isfinite(flame))
        brightness += s.flameIntensity * flame;
    if (!(brightness > 0.f))
        return {};
    return blackbodyColor(kelvinAt(t)) * brightness;
}

namespace {

/// Bilinear weights at a cell-coordinate position of a cell-centred 2D grid (clamped).
struct Bilinear
{
    std::size_t i00, i10, i01, i11;
    float fx, fy;

    Bilinear(const sim::Int3 &n, float x, float y)
    {
        const float qx = std::clamp(x - 0.5f, 0.f, float(n.x - 1));
        const float qy = std::clamp(y - 0.5f, 0.f, float(n.y - 1));
        const int i0 = std::min(int(qx), n.x - 1), j0 = std::min(int(qy), n.y - 1);
        const int i1 = std::min(i0 + 1, n.x - 1), j1 = std::min(j0 + 1, n.y - 1);
        fx = qx - float(i0);
        fy = qy - float(j0);
        i00 = std::size_t(i0) + std::size_t(n.x) * j0;
        i10 = std::size_t(i1) + std::size_t(n.x) * j0;
        i01 = std::size_t(i0) + std::size_t(n.x) * j1;
        i11 = std::size_t(i1) + std::size_t(n.x) * j1;
    }
    float operator()(const sim::ScalarGrid &g) const
    {
        const float a = g[i00] + fx * (g[i10] - g[i00]);
        const float b = g[i01] + fx * (g[i11] - g[i01]);
        return a + fy * (b - a);
    }
};

/// Optical depth of a 2D domain seen as a slab one cell thick: 2 * density per cell, the
/// opacity 1 - exp(-2 density) of the dye look.
float slabDepth(float density) { return 2.f * std::max(density, 0.f); }

/// In-plane optical depth from each cell's centre to the domain's edge towards +x, +y, -x and
/// -y (the six-way right, top, left and bottom lights of a 2D frame): `perCell` (densityScale
/// times the cell size, as the 3D renderer's shadows) per unit of density and cell crossed.
std::array<sim::ScalarGrid, 4> slabDepthToEdges(const sim::ScalarGrid &density, float perCell)
{
    const sim::Int3 n = density.size();
    std::array<sim::ScalarGrid, 4> tau;
    for (sim::ScalarGrid &g : tau)
        g.reshape(n, sim::kCellCentre, 0.f);
    auto cell = [&](int i, int j) { return std::size_t(i) + std::size_t(n.x) * j; };
    for (int j = 0; j < n.y; ++j) {
        float right = 0.f, left = 0.f;
        for (int k = 0; k < n.x; ++k) {
            const int i = n.x - 1 - k; // sweeping from the +x edge
            const float hr = perCell * std::max(density[cell(i, j)], 0.f);
            tau[0][cell(i, j)] = right + 0.5f * hr;
            right += hr;
            const float hl = perCell * std::max(density[cell(k, j)], 0.f);
            tau[2][cell(k, j)] = left + 0.5f * hl;
            left += hl;
        }
    }
    for (int i = 0; i < n.x; ++i) {
        float top = 0.f, bottom = 0.f;
        for (int k = 0; k < n.y; ++k) {
            const int j = n.y - 1 - k;
            const float ht = perCell * std::max(density[cell(i, j)], 0.f);
            tau[1][cell(i, j)] = top + 0.5f * ht;
            top += ht;
            const float hb = perCell * std::max(density[cell(i, k)], 0.f);
            tau[3][cell(i, k)] = bottom + 0.5f * hb;
            bottom += hb;
        }
    }
    return tau;
}

/// The six-way lightmaps and the normal of a 2D pixel: the domain is a slab one cell thick,
/// of optical depth tau = slabDepth(density), seen from the front (docs/flipbook.md). Single
/// scattering with albedo 1 gives, per unit of incoming light, alpha * exp(-tau to the edge)
/// (in-plane, as the 3D shadows: densityScale * density per world unit) for the in-plane lights
/// (right, top, left, bottom), (1 - exp(-2 tau)) / 2 for the front light and tau exp(-tau) for the
/// back light (through the slab). The normal is that of a puff whose opacity is its facing: z =
/// alpha, and the rest, sqrt(1 - alpha^2), points down the gradient of tau (scaled down where tau
/// falls slower than 0.05 per cell), then normalised.
void slabPasses(const FrameFields &f, const PassRequest &passes,
                const std::array<sim::ScalarGrid, 4> &edgeDepth, const Bilinear &b, float x,
                float y, float *six, float *normal)
{
    const float tau = slabDepth(b(f.density));
    const float alpha = 1.f - std::exp(-tau);
    if (passes.sixWay) {
        const int inPlane[4] = {0, 1, 3, 4}; // right, top, left, bottom
        for (int e = 0; e < 4; ++e)
            six[inPlane[e]] = alpha * std::exp(-b(edgeDepth[std::size_t(e)]));
        six[2] = tau * std::exp(-tau);                // back
        six[5] = 0.5f * (1.f - std::exp(-2.f * tau)); // front
    }
    if (passes.normals && alpha > 1e-3f) {
        const sim::Int3 n = f.density.size();
        auto at = [&](float dx, float dy) {
            return slabDepth(Bilinear(n, x + dx, y + dy)(f.density));
        };
        // Downhill of tau (per cell), full length once it falls by kFlat per cell or faster.
        constexpr float kFlat = 0.05f;
        const float gx = 0.5f * (at(-1.f, 0.f) - at(1.f, 0.f));
        const float gy = 0.5f * (at(0.f, -1.f) - at(0.f, 1.f));
        const float scale = 1.f / std::max(std::sqrt(gx * gx + gy * gy), kFlat);
        const float side = std::sqrt(std::max(1.f - alpha * alpha, 0.f));
        const sim::Vec3 g{gx * scale * side, gy * scale * side, alpha};
        const float l = length(g);
        for (int a = 0; a < 3; ++a)
            normal[a] = g[a] / l;
    }
}

/// 2D: the domain fitted into the frame (letterboxed), one bilinear sample per pixel.
void render2D(const FrameFields &f, const RenderSettings &s, const PassRequest &passes,
              float frameRate, RenderedFrame &out)
{
    const bool motion = passes.motion;
    const sim::Int3 n = f.domain.cells;
    const float scale = std::min(float(out.width) / n.x, float(out.height) / n.y) * s.zoom;
    const float ox = 0.5f * (float(out.width) - n.x * scale);
    const float oy = 0.5f * (float(out.height) - n.y * scale);
    // Velocity (world units / s) to pixels per frame.
    const float toPixels = scale / f.domain.cellSize / frameRate;
    const bool field = s.look2D == Look2D::Field && f.field.count() != 0;
    const bool dye = f.hasDye();
    const bool temperature = f.temperature.count() != 0;
    const bool flame = temperature && f.hasFlame();
    const float range = s.fieldMax > s.fieldMin ? 1.f / (s.fieldMax - s.fieldMin) : 0.f;
    std::array<sim::ScalarGrid, 4> edgeDepth;
    if (passes.sixWay)
        edgeDepth = slabDepthToEdges(f.density, s.densityScale * f.domain.cellSize);
    sim::forEachRow(sim::Int3{out.width, out.height, 1}, [&](int py, int) {
        for (int px = 0; px < out.width; ++px) {
            const std::size_t p = std::size_t(py) * out.width + px;
            const float x = (float(px) + 0.5f - ox) / scale;
            const float y = float(n.y) - (float(py) + 0.5f - oy) / scale;
            if (x < 0.f || y < 0.f || x > float(n.x) || y > float(n.y))
                continue;
            const Bilinear b(n, x, y);
            // Smoke without dye (soot included) has the look's smoke colour, as in 3D.
            float rgb[3] = {s.smokeColor.x, s.smokeColor.y, s.smokeColor.z};
            float alpha = 1.f;
            if (field) {
                const QRgb c = mapColor(s.colorMap, (b(f.field) - s.fieldMin) * range);
                rgb[0] = detail::srgbToLinear(qRed(c) / 255.f);
                rgb[1] = detail::srgbToLinear(qGreen(c) / 255.f);
                rgb[2] = detail::srgbToLinear(qBlue(c) / 255.f);
            } else {
                // Same mapping as the window's dyeImage: opacity 1 - exp(-2 density).
                const float d = std::max(b(f.density), 0.f);
                alpha = 1.f - std::exp(-2.f * d);
                if (dye && d > 1e-6f) {
                    rgb[0] = detail::srgbToLinear(b(f.dyeRed) / d);
                    rgb[1] = detail::srgbToLinear(b(f.dyeGreen) / d);
                    rgb[2] = detail::srgbToLinear(b(f.dyeBlue) / d);
                }
            }
            for (int c = 0; c < 3; ++c)
                out.color[4 * p + c] = rgb[c] * alpha;
            out.color[4 * p + 3] = alpha;
            if (temperature) {
                const sim::Vec3 e = emissionColor(s, b(f.temperature), flame ? b(f.flame) : 0.f);
                for (int c = 0; c < 3; ++c)
                    out.emission[3 * p + c] = e[c];
            }
            if (motion && alpha > 1e-3f) {
                out.motion[2 * p] = b(f.velocityX) * toPixels;
                out.motion[2 * p + 1] = b(f.velocityY) * toPixels;
            }
            if (passes.sixWay || passes.normals)
                slabPasses(f, passes, edgeDepth, b, x, y, out.sixWay.data() + kSixWayLights * p,
                           out.normal.data() + 3 * p);
        }
    });
}

} // namespace

void sampleFrameFields(const sim::Solver &solver, const RenderSettings &settings, bool motion,
                       float ambientTemperature, FrameFields &out)
{
    out.domain = solver.sampleDomain();
    solver.sample(sim::FieldKind::Density, out.density);
    solver.sample(sim::FieldKind::Temperature, out.temperature);
    float *t = out.temperature.data();
    sim::forEachIndex(std::int64_t(out.temperature.count()),
                      [&](std::int64_t n) { t[n] -= ambientTemperature; });
    if (motion) {
        solver.sample(sim::FieldKind::VelocityX, out.velocityX);
        solver.sample(sim::FieldKind::VelocityY, out.velocityY);
        if (!out.domain.is2D())
            solver.sample(sim::FieldKind::VelocityZ, out.velocityZ);
    }
    if (solver.hasDye()) {
        solver.sample(sim::FieldKind::DyeRed, out.dyeRed);
        solver.sample(sim::FieldKind::DyeGreen, out.dyeGreen);
        solver.sample(sim::FieldKind::DyeBlue, out.dyeBlue);
    }
    if (solver.hasCombustion() && settings.flameIntensity > 0.f)
        solver.sample(sim::FieldKind::Flame, out.flame);
    else
        out.flame = sim::ScalarGrid();
    if (out.domain.is2D() && settings.look2D == Look2D::Field)
        solver.sample(settings.field, out.field);
    out.surface = sim::ScalarGrid();
    out.speed = sim::ScalarGrid();
    if (surfaceLook(settings, out.domain.is2D())) {
        // Bad particles (non-finite) leave the surface empty: a transparent frame.
        if (const sim::ParticleSet *particles = solver.particles()) {
            if (!particleSurfaceField(*particles, out.domain, out.surface))
                out.surface = sim::ScalarGrid();
        } else {
            densitySurfaceField(out.density, settings.surfaceIso, out.surface);
        }
        if (settings.foamSpeed > 0.f)
            solver.sample(sim::FieldKind::Speed, out.speed);
    }
}

bool surfaceLook(const RenderSettings &settings, bool is2D)
{
    return is2D ? settings.look2D == Look2D::Surface : settings.look3D == Look3D::Surface;
}

RenderedFrame renderFrame(const FrameFields &fields, const RenderSettings &settings, bool motion,
                          float frameRate)
{
    PassRequest passes;
    passes.motion = motion;
    return renderFrame(fields, settings, passes, frameRate);
}

RenderedFrame renderFrame(const FrameFields &fields, const RenderSettings &settings,
                          const PassRequest &request, float frameRate)
{
    PassRequest passes = request;
    RenderedFrame out;
    out.width = std::max(settings.width, 1);
    out.height = std::max(settings.height, 1);
    out.color.assign(4 * out.pixels(), 0.f);
    out.emission.assign(3 * out.pixels(), 0.f);
    const bool is2D = fields.domain.is2D();
    passes.motion = passes.motion && fields.velocityX.count() == fields.density.count()
                    && fields.velocityY.count() == fields.density.count()
                    && (is2D || fields.velocityZ.count() == fields.density.count());
    out.hasMotion = request.motion && fields.velocityX.count() == fields.density.count()
                    && fields.velocityY.count() == fields.density.count();
    if (out.hasMotion)
        out.motion.assign(2 * out.pixels(), 0.f);
    passes.depth = passes.depth && !is2D; // a 2D slab is at one distance: no depth
    if (passes.sixWay)
        out.sixWay.assign(kSixWayLights * out.pixels(), 0.f);
    if (passes.normals) {
        out.normal.assign(3 * out.pixels(), 0.f);
        for (std::size_t p = 0; p < out.pixels(); ++p)
            out.normal[3 * p + 2] = 1.f;
    }
    if (passes.depth)
        out.depth.assign(out.pixels(), 1.f);
    if (fields.density.count() == 0 || !(frameRate > 0.f))
        return out;
    // Effect framing of a lone frame (the export dialog's preview): its own smoke.
    WorldBox framed = fields.framed;
    if (!is2D && settings.framing == Framing::Effect && framed.empty())
        framed = visibleBox(fields, settings);
    if (surfaceLook(settings, is2D)) {
        if (fields.surface.size() != fields.domain.cells)
            return out;
        if (is2D)
            detail::renderSurface2D(fields, settings, passes, frameRate, out);
        else
            detail::renderSurface3D(fields, settings, passes, frameRate, framed, out);
    } else if (is2D) {
        render2D(fields, settings, passes, frameRate, out);
    } else {
        detail::renderVolume(fields, settings, passes, frameRate, framed, out);
    }
    return out;
}

} // namespace plume
