#include "rendersettings.h"

#include <cmath>

namespace plume {

const char *toString(Look2D v)
{
    switch (v) {
    case Look2D::Dye: return "dye";
    case Look2D::Field: return "field";
    }
    return "unknown";
}

const char *toString(Projection v)
{
    switch (v) {
    case Projection::Orthographic: return "orthographic";
    case Projection::Perspective: return "perspective";
    }
    return "unknown";
}

bool look2DFromString(const std::string &s, Look2D &out)
{
    return sim::enumFromString(s, out, {Look2D::Dye, Look2D::Field});
}

bool projectionFromString(const std::string &s, Projection &out)
{
    return sim::enumFromString(s, out, {Projection::Orthographic, Projection::Perspective});
}

sim::Status checkRenderSettings(const RenderSettings &s)
{
    auto fail = [](const std::string &m) { return sim::Status::failure("render: " + m); };
    if (s.width < 1 || s.width > 8192 || s.height < 1 || s.height > 8192)
        return fail("frame size " + std::to_string(s.width) + "x" + std::to_string(s.height)
                    + " is outside 1..8192 pixels");
    if (!(s.stepCells > 0.f && s.stepCells <= 4.f))
        return fail("stepCells must be in (0, 4]");
    if (!(s.fieldMax > s.fieldMin))
        return fail("fieldMax must be greater than fieldMin");
    if (!(s.emissionMax > s.emissionMin))
        return fail("emissionMax must be greater than emissionMin");
    if (!(s.zoom > 0.f) || !(s.fov > 0.f && s.fov < 180.f) || !(std::abs(s.pitch) <= 89.f))
        return fail("camera needs zoom > 0, fov in (0, 180) and pitch in [-89, 89]");
    if (!(s.densityScale >= 0.f) || !(s.ambient >= 0.f) || !(s.lightIntensity >= 0.f)
        || !(s.emissionIntensity >= 0.f))
        return fail("densityScale, ambient, lightIntensity and emissionIntensity must be >= 0");
    return sim::Status::success();
}

} // namespace plume
