// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/grid.h>
#include <core/sim/base/param.h>

#include <QImage>
#include <QRgb>

#include <string>

namespace plume {

/// Colour maps for showing scalar fields.
enum class ColorMap {
    Smoke,     ///< black to white through warm greys: density
    Inferno,   ///< perceptually ordered black-purple-orange-yellow: temperature, speed
    Diverging, ///< blue-white-red around zero: pressure, divergence, velocity components
};

/// Stable names for files.
inline constexpr sim::EnumNames<ColorMap, 3> kColorMapNames{{"smoke", "inferno", "diverging"}};
inline const char *toString(ColorMap map) { return kColorMapNames.name(map); }

/// Colour of t in [0, 1] (clamped) on a map.
QRgb mapColor(ColorMap map, float t);

/// Image of one z-slice of a cell-centred field (row 0 of the image is the top, the highest y):
/// value lo maps to 0 and hi to 1 on the map. Solid cells (when `solids` is given) are drawn
/// in a flat grey.
QImage fieldImage(const sim::ScalarGrid &field, int slice, ColorMap map, float lo, float hi,
                  const sim::FlagGrid *solids = nullptr);

/// Image of dye colour over a dark background with density as opacity (straight colour).
/// Smoke without dye has `smokeColor` (linear RGB, as RenderSettings::smokeColor).
QImage dyeImage(const sim::ScalarGrid &density, const sim::ScalarGrid &red,
                const sim::ScalarGrid &green, const sim::ScalarGrid &blue, int slice,
                const sim::FlagGrid *solids = nullptr, sim::Vec3 smokeColor = {1.f, 1.f, 1.f});

namespace detail {
/// Linear <-> sRGB transfer (IEC 61966-2-1) for one channel in [0, 1].
float srgbToLinear(float c);
float linearToSrgb(float c);
} // namespace detail

} // namespace plume
