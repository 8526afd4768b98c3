// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <ui/simulation/framecache.h>

#include <QByteArray>
#include <QByteArrayView>

#include <cstdint>
#include <string>

namespace plume {

/// A frame as the bytes of a disk cache file: a small header (magic, format version, the
/// cache's tag and the frame number), the frame's numbers, then each grid compressed with
/// Blosc (LZ4, byte shuffle: lossless). In 3D only the volume's grids are stored; the middle
/// z-slices are cut from them again on reading. The bytes are this machine's layout: the files
/// live only as long as the session that wrote them.
/// Empty when a grid could not be compressed.
QByteArray encodeFrame(const FrameData &frame, std::uint64_t tag);

/// The frame back from encodeFrame's bytes, or null with `error` set when the bytes are not a
/// frame file, are truncated or damaged, or carry another tag or frame number (a file of
/// another scene or session is never shown).
FramePtr decodeFrame(QByteArrayView bytes, std::uint64_t tag, int frame,
                     std::string *error = nullptr);

} // namespace plume
