// SPDX-License-Identifier: Apache-2.0
#include <ui/viewport/glprobe.h>

#include <QGuiApplication>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFunctions_3_3_Core>
#include <QOpenGLVersionFunctionsFactory>

namespace plume {

QSurfaceFormat volumeSurfaceFormat()
{
    QSurfaceFormat f;
    f.setVersion(3, 3);
    f.setProfile(QSurfaceFormat::CoreProfile);
    f.setDepthBufferSize(24);
    return f;
}

namespace {

QString probe()
{
    const QString platform = QGuiApplication::platformName();
    if (platform == "offscreen" || platform == "minimal")
        return QString("the '%1' Qt platform cannot show OpenGL views.").arg(platform);
    QOpenGLContext context;
    context.setFormat(volumeSurfaceFormat());
    if (!context.create())
        return "no OpenGL context could be created (no OpenGL driver?).";
    const QSurfaceFormat got = context.format();
    if (got.version() < qMakePair(3, 3) || got.profile() != QSurfaceFormat::CoreProfile)
        return QString("the driver gives OpenGL %1.%2%3; the volume view needs 3.3 core.")
            .arg(got.majorVersion())
            .arg(got.minorVersion())
            .arg(got.profile() == QSurfaceFormat::CoreProfile ? " core" : "");
    QOffscreenSurface surface;
    surface.setFormat(got);
    surface.create();
    if (!context.makeCurrent(&surface))
        return "the OpenGL context could not be made current.";
    auto *gl = QOpenGLVersionFunctionsFactory::get<QOpenGLFunctions_3_3_Core>(&context);
    const bool ok = gl && gl->initializeOpenGLFunctions();
    context.doneCurrent();
    if (!ok)
        return "the OpenGL 3.3 core functions could not be resolved.";
    return {};
}

} // namespace

QString openGLUnavailableReason()
{
    if (!qEnvironmentVariableIsEmpty("PLUME_NO_OPENGL"))
        return "OpenGL is turned off (the PLUME_NO_OPENGL environment variable is set).";
    static const QString reason = probe();
    return reason;
}

} // namespace plume
