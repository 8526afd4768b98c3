// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/render/lightmodel.h>
#include <core/render/rendersettings.h>

namespace plume {

/// How 8- and 16-bit images (PNG and the export dialog's preview) turn a frame's linear light
/// into [0, 1] before sRGB encoding: the light times 2^exposure, then the tone curve
/// (lightmodel.h toneMap). frameimage.h says how it meets alpha and emission. EXR stays
/// exactly linear: no exposure, no curve. Data is never toned: motion vectors, normals, depth,
/// alpha, the six-way lightmaps and the emission luminance channel keep their encodings.
///
/// The default Tone maps nothing: linear light clipped at 1, as images were before the light
/// model (docs/render.md).
struct Tone
{
    float exposure = 0.f; ///< stops: the light times 2^exposure
    ToneCurve curve = ToneCurve::Clip;

    /// Linear light to [0, 1]: toneMap(linear * 2^exposure, curve); negatives and NaN give 0.
    float operator()(float linear) const
    {
        return toneMap(linear * exposureScale(exposure), curve);
    }

    friend bool operator==(const Tone &, const Tone &) = default;
};

/// Whether the look of `settings` for a domain of this dimension shows light (the 3D looks, the
/// 2D dye and surface looks) rather than exact colours (the 2D field look's colour map, the
/// liquid texture's image).
inline bool showsLight(const RenderSettings &settings, bool is2D)
{
    return !is2D || (settings.look2D != Look2D::Field && settings.look2D != Look2D::Texture);
}

/// The tone of the images of frames rendered with `settings`: their exposure and tone curve
/// where the look shows light, the default Tone (colours as they are) where it shows exact
/// colours (showsLight).
inline Tone imageTone(const RenderSettings &settings, bool is2D)
{
    return showsLight(settings, is2D) ? Tone{settings.exposure, settings.toneCurve} : Tone{};
}

} // namespace plume
