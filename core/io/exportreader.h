// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to core/io: the scene file's "export" object (render look, flipbook, image-sequence
// and OpenVDB presets), read by the scene reader (scenereader.cpp) with its ObjectReader.

#include <core/io/objectreader.h>
#include <core/scene/scene.h>

namespace plume {

/// Reads the "export" object's sections into `e`; the first bad value fails the context.
void readExport(objectreader::ObjectReader &r, ExportPresets &e);

} // namespace plume
