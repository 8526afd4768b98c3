// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/scene/scene.h>

#include <core/render/liquidtexture.h>

#include <string>

namespace plume {

/// Decodes a scene's liquid texture for drawing (render/liquidtexture.h): the image at
/// `settings.file` resolved against `directory` (the scene's folder, as image masks resolve)
/// and the look's numbers. False with `error` naming the file and the cause when the image
/// cannot be read; a texture that is off gives a look without an image and true.
sim::Result<LiquidTextureLook> loadLiquidTextureLook(const LiquidTextureSettings &settings,
                                                     const std::string &directory);

} // namespace plume
