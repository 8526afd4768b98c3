// SPDX-License-Identifier: Apache-2.0
#pragma once

// Liquid textures (docs/liquid-textures.md): an image drawn through the two advected coordinate
// sets of sim/ops/advectedcoords.h and cross-faded so that neither set's reset shows.

#include <core/render/renderer.h>

#include <core/sim/base/grid.h>
#include <core/sim/ops/advectedcoords.h>

#include <QImage>

#include <array>

namespace plume {

/// How the texture is looked up (the scene's liquidTexture settings, decoded:
/// scene/texturelook.h).
struct LiquidTextureLook
{
    QImage image;       ///< the texture (any format; converted to ARGB32 for lookups)
    float tiling = 1.f; ///< times the image repeats across the domain's width
    int period = 24;    ///< frames between resets of one coordinate set
    sim::TextureBlend blend = sim::TextureBlend::Linear;
};

/// The four offset grids of a frame: set 0 x, set 0 y, set 1 x, set 1 y (cells, cell centred).
using TextureOffsets = std::array<const sim::ScalarGrid *, 4>;

/// The offsets of `coords` in TextureOffsets order.
TextureOffsets textureOffsets(const sim::AdvectedCoordinates &coords);

/// The flowing texture after `frame` frames, `pixelsPerCell` pixels per cell edge (row 0 at the
/// domain's top). Each pixel's cell coordinate x maps through each set's coordinate x + offset(x)
/// (offsets interpolated bilinearly, wrapped across periodic axes) into the image, which repeats
/// (`tiling` times across the domain's width, square pixels) and is sampled bilinearly; the two
/// colours are mixed with textureWeight0. With tiling 1, an image as many pixels wide as the
/// domain has cells, one pixel per cell and zero offsets, the result is the image itself.
/// Returns a null image when the offsets are missing or the image is empty. Rows run in
/// parallel; the bytes do not depend on the thread count.
QImage renderLiquidTexture(const TextureOffsets &offsets, const sim::Boundaries &boundaries,
                           int frame, const LiquidTextureLook &look, int pixelsPerCell = 1);

/// The same picture as a `width` x `height` RenderedFrame for flipbooks and image sequences:
/// the domain fitted into the frame and centred, as the 2D renderer places it (transparent
/// around it), colour in linear light (premultiplied), no emission or motion vectors. An empty
/// frame (0 x 0) when the offsets or the image are missing.
RenderedFrame liquidTextureFrame(const TextureOffsets &offsets, const sim::Boundaries &boundaries,
                                 int frame, const LiquidTextureLook &look, int width, int height);

} // namespace plume
