// SPDX-License-Identifier: Apache-2.0
#include <core/render/rendersettings.h>

namespace plume {

sim::Status checkRenderSettings(const RenderSettings &s)
{
    auto fail = [](const std::string &m) { return sim::Status::failure("render: " + m); };
    const std::pair<const sim::Param &, double> values[] = {
        {renderParams::width, s.width},
        {renderParams::height, s.height},
        {renderParams::fieldMin, s.fieldMin},
        {renderParams::fieldMax, s.fieldMax},
        {renderParams::yaw, s.yaw},
        {renderParams::pitch, s.pitch},
        {renderParams::fov, s.fov},
        {renderParams::zoom, s.zoom},
        {renderParams::framingPadding, s.framingPadding},
        {renderParams::lightIntensity, s.lightIntensity},
        {renderParams::ambient, s.ambient},
        {renderParams::densityScale, s.densityScale},
        {renderParams::stepCells, s.stepCells},
        {renderParams::anisotropy, s.anisotropy},
        {renderParams::multipleScattering, s.multipleScattering},
        {renderParams::emissionScattering, s.emissionScattering},
        {renderParams::exposure, s.exposure},
        {renderParams::emissionIntensity, s.emissionIntensity},
        {renderParams::emissionMin, s.emissionMin},
        {renderParams::emissionMax, s.emissionMax},
        {renderParams::flameIntensity, s.flameIntensity},
        {renderParams::surfaceIso, s.surfaceIso},
        {renderParams::foamSpeed, s.foamSpeed},
    };
    for (const auto &[param, v] : values) {
        if (!param.contains(v))
            return fail(std::string(param.key) + " is " + sim::formatNumber(v) + "; expected "
                        + param.describe());
    }
    const std::pair<const sim::Param &, sim::Vec3> vectors[] = {
        {renderParams::lightDirection, s.lightDirection},
        {renderParams::lightColor, s.lightColor},
        {renderParams::skyColor, s.skyColor},
        {renderParams::groundColor, s.groundColor},
        {renderParams::smokeColor, s.smokeColor},
        {renderParams::surfaceColor, s.surfaceColor},
    };
    for (const auto &[param, v] : vectors) {
        for (int c = 0; c < 3; ++c) {
            if (!param.contains(v[c]))
                return fail(std::string(param.key) + "[" + std::to_string(c) + "] is "
                            + sim::formatNumber(v[c]) + "; expected " + param.describe());
        }
    }
    if (!(s.fieldMax > s.fieldMin))
        return fail("fieldMax must be greater than fieldMin");
    if (!(s.emissionMax > s.emissionMin))
        return fail("emissionMax must be greater than emissionMin");
    if (s.lightDirection == sim::Vec3{})
        return fail("lightDirection must not be the zero vector");
    return sim::Status::success();
}

} // namespace plume
