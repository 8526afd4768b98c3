// SPDX-License-Identifier: Apache-2.0
#pragma once

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
/// sRGB-encoded, straight or premultiplied, with emission added when `emission` is Combined:
/// premultiplied adds the sRGB-encoded emission to the encoded colour times alpha (additive
/// light, bright even where alpha is 0); straight adds it to the colour before dividing by
/// alpha, so it shows only where there is smoke.
QImage colorImage(const RenderedFrame &frame, AlphaMode alpha, EmissionOutput emission,
                  int bitDepth);
/// The emission as an opaque sRGB image (values above 1 clip).
QImage emissionImage(const RenderedFrame &frame, int bitDepth);
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
