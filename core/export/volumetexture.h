// SPDX-License-Identifier: Apache-2.0
#pragma once

// Volume textures for game engines (docs/volume-textures.md): a scalar field of a frame
// (density, temperature or flame) as a slice atlas, the z slices laid out in a grid of tiles,
// as Unreal's pseudo-volume textures and Niagara's volume textures, and Unity's Texture3D import
// from a flipbook of slices, read it; with a JSON sidecar naming the layout and value range.

#include <core/sim/base/param.h>
#include <core/sim/base/solver.h>

#include <QImage>

#include <string>
#include <vector>

namespace plume {

/// The field a volume texture holds.
enum class VolumeChannel { Density, Temperature, Flame };
inline constexpr sim::EnumNames<VolumeChannel, 3> kVolumeChannelNames{
    {"density", "temperature", "flame"}};
inline const char *toString(VolumeChannel c) { return kVolumeChannelNames.name(c); }
sim::FieldKind fieldOf(VolumeChannel channel);

/// What a bake writes as volume textures.
struct VolumeTextureSettings
{
    bool enabled = false;
    VolumeChannel channel = VolumeChannel::Density;
    int bitDepth = 8; ///< 8 or 16 bits a pixel
    int size = 64;    ///< voxels along the longest side (the others in proportion)
    /// The value a full pixel stands for; 0: each frame's largest value (the sidecar records
    /// it). A fixed range keeps a sequence's frames comparable.
    float range = 0.f;

    friend bool operator==(const VolumeTextureSettings &, const VolumeTextureSettings &) = default;
};

namespace volumeTextureParams {
inline constexpr sim::Param size{.key = "size", .min = 1, .max = 256, .integer = true};
inline constexpr sim::Param range{.key = "range", .min = 0, .softMax = 1e4, .decimals = 4};
} // namespace volumeTextureParams

/// How an atlas lays out a volume: the same for every frame of a bake.
struct VolumeLayout
{
    sim::Int3 voxels; ///< the volume's size; slices = voxels.z
    int columns = 0;  ///< tiles across; rows = ceil(slices / columns)
    int rows = 0;
};

/// One frame's atlas.
struct VolumeAtlas
{
    QImage image; ///< Grayscale8 or Grayscale16
    VolumeLayout layout;
    float range = 0.f; ///< the value of a full pixel
};

/// Tiles across for `slices` slices: the smallest count whose square holds them.
int volumeAtlasColumns(int slices);

/// Resamples a cell-centred field on `domain` (trilinear at the centres of the voxels of
/// resampledCells(domain, settings.size), gridsample.h) and lays its
/// z slices out: slice k in tile (k % columns, k / columns), tiles left to right, then top to
/// bottom; in a tile x runs right and y up (its top row is the highest y). A pixel is
/// round(clamp(value / range, 0, 1) * (2^bits - 1)).
VolumeAtlas makeVolumeAtlas(const sim::Domain &domain, const sim::ScalarGrid &field,
                            const VolumeTextureSettings &settings);

/// A frame written: its file and the range its pixels stand for.
struct VolumeFrame
{
    int frame = 0;
    std::string file; ///< name within the folder
    float range = 0.f;
};

/// The sidecar, <baseName>_volume.json: the layout, the order, the encoding, the world box
/// and each frame's file and range.
QByteArray volumeTextureSidecar(const VolumeTextureSettings &settings, const VolumeLayout &layout,
                                const sim::Domain &domain, const std::vector<VolumeFrame> &frames);

} // namespace plume
