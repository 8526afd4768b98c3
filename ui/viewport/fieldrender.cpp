// SPDX-License-Identifier: Apache-2.0
#include <ui/viewport/fieldrender.h>

#include <core/render/renderer.h>
#include <core/sim/base/parallel.h>

#include <algorithm>
#include <cmath>

namespace plume {

namespace {

/// Adds the blackbody light of the frame's flame and hot gas to a picture of sRGB pixels, one
/// per cell: decoded, added in linear light, clipped per channel (bright orange turns
/// yellow-white) and encoded again. Solid cells stay grey.
void addFireGlow(QImage &image, const FrameData &frame, const FireLook &fire)
{
    const sim::ScalarGrid &flame = frame.field(DisplayField::Flame);
    const sim::ScalarGrid &temperature = frame.field(DisplayField::Temperature);
    const sim::Int3 n = flame.size();
    if (temperature.count() != flame.count() || image.width() != n.x || image.height() != n.y)
        return;
    auto add = [](int value, float light) {
        const float v = detail::srgbToLinear(float(value) / 255.f) + light;
        return int(std::lround(255.f * detail::linearToSrgb(v)));
    };
    sim::forEachRow(sim::Int3{n.x, n.y, 1}, [&](int j, int) {
        auto *line = reinterpret_cast<QRgb *>(image.scanLine(n.y - 1 - j));
        for (int i = 0; i < n.x; ++i) {
            if (frame.solids.count() == flame.count() && frame.solids.isSolid(i, j, 0))
                continue;
            const sim::Vec3 e = emissionColor(fire.look,
                                              temperature(i, j, 0) - fire.ambientTemperature,
                                              flame(i, j, 0));
            if (!(e.x > 0.f || e.y > 0.f || e.z > 0.f))
                continue;
            const QRgb c = line[i];
            line[i] = qRgb(add(qRed(c), e.x), add(qGreen(c), e.y), add(qBlue(c), e.z));
        }
    });
}

/// The ocean's normals as a normal map (0.5 + 0.5 n per channel), one pixel per cell, row 0
/// the highest y; black where the frame has none (not an ocean).
QImage normalImage(const FrameData &frame)
{
    const sim::ScalarGrid *n[3] = {&frame.field(DisplayField::NormalX),
                                   &frame.field(DisplayField::NormalY),
                                   &frame.field(DisplayField::NormalZ)};
    const sim::Int3 size = frame.field(DisplayField::Density).size();
    QImage image(std::max(size.x, 1), std::max(size.y, 1), QImage::Format_RGB32);
    image.fill(Qt::black);
    if (n[0]->size() != size || n[1]->size() != size || n[2]->size() != size)
        return image;
    auto channel = [](float v) {
        return int(std::lround(255.f * std::clamp(0.5f + 0.5f * v, 0.f, 1.f)));
    };
    sim::forEachRow(sim::Int3{size.x, size.y, 1}, [&](int j, int) {
        auto *line = reinterpret_cast<QRgb *>(image.scanLine(size.y - 1 - j));
        for (int i = 0; i < size.x; ++i)
            line[i] = qRgb(channel((*n[0])(i, j, 0)), channel((*n[1])(i, j, 0)),
                           channel((*n[2])(i, j, 0)));
    });
    return image;
}

} // namespace

QString toDisplayName(ViewField f)
{
    switch (f) {
    case ViewField::Dye: return "Dye";
    case ViewField::Density: return "Density";
    case ViewField::Temperature: return "Temperature";
    case ViewField::Flame: return "Flame";
    case ViewField::Fuel: return "Fuel";
    case ViewField::Speed: return "Speed";
    case ViewField::Vorticity: return "Vorticity";
    case ViewField::Pressure: return "Pressure";
    case ViewField::Divergence: return "Divergence";
    case ViewField::Height: return "Height";
    case ViewField::DisplacementX: return "Displacement X";
    case ViewField::DisplacementY: return "Displacement Y";
    case ViewField::Normal: return "Normal";
    case ViewField::Foam: return "Foam";
    case ViewField::LiquidTexture: return "Liquid texture";
    }
    return "Dye";
}

DisplayField scalarField(ViewField f)
{
    switch (f) {
    case ViewField::Density: return DisplayField::Density;
    case ViewField::Temperature: return DisplayField::Temperature;
    case ViewField::Flame: return DisplayField::Flame;
    case ViewField::Fuel: return DisplayField::Fuel;
    case ViewField::Speed: return DisplayField::Speed;
    case ViewField::Vorticity: return DisplayField::Vorticity;
    case ViewField::Pressure: return DisplayField::Pressure;
    case ViewField::Divergence: return DisplayField::Divergence;
    case ViewField::Height: return DisplayField::Height;
    case ViewField::DisplacementX: return DisplayField::DisplacementX;
    case ViewField::DisplacementY: return DisplayField::DisplacementY;
    case ViewField::Foam: return DisplayField::Foam;
    case ViewField::Dye:
    case ViewField::Normal:
    case ViewField::LiquidTexture: break;
    }
    return DisplayField::Count;
}

QString fieldUnit(ViewField f)
{
    switch (f) {
    case ViewField::Speed: return "units/s";
    case ViewField::Vorticity:
    case ViewField::Divergence: return "1/s";
    case ViewField::Pressure: return "p dt/h, units/s";
    case ViewField::Height:
    case ViewField::DisplacementX:
    case ViewField::DisplacementY: return "units";
    default: return {};
    }
}

FieldPicture renderField(const FrameData &frame, ViewField field, const FireLook &fire,
                         const LiquidTextureLook *texture)
{
    FieldPicture out;
    if (field == ViewField::LiquidTexture) {
        if (frame.hasTexture() && texture && !texture->image.isNull()) {
            const sim::Int3 n = frame.field(DisplayField::TextureOffset0X).size();
            // About 512 pixels across the longer side, at least one per cell.
            const int perCell = std::clamp(512 / std::max(1, std::max(n.x, n.y)), 1, 8);
            out.image = renderLiquidTexture({&frame.field(DisplayField::TextureOffset0X),
                                             &frame.field(DisplayField::TextureOffset0Y),
                                             &frame.field(DisplayField::TextureOffset1X),
                                             &frame.field(DisplayField::TextureOffset1Y)},
                                            frame.domain.boundaries, frame.frame, *texture,
                                            perCell);
            out.legend = false;
            if (!out.image.isNull())
                return out;
        }
        field = ViewField::Dye;
    }
    const sim::FlagGrid *solids = &frame.solids;
    // `fixedHi` > 0: the range is [0, fixedHi] (foam) instead of the frame's.
    auto scalar = [&](DisplayField f, ColorMap map, bool symmetric, float fixedHi = 0.f) {
        const float lo = frame.minimum[int(f)], hi = frame.maximum[int(f)];
        const float m = std::max(std::max(std::abs(lo), std::abs(hi)), 1e-6f);
        out.map = map;
        out.lo = symmetric ? -m : 0.f;
        out.hi = symmetric ? m : (fixedHi > 0.f ? fixedHi : std::max(hi, 1e-6f));
        // Without combustion there is no fuel or flame: nothing, drawn as zeros.
        sim::ScalarGrid zeros;
        const sim::ScalarGrid *g = &frame.field(f);
        if (g->count() == 0) {
            zeros.reshape(frame.field(DisplayField::Density).size(), sim::kCellCentre);
            g = &zeros;
        }
        out.image = fieldImage(*g, 0, map, out.lo, out.hi, solids);
    };
    switch (field) {
    case ViewField::Dye: {
        static const sim::ScalarGrid none;
        const bool dye = frame.hasDye();
        out.legend = false;
        out.image = dyeImage(frame.field(DisplayField::Density),
                             dye ? frame.field(DisplayField::DyeRed) : none,
                             dye ? frame.field(DisplayField::DyeGreen) : none,
                             dye ? frame.field(DisplayField::DyeBlue) : none, 0, solids,
                             fire.look.smokeColor);
        if (frame.hasFlame())
            addFireGlow(out.image, frame, fire);
        break;
    }
    case ViewField::Density: scalar(DisplayField::Density, ColorMap::Smoke, false); break;
    case ViewField::Temperature: scalar(DisplayField::Temperature, ColorMap::Inferno, false); break;
    case ViewField::Flame: scalar(DisplayField::Flame, ColorMap::Inferno, false); break;
    case ViewField::Fuel: scalar(DisplayField::Fuel, ColorMap::Smoke, false); break;
    case ViewField::Speed: scalar(DisplayField::Speed, ColorMap::Inferno, false); break;
    case ViewField::Vorticity: scalar(DisplayField::Vorticity, ColorMap::Inferno, false); break;
    case ViewField::Pressure: scalar(DisplayField::Pressure, ColorMap::Diverging, true); break;
    case ViewField::Divergence: scalar(DisplayField::Divergence, ColorMap::Diverging, true); break;
    case ViewField::Height: scalar(DisplayField::Height, ColorMap::Diverging, true); break;
    case ViewField::DisplacementX:
        scalar(DisplayField::DisplacementX, ColorMap::Diverging, true);
        break;
    case ViewField::DisplacementY:
        scalar(DisplayField::DisplacementY, ColorMap::Diverging, true);
        break;
    case ViewField::Normal:
        out.legend = false;
        out.image = normalImage(frame);
        break;
    case ViewField::Foam: scalar(DisplayField::Foam, ColorMap::Smoke, false, 1.f); break;
    case ViewField::LiquidTexture: break; // drawn above, or as Dye
    }
    return out;
}

} // namespace plume
