// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/export/tone.h>
#include <core/render/renderer.h>
#include <core/settings/exportsettings.h>
#include <core/sim/base/types.h>

#include <QByteArray>
#include <QImage>
#include <QString>

#include <vector>

namespace plume {

/// Motion-vector encoding (docs/flipbook.md): a component v in frame pixels per frame is
/// stored as e = 0.5 + v / (2 * range), clamped to [0, 1]; 0.5 is still.
float encodeMotion(float pixelsPerFrame, float range);
/// The inverse: v = (e - 0.5) * 2 * range.
float decodeMotion(float encoded, float range);

/// The frame's colour as an image of `bitDepth` (8: Format_RGBA8888, 16: Format_RGBA64; both
/// unpremultiplied Qt formats, so the stored bytes are exactly what is computed): RGB
/// sRGB-encoded after `tone` (tone.h: exposure, then the tone curve), straight or
/// premultiplied, with emission added when `emission` is Combined.
/// - Straight: RGB = srgb(tone((colour + emission) / alpha)), 0 where alpha is 0: the tone
///   sees the straight colour with the emission in it, so it shows only where there is smoke.
/// - Premultiplied: RGB = srgb(tone(colour / alpha)) * alpha + srgb(tone(emission)): the
///   straight colour and the emission are toned apart (both are in [0, 1] after the tone), and
///   the encoded emission is added after the alpha multiply (additive light, bright even where
///   alpha is 0; the sum clips per channel).
/// Alpha is never toned. `colour` is the frame's premultiplied colour, `emission` its emission.
QImage colorImage(const RenderedFrame &frame, AlphaMode alpha, EmissionOutput emission,
                  int bitDepth, const Tone &tone);
/// The emission as an opaque image: RGB = srgb(tone(emission)).
QImage emissionImage(const RenderedFrame &frame, int bitDepth, const Tone &tone);
/// Motion vectors in R (x, right) and G (y, up) with the encoding above; B 0, A opaque.
QImage motionImage(const RenderedFrame &frame, float range, int bitDepth);

/// PNG bytes of an image (deterministic: Qt's default compression, no text chunks).
QByteArray pngBytes(const QImage &image);

/// Writes several files so that either all appear complete or none changes: each goes to a
/// QSaveFile, and all are committed only when every one was written; when a commit fails, the
/// files committed before it are removed. The message names the file and the cause.
sim::Status writeFilesAtomically(const std::vector<QString> &paths,
                                 const std::vector<QByteArray> &contents);

} // namespace plume
