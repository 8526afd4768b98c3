// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/render/colormap.h>
#include <core/render/liquidtexture.h>
#include <core/render/rendersettings.h>
#include <ui/simulation/framecache.h>

#include <QImage>
#include <QString>

namespace plume {

/// What the viewport shows, in menu order (the window's field list is indexed by it).
enum class ViewField {
    Dye,
    Density,
    Temperature,
    Flame,
    Fuel,
    Speed,
    Vorticity,
    Pressure,
    Divergence,
    LiquidTexture, ///< the scene's liquid texture flowing (2D with a liquid texture)
    // The ocean scheme's (docs/ocean.md); the menus offer them for ocean scenes only.
    Height,
    DisplacementX,
    DisplacementY,
    Normal,
    Foam,
};

/// Display names, in menu order.
QString toDisplayName(ViewField f);
inline constexpr ViewField kViewFields[] = {ViewField::Dye,           ViewField::Density,
                                            ViewField::Temperature,   ViewField::Flame,
                                            ViewField::Fuel,          ViewField::Speed,
                                            ViewField::Vorticity,     ViewField::Pressure,
                                            ViewField::Divergence,    ViewField::LiquidTexture,
                                            ViewField::Height,        ViewField::DisplacementX,
                                            ViewField::DisplacementY, ViewField::Normal,
                                            ViewField::Foam};
/// Whether a view shows an ocean field (else a fluid field).
inline bool isOceanView(ViewField f) { return f >= ViewField::Height; }

/// The frame field behind a view's scalar picture, or DisplayField::Count for the views without
/// one scale (dye, normal, liquid texture).
DisplayField scalarField(ViewField f);
/// The unit of a view's values, for the legend: "units/s" (speed), "1/s" (vorticity,
/// divergence), "units" (ocean height and displacement), "p dt/h, units/s" (pressure, as the
/// projection solves for it: core/sim/ops/pressure.h); empty for amounts without a unit (density,
/// dye, fuel, flame, foam) and for temperature, whose unit is the scene's own (ambient:
/// SimParams::ambientTemperature).
QString fieldUnit(ViewField f);

/// A picture of one field of a frame plus the range its colour map spans (for the legend).
struct FieldPicture
{
    QImage image; ///< one pixel per cell (the liquid texture: several), row 0 = highest y
    ColorMap map = ColorMap::Smoke;
    float lo = 0.f;
    float hi = 1.f;
    bool legend = true; ///< false for dye colour, which has no scalar scale
};

/// How the Dye picture lights fire: the export look's emission settings (docs/blackbody.md)
/// and the scene's ambient temperature (the frame's temperatures are absolute).
struct FireLook
{
    RenderSettings look;
    float ambientTemperature = 0.f;
};

/// Dye: dye colour over the background with density as opacity (the look's smokeColor
/// without dye); with combustion (the frame has a flame field) the blackbody emission of the flame
/// and the hot gas is added over it, as the CPU renderer's 2D path adds it (emissionColor).
/// Density, temperature, flame, fuel, speed, vorticity: 0 to the frame's maximum. Pressure,
/// divergence: symmetric about zero on the diverging map. Ocean: height and displacement
/// symmetric about zero on the diverging map, the normal as its normal-map colour 0.5 + 0.5 n
/// (no legend), foam 0 to 1. Solid cells are grey. Liquid texture:
/// `texture`'s image through the frame's advected coordinates (renderLiquidTexture, several
/// pixels per cell so that the image's detail shows); the Dye picture when the frame has no
/// texture offsets or `texture` has no image.
FieldPicture renderField(const FrameData &frame, ViewField field, const FireLook &fire = {},
                         const LiquidTextureLook *texture = nullptr);

} // namespace plume
