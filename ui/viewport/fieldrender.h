#pragma once

#include <render/colormap.h>
#include <simulation/framecache.h>

#include <QImage>
#include <QString>

namespace plume {

/// What the viewport shows.
enum class ViewField { Dye, Density, Temperature, Speed, Vorticity, Pressure, Divergence };

/// Display names, in menu order.
QString toDisplayName(ViewField f);
inline constexpr ViewField kViewFields[] = {ViewField::Dye,         ViewField::Density,
                                            ViewField::Temperature, ViewField::Speed,
                                            ViewField::Vorticity,   ViewField::Pressure,
                                            ViewField::Divergence};

/// A picture of one field of a frame plus the range its colour map spans (for the legend).
struct FieldPicture
{
    QImage image; ///< one pixel per cell, row 0 = highest y
    ColorMap map = ColorMap::Smoke;
    float lo = 0.f;
    float hi = 1.f;
    bool legend = true; ///< false for dye colour, which has no scalar scale
};

/// Dye: dye colour over the background with density as opacity (white smoke without dye).
/// Density, temperature, speed, vorticity: 0 to the frame's maximum. Pressure, divergence:
/// symmetric about zero on the diverging map. Solid cells are grey.
FieldPicture renderField(const FrameData &frame, ViewField field);

} // namespace plume
