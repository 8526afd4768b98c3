// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

class QOpenGLShaderProgram;

namespace plume {

/// Compiles the vertex shader `vertex` and the fragment shader `fragment`, file names in the
/// embedded folder ":/shaders" (ui/viewport/shaders, listed in shaders.qrc), into `program` and
/// links it. Needs a current OpenGL context. False with `error` set to the file that cannot be
/// read or to the compiler's log otherwise.
bool buildShaderProgram(QOpenGLShaderProgram &program, const QString &vertex,
                        const QString &fragment, QString *error);

} // namespace plume
