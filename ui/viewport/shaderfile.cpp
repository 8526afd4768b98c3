// SPDX-License-Identifier: Apache-2.0
#include <ui/viewport/shaderfile.h>

#include <QFile>
#include <QOpenGLShaderProgram>

// The shaders live in a static library: register them explicitly (outside any namespace, as
// Q_INIT_RESOURCE requires), once per process.
static void initShaderResources() { Q_INIT_RESOURCE(shaders); }

namespace plume {

namespace {

bool addShader(QOpenGLShaderProgram &program, QOpenGLShader::ShaderType type, const QString &name,
               QString *error)
{
    [[maybe_unused]] static const bool registered = (initShaderResources(), true);
    QFile file(":/shaders/" + name);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QString("cannot read %1: %2").arg(file.fileName(), file.errorString());
        return false;
    }
    if (!program.addShaderFromSourceCode(type, file.readAll())) {
        *error = name + ": " + program.log();
        return false;
    }
    return true;
}

} // namespace

bool buildShaderProgram(QOpenGLShaderProgram &program, const QString &vertex,
                        const QString &fragment, QString *error)
{
    if (!addShader(program, QOpenGLShader::Vertex, vertex, error)
        || !addShader(program, QOpenGLShader::Fragment, fragment, error))
        return false;
    if (!program.link()) {
        *error = program.log();
        return false;
    }
    return true;
}

} // namespace plume
