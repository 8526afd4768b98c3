#include "fieldrender.h"

#include <algorithm>
#include <cmath>

namespace plume {

QString toDisplayName(ViewField f)
{
    switch (f) {
    case ViewField::Dye: return "Dye";
    case ViewField::Density: return "Density";
    case ViewField::Temperature: return "Temperature";
    case ViewField::Speed: return "Speed";
    case ViewField::Vorticity: return "Vorticity";
    case ViewField::Pressure: return "Pressure";
    case ViewField::Divergence: return "Divergence";
    }
    return "Dye";
}

FieldPicture renderField(const FrameData &frame, ViewField field)
{
    FieldPicture out;
    const sim::FlagGrid *solids = &frame.solids;
    auto scalar = [&](DisplayField f, ColorMap map, bool symmetric) {
        const float lo = frame.minimum[int(f)], hi = frame.maximum[int(f)];
        const float m = std::max(std::max(std::abs(lo), std::abs(hi)), 1e-6f);
        out.map = map;
        out.lo = symmetric ? -m : 0.f;
        out.hi = symmetric ? m : std::max(hi, 1e-6f);
        out.image = fieldImage(frame.field(f), 0, map, out.lo, out.hi, solids);
    };
    switch (field) {
    case ViewField::Dye: {
        static const sim::ScalarGrid none;
        const bool dye = frame.hasDye();
        out.legend = false;
        out.image = dyeImage(frame.field(DisplayField::Density),
                             dye ? frame.field(DisplayField::DyeRed) : none,
                             dye ? frame.field(DisplayField::DyeGreen) : none,
                             dye ? frame.field(DisplayField::DyeBlue) : none, 0, solids);
        break;
    }
    case ViewField::Density: scalar(DisplayField::Density, ColorMap::Smoke, false); break;
    case ViewField::Temperature: scalar(DisplayField::Temperature, ColorMap::Inferno, false); break;
    case ViewField::Speed: scalar(DisplayField::Speed, ColorMap::Inferno, false); break;
    case ViewField::Vorticity: scalar(DisplayField::Vorticity, ColorMap::Inferno, false); break;
    case ViewField::Pressure: scalar(DisplayField::Pressure, ColorMap::Diverging, true); break;
    case ViewField::Divergence: scalar(DisplayField::Divergence, ColorMap::Diverging, true); break;
    }
    return out;
}

} // namespace plume
