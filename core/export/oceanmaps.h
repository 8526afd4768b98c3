// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/grid.h>
#include <core/sim/base/param.h>

#include <QByteArray>

#include <cstdint>
#include <vector>

namespace plume {

// The ocean scheme's texture maps (docs/ocean.md): one pixel per cell, pixel (x, y) is cell
// (x, ny - 1 - y) (row 0 at the top, world +y up), so the maps tile exactly as the periodic
// patch does. Maps are float images first; an encoder (PNG 16-bit here) turns them into file
// bytes, so another format (EXR) is one more encoder.

/// Which map. Stored (and named on the command line) as "height", "normal", "foam".
enum class OceanMap : std::uint8_t {
    Height, ///< grey: (h - low) / (high - low), the range in the sidecar
    Normal, ///< tangent-space normal, OpenGL convention (x right, y up, z out): 0.5 + 0.5 n
    Foam,   ///< grey: foam in [0, 1]
};
inline constexpr sim::EnumNames<OceanMap, 3> kOceanMapNames{{"height", "normal", "foam"}};
inline const char *toString(OceanMap m) { return kOceanMapNames.name(m); }

/// A float image: `channels` values per pixel (1 grey, 3 RGB), rows from the top.
struct MapImage
{
    int width = 0;
    int height = 0;
    int channels = 1;
    std::vector<float> values;

    float &at(int x, int y, int c)
    {
        return values[(std::size_t(y) * std::size_t(width) + std::size_t(x)) * channels + c];
    }
    float at(int x, int y, int c) const
    {
        return values[(std::size_t(y) * std::size_t(width) + std::size_t(x)) * channels + c];
    }
};

/// Height scaled to [0, 1] by [low, high] (high > low).
MapImage heightMap(const sim::ScalarGrid &height, float low, float high);
/// The unit normal encoded 0.5 + 0.5 n per channel.
MapImage normalMap(const sim::ScalarGrid &nx, const sim::ScalarGrid &ny, const sim::ScalarGrid &nz);
/// Foam as it is (already in [0, 1]).
MapImage foamMap(const sim::ScalarGrid &foam);

/// A 16-bit PNG: grey maps as Grayscale16, RGB maps as RGBA64 with opaque alpha; values
/// clamped to [0, 1] and rounded to the nearest of 65535 steps. Deterministic bytes.
QByteArray pngBytes16(const MapImage &image);

/// Frames side by side in an atlas of `columns` (row 0 at the top, frame n at column
/// n % columns, row n / columns); cells without a frame are 0. Frames share one size.
MapImage mapAtlas(const std::vector<MapImage> &frames, int columns);

} // namespace plume
