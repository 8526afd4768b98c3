// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/settings/exportsettings.h>
#include <core/sim/base/types.h>

#include <QByteArray>
#include <QString>

#include <vector>

namespace plume {

/// An image of float channels, row 0 at the top, channels interleaved per pixel.
struct FloatImage
{
    int width = 0;
    int height = 0;
    int channels = 4; ///< 1 (grey), 3 (RGB) or 4 (RGBA)
    std::vector<float> pixels;

    float &at(int x, int y, int c) { return pixels[(std::size_t(y) * width + x) * channels + c]; }
    float at(int x, int y, int c) const
    {
        return pixels[(std::size_t(y) * width + x) * channels + c];
    }
};

/// The OpenEXR channel names of an image: Y for one channel, else R, G, B (and A).
const char *exrChannelName(int channels, int c);

/// The bytes of a scanline OpenEXR file of `image` (ZIP compression, channels named as
/// exrChannelName, every channel half or float). Values are written as they are (no clamping,
/// no transfer function). Deterministic: the same image gives the same bytes. Fails (message
/// says why) only when OpenEXR refuses, e.g. an empty image.
sim::Status exrBytes(const FloatImage &image, ExrPrecision precision, QByteArray &out);

/// Reads an OpenEXR file's Y or R, G, B, A channels back as floats (missing A: 1). The message
/// names the file and the cause.
sim::Status readExr(const QString &path, FloatImage &out);

} // namespace plume
