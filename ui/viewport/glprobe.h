// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QSurfaceFormat>

namespace plume {

/// The format the window's OpenGL views ask for: 3.3 core profile with a depth buffer. main()
/// makes it the default (QSurfaceFormat::setDefaultFormat) before the QApplication exists.
QSurfaceFormat volumeSurfaceFormat();

/// Asks for the OpenGL 3.3 core profile the volume view needs (a context on an offscreen
/// surface) and returns why it cannot run here, or an empty string when it can. The context is
/// probed once per process. Refuses while PLUME_NO_OPENGL is set to a non-empty value (to try
/// the fallback) and on the "offscreen" and "minimal" platform plugins, which cannot show OpenGL
/// widgets. Needs a QGuiApplication.
QString openGLUnavailableReason();

} // namespace plume
